//! One row per game, for spreadsheets and data frames.
//!
//! Columns: `game`, `seed`, `first` (the seat that decided first),
//! `decisions`, `rounds` (empty if the ruleset declares no round counter),
//! `winners` (seat names separated by spaces), then per seat
//! `score_<seat>` and `win_<seat>` (win credit: 1 for a sole win, 1/k of a
//! k-way shared first place, 0 for a loss), then `draw` (1 when the first
//! place was shared), `ending` (the rules' named ending, `unfinished` for
//! a game given up) and one column per metric: `<metric>` for a per-game
//! metric, `<metric>_<seat>` per seat for a per-seat one. A game given up
//! after the decision limit has `(unfinished)` as its winners and empty
//! scores, wins, draw and metrics.
//! A run with variants or parameters set (`--set`) has two more columns
//! at the end, the same on every row: `variants` (joined by ` + `) and
//! `set` (`NAME=VALUE` separated by spaces); a run of the base rules has
//! neither.

use super::{is_draw, win_share, GameRecord, MetricSpec, MetricValue, Report};

/// What `winners` holds for a game given up after the decision limit.
pub const UNFINISHED: &str = "(unfinished)";

/// Quotes a field if it holds a separator, a quote or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The name of seat `p` in the CSV.
fn seat(seats: &[String], p: usize) -> String {
    seats
        .get(p)
        .cloned()
        .unwrap_or_else(|| format!("p{}", p + 1))
}

/// The header line (with its line break) for `players` seats named
/// `seats` and the ruleset's `metrics`.
pub fn header(players: usize, seats: &[String], metrics: &[MetricSpec]) -> String {
    let mut header = vec![
        "game".to_string(),
        "seed".into(),
        "first".into(),
        "decisions".into(),
        "rounds".into(),
        "winners".into(),
    ];
    for p in 0..players {
        header.push(format!("score_{}", seat(seats, p)));
    }
    for p in 0..players {
        header.push(format!("win_{}", seat(seats, p)));
    }
    header.push("draw".into());
    header.push("ending".into());
    for m in metrics {
        if m.per_seat {
            for p in 0..players {
                header.push(format!("{}_{}", m.name, seat(seats, p)));
            }
        } else {
            header.push(m.name.clone());
        }
    }
    let mut out = header
        .iter()
        .map(|h| field(h))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    out
}

/// The line (with its line break) of game `g`.
pub fn row(players: usize, seats: &[String], metrics: &[MetricSpec], g: &GameRecord) -> String {
    let mut row = vec![
        g.game.to_string(),
        g.seed.to_string(),
        g.first.map(|p| seat(seats, p)).unwrap_or_default(),
        g.decisions.to_string(),
        g.rounds.map(|r| r.to_string()).unwrap_or_default(),
        if g.unfinished {
            UNFINISHED.to_string()
        } else {
            g.winners
                .iter()
                .map(|w| seat(seats, *w))
                .collect::<Vec<_>>()
                .join(" ")
        },
    ];
    for p in 0..players {
        row.push(g.scores.get(p).map(|s| s.to_string()).unwrap_or_default());
    }
    for p in 0..players {
        let w = win_share(g, p);
        row.push(if g.unfinished {
            String::new()
        } else if w == 0.0 || w == 1.0 {
            format!("{w:.0}")
        } else {
            format!("{w:.6}")
        });
    }
    row.push(if g.unfinished {
        String::new()
    } else {
        u8::from(is_draw(g)).to_string()
    });
    row.push(g.ending.clone().unwrap_or_default());
    for m in metrics {
        let width = if m.per_seat { players } else { 1 };
        let values = match g.metrics.get(&m.name) {
            Some(MetricValue::Game(v)) => vec![Some(*v)],
            Some(MetricValue::Seats(v)) => v.iter().map(|x| Some(*x)).collect(),
            None => Vec::new(),
        };
        for i in 0..width {
            row.push(
                values
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|v| v.to_string())
                    .unwrap_or_default(),
            );
        }
    }
    let mut out = row.iter().map(|f| field(f)).collect::<Vec<_>>().join(",");
    out.push('\n');
    out
}

/// The extra columns of a run with variants or parameters set: the text
/// to add to the header line and to every row (each starting with `,`),
/// or `None` for a run of the base rules.
pub fn applied_columns(
    variants: &[String],
    set: &std::collections::BTreeMap<String, String>,
) -> Option<(String, String)> {
    if variants.is_empty() && set.is_empty() {
        return None;
    }
    let set: Vec<String> = set.iter().map(|(k, v)| format!("{k}={v}")).collect();
    Some((
        ",variants,set".into(),
        format!(
            ",{},{}",
            field(&variants.join(" + ")),
            field(&set.join(" "))
        ),
    ))
}

/// `line` (ending in a line break) with `extra` added before the break.
pub fn with_extra(line: String, extra: Option<&str>) -> String {
    match extra {
        Some(extra) => format!("{}{extra}\n", line.trim_end_matches('\n')),
        None => line,
    }
}

/// The CSV text of a report's games (with a header line).
pub fn render(report: &Report) -> String {
    let extra = applied_columns(&report.variants, &report.set);
    let mut out = with_extra(
        header(report.players, &report.seats, &report.metrics),
        extra.as_ref().map(|e| e.0.as_str()),
    );
    for g in &report.games {
        out.push_str(&with_extra(
            row(report.players, &report.seats, &report.metrics, g),
            extra.as_ref().map(|e| e.1.as_str()),
        ));
    }
    out
}

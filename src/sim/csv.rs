//! One row per game, for spreadsheets and data frames.
//!
//! Columns: `game`, `seed`, `first` (the seat that decided first),
//! `decisions`, `rounds` (empty if the ruleset declares no round counter),
//! `winners` (seat names separated by spaces), then per seat
//! `score_<seat>` and `win_<seat>` (1 for a win, 1/k of a k-way shared win,
//! 0 for a loss).

use super::{win_share, Report};

/// Quotes a field if it holds a separator, a quote or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV text of a report's games (with a header line).
pub fn render(report: &Report) -> String {
    let seat = |p: usize| {
        report
            .seats
            .get(p)
            .cloned()
            .unwrap_or_else(|| format!("p{}", p + 1))
    };
    let mut header = vec![
        "game".to_string(),
        "seed".into(),
        "first".into(),
        "decisions".into(),
        "rounds".into(),
        "winners".into(),
    ];
    for p in 0..report.players {
        header.push(format!("score_{}", seat(p)));
    }
    for p in 0..report.players {
        header.push(format!("win_{}", seat(p)));
    }
    let mut out = header
        .iter()
        .map(|h| field(h))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for g in &report.games {
        let mut row = vec![
            g.game.to_string(),
            g.seed.to_string(),
            g.first.map(seat).unwrap_or_default(),
            g.decisions.to_string(),
            g.rounds.map(|r| r.to_string()).unwrap_or_default(),
            g.winners
                .iter()
                .map(|w| seat(*w))
                .collect::<Vec<_>>()
                .join(" "),
        ];
        for p in 0..report.players {
            row.push(g.scores.get(p).map(|s| s.to_string()).unwrap_or_default());
        }
        for p in 0..report.players {
            let w = win_share(g, p);
            row.push(if w == 0.0 || w == 1.0 {
                format!("{w:.0}")
            } else {
                format!("{w:.6}")
            });
        }
        out.push_str(&row.iter().map(|f| field(f)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

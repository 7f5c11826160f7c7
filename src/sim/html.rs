//! `--report FILE.html`: a self-contained page a designer can open and
//! read. Inline SVG and CSS only: no script, no network, no fonts to fetch.
//!
//! It shows the run (ruleset, variants, bots, seed), win-rate bars with
//! their 95% intervals against the fair share, the draw rate, one score
//! histogram per seat on a common scale, the game-length histogram, how
//! the games ended, the rules' metrics (means with 95% intervals), the
//! first-player advantage and the table of statistics.

use std::fmt::Write;

pub use super::html_parts::esc;
use super::html_parts::{bars, endings_table, Bar};
use super::tally::{Counts, Tally};
use super::{Report, Stats, Summary};

const PALETTE: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
];

/// The colour of seat `p`.
pub(super) fn colour(p: usize) -> &'static str {
    PALETTE[p % PALETTE.len()]
}

pub(super) fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Integer bins covering `lo..=hi`: (first value, width, count of bins).
pub(super) fn bins(lo: i64, hi: i64, max_bins: i64) -> (i64, i64, usize) {
    // In i128: the span of two extreme i64 values does not fit an i64.
    let span = (i128::from(hi) - i128::from(lo) + 1).max(1);
    let max_bins = i128::from(max_bins.max(1));
    let width = (span + max_bins - 1) / max_bins;
    let n = (span + width - 1) / width;
    (
        lo,
        i64::try_from(width.max(1)).unwrap_or(i64::MAX),
        usize::try_from(n.max(1)).unwrap_or(1),
    )
}

/// A histogram of the values counted in `values` over the bins
/// `(lo, width, n)` as an SVG.
pub(super) fn histogram(
    values: &Counts,
    (lo, width, n): (i64, i64, usize),
    title: &str,
    fill: &str,
    mean: Option<f64>,
) -> String {
    let mut counts = vec![0u64; n];
    for (v, c) in values {
        let b = ((i128::from(*v) - i128::from(lo)) / i128::from(width)).clamp(0, n as i128 - 1)
            as usize;
        counts[b] += c;
    }
    let top = counts.iter().copied().max().unwrap_or(0).max(1);
    let (w, h) = (420.0, 200.0);
    let (left, right, top_m, bottom) = (44.0, 10.0, 24.0, 34.0);
    let pw = w - left - right;
    let ph = h - top_m - bottom;
    let bw = pw / n as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{t}">"#,
        t = esc(title)
    );
    let _ = write!(
        s,
        r#"<text x="{x}" y="16" text-anchor="middle" class="title">{t}</text>"#,
        x = w / 2.0,
        t = esc(title)
    );
    // Axes.
    let _ = write!(
        s,
        r##"<line x1="{left}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="#333"/><line x1="{left}" y1="{top_m}" x2="{left}" y2="{y0}" stroke="#333"/>"##,
        y0 = top_m + ph,
        x1 = left + pw
    );
    let _ = write!(
        s,
        r#"<text x="{x}" y="{y}" text-anchor="end" class="tick">{top}</text><text x="{x}" y="{y0}" text-anchor="end" class="tick">0</text>"#,
        x = left - 4.0,
        y = top_m + 4.0,
        y0 = top_m + ph
    );
    for (i, c) in counts.iter().enumerate() {
        let bh = ph * *c as f64 / top as f64;
        let x = left + bw * i as f64;
        let from = lo.saturating_add(width.saturating_mul(i as i64));
        let label = if width == 1 {
            format!("{from}: {c} games")
        } else {
            format!("{from} to {}: {c} games", from.saturating_add(width - 1))
        };
        let _ = write!(
            s,
            r#"<rect x="{x:.2}" y="{y:.2}" width="{bw:.2}" height="{bh:.2}" fill="{fill}" stroke="white" stroke-width="0.5"><title>{label}</title></rect>"#,
            y = top_m + ph - bh,
            bw = (bw - 0.5).max(0.5),
        );
    }
    // Tick labels: first, middle and last bins.
    let mut ticks = vec![0usize, n / 2, n - 1];
    ticks.dedup();
    for i in ticks {
        let from = lo.saturating_add(width.saturating_mul(i as i64));
        let _ = write!(
            s,
            r#"<text x="{x:.2}" y="{y}" text-anchor="middle" class="tick">{from}</text>"#,
            x = left + bw * (i as f64 + 0.5),
            y = top_m + ph + 14.0
        );
    }
    if let Some(m) = mean {
        // Values are binned by their integer part: a value v sits at
        // (v - lo + 0.5) / width bins from the left edge.
        let x = left + bw * ((m - lo as f64 + 0.5) / width as f64);
        if x.is_finite() {
            let _ = write!(
                s,
                r##"<line x1="{x:.2}" y1="{top_m}" x2="{x:.2}" y2="{y0}" stroke="#222" stroke-dasharray="4 3"/><text x="{x:.2}" y="{y}" text-anchor="middle" class="tick">mean {m:.1}</text>"##,
                y0 = top_m + ph,
                y = top_m + ph + 28.0
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// Horizontal win-rate bars with 95% interval whiskers and the fair share.
fn win_bars(report: &Report) -> String {
    let sm = &report.summary;
    let n = sm.seats.len().max(1);
    let row = 34.0;
    let (left, right, top) = (150.0, 70.0, 30.0);
    let w = 640.0;
    let h = top + row * n as f64 + 30.0;
    let pw = w - left - right;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="win rates">"#
    );
    let _ = write!(
        s,
        r#"<text x="{x}" y="18" text-anchor="middle" class="title">Win rate by seat (bars: 95% interval; dashed: fair share)</text>"#,
        x = w / 2.0
    );
    for k in 0..=4 {
        let f = k as f64 / 4.0;
        let x = left + pw * f;
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{y}" stroke="#ddd"/><text x="{x:.1}" y="{ty}" text-anchor="middle" class="tick">{p}</text>"##,
            y = top + row * n as f64,
            ty = top + row * n as f64 + 14.0,
            p = pct(f)
        );
    }
    for (p, seat) in sm.seats.iter().enumerate() {
        let y = top + row * p as f64;
        let name = report.seats.get(p).cloned().unwrap_or_default();
        let agent = report.agents.get(p).cloned().unwrap_or_default();
        let _ = write!(
            s,
            r#"<text x="{x}" y="{ty:.1}" text-anchor="end" class="label">{l}</text>"#,
            x = left - 8.0,
            ty = y + row / 2.0 + 4.0,
            l = esc(&format!("{name} ({agent})"))
        );
        let bw = pw * seat.win_rate;
        let _ = write!(
            s,
            r#"<rect x="{left}" y="{y:.1}" width="{bw:.2}" height="{bh:.1}" fill="{c}"><title>{t}</title></rect>"#,
            y = y + 6.0,
            bh = row - 12.0,
            c = colour(p),
            t = esc(&format!(
                "{name}: {} (95% CI {} to {})",
                pct(seat.win_rate),
                pct(seat.win_ci95.0),
                pct(seat.win_ci95.1)
            ))
        );
        let (x0, x1) = (left + pw * seat.win_ci95.0, left + pw * seat.win_ci95.1);
        let cy = y + row / 2.0;
        let _ = write!(
            s,
            r##"<line x1="{x0:.2}" y1="{cy:.1}" x2="{x1:.2}" y2="{cy:.1}" stroke="#111" stroke-width="1.5"/><line x1="{x0:.2}" y1="{a:.1}" x2="{x0:.2}" y2="{b:.1}" stroke="#111" stroke-width="1.5"/><line x1="{x1:.2}" y1="{a:.1}" x2="{x1:.2}" y2="{b:.1}" stroke="#111" stroke-width="1.5"/>"##,
            a = cy - 6.0,
            b = cy + 6.0
        );
        let _ = write!(
            s,
            r#"<text x="{x:.1}" y="{ty:.1}" class="label">{v}</text>"#,
            x = left + pw + 6.0,
            ty = cy + 4.0,
            v = pct(seat.win_rate)
        );
    }
    let fair = left + pw * sm.first_player.fair_share;
    let _ = write!(
        s,
        r##"<line x1="{fair:.2}" y1="{top}" x2="{fair:.2}" y2="{y}" stroke="#c00" stroke-dasharray="5 4"/>"##,
        y = top + row * n as f64
    );
    s.push_str("</svg>");
    s
}

pub(super) fn stats_cells(s: &Option<Stats>) -> String {
    match s {
        Some(s) => format!(
            "<td>{:.2}</td><td>{:.2}</td><td>{}</td><td>{:.1}</td><td>{:.1}</td><td>{:.1}</td><td>{}</td>",
            s.mean, s.sd, s.min, s.p25, s.median, s.p75, s.max
        ),
        None => "<td colspan=\"7\">-</td>".into(),
    }
}

/// The page's stylesheet.
pub(super) const STYLE: &str = "<style>\nbody{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}\n\
     h1{font-size:1.6em;margin-bottom:.2em} h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}\n\
     table{border-collapse:collapse;margin:.6em 0} td,th{padding:.25em .6em;text-align:right;border-bottom:1px solid #eee} td{white-space:nowrap}\n\
     th{background:#f5f5f5} td:first-child,th:first-child,td.l{text-align:left}\n\
     .meta{color:#555} .grid{display:flex;flex-wrap:wrap;gap:1em}\n\
     svg .title{font-size:13px;font-weight:600} svg .tick{font-size:10px;fill:#444} svg .label{font-size:12px}\n\
     .swatch{display:inline-block;width:.8em;height:.8em;margin-right:.4em;vertical-align:baseline}\n</style>\n</head>\n<body>\n";

/// A game-length series: its label, the per-game values and their statistics.
type Lengths<'a> = (&'static str, &'a Counts, &'a Option<Stats>);

/// The page for `report`; `title` names the game, `elapsed` (seconds) adds
/// the speed when known.
pub fn render(report: &Report, title: &str, elapsed: Option<f64>) -> String {
    render_tally(
        report,
        &Tally::of(report.players, &report.games),
        title,
        elapsed,
    )
}

/// The page for the run `report` (its games are not read) whose games
/// were counted in `tally`.
pub fn render_tally(report: &Report, tally: &Tally, title: &str, elapsed: Option<f64>) -> String {
    let sm = &report.summary;
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(h, "<title>{} — simulation report</title>", esc(title));
    h.push_str(STYLE);
    let _ = writeln!(h, "<h1>{}</h1>", esc(title));
    run_line(&mut h, report, elapsed);
    win_section(&mut h, report);
    score_section(&mut h, report, tally);
    let lengths: [Lengths; 2] = [
        ("Rounds per game", &tally.rounds, &sm.rounds),
        ("Decisions per game", &tally.decisions, &sm.decisions),
    ];
    length_section(&mut h, &lengths);
    endings_section(&mut h, sm);
    metrics_section(&mut h, report);
    statistics_section(&mut h, report, &lengths);
    h.push_str("<p class=\"meta\">A shared first place is a draw: win rates count sole first places; the win credit (and the first player's record) counts 1/k of a k-way draw to each. Intervals of rates are 95% Wilson score intervals, of means Student's t. Written by tabula.</p>\n</body>\n</html>\n");
    h
}

/// The run: ruleset, variants, parameters set, players, games, seed and
/// speed.
fn run_line(h: &mut String, report: &Report, elapsed: Option<f64>) {
    let sm = &report.summary;
    let mut variants = if report.variants.is_empty() {
        "none".to_string()
    } else {
        report.variants.join(" + ")
    };
    if !report.set.is_empty() {
        let set: Vec<String> = report.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        variants.push_str(&format!(" · set {}", set.join(", ")));
    }
    let _ = writeln!(
        h,
        "<p class=\"meta\">ruleset <code>{}</code> · variants: {} · {} players · {} games{} · run seed {}{}</p>",
        esc(&report.ruleset),
        esc(&variants),
        report.players,
        sm.games,
        match report.shard {
            Some(s) => format!(" (shard {s} of a {}-game run)", report.total_games),
            None => String::new(),
        },
        report.seed,
        match elapsed {
            Some(t) if t > 0.0 => format!(" · {:.1} games/s", sm.games as f64 / t),
            _ => String::new(),
        }
    );
}

/// Win-rate bars and the first player's record.
fn win_section(h: &mut String, report: &Report) {
    h.push_str("<h2>Win rates</h2>\n");
    h.push_str(&win_bars(report));
    h.push('\n');
    let sm = &report.summary;
    let _ = writeln!(
        h,
        "<p>Draws (a shared first place): <b>{}</b> of {} games, {} (95% CI {} to {}).</p>",
        sm.draws,
        sm.games,
        pct(sm.draw_rate),
        pct(sm.draw_ci95.0),
        pct(sm.draw_ci95.1)
    );
    let f = &report.summary.first_player;
    if f.games > 0 {
        let _ = writeln!(
            h,
            "<p>The seat that took the first decision won <b>{}</b> of {} games (95% CI {} to {}; fair share {}).</p>",
            pct(f.win_rate),
            f.games,
            pct(f.win_ci95.0),
            pct(f.win_ci95.1),
            pct(f.fair_share)
        );
    }
}

/// One score histogram per seat, on a common scale.
fn score_section(h: &mut String, report: &Report, tally: &Tally) {
    h.push_str("<h2>Scores</h2>\n<div class=\"grid\">\n");
    let lo = tally.scores.iter().filter_map(|c| c.keys().next()).min();
    let hi = tally
        .scores
        .iter()
        .filter_map(|c| c.keys().next_back())
        .max();
    if let (Some(lo), Some(hi)) = (lo, hi) {
        let b = bins(*lo, *hi, 30);
        let none = Counts::new();
        for p in 0..report.players {
            let xs = tally.scores.get(p).unwrap_or(&none);
            let name = report.seats.get(p).cloned().unwrap_or_default();
            let agent = report.agents.get(p).cloned().unwrap_or_default();
            let mean = report
                .summary
                .seats
                .get(p)
                .and_then(|s| s.score.as_ref())
                .map(|s| s.mean);
            h.push_str(&histogram(
                xs,
                b,
                &format!("Score of {name} ({agent})"),
                colour(p),
                mean,
            ));
            h.push('\n');
        }
    } else {
        h.push_str("<p>No games.</p>\n");
    }
    h.push_str("</div>\n");
}

/// The histograms of game lengths (rounds, decisions).
fn length_section(h: &mut String, lengths: &[Lengths]) {
    h.push_str("<h2>Game length</h2>\n<div class=\"grid\">\n");
    for (label, xs, st) in lengths {
        if let Some(st) = st {
            h.push_str(&histogram(
                xs,
                bins(st.min, st.max, 30),
                label,
                "#888",
                Some(st.mean),
            ));
            h.push('\n');
        }
    }
    h.push_str("</div>\n");
}

/// How the games ended, by the rules' named endings.
fn endings_section(h: &mut String, sm: &Summary) {
    if sm.endings.is_empty() {
        return;
    }
    h.push_str("<h2>How the games ended</h2>\n");
    let rows: Vec<(String, Vec<usize>)> = sm
        .endings
        .iter()
        .map(|(k, n)| (k.clone(), vec![*n]))
        .collect();
    h.push_str(&endings_table(&rows, &["games"]));
}

/// The rules' metrics: one chart of means with 95% intervals per metric
/// (per seat for a per-seat metric), and their table.
fn metrics_section(h: &mut String, report: &Report) {
    let sm = &report.summary;
    if sm.metrics.is_empty() {
        return;
    }
    h.push_str("<h2>Metrics</h2>\n");
    let _ = writeln!(h, "<p>{}</p>", sm.metrics_over());
    h.push_str("<div class=\"grid\">\n");
    let seat = |p: usize| report.seats.get(p).cloned().unwrap_or_default();
    for (name, m) in &sm.metrics {
        let rows: Vec<Bar> = m
            .stats
            .iter()
            .zip(&m.mean_ci95)
            .enumerate()
            .filter_map(|(i, (st, ci))| {
                st.as_ref().map(|st| Bar {
                    label: if m.per_seat {
                        seat(i)
                    } else {
                        "per game".into()
                    },
                    value: st.mean,
                    ci: *ci,
                    fill: if m.per_seat { colour(i) } else { "#888" },
                })
            })
            .collect();
        h.push_str(&bars(&format!("{name} (mean, 95% CI)"), &rows, false));
        h.push('\n');
    }
    h.push_str("</div>\n<table>\n<tr><th>metric</th><th>seat</th><th>mean</th><th>95% CI of mean</th><th>sd</th><th>min</th><th>median</th><th>max</th></tr>\n");
    for (name, m) in &sm.metrics {
        for (i, (st, ci)) in m.stats.iter().zip(&m.mean_ci95).enumerate() {
            let Some(st) = st else { continue };
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td class=\"l\">{}</td><td>{:.2}</td><td>{:.2} – {:.2}</td><td>{:.2}</td><td>{}</td><td>{:.1}</td><td>{}</td></tr>",
                esc(name),
                esc(&if m.per_seat { seat(i) } else { "(game)".into() }),
                st.mean,
                ci.0,
                ci.1,
                st.sd,
                st.min,
                st.median,
                st.max
            );
        }
    }
    h.push_str("</table>\n");
}

/// The tables: per seat, then per game.
fn statistics_section(h: &mut String, report: &Report, lengths: &[Lengths]) {
    let sm = &report.summary;
    h.push_str("<h2>Statistics</h2>\n<table>\n<tr><th>seat</th><th>agent</th><th>win rate</th><th>95% CI</th><th>drew</th><th>win credit</th><th>mean score</th><th>sd</th><th>min</th><th>p25</th><th>median</th><th>p75</th><th>max</th><th>decided first</th><th>won when first</th></tr>\n");
    for (p, seat) in sm.seats.iter().enumerate() {
        let fs = sm.first_player.by_seat.get(p);
        let _ = writeln!(
            h,
            "<tr><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td><td class=\"l\">{}</td><td>{}</td><td>{} – {}</td><td>{}</td><td>{}</td>{}<td>{}</td><td>{}</td></tr>",
            colour(p),
            esc(report.seats.get(p).map(String::as_str).unwrap_or("")),
            esc(report.agents.get(p).map(String::as_str).unwrap_or("")),
            pct(seat.win_rate),
            pct(seat.win_ci95.0),
            pct(seat.win_ci95.1),
            pct(seat.draw_rate),
            pct(seat.credit_rate),
            stats_cells(&seat.score),
            fs.map_or(0, |s| s.games),
            fs.filter(|s| s.games > 0).map_or("-".into(), |s| pct(s.win_rate)),
        );
    }
    h.push_str("</table>\n<table>\n<tr><th>per game</th><th>mean</th><th>sd</th><th>min</th><th>p25</th><th>median</th><th>p75</th><th>max</th></tr>\n");
    for (label, _, st) in lengths {
        let _ = writeln!(h, "<tr><td>{}</td>{}</tr>", esc(label), stats_cells(st));
    }
    h.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_the_range() {
        assert_eq!(bins(0, 9, 30), (0, 1, 10));
        assert_eq!(bins(0, 99, 30), (0, 4, 25));
        assert_eq!(bins(5, 5, 30), (5, 1, 1));
        assert_eq!(esc("<a&\"b'>"), "&lt;a&amp;&quot;b&#39;&gt;");
    }
}

//! `compare --report FILE.html`: the A/B page of a comparison, as
//! self-contained as the run page (inline SVG and CSS; no script, no
//! network, no fonts to fetch). A is the baseline (`--against`), B the
//! variant (`--variant`), named at the top.
//!
//! It shows win rates side by side with their 95% intervals, the draw
//! rates, each seat's scores under A and B overlaid, the game length, how
//! the games ended, and every metric's change with its 95% interval and
//! p-value.

use std::fmt::Write;

use super::compare::{label, pval, stars, Comparison};
use super::html::{bins, colour, esc, pct, STYLE};
use super::html_parts::{bars, endings_table, Bar};
use super::stats::{wilson, Test};
use super::tally::{Counts, Tally};

/// The colours of A and B.
const A_FILL: &str = "#4e79a7";
const B_FILL: &str = "#f28e2b";

/// The page comparing `base` (A) with `var` (B) as summed up in `c`;
/// `title` names the game.
pub fn render(c: &Comparison, base: &Tally, var: &Tally, title: &str) -> String {
    let (a, b) = (label(&c.baseline), label(&c.variant));
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(h, "<title>{} — A/B comparison</title>", esc(title));
    h.push_str(STYLE);
    let _ = writeln!(h, "<h1>{}: A/B comparison</h1>", esc(title));
    let _ = writeln!(
        h,
        "<p><span class=\"swatch\" style=\"background:{A_FILL}\"></span><b>A</b> (baseline, <code>--against</code>): <b>{}</b><br><span class=\"swatch\" style=\"background:{B_FILL}\"></span><b>B</b> (variant, <code>--variant</code>): <b>{}</b></p>",
        esc(&a),
        esc(&b)
    );
    let _ = writeln!(
        h,
        "<p class=\"meta\">ruleset <code>{}</code> · {} players · {} games per rule set (the same seeds) · run seed {} · bots {}</p>",
        esc(&c.ruleset),
        c.players,
        c.games,
        c.seed,
        esc(&c.agents.join(", "))
    );
    wins(&mut h, c, base, var);
    scores(&mut h, c, base, var);
    lengths(&mut h, c, base, var);
    endings(&mut h, c);
    metrics(&mut h, c);
    h.push_str("<p class=\"meta\">Win rates count sole first places; a shared first place is a draw. Changes are B − A with 95% intervals (unpooled normal for rates, Welch for means); p-values are two-sided (two-proportion z-test, Welch's t-test): * &lt; 0.05, ** &lt; 0.01, *** &lt; 0.001. Written by tabula.</p>\n</body>\n</html>\n");
    h
}

/// A test's row cells: A, B, change with its interval, p-value.
fn test_cells(t: &Test, rate: bool) -> String {
    let v = |x: f64| {
        if rate {
            pct(x)
        } else {
            format!("{x:.2}")
        }
    };
    let d = |x: f64| {
        if rate {
            format!("{:+.1} pts", x * 100.0)
        } else {
            format!("{x:+.2}")
        }
    };
    format!(
        "<td>{}</td><td>{}</td><td>{}</td><td>{} to {}</td><td>{} {}</td>",
        v(t.a),
        v(t.b),
        d(t.diff),
        d(t.ci95.0),
        d(t.ci95.1),
        pval(t.p),
        stars(t.p)
    )
}

const TEST_HEAD: &str = "<th>A</th><th>B</th><th>change</th><th>95% CI</th><th>p</th>";

/// Win rates of A and B side by side, per seat, and the draw rates.
fn wins(h: &mut String, c: &Comparison, base: &Tally, var: &Tally) {
    h.push_str("<h2>Win rates</h2>\n");
    let mut rows = Vec::new();
    for (p, ch) in c.changes.iter().enumerate() {
        let name = c.seat_name(p);
        for (side, t, rate, fill) in [
            ("A", base, ch.win_rate.a, A_FILL),
            ("B", var, ch.win_rate.b, B_FILL),
        ] {
            rows.push(Bar {
                label: format!("{name} · {side}"),
                value: rate,
                ci: wilson(rate, t.games),
                fill,
            });
        }
    }
    for (side, t, rate, fill) in [
        ("A", base, c.draws.a, A_FILL),
        ("B", var, c.draws.b, B_FILL),
    ] {
        rows.push(Bar {
            label: format!("draws · {side}"),
            value: rate,
            ci: wilson(rate, t.games),
            fill,
        });
    }
    h.push_str(&bars(
        "Win rate by seat, and draw rate (bars: 95% interval)",
        &rows,
        true,
    ));
    let _ = writeln!(h, "\n<table>\n<tr><th>seat</th>{TEST_HEAD}</tr>");
    for (p, ch) in c.changes.iter().enumerate() {
        let _ = writeln!(
            h,
            "<tr><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td>{}</tr>",
            colour(p),
            esc(&c.seat_name(p)),
            test_cells(&ch.win_rate, true)
        );
    }
    let _ = writeln!(h, "<tr><td>draws</td>{}</tr>", test_cells(&c.draws, true));
    let _ = writeln!(
        h,
        "<tr><td>first player (credit)</td>{}</tr>\n</table>",
        test_cells(&c.first_player, true)
    );
}

/// Two histograms overlaid on common bins: A and B half transparent.
fn overlay(title: &str, a: &Counts, b: &Counts) -> String {
    let lo = a
        .keys()
        .next()
        .into_iter()
        .chain(b.keys().next())
        .min()
        .copied();
    let hi = a
        .keys()
        .next_back()
        .into_iter()
        .chain(b.keys().next_back())
        .max()
        .copied();
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return String::new();
    };
    let (lo, width, n) = bins(lo, hi, 30);
    let count = |c: &Counts| {
        let mut v = vec![0u64; n];
        for (x, k) in c {
            let i = ((i128::from(*x) - i128::from(lo)) / i128::from(width)).clamp(0, n as i128 - 1);
            v[i as usize] += k;
        }
        v
    };
    let (ca, cb) = (count(a), count(b));
    let top = ca.iter().chain(&cb).copied().max().unwrap_or(0).max(1);
    let (w, ht) = (420.0, 200.0);
    let (left, right, top_m, bottom) = (44.0, 10.0, 24.0, 30.0);
    let (pw, ph) = (w - left - right, ht - top_m - bottom);
    let bw = pw / n as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{ht}" viewBox="0 0 {w} {ht}" role="img" aria-label="{t}"><text x="{c}" y="16" text-anchor="middle" class="title">{t}</text><line x1="{left}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="#333"/><text x="{tx}" y="{ty}" text-anchor="end" class="tick">{top}</text>"##,
        t = esc(title),
        c = w / 2.0,
        y0 = top_m + ph,
        x1 = left + pw,
        tx = left - 4.0,
        ty = top_m + 4.0
    );
    for (counts, fill, side) in [(&ca, A_FILL, "A"), (&cb, B_FILL, "B")] {
        for (i, k) in counts.iter().enumerate() {
            let bh = ph * *k as f64 / top as f64;
            let from = lo.saturating_add(width.saturating_mul(i as i64));
            let _ = write!(
                s,
                r#"<rect x="{x:.2}" y="{y:.2}" width="{bw:.2}" height="{bh:.2}" fill="{fill}" fill-opacity="0.5"><title>{side}: {from}: {k} games</title></rect>"#,
                x = left + bw * i as f64,
                y = top_m + ph - bh,
                bw = (bw - 0.5).max(0.5)
            );
        }
    }
    let mut ticks = vec![0usize, n / 2, n - 1];
    ticks.dedup();
    for i in ticks {
        let _ = write!(
            s,
            r#"<text x="{x:.2}" y="{y}" text-anchor="middle" class="tick">{v}</text>"#,
            x = left + bw * (i as f64 + 0.5),
            y = top_m + ph + 14.0,
            v = lo.saturating_add(width.saturating_mul(i as i64))
        );
    }
    s.push_str("</svg>");
    s
}

/// Each seat's scores under A and B, overlaid, and the mean's change.
fn scores(h: &mut String, c: &Comparison, base: &Tally, var: &Tally) {
    h.push_str("<h2>Scores</h2>\n<div class=\"grid\">\n");
    let none = Counts::new();
    for p in 0..c.players {
        let a = base.scores.get(p).unwrap_or(&none);
        let b = var.scores.get(p).unwrap_or(&none);
        h.push_str(&overlay(
            &format!("Score of {} (A blue, B orange)", c.seat_name(p)),
            a,
            b,
        ));
        h.push('\n');
    }
    let _ = writeln!(
        h,
        "</div>\n<table>\n<tr><th>mean score</th>{TEST_HEAD}</tr>"
    );
    for (p, ch) in c.changes.iter().enumerate() {
        let _ = writeln!(
            h,
            "<tr><td>{}</td>{}</tr>",
            esc(&c.seat_name(p)),
            test_cells(&ch.score, false)
        );
    }
    h.push_str("</table>\n");
}

/// Decisions and rounds per game under A and B.
fn lengths(h: &mut String, c: &Comparison, base: &Tally, var: &Tally) {
    h.push_str("<h2>Game length</h2>\n<div class=\"grid\">\n");
    h.push_str(&overlay(
        "Decisions per game (A blue, B orange)",
        &base.decisions,
        &var.decisions,
    ));
    if c.rounds.is_some() {
        h.push_str(&overlay(
            "Rounds per game (A blue, B orange)",
            &base.rounds,
            &var.rounds,
        ));
    }
    let _ = writeln!(h, "</div>\n<table>\n<tr><th>per game</th>{TEST_HEAD}</tr>");
    let _ = writeln!(
        h,
        "<tr><td>decisions</td>{}</tr>",
        test_cells(&c.decisions, false)
    );
    if let Some(r) = &c.rounds {
        let _ = writeln!(h, "<tr><td>rounds</td>{}</tr>", test_cells(r, false));
    }
    h.push_str("</table>\n");
}

/// How the games ended under A and B.
fn endings(h: &mut String, c: &Comparison) {
    if c.endings.is_empty() {
        return;
    }
    h.push_str("<h2>How the games ended</h2>\n");
    let rows: Vec<(String, Vec<usize>)> = c
        .endings
        .iter()
        .map(|(k, (x, y))| (k.clone(), vec![*x, *y]))
        .collect();
    h.push_str(&endings_table(&rows, &["A", "B"]));
}

/// Every metric's change (B − A) with its 95% interval, as a chart and a
/// table.
fn metrics(h: &mut String, c: &Comparison) {
    if c.metrics.is_empty() {
        return;
    }
    h.push_str("<h2>Metrics</h2>\n");
    let name = |m: &super::compare::MetricChange| match m.seat {
        Some(p) => format!("{} · {}", m.metric, c.seat_name(p)),
        None => m.metric.clone(),
    };
    let rows: Vec<Bar> = c
        .metrics
        .iter()
        .map(|m| Bar {
            label: name(m),
            value: m.test.diff,
            ci: m.test.ci95,
            fill: if m.test.p < 0.05 { B_FILL } else { "#aaa" },
        })
        .collect();
    h.push_str(&bars(
        "Change in each metric's mean, B − A (bars: 95% interval; orange: p < 0.05)",
        &rows,
        false,
    ));
    let _ = writeln!(h, "\n<table>\n<tr><th>metric</th>{TEST_HEAD}</tr>");
    for m in &c.metrics {
        let _ = writeln!(
            h,
            "<tr><td>{}</td>{}</tr>",
            esc(&name(m)),
            test_cells(&m.test, false)
        );
    }
    h.push_str("</table>\n");
}

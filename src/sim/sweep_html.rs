//! `tabula sweep --html FILE`: a self-contained page (inline SVG and CSS,
//! no script, no font or file fetched) charting each measure of a sweep
//! against the grid points: win rate per seat with its 95% interval, the
//! first player's win rate against its fair share, the draw rate, mean
//! scores, mean decisions and every metric of the rules (with the 95%
//! interval of its mean); then the tables.

use std::fmt::Write;

use super::html::esc;
use super::sweep::{mean_score, metric_ci, metric_mean, SweepReport};

const PALETTE: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
];

/// One line of a chart: its name, colour, values and (optionally) an
/// interval around each value.
struct Series {
    name: String,
    colour: &'static str,
    values: Vec<f64>,
    intervals: Option<Vec<(f64, f64)>>,
}

const W: f64 = 640.0;
const H: f64 = 240.0;
const LEFT: f64 = 60.0;
const BOTTOM: f64 = 50.0;
const TOP: f64 = 14.0;
const RIGHT: f64 = 130.0;

/// A line chart of `series` over the points labelled `labels`, with a
/// dashed line at `reference`; `percent` shows values as percentages.
fn line_chart(
    labels: &[String],
    series: &[Series],
    reference: Option<f64>,
    percent: bool,
) -> String {
    let all = series
        .iter()
        .flat_map(|s| {
            s.values
                .iter()
                .copied()
                .chain(s.intervals.iter().flatten().flat_map(|&(lo, hi)| [lo, hi]))
        })
        .chain(reference)
        .filter(|v| v.is_finite());
    let (mut lo, mut hi) = all.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    if lo > hi {
        (lo, hi) = (0.0, 1.0);
    }
    if percent {
        lo = lo.min(0.0);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let n = labels.len().max(1);
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let x = |i: usize| {
        if n == 1 {
            LEFT + plot_w / 2.0
        } else {
            LEFT + plot_w * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| TOP + plot_h * (1.0 - (v - lo) / (hi - lo));
    let show = |v: f64| {
        if percent {
            format!("{:.0}%", v * 100.0)
        } else {
            format!("{v:.1}")
        }
    };
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img">"#
    );
    for k in 0..=4 {
        let v = lo + (hi - lo) * k as f64 / 4.0;
        let _ = write!(
            s,
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end" font-size="11">{}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            y(v) + 4.0,
            show(v),
            y = y(v)
        );
    }
    for (i, l) in labels.iter().enumerate() {
        let _ = write!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="11">{}</text>"#,
            x(i),
            H - BOTTOM + 18.0,
            esc(l)
        );
    }
    if let Some(r) = reference {
        let _ = write!(
            s,
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{yr:.1}" y2="{yr:.1}" stroke="#555" stroke-dasharray="5,4"/><text x="{:.1}" y="{:.1}" font-size="11">fair {}</text>"##,
            W - RIGHT,
            W - RIGHT + 6.0,
            y(r) + 4.0,
            show(r),
            yr = y(r)
        );
    }
    for (k, se) in series.iter().enumerate() {
        if let Some(iv) = &se.intervals {
            for (i, &(a, b)) in iv.iter().enumerate() {
                if !(a.is_finite() && b.is_finite()) {
                    continue;
                }
                let _ = write!(
                    s,
                    r#"<line x1="{x:.1}" x2="{x:.1}" y1="{:.1}" y2="{:.1}" stroke="{}" stroke-width="6" stroke-opacity="0.25"/>"#,
                    y(a),
                    y(b),
                    se.colour,
                    x = x(i)
                );
            }
        }
        let pts: Vec<String> = se
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite())
            .map(|(i, v)| format!("{:.1},{:.1}", x(i), y(*v)))
            .collect();
        let _ = write!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"/>"#,
            pts.join(" "),
            c = se.colour
        );
        for p in &pts {
            let (px, py) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = write!(
                s,
                r#"<circle cx="{px}" cy="{py}" r="3" fill="{}"/>"#,
                se.colour
            );
        }
        let _ = write!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="10" height="10" fill="{c}"/><text x="{:.1}" y="{:.1}" font-size="12">{}</text>"#,
            W - RIGHT + 6.0,
            TOP + 16.0 * k as f64 + 20.0,
            W - RIGHT + 20.0,
            TOP + 16.0 * k as f64 + 29.0,
            esc(&se.name),
            c = se.colour
        );
    }
    s.push_str("</svg>");
    s
}

/// The page of a sweep.
pub fn render(r: &SweepReport) -> String {
    let labels: Vec<String> = r.points.iter().map(SweepReport::label).collect();
    let colour = |i: usize| PALETTE[i % PALETTE.len()];
    let wins: Vec<Series> = (0..r.players)
        .map(|p| Series {
            name: r.seat_name(p),
            colour: colour(p),
            values: r
                .points
                .iter()
                .map(|x| x.summary.seats[p].win_rate)
                .collect(),
            intervals: Some(
                r.points
                    .iter()
                    .map(|x| x.summary.seats[p].win_ci95)
                    .collect(),
            ),
        })
        .collect();
    let fair = 1.0 / r.players.max(1) as f64;
    let first = [Series {
        name: "first player".into(),
        colour: colour(0),
        values: r
            .points
            .iter()
            .map(|x| x.summary.first_player.win_rate)
            .collect(),
        intervals: Some(
            r.points
                .iter()
                .map(|x| x.summary.first_player.win_ci95)
                .collect(),
        ),
    }];
    let draws = [Series {
        name: "draws".into(),
        colour: colour(3),
        values: r.points.iter().map(|x| x.summary.draw_rate).collect(),
        intervals: Some(r.points.iter().map(|x| x.summary.draw_ci95).collect()),
    }];
    let mut scores: Vec<Series> = (0..r.players)
        .map(|p| Series {
            name: r.seat_name(p),
            colour: colour(p),
            values: r
                .points
                .iter()
                .map(|x| x.summary.seats[p].score.as_ref().map_or(0.0, |s| s.mean))
                .collect(),
            intervals: None,
        })
        .collect();
    scores.push(Series {
        name: "all seats".into(),
        colour: "#333",
        values: r.points.iter().map(|x| mean_score(&x.summary)).collect(),
        intervals: None,
    });
    let decisions = [Series {
        name: "decisions".into(),
        colour: colour(2),
        values: r
            .points
            .iter()
            .map(|x| x.summary.decisions.as_ref().map_or(0.0, |d| d.mean))
            .collect(),
        intervals: None,
    }];
    let mut h = String::new();
    let title = format!("{}: sweep", r.name);
    let _ = write!(
        h,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{}</title><style>\
         body{{font-family:sans-serif;max-width:900px;margin:2em auto;color:#222}}\
         pre{{background:#f6f6f6;padding:1em;overflow-x:auto}}</style></head><body><h1>{}</h1>",
        esc(&title),
        esc(&title)
    );
    let axes: Vec<String> = r
        .axes
        .iter()
        .map(|a| {
            let v: Vec<String> = a.values.iter().map(|v| v.to_string()).collect();
            format!("{} in {}", a.name, v.join(", "))
        })
        .collect();
    let fixed: Vec<String> = r.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = write!(
        h,
        "<p>{} games per point, {} players, seed {}; bots {}; swept: {}{}{}</p>",
        r.games,
        r.players,
        r.seed,
        esc(&r.agents.join(", ")),
        esc(&axes.join("; ")),
        if r.variants.is_empty() {
            String::new()
        } else {
            format!("; variants {}", esc(&r.variants.join(" + ")))
        },
        if fixed.is_empty() {
            String::new()
        } else {
            format!("; set {}", esc(&fixed.join(", ")))
        }
    );
    let sections: [(&str, &[Series], Option<f64>, bool); 5] = [
        (
            "Win rate per seat (bars: 95% interval)",
            &wins,
            Some(fair),
            true,
        ),
        ("First player's win rate", &first, Some(fair), true),
        (
            "Draw rate (a shared first place; bars: 95% interval)",
            &draws,
            None,
            true,
        ),
        ("Mean score", &scores, None, false),
        ("Mean decisions per game", &decisions, None, false),
    ];
    for (name, series, reference, percent) in sections {
        let _ = write!(
            h,
            "<h2>{}</h2>{}",
            esc(name),
            line_chart(&labels, series, reference, percent)
        );
    }
    for (name, series) in metric_charts(r) {
        let _ = write!(
            h,
            "<h2>Metric {} (mean; bars: 95% interval)</h2>{}",
            esc(&name),
            line_chart(&labels, &series, None, false)
        );
    }
    let _ = writeln!(
        h,
        "<h2>Table</h2><pre>{}</pre></body></html>",
        esc(&r.render_table())
    );
    h
}

/// One chart per metric of the rules: a line per seat for a per-seat
/// metric, one line for a per-game metric.
fn metric_charts(r: &SweepReport) -> Vec<(String, Vec<Series>)> {
    let mut charts: Vec<(String, Vec<Series>)> = Vec::new();
    for (name, seat) in r.metric_columns() {
        let index = seat.unwrap_or(0);
        let series = Series {
            name: seat.map_or("all".into(), |s| r.seat_name(s)),
            colour: PALETTE[index % PALETTE.len()],
            values: r
                .points
                .iter()
                .map(|p| metric_mean(p, &name, index).unwrap_or(f64::NAN))
                .collect(),
            intervals: Some(
                r.points
                    .iter()
                    .map(|p| metric_ci(p, &name, index).unwrap_or((f64::NAN, f64::NAN)))
                    .collect(),
            ),
        };
        match charts.last_mut() {
            Some((last, list)) if *last == name => list.push(series),
            _ => charts.push((name, vec![series])),
        }
    }
    charts
}

//! Pieces of the HTML reports shared by the run page (`html`) and the A/B
//! page (`compare_html`): means with their 95% intervals as bars, the
//! metrics and the endings. Inline SVG only.

use std::fmt::Write;

/// One bar: its label, value, 95% interval and fill colour.
pub struct Bar {
    /// The row's label.
    pub label: String,
    /// The value (a mean or a rate).
    pub value: f64,
    /// Its 95% interval.
    pub ci: (f64, f64),
    /// The fill colour.
    pub fill: &'static str,
}

/// A number as a tick or value label: `pct` shows a rate in percent.
fn show(x: f64, pct: bool) -> String {
    if pct {
        format!("{:.1}%", x * 100.0)
    } else if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// Horizontal bars with 95% interval whiskers on a common scale (from 0,
/// or below when a value or interval is negative); `pct` shows rates.
pub fn bars(title: &str, rows: &[Bar], pct: bool) -> String {
    let n = rows.len().max(1);
    let row = 26.0;
    let (left, right, top) = (190.0, 70.0, 30.0);
    let w = 640.0;
    let h = top + row * n as f64 + 26.0;
    let pw = w - left - right;
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let lo = rows
        .iter()
        .map(|r| finite(r.ci.0).min(finite(r.value)))
        .fold(0.0f64, f64::min);
    let mut hi = rows
        .iter()
        .map(|r| finite(r.ci.1).max(finite(r.value)))
        .fold(0.0f64, f64::max);
    if pct {
        hi = hi.max(1e-9);
    }
    if hi - lo <= 0.0 {
        hi = lo + 1.0;
    }
    let x = |v: f64| left + pw * ((finite(v) - lo) / (hi - lo));
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{t}">"#,
        t = esc(title)
    );
    let _ = write!(
        s,
        r#"<text x="{c}" y="18" text-anchor="middle" class="title">{t}</text>"#,
        c = w / 2.0,
        t = esc(title)
    );
    for k in 0..=4 {
        let v = lo + (hi - lo) * k as f64 / 4.0;
        let _ = write!(
            s,
            r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{y}" stroke="#ddd"/><text x="{x:.1}" y="{ty}" text-anchor="middle" class="tick">{v}</text>"##,
            x = x(v),
            y = top + row * n as f64,
            ty = top + row * n as f64 + 14.0,
            v = show(v, pct)
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = top + row * i as f64;
        let cy = y + row / 2.0;
        let (x0, xv) = (x(0.0f64.max(lo)), x(r.value));
        let _ = write!(
            s,
            r#"<text x="{lx}" y="{ty:.1}" text-anchor="end" class="label">{l}</text><rect x="{bx:.2}" y="{by:.1}" width="{bw:.2}" height="{bh:.1}" fill="{f}"><title>{t}</title></rect>"#,
            lx = left - 8.0,
            ty = cy + 4.0,
            l = esc(&r.label),
            bx = x0.min(xv),
            by = y + 5.0,
            bw = (xv - x0).abs(),
            bh = row - 10.0,
            f = r.fill,
            t = esc(&format!(
                "{}: {} (95% CI {} to {})",
                r.label,
                show(r.value, pct),
                show(r.ci.0, pct),
                show(r.ci.1, pct)
            ))
        );
        let (c0, c1) = (x(r.ci.0), x(r.ci.1));
        let _ = write!(
            s,
            r##"<line x1="{c0:.2}" y1="{cy:.1}" x2="{c1:.2}" y2="{cy:.1}" stroke="#111" stroke-width="1.5"/><line x1="{c0:.2}" y1="{a:.1}" x2="{c0:.2}" y2="{b:.1}" stroke="#111" stroke-width="1.5"/><line x1="{c1:.2}" y1="{a:.1}" x2="{c1:.2}" y2="{b:.1}" stroke="#111" stroke-width="1.5"/><text x="{vx:.1}" y="{ty:.1}" class="label">{v}</text>"##,
            a = cy - 5.0,
            b = cy + 5.0,
            vx = left + pw + 6.0,
            ty = cy + 4.0,
            v = show(r.value, pct)
        );
    }
    s.push_str("</svg>");
    s
}

/// A table of how the games ended: reason, games, share.
pub fn endings_table(endings: &[(String, Vec<usize>)], heads: &[&str]) -> String {
    let mut h = String::from("<table>\n<tr><th>ending</th>");
    for head in heads {
        let _ = write!(h, "<th>{}</th>", esc(head));
    }
    h.push_str("</tr>\n");
    let totals: Vec<usize> = (0..heads.len())
        .map(|i| {
            endings
                .iter()
                .map(|(_, n)| n.get(i).copied().unwrap_or(0))
                .sum()
        })
        .collect();
    for (reason, counts) in endings {
        let _ = write!(h, "<tr><td>{}</td>", esc(reason));
        for (i, n) in counts.iter().enumerate() {
            let share = *n as f64 / totals.get(i).copied().unwrap_or(0).max(1) as f64;
            let _ = write!(h, "<td>{n} ({:.1}%)</td>", share * 100.0);
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
    h
}

/// Escapes text for HTML and SVG.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

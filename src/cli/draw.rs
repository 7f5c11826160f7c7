//! Drawing a picture (`engine::picture`) at the terminal: the board with
//! Unicode and 24-bit colours (or plain text), its legend, the panels as
//! tables, and what changed between two pictures.

use std::collections::HashMap;

use crate::engine::picture::{CellPicture, GridPicture, PanelPicture, Picture};

/// How to draw: with colours (a terminal) or plain text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// ANSI colours and emphasis.
    pub colour: bool,
}

const RESET: &str = "\x1b[0m";

/// `#rrggbb` as an (r, g, b) triple.
fn rgb(hex: &str) -> Option<(u8, u8, u8)> {
    let h = hex.strip_prefix('#')?;
    if h.len() != 6 {
        return None;
    }
    let p = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some((p(0)?, p(2)?, p(4)?))
}

fn fg(hex: Option<&str>) -> String {
    hex.and_then(rgb)
        .map(|(r, g, b)| format!("\x1b[1;38;2;{r};{g};{b}m"))
        .unwrap_or_default()
}

fn bg(hex: Option<&str>) -> String {
    hex.and_then(rgb)
        .map(|(r, g, b)| format!("\x1b[48;2;{r};{g};{b}m"))
        .unwrap_or_default()
}

/// The text a cell shows, two characters: the piece's glyph and its
/// height (above 1) or its label's initial; or the ground's glyph.
fn cell_text(c: &CellPicture) -> String {
    match &c.glyph {
        Some(g) => {
            let first: String = g.chars().take(2).collect();
            let second = match (c.height, &c.label) {
                (Some(h), _) if h > 9 => "+".to_string(),
                (Some(h), _) => h.to_string(),
                (None, Some(l)) if first.chars().count() < 2 => {
                    l.chars().next().map(String::from).unwrap_or_default()
                }
                _ => String::new(),
            };
            format!("{first:<1}{second}")
        }
        None => c.ground_glyph.chars().take(1).collect(),
    }
}

/// The board, one line per row (hexagons: odd rows shifted half a cell).
pub fn grid(g: &GridPicture, style: Style, changed: &[String]) -> Vec<String> {
    let hex = g.shape == "hex";
    let w = if hex { 4 } else { 3 };
    let at: HashMap<(usize, usize), &CellPicture> =
        g.cells.iter().map(|c| ((c.x, c.y), c)).collect();
    let mut out = Vec::new();
    let mut head = String::from("    ");
    for x in 0..g.width {
        head.push_str(&format!("{:<w$}", x % 100));
    }
    out.push(head.trim_end().to_string());
    for y in 0..g.height {
        let mut line = format!("{y:>3} ");
        if hex && y % 2 == 1 {
            line.push_str(&" ".repeat(w / 2));
        }
        for x in 0..g.width {
            let Some(c) = at.get(&(x, y)) else {
                line.push_str(&" ".repeat(w));
                continue;
            };
            let text = cell_text(c);
            let marked = changed.contains(&c.name);
            let pad = w - 1 - text.chars().count().min(w - 1);
            if style.colour {
                let em = if marked { "\x1b[4m" } else { "" };
                line.push_str(&format!(
                    "{}{}{em}{text}{}{RESET} ",
                    bg(c.ground.as_deref()),
                    fg(c.colour.as_deref().or(Some("#404040"))),
                    " ".repeat(pad)
                ));
            } else {
                let mark = if marked { "*" } else { " " };
                line.push_str(&format!("{text}{}{mark}", " ".repeat(pad)));
            }
        }
        out.push(line.trim_end().to_string());
    }
    out
}

/// A panel as a table: a title, a header row, one row per item.
pub fn panel(p: &PanelPicture, style: Style) -> Vec<String> {
    let mut widths: Vec<usize> = p.columns.iter().map(|c| c.chars().count()).collect();
    let lw = p
        .rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    for r in &p.rows {
        for (i, v) in r.values.iter().enumerate() {
            widths[i] = widths[i].max(v.text.chars().count().min(80));
        }
    }
    let mut out = vec![if style.colour {
        format!("\x1b[1m{}{RESET}", p.title)
    } else {
        p.title.clone()
    }];
    let mut head = format!("  {:<lw$}", "");
    for (c, w) in p.columns.iter().zip(&widths) {
        head.push_str(&format!("  {c:<w$}"));
    }
    out.push(head.trim_end().to_string());
    for r in &p.rows {
        let mut line = String::from("  ");
        let paint = |text: String, colour: Option<&str>| match (style.colour, colour) {
            (true, Some(c)) => format!("{}{text}{RESET}", fg(Some(c))),
            _ => text,
        };
        line.push_str(&paint(format!("{:<lw$}", r.label), r.colour.as_deref()));
        for (v, w) in r.values.iter().zip(&widths) {
            let text: String = v.text.chars().take(80).collect();
            line.push_str("  ");
            line.push_str(&paint(format!("{text:<w$}"), v.colour.as_deref()));
        }
        out.push(line.trim_end().to_string());
    }
    out
}

/// The whole picture: board, legend, panels.
pub fn picture(pic: &Picture, style: Style, changed: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(g) = &pic.grid {
        out.extend(grid(g, style, changed));
        let legend: Vec<String> = pic.legend.iter().map(|(g, n)| format!("{g} {n}")).collect();
        out.push(format!("    {}", legend.join("   ")));
    }
    for p in &pic.panels {
        out.push(String::new());
        out.extend(panel(p, style));
    }
    out
}

/// What a cell shows, in words (`leader red archer`, `empty`).
fn describe(c: &CellPicture) -> String {
    let mut parts: Vec<&str> = Vec::new();
    if let Some(p) = &c.piece {
        parts.push(p);
    }
    if let Some(n) = &c.colour_name {
        parts.push(n);
    }
    if let Some(l) = c
        .label
        .as_ref()
        .filter(|l| Some(*l) != c.colour_name.as_ref())
    {
        parts.push(l);
    }
    let mut s = if parts.is_empty() {
        "empty".to_string()
    } else {
        parts.join(" ")
    };
    if let Some(h) = c.height {
        s.push_str(&format!(" (height {h})"));
    }
    s
}

/// What changed from `before` to `now`: the cells that changed (their
/// names) and one line per change, cells then panel values.
pub fn changes(before: &Picture, now: &Picture) -> (Vec<String>, Vec<String>) {
    let mut cells = Vec::new();
    let mut lines = Vec::new();
    if let (Some(a), Some(b)) = (&before.grid, &now.grid) {
        let old: HashMap<&str, &CellPicture> =
            a.cells.iter().map(|c| (c.name.as_str(), c)).collect();
        for c in &b.cells {
            let was = old.get(c.name.as_str()).map(|o| describe(o));
            let is = describe(c);
            if was.as_deref() != Some(is.as_str()) {
                lines.push(format!(
                    "{}: {} -> {is}",
                    c.name,
                    was.unwrap_or_else(|| "-".into())
                ));
                cells.push(c.name.clone());
            }
        }
    }
    for (pa, pb) in before.panels.iter().zip(&now.panels) {
        for rb in &pb.rows {
            let Some(ra) = pa.rows.iter().find(|r| r.label == rb.label) else {
                continue;
            };
            for ((col, va), vb) in pb.columns.iter().zip(&ra.values).zip(&rb.values) {
                if va.text != vb.text {
                    let row = if rb.label.is_empty() {
                        String::new()
                    } else {
                        format!("{} ", rb.label)
                    };
                    lines.push(format!(
                        "{}: {row}{col} {} -> {}",
                        pb.title, va.text, vb.text
                    ));
                }
            }
        }
    }
    (cells, lines)
}

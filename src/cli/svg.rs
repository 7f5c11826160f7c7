//! Drawing a picture (`engine::picture`) for the browser: the board as an
//! SVG (squares, or hexagons with odd rows shifted half a cell right) and
//! the panels as HTML tables. Shared by `replay --html` and `serve`; every
//! cell is a `<g class="cell" data-cell=...>` the page can click.

use crate::engine::picture::{CellPicture, GridPicture, PanelPicture, Picture};

/// Escapes text for HTML and SVG (the one the simulation reports use).
pub use crate::sim::html::esc;

/// Side of a square cell, and radius of a hexagon, in pixels.
const SQUARE: f64 = 30.0;
const HEX_R: f64 = 17.0;

/// The centre of a cell and the outline drawn for it.
fn place(g: &GridPicture, c: &CellPicture) -> ((f64, f64), String) {
    if g.shape == "hex" {
        let w = 3f64.sqrt() * HEX_R;
        let cx = w * (c.x as f64 + 0.5 + if c.y % 2 == 1 { 0.5 } else { 0.0 }) + 4.0;
        let cy = HEX_R * (1.0 + 1.5 * c.y as f64) + 4.0;
        let pts: Vec<String> = (0..6)
            .map(|i| {
                let a = std::f64::consts::PI / 180.0 * (60.0 * i as f64 - 30.0);
                format!("{:.1},{:.1}", cx + HEX_R * a.cos(), cy + HEX_R * a.sin())
            })
            .collect();
        ((cx, cy), format!("<polygon points=\"{}\"", pts.join(" ")))
    } else {
        let (x, y) = (c.x as f64 * SQUARE + 4.0, c.y as f64 * SQUARE + 4.0);
        (
            (x + SQUARE / 2.0, y + SQUARE / 2.0),
            format!("<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\""),
        )
    }
}

/// The board as an SVG element. With a `base` (drawn once by
/// [`base_defs`]), only the cells that hold something, differ from it or
/// changed are drawn over it.
pub fn board(g: &GridPicture, changed: &[String], base: Option<&GridPicture>) -> String {
    let (w, h) = if g.shape == "hex" {
        (
            3f64.sqrt() * HEX_R * (g.width as f64 + 0.5) + 8.0,
            HEX_R * (1.5 * g.height as f64 + 0.5) + 8.0,
        )
    } else {
        (
            SQUARE * g.width as f64 + 8.0,
            SQUARE * g.height as f64 + 8.0,
        )
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.0} {h:.0}\">"
    );
    let plain = |c: &CellPicture| c.glyph.is_none() && c.height.is_none();
    if base.is_some() {
        s.push_str("<use href=\"#board-base\"/>");
    }
    for (i, c) in g.cells.iter().enumerate() {
        let same = base
            .and_then(|b| b.cells.get(i))
            .is_some_and(|b| b.name == c.name && b.ground == c.ground);
        if same && plain(c) && !changed.contains(&c.name) {
            continue;
        }
        let ((cx, cy), outline) = place(g, c);
        let fill = c.ground.as_deref().unwrap_or("#eeeeee");
        let stroke = if changed.contains(&c.name) {
            "stroke=\"#ff00aa\" stroke-width=\"2.5\""
        } else {
            "stroke=\"#8a8070\" stroke-width=\"0.6\""
        };
        s.push_str(&format!(
            "<g class=\"cell\" data-cell=\"{}\" data-piece=\"{}\" data-colour=\"{}\" data-label=\"{}\" data-height=\"{}\"><title>{}</title>{outline} fill=\"{}\" {stroke}/>",
            esc(&c.name),
            esc(c.piece.as_deref().unwrap_or("")),
            esc(c.colour_name.as_deref().unwrap_or("")),
            esc(c.label.as_deref().unwrap_or("")),
            c.height.unwrap_or(0),
            esc(&title(c)),
            esc(fill),
        ));
        if let Some(glyph) = &c.glyph {
            let col = c.colour.as_deref().unwrap_or("#404040");
            s.push_str(&format!(
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"10\" fill=\"{}\" stroke=\"#222\" stroke-width=\"0.8\"/>\
                 <text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\" font-family=\"sans-serif\" fill=\"{}\">{}</text>",
                esc(col),
                cy + 4.0,
                if light(col) { "#000" } else { "#fff" },
                esc(glyph)
            ));
        }
        if let Some(h) = c.height {
            s.push_str(&format!(
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" font-family=\"sans-serif\" fill=\"#000\">{h}</text>",
                cx + 5.0,
                cy - 6.0
            ));
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>");
    s
}

/// The ground of a board, drawn once and used by every frame's board.
pub fn base_defs(g: &GridPicture) -> String {
    let mut s = String::from(
        "<svg width=\"0\" height=\"0\" style=\"position:absolute\"><defs><g id=\"board-base\">",
    );
    for c in &g.cells {
        let (_, outline) = place(g, c);
        s.push_str(&format!(
            "{outline} fill=\"{}\" stroke=\"#8a8070\" stroke-width=\"0.6\"/>",
            esc(c.ground.as_deref().unwrap_or("#eeeeee"))
        ));
    }
    s.push_str("</g></defs></svg>");
    s
}

/// Whether a `#rrggbb` colour is light (dark text goes on it).
fn light(hex: &str) -> bool {
    let h = hex.trim_start_matches('#');
    let p = |i: usize| u32::from_str_radix(h.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128);
    p(0) * 299 + p(2) * 587 + p(4) * 114 > 150_000
}

/// A cell's tooltip: its name, ground and what it holds.
fn title(c: &CellPicture) -> String {
    let mut t = c.name.clone();
    if let Some(g) = &c.terrain {
        t.push_str(&format!(" ({g})"));
    }
    for part in [&c.piece, &c.colour_name, &c.label].into_iter().flatten() {
        t.push(' ');
        t.push_str(part);
    }
    if let Some(h) = c.height {
        t.push_str(&format!(" height {h}"));
    }
    t
}

/// A panel as an HTML table.
pub fn panel(p: &PanelPicture) -> String {
    let mut s = format!(
        "<table class=\"panel\"><caption>{}</caption><tr><th></th>",
        esc(&p.title)
    );
    for c in &p.columns {
        s.push_str(&format!("<th>{}</th>", esc(c)));
    }
    s.push_str("</tr>");
    for r in &p.rows {
        let style = r
            .colour
            .as_ref()
            .map(|c| format!(" style=\"color:{}\"", esc(c)))
            .unwrap_or_default();
        s.push_str(&format!("<tr><th{style}>{}</th>", esc(&r.label)));
        for v in &r.values {
            let style = v
                .colour
                .as_ref()
                .map(|c| format!(" style=\"color:{}\"", esc(c)))
                .unwrap_or_default();
            let class = if v.hidden { " class=\"hidden\"" } else { "" };
            s.push_str(&format!("<td{style}{class}>{}</td>", esc(&v.text)));
        }
        s.push_str("</tr>");
    }
    s.push_str("</table>");
    s
}

/// The whole picture: board (over `base`, see [`board`]), legend and
/// panels.
pub fn picture(pic: &Picture, changed: &[String], base: Option<&GridPicture>) -> String {
    let mut s = String::from("<div class=\"picture\">");
    if let Some(g) = &pic.grid {
        s.push_str(&board(g, changed, base));
        let legend: Vec<String> = pic
            .legend
            .iter()
            .map(|(g, n)| format!("<span><b>{}</b> {}</span>", esc(g), esc(n)))
            .collect();
        s.push_str(&format!("<div class=\"legend\">{}</div>", legend.join(" ")));
    }
    s.push_str("<div class=\"panels\">");
    for p in &pic.panels {
        s.push_str(&panel(p));
    }
    s.push_str("</div></div>");
    s
}

/// The page's style sheet (inline: nothing is fetched from outside).
pub const STYLE: &str = "body{font-family:sans-serif;margin:12px;background:#fafaf7;color:#222}\
.picture{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}\
.legend{font-size:12px;max-width:520px}.legend span{margin-right:10px}\
.panels{display:flex;flex-direction:column;gap:10px}\
table.panel{border-collapse:collapse;font-size:13px}\
table.panel caption{text-align:left;font-weight:bold;padding:2px 0}\
table.panel td,table.panel th{border:1px solid #ccc;padding:2px 6px;text-align:left;max-width:360px}\
td.hidden{color:#999}\
.cell{cursor:pointer}.cell:hover polygon,.cell:hover rect{stroke:#000;stroke-width:2}\
.options{max-height:14em;overflow-y:auto;min-width:16em;display:inline-block;border:1px solid #ddd;padding:4px 4px 4px 2.6em;margin:6px 0}\
.options li{cursor:pointer;margin:1px 0}.options li.taken{font-weight:bold;color:#b00}\
.options li.hit{background:#ffe9a8}.refused{color:#a00}\
#controls{margin:8px 0}#controls input[type=range]{width:60%}";

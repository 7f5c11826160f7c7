//! Pictures: the ruleset's declared view (`ir::view`) computed from a
//! state for one seat — a grid of cells (ground, glyph, colour, label,
//! height) and panels of labelled values — as plain data that the
//! terminal and the browser draw alike.
//!
//! What a seat may not see is never in its picture: the expressions run on
//! a copy of the state whose hidden variables, and the private ones of the
//! other seats, are emptied; a value that reads such a variable is shown
//! as `?`.

use crate::engine::error::RuntimeError;
use crate::engine::state::{State, Value};
use crate::engine::vm::{self, elements};
use crate::ir::cells::GridShape;
use crate::ir::ruleset::{Ruleset, Ty, Visibility, PLAYER};
use crate::ir::view::{GridDecl, PanelDecl, Secrecy, Shown, ViewDecl};

/// A state as one seat sees it, drawn from the declared view.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Picture {
    /// The board, if the view declares one.
    pub grid: Option<GridPicture>,
    /// The panels, in the view's order.
    pub panels: Vec<PanelPicture>,
    /// What each glyph of the board means: (glyph, name).
    pub legend: Vec<(String, String)>,
}

/// A board.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GridPicture {
    /// The grid kind's name.
    pub kind: String,
    /// `square` or `hex` (odd rows shifted half a cell right).
    pub shape: &'static str,
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The cells drawn, row by row.
    pub cells: Vec<CellPicture>,
}

/// One cell of a board.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CellPicture {
    /// The cell's item id (`sq_7_3`).
    pub name: String,
    /// Column.
    pub x: usize,
    /// Row.
    pub y: usize,
    /// Its ground, if one matched.
    pub terrain: Option<String>,
    /// The ground's glyph and colour.
    pub ground: Option<String>,
    /// The ground's character.
    pub ground_glyph: String,
    /// What it holds (the layer's name), if anything.
    pub piece: Option<String>,
    /// The piece's glyph.
    pub glyph: Option<String>,
    /// The piece's colour (`#rrggbb`).
    pub colour: Option<String>,
    /// The name of the value that gave the colour (`red`).
    pub colour_name: Option<String>,
    /// A short label.
    pub label: Option<String>,
    /// A stack's height, when above 1.
    pub height: Option<i64>,
}

/// A panel: a table of values.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PanelPicture {
    /// Its title.
    pub title: String,
    /// The column headers.
    pub columns: Vec<String>,
    /// The rows.
    pub rows: Vec<RowPicture>,
}

/// A row of a panel.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RowPicture {
    /// The row item's name (empty for a panel of one row).
    pub label: String,
    /// The row item's colour, if it has one.
    pub colour: Option<String>,
    /// One value per column.
    pub values: Vec<ValuePicture>,
}

/// A value shown in a panel.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ValuePicture {
    /// Its text (`?` when the seat may not see it).
    pub text: String,
    /// Its colour, when it names an item with one.
    pub colour: Option<String>,
    /// Whether the seat may not see it.
    pub hidden: bool,
}

/// The picture of `st` for `seat` (`None`: the referee, who sees all);
/// `None` when the ruleset declares no view.
pub fn picture(
    rules: &Ruleset,
    st: &State,
    seat: Option<usize>,
) -> Result<Option<Picture>, RuntimeError> {
    let Some(view) = &rules.view else {
        return Ok(None);
    };
    let mut st = redacted(rules, st, seat);
    let mut cx = Cx {
        rules,
        view,
        st: &mut st,
        seat,
    };
    let grid = match &view.grid {
        Some(g) => Some(cx.grid(g)?),
        None => None,
    };
    let mut panels = Vec::new();
    for p in &view.panels {
        panels.push(cx.panel(p)?);
    }
    let legend = view
        .grid
        .iter()
        .flat_map(|g| {
            let t = g.terrain.iter().map(|t| (t.glyph.clone(), t.name.clone()));
            t.chain(g.layers.iter().map(|l| (l.glyph.clone(), l.name.clone())))
        })
        .collect();
    Ok(Some(Picture {
        grid,
        panels,
        legend,
    }))
}

/// A copy of the state without what `seat` may not see: hidden
/// variables and the other seats' private ones back to empty.
pub fn redacted(rules: &Ruleset, st: &State, seat: Option<usize>) -> State {
    let mut out = st.clone();
    let Some(seat) = seat else { return out };
    for v in &rules.vars {
        if v.visibility == Visibility::Public {
            continue;
        }
        let per_seat: usize = v.dims.iter().skip(1).map(|d| d.size).product();
        let empty = match v.ty {
            Ty::Ent(_) | Ty::Proc => -1,
            _ => 0,
        };
        for flat in 0..v.len() {
            let owner = v
                .dims
                .first()
                .map_or(0, |d| d.lo as usize + flat / per_seat.max(1));
            if v.visibility == Visibility::Private && owner == seat {
                continue;
            }
            let o = v.offset + flat * v.elem_words;
            let words = &mut out.words[o..o + v.elem_words];
            words.fill(0);
            if matches!(v.ty, Ty::Ent(_) | Ty::Proc | Ty::Int | Ty::Bool) {
                words[0] = empty;
            }
        }
    }
    out
}

/// The display colour of an item name: the view's `colours:`, else the
/// name itself when it is a common colour, else one from a fixed palette.
pub fn colour_of(view: &ViewDecl, name: &str) -> String {
    if let Some(c) = known_colour(view, name) {
        return c;
    }
    let h = name
        .bytes()
        .fold(5381u32, |h, b| h.wrapping_mul(33) ^ b as u32);
    PALETTE[h as usize % PALETTE.len()].to_string()
}

/// The display colour the view or the common colour names give a name.
pub fn known_colour(view: &ViewDecl, name: &str) -> Option<String> {
    if name.starts_with('#') {
        return Some(name.to_string());
    }
    if let Some((_, c)) = view.colours.iter().find(|(n, _)| n == name) {
        return Some(named_colour(c).unwrap_or(c).to_string());
    }
    named_colour(name).map(str::to_string)
}

const PALETTE: [&str; 8] = [
    "#8e44ad", "#16a085", "#d35400", "#2c3e50", "#c0392b", "#27ae60", "#2980b9", "#7f8c8d",
];

fn named_colour(name: &str) -> Option<&'static str> {
    Some(match name {
        "red" => "#d03030",
        "green" => "#2f9e44",
        "blue" => "#2f6fd0",
        "yellow" => "#e8c020",
        "black" => "#303030",
        "white" => "#f4f4f4",
        "orange" => "#e8862a",
        "purple" => "#8e44ad",
        "brown" => "#8b5a2b",
        "grey" | "gray" => "#909090",
        "pink" => "#e070a0",
        _ => return None,
    })
}

struct Cx<'a> {
    rules: &'a Ruleset,
    view: &'a ViewDecl,
    st: &'a mut State,
    seat: Option<usize>,
}

impl Cx<'_> {
    fn eval(&mut self, s: &Shown, arg: Option<i64>) -> Result<Value, RuntimeError> {
        vm::eval(self.rules, self.st, s.func, arg.map(Value::I))
    }

    fn holds(&mut self, s: &Shown, arg: i64) -> Result<bool, RuntimeError> {
        Ok(self.eval(s, Some(arg))?.int() != 0)
    }

    /// A value's text and, for an item, its colour's name.
    fn text(&self, ty: &Ty, v: &Value) -> (String, Option<String>) {
        let n = self.st.nplayers;
        match ty {
            Ty::Set(k) => {
                let names: Vec<String> = elements(v)
                    .iter()
                    .map(|e| self.rules.display(&Ty::Ent(*k), *e, n))
                    .collect();
                (names.join(" "), None)
            }
            Ty::Ent(_) if v.int() < 0 => ("-".into(), None),
            Ty::Ent(_) => {
                let s = self.rules.display(ty, v.int(), n);
                (s.clone(), Some(s))
            }
            _ => (self.rules.display(ty, v.int(), n), None),
        }
    }

    /// Whether `seat` may not see a value that reads `secrecy`, for the
    /// row of `owner` (a seat, in a panel over players).
    fn hides(&self, secrecy: Secrecy, owner: Option<usize>) -> bool {
        match (self.seat, secrecy) {
            (None, _) | (_, Secrecy::Public) => false,
            (Some(_), Secrecy::Hidden) => true,
            (Some(s), Secrecy::Private) => owner != Some(s),
        }
    }

    fn grid(&mut self, g: &GridDecl) -> Result<GridPicture, RuntimeError> {
        let kind = &self.rules.kinds[g.kind as usize];
        let geo = kind.grid.unwrap_or_default();
        let mut cells = Vec::new();
        for (i, name) in kind.items.iter().enumerate() {
            let c = i as i64;
            if let Some(f) = &g.cells {
                if !self.holds(f, c)? {
                    continue;
                }
            }
            let mut cell = CellPicture {
                name: name.clone(),
                x: i % geo.width.max(1),
                y: i / geo.width.max(1),
                terrain: None,
                ground: None,
                ground_glyph: String::new(),
                piece: None,
                glyph: None,
                colour: None,
                colour_name: None,
                label: None,
                height: None,
            };
            for t in &g.terrain {
                if self.holds(&t.when, c)? {
                    cell.terrain = Some(t.name.clone());
                    cell.ground = t.colour.as_deref().map(|c| colour_of(self.view, c));
                    cell.ground_glyph = t.glyph.clone();
                    break;
                }
            }
            for l in &g.layers {
                if !self.holds(&l.when, c)? {
                    continue;
                }
                cell.piece = Some(l.name.clone());
                cell.glyph = Some(l.glyph.clone());
                if let Some(s) = &l.colour {
                    let v = self.eval(s, Some(c))?;
                    if let (_, Some(name)) = self.text(&s.ty, &v) {
                        cell.colour = Some(colour_of(self.view, &name));
                        cell.colour_name = Some(name);
                    }
                }
                if let Some(s) = &l.label {
                    let v = self.eval(s, Some(c))?;
                    cell.label = Some(if self.hides(s.secrecy, None) {
                        "?".into()
                    } else {
                        self.text(&s.ty, &v).0
                    });
                }
                break;
            }
            if let Some(h) = &g.height {
                let v = self.eval(h, Some(c))?.int();
                cell.height = (v > 1).then_some(v);
            }
            cells.push(cell);
        }
        Ok(GridPicture {
            kind: kind.name.clone(),
            shape: match geo.shape {
                GridShape::Square => "square",
                GridShape::Hex => "hex",
            },
            width: geo.width,
            height: geo.height,
            cells,
        })
    }

    fn panel(&mut self, p: &PanelDecl) -> Result<PanelPicture, RuntimeError> {
        let items: Vec<(i64, String, Option<usize>)> = match &p.rows {
            None => vec![(0, String::new(), None)],
            Some((_, k)) => {
                let count = if *k == PLAYER {
                    self.st.nplayers
                } else {
                    self.rules.kinds[*k as usize].items.len()
                };
                (0..count as i64)
                    .map(|i| {
                        let name = self.rules.display(&Ty::Ent(*k), i, self.st.nplayers);
                        (i, name, (*k == PLAYER).then_some(i as usize))
                    })
                    .collect()
            }
        };
        let arg = |i: i64| p.rows.as_ref().map(|_| i);
        let mut rows = Vec::new();
        for (i, label, owner) in items {
            if let Some(f) = &p.filter {
                if self.eval(f, arg(i))?.int() == 0 {
                    continue;
                }
            }
            let mut values = Vec::new();
            for (_, s) in &p.columns {
                let v = self.eval(s, arg(i))?;
                values.push(if self.hides(s.secrecy, owner) {
                    ValuePicture {
                        text: "?".into(),
                        colour: None,
                        hidden: true,
                    }
                } else {
                    let (text, name) = self.text(&s.ty, &v);
                    let colour = match (&s.ty, name) {
                        (Ty::Ent(PLAYER), Some(n)) => Some(colour_of(self.view, &n)),
                        (_, Some(n)) => known_colour(self.view, &n),
                        _ => None,
                    };
                    ValuePicture {
                        text,
                        colour,
                        hidden: false,
                    }
                });
            }
            let colour = match owner {
                Some(_) => Some(colour_of(self.view, &label)),
                None => known_colour(self.view, &label),
            };
            rows.push(RowPicture {
                label,
                colour,
                values,
            });
        }
        Ok(PanelPicture {
            title: p.title.clone(),
            columns: p.columns.iter().map(|(h, _)| h.clone()).collect(),
            rows,
        })
    }
}

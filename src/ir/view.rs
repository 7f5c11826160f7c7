//! A ruleset's declared view (`view.yaml`): what a picture of the game
//! shows — a grid whose cells show terrain, a piece, its colour, a label
//! and a height, and labelled panels of values — each part a compiled
//! expression of the rules language. The engine computes the picture of a
//! state for a seat from it (`engine::picture`).

use crate::ir::bytecode::{FuncId, KindId};
use crate::ir::types::Ty;

/// The most secret kind of variable an expression reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secrecy {
    /// Only public variables.
    Public,
    /// A private variable (seen by the seat of its first index), no hidden one.
    Private,
    /// A hidden variable (seen by no seat).
    Hidden,
}

/// A compiled expression of the view, with its type and the most secret
/// variable it reads (directly or through the functions it calls).
#[derive(Debug, Clone)]
pub struct Shown {
    /// The function computing it (its parameters: the row or cell item).
    pub func: FuncId,
    /// Its type.
    pub ty: Ty,
    /// `Public` when it reads only public variables; `Private` when it
    /// reads a private one (and no hidden one); `Hidden` otherwise.
    pub secrecy: Secrecy,
}

/// A kind of ground a cell may show (`terrain:`), first match wins.
#[derive(Debug, Clone)]
pub struct TerrainDecl {
    /// Its name (`river`).
    pub name: String,
    /// Whether a cell has it (a boolean of `cell`).
    pub when: Shown,
    /// Its character in the terminal.
    pub glyph: String,
    /// Its display colour (`#rrggbb` or a colour name).
    pub colour: Option<String>,
}

/// A thing a cell may hold (`show:`), first match wins.
#[derive(Debug, Clone)]
pub struct LayerDecl {
    /// Its name (`leader`), shown in the legend.
    pub name: String,
    /// Whether the cell holds it.
    pub when: Shown,
    /// Its character(s) in the terminal and on the board.
    pub glyph: String,
    /// Its colour: the display colour of the value's name.
    pub colour: Option<Shown>,
    /// A short label (the value's display name).
    pub label: Option<Shown>,
}

/// The board: a grid kind and what each cell shows.
#[derive(Debug, Clone)]
pub struct GridDecl {
    /// The grid kind.
    pub kind: KindId,
    /// The cells drawn (others are left out); all when `None`.
    pub cells: Option<Shown>,
    /// Grounds, first match wins.
    pub terrain: Vec<TerrainDecl>,
    /// Things on a cell, first match wins.
    pub layers: Vec<LayerDecl>,
    /// A stack's height (an integer, shown above 1).
    pub height: Option<Shown>,
}

/// A labelled panel: a table with one row per item of a kind (or one row)
/// and one column per named expression.
#[derive(Debug, Clone)]
pub struct PanelDecl {
    /// Its title.
    pub title: String,
    /// The row variable's name and kind (`None`: a single row).
    pub rows: Option<(String, KindId)>,
    /// The rows shown (a boolean of the row item).
    pub filter: Option<Shown>,
    /// The columns: header and value.
    pub columns: Vec<(String, Shown)>,
}

/// The whole declared view.
#[derive(Debug, Clone, Default)]
pub struct ViewDecl {
    /// Display colours of item names (`archer: "#1f6fb2"`).
    pub colours: Vec<(String, String)>,
    /// The board, if any.
    pub grid: Option<GridDecl>,
    /// The panels, in order.
    pub panels: Vec<PanelDecl>,
}

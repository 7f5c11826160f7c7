//! The sizes a ruleset may have. A ruleset is written by someone else:
//! each size that costs memory or time when loading or playing is bounded
//! here, and a ruleset beyond one is refused with a diagnostic
//! (`tabula::too_large`) rather than filling the memory. docs/LANGUAGE.md
//! lists them (section Limits).

/// Bytes of rules text of a ruleset: its `.rules` files together, a
/// variant's included (parsing costs time and memory by the byte: a
/// megabyte of deeply bracketed rules takes seconds and 300 MB).
pub const MAX_RULES_BYTES: usize = 1 << 20;

/// Kinds of a ruleset, `player` included.
pub const MAX_KINDS: usize = 4096;

/// Items of one kind, the cells of a grid and the copies of `copies:`
/// included.
pub const MAX_ITEMS: usize = 65_536;

/// Cells of a grid.
pub const MAX_CELLS: usize = 4096;

/// Fields of one kind.
pub const MAX_FIELDS: usize = 4096;

/// Values held by the items' fields and the parameters together (a list
/// or table counts its entries; a table keyed by a kind has one entry per
/// item), and the sets the engine keeps to select items by field.
pub const MAX_DATA_WORDS: usize = 16 << 20;

/// Words of a game's state (one figure with the engine).
pub use crate::ir::ruleset::MAX_STATE_WORDS;

/// Parameters of one function or procedure.
pub const MAX_PARAMS: usize = 255;

/// Locals of one function or procedure (parameters, `let`s, loop
/// variables and the compiler's temporaries).
pub const MAX_LOCALS: usize = 65_535;

/// Elements of one set literal, arms of one `choose`.
pub const MAX_LIST: usize = 65_535;

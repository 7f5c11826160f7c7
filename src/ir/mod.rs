//! What the model and the engine share, and the lowest layer of the crate:
//! source spans, diagnostics and their codes, bit sets, grid geometry, the
//! bytecode and the compiled ruleset. It imports nothing from the rest of
//! the crate.

pub mod bits;
pub mod bytecode;
pub mod cells;
pub mod codes;
pub mod diag;
pub mod disasm;
pub mod excerpt;
pub mod grid;
pub mod pool;
pub mod ruleset;
pub mod rust;
pub mod span;
pub mod symbols;
pub mod types;
pub mod verify;
pub mod view;

pub use codes::Code;
pub use diag::{Diagnostic, Diagnostics};
pub use ruleset::Ruleset;

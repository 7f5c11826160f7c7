//! Model: load YAML data and rules files, resolve every name, type-check
//! every expression and compile bodies, producing a [`Ruleset`].

pub mod compile;
pub mod data;
pub mod diag;
pub mod grid;
pub mod load;
pub mod ruleset;
pub mod snippet;
pub mod symbols;

pub use diag::{Diagnostic, Diagnostics};
pub use load::{find_ruleset, load, LoadError};
pub use ruleset::Ruleset;

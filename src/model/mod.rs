//! Model: load YAML data and rules files, resolve every name, type-check
//! every expression and compile bodies, producing a [`Ruleset`].

pub mod compile;
pub mod data;
pub mod load;
pub mod snippet;

pub use crate::ir::diag::{Diagnostic, Diagnostics};
pub use crate::ir::ruleset::Ruleset;
pub use load::{find_ruleset, load, LoadError};

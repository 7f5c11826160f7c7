//! Model: load YAML data and rules files, resolve every name, type-check
//! every expression and compile bodies, producing a [`Ruleset`].

pub mod compile;
pub mod limits;
pub mod load;
pub mod snippet;

pub use crate::ir::codes::Code;
pub use crate::ir::diag::{Diagnostic, Diagnostics};
pub use crate::ir::ruleset::Ruleset;
/// YAML with its places, for the tools that read YAML files of their own.
pub use load::yaml as data;
pub use load::{
    attach_view, find_ruleset, load, load_for_players, load_for_players_with, load_with,
    with_players, LoadError,
};

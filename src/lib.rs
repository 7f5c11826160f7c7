//! tabula: board games written as data.
//!
//! The crate is split the way a rules file travels:
//! [`lang`] parses the rules language into a spanned AST, [`model`] loads a
//! ruleset (YAML data + rules files), resolves every name and type-checks
//! every expression, [`engine`] plays it as a decision machine, and the
//! tools ([`agents`], [`sim`], [`scenario`], [`cli`]) drive the engine.

pub mod agents;
pub mod cli;
pub mod engine;
pub mod ir;
pub mod lang;
pub mod model;
pub mod scenario;
pub mod sim;
pub mod translate;

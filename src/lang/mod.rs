//! Syntax: the pest grammar of the rules language and its spanned AST.

pub mod ast;
pub mod parser;

//! pest → AST: parses rules files, expressions, statement lists and types.
//!
//! The entry points are here; the AST is built in `items` (declarations
//! and types), `stmts` (statements) and `exprs` (expressions), and `error`
//! turns pest's failures into [`SyntaxError`]s.

mod error;
mod exprs;
mod items;
mod stmts;

use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

pub use error::{rule_name, SyntaxDetail, SyntaxError};

use error::syntax_error;
use exprs::expr;
use items::{fn_decl, proc_decl, score_decl, type_expr, var_decl};
use stmts::stmt;

use crate::ir::span::Span;
use crate::lang::ast::*;

/// The pest parser generated from `grammar/rules.pest`.
#[derive(Parser)]
#[grammar = "../grammar/rules.pest"]
pub struct RulesParser;
/// Parses `text` as `rule`; on failure, parses again collecting the literal
/// tokens (`;`, `}`...) that would have been accepted, for a better message.
fn parse_rule(rule: Rule, text: &str) -> Result<pest::iterators::Pairs<'_, Rule>, Error> {
    RulesParser::parse(rule, text).map_err(|e| {
        // Set once and never cleared: tests parse on several threads.
        pest::set_error_detail(true);
        RulesParser::parse(rule, text).err().unwrap_or(e)
    })
}

type Error = pest::error::Error<Rule>;

/// Maps byte offsets of the parsed text to offsets of the source file
/// (identity for whole files, a shift or a line map for text inside YAML).
pub type OffsetMap<'a> = &'a dyn Fn(usize) -> usize;

struct Ctx<'a> {
    file: u32,
    map: OffsetMap<'a>,
}

impl Ctx<'_> {
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, (self.map)(s.start()), (self.map)(s.end()))
    }
    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }
}

/// Parses a whole `.rules` file.
pub fn parse_file(file: u32, text: &str) -> Result<File, SyntaxError> {
    let map = |o| o;
    let ctx = Ctx { file, map: &map };
    let pairs = parse_rule(Rule::file, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let mut items = Vec::new();
    for pair in pairs.flatten().take(1) {
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::var_decl => items.push(Item::Var(var_decl(&ctx, item))),
                Rule::fn_decl => items.push(Item::Fn(fn_decl(&ctx, item))),
                Rule::proc_decl => items.push(Item::Proc(proc_decl(&ctx, item))),
                Rule::score_decl => items.push(Item::Score(score_decl(&ctx, item))),
                _ => {}
            }
        }
    }
    Ok(File { items })
}

/// Parses one expression (text embedded elsewhere, e.g. in YAML).
pub fn parse_expr(file: u32, text: &str, map: OffsetMap) -> Result<Expr, SyntaxError> {
    let ctx = Ctx { file, map };
    let mut pairs = parse_rule(Rule::expr_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("expr_only has one pair");
    let inner = top.into_inner().next().expect("expr_only holds an expr");
    Ok(expr(&ctx, inner))
}

/// Parses a list of statements (scenario programs).
pub fn parse_stmts(file: u32, text: &str, map: OffsetMap) -> Result<Vec<Stmt>, SyntaxError> {
    let ctx = Ctx { file, map };
    let mut pairs = parse_rule(Rule::stmts_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("stmts_only has one pair");
    Ok(top
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| stmt(&ctx, p))
        .collect())
}

/// Parses a type (field types written in YAML).
pub fn parse_type(file: u32, text: &str, map: OffsetMap) -> Result<TypeExpr, SyntaxError> {
    let ctx = Ctx { file, map };
    let mut pairs = parse_rule(Rule::type_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("type_only has one pair");
    Ok(type_expr(&ctx, top.into_inner().next().expect("a type")))
}

//! pest → AST: parses rules files, expressions, statement lists and types.
//!
//! The entry points are here; the AST is built in `items` (declarations
//! and types), `stmts` (statements) and `exprs` (expressions), and `error`
//! turns pest's failures into [`SyntaxError`]s.

mod error;
mod exprs;
mod items;
mod nesting;
mod stmts;

use std::cell::{Cell, RefCell};

use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

pub use error::{rule_name, SyntaxDetail, SyntaxError};
pub use nesting::MAX_NESTING;

use error::syntax_error;
use exprs::expr;
use items::{ending_decl, fn_decl, metric_decl, proc_decl, score_decl, type_expr, var_decl};
use stmts::stmt;

use crate::ir::codes::Code;
use crate::ir::span::Span;
use crate::lang::ast::*;

/// The most levels the syntax tree of a declaration, an expression or a
/// statement may have (docs/LANGUAGE.md, Limits): every operator, call,
/// index, field access and statement is one level below the one holding
/// it, so `a + b + c` has two. Brackets and `if`s are bounded before
/// (see [`MAX_NESTING`]); this bounds what the loader and the compiler
/// walk, chains of operators included.
pub const MAX_DEPTH: usize = 256;

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
    /// The levels of the tree above the node being built.
    depth: Cell<usize>,
    /// The first text that cannot be read although it parsed: nested past
    /// [`MAX_DEPTH`], or a number beyond 64 bits.
    problem: RefCell<Option<SyntaxError>>,
}

impl<'a> Ctx<'a> {
    fn new(file: u32, map: OffsetMap<'a>) -> Ctx<'a> {
        Ctx {
            file,
            map,
            depth: Cell::new(0),
            problem: RefCell::new(None),
        }
    }

    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, (self.map)(s.start()), (self.map)(s.end()))
    }

    /// The span of the first character of a pair.
    fn head(&self, pair: &Pair<Rule>) -> Span {
        let start = pair.as_span().start();
        let len = pair.as_str().chars().next().map_or(0, char::len_utf8);
        Span::new(self.file, (self.map)(start), (self.map)(start + len))
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    /// Records a problem (the first one is reported).
    fn report(&self, e: SyntaxError) {
        let mut p = self.problem.borrow_mut();
        if p.is_none() {
            *p = Some(e);
        }
    }

    /// Builds a node `levels` levels below the current one with `build`;
    /// past [`MAX_DEPTH`], reports the node (starting at `at`) and returns
    /// `stand_in()` without descending.
    fn nested<T>(
        &self,
        levels: usize,
        at: Span,
        stand_in: impl FnOnce() -> T,
        build: impl FnOnce() -> T,
    ) -> T {
        let depth = self.depth.get();
        if depth + levels > MAX_DEPTH {
            self.report(SyntaxError::other(
                Code::TooDeep,
                at,
                format!("nested more than {MAX_DEPTH} levels deep"),
                "too deep from here",
                format!(
                    "tabula reads rules at most {MAX_DEPTH} levels deep (each operator, call, \
                     index and statement inside another is one level; docs/LANGUAGE.md, \
                     Limits): give parts a name with `let` or a `fn`"
                ),
            ));
            return stand_in();
        }
        self.depth.set(depth + levels);
        let out = build();
        self.depth.set(depth);
        out
    }

    /// The result, or the first problem met while building it.
    fn finish<T>(self, out: T) -> Result<T, SyntaxError> {
        match self.problem.into_inner() {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    /// Checks, before pest reads it, that `text` nests brackets and `if`s
    /// at most [`MAX_NESTING`] deep.
    fn check_nesting(&self, text: &str) -> Result<(), SyntaxError> {
        let Some((start, end)) = nesting::too_deep(text) else {
            return Ok(());
        };
        Err(SyntaxError::other(
            Code::TooDeep,
            Span::new(self.file, (self.map)(start), (self.map)(end)),
            format!("brackets and `if`s nested more than {MAX_NESTING} deep"),
            "too deep from here",
            format!(
                "tabula reads brackets, blocks and `if`s nested at most {MAX_NESTING} deep \
                 (docs/LANGUAGE.md, Limits): give parts a name with `let`, a `fn` or a `proc`"
            ),
        ))
    }
}

/// Parses a whole `.rules` file.
pub fn parse_file(file: u32, text: &str) -> Result<File, SyntaxError> {
    let map = |o| o;
    let ctx = Ctx::new(file, &map);
    ctx.check_nesting(text)?;
    let pairs = parse_rule(Rule::file, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let mut items = Vec::new();
    for pair in pairs.flatten().take(1) {
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::var_decl => items.push(Item::Var(var_decl(&ctx, item))),
                Rule::fn_decl => items.push(Item::Fn(fn_decl(&ctx, item))),
                Rule::proc_decl => items.push(Item::Proc(proc_decl(&ctx, item))),
                Rule::score_decl => items.push(Item::Score(score_decl(&ctx, item))),
                Rule::metric_decl => items.push(Item::Metric(metric_decl(&ctx, item))),
                Rule::ending_decl => items.push(Item::Ending(ending_decl(&ctx, item))),
                _ => {}
            }
        }
    }
    ctx.finish(File { items })
}

/// Parses one expression (text embedded elsewhere, e.g. in YAML).
pub fn parse_expr(file: u32, text: &str, map: OffsetMap) -> Result<Expr, SyntaxError> {
    let ctx = Ctx::new(file, map);
    ctx.check_nesting(text)?;
    let mut pairs = parse_rule(Rule::expr_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("expr_only has one pair");
    let inner = top.into_inner().next().expect("expr_only holds an expr");
    let e = expr(&ctx, inner);
    ctx.finish(e)
}

/// Parses a list of statements (scenario programs).
pub fn parse_stmts(file: u32, text: &str, map: OffsetMap) -> Result<Vec<Stmt>, SyntaxError> {
    let ctx = Ctx::new(file, map);
    ctx.check_nesting(text)?;
    let mut pairs = parse_rule(Rule::stmts_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("stmts_only has one pair");
    let stmts = top
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| stmt(&ctx, p))
        .collect();
    ctx.finish(stmts)
}

/// Parses a type (field types written in YAML).
pub fn parse_type(file: u32, text: &str, map: OffsetMap) -> Result<TypeExpr, SyntaxError> {
    let ctx = Ctx::new(file, map);
    ctx.check_nesting(text)?;
    let mut pairs = parse_rule(Rule::type_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("type_only has one pair");
    let ty = type_expr(&ctx, top.into_inner().next().expect("a type"));
    ctx.finish(ty)
}

//! The scenario's code: its `setup` and `run` statements compiled into one
//! procedure, and the expressions of `expect:` and `check:` evaluated on
//! the current state, with spans into the scenario file.

use std::sync::Arc;

use marked_yaml::Node;

use crate::engine::Game;
use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::{Ruleset, Ty};
use crate::ir::span::Span;
use crate::lang::parser;
use crate::model::data::node_span;
use crate::model::load::syntax_diag;
use crate::model::snippet;

/// A scenario being run: its ruleset (with the scenario's code added), the
/// scenario file and the failures found so far.
pub(super) struct Ctx {
    pub(super) rules: Ruleset,
    pub(super) file: u32,
    pub(super) text: Arc<str>,
    pub(super) fails: Vec<Diagnostic>,
}

impl Ctx {
    /// The span of a node of the scenario file.
    pub(super) fn span(&self, n: &Node) -> Span {
        node_span(self.file, &self.text, n.span())
    }

    /// Records a failure.
    pub(super) fn fail(
        &mut self,
        code: Code,
        span: Span,
        msg: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.fails
            .push(Diagnostic::new(code, span, msg).help(help.into()));
    }

    /// Offset map for a snippet written in the scenario file.
    fn map_for(&self, node: &Node, snippet: &str) -> Vec<usize> {
        let start = self.span(node).start as usize;
        let src = &self.text;
        let mut table = Vec::new();
        let mut from = start;
        for line in snippet.split('\n') {
            let needle = line.trim_end();
            let found = if needle.is_empty() {
                None
            } else {
                src[from.min(src.len())..].find(needle)
            };
            match found {
                Some(pos) => {
                    table.push(from + pos);
                    from += pos + needle.len();
                }
                None => table.push(from.min(src.len())),
            }
        }
        table
    }
}

fn map_offset(table: &[usize], snippet: &str, o: usize) -> usize {
    let before = &snippet[..o.min(snippet.len())];
    let line = before.matches('\n').count();
    let col = before.rsplit('\n').next().map_or(0, |l| l.len());
    table.get(line).copied().unwrap_or(0) + col
}

/// The text of a scalar node.
pub(super) fn scalar(n: &Node) -> Option<String> {
    n.as_scalar().map(|s| s.as_str().to_string())
}

/// Compiles `setup` then `run` (scalars, checked by the header) into one
/// procedure of the ruleset; `None` after recording the mistakes.
pub(super) fn compile_program(
    cx: &mut Ctx,
    setup: Option<&Node>,
    run: Option<&Node>,
) -> Option<u32> {
    let mut stmts = Vec::new();
    let mut span = Span::new(cx.file, 0, 0);
    for node in [setup, run].into_iter().flatten() {
        let Some(src) = scalar(node) else { continue };
        let table = cx.map_for(node, &src);
        let src2 = src.clone();
        let m = move |o: usize| map_offset(&table, &src2, o);
        span = cx.span(node);
        match parser::parse_stmts(cx.file, &src, &m) {
            Ok(mut s) => stmts.append(&mut s),
            Err(e) => {
                cx.fails.push(syntax_diag(e));
                return None;
            }
        }
    }
    match snippet::add_proc(&mut cx.rules, &stmts, span) {
        Ok(f) => Some(f),
        Err(ds) => {
            cx.fails.extend(ds);
            None
        }
    }
}

fn compile_expr(cx: &mut Ctx, node: &Node, src: &str) -> Option<(u32, Ty)> {
    let table = cx.map_for(node, src);
    let src2 = src.to_string();
    let m = move |o: usize| map_offset(&table, &src2, o);
    let e = match parser::parse_expr(cx.file, src, &m) {
        Ok(e) => e,
        Err(e) => {
            cx.fails.push(syntax_diag(e));
            return None;
        }
    };
    match snippet::add_expr(&mut cx.rules, &e) {
        Ok(x) => Some(x),
        Err(ds) => {
            cx.fails.extend(ds);
            None
        }
    }
}

/// Evaluates the expression `src` (written at `node`) on the game's
/// current state; returns its value as text and its type.
pub(super) fn eval_expr(
    cx: &mut Ctx,
    game: &mut Game,
    node: &Node,
    src: &str,
) -> Option<(String, Ty)> {
    let (f, ty) = compile_expr(cx, node, src)?;
    // The game holds its own copy of the ruleset: evaluate with ours.
    let rules = cx.rules.clone();
    let mut st = game.state().clone();
    match crate::engine::vm::eval(&rules, &mut st, f, Vec::new()) {
        Ok(v) => {
            let shown = match &ty {
                Ty::Set(k) => {
                    let names: Vec<String> = crate::engine::vm::elements(&v)
                        .iter()
                        .map(|e| rules.display(&Ty::Ent(*k), *e, st.nplayers))
                        .collect();
                    format!("{{{}}}", names.join(", "))
                }
                _ => rules.display(&ty, v.int(), st.nplayers),
            };
            Some((shown, ty))
        }
        Err(e) => {
            cx.fails.push(
                Diagnostic::new(
                    e.kind.code(),
                    cx.span(node),
                    format!("cannot evaluate: {}", e.message),
                )
                .help("check the expression"),
            );
            None
        }
    }
}

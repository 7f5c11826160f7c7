//! Statements and blocks, with `choose` and its arms.

use pest::iterators::Pair;

use super::exprs::{binder, expr};
use super::items::type_expr;
use super::{Ctx, Rule};
use crate::lang::ast::*;

pub(super) fn block(ctx: &Ctx, pair: Pair<Rule>) -> Block {
    let span = ctx.span(&pair);
    Block {
        stmts: pair.into_inner().map(|p| stmt(ctx, p)).collect(),
        span,
    }
}

fn string_of(p: Pair<Rule>) -> String {
    p.into_inner()
        .next()
        .map_or(String::new(), |s| s.as_str().to_string())
}

/// A statement, one level below the one holding it.
pub(super) fn stmt(ctx: &Ctx, pair: Pair<Rule>) -> Stmt {
    let at = ctx.head(&pair);
    let stand_in = || Stmt {
        kind: StmtKind::Break,
        span: at,
    };
    ctx.nested(1, at, stand_in, || statement(ctx, pair))
}

fn statement(ctx: &Ctx, pair: Pair<Rule>) -> Stmt {
    let span = ctx.span(&pair);
    let rule = pair.as_rule();
    let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
    let kind = match rule {
        Rule::let_stmt => {
            let name = ctx.ident(it.next().expect("let name"));
            let next = it.next().expect("let value");
            if next.as_rule() == Rule::type_expr {
                let ty = type_expr(ctx, next);
                StmtKind::Let(name, Some(ty), expr(ctx, it.next().expect("let value")))
            } else {
                StmtKind::Let(name, None, expr(ctx, next))
            }
        }
        Rule::assign_stmt => {
            let place = place(ctx, it.next().expect("place"));
            let op = match it.next().expect("op").as_str() {
                "+=" => AssignOp::Add,
                "-=" => AssignOp::Sub,
                _ => AssignOp::Set,
            };
            StmtKind::Assign(place, op, expr(ctx, it.next().expect("value")))
        }
        Rule::if_stmt => {
            let cond = expr(ctx, it.next().expect("cond"));
            let then = block(ctx, it.next().expect("then"));
            let els = it.next().map(|p| {
                if p.as_rule() == Rule::if_stmt {
                    let s = stmt(ctx, p);
                    Block {
                        span: s.span,
                        stmts: vec![s],
                    }
                } else {
                    block(ctx, p)
                }
            });
            StmtKind::If(cond, then, els)
        }
        Rule::while_stmt => {
            let cond = expr(ctx, it.next().expect("cond"));
            StmtKind::While(cond, block(ctx, it.next().expect("body")))
        }
        Rule::loop_stmt => StmtKind::Loop(block(ctx, it.next().expect("body"))),
        Rule::for_stmt => {
            let b = binder(ctx, it.next().expect("binder"));
            StmtKind::For(b, block(ctx, it.next().expect("body")))
        }
        Rule::choose_stmt => StmtKind::Choose(choose(ctx, it)),
        Rule::require_stmt => {
            let cond = expr(ctx, it.next().expect("cond"));
            StmtKind::Require(cond, it.next().map(string_of))
        }
        Rule::fail_stmt => StmtKind::Fail(string_of(it.next().expect("reason"))),
        Rule::return_stmt => StmtKind::Return(it.next().map(|p| expr(ctx, p))),
        Rule::legal_stmt => StmtKind::Legal,
        Rule::break_stmt => StmtKind::Break,
        Rule::continue_stmt => StmtKind::Continue,
        Rule::expr_stmt => StmtKind::Expr(expr(ctx, it.next().expect("expr"))),
        r => unreachable!("statement rule {r:?}"),
    };
    Stmt { kind, span }
}

fn is_keyword(r: Rule) -> bool {
    use Rule::*;
    matches!(
        r,
        kw_let
            | kw_if
            | kw_else
            | kw_while
            | kw_loop
            | kw_for
            | kw_choose
            | kw_by
            | kw_require
            | kw_fail
            | kw_legal
            | kw_return
            | kw_break
            | kw_continue
            | kw_in
            | kw_where
            | kw_when
            | kw_then
    )
}

fn place(ctx: &Ctx, pair: Pair<Rule>) -> Place {
    let span = ctx.span(&pair);
    let mut it = pair.into_inner();
    let name = ctx.ident(it.next().expect("place name"));
    Place {
        name,
        indices: it.map(|p| expr(ctx, p)).collect(),
        span,
    }
}

fn choose<'i>(ctx: &Ctx, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> Choose {
    let mut prompt = None;
    let mut first = it.next().expect("choose content");
    if first.as_rule() == Rule::string {
        prompt = Some(string_of(first));
        first = it.next().expect("choose by");
    }
    let by = expr(ctx, first);
    let arms = it.map(|a| arm(ctx, a)).collect();
    Choose { prompt, by, arms }
}

fn arm(ctx: &Ctx, pair: Pair<Rule>) -> Arm {
    let mut it = pair.into_inner();
    let head = it.next().expect("arm head");
    let span = ctx.span(&head);
    let kind = match head.as_rule() {
        Rule::set_arm => ArmKind::Each(binder(ctx, head.into_inner().next().expect("binder"))),
        _ => {
            let mut h = head.into_inner().filter(|p| p.as_rule() != Rule::kw_when);
            let name = ctx.ident(h.next().expect("arm name"));
            ArmKind::Named(name, h.next().map(|p| expr(ctx, p)))
        }
    };
    Arm {
        kind,
        body: block(ctx, it.next().expect("arm body")),
        span,
    }
}

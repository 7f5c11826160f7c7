//! Expressions, from conditionals down to primaries, and binders
//! (`x in S where cond`), shared by `for`, set builders and aggregates.

use pest::iterators::Pair;

use super::{Ctx, Rule};
use crate::lang::ast::*;

pub(super) fn binder(ctx: &Ctx, pair: Pair<Rule>) -> Binder {
    let span = ctx.span(&pair);
    let mut it = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::kw_in | Rule::kw_where));
    let var = ctx.ident(it.next().expect("binder name"));
    let src = it
        .next()
        .expect("binder source")
        .into_inner()
        .next()
        .expect("source");
    let source = if src.as_rule() == Rule::range_src {
        let mut r = src.into_inner();
        let lo = additive(ctx, r.next().expect("lo"));
        let incl = r.next().expect("range op").as_rule() == Rule::range_incl;
        let hi = additive(ctx, r.next().expect("hi"));
        Source::Range(lo, hi, incl)
    } else {
        Source::Expr(expr(ctx, src))
    };
    let filter = it.next().map(|p| expr(ctx, p));
    Binder {
        var,
        source,
        filter,
        span,
    }
}

/// The expression of any expression rule, from `expr` down to primaries.
pub(super) fn expr(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    match pair.as_rule() {
        Rule::expr => expr(ctx, pair.into_inner().next().expect("expr content")),
        Rule::cond_expr => conditional(ctx, pair),
        Rule::or_expr | Rule::and_expr | Rule::additive | Rule::multiplicative => {
            binary_chain(ctx, pair)
        }
        Rule::not_expr => prefixed(ctx, pair, Rule::op_not, ExprKind::Not, "not operand"),
        Rule::cmp_expr => comparison(ctx, pair),
        Rule::unary => prefixed(ctx, pair, Rule::neg, ExprKind::Neg, "unary operand"),
        Rule::postfix => postfix(ctx, pair),
        _ => primary(ctx, pair),
    }
}

/// `if c then a else b`.
fn conditional(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let span = ctx.span(&pair);
    let mut it = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::kw_if | Rule::kw_then | Rule::kw_else));
    let c = expr(ctx, it.next().expect("cond"));
    let a = expr(ctx, it.next().expect("then"));
    let b = expr(ctx, it.next().expect("else"));
    Expr {
        kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
        span,
    }
}

/// An operand under prefix operators `op` (`not`, `-`), each wrapping it
/// by `wrap`, innermost first.
fn prefixed(
    ctx: &Ctx,
    pair: Pair<Rule>,
    op: Rule,
    wrap: fn(Box<Expr>) -> ExprKind,
    what: &str,
) -> Expr {
    let span = ctx.span(&pair);
    let mut ops = 0;
    let mut inner = None;
    for p in pair.into_inner() {
        if p.as_rule() == op {
            ops += 1;
        } else {
            inner = Some(expr(ctx, p));
        }
    }
    let mut e = inner.expect(what);
    for _ in 0..ops {
        e = Expr {
            kind: wrap(Box::new(e)),
            span,
        };
    }
    e
}

/// An operand, compared to another when a comparison follows.
fn comparison(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let span = ctx.span(&pair);
    let mut it = pair.into_inner();
    let left = expr(ctx, it.next().expect("left"));
    let Some(op) = it.next() else { return left };
    let op = match op.as_str() {
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<=" => BinOp::Le,
        ">=" => BinOp::Ge,
        "<" => BinOp::Lt,
        ">" => BinOp::Gt,
        _ => BinOp::In,
    };
    let right = expr(ctx, it.next().expect("right"));
    Expr {
        kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
        span,
    }
}

fn additive(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    expr(ctx, pair)
}

fn binary_chain(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let mut it = pair.into_inner();
    let mut left = expr(ctx, it.next().expect("operand"));
    while let Some(op) = it.next() {
        let op = match op.as_str() {
            "or" => BinOp::Or,
            "and" => BinOp::And,
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            _ => BinOp::Rem,
        };
        let right = expr(ctx, it.next().expect("operand"));
        let span = left.span.to(right.span);
        left = Expr {
            kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
            span,
        };
    }
    left
}

fn postfix(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let mut it = pair.into_inner();
    let mut e = primary(ctx, it.next().expect("primary"));
    for p in it {
        let span = e.span.to(ctx.span(&p));
        e = match p.as_rule() {
            Rule::field_access => Expr {
                kind: ExprKind::Field(
                    Box::new(e),
                    ctx.ident(p.into_inner().next().expect("field")),
                ),
                span,
            },
            _ => Expr {
                kind: ExprKind::Index(Box::new(e), p.into_inner().map(|i| expr(ctx, i)).collect()),
                span,
            },
        };
    }
    e
}

fn primary(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let span = ctx.span(&pair);
    let kind = match pair.as_rule() {
        Rule::int => ExprKind::Int(pair.as_str().parse().unwrap_or(i64::MAX)),
        Rule::kw_true => ExprKind::Bool(true),
        Rule::kw_false => ExprKind::Bool(false),
        Rule::kw_none => ExprKind::None,
        Rule::ident => ExprKind::Name(ctx.ident(pair)),
        Rule::call => {
            let mut it = pair.into_inner();
            let name = ctx.ident(it.next().expect("callee"));
            ExprKind::Call(name, it.map(|p| expr(ctx, p)).collect())
        }
        Rule::set_lit => {
            let mut it = pair.into_inner().peekable();
            match it.peek().map(|p| p.as_rule()) {
                Some(Rule::binder) => {
                    ExprKind::SetBuild(Box::new(binder(ctx, it.next().expect("binder"))))
                }
                _ => ExprKind::SetLit(it.map(|p| expr(ctx, p)).collect()),
            }
        }
        Rule::aggregate => {
            let mut it = pair.into_inner();
            let agg = match it.next().expect("aggregate name").as_str() {
                "sum" => Aggregate::Sum,
                "count" => Aggregate::Count,
                "min" => Aggregate::Min,
                "max" => Aggregate::Max,
                "any" => Aggregate::Any,
                "all" => Aggregate::All,
                "argmax" => Aggregate::ArgMax,
                _ => Aggregate::ArgMin,
            };
            let b = binder(ctx, it.next().expect("binder"));
            let body = it.next().map(|p| Box::new(expr(ctx, p)));
            ExprKind::Aggregate(agg, Box::new(b), body)
        }
        _ => return expr(ctx, pair),
    };
    Expr { kind, span }
}

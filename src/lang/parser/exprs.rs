//! Expressions, from conditionals down to primaries, and binders
//! (`x in S where cond`), shared by `for`, set builders and aggregates.

use pest::iterators::Pair;

use super::{Ctx, Rule, SyntaxError};
use crate::ir::codes::Code;
use crate::ir::span::Span;
use crate::lang::ast::*;

pub(super) fn binder(ctx: &Ctx, pair: Pair<Rule>) -> Binder {
    let span = ctx.span(&pair);
    let mut it = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::kw_in | Rule::kw_where));
    let var = ctx.ident(it.next().expect("binder name"));
    let mut src = it.next().expect("binder source").into_inner();
    let start = expr(ctx, src.next().expect("source"));
    let source = match src.next() {
        Some(end) => {
            let mut r = end.into_inner();
            let incl = r.next().expect("range op").as_rule() == Rule::range_incl;
            let hi = expr(ctx, r.next().expect("hi"));
            Source::Range(start, hi, incl)
        }
        None => Source::Expr(start),
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
    let pair = innermost(pair);
    match pair.as_rule() {
        Rule::cond_expr => nested(ctx, 1, pair, conditional),
        Rule::or_expr | Rule::and_expr | Rule::additive | Rule::multiplicative => {
            binary_chain(ctx, pair)
        }
        Rule::not_expr => prefixed(ctx, pair, Rule::op_not, ExprKind::Not, "not operand"),
        Rule::cmp_expr => nested(ctx, 1, pair, comparison),
        Rule::unary => prefixed(ctx, pair, Rule::neg, ExprKind::Neg, "unary operand"),
        Rule::postfix => postfix(ctx, pair),
        _ => primary(ctx, pair),
    }
}

/// The pair under `pair` through the rules that hold one pair only (an
/// operator level without its operator, brackets around an expression):
/// `((x))` is built in one call, not thirty.
fn innermost(mut pair: Pair<Rule>) -> Pair<Rule> {
    loop {
        match pair.as_rule() {
            Rule::expr
            | Rule::or_expr
            | Rule::and_expr
            | Rule::not_expr
            | Rule::cmp_expr
            | Rule::additive
            | Rule::multiplicative
            | Rule::unary
            | Rule::postfix => {
                let mut inner = pair.clone().into_inner();
                match (inner.next(), inner.next()) {
                    (Some(only), None) => pair = only,
                    _ => return pair,
                }
            }
            _ => return pair,
        }
    }
}

/// The expression `build` makes of `pair`, `levels` levels below the
/// current one; past the limit, a stand-in (never compiled: the text is
/// reported).
fn nested<'i>(
    ctx: &Ctx,
    levels: usize,
    pair: Pair<'i, Rule>,
    build: impl FnOnce(&Ctx, Pair<'i, Rule>) -> Expr,
) -> Expr {
    let at = ctx.head(&pair);
    let stand_in = || Expr {
        kind: ExprKind::Int(0),
        span: at,
    };
    ctx.nested(levels, at, stand_in, || build(ctx, pair))
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
/// by `wrap`, innermost first. `-9223372036854775808` is the smallest
/// integer (the literal alone is beyond the range).
fn prefixed(
    ctx: &Ctx,
    pair: Pair<Rule>,
    op: Rule,
    wrap: fn(Box<Expr>) -> ExprKind,
    what: &str,
) -> Expr {
    let span = ctx.span(&pair);
    let ops = pair
        .clone()
        .into_inner()
        .filter(|p| p.as_rule() == op)
        .count();
    nested(ctx, ops, pair, |ctx, pair| {
        let operand = pair.into_inner().find(|p| p.as_rule() != op).expect(what);
        let operand = innermost(operand);
        let mut ops = ops;
        let smallest = op == Rule::neg
            && operand.as_rule() == Rule::int
            && operand.as_str().parse::<u64>() == Ok(i64::MIN.unsigned_abs());
        let mut e = if smallest {
            ops -= 1;
            Expr {
                kind: ExprKind::Int(i64::MIN),
                span: ctx.span(&operand),
            }
        } else {
            expr(ctx, operand)
        };
        for _ in 0..ops {
            e = Expr {
                kind: wrap(Box::new(e)),
                span,
            };
        }
        e
    })
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

/// Operands joined by operators of one precedence, left to right:
/// `a - b - c` is `(a - b) - c`, built in a loop (a chain is as deep as it
/// has operators).
fn binary_chain(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let ops = pair.clone().into_inner().count() / 2;
    nested(ctx, ops, pair, |ctx, pair| {
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
    })
}

/// A primary followed by field accesses and indexings, each one level
/// deeper.
fn postfix(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let suffixes = pair.clone().into_inner().count() - 1;
    nested(ctx, suffixes, pair, |ctx, pair| {
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
                    kind: ExprKind::Index(
                        Box::new(e),
                        p.into_inner().map(|i| expr(ctx, i)).collect(),
                    ),
                    span,
                },
            };
        }
        e
    })
}

fn primary(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let span = ctx.span(&pair);
    let kind = match pair.as_rule() {
        Rule::int => return int_literal(ctx, &pair),
        Rule::kw_true => ExprKind::Bool(true),
        Rule::kw_false => ExprKind::Bool(false),
        Rule::kw_none => ExprKind::None,
        Rule::ident => ExprKind::Name(ctx.ident(pair)),
        Rule::call | Rule::set_lit | Rule::aggregate => {
            return nested(ctx, 1, pair, |ctx, pair| Expr {
                kind: compound(ctx, pair),
                span,
            })
        }
        _ => return expr(ctx, pair),
    };
    Expr { kind, span }
}

/// A call, a set literal or builder, or an aggregate.
fn compound(ctx: &Ctx, pair: Pair<Rule>) -> ExprKind {
    match pair.as_rule() {
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
        _ => {
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
    }
}

/// An integer literal; a number beyond 64 bits is reported.
fn int_literal(ctx: &Ctx, pair: &Pair<Rule>) -> Expr {
    let text = pair.as_str();
    let span = ctx.span(pair);
    let value = text.parse::<i64>().unwrap_or_else(|_| {
        ctx.report(out_of_range(span, text));
        0
    });
    Expr {
        kind: ExprKind::Int(value),
        span,
    }
}

/// The report of an integer literal beyond 64 bits.
pub(super) fn out_of_range(span: Span, text: &str) -> SyntaxError {
    let shown: String = text.chars().take(40).collect();
    let cut = if shown.len() < text.len() { "..." } else { "" };
    SyntaxError::other(
        Code::NumberOutOfRange,
        span,
        format!("the number {shown}{cut} is beyond the 64-bit range"),
        "too large",
        format!(
            "integers run from {} to {} (docs/LANGUAGE.md, Limits)",
            i64::MIN,
            i64::MAX
        ),
    )
}

//! Declarations: `var`, `fn`, `proc`, `score`, and types.

use pest::iterators::Pair;

use super::exprs::{expr, out_of_range};
use super::stmts::block;
use super::{Ctx, Rule};
use crate::lang::ast::*;

pub(super) fn var_decl(ctx: &Ctx, pair: Pair<Rule>) -> VarDecl {
    let span = ctx.span(&pair);
    let mut visibility = Visibility::Public;
    let mut name = None;
    let mut dims = Vec::new();
    let mut ty = None;
    let mut init = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::visibility => {
                visibility = if p.as_str() == "private" {
                    Visibility::Private
                } else {
                    Visibility::Hidden
                }
            }
            Rule::ident => name = Some(ctx.ident(p)),
            Rule::dims => {
                for d in p.into_inner() {
                    let inner = d.into_inner().next().expect("dim content");
                    dims.push(match inner.as_rule() {
                        Rule::range_dim => {
                            let s = ctx.span(&inner);
                            let mut it = inner.into_inner();
                            let lo = int_value(ctx, it.next());
                            let hi = int_value(ctx, it.next());
                            Dim::Range(lo, hi, s)
                        }
                        _ => Dim::Kind(ctx.ident(inner)),
                    });
                }
            }
            Rule::type_expr => ty = Some(type_expr(ctx, p)),
            Rule::expr => init = Some(expr(ctx, p)),
            _ => {}
        }
    }
    VarDecl {
        visibility,
        name: name.expect("var name"),
        dims,
        ty: ty.expect("var type"),
        init,
        span,
    }
}

/// A bound of a range dimension; a number beyond 64 bits is reported.
fn int_value(ctx: &Ctx, p: Option<Pair<Rule>>) -> i64 {
    let Some(p) = p else { return 0 };
    p.as_str().parse().unwrap_or_else(|_| {
        ctx.report(out_of_range(ctx.span(&p), p.as_str()));
        0
    })
}

fn params(ctx: &Ctx, pair: Pair<Rule>) -> Vec<Param> {
    pair.into_inner()
        .map(|p| {
            let mut it = p.into_inner();
            Param {
                name: ctx.ident(it.next().expect("param name")),
                ty: type_expr(ctx, it.next().expect("param type")),
            }
        })
        .collect()
}

pub(super) fn fn_decl(ctx: &Ctx, pair: Pair<Rule>) -> FnDecl {
    let span = ctx.span(&pair);
    let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_fn);
    let name = ctx.ident(it.next().expect("fn name"));
    let params = params(ctx, it.next().expect("fn params"));
    let ret = type_expr(ctx, it.next().expect("fn type"));
    let body = expr(ctx, it.next().expect("fn body"));
    FnDecl {
        name,
        params,
        ret,
        body,
        span,
    }
}

pub(super) fn proc_decl(ctx: &Ctx, pair: Pair<Rule>) -> ProcDecl {
    let span = ctx.span(&pair);
    let mut name = None;
    let mut ps = Vec::new();
    let mut ret = None;
    let mut body = Block::default();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::ident => name = Some(ctx.ident(p)),
            Rule::params => ps = params(ctx, p),
            Rule::type_expr => ret = Some(type_expr(ctx, p)),
            Rule::block => body = block(ctx, p),
            _ => {}
        }
    }
    ProcDecl {
        name: name.expect("proc name"),
        params: ps,
        ret,
        body,
        span,
    }
}

pub(super) fn score_decl(ctx: &Ctx, pair: Pair<Rule>) -> ScoreDecl {
    let span = ctx.span(&pair);
    let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_score);
    let player = ctx.ident(it.next().expect("score player"));
    let keys = it.map(|p| expr(ctx, p)).collect();
    ScoreDecl { player, keys, span }
}

pub(super) fn metric_decl(ctx: &Ctx, pair: Pair<Rule>) -> MetricDecl {
    let span = ctx.span(&pair);
    let mut names = Vec::new();
    let mut value = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::ident => names.push(ctx.ident(p)),
            Rule::expr => value = Some(expr(ctx, p)),
            _ => {}
        }
    }
    let mut names = names.into_iter();
    MetricDecl {
        name: names.next().expect("metric name"),
        player: names.next(),
        value: value.expect("metric value"),
        span,
    }
}

pub(super) fn ending_decl(ctx: &Ctx, pair: Pair<Rule>) -> EndingDecl {
    let span = ctx.span(&pair);
    let mut reason = String::new();
    let mut when = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::string => {
                reason = p
                    .into_inner()
                    .next()
                    .map(|i| i.as_str().to_string())
                    .unwrap_or_default()
            }
            Rule::expr => when = Some(expr(ctx, p)),
            _ => {}
        }
    }
    EndingDecl { reason, when, span }
}

pub(super) fn type_expr(ctx: &Ctx, pair: Pair<Rule>) -> TypeExpr {
    let inner = if pair.as_rule() == Rule::type_expr {
        pair.into_inner().next().expect("type content")
    } else {
        pair
    };
    let span = ctx.span(&inner);
    match inner.as_rule() {
        Rule::ident => TypeExpr::Name(ctx.ident(inner)),
        Rule::proc_type => TypeExpr::Name(Ident {
            name: "proc".into(),
            span,
        }),
        Rule::set_type => TypeExpr::Set(ctx.ident(inner.into_inner().next().expect("kind")), span),
        Rule::list_type => {
            TypeExpr::List(ctx.ident(inner.into_inner().next().expect("kind")), span)
        }
        Rule::array_type => TypeExpr::Array(
            Box::new(type_expr(ctx, inner.into_inner().next().expect("elem"))),
            span,
        ),
        Rule::map_type => {
            let mut it = inner.into_inner();
            let k = type_expr(ctx, it.next().expect("key"));
            let v = type_expr(ctx, it.next().expect("value"));
            TypeExpr::Map(Box::new(k), Box::new(v), span)
        }
        r => unreachable!("type rule {r:?}"),
    }
}

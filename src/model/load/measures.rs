//! Compiling what simulations measure: the metrics (`metric name(p) = e;`,
//! `metric name = e;`) and the named endings (`ending "reason" when c;`).
//! Both are pure functions of the final state, compiled apart from the
//! game program: they never run while the game is played.

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::{EndingDef, MetricDef, Ty, PLAYER};
use crate::lang::ast;
use crate::model::compile::{Compiler, FnCtx};

use super::bodies::Extra;
use super::files::RulesFile;

/// Compiles the metrics, in declaration order. Two metrics of the same
/// name in the base rules are a mistake; a variant's metric replaces the
/// base one of its name (in its place), or adds one.
pub(super) fn compile_metrics(
    c: &mut Compiler,
    extra: &mut Extra,
    rules: &[RulesFile],
) -> Vec<MetricDef> {
    let mut metrics: Vec<(MetricDef, &ast::MetricDecl, bool)> = Vec::new();
    for rf in rules {
        for item in &rf.ast.items {
            let ast::Item::Metric(m) = item else { continue };
            let def = compile_metric(c, extra, m);
            match metrics.iter().position(|(d, _, _)| d.name == def.name) {
                Some(i) if rf.is_variant => metrics[i] = (def, m, true),
                Some(i) => {
                    let first = metrics[i].1.name.span;
                    c.diags.push(
                        Diagnostic::new(
                            Code::DuplicateName,
                            m.name.span,
                            format!("a second metric named `{}`", m.name.name),
                        )
                        .note(first, "the first one")
                        .help("give each metric its own name"),
                    );
                }
                None => metrics.push((def, m, rf.is_variant)),
            }
        }
    }
    metrics.into_iter().map(|(d, _, _)| d).collect()
}

/// Compiles one metric into a function of its player (if per seat).
fn compile_metric(c: &mut Compiler, extra: &mut Extra, m: &ast::MetricDecl) -> MetricDef {
    let params: Vec<(String, Ty)> = m
        .player
        .iter()
        .map(|p| (p.name.clone(), Ty::Ent(PLAYER)))
        .collect();
    let mut f = FnCtx::new(&params, Ty::Int, false);
    let ty = c.value_body(&mut f, &m.value);
    if !matches!(ty, Ty::Int | Ty::Bool | Ty::Error) {
        c.diags.push(
            Diagnostic::new(
                Code::TypeMismatch,
                m.value.span,
                format!(
                    "the metric `{}` must be a number or a condition",
                    m.name.name
                ),
            )
            .label("this value")
            .help("count it: `count(x in S where ...)`, or `if c then 1 else 0`"),
        );
    }
    let name = format!("metric {}", m.name.name);
    let func = extra.push(f.finish(&name, params.len(), m.span));
    MetricDef {
        name: m.name.name.clone(),
        per_seat: m.player.is_some(),
        func,
    }
}

/// Compiles the endings, in declaration order (base rules first, then the
/// variants'): the first whose condition holds names the ending.
pub(super) fn compile_endings(
    c: &mut Compiler,
    extra: &mut Extra,
    rules: &[RulesFile],
) -> Vec<EndingDef> {
    let mut endings = Vec::new();
    for rf in rules {
        for item in &rf.ast.items {
            let ast::Item::Ending(e) = item else { continue };
            if e.reason.trim().is_empty() {
                c.diags.push(
                    Diagnostic::new(Code::TypeMismatch, e.span, "an ending needs a reason")
                        .label("this ending")
                        .help("name it: `ending \"bag empty\" when ...;`"),
                );
            }
            let when = e.when.as_ref().map(|cond| {
                let mut f = FnCtx::new(&[], Ty::Bool, false);
                c.fn_body(&mut f, cond);
                extra.push(f.finish(&format!("ending {}", e.reason), 0, e.span))
            });
            endings.push(EndingDef {
                reason: e.reason.clone(),
                when,
            });
        }
    }
    endings
}

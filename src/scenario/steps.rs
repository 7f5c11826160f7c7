//! The steps of a scenario: `do`, `refuse` (+ `because`), `options`,
//! `expect` and `check`, each checked for its shape before it runs.

use marked_yaml::types::MarkedScalarNode;
use marked_yaml::Node;

use super::code::{eval_expr, scalar, Ctx};
use super::Outcome;
use crate::engine::Game;
use crate::ir::codes::Code;
use crate::ir::diag::Diagnostics;
use crate::ir::ruleset::{Ty, PLAYER};

/// The keys of a step.
const STEP_KEYS: &[&str] = &[
    "do", "refuse", "because", "options", "expect", "check", "note",
];

/// The keys that make a step do or assert something.
const ACTIONS: &[&str] = &["do", "refuse", "options", "expect", "check"];

/// Runs one step: each of its keys (`do`, `refuse`, `options`, `expect`,
/// `check`) in that order.
pub(super) fn run_step(cx: &mut Ctx, game: &mut Game, step: &Node, out: &mut Outcome) {
    let Some(m) = step.as_mapping() else {
        let sp = cx.span(step);
        cx.fail(Code::BadValue, sp, "a step must be a mapping", "write `- do: name`, `- refuse: name`, `- expect: {...}`, `- check: expr` or `- options: [...]`");
        return;
    };
    let mut step_diags = Diagnostics::default();
    crate::model::data::check_keys(
        cx.file,
        &cx.text.clone(),
        m,
        STEP_KEYS,
        "a step",
        &mut step_diags,
    );
    cx.fails.append(&mut step_diags.items);
    if !ACTIONS.iter().any(|k| m.get_node(k).is_some()) {
        // At the step's first key (the mapping's own span runs to the next step).
        let sp = match m.keys().next() {
            Some(k) => cx.span(&Node::Scalar(k.clone())),
            None => cx.span(step),
        };
        cx.fail(
            Code::BadValue,
            sp,
            "this step does nothing",
            "a step holds `do:`, `refuse:`, `options:`, `expect:` or `check:` (notes go in YAML comments or beside one of them)",
        );
        return;
    }
    if let Some(n) = m.get_node("do") {
        if let Some(name) = one_name(cx, n, "do") {
            step_do(cx, game, n, &name, out);
        }
    }
    let because = m.get_node("because");
    if let Some(b) = because {
        if m.get_node("refuse").is_none() {
            let sp = cx.span(b);
            cx.fail(
                Code::BadValue,
                sp,
                "`because:` without `refuse:`",
                "`because:` gives the reason a `refuse:` of the same step expects",
            );
        }
    }
    if let Some(n) = m.get_node("refuse") {
        let because = match because {
            Some(b) => match one_name(cx, b, "because") {
                Some(t) => Some(t),
                None => return,
            },
            None => None,
        };
        if let Some(name) = one_name(cx, n, "refuse") {
            step_refuse(cx, game, n, &name, because, out);
        }
    }
    if let Some(n) = m.get_node("options") {
        step_options(cx, game, n, out);
    }
    if let Some(n) = m.get_node("expect") {
        match n.as_mapping() {
            Some(map) => {
                for (k, v) in map.iter() {
                    step_expect(cx, game, k, v, out);
                }
            }
            None => {
                let sp = cx.span(n);
                cx.fail(
                    Code::BadValue,
                    sp,
                    "`expect:` must be a mapping of expressions to values",
                    "write one `expression: value` per line under `expect:` (block style)",
                );
            }
        }
    }
    if let Some(n) = m.get_node("check") {
        if let Some(src) = one_name(cx, n, "check") {
            step_check(cx, game, n, &src, out);
        }
    }
}

/// The text of a key that takes one scalar (a decision name, a reason, an
/// expression); records a failure for a list or a mapping.
fn one_name(cx: &mut Ctx, n: &Node, key: &str) -> Option<String> {
    let s = scalar(n);
    if s.is_none() {
        let sp = cx.span(n);
        let what = match key {
            "because" => "a text",
            "check" => "an expression",
            _ => "one decision name",
        };
        cx.fail(
            Code::BadValue,
            sp,
            format!("`{key}:` takes {what}, not a list or a mapping"),
            "write it on the same line, quoted if it holds `: ` or starts with `[` or `{`",
        );
    }
    s
}

/// `do: name`: applies the decision.
fn step_do(cx: &mut Ctx, game: &mut Game, n: &Node, name: &str, out: &mut Outcome) {
    let who = game
        .to_move()
        .and_then(|p| game.rules().kinds[PLAYER as usize].items.get(p).cloned())
        .unwrap_or_else(|| "-".into());
    let prompt = game.prompt().unwrap_or("").to_string();
    match game.apply_named(name) {
        Ok(()) => out.transcript.push(format!("{who} ({prompt}): {name}")),
        Err(e) => {
            let sp = cx.span(n);
            cx.fail(
                e.kind().map_or(Code::ScenarioRefused, |k| k.code()),
                sp,
                format!("decision `{name}` failed: {e}"),
                "the scenario's decisions must be legal in order",
            );
        }
    }
}

/// `refuse: name` (+ `because: text`): the decision must be refused, for
/// a reason containing `because`.
fn step_refuse(
    cx: &mut Ctx,
    game: &mut Game,
    n: &Node,
    name: &str,
    because: Option<String>,
    out: &mut Outcome,
) {
    out.assertions += 1;
    let sp = cx.span(n);
    match game.legal() {
        Ok(legal) if legal.iter().any(|d| *d.name == *name) => {
            cx.fail(
                Code::ScenarioNotRefused,
                sp,
                format!("`{name}` should be refused, but it is legal"),
                "the rules allow it: fix the rules or the scenario",
            );
        }
        Ok(_) => {
            let refused = game.refused().unwrap_or_default();
            let reason = refused
                .iter()
                .find(|r| r.name == name)
                .map(|r| r.reason.clone())
                .unwrap_or_else(|| "not offered".into());
            if let Some(b) = &because {
                if !reason.contains(b.as_str()) {
                    cx.fail(
                        Code::ScenarioWrongReason,
                        sp,
                        format!("`{name}` is refused because \"{reason}\", not \"{b}\""),
                        "adjust `because:`",
                    );
                }
            }
            out.transcript.push(format!("refused {name}: {reason}"));
        }
        Err(e) => cx.fail(
            e.kind().map_or(Code::ScenarioNotRefused, |k| k.code()),
            sp,
            format!("no decision to refuse: {e}"),
            "check the steps before",
        ),
    }
}

/// `options: [a, b]`: exactly these decisions are legal now.
fn step_options(cx: &mut Ctx, game: &mut Game, n: &Node, out: &mut Outcome) {
    let Some(list) = n.as_sequence() else {
        let sp = cx.span(n);
        cx.fail(
            Code::BadValue,
            sp,
            "`options:` must be a list of decision names",
            "write `options: [a, b]` (quote numbers: `[\"1\", \"2\"]`)",
        );
        return;
    };
    let mut want = Vec::new();
    for item in list.iter() {
        match scalar(item) {
            Some(s) => want.push(s),
            None => {
                let sp = cx.span(item);
                cx.fail(
                    Code::BadValue,
                    sp,
                    "an option must be a decision name, not a list or a mapping",
                    "write `options: [a, b]`",
                );
                return;
            }
        }
    }
    out.assertions += 1;
    let mut got: Vec<String> = game
        .legal()
        .map(|l| l.into_iter().map(|d| d.name.to_string()).collect())
        .unwrap_or_default();
    let mut w = want.clone();
    w.sort();
    got.sort();
    if w != got {
        let sp = cx.span(n);
        cx.fail(
            Code::ScenarioWrongOptions,
            sp,
            format!(
                "legal decisions are [{}], expected [{}]",
                got.join(", "),
                want.join(", ")
            ),
            "fix the rules or the scenario",
        );
    } else {
        out.transcript
            .push(format!("options: [{}]", want.join(", ")));
    }
}

/// One entry `expr: value` of `expect:`: the expression has that value.
fn step_expect(cx: &mut Ctx, game: &mut Game, k: &MarkedScalarNode, v: &Node, out: &mut Outcome) {
    let src = k.as_str().to_string();
    let key_node = Node::Scalar(k.clone());
    let Some(want) = scalar(v) else {
        let sp = cx.span(v);
        cx.fail(
            Code::BadValue,
            sp,
            format!("the value expected of `{src}` must be a number, a name, true, false or none"),
            "compare sets with `check:` (`check: hand[red] == {wood}`) or count them",
        );
        return;
    };
    out.assertions += 1;
    if let Some((got, _)) = eval_expr(cx, game, &key_node, &src) {
        if got == want {
            out.transcript.push(format!("{src} = {got}"));
        } else {
            let sp = cx.span(&key_node);
            cx.fail(
                Code::ScenarioWrongValue,
                sp,
                format!("`{src}` is {got}, expected {want}"),
                "the rules and the scenario disagree",
            );
            out.transcript
                .push(format!("{src} = {got} (expected {want})"));
        }
    }
}

/// `check: expr`: a boolean expression holds.
fn step_check(cx: &mut Ctx, game: &mut Game, n: &Node, src: &str, out: &mut Outcome) {
    out.assertions += 1;
    if let Some((got, ty)) = eval_expr(cx, game, n, src) {
        if ty != Ty::Bool && ty != Ty::Error {
            let sp = cx.span(n);
            cx.fail(
                Code::TypeMismatch,
                sp,
                "`check:` needs a true/false expression",
                "use `expect:` for values",
            );
        } else if got != "true" {
            let sp = cx.span(n);
            cx.fail(
                Code::ScenarioWrongValue,
                sp,
                format!("`{src}` does not hold"),
                "the rules and the scenario disagree",
            );
        } else {
            out.transcript.push(format!("check {src}"));
        }
    }
}

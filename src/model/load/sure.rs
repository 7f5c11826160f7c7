//! Which `legal;` statements are followed by a run that cannot be
//! refused, found once the code is final: applying an option declared
//! legal at one of them then runs it without preparing an undo (see
//! [`Ruleset::legal_is_sure`]).
//!
//! A run after `legal;` is refused by a requirement or a `fail` it
//! reaches, or by reaching a choice that offers no option; the engine
//! prepares an undo so that the state stays as it was when that happens.
//! Where no such thing can be reached, the undo is never used.

use std::collections::HashSet;

use crate::ir::bytecode::{Func, Op};
use crate::ir::ruleset::Ruleset;
use crate::ir::verify::unfused;

/// Sets [`Ruleset::legal_is_sure`] for every message: true when every
/// `legal;` of that message stands in a function nothing calls (so its
/// frame is the bottom one, and a return ends the game) and every way on
/// from it, to the next choice or the end, reaches no requirement, no
/// `fail`, no call of a procedure that might refuse or wait, and no
/// choice but one that surely offers an option. Conservative: a ruleset
/// with any call through a procedure value is left all unsure.
pub(super) fn mark_legals(rules: &mut Ruleset) {
    let mut sure = vec![false; rules.messages.len()];
    let funcs = rules.funcs();
    let dynamic = funcs
        .iter()
        .any(|f| f.code.iter().any(|op| matches!(op, Op::CallDyn(_))));
    if !dynamic {
        let called = called(funcs);
        let quiet = quiet_funcs(funcs);
        let mut seen = vec![None::<bool>; sure.len()];
        for (fi, f) in funcs.iter().enumerate() {
            for (pc, op) in f.code.iter().enumerate() {
                let Op::Legal(m) = *op else { continue };
                let here = !called.contains(&(fi as u32)) && clean_from(f, pc + 1, &quiet);
                if let Some(s) = seen.get_mut(m as usize) {
                    *s = Some(s.unwrap_or(true) && here);
                }
            }
        }
        for (s, found) in sure.iter_mut().zip(seen) {
            *s = found == Some(true);
        }
    }
    rules.legal_sure = sure;
}

/// The functions some instruction calls.
fn called(funcs: &[Func]) -> HashSet<u32> {
    funcs
        .iter()
        .flat_map(|f| f.code.iter())
        .filter_map(|op| match *op {
            Op::Call(g, _) => Some(g),
            _ => None,
        })
        .collect()
}

/// Whether an instruction may stop a run refused (or call through a
/// procedure value, which is not followed).
fn refuses(op: &Op) -> bool {
    matches!(
        op,
        Op::Require(_)
            | Op::Fail(_)
            | Op::RequireLegal(..)
            | Op::BinRequire(..)
            | Op::RequireIn(..)
            | Op::CallDyn(_)
    )
}

/// By function: whether running it (and what it calls) can neither be
/// refused nor wait at a choice.
fn quiet_funcs(funcs: &[Func]) -> Vec<bool> {
    let mut quiet: Vec<bool> = funcs
        .iter()
        .map(|f| {
            !f.code
                .iter()
                .any(|op| refuses(op) || matches!(op, Op::ChooseWait(_)))
        })
        .collect();
    // A function calling one that is not quiet is not: until nothing changes.
    loop {
        let mut changed = false;
        for (fi, f) in funcs.iter().enumerate() {
            if quiet[fi]
                && f.code.iter().any(|op| match *op {
                    Op::Call(g, _) => !quiet.get(g as usize).copied().unwrap_or(false),
                    _ => false,
                })
            {
                quiet[fi] = false;
                changed = true;
            }
        }
        if !changed {
            return quiet;
        }
    }
}

/// Whether every way on from instruction `start` of `f` (the frame at
/// the bottom) reaches the end of the game or a choice surely offering
/// an option, and nothing that may refuse on the way. Every instruction
/// is taken to go on to the next as well as where it jumps (the parts of
/// a fused instruction follow it), so more ways are followed than run.
fn clean_from(f: &Func, start: usize, quiet: &[bool]) -> bool {
    let code = &f.code;
    let mut todo = vec![start];
    let mut seen = vec![false; code.len()];
    while let Some(i) = todo.pop() {
        let Some(op) = code.get(i) else {
            return false;
        };
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        if refuses(op) {
            return false;
        }
        match *op {
            Op::Call(g, _) if !quiet.get(g as usize).copied().unwrap_or(false) => return false,
            Op::ChooseWait(_) => {
                if !offers_an_option(code, i) {
                    return false;
                }
                continue;
            }
            Op::Ret | Op::Halt => continue,
            Op::Jump(t) => {
                todo.push(t as usize);
                continue;
            }
            _ => {}
        }
        todo.push(i + 1);
        if let Some(t) = op.jump_target() {
            todo.push(t as usize);
        }
    }
    true
}

/// Whether the choice waited at by instruction `wait` of `code` surely
/// has an option: a range of constant, non-empty bounds is added to its
/// options just before (`Const hi`, `Const lo`, `ChooseAddRange`), then
/// only values are pushed (the seat), and nothing enters that stretch of
/// code but from its first instruction.
fn offers_an_option(code: &[Op], wait: usize) -> bool {
    // The range's instruction, past the seat's plain pushes.
    let mut add = wait;
    loop {
        let Some(back) = add.checked_sub(1) else {
            return false;
        };
        add = back;
        match code[add] {
            Op::ChooseAddRange(_) => break,
            Op::Load(_) | Op::Const(_) | Op::LoadVar(_) | Op::Field(..) => {}
            _ => return false,
        }
    }
    let Some(first) = add.checked_sub(2) else {
        return false;
    };
    let (Op::Const(hi), Op::Const(lo)) = (&code[first], &code[first + 1]) else {
        return false;
    };
    if hi <= lo {
        return false;
    }
    // No jump lands after `first`, and no fused instruction before it
    // skips to there.
    let inside = |t: usize| t > first && t <= wait;
    !code.iter().enumerate().any(|(i, op)| {
        op.jump_target().is_some_and(|t| inside(t as usize))
            || (i < first && inside(i + unfused(op).len()))
    })
}

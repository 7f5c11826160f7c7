//! Which `legal;` statements are followed by a run that cannot be
//! refused, found once the code is final: applying an option declared
//! legal at one of them then runs it without preparing an undo (see
//! [`Ruleset::legal_is_sure`]).
//!
//! A run after `legal;` is refused by a requirement or a `fail` it
//! reaches, or by reaching a choice that offers no option; the engine
//! prepares an undo so that the state stays as it was when that happens.
//! Where no such thing can be reached, the undo is never used.
//!
//! The proof follows every way on from the `legal;`: through the rest of
//! its function, back into every place that calls it (and theirs), and
//! through the procedures called on the way (each judged from its start,
//! once). It tracks one fact about the options being collected: whether
//! one surely is (a named option with no condition, or a range of
//! constant, non-empty bounds, offered whole or screened, since the
//! choice began). Every instruction
//! is taken to go on to the next as well as wherever it may go (the parts
//! of a fused instruction follow it), so more ways are followed than run;
//! a ruleset with any call through a procedure value is left all unsure.
//! A search stops at the first thing that may refuse.

use crate::ir::bytecode::{Func, Op};
use crate::ir::ruleset::{ChoiceDef, Ruleset};
use smallvec::SmallVec;

use crate::ir::verify::unfused;

/// Sets [`Ruleset::legal_is_sure`] for every message: true when every
/// `legal;` of that message is followed only by ways (to the next choice
/// or the end) that reach no requirement, no `fail`, and no choice but
/// one that surely offers an option.
pub(super) fn mark_legals(rules: &mut Ruleset) {
    let mut seen = vec![None::<bool>; rules.messages.len()];
    if let Some(mut proof) = Proof::new(rules.funcs(), &rules.choices) {
        for (fi, f) in rules.funcs().iter().enumerate() {
            for (pc, op) in f.code.iter().enumerate() {
                let Op::Legal(m) = *op else { continue };
                let Some(s) = seen.get_mut(m as usize) else {
                    continue;
                };
                // One unsure `legal;` of a message makes it unsure.
                if *s != Some(false) {
                    *s = Some(proof.clean(fi, pc, false, true));
                }
            }
        }
    }
    rules.legal_sure = seen.into_iter().map(|s| s == Some(true)).collect();
}

/// What the proof knows of the code, and what it found so far.
struct Proof<'a> {
    funcs: &'a [Func],
    /// The choices (for the requirements their arms screen).
    choices: &'a [ChoiceDef],
    /// By function: whether running it may collect options or wait.
    touches: Vec<bool>,
    /// By function: where it is returned to (after each call of it).
    back: Vec<Vec<(u32, u32)>>,
    /// By function: whether running it from its start, to its return or
    /// a choice, surely is not refused (once found).
    quiet: Vec<Option<bool>>,
    /// By function: whether its judgement is under way (a call back into
    /// it is taken as quiet, and what depends on that is not kept).
    judging: Vec<bool>,
    /// Whether a judgement took a function under way as quiet.
    assumed: bool,
    /// By function: [`landed`], once needed.
    landed: Vec<Option<Vec<bool>>>,
    /// Where each function's points start (two per instruction).
    start: Vec<usize>,
    /// By point: the search that last reached it (ways from a `legal;`).
    reached: Vec<u32>,
    /// The number of the search under way.
    search: u32,
}

impl<'a> Proof<'a> {
    /// What is known of `funcs`; `None` when a procedure is called
    /// through a value (which is not followed).
    fn new(funcs: &'a [Func], choices: &'a [ChoiceDef]) -> Option<Proof<'a>> {
        let mut start = Vec::with_capacity(funcs.len());
        let mut total = 0;
        let mut touches = vec![false; funcs.len()];
        let mut callees: Vec<Vec<u32>> = vec![Vec::new(); funcs.len()];
        let mut back: Vec<Vec<(u32, u32)>> = vec![Vec::new(); funcs.len()];
        for (fi, f) in funcs.iter().enumerate() {
            start.push(total);
            total += 2 * f.code.len();
            for (pc, op) in f.code.iter().enumerate() {
                for (k, p) in parts(op).iter().enumerate() {
                    match *p {
                        Op::CallDyn(_) => return None,
                        Op::Call(g, _) => {
                            callees[fi].push(g);
                            if let Some(b) = back.get_mut(g as usize) {
                                b.push((fi as u32, (pc + k + 1) as u32));
                            }
                        }
                        Op::ChooseBegin
                        | Op::ChooseAdd(_)
                        | Op::ChooseAddSet(_)
                        | Op::ChooseAddScreened { .. }
                        | Op::ChooseAddRange(_)
                        | Op::ChooseWait(_) => touches[fi] = true,
                        _ => {}
                    }
                }
            }
        }
        // A function calling one that touches them does: until nothing
        // changes.
        loop {
            let mut changed = false;
            for (fi, called) in callees.iter().enumerate() {
                if !touches[fi]
                    && called
                        .iter()
                        .any(|&g| touches.get(g as usize).copied().unwrap_or(true))
                {
                    touches[fi] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Some(Proof {
            funcs,
            choices,
            touches,
            back,
            quiet: vec![None; funcs.len()],
            judging: vec![false; funcs.len()],
            assumed: false,
            landed: vec![None; funcs.len()],
            start,
            reached: vec![0; total],
            search: 0,
        })
    }

    /// Whether every way on from instruction `pc` of function `fi`,
    /// reached with `offered`, reaches the end, a return (`onward`: back
    /// into every caller, else the end of the function's run) or a choice
    /// surely offering an option, and nothing that may refuse on the way.
    fn clean(&mut self, fi: usize, pc: usize, offered: bool, onward: bool) -> bool {
        // The points reached: from a `legal;`, all functions' (numbered
        // searches); within a procedure, its own.
        let mut own = Vec::new();
        if onward {
            self.search += 1;
        } else {
            own = vec![false; 2 * self.funcs[fi].code.len()];
        }
        let mut todo = vec![(fi, pc, offered)];
        while let Some((fi, pc, mut offered)) = todo.pop() {
            let code = &self.funcs[fi].code;
            let Some(op) = code.get(pc) else {
                return false;
            };
            let point = 2 * pc + usize::from(offered);
            let seen = if onward {
                let r = &mut self.reached[self.start[fi] + point];
                std::mem::replace(r, self.search) == self.search
            } else {
                std::mem::replace(&mut own[point], true)
            };
            if seen {
                continue;
            }
            let seq = parts(op);
            let mut goes_on = true;
            for (k, p) in seq.iter().enumerate() {
                if k > 0 {
                    // A slow path may stop here, the rest left to the
                    // instructions that follow.
                    todo.push((fi, pc + k, offered));
                }
                match *p {
                    Op::Require(_) | Op::Fail(_) | Op::CallDyn(_) => return false,
                    Op::Call(g, _) => {
                        if !self.quiet(g as usize) {
                            return false;
                        }
                        // A procedure that collects options of its own
                        // may leave none.
                        offered &= !self.touches[g as usize];
                    }
                    Op::ChooseBegin => offered = false,
                    Op::ChooseAdd(_) => offered = true,
                    Op::ChooseAddRange(_) if seq.len() == 1 && self.constant_range(fi, pc) => {
                        offered = true
                    }
                    Op::ChooseAddScreened { choice, arm }
                        if seq.len() == 1 && self.screened_range(fi, pc, choice, arm) =>
                    {
                        offered = true
                    }
                    Op::ChooseWait(_) => {
                        // The run stops here: refused when no option is sure.
                        if !offered {
                            return false;
                        }
                        goes_on = false;
                        break;
                    }
                    Op::Halt => {
                        goes_on = false;
                        break;
                    }
                    Op::Ret => {
                        if onward {
                            for &(h, to) in &self.back[fi] {
                                todo.push((h as usize, to as usize, offered));
                            }
                        }
                        goes_on = false;
                        break;
                    }
                    Op::Jump(t) => {
                        todo.push((fi, t as usize, offered));
                        goes_on = false;
                        break;
                    }
                    _ => {
                        if let Some(t) = p.jump_target() {
                            todo.push((fi, t as usize, offered));
                        }
                    }
                }
            }
            if goes_on {
                todo.push((fi, pc + seq.len(), offered));
            }
        }
        true
    }

    /// Whether running function `g` from its start surely is not refused
    /// before it returns or waits at a choice (found once).
    fn quiet(&mut self, g: usize) -> bool {
        let Some(&known) = self.quiet.get(g) else {
            return false;
        };
        if let Some(q) = known {
            return q;
        }
        if self.judging[g] {
            // A call back into a function being judged: quiet unless its
            // judgement finds otherwise.
            self.assumed = true;
            return true;
        }
        self.judging[g] = true;
        let outer = std::mem::replace(&mut self.assumed, false);
        let q = self.clean(g, 0, false, false);
        self.judging[g] = false;
        if !q || !self.assumed {
            self.quiet[g] = Some(q);
        }
        self.assumed |= outer;
        q
    }

    /// Whether the `ChooseAddRange` at `at` of function `fi` surely adds
    /// an option: its bounds are constants pushed just before (`Const
    /// hi`, `Const lo`), non-empty, and nothing goes to the second
    /// constant or the range but from the instruction before it.
    fn constant_range(&mut self, fi: usize, at: usize) -> bool {
        let code = &self.funcs[fi].code;
        let Some(first) = at.checked_sub(2) else {
            return false;
        };
        let (Op::Const(hi), Op::Const(lo)) = (&code[first], &code[first + 1]) else {
            return false;
        };
        let landed = self.landed[fi].get_or_insert_with(|| landed(code));
        hi > lo && !landed[first + 1] && !landed[at]
    }
}

impl Proof<'_> {
    /// Whether the `ChooseAddScreened` (of arm `arm` of `choice`) at `at`
    /// of function `fi` surely adds an option: its candidates are the
    /// numbers of a `SetRange` of constant, non-empty bounds (see
    /// [`Proof::constant_range`]), followed up to it by straight code
    /// that nothing else goes to, each passing set filtered from a copy
    /// of the candidates (`Dup`, a value pushed, `MembersEq` or
    /// `MembersCmp`).
    fn screened_range(&mut self, fi: usize, at: usize, choice: u32, arm: u16) -> bool {
        let Some(screens) = self
            .choices
            .get(choice as usize)
            .and_then(|c| c.arms.get(arm as usize))
            .map(|a| a.screen.len())
        else {
            return false;
        };
        let code = &self.funcs[fi].code;
        let Some(s) = code[..at].iter().rposition(|op| matches!(op, Op::SetRange)) else {
            return false;
        };
        // What each place of the stack above the candidates' holds: the
        // candidates (true) or another value.
        let mut stack = vec![true];
        for op in &code[s + 1..at] {
            match parts(op).first() {
                Some(Op::Dup) => stack.push(stack.last() == Some(&true)),
                Some(Op::Const(_) | Op::Load(_) | Op::LoadVar(_)) => stack.push(false),
                Some(Op::MembersEq(_) | Op::MembersCmp(..)) if stack.len() >= 3 => {
                    stack.truncate(stack.len() - 2);
                    stack.push(false);
                }
                _ => return false,
            }
        }
        let straight = {
            let landed = self.landed[fi].get_or_insert_with(|| landed(code));
            !landed[s + 1..=at].iter().any(|l| *l)
        };
        stack.len() == screens + 1 && straight && self.constant_range(fi, s)
    }
}

/// By instruction of `code`: whether a way other than from the
/// instruction before may lead there (a jump, or a fused instruction
/// going on past its next).
fn landed(code: &[Op]) -> Vec<bool> {
    let mut landed = vec![false; code.len() + 1];
    for (i, op) in code.iter().enumerate() {
        if let Some(t) = op.jump_target() {
            if let Some(l) = landed.get_mut(t as usize) {
                *l = true;
            }
        }
        let len = parts(op).len();
        for l in landed.iter_mut().take(i + len + 1).skip(i + 2) {
            *l = true;
        }
    }
    landed
}

/// The parts of an instruction (see [`unfused`]): the instruction alone
/// when it is plain.
#[inline]
fn parts(op: &Op) -> SmallVec<[Op; 8]> {
    unfused(op)
}

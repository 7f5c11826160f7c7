//! Full listings of an arm judged on the whole set of its options (see
//! [`ArmDef::whole`]): the members passing each requirement are found by
//! one pass over the board, and every option is judged by reading them,
//! as its light try would judge it, without running anything. The
//! look-ahead judges one option alone the same way ([`judge_one`]).

use crate::engine::state::{State, Status, Value};
use crate::ir::bits::{self, Bits};
use crate::ir::grid::GroupLabels;
use crate::ir::ruleset::{ArmDef, GroupsReq, Kind, Ruleset, SetAt, WholeArm};

use super::light::passing;
use super::screening::Screen;
use super::{Next, Why};

/// The whole-set form of arm `arm` of the choice `st` waits at, if it
/// has one.
#[inline]
pub(super) fn form<'r>(rules: &'r Ruleset, st: &State, arm: u16) -> Option<&'r WholeArm> {
    let Status::Waiting { choice, .. } = st.status else {
        return None;
    };
    let def: &ArmDef = rules.choices[choice as usize].arms.get(arm as usize)?;
    def.whole.as_deref()
}

/// Judges the options of the pending choice from the `i`-th on that are
/// of arm `arm`, of whole-set form `whole`: those `screen` passes go to
/// `legal` as `(arm, value, next)` or to `refused` as `(index, why)`,
/// the verdicts of their light tries. Returns the index of the first
/// option of another arm (or the count); `None`, nothing done, when a
/// set cannot be read or the grid is too large to tally (the options are
/// then tried).
pub(super) fn judge_arm(
    rules: &Ruleset,
    st: &mut State,
    (whole, arm): (&WholeArm, u16),
    mut i: usize,
    screen: &mut Screen<'_>,
    legal: &mut Vec<(u16, i64, Next)>,
    refused: &mut Vec<(u32, Why)>,
) -> Option<usize> {
    let sets = whole
        .reqs
        .iter()
        .map(|r| passing_members(rules, st, r))
        .collect::<Option<Vec<Bits>>>()?;
    let held = screen.arm_pass(i);
    let options = &st.vm.options;
    while let Some(&(of, value)) = options.get(i).filter(|o| o.0 == arm) {
        if passing(&held, screen, i, value) {
            match whole
                .reqs
                .iter()
                .zip(&sets)
                .find(|(_, s)| !bits::has(s, value))
            {
                Some((r, _)) => refused.push((i as u32, Why::Message(r.msg))),
                None => legal.push((of, value, Next::Rerun(whole.legal))),
            }
        }
        i += 1;
    }
    Some(i)
}

/// The verdict the light try of the option `value` of an arm of
/// whole-set form `whole` would give, found without running it (the
/// look-ahead asks about one option at a time): `Ok` when it passes every
/// requirement, else the message of the first it breaks; `None` when a
/// set cannot be read (the option is then tried).
pub(super) fn judge_one(
    rules: &Ruleset,
    st: &mut State,
    whole: &WholeArm,
    value: i64,
) -> Option<Result<(), u32>> {
    let c = usize::try_from(value).ok()?;
    for r in &whole.reqs {
        let n = ask(rules, st, r, |groups, kind, cells, marked| {
            Some(groups.groups_around(r.kind as usize, kind, c, cells, marked))
        })?;
        if r.cmp.on_ints(n, r.bound).is_none_or(|v| v == 0) {
            return Some(Err(r.msg));
        }
    }
    Some(Ok(()))
}

/// The cells passing requirement `r`, its sets read where the choice
/// `st` waits.
fn passing_members(rules: &Ruleset, st: &mut State, r: &GroupsReq) -> Option<Bits> {
    let (cmp, bound) = (r.cmp, r.bound);
    ask(rules, st, r, |groups, kind, cells, marked| {
        groups.cells_where(r.kind as usize, kind, cells, marked, |n| {
            cmp.on_ints(n, bound).is_some_and(|v| v != 0)
        })
    })
}

/// Asks `question` of the state's group tallies about requirement `r`:
/// its grid kind, its cells and its marked set, read where the choice
/// `st` waits (see [`set_at`]); `None` when a set cannot be read.
#[inline(always)]
fn ask<T>(
    rules: &Ruleset,
    st: &mut State,
    r: &GroupsReq,
    question: impl FnOnce(&mut GroupLabels, &Kind, &[u64], Option<&[u64]>) -> Option<T>,
) -> Option<T> {
    let base = st.vm.frames.last()?.base as usize;
    let on = (&st.vm.stack[..], &st.words[..]);
    let cells = set_at(rules, on, base, r.cells)?;
    let marked = match r.marked {
        Some(m) => Some(set_at(rules, on, base, m)?),
        None => None,
    };
    let kind = rules.kinds.get(r.kind as usize)?;
    question(&mut st.groups, kind, cells, marked)
}

/// The words of the set a [`SetAt`] names, in the frame whose locals
/// start at `base` on `stack`, the state's words being `words` (a local
/// holding no set: `None`), read where they lie.
fn set_at<'s>(
    rules: &Ruleset,
    (stack, words): (&'s [Value], &'s [i64]),
    base: usize,
    at: SetAt,
) -> Option<&'s [u64]> {
    match at {
        SetAt::Local(l) => match stack.get(base + l as usize)? {
            Value::S(b) => Some(b),
            Value::I(_) => None,
        },
        SetAt::Var(v) => {
            let vd = rules.vars.get(v as usize)?;
            let held = words.get(vd.offset..vd.offset + vd.elem_words)?;
            Some(bits::as_words(held))
        }
    }
}

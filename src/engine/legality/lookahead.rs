//! The look-ahead: whether an option that leads to another decision of
//! the same player leaves that player a way on that breaks no
//! requirement (a dead end is refused).

use crate::engine::error::RuntimeError;
use crate::engine::state::{Screening, State, Status};
use crate::engine::vm::{self, Exit};
use crate::ir::ruleset::{ArmDef, Ruleset};

use super::attempt::Attempt;
use super::budget::Budget;
use super::{choice_span, light, screening, Verdict, Why};

/// Where one way on, run to its next stop, leads.
enum Way {
    /// Somewhere sound: another player's decision, the end, a `legal;`,
    /// or a decision of the same player with a sound way on.
    Sound,
    /// It breaks a requirement (or all its ways on do).
    Refused(Why),
    /// To a choice with no option at all.
    NoOption,
}

/// Why every way on from `st` (a state waiting for a decision) breaks a
/// requirement, or `None` if one way on is sound. Looks ahead through the
/// same player's decisions, `depth` levels at most, on the ways and steps
/// left in `budget` (when no way is left, the way not yet disproved is
/// taken as sound). Each way is tried in place and undone: `st` is as it
/// was when this returns.
pub(super) fn dead_end(
    rules: &Ruleset,
    st: &mut State,
    depth: usize,
    budget: &mut Budget,
) -> Result<Option<Why>, RuntimeError> {
    let Status::Waiting { choice, .. } = st.status else {
        return dead_end_screened(rules, st, depth, budget, &Screening::default(), &[]);
    };
    let def = &rules.choices[choice as usize];
    if def.legal_untried && st.cut_at_legal && legal_in_frame(st) {
        // Its first option is legal untried: trying it takes one way and
        // no step, and finds a way on.
        budget.take_way();
        return Ok(None);
    }
    if st.vm.screened.is_empty() {
        return dead_end_screened(rules, st, depth, budget, &Screening::default(), &def.arms);
    }
    // The screening is read while the ways are tried, which set the
    // state's aside and put it back: it is held apart meanwhile.
    let screened = std::mem::take(&mut st.vm.screened);
    let found = dead_end_screened(rules, st, depth, budget, &screened, &def.arms);
    st.vm.screened = screened;
    found
}

/// [`dead_end`] with the choice's screening held apart; `arms` are the
/// arms of the choice `st` waits at.
fn dead_end_screened(
    rules: &Ruleset,
    st: &mut State,
    depth: usize,
    budget: &mut Budget,
    screened: &Screening,
    arms: &[ArmDef],
) -> Result<Option<Why>, RuntimeError> {
    let me = st.status_player();
    let cut = st.cut_at_legal;
    // The reason of the refused option with the highest index, whatever
    // order the search took.
    let mut last: Option<(usize, Why)> = None;
    let mut note = |i: usize, why: Why| {
        if last.is_none_or(|(j, _)| j < i) {
            last = Some((i, why));
        }
    };
    let n = st.vm.options.len();
    let has_quick = arms.iter().any(|a| a.quick);
    // The quick options first (when there are any), then the others.
    let passes: &[bool] = if has_quick { &[true, false] } else { &[false] };
    let mut screen = screening::Screen::new(rules, screened);
    for (pass, i) in passes
        .iter()
        .flat_map(|p| (0..n).rev().map(move |i| (*p, i)))
    {
        if has_quick && is_quick(arms, st, i) != pass {
            continue;
        }
        let (arm, value) = st.vm.options[i];
        let screened_out = if cut { screen.refusal(i, value) } else { None };
        match judge_untried(rules, st, screened_out, arm, value, budget)? {
            Some(Way::Sound) => return Ok(None),
            Some(Way::Refused(why)) => {
                note(i, why);
                continue;
            }
            Some(Way::NoOption) => continue,
            None => {}
        }
        let mut attempt = Attempt::begin(st, cut);
        vm::resume(&mut attempt, arm, value);
        match try_way(rules, &mut attempt, me, depth, budget)? {
            Way::Sound => return Ok(None),
            Way::Refused(why) => note(i, why),
            Way::NoOption => {}
        }
    }
    // Every way on fails: the reason given is the one of the last option,
    // whatever order the search took.
    Ok(Some(last.map_or_else(
        || Why::NoOption(choice_span(rules, st)),
        |(_, why)| why,
    )))
}

/// Runs one way on (an option just resumed in `st`) to its next stop.
/// The state is thrown away once the answer is known (the caller's try
/// is undone at once).
#[inline(always)]
fn try_way(
    rules: &Ruleset,
    st: &mut State,
    me: Option<usize>,
    depth: usize,
    budget: &mut Budget,
) -> Result<Way, RuntimeError> {
    Ok(match budget.run(rules, st)? {
        Exit::Failed(m) => Way::Refused(Why::Message(m)),
        Exit::Decide if st.vm.options.is_empty() => Way::NoOption,
        Exit::Decide if depth > 0 && st.status_player() == me => {
            if st.vm.options.len() == 1 && !legal_untried(rules, st) {
                return go_on_in_place(rules, st, me, depth - 1, budget);
            }
            match dead_end(rules, st, depth - 1, budget)? {
                Some(why) => Way::Refused(why),
                None => Way::Sound,
            }
        }
        Exit::Decide | Exit::Over | Exit::Legal(_) => Way::Sound,
    })
}

/// The answer [`dead_end`] would give at the decision `st` waits at, one
/// of the same player with one option only, on a state thrown away after
/// (see [`try_way`]): that option, the only way on, goes on in place,
/// without an undo of its own.
#[inline(never)]
fn go_on_in_place(
    rules: &Ruleset,
    st: &mut State,
    me: Option<usize>,
    depth: usize,
    budget: &mut Budget,
) -> Result<Way, RuntimeError> {
    let span = choice_span(rules, st);
    if let Some(way) = only_way(rules, st, budget)? {
        return Ok(way);
    }
    Ok(match try_way(rules, st, me, depth, budget)? {
        // Its only way on reaches a choice with no option: refused as
        // that decision's look-ahead refuses it.
        Way::NoOption => Way::Refused(Why::NoOption(span)),
        way => way,
    })
}

/// The only option of the decision `st` waits at, as [`dead_end`] tries
/// it (screened, counted, light), on a state thrown away after: its
/// answer, or `None` when it was resumed in place to be run on.
fn only_way(
    rules: &Ruleset,
    st: &mut State,
    budget: &mut Budget,
) -> Result<Option<Way>, RuntimeError> {
    let (arm, value) = st.vm.options[0];
    let screened_out = if st.cut_at_legal {
        screening::refusal(rules, &st.vm.screened, 0, value)
    } else {
        None
    };
    let way = judge_untried(rules, st, screened_out, arm, value, budget)?;
    if way.is_none() {
        vm::resume(st, arm, value);
    }
    Ok(way)
}

/// The option (`arm`, `value`) of the choice `st` waits at, judged as far
/// as it can be without a run in full: refused by its screening
/// (`screened_out`, found by the caller when `st` stops at `legal;`),
/// taken as sound when no way is left in the budget, or tried by its pure
/// prefix. `None`: it must be run (a way counted against the budget).
#[inline(always)]
fn judge_untried(
    rules: &Ruleset,
    st: &mut State,
    screened_out: Option<u32>,
    arm: u16,
    value: i64,
    budget: &mut Budget,
) -> Result<Option<Way>, RuntimeError> {
    if let Some(m) = screened_out {
        return Ok(Some(Way::Refused(Why::Message(m))));
    }
    // Every way run counts against the budget.
    if !budget.take_way() {
        return Ok(Some(Way::Sound));
    }
    if st.cut_at_legal {
        if let Some(prefix) = light::prefix(rules, st, arm) {
            return Ok(Some(
                match light::try_prefix(rules, st, prefix, value, budget)? {
                    Verdict::Legal(_) => Way::Sound,
                    Verdict::Refused(why) => Way::Refused(why),
                },
            ));
        }
    }
    Ok(None)
}

/// Whether the choice `st` waits at, one whose every option is legal
/// untried (see [`crate::ir::ruleset::ChoiceDef::legal_untried`]), offers
/// an option, in a frame (as a light try needs).
#[inline]
fn legal_in_frame(st: &State) -> bool {
    !st.vm.options.is_empty() && !st.vm.frames.is_empty()
}

/// Whether the choice `st` waits at offers an option and every option it
/// offers is legal untried (see [`legal_in_frame`]).
#[inline]
fn legal_untried(rules: &Ruleset, st: &State) -> bool {
    match st.status {
        Status::Waiting { choice, .. } => {
            rules.choices[choice as usize].legal_untried && legal_in_frame(st)
        }
        _ => false,
    }
}

/// Whether the `i`-th option of the choice `st` waits at (of these
/// `arms`) is quick (a `pass`, a `done`): the look-ahead tries those
/// first, as they usually end a player's sequence at once; then the
/// others, later arms first (often the ones that end a sequence). Only
/// the time the look-ahead takes depends on this order, never its answer.
fn is_quick(arms: &[ArmDef], st: &State, i: usize) -> bool {
    let arm = st.vm.options[i].0 as usize;
    arms.get(arm).is_some_and(|a| a.quick)
}

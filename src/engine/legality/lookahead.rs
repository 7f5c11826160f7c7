//! The look-ahead: whether an option that leads to another decision of
//! the same player leaves that player a way on that breaks no
//! requirement (a dead end is refused).

use crate::engine::error::RuntimeError;
use crate::engine::state::{Screening, State, Status, Unlisted};
use crate::engine::vm::{self, Exit};
use crate::ir::bits::{self, Bits};
use crate::ir::ruleset::{ArmDef, Ruleset};

use super::attempt::Attempt;
use super::budget::Budget;
use super::{choice_span, light, screening, whole, Next, Verdict, Why};

/// The verdict the look-ahead found for one option of the decision it
/// looked through, the one a try of that option from the same state
/// finds (see [`dead_end`]), with the ways and steps it took.
#[derive(Debug, Clone, Copy)]
pub(super) struct Noted {
    /// The option's index.
    pub(super) option: u32,
    /// Its verdict.
    pub(super) verdict: Verdict,
    /// The ways and steps finding it took (see [`Budget::take_spent`]).
    pub(super) spent: (u32, u64),
}

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
/// was when this returns. With `notes`, the verdicts found on the way
/// for options of this decision that a try of them would find alike are
/// pushed there (options of a choice not screened only).
pub(super) fn dead_end(
    rules: &Ruleset,
    st: &mut State,
    depth: usize,
    budget: &mut Budget,
    notes: Option<&mut Vec<Noted>>,
) -> Result<Option<Why>, RuntimeError> {
    let Status::Waiting { choice, .. } = st.status else {
        return dead_end_screened(rules, st, depth, budget, &Screening::default(), &[], None);
    };
    let def = &rules.choices[choice as usize];
    if def.legal_untried && st.cut_at_legal && legal_in_frame(st) {
        // Its first option is legal untried: trying it takes one way and
        // no step, and finds a way on.
        budget.take_way();
        return Ok(None);
    }
    if st.vm.screened.is_empty() {
        let none = &Screening::default();
        return dead_end_screened(rules, st, depth, budget, none, &def.arms, notes);
    }
    // The screening is read while the ways are tried, which set the
    // state's aside and put it back: it is held apart meanwhile.
    let screened = std::mem::take(&mut st.vm.screened);
    let found = dead_end_screened(rules, st, depth, budget, &screened, &def.arms, None);
    st.vm.screened = screened;
    found
}

/// [`dead_end`] with the choice's screening held apart; `arms` are the
/// arms of the choice `st` waits at. The options are asked about one by
/// one, and those kept unlisted (see [`crate::engine::state::Unlisted`])
/// are read from their sets: a search that soon finds a sound way on
/// reads few of them.
fn dead_end_screened(
    rules: &Ruleset,
    st: &mut State,
    depth: usize,
    budget: &mut Budget,
    screened: &Screening,
    arms: &[ArmDef],
    notes: Option<&mut Vec<Noted>>,
) -> Result<Option<Why>, RuntimeError> {
    // The options the ways reach are read here only.
    let keep_unlisted = std::mem::replace(&mut st.keep_unlisted, true);
    let found = search_ways(rules, st, depth, budget, (screened, arms), notes);
    st.keep_unlisted = keep_unlisted;
    found
}

/// [`dead_end_screened`], the options the ways reach being kept unlisted.
#[inline(always)]
fn search_ways(
    rules: &Ruleset,
    st: &mut State,
    depth: usize,
    budget: &mut Budget,
    (screened, arms): (&Screening, &[ArmDef]),
    notes: Option<&mut Vec<Noted>>,
) -> Result<Option<Why>, RuntimeError> {
    let mut search = Search {
        rules,
        me: st.status_player(),
        cut: st.cut_at_legal,
        depth,
        screen: screening::Screen::new(rules, screened),
        last: None,
        notes,
    };
    let has_quick = arms.iter().any(|a| a.quick);
    // The quick options first (when there are any), then the others; each
    // time from the last option to the first.
    let passes: &[bool] = if has_quick { &[true, false] } else { &[false] };
    // (The screening is held apart from the state: its unlisted options
    // are counted from it, not from `st`.)
    let count = screened.options_in(st.vm.options.len());
    for &pass in passes {
        let quick_as = |arm: u16| !has_quick || is_quick(arms, arm) == pass;
        // The index of the option at the entry `e` of the list, or of the
        // first of those unlisted there.
        let mut i = count;
        let mut unlisted = screened.unlisted().rev().peekable();
        for e in (0..st.vm.options.len()).rev() {
            if let Some(u) = unlisted.next_if(|u| u.at == e) {
                i -= u.count;
                if !quick_as(u.arm) {
                    continue;
                }
                if search.sound_unlisted(st, budget, &u, i)? {
                    return Ok(None);
                }
                continue;
            }
            i -= 1;
            let (arm, value) = st.vm.options[e];
            if quick_as(arm) && search.sound(st, budget, i, arm, value)? {
                return Ok(None);
            }
        }
    }
    // Every way on fails: the reason given is the one of the last option,
    // whatever order the search took.
    Ok(Some(search.last.map_or_else(
        || Why::NoOption(choice_span(rules, st)),
        |(_, why)| why,
    )))
}

/// The look-ahead at one decision, as it asks about its options.
struct Search<'a, 'n> {
    rules: &'a Ruleset,
    /// The player deciding.
    me: Option<usize>,
    /// Whether the runs stop at `legal;` (and options are screened).
    cut: bool,
    /// How many more of the player's decisions may be looked through.
    depth: usize,
    /// The options refused by their arm's screened requirements.
    screen: screening::Screen<'a>,
    /// The reason of the refused option with the highest index, whatever
    /// order the search took.
    last: Option<(usize, Why)>,
    /// Where the verdicts found are noted, if asked (see [`dead_end`]).
    notes: Option<&'n mut Vec<Noted>>,
}

impl Search<'_, '_> {
    /// Whether the way on through the `i`-th option (`arm`, `value`) is
    /// sound; a refusal is noted.
    #[inline(always)]
    fn sound(
        &mut self,
        st: &mut State,
        budget: &mut Budget,
        i: usize,
        arm: u16,
        value: i64,
    ) -> Result<bool, RuntimeError> {
        if self.cut && !self.screen.passes(i, value) {
            self.screened_out(i, value);
            return Ok(false);
        }
        self.sound_passing(st, budget, i, arm, value)
    }

    /// Whether a way on through one of the options kept unlisted `u` (the
    /// first of them the `first`-th option) is sound, asked from the last
    /// (see [`Search::sound`]). Those the screening refuses are passed
    /// over: their refusals are the same whichever order notes them, and
    /// only the one with the highest index is kept, so it is noted first.
    #[inline(always)]
    fn sound_unlisted(
        &mut self,
        st: &mut State,
        budget: &mut Budget,
        u: &Unlisted<'_>,
        first: usize,
    ) -> Result<bool, RuntimeError> {
        let top = first + u.count - 1;
        let Some((msgs, sets)) = self.screen.sets_of(first).filter(|_| self.cut) else {
            for (k, value) in bits::members_down(u.members).enumerate() {
                if self.sound_passing(st, budget, top - k, u.arm, value)? {
                    return Ok(true);
                }
            }
            return Ok(false);
        };
        if let Some((k, value)) = ranked_down(u.members, sets, true).next() {
            let i = top - k;
            if self.last.is_none_or(|(j, _)| j < i) {
                if let Some(m) = screening::first_broken(msgs, sets, value) {
                    self.last = Some((i, Why::Message(m)));
                }
            }
        }
        for (k, value) in ranked_down(u.members, sets, false) {
            if self.sound_passing(st, budget, top - k, u.arm, value)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// [`Search::sound`] for an option its screening lets through.
    #[inline(always)]
    fn sound_passing(
        &mut self,
        st: &mut State,
        budget: &mut Budget,
        i: usize,
        arm: u16,
        value: i64,
    ) -> Result<bool, RuntimeError> {
        let way = match judge_untried(self.rules, st, None, arm, value, budget)? {
            Some(way) => way,
            None if self.notes.is_some() => self.try_noting(st, budget, i, arm, value)?,
            None => {
                let mut attempt = Attempt::begin(st, self.cut);
                vm::resume(&mut attempt, arm, value);
                try_way(self.rules, &mut attempt, self.me, self.depth, budget)?
            }
        };
        Ok(match way {
            Way::Sound => true,
            Way::Refused(why) => {
                if self.last.is_none_or(|(j, _)| j < i) {
                    self.last = Some((i, why));
                }
                false
            }
            Way::NoOption => false,
        })
    }

    /// The way on through the `i`-th option (`arm`, `value`), as
    /// [`try_way`] finds it, its verdict noted when a try of the option
    /// would find it alike: a way refused, or ending the game or at a
    /// `legal;`, or reaching a decision of the same player looked through
    /// without meeting the depth limit or the end of the budget (another
    /// player's decision is not looked through here, but a try looks
    /// through it).
    #[inline(never)]
    fn try_noting(
        &mut self,
        st: &mut State,
        budget: &mut Budget,
        i: usize,
        arm: u16,
        value: i64,
    ) -> Result<Way, RuntimeError> {
        let mark = budget.mark();
        let mut attempt = Attempt::begin(st, self.cut);
        vm::resume(&mut attempt, arm, value);
        let st = &mut *attempt;
        let (way, verdict) = match budget.run(self.rules, st)? {
            Exit::Failed(m) => {
                let why = Why::Message(m);
                (Way::Refused(why), Some(Verdict::Refused(why)))
            }
            Exit::Decide
                if !st.vm.options.is_empty()
                    && self.depth > 0
                    && st.status_player() == self.me
                    && (st.vm.option_count() != 1 || legal_untried(self.rules, st)) =>
            {
                match dead_end(self.rules, st, self.depth - 1, budget, None)? {
                    Some(why) => (Way::Refused(why), Some(Verdict::Refused(why))),
                    None => (Way::Sound, Some(Verdict::Legal(Next::Run))),
                }
            }
            Exit::Decide => (way_at(self.rules, st, self.me, self.depth, budget)?, None),
            Exit::Over => (Way::Sound, Some(Verdict::Legal(Next::Run))),
            Exit::Legal(m) => (Way::Sound, Some(Verdict::Legal(Next::Rerun(m)))),
        };
        if let (Some(verdict), Some(spent)) = (verdict, budget.spent_since(mark)) {
            if let Some(notes) = self.notes.as_deref_mut() {
                let option = i as u32;
                notes.push(Noted {
                    option,
                    verdict,
                    spent,
                });
            }
        }
        Ok(way)
    }

    /// Notes that the screening refuses the `i`-th option (of value
    /// `value`): its reason is looked up only when it is the refusal with
    /// the highest index so far (the options of an arm are asked about
    /// from the last, so mostly once an arm).
    #[inline(always)]
    fn screened_out(&mut self, i: usize, value: i64) {
        if self.last.is_none_or(|(j, _)| j < i) {
            if let Some(m) = self.screen.refusal(i, value) {
                self.last = Some((i, Why::Message(m)));
            }
        }
    }
}

/// The members of `members` that are in every one of `sets` (at least
/// one; or, with `refused`, missing from one), from the last down, each
/// with how many members of `members` stand above it.
fn ranked_down<'a>(
    members: &'a [u64],
    sets: &'a [Bits],
    refused: bool,
) -> impl Iterator<Item = (usize, i64)> + 'a {
    let mut above = 0;
    members.iter().enumerate().rev().flat_map(move |(wi, &w)| {
        let p = sets
            .iter()
            .fold(u64::MAX, |acc, s| acc & s.get(wi).copied().unwrap_or(0));
        let mut rest = w & if refused { !p } else { p };
        let before = above;
        above += w.count_ones() as usize;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let b = 63 - rest.leading_zeros() as usize;
                rest &= !(1 << b);
                // The members of the word above `b`.
                let higher = (w >> b >> 1).count_ones() as usize;
                (before + higher, (wi * 64 + b) as i64)
            })
        })
    })
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
        Exit::Decide => return way_at(rules, st, me, depth, budget),
        Exit::Over | Exit::Legal(_) => Way::Sound,
    })
}

/// [`try_way`] once its run stopped at a decision.
#[inline(always)]
fn way_at(
    rules: &Ruleset,
    st: &mut State,
    me: Option<usize>,
    depth: usize,
    budget: &mut Budget,
) -> Result<Way, RuntimeError> {
    if st.vm.options.is_empty() {
        return Ok(Way::NoOption);
    }
    if st.status_player() != me {
        return Ok(Way::Sound);
    }
    if depth == 0 {
        budget.cut_at_depth();
        return Ok(Way::Sound);
    }
    if st.vm.option_count() == 1 && !legal_untried(rules, st) {
        return go_on_in_place(rules, st, me, depth - 1, budget);
    }
    Ok(match dead_end(rules, st, depth - 1, budget, None)? {
        Some(why) => Way::Refused(why),
        None => Way::Sound,
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
    let (arm, value) = st.vm.first_option_at(0);
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
            let whole = whole::form(rules, st, arm);
            if let Some(found) = whole.and_then(|w| whole::judge_one(rules, st, w, value)) {
                return Ok(Some(match found {
                    Ok(()) => Way::Sound,
                    Err(m) => Way::Refused(Why::Message(m)),
                }));
            }
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

/// Whether the options of `arm` (of these `arms`) are quick (a `pass`,
/// a `done`): the look-ahead tries those first, as they usually end a
/// player's sequence at once; then the others, later arms first (often
/// the ones that end a sequence). Only the time the look-ahead takes
/// depends on this order, never its answer.
fn is_quick(arms: &[ArmDef], arm: u16) -> bool {
    arms.get(arm as usize).is_some_and(|a| a.quick)
}

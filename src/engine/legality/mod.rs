//! Legality: which options of the pending choice are legal, why the
//! others are refused, and what applying a legal one takes.
//!
//! Every option the rules offer is tried in place (`attempt.rs`): run up
//! to the next choice point, then undone. It is refused when its run
//! breaks a requirement, or when it leads to a decision of the same
//! player from which every way on breaks one (`lookahead.rs`). Shortcuts
//! spare most of the running: the requirements an arm starts with are
//! checked on the whole set of its options as they are collected
//! (`screening.rs`); an arm decided by a pure prefix runs only that prefix
//! (`light.rs`); a run stops at a `legal;` the rules write. With
//! `--check-legal`, every option is also run in full and the answers are
//! compared (`check.rs`).

mod attempt;
mod budget;
mod check;
mod first;
mod light;
mod lookahead;
mod looks;
mod names;
mod screening;
mod whole;

use std::sync::Arc;

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{Screening, State, Status};
use crate::engine::vm::{self, Exit};
use crate::ir::ruleset::Ruleset;
use crate::ir::span::Span;

use attempt::{Attempt, Tried};
use budget::Budget;
pub use budget::{LISTING_STEPS, LOOKAHEAD_WAYS};
pub(crate) use first::apply_first_legal;
pub(crate) use looks::Looks;
use names::arm_option_name;
pub(crate) use names::{option_name, Taken};

/// How many of the same player's decisions are looked through to find
/// whether an option can be completed without breaking a requirement.
const LOOKAHEAD: usize = 8;

/// One legal decision at the current choice point.
#[derive(Debug, Clone)]
pub struct Decision {
    /// Its name, as written in logs and scenarios (`quarry`, `3`, `done`),
    /// shared with the ruleset's names (copying it allocates nothing).
    pub name: Arc<str>,
    /// The arm of the `choose`.
    pub arm: u16,
    /// The chosen value for per-element arms.
    pub value: i64,
}

/// An option the rules offer but that breaks a requirement.
#[derive(Debug, Clone)]
pub struct Refused {
    /// The option's name.
    pub name: String,
    /// The requirement's message.
    pub reason: String,
    /// Where the requirement is written.
    pub span: Span,
}

/// What trying one option found.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Verdict {
    /// It is legal; applying it takes this.
    Legal(Next),
    /// It is refused, for this reason.
    Refused(Why),
}

/// Why an option is refused, kept cheap until somebody asks.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Why {
    /// The message of the `require` or `fail` it broke.
    Message(u32),
    /// It leads to a choice, written here, with no option at all.
    NoOption(Span),
}

impl Why {
    /// The reason as shown, and where it is written.
    fn text(self, rules: &Ruleset) -> (String, Span) {
        match self {
            Why::Message(m) => rules.messages[m as usize].clone(),
            Why::NoOption(span) => ("it leads to a choice with no option".into(), span),
        }
    }
}

/// What applying a legal decision takes when its try was not kept (see
/// [`Pending::apply`]): it is run again from the pending choice (one run
/// costs less than keeping a copy of the state for every legal option, of
/// which one is chosen).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Next {
    /// Its run went to the next decision or the end: run again, the same
    /// run (same state, same random draws) cannot fail.
    Run,
    /// Its run stopped at a `legal;` (this message's span): run in full.
    Rerun(u32),
}

/// The options of the pending choice, judged. An empty one (`default`)
/// lends its buffers to the next listing ([`judge`]).
#[derive(Default)]
pub(crate) struct Pending {
    /// The legal ones as `(arm, value, next)`, with what applying them
    /// takes: named only when asked (names are shared strings, whose
    /// copies and drops cost atomic counts).
    legal: Vec<(u16, i64, Next)>,
    /// The ones refused by their runs, as `(index, why)` (the index in
    /// the pending choice's options), in order: named only when asked.
    refused: Vec<(u32, Why)>,
    /// Whether the options were screened (a listing with shortcuts): the
    /// ones refused by their arm's screened requirements are then not in
    /// `refused` but found again, from the pending choice's screening,
    /// when asked (see [`Pending::all_refused`]; random games never ask).
    screened: bool,
    /// What the tries of legal options that ran to the next decision or
    /// the end left, by their index in `legal`, in order: applying one
    /// puts its try back instead of running it again.
    kept: Vec<(usize, Tried)>,
}

impl Clone for Pending {
    /// A copy without the tries kept (its options are applied by running
    /// them again, as costly as copying a try).
    fn clone(&self) -> Pending {
        Pending {
            legal: self.legal.clone(),
            refused: self.refused.clone(),
            screened: self.screened,
            kept: Vec::new(),
        }
    }
}

/// Judges every option of the choice `st` waits at, into the buffers of
/// `into` (an emptied listing: see [`Pending::clear`]). With
/// `check_legal`, every option is also run in full, and the answers must
/// agree. `looks` holds the verdicts known for options of this choice
/// (taken, then forgotten) and gets those of the look-aheads of the
/// tries kept (see [`Looks`]).
pub(crate) fn judge(
    rules: &Ruleset,
    st: &mut State,
    check_legal: bool,
    into: Pending,
    looks: &mut Looks,
) -> Result<Pending, RuntimeError> {
    looks.forget_tries();
    check::names(rules, st).inspect_err(|_| looks.forget_known())?;
    let full = if check_legal {
        let none = &mut Looks::default();
        let full = try_options(rules, st, false, Pending::default(), none);
        Some(full.inspect_err(|_| looks.forget_known())?)
    } else {
        None
    };
    let judged = try_options(rules, st, true, into, looks);
    looks.forget_known();
    let (pending, cut_whole) = judged?;
    // Where the look-ahead ran out of ways, its answers are not the full
    // ones: the two listings cannot be compared.
    if let Some((full, full_whole)) = full {
        if cut_whole && full_whole {
            check::compare_full(rules, st, &pending, &full)?;
        }
    }
    Ok(pending)
}

/// Tries every option in place (each undone after). With `cut`, the
/// shortcuts are taken: screened refusals, light tries, runs stopped at
/// `legal;`. All the runs share one [`Budget`]; also returns whether the
/// look-ahead tried every way it would (no way was left untried for want
/// of budget).
#[inline(always)]
fn try_options(
    rules: &Ruleset,
    st: &mut State,
    cut: bool,
    into: Pending,
    looks: &mut Looks,
) -> Result<(Pending, bool), RuntimeError> {
    // The options the tries reach are read by the look-ahead only (a try
    // kept lists them when put back: see `Pending::apply`).
    let keep_unlisted = std::mem::replace(&mut st.keep_unlisted, true);
    let tried = if st.vm.screened.is_empty() {
        try_each(rules, st, cut, (&Screening::default(), looks), into)
    } else {
        // The screening is read while the options are tried, which set the
        // state's aside and put it back: it is held apart meanwhile.
        let screened = std::mem::take(&mut st.vm.screened);
        let tried = try_each(rules, st, cut, (&screened, looks), into);
        st.vm.screened = screened;
        tried
    };
    st.keep_unlisted = keep_unlisted;
    tried
}

/// [`try_options`] with the pending choice's screening held apart.
fn try_each(
    rules: &Ruleset,
    st: &mut State,
    cut: bool,
    (screened, looks): (&Screening, &mut Looks),
    into: Pending,
) -> Result<(Pending, bool), RuntimeError> {
    let mut budget = Budget::new(choice_span(rules, st));
    let n = st.vm.options.len();
    let Pending {
        mut legal,
        mut refused,
        mut kept,
        ..
    } = into;
    legal.reserve(n);
    // With `cut`, an option its arm's screened requirements refuse is
    // passed over: not tried, and not listed (see `Pending::screened`).
    let mut screen = screening::Screen::new(rules, screened);
    // A try leaves the pending options as they were.
    let mut i = 0;
    while i < n {
        let (arm, value) = st.vm.options[i];
        if cut && !screen.passes(i, value) {
            i += 1;
            continue;
        }
        if let Some(prefix) = light::prefix(rules, st, arm).filter(|_| cut) {
            let at = (prefix, arm);
            if let Some(next) = light::all_legal(rules, st, at, i, &mut screen, &mut legal) {
                i = next;
                continue;
            }
            // An arm judged on the whole board at once runs no try.
            let judged = whole::form(rules, st, arm).and_then(|w| {
                whole::judge_arm(
                    rules,
                    st,
                    (w, arm),
                    i,
                    &mut screen,
                    &mut legal,
                    &mut refused,
                )
            });
            if let Some(next) = judged {
                i = next;
                continue;
            }
            // The options of this arm that follow, tried one after another
            // with the state set once for their prefixes.
            let mut run = light::PrefixRun::enter(st);
            i = run.try_arm(
                rules,
                prefix,
                arm,
                i,
                &mut screen,
                &mut legal,
                &mut refused,
                &mut budget,
            )?;
            continue;
        }
        let into = (&mut legal, &mut refused, &mut kept, &mut *looks);
        try_full(rules, st, cut, (i, arm, value), &mut budget, into)?;
        i += 1;
    }
    let pending = Pending {
        legal,
        refused,
        screened: cut,
        kept,
    };
    Ok((pending, !budget.ways_ran_out()))
}

/// Judges the `i`-th option (`arm`, `value`) by a full try
/// ([`try_option`]), or by the verdict known for it (see [`Looks`]), into
/// the listing's `legal`, `refused`, `kept` and `looks` (out of the
/// loop of [`try_each`], whose light tries are the most run).
#[inline(never)]
fn try_full(
    rules: &Ruleset,
    st: &mut State,
    cut: bool,
    (i, arm, value): (usize, u16, i64),
    budget: &mut Budget,
    (legal, refused, kept, looks): Listed<'_>,
) -> Result<(), RuntimeError> {
    let l = looks;
    let (verdict, tried) = match l.known(i, budget) {
        Some(verdict) => (verdict, None),
        None => try_option(rules, st, cut, (arm, value), budget, &mut l.notes)?,
    };
    match verdict {
        Verdict::Legal(next) => {
            if let Some(t) = tried {
                kept.push((legal.len(), t));
                l.keep(legal.len());
            }
            legal.push((arm, value, next));
        }
        Verdict::Refused(why) => refused.push((i as u32, why)),
    }
    l.notes.clear();
    Ok(())
}

/// Where [`try_full`] files an option: the listing's legal options,
/// refused ones, tries kept and look-aheads' verdicts.
type Listed<'a> = (
    &'a mut Vec<(u16, i64, Next)>,
    &'a mut Vec<(u32, Why)>,
    &'a mut Vec<(usize, Tried)>,
    &'a mut Looks,
);

/// Tries one option in place by a full run (and the look-ahead from
/// where it stops) and undoes it, on what is left of `budget`. When the
/// option is legal and its run went to the next decision or the end
/// (the run applying it would make), also returns what the try left
/// (only with `cut`: the listing applied from), and pushes to `notes`
/// what the look-ahead found for the options of the decision reached.
fn try_option(
    rules: &Ruleset,
    st: &mut State,
    cut: bool,
    (arm, value): (u16, i64),
    budget: &mut Budget,
    notes: &mut Vec<lookahead::Noted>,
) -> Result<(Verdict, Option<Tried>), RuntimeError> {
    let mut attempt = Attempt::begin(st, cut);
    vm::resume(&mut attempt, arm, value);
    let verdict = match budget.run(rules, &mut attempt)? {
        Exit::Failed(m) => Verdict::Refused(Why::Message(m)),
        Exit::Decide => {
            match lookahead::dead_end(rules, &mut attempt, LOOKAHEAD, budget, Some(notes))? {
                Some(why) => Verdict::Refused(why),
                None => Verdict::Legal(Next::Run),
            }
        }
        Exit::Legal(m) => Verdict::Legal(Next::Rerun(m)),
        Exit::Over => Verdict::Legal(Next::Run),
    };
    // The look-ahead's ways are undone: the state is where the option's
    // run stopped.
    let keep = cut && matches!(verdict, Verdict::Legal(Next::Run));
    let tried = keep.then(|| attempt.undo_keeping());
    Ok((verdict, tried))
}

impl Pending {
    /// The legal decisions, named, of the choice `st` waits at (the state
    /// they were judged on).
    pub(crate) fn decisions<'a>(
        &'a self,
        rules: &'a Ruleset,
        st: &'a State,
    ) -> impl ExactSizeIterator<Item = Decision> + 'a {
        // The choice's arms looked up once for all its options.
        let arms = match st.status {
            Status::Waiting { choice, .. } => &rules.choices[choice as usize].arms[..],
            _ => &[],
        };
        self.legal.iter().map(move |&(arm, value, _)| Decision {
            name: arm_option_name(rules, arms, st.nplayers, arm, value),
            arm,
            value,
        })
    }

    /// How many decisions are legal.
    pub(crate) fn count(&self) -> usize {
        self.legal.len()
    }

    /// The `index`-th legal decision, unnamed (see [`Taken`]), and what
    /// applying it takes.
    pub(crate) fn take(&self, st: &State, index: usize) -> Option<(Taken, Next)> {
        let (arm, value, next) = *self.legal.get(index)?;
        Some((Taken::at(&st.status, arm, value), next))
    }

    /// Applies the `index`-th legal decision `d` (as [`Pending::take`]
    /// gives it) to `st`, the state judged: by putting its try back when
    /// it was kept, else as [`apply`] does. The tries kept are all taken
    /// (the others' buffers go back to `st`'s spares); the verdicts its
    /// look-ahead found, in `looks`, are known for the next listing.
    pub(crate) fn apply(
        &mut self,
        rules: &Ruleset,
        (st, looks): (&mut State, &mut Looks),
        index: usize,
        d: &Taken,
        next: Next,
    ) -> Result<(), RuntimeError> {
        let chosen = self.take_kept(st, index);
        match chosen {
            Some(t) => {
                t.redo(st);
                st.vm.list_unlisted();
                looks.put_back(index);
                Ok(())
            }
            None => {
                looks.forget_known();
                looks.forget_tries();
                apply(rules, st, d, next)
            }
        }
    }

    /// The try kept of the `index`-th legal decision, if it was kept and
    /// can be put back on `st`; the other tries kept give their buffers
    /// to `st`'s spares.
    #[inline]
    fn take_kept(&mut self, st: &mut State, index: usize) -> Option<Tried> {
        if self.kept.is_empty() {
            return None;
        }
        let mut chosen = None;
        for (i, t) in self.kept.drain(..) {
            if i == index && !st.recording {
                chosen = Some(t);
            } else {
                t.recycle(st);
            }
        }
        chosen
    }

    /// Forgets the tries kept (the state they were tried on may change).
    pub(crate) fn forget_tries(&mut self) {
        self.kept.clear();
    }

    /// Empties the listing, keeping its buffers for the next one (and the
    /// verdicts known for it: see [`Pending::known`]).
    pub(crate) fn clear(&mut self) {
        self.legal.clear();
        self.refused.clear();
        self.kept.clear();
    }

    /// Every option refused, in the order offered, as `(arm, value,
    /// why)`: those refused by their runs and, when the options were
    /// screened, those their arm's screened requirements refuse (`st` is
    /// the state judged, whose pending choice holds the screening).
    pub(super) fn all_refused<'a>(
        &'a self,
        rules: &'a Ruleset,
        st: &'a State,
    ) -> impl Iterator<Item = (u16, i64, Why)> + 'a {
        let mut screen = screening::Screen::new(rules, &st.vm.screened);
        let mut by_run = self.refused.iter().peekable();
        st.vm
            .options
            .iter()
            .enumerate()
            .filter_map(move |(i, &(arm, value))| {
                if self.screened {
                    if let Some(m) = screen.refusal(i, value) {
                        return Some((arm, value, Why::Message(m)));
                    }
                }
                let (_, why) = by_run.next_if(|(j, _)| *j as usize == i)?;
                Some((arm, value, *why))
            })
    }

    /// The options refused, named, with their reasons.
    pub(crate) fn refused(&self, rules: &Ruleset, st: &State) -> Vec<Refused> {
        self.all_refused(rules, st)
            .map(|(arm, value, why)| {
                let (reason, span) = why.text(rules);
                Refused {
                    name: option_name(rules, st, arm, value).to_string(),
                    reason,
                    span,
                }
            })
            .collect()
    }

    /// Why the option named `name` is refused, if it is.
    pub(crate) fn refusal(&self, rules: &Ruleset, st: &State, name: &str) -> Option<String> {
        self.all_refused(rules, st)
            .find(|(arm, value, _)| &*option_name(rules, st, *arm, *value) == name)
            .map(|(_, _, why)| why.text(rules).0)
    }

    /// The error when no option is legal (`None` when one is).
    pub(crate) fn no_legal_option(&self, rules: &Ruleset, st: &State) -> Option<RuntimeError> {
        if !self.legal.is_empty() {
            return None;
        }
        let why: Vec<String> = self
            .all_refused(rules, st)
            .map(|(arm, value, why)| {
                let name = option_name(rules, st, arm, value);
                format!("{name}: {}", why.text(rules).0)
            })
            .collect();
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join("; "))
        };
        Some(RuntimeError::new(
            ErrorKind::DeadEnd,
            choice_span(rules, st),
            format!("dead end: no legal option at this choice{why}"),
        ))
    }
}

/// Applies a legal decision, as its check found it takes.
pub(crate) fn apply(
    rules: &Ruleset,
    st: &mut State,
    d: &Taken,
    next: Next,
) -> Result<(), RuntimeError> {
    match next {
        Next::Run => run_again(rules, st, d),
        Next::Rerun(m) if rules.legal_is_sure(m) => run_sure(rules, st, d, m),
        Next::Rerun(m) => rerun(rules, st, d, m),
    }
}

/// Applies a decision whose check stopped at the `legal;` of message `m`
/// when the run on from there can never be refused
/// ([`Ruleset::legal_is_sure`]): runs it in full, as [`rerun`] does, but
/// with no undo prepared (a rules error leaves the state where the run
/// stopped, as in [`run_again`]). The refusals the loader proved out of
/// reach are still reported if met.
fn run_sure(rules: &Ruleset, st: &mut State, d: &Taken, m: u32) -> Result<(), RuntimeError> {
    vm::resume(st, d.arm, d.value);
    let exit = vm::run(rules, st)?;
    match refusal(rules, &exit, st) {
        Some(broken) => Err(broken_legal(rules, st.nplayers, d, m, broken)),
        None => Ok(()),
    }
}

/// Applies a decision whose check ran to the next decision: the same
/// run again, kept as it goes (no undo is prepared).
fn run_again(rules: &Ruleset, st: &mut State, d: &Taken) -> Result<(), RuntimeError> {
    vm::resume(st, d.arm, d.value);
    match vm::run(rules, st)? {
        Exit::Failed(m) => {
            let (msg, span) = rules.messages[m as usize].clone();
            Err(RuntimeError::new(
                ErrorKind::NotReplayable,
                span,
                format!(
                    "the option `{}` was legal when checked but its run again is refused \
                     ({msg}): the rules do not replay the same way",
                    d.name(rules, st.nplayers)
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// Applies a decision whose check stopped at the `legal;` of message
/// `m`: runs it in full. The rules promised it is legal; if it is not,
/// the state stays as it was and the broken promise is reported.
fn rerun(rules: &Ruleset, st: &mut State, d: &Taken, m: u32) -> Result<(), RuntimeError> {
    let mut attempt = Attempt::begin(st, false);
    vm::resume(&mut attempt, d.arm, d.value);
    let exit = vm::run(rules, &mut attempt)?;
    match refusal(rules, &exit, &attempt) {
        Some(broken) => Err(broken_legal(rules, attempt.nplayers, d, m, broken)),
        None => {
            attempt.keep();
            Ok(())
        }
    }
}

/// Why a run of an option declared legal, ended by `exit` on `st`,
/// refuses it after all: a failure, or a choice with no option.
fn refusal(rules: &Ruleset, exit: &Exit, st: &State) -> Option<String> {
    match exit {
        Exit::Failed(f) => Some(rules.messages[*f as usize].0.clone()),
        Exit::Decide if st.vm.options.is_empty() => {
            Some("it leads to a choice with no option".into())
        }
        _ => None,
    }
}

/// The error of an option `legal;` (of message `m`) declared legal whose
/// run is refused (`broken`: why).
#[cold]
fn broken_legal(
    rules: &Ruleset,
    players: usize,
    d: &Taken,
    m: u32,
    broken: String,
) -> RuntimeError {
    RuntimeError::new(
        ErrorKind::BrokenLegal,
        rules.messages[m as usize].1,
        format!(
            "`legal;` declared the option `{}` legal, but it is refused: {broken}",
            d.name(rules, players)
        ),
    )
}

/// Where the choice `st` waits at is written.
pub(crate) fn choice_span(rules: &Ruleset, st: &State) -> Span {
    match st.status {
        Status::Waiting { choice, .. } => rules.choices[choice as usize].span,
        _ => Span::default(),
    }
}

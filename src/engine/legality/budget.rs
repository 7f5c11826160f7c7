//! The work allowed for listing the options of one decision: how many ways
//! on the look-ahead may try, and how many instructions all the runs of
//! the listing may take together.

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::State;
use crate::engine::vm::{self, Exit};
use crate::ir::ruleset::Ruleset;
use crate::ir::span::Span;

/// How many ways on the look-ahead may try while the options of one
/// decision are listed (all its options together). A chain of one
/// player's decisions with many options each has as many ways as the
/// product of their counts; when the budget is spent, every option not
/// yet disproved is taken as legal, as beyond the depth limit. The ways
/// are tried in a fixed order, so where the budget runs out, and the
/// options listed, are the same at every run.
pub const LOOKAHEAD_WAYS: u32 = 100_000;

/// How many instructions the runs of one listing may execute together
/// (every option tried, and the look-ahead's ways): ten runs of the
/// per-run limit, [`vm::STEP_LIMIT`]. Going past it is an error in the
/// rules (a choice offering too many options, or options too costly to
/// try), reported at the choice.
pub const LISTING_STEPS: u64 = 10 * vm::STEP_LIMIT;

/// What is left of the work allowed for listing one decision's options.
pub(super) struct Budget {
    /// Ways on the look-ahead may still try.
    ways: u32,
    /// Whether a way was refused for want of budget.
    ways_ran_out: bool,
    /// Instructions the runs may still execute.
    steps: u64,
    /// How many times the look-ahead stopped at its depth limit (at a
    /// decision of the same player, taken as sound untried).
    depth_cuts: u32,
    /// Where the choice being listed is written.
    choice: Span,
}

impl Budget {
    /// The whole budget for listing the options of the choice at `choice`.
    pub(super) fn new(choice: Span) -> Budget {
        Budget {
            ways: LOOKAHEAD_WAYS,
            ways_ran_out: false,
            steps: LISTING_STEPS,
            depth_cuts: 0,
            choice,
        }
    }

    /// Notes that the look-ahead stopped at its depth limit.
    #[inline]
    pub(super) fn cut_at_depth(&mut self) {
        self.depth_cuts += 1;
    }

    /// Where the budget stands: the ways and steps left, and how many
    /// depth limits were met (see [`Budget::spent_since`]).
    #[inline]
    pub(super) fn mark(&self) -> (u32, u64, u32) {
        (self.ways, self.steps, self.depth_cuts)
    }

    /// The ways and steps taken since `mark`, when no way was refused for
    /// want of budget and no depth limit was met meanwhile (what was
    /// found is then what the same search finds on any budget holding as
    /// much, at any greater depth).
    #[inline]
    pub(super) fn spent_since(&self, (ways, steps, cuts): (u32, u64, u32)) -> Option<(u32, u64)> {
        if self.ways_ran_out || self.depth_cuts != cuts {
            return None;
        }
        Some((ways - self.ways, steps - self.steps))
    }

    /// Takes `ways` ways and `steps` steps at once, when as many are left
    /// (`false`, nothing taken, otherwise).
    #[inline]
    pub(super) fn take_spent(&mut self, (ways, steps): (u32, u64)) -> bool {
        if self.ways < ways || self.steps < steps {
            return false;
        }
        self.ways -= ways;
        self.steps -= steps;
        true
    }

    /// Takes one way on for the look-ahead; `false` when none is left.
    #[inline]
    pub(super) fn take_way(&mut self) -> bool {
        match self.ways.checked_sub(1) {
            Some(left) => {
                self.ways = left;
                true
            }
            None => {
                self.ways_ran_out = true;
                false
            }
        }
    }

    /// Whether the look-ahead left a way untried for want of budget (its
    /// answer is then not the full one).
    pub(super) fn ways_ran_out(&self) -> bool {
        self.ways_ran_out
    }

    /// Runs `st` (see [`vm::run`]) and takes its instructions from the
    /// steps left: an error once none is left (the last run may go past
    /// the budget by at most [`vm::STEP_LIMIT`], its own limit).
    #[inline]
    pub(super) fn run(&mut self, rules: &Ruleset, st: &mut State) -> Result<Exit, RuntimeError> {
        let exit = vm::run(rules, st)?;
        match self.steps.checked_sub(st.steps_run) {
            Some(left) => {
                self.steps = left;
                Ok(exit)
            }
            None => Err(self.spent()),
        }
    }

    /// The error of a listing whose runs went past [`LISTING_STEPS`].
    #[cold]
    fn spent(&self) -> RuntimeError {
        RuntimeError::new(
            ErrorKind::LimitReached,
            self.choice,
            format!(
                "listing the options of this choice ran more than {LISTING_STEPS} steps of the \
                 rules (each option is run up to the next decision, and through the same \
                 player's decisions that follow): too many options, or options too long to run"
            ),
        )
    }
}

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
            choice,
        }
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

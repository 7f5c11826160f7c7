//! One legal option without judging them all, for the rollouts of search
//! bots: the options of the pending choice are tried in a random order
//! (a Fisher–Yates shuffle drawn one option at a time) and the first legal
//! one is applied. Each option is judged as the listing judges it (same
//! screening, same stop at `legal;`, same look-ahead); as the order is
//! uniform, the option applied is uniform among the legal ones, like a
//! uniform pick from the full listing, at the cost of the options tried
//! before it. An option is tried by the run that applies it: kept when
//! legal, undone when not.

use rand_core::RngCore;
use smallvec::SmallVec;

use crate::engine::error::RuntimeError;
use crate::engine::sample::uniform_below;
use crate::engine::state::State;
use crate::engine::vm::{self, Exit};
use crate::ir::ruleset::Ruleset;

use super::attempt::Attempt;
use super::budget::Budget;
use super::{check, choice_span, lookahead, screening, Taken, LOOKAHEAD};

/// Applies the first legal option of the choice `st` waits at, in an order
/// drawn from `rng`; returns it (unnamed: see [`Taken`]), or `None` (and `st` as it was) when
/// no option is legal.
pub(crate) fn apply_first_legal(
    rules: &Ruleset,
    st: &mut State,
    rng: &mut impl RngCore,
) -> Result<Option<Taken>, RuntimeError> {
    check::names(rules, st)?;
    let mut budget = Budget::new(choice_span(rules, st));
    // The choice the options are offered at, which names them.
    let waiting = st.status.clone();
    let mut order: SmallVec<[usize; 64]> = (0..st.vm.options.len()).collect();
    for k in 0..order.len() {
        let j = k + uniform_below(rng, order.len() - k);
        order.swap(k, j);
        let i = order[k];
        let (arm, value) = st.vm.options[i];
        if screening::refusal(rules, &st.vm.screened, i, value).is_some() {
            continue;
        }
        // An option of a light arm is tried by this run too: its pure
        // prefix stops at `legal;` (or breaks a requirement) as a light try
        // would, and the run goes on from there, so that a legal option is
        // run once, not tried by its prefix and then run again.
        let mut attempt = Attempt::begin(st, true);
        vm::resume(&mut attempt, arm, value);
        match budget.run(rules, &mut attempt)? {
            Exit::Failed(_) => continue,
            Exit::Decide => {
                if lookahead::dead_end(rules, &mut attempt, LOOKAHEAD, &mut budget, None)?.is_some()
                {
                    continue;
                }
            }
            // Legal: the rest of the option is run on from its `legal;`
            // (the same run as applying it from the start). A promise the
            // rest breaks refuses the option here.
            Exit::Legal(_) => {
                attempt.cut_at_legal = false;
                match budget.run(rules, &mut attempt)? {
                    Exit::Failed(_) => continue,
                    Exit::Decide if attempt.vm.options.is_empty() => continue,
                    _ => {}
                }
            }
            Exit::Over => {}
        }
        // The try ran to the next decision or the end (the look-ahead's
        // ways are undone): it is the option applied, named as offered.
        attempt.keep();
        return Ok(Some(Taken::at(&waiting, arm, value)));
    }
    Ok(None)
}

//! The names of options: what logs, scenarios and listings call them.
//!
//! A decision applied is kept as a [`Taken`] (the choice that offered it
//! and its option) and named only when its name is asked for: a name is
//! shared with the ruleset's by a count, and counting it on every decision
//! of a simulated game, for a log seldom read, cost more than the rest of
//! applying the decision.

use std::sync::Arc;

use crate::engine::state::{State, Status};
use crate::ir::ruleset::{ArmDef, Ruleset};

/// A decision applied: the option `(arm, value)` of the choice `choice`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Taken {
    /// The choice that offered it (`u32::MAX`: none, named ``).
    choice: u32,
    /// The arm of the `choose`.
    pub(crate) arm: u16,
    /// The chosen value for per-element arms.
    pub(crate) value: i64,
}

impl Taken {
    /// The option `(arm, value)` of the choice a state of this `status`
    /// waits at.
    pub(crate) fn at(status: &Status, arm: u16, value: i64) -> Taken {
        let choice = match *status {
            Status::Waiting { choice, .. } => choice,
            _ => u32::MAX,
        };
        Taken { choice, arm, value }
    }

    /// Its name, with `players` seated.
    pub(crate) fn name(&self, rules: &Ruleset, players: usize) -> Arc<str> {
        match rules.choices.get(self.choice as usize) {
            Some(c) => arm_option_name(rules, &c.arms, players, self.arm, self.value),
            None => Arc::from(""),
        }
    }
}

/// The name of an option of the choice `st` waits at.
pub(crate) fn option_name(rules: &Ruleset, st: &State, arm: u16, value: i64) -> Arc<str> {
    Taken::at(&st.status, arm, value).name(rules, st.nplayers)
}

/// The name of the option `(arm, value)` of a choice with these `arms`,
/// with `players` seated.
#[inline]
pub(super) fn arm_option_name(
    rules: &Ruleset,
    arms: &[ArmDef],
    players: usize,
    arm: u16,
    value: i64,
) -> Arc<str> {
    let Some(def) = arms.get(arm as usize) else {
        return Arc::from("");
    };
    match &def.name {
        Some(n) => n.clone(),
        None => rules.label(&def.ty, value, players),
    }
}

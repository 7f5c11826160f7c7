//! Position evaluation shared by the bots.
//!
//! A position that is not over is valued per seat by the ruleset's pure
//! function `fn evaluate(p: player) -> int`, when it declares one in its
//! rules files, else by its score keys. [`Evaluator`] holds that choice,
//! checked once when a bot is built.

use crate::engine::error::RuntimeError;
use crate::engine::state::{State, Value};
use crate::engine::vm;
use crate::ir::bytecode::FuncId;
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};

/// The name of the evaluation function a ruleset may declare for bots.
pub const EVALUATE: &str = "evaluate";

/// The ruleset declares `evaluate` with another signature than
/// `fn evaluate(p: player) -> int`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{EVALUATE}` in {ruleset} must be declared as `fn {EVALUATE}(p: player) -> int` for the greedy agent")]
pub struct EvaluateSignatureError {
    /// The ruleset's id.
    pub ruleset: String,
}

/// The ruleset's `evaluate` function, checked to be
/// `fn evaluate(p: player) -> int`, if it declares one.
pub fn evaluation(rules: &Ruleset) -> Result<Option<FuncId>, EvaluateSignatureError> {
    let Some((_, f)) = rules.proc_names.iter().find(|(n, _)| n == EVALUATE) else {
        return Ok(None);
    };
    let ok = match rules.sigs.get(*f as usize) {
        Some(sig) => {
            !sig.is_proc
                && sig.ret == Ty::Int
                && sig.params.len() == 1
                && sig.params[0].1 == Ty::Ent(PLAYER)
        }
        None => rules
            .funcs
            .get(*f as usize)
            .is_some_and(|func| !func.is_proc && func.arity == 1 && func.returns),
    };
    if ok {
        Ok(Some(*f))
    } else {
        Err(EvaluateSignatureError {
            ruleset: rules.id.clone(),
        })
    }
}

/// How a bot values a position that is not over: by the ruleset's
/// `evaluate`, else by its score keys.
#[derive(Debug, Clone, Copy)]
pub struct Evaluator {
    eval: Option<FuncId>,
}

impl Evaluator {
    /// The evaluator for `rules`; fails when `evaluate` has the wrong
    /// signature.
    pub fn new(rules: &Ruleset) -> Result<Evaluator, EvaluateSignatureError> {
        Ok(Evaluator {
            eval: evaluation(rules)?,
        })
    }

    /// Whether it uses the ruleset's `evaluate` function (else the score).
    pub fn uses_evaluate(&self) -> bool {
        self.eval.is_some()
    }

    /// The functions whose values rank a seat's position, most significant
    /// first: `evaluate` alone, else every score key.
    pub fn keys(&self, rules: &Ruleset) -> Vec<FuncId> {
        match self.eval {
            Some(f) => vec![f],
            None => rules.score.clone(),
        }
    }

    /// The most significant key: `evaluate`, else the first score key.
    pub fn first_key(&self, rules: &Ruleset) -> Option<FuncId> {
        self.eval.or_else(|| rules.score.first().copied())
    }
}

/// The value of key function `f` for `seat` in `state`.
pub fn key_value(
    rules: &Ruleset,
    state: &mut State,
    f: FuncId,
    seat: usize,
) -> Result<i64, RuntimeError> {
    vm::eval(rules, state, f, vec![Value::I(seat as i64)]).map(|v| v.int())
}

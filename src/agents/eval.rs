//! Position evaluation shared by the bots.
//!
//! A position that is not over is valued per seat by the ruleset's pure
//! function `fn evaluate(p: player) -> int`, when it declares one in its
//! rules files, else by its score keys; an agent given `eval=NAME` values
//! it by the ruleset's function `NAME` instead (to compare two valuations
//! of the same rules, seat against seat). [`Evaluator`] holds that choice,
//! checked once when a bot is built.

use crate::engine::error::RuntimeError;
use crate::engine::state::{State, Value};
use crate::engine::vm;
use crate::ir::bytecode::FuncId;
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};

/// The name of the evaluation function a ruleset may declare for bots.
pub const EVALUATE: &str = "evaluate";

/// The evaluation function a bot was given cannot be used: the ruleset
/// declares `evaluate` (or the function named by an agent's `eval=NAME`)
/// with another signature than `fn NAME(p: player) -> int`, or declares no
/// function of the name asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct EvaluateSignatureError {
    /// The ruleset's id.
    pub ruleset: String,
    /// The function's name (`evaluate` unless an agent named another).
    pub function: String,
    /// The ruleset declares no function of that name.
    pub missing: bool,
}

impl EvaluateSignatureError {
    fn message(&self) -> String {
        let f = &self.function;
        if self.missing {
            format!(
                "{} declares no function `{f}` to value positions with: declare `fn {f}(p:                  player) -> int` in its rules files, or name another function (eval=NAME)",
                self.ruleset
            )
        } else {
            format!(
                "`{f}` in {} must be declared as `fn {f}(p: player) -> int` for the greedy agent",
                self.ruleset
            )
        }
    }
}

/// The ruleset's `evaluate` function, checked to be
/// `fn evaluate(p: player) -> int`, if it declares one.
pub fn evaluation(rules: &Ruleset) -> Result<Option<FuncId>, EvaluateSignatureError> {
    function_named(rules, EVALUATE)
}

/// The ruleset's function `name`, checked to be `fn name(p: player) ->
/// int`, if it declares one.
fn function_named(rules: &Ruleset, name: &str) -> Result<Option<FuncId>, EvaluateSignatureError> {
    let Some((_, f)) = rules.proc_names.iter().find(|(n, _)| n == name) else {
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
            function: name.to_string(),
            missing: false,
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

    /// The evaluator for `rules` valuing positions with the function
    /// `name` when given (an agent's `eval=NAME`: it must exist, as `fn
    /// name(p: player) -> int`), else as [`Evaluator::new`].
    pub fn named(rules: &Ruleset, name: Option<&str>) -> Result<Evaluator, EvaluateSignatureError> {
        let Some(name) = name else {
            return Evaluator::new(rules);
        };
        match function_named(rules, name)? {
            Some(f) => Ok(Evaluator { eval: Some(f) }),
            None => Err(EvaluateSignatureError {
                ruleset: rules.id.clone(),
                function: name.to_string(),
                missing: true,
            }),
        }
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
    vm::eval(rules, state, f, [Value::I(seat as i64)]).map(|v| v.int())
}

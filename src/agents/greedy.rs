//! The greedy bot: looks one decision ahead.
//!
//! For each legal decision it plays the decision on a determinization of
//! the game (a copy in which what its seat cannot see — other players'
//! private items, hidden ones, future chance — is sampled anew, see
//! [`super::mcts::determinize`]) and values the resulting position for its
//! own seat:
//!
//! 1. a finished game is valued by its outcome: a win outright is best, a
//!    shared win next (fewer sharers first), a loss worst;
//! 2. otherwise, if the ruleset declares a pure function
//!    `fn evaluate(p: player) -> int` in its rules files, by
//!    `evaluate(me) - max(evaluate(other))`, then `evaluate(me)`;
//! 3. otherwise by the score keys the same way (the first key's margin over
//!    the best other seat, then each of its own keys).
//!
//! Ties are broken by the bot's own seeded generator, so a run stays
//! reproducible. Private *integers* of other seats (points behind a screen)
//! are read as they are: rulesets keep in integers only what the public
//! history of the game reveals.

use rand_core::SeedableRng;
use rand_pcg::Pcg64;

use super::{uniform_below, Agent};
use crate::engine::state::Value;
use crate::engine::{vm, Decision, Game};
use crate::ir::bytecode::FuncId;
use crate::ir::ruleset::{Ty, PLAYER};
use crate::model::Ruleset;

/// The name of the evaluation function a ruleset may declare for bots.
pub const EVALUATE: &str = "evaluate";

/// A one-decision-lookahead bot.
#[derive(Debug, Clone)]
pub struct GreedyAgent {
    rng: Pcg64,
    eval: Option<FuncId>,
}

impl GreedyAgent {
    /// A greedy bot for `rules`; `seed` breaks ties. Fails when the ruleset
    /// declares `evaluate` with another signature than
    /// `fn evaluate(p: player) -> int`.
    pub fn new(rules: &Ruleset, seed: u64) -> Result<GreedyAgent, String> {
        Ok(GreedyAgent {
            rng: Pcg64::seed_from_u64(seed),
            eval: evaluation(rules)?,
        })
    }

    /// Whether it uses the ruleset's `evaluate` function (else the score).
    pub fn uses_evaluate(&self) -> bool {
        self.eval.is_some()
    }

    /// The value of the position `g` for seat `me`, compared
    /// lexicographically (higher is better).
    fn value(&self, g: &mut Game, me: usize) -> Vec<i64> {
        if g.is_over() {
            return match g.outcome() {
                Ok(Some(o)) if o.winners.contains(&me) => {
                    vec![2, -(o.winners.len() as i64)]
                }
                Ok(_) => vec![0],
                Err(_) => vec![i64::MIN],
            };
        }
        let rules = g.rules().clone();
        let mut state = g.state().clone();
        let n = g.players();
        let funcs: Vec<FuncId> = match self.eval {
            Some(f) => vec![f],
            None => rules.score.clone(),
        };
        let mut keys = vec![vec![0i64; funcs.len()]; n];
        for (p, k) in keys.iter_mut().enumerate() {
            for (slot, f) in k.iter_mut().zip(&funcs) {
                match vm::eval(&rules, &mut state, *f, vec![Value::I(p as i64)]) {
                    Ok(v) => *slot = v.int(),
                    // A rules error while valuing: the worst in-game value.
                    Err(_) => return vec![1, i64::MIN],
                }
            }
        }
        let first = |k: &Vec<i64>| k.first().copied().unwrap_or(0);
        let best_other = (0..n)
            .filter(|p| *p != me)
            .map(|p| first(&keys[p]))
            .max()
            .unwrap_or(0);
        let mut v = vec![1, first(&keys[me]).saturating_sub(best_other)];
        v.extend_from_slice(&keys[me]);
        v
    }
}

/// The ruleset's `evaluate` function, checked to be
/// `fn evaluate(p: player) -> int`, if it declares one.
pub fn evaluation(rules: &Ruleset) -> Result<Option<FuncId>, String> {
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
        Err(format!(
            "`{EVALUATE}` in {} must be declared as `fn {EVALUATE}(p: player) -> int` for the greedy agent",
            rules.id
        ))
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, game: &mut Game, legal: &[Decision]) -> usize {
        if legal.len() <= 1 {
            return 0;
        }
        let me = game.to_move().unwrap_or(0);
        // Each decision is tried on a determinization: what the seat cannot
        // see (other hands, the bag, future chance) is sampled, not read.
        let mut seen = super::mcts::determinize(game, me, &mut self.rng);
        let Ok(options) = seen.legal() else {
            return uniform_below(&mut self.rng, legal.len());
        };
        let mut best: Vec<usize> = Vec::new();
        let mut best_value: Option<Vec<i64>> = None;
        for (i, d) in legal.iter().enumerate() {
            let Some(j) = options.iter().position(|o| o.name == d.name) else {
                continue;
            };
            let mut next = seen.clone();
            if next.apply(j).is_err() {
                continue;
            }
            let v = self.value(&mut next, me);
            match &best_value {
                Some(b) if v < *b => {}
                Some(b) if v == *b => best.push(i),
                _ => {
                    best_value = Some(v);
                    best.clear();
                    best.push(i);
                }
            }
        }
        if best.is_empty() {
            return uniform_below(&mut self.rng, legal.len());
        }
        best[uniform_below(&mut self.rng, best.len())]
    }
}

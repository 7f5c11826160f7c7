//! The greedy bot: looks one decision ahead.
//!
//! For each legal decision it plays the decision on a determinization of
//! the game (a copy in which what its seat cannot see — other players'
//! private items, hidden ones, future chance — is sampled anew, see
//! [`crate::engine::sample::determinize`]) and values the resulting position for its
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
//! With a depth above 1 (`greedy:depth=N`), a decision after which the same
//! seat decides again is valued once that seat has gone on greedily (each
//! next decision the best one step ahead) for up to `N - 1` more decisions
//! or until another seat is to decide: a turn made of several decisions is
//! judged whole rather than by its first step.
//!
//! With `greedy:eval=NAME`, the ruleset's function `NAME` (declared as
//! `fn NAME(p: player) -> int`) takes the place of `evaluate`.
//!
//! Ties are broken by the bot's own seeded generator, so a run stays
//! reproducible. Private *integers* of other seats (points behind a screen)
//! are read as they are: rulesets keep in integers only what the public
//! history of the game reveals.

use rand_core::SeedableRng;
use rand_pcg::Pcg64;

use super::eval::{key_value, EvaluateSignatureError, Evaluator};
use super::Agent;
use crate::engine::sample::{determinize, uniform_below};
use crate::engine::{Decision, Game};
use crate::ir::ruleset::Ruleset;

/// A one-decision-lookahead bot.
#[derive(Debug, Clone)]
pub struct GreedyAgent {
    rng: Pcg64,
    eval: Evaluator,
    depth: u32,
    /// The function named by `eval=NAME`, if any (for the bot's name).
    eval_name: Option<String>,
}

impl GreedyAgent {
    /// A greedy bot for `rules`; `seed` breaks ties. Fails when the ruleset
    /// declares `evaluate` with another signature than
    /// `fn evaluate(p: player) -> int`.
    pub fn new(rules: &Ruleset, seed: u64) -> Result<GreedyAgent, EvaluateSignatureError> {
        GreedyAgent::with_depth(rules, seed, 1)
    }

    /// A greedy bot that looks through up to `depth` decisions of its own
    /// seat in a row (1: the next decision alone, as [`GreedyAgent::new`]).
    pub fn with_depth(
        rules: &Ruleset,
        seed: u64,
        depth: u32,
    ) -> Result<GreedyAgent, EvaluateSignatureError> {
        GreedyAgent::with_eval(rules, seed, depth, None)
    }

    /// A greedy bot of `depth` valuing positions with the ruleset's
    /// function `eval` (`fn eval(p: player) -> int`, which must exist)
    /// when given, else with `evaluate` or the score.
    pub fn with_eval(
        rules: &Ruleset,
        seed: u64,
        depth: u32,
        eval: Option<&str>,
    ) -> Result<GreedyAgent, EvaluateSignatureError> {
        Ok(GreedyAgent {
            rng: Pcg64::seed_from_u64(seed),
            eval: Evaluator::named(rules, eval)?,
            depth: depth.max(1),
            eval_name: eval.map(str::to_string),
        })
    }

    /// The index of the best of the legal options of `g` for seat `me` one
    /// decision ahead (ties broken at random), if any can be applied.
    fn best_step(&mut self, g: &Game, options: usize, me: usize) -> Option<usize> {
        let mut best: Vec<usize> = Vec::new();
        let mut best_value: Option<Vec<i64>> = None;
        for j in 0..options {
            let mut next = g.fork();
            if next.apply(j).is_err() {
                continue;
            }
            let v = self.value(&mut next, me);
            match &best_value {
                Some(b) if v < *b => {}
                Some(b) if v == *b => best.push(j),
                _ => {
                    best_value = Some(v);
                    best.clear();
                    best.push(j);
                }
            }
        }
        (!best.is_empty()).then(|| best[uniform_below(&mut self.rng, best.len())])
    }

    /// Goes on greedily for seat `me` on `g` while it decides, for at most
    /// `steps` decisions.
    fn go_on(&mut self, g: &mut Game, me: usize, steps: u32) {
        for _ in 0..steps {
            if g.is_over() || g.to_move() != Some(me) {
                return;
            }
            let Ok(options) = g.legal() else { return };
            let pick = match options.len() {
                0 => return,
                1 => Some(0),
                n => self.best_step(g, n, me),
            };
            if pick.is_none_or(|j| g.apply(j).is_err()) {
                return;
            }
        }
    }

    /// Whether it uses the ruleset's `evaluate` function (else the score).
    pub fn uses_evaluate(&self) -> bool {
        self.eval.uses_evaluate()
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
        let funcs = self.eval.keys(&rules);
        let mut keys = vec![vec![0i64; funcs.len()]; n];
        for (p, k) in keys.iter_mut().enumerate() {
            for (slot, f) in k.iter_mut().zip(&funcs) {
                match key_value(&rules, &mut state, *f, p) {
                    Ok(v) => *slot = v,
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

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        let mut name = match self.depth {
            1 => "greedy".to_string(),
            d => format!("greedy:depth={d}"),
        };
        if let Some(f) = &self.eval_name {
            name.push_str(&format!(":eval={f}"));
        }
        name
    }

    fn choose(&mut self, game: &mut Game, legal: &[Decision]) -> usize {
        if legal.len() <= 1 {
            return 0;
        }
        let me = game.to_move().unwrap_or(0);
        // Each decision is tried on a determinization: what the seat cannot
        // see (other hands, the bag, future chance) is sampled, not read.
        let mut seen = determinize(game, me, &mut self.rng).unrecorded();
        let Ok(options) = seen.legal() else {
            return uniform_below(&mut self.rng, legal.len());
        };
        let mut best: Vec<usize> = Vec::new();
        let mut best_value: Option<Vec<i64>> = None;
        for (i, d) in legal.iter().enumerate() {
            let Some(j) = options.iter().position(|o| o.name == d.name) else {
                continue;
            };
            let mut next = seen.fork();
            if next.apply(j).is_err() {
                continue;
            }
            if self.depth > 1 {
                self.go_on(&mut next, me, self.depth - 1);
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

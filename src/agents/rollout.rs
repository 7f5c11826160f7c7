//! The rollouts of the tree search and how their last position is valued.
//!
//! A rollout plays on from the position where the search left the tree,
//! for a bounded number of decisions (the cut-off), with one of two
//! policies:
//!
//! - random: each decision uniform among the legal ones, drawn without
//!   listing them all ([`Game::apply_random`]: options are tried in a
//!   random order and the first legal one is played);
//! - greedy: each decision the one that maximises the mover's margin
//!   `evaluate(me) - max(evaluate(other))` one decision ahead (ties at
//!   random), as the greedy bot does, on the sampled position.
//!
//! The last position is then valued per seat: a finished game by its
//! outcome (a shared win shares the reward); otherwise by the ruleset's
//! `evaluate(p)` (or first score key) as a [`Reward`]: by default the
//! seat's margin over the best other seat through a logistic
//! ([`Reward::Margin`]), else 1 shared among the leaders
//! ([`Reward::Leaders`]) or win chances ([`Reward::Chances`]).

use std::fmt;

use rand_pcg::Pcg64;

use super::eval::{key_value, Evaluator};
use crate::engine::sample::uniform_below;
use crate::engine::Game;
use crate::ir::bytecode::FuncId;

/// How a rollout chooses its decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rollout {
    /// Uniformly at random among the legal decisions.
    #[default]
    Random,
    /// The decision with the best margin on `evaluate` one step ahead.
    Greedy,
}

impl Rollout {
    /// The names `rollout=` accepts.
    pub const NAMES: &'static str = "`random` or `greedy`";

    /// The policy named `s`, if any.
    pub fn named(s: &str) -> Option<Rollout> {
        match s {
            "random" => Some(Rollout::Random),
            "greedy" => Some(Rollout::Greedy),
            _ => None,
        }
    }
}

impl fmt::Display for Rollout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rollout::Random => "random",
            Rollout::Greedy => "greedy",
        })
    }
}

/// How a rollout's last position, if the game is not over, is turned into
/// rewards per seat (`reward=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reward {
    /// Each seat's margin on the value over the best other seat, through a
    /// logistic: `1 / (1 + exp(-margin / t))`, with the temperature `t`
    /// the spread of the values (best less worst, plus one). A seat far
    /// ahead still earns more for a larger lead, so the search keeps a
    /// signal between its options when it dominates the table. The default:
    /// its measured figures against [`Reward::Leaders`] are in
    /// docs/AGENTS.md.
    #[default]
    Margin,
    /// 1 shared among the seats with the best value (the default until the
    /// margin was measured stronger: a seat that leads in every rollout
    /// sees no difference between its options).
    Leaders,
    /// Win chances from the values: `exp(v / t)` normalised over the
    /// seats, with the temperature `t` a tenth of the mean absolute value
    /// (plus one), so a lead of a tenth of the typical value is worth odds
    /// of e to 1, whatever the scale of the ruleset's `evaluate`.
    Chances,
}

impl Reward {
    /// The names `reward=` accepts.
    pub const NAMES: &'static str = "`margin`, `leaders` or `chances`";

    /// The valuation named `s`, if any.
    pub fn named(s: &str) -> Option<Reward> {
        match s {
            "margin" => Some(Reward::Margin),
            "leaders" => Some(Reward::Leaders),
            "chances" => Some(Reward::Chances),
            _ => None,
        }
    }
}

impl fmt::Display for Reward {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reward::Margin => "margin",
            Reward::Leaders => "leaders",
            Reward::Chances => "chances",
        })
    }
}

/// Plays at most `steps` decisions on `g` with `policy`.
pub(super) fn play(
    g: &mut Game,
    rng: &mut Pcg64,
    policy: Rollout,
    steps: u32,
    key: Option<FuncId>,
) {
    for _ in 0..steps {
        if g.is_over() {
            break;
        }
        let played = match (policy, key) {
            (Rollout::Greedy, Some(key)) => greedy_step(g, rng, key),
            _ => g.apply_random(rng).unwrap_or(false),
        };
        if !played {
            break;
        }
    }
}

/// Plays the decision with the best margin for the mover; false when none
/// could be played.
fn greedy_step(g: &mut Game, rng: &mut Pcg64, key: FuncId) -> bool {
    let Ok(options) = g.legal() else {
        return false;
    };
    let Some(me) = g.to_move() else { return false };
    let mut best: Vec<usize> = Vec::new();
    let mut best_value = i64::MIN;
    if options.len() > 1 {
        for j in 0..options.len() {
            let mut next = g.fork();
            if next.apply(j).is_err() {
                continue;
            }
            let v = margin(&mut next, me, key);
            if v > best_value {
                best_value = v;
                best.clear();
            }
            if v == best_value {
                best.push(j);
            }
        }
    }
    let pick = match best.len() {
        0 => uniform_below(rng, options.len()),
        n => best[uniform_below(rng, n)],
    };
    g.apply(pick).is_ok()
}

/// The margin of seat `me` in `g` on `key`: its value less the best other
/// seat's; a finished game is worth most when `me` wins, least otherwise.
fn margin(g: &mut Game, me: usize, key: FuncId) -> i64 {
    if g.is_over() {
        return match g.outcome() {
            Ok(Some(o)) if o.winners.contains(&me) => i64::MAX / 2 - o.winners.len() as i64,
            _ => i64::MIN / 2,
        };
    }
    let values = seat_values(g, key);
    let best_other = (0..values.len())
        .filter(|p| *p != me)
        .map(|p| values[p])
        .max()
        .unwrap_or(0);
    values[me].saturating_sub(best_other)
}

/// The value of `key` for every seat (0 where the rules fail). `key` is a
/// pure function: it is evaluated in place, writing nothing.
fn seat_values(g: &mut Game, key: FuncId) -> Vec<i64> {
    let rules = g.rules().clone();
    let n = g.players();
    let state = g.state_mut();
    (0..n)
        .map(|p| key_value(&rules, state, key, p).unwrap_or(0))
        .collect()
}

/// Rewards per seat for the position a rollout ended at: by the outcome
/// when the game is over, else by `valuation` of `eval`'s first key.
pub(super) fn rewards(g: &mut Game, eval: &Evaluator, valuation: Reward) -> Vec<f64> {
    let n = g.players();
    let mut r = vec![0.0; n];
    if g.is_over() {
        if let Ok(Some(o)) = g.outcome() {
            for w in &o.winners {
                r[*w] = 1.0 / o.winners.len() as f64;
            }
        }
        return r;
    }
    let Some(key) = eval.first_key(g.rules()) else {
        return vec![1.0 / n as f64; n];
    };
    let values = seat_values(g, key);
    match valuation {
        Reward::Margin => {
            let hi = values.iter().copied().max().unwrap_or(0);
            let lo = values.iter().copied().min().unwrap_or(0);
            let t = 1.0 + hi.saturating_sub(lo) as f64;
            for (p, x) in r.iter_mut().enumerate() {
                let other = (0..n)
                    .filter(|q| *q != p)
                    .map(|q| values[q])
                    .max()
                    .unwrap_or(values[p]);
                let m = values[p].saturating_sub(other) as f64 / t;
                *x = 1.0 / (1.0 + (-m).exp());
            }
        }
        Reward::Leaders => {
            let best = values.iter().copied().max().unwrap_or(0);
            let leaders = values.iter().filter(|v| **v == best).count();
            for (p, v) in values.iter().enumerate() {
                if *v == best {
                    r[p] = 1.0 / leaders as f64;
                }
            }
        }
        Reward::Chances => {
            let mean = values.iter().map(|v| (*v as f64).abs()).sum::<f64>() / n as f64;
            let t = 1.0 + mean / 10.0;
            let best = values.iter().copied().max().unwrap_or(0) as f64;
            for (p, v) in values.iter().enumerate() {
                r[p] = ((*v as f64 - best) / t).exp();
            }
            let total: f64 = r.iter().sum();
            for x in &mut r {
                *x /= total;
            }
        }
    }
    r
}

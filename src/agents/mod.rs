//! Agents: bots that choose among the legal decisions.
//!
//! Every driver (simulations, the `play` command, scenarios, custom
//! programs) asks an [`Agent`] for the index of one of the legal decisions
//! the engine lists at the current choice point.
//!
//! Bots are named on the command line by an [`AgentSpec`] (`random`,
//! `greedy`, `mcts:iterations=2000`, ...), one per seat; a spec builds a
//! fresh agent for each game from the game's seed.
//!
//! Hidden information is sampled by the engine
//! ([`crate::engine::sample::determinize`]); how a position is valued is
//! shared by the bots in `eval`.

pub(crate) mod eval;
mod greedy;
mod mcts;
mod rollout;
mod spec;

pub use greedy::GreedyAgent;
pub use mcts::{MctsAgent, MctsConfig, ROLLOUT_STEPS};
pub use rollout::{Reward, Rollout};
pub use spec::{parse_agents, AgentListError, AgentSpec, AgentSpecError};

use rand_core::SeedableRng;
use rand_pcg::Pcg64;

use crate::engine::sample::uniform_below;
use crate::engine::{Decision, Game};

/// A player that picks one of the legal decisions.
pub trait Agent {
    /// A short name for reports (`random`, `greedy`, ...).
    fn name(&self) -> String;

    /// Picks one of `legal` (the decisions the game currently offers, never
    /// empty) and returns its index. The game may be inspected (its view,
    /// its state) but must be left at the same choice point.
    fn choose(&mut self, game: &mut Game, legal: &[Decision]) -> usize;

    /// Picks one of `count` legal decisions (never zero) by its index
    /// alone, for a bot that reads neither the decisions nor the game:
    /// the same pick as [`Agent::choose`] on a list of `count`, and a
    /// driver need not name the decisions. `None` (the default): the bot
    /// needs them, ask [`Agent::choose`].
    fn choose_blind(&mut self, count: usize) -> Option<usize> {
        let _ = count;
        None
    }

    /// What its searches cost so far (zero for a bot that does not search).
    fn search_stats(&self) -> SearchStats {
        SearchStats::default()
    }
}

/// The work a searching bot has done since it was built: read by
/// `tabula bench` to report iterations per second.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SearchStats {
    /// Search iterations run (one sample, descent, rollout and update each).
    pub iterations: u64,
    /// Seconds spent choosing.
    pub seconds: f64,
}

/// An agent that picks uniformly at random, from its own seeded generator,
/// so a run is reproducible from its seed.
#[derive(Debug, Clone)]
pub struct RandomAgent {
    rng: Pcg64,
}

impl RandomAgent {
    /// A random agent whose choices are determined by `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Pcg64::seed_from_u64(seed),
        }
    }

    /// A uniform index in `0..n` (0 when `n` is 0), without modulo bias.
    pub fn below(&mut self, n: usize) -> usize {
        uniform_below(&mut self.rng, n)
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, _game: &mut Game, legal: &[Decision]) -> usize {
        self.below(legal.len())
    }

    fn choose_blind(&mut self, count: usize) -> Option<usize> {
        Some(self.below(count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_choices() {
        let mut a = RandomAgent::new(3);
        let mut b = RandomAgent::new(3);
        let xs: Vec<usize> = (0..20).map(|_| a.below(10)).collect();
        let ys: Vec<usize> = (0..20).map(|_| b.below(10)).collect();
        assert_eq!(xs, ys);
    }
}

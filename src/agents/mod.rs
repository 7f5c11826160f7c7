//! Agents: bots that choose among the legal decisions.
//!
//! Every driver (simulations, the `play` command, scenarios, custom
//! programs) asks an [`Agent`] for the index of one of the legal decisions
//! the engine lists at the current choice point.
//!
//! Bots are named on the command line by an [`AgentSpec`] (`random`,
//! `greedy`, `mcts:iterations=2000`, ...), one per seat; a spec builds a
//! fresh agent for each game from the game's seed.

mod greedy;
mod mcts;
mod spec;

pub use greedy::GreedyAgent;
pub use mcts::{determinize, MctsAgent};
pub use spec::{parse_agents, AgentSpec};

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;

use crate::engine::{Decision, Game};

/// A player that picks one of the legal decisions.
pub trait Agent {
    /// A short name for reports (`random`, `greedy`, ...).
    fn name(&self) -> String;

    /// Picks one of `legal` (the decisions the game currently offers, never
    /// empty) and returns its index. The game may be inspected (its view,
    /// its state) but must be left at the same choice point.
    fn choose(&mut self, game: &mut Game, legal: &[Decision]) -> usize;
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
}

/// A uniform integer in `0..n` drawn from `rng` by rejection sampling
/// (0 when `n` is 0).
pub fn uniform_below(rng: &mut impl RngCore, n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    let n = n as u64;
    // Reject the top partial block of the u64 range so every residue is equally likely.
    let zone = u64::MAX - (u64::MAX % n + 1) % n;
    loop {
        let x = rng.next_u64();
        if x <= zone {
            return (x % n) as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_below_covers_every_index() {
        let mut rng = Pcg64::seed_from_u64(7);
        let mut seen = [0usize; 5];
        for _ in 0..5000 {
            seen[uniform_below(&mut rng, 5)] += 1;
        }
        assert!(seen.iter().all(|c| *c > 800), "{seen:?}");
        assert_eq!(uniform_below(&mut rng, 1), 0);
        assert_eq!(uniform_below(&mut rng, 0), 0);
    }

    #[test]
    fn same_seed_same_choices() {
        let mut a = RandomAgent::new(3);
        let mut b = RandomAgent::new(3);
        let xs: Vec<usize> = (0..20).map(|_| a.below(10)).collect();
        let ys: Vec<usize> = (0..20).map(|_| b.below(10)).collect();
        assert_eq!(xs, ys);
    }
}

//! Information-set Monte Carlo tree search (single observer).
//!
//! Each iteration samples a *determinization* (see
//! [`crate::engine::sample::determinize`]): the parts of the state the
//! bot's seat may not see (variables declared `hidden`, and other players'
//! `private` ones) are reshuffled — every item of a kind found in an unseen
//! set or list is pooled and dealt back, each place keeping its size — so
//! the search never uses what its seat cannot know. The tree is keyed by
//! decision names; a child's availability counts how often it was legal
//! (the ISMCTS form of UCB). Rollouts (see `rollout.rs`) play random or
//! greedy decisions for a bounded number of steps, then value the position
//! by the outcome if the game is over, else by the ruleset's `evaluate(p)`
//! (or the score): by default each seat earns its margin over the best
//! other seat through a logistic (see [`Reward`]), so that a bot far ahead
//! of the table still tells a good option from a poor one; with
//! `reward=leaders`, the seats leading share a reward of 1.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;

use super::eval::{EvaluateSignatureError, Evaluator};
use super::rollout::{self, Reward, Rollout};
use super::{Agent, SearchStats};
use crate::engine::sample::{determinize, uniform_below};
use crate::engine::{Decision, Game};
use crate::ir::ruleset::Ruleset;

/// Decisions a rollout plays, unless a cut-off is given, before the
/// position is valued.
pub const ROLLOUT_STEPS: u32 = 60;
/// The exploration constant of UCB.
const EXPLORE: f64 = 0.7;

#[derive(Default)]
struct Node {
    /// Children by decision name.
    children: Vec<Child>,
}

struct Child {
    /// The decision leading to it.
    name: Arc<str>,
    /// Its node index in the tree.
    node: usize,
    /// Iterations that went through it.
    visits: f64,
    /// Reward summed over those, for the seat that took the decision.
    reward: f64,
    /// Iterations in which it was legal at its parent.
    avail: f64,
}

/// One step of an iteration's path: (node, child index, seat to move).
type PathStep = (usize, usize, usize);

/// The search tree of one decision; node 0 is the root.
struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            nodes: vec![Node::default()],
        }
    }

    /// Selection and expansion: walks down from the root on `g`, applying
    /// decisions, until it adds a new child (or the game cannot go on).
    /// Returns the path taken.
    fn descend(&mut self, g: &mut Game, rng: &mut Pcg64) -> Vec<PathStep> {
        let mut path = Vec::new();
        let mut node = 0;
        loop {
            if g.is_over() {
                break;
            }
            let Some(mover) = g.to_move() else { break };
            let Ok(options) = g.legal() else { break };
            let names: Vec<&str> = options.iter().map(|d| &*d.name).collect();
            for c in self.nodes[node].children.iter_mut() {
                if names.contains(&&*c.name) {
                    c.avail += 1.0;
                }
            }
            let Some((pick, expanded)) = self.pick(node, &options, &names, rng) else {
                break;
            };
            let name = options[pick].name.clone();
            if g.apply(pick).is_err() {
                break;
            }
            let ci = if expanded {
                self.expand(node, name)
            } else {
                self.nodes[node]
                    .children
                    .iter()
                    .position(|c| c.name == name)
                    .unwrap_or(0)
            };
            path.push((node, ci, mover));
            node = self.nodes[node].children[ci].node;
            if expanded {
                break;
            }
        }
        path
    }

    /// The option to play at `node`: an untried one at random (expanded:
    /// true), else the legal child with the best UCB.
    fn pick(
        &self,
        node: usize,
        options: &[Decision],
        names: &[&str],
        rng: &mut Pcg64,
    ) -> Option<(usize, bool)> {
        let children = &self.nodes[node].children;
        let untried: Vec<usize> = (0..options.len())
            .filter(|i| !children.iter().any(|c| c.name == options[*i].name))
            .collect();
        if !untried.is_empty() {
            return Some((untried[uniform_below(rng, untried.len())], true));
        }
        let ci = children
            .iter()
            .enumerate()
            .filter(|(_, c)| names.contains(&&*c.name))
            .max_by(|(_, a), (_, b)| ucb(a).total_cmp(&ucb(b)))
            .map(|(i, _)| i)?;
        let name = &children[ci].name;
        Some((
            options.iter().position(|d| d.name == *name).unwrap_or(0),
            false,
        ))
    }

    /// Adds a child reached by `name` under `node`; returns its index.
    fn expand(&mut self, node: usize, name: Arc<str>) -> usize {
        self.nodes.push(Node::default());
        let idx = self.nodes.len() - 1;
        let children = &mut self.nodes[node].children;
        children.push(Child {
            name,
            node: idx,
            visits: 0.0,
            reward: 0.0,
            avail: 1.0,
        });
        children.len() - 1
    }

    /// Credits each step of `path` with the reward of the seat that moved.
    fn backpropagate(&mut self, path: Vec<PathStep>, rewards: &[f64]) {
        for (node, ci, mover) in path {
            let c = &mut self.nodes[node].children[ci];
            c.visits += 1.0;
            c.reward += rewards.get(mover).copied().unwrap_or(0.0);
        }
    }

    /// The most visited root decision among `legal` (its index).
    fn most_visited(&self, legal: &[Decision]) -> usize {
        let root = &self.nodes[0];
        let visits = |d: &Decision| {
            root.children
                .iter()
                .find(|c| c.name == d.name)
                .map_or(0.0, |c| c.visits)
        };
        legal
            .iter()
            .enumerate()
            .max_by(|(_, a), (_, b)| visits(a).total_cmp(&visits(b)))
            .map_or(0, |(i, _)| i)
    }
}

/// How an [`MctsAgent`] searches: its budget per decision and its
/// rollouts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MctsConfig {
    /// Iterations per decision (300 when neither this nor `ms` is set).
    pub iterations: Option<u32>,
    /// Milliseconds per decision.
    pub ms: Option<u64>,
    /// How rollouts choose their decisions.
    pub rollout: Rollout,
    /// Decisions a rollout plays before its position is valued by
    /// `evaluate`; `None`: [`ROLLOUT_STEPS`].
    pub cutoff: Option<u32>,
    /// How the position a rollout ends at is turned into rewards.
    pub reward: Reward,
    /// The ruleset's function valuing positions in place of `evaluate`
    /// (`eval=NAME`).
    pub eval: Option<String>,
}

/// The ISMCTS bot.
pub struct MctsAgent {
    rng: Pcg64,
    config: MctsConfig,
    budget: Option<Duration>,
    eval: Evaluator,
    stats: SearchStats,
}

impl MctsAgent {
    /// A bot with an iteration and/or time budget (default 300 iterations)
    /// and random rollouts; `seed` drives its samples and rollouts.
    pub fn new(
        rules: &Ruleset,
        seed: u64,
        iterations: Option<u32>,
        ms: Option<u64>,
    ) -> Result<MctsAgent, EvaluateSignatureError> {
        let config = MctsConfig {
            iterations,
            ms,
            ..MctsConfig::default()
        };
        MctsAgent::with_config(rules, seed, config)
    }

    /// A bot searching as `config` says; `seed` drives its samples and
    /// rollouts.
    pub fn with_config(
        rules: &Ruleset,
        seed: u64,
        mut config: MctsConfig,
    ) -> Result<MctsAgent, EvaluateSignatureError> {
        if config.iterations.is_none() && config.ms.is_none() {
            config.iterations = Some(300);
        }
        Ok(MctsAgent {
            rng: Pcg64::seed_from_u64(seed),
            budget: config.ms.map(Duration::from_millis),
            eval: Evaluator::named(rules, config.eval.as_deref())?,
            config,
            stats: SearchStats::default(),
        })
    }

    fn done(&self, n: u32, start: Instant) -> bool {
        self.config.iterations.is_some_and(|i| n >= i)
            || self.budget.is_some_and(|b| start.elapsed() >= b)
    }

    /// The rollout's length and how its last position is valued.
    fn rollout_shape(&self) -> (u32, Reward) {
        (
            self.config.cutoff.unwrap_or(ROLLOUT_STEPS),
            self.config.reward,
        )
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> String {
        "mcts".into()
    }

    fn choose(&mut self, game: &mut Game, legal: &[Decision]) -> usize {
        if legal.len() <= 1 {
            return 0;
        }
        let Some(me) = game.to_move() else { return 0 };
        let mut tree = Tree::new();
        let start = Instant::now();
        let (steps, valuation) = self.rollout_shape();
        let key = self.eval.first_key(game.rules());
        let mut n = 0;
        while !self.done(n, start) {
            n += 1;
            let mut g = determinize(game, me, &mut self.rng).unrecorded();
            let path = tree.descend(&mut g, &mut self.rng);
            rollout::play(&mut g, &mut self.rng, self.config.rollout, steps, key);
            let r = rollout::rewards(&mut g, &self.eval, valuation);
            tree.backpropagate(path, &r);
        }
        let best = tree.most_visited(legal);
        let _ = self.rng.next_u64();
        self.stats.iterations += u64::from(n);
        self.stats.seconds += start.elapsed().as_secs_f64();
        best
    }

    fn search_stats(&self) -> SearchStats {
        self.stats
    }
}

fn ucb(c: &Child) -> f64 {
    if c.visits == 0.0 {
        return f64::INFINITY;
    }
    c.reward / c.visits + EXPLORE * (c.avail.max(1.0).ln() / c.visits).sqrt()
}

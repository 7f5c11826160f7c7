//! Information-set Monte Carlo tree search (single observer).
//!
//! Each iteration samples a *determinization*: the parts of the state the
//! bot's seat may not see (variables declared `hidden`, and other players'
//! `private` ones) are reshuffled — every item of a kind found in an unseen
//! set or list is pooled and dealt back, each place keeping its size — so
//! the search never uses what its seat cannot know. The tree is keyed by
//! decision names; a child's availability counts how often it was legal
//! (the ISMCTS form of UCB). Rollouts play random decisions for a bounded
//! number of steps, then value the position by the outcome if the game is
//! over, else by the ruleset's `evaluate(p)` (or the score): the seats
//! leading share a reward of 1.

use std::time::{Duration, Instant};

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64;

use super::greedy::evaluation;
use super::{uniform_below, Agent};
use crate::engine::state::Value;
use crate::engine::{vm, Decision, Game};
use crate::ir::bytecode::FuncId;
use crate::ir::ruleset::Visibility;
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};

/// Decisions a rollout plays before the position is valued.
const ROLLOUT_STEPS: usize = 60;
/// The exploration constant of UCB.
const EXPLORE: f64 = 0.7;

#[derive(Default)]
struct Node {
    /// Children by decision name: (name, node index, visits, reward, availability).
    children: Vec<Child>,
}

struct Child {
    name: std::sync::Arc<str>,
    node: usize,
    visits: f64,
    reward: f64,
    avail: f64,
}

/// The ISMCTS bot.
pub struct MctsAgent {
    rng: Pcg64,
    iterations: Option<u32>,
    budget: Option<Duration>,
    eval: Option<FuncId>,
}

impl MctsAgent {
    /// A bot with an iteration and/or time budget (default 300 iterations);
    /// `seed` drives its samples and rollouts.
    pub fn new(
        rules: &Ruleset,
        seed: u64,
        iterations: Option<u32>,
        ms: Option<u64>,
    ) -> Result<MctsAgent, String> {
        let iterations = if iterations.is_none() && ms.is_none() {
            Some(300)
        } else {
            iterations
        };
        Ok(MctsAgent {
            rng: Pcg64::seed_from_u64(seed),
            iterations,
            budget: ms.map(Duration::from_millis),
            eval: evaluation(rules)?,
        })
    }

    fn done(&self, n: u32, start: Instant) -> bool {
        self.iterations.is_some_and(|i| n >= i) || self.budget.is_some_and(|b| start.elapsed() >= b)
    }

    /// Rewards per seat for a position: 1 shared among the leaders.
    fn rewards(&self, g: &mut Game) -> Vec<f64> {
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
        let rules = g.rules().clone();
        let values: Vec<i64> = (0..n)
            .map(|p| {
                let mut st = g.state().clone();
                match self.eval {
                    Some(f) => vm::eval(&rules, &mut st, f, vec![Value::I(p as i64)])
                        .map_or(0, |v| v.int()),
                    None => rules
                        .score
                        .first()
                        .and_then(|f| vm::eval(&rules, &mut st, *f, vec![Value::I(p as i64)]).ok())
                        .map_or(0, |v| v.int()),
                }
            })
            .collect();
        let best = values.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..n).filter(|p| values[*p] == best).collect();
        for p in &leaders {
            r[*p] = 1.0 / leaders.len() as f64;
        }
        r
    }
}

/// Reshuffles, in a copy of the game, every item that `me` cannot see:
/// the contents of hidden sets and lists, and of other players' private
/// ones, pooled per kind and dealt back with each place keeping its size.
/// The game's random generator is reseeded too: future chance (dice,
/// shuffles) is sampled, not read.
pub fn determinize(game: &Game, me: usize, rng: &mut impl RngCore) -> Game {
    let mut g = game.clone();
    let rules = g.rules().clone();
    let players = g.players();
    let st = g.state_mut();
    // (kind, word offset, is list, count) of every unseen place.
    let mut places: Vec<(u16, usize, bool, usize)> = Vec::new();
    for v in &rules.vars {
        let (kind, is_list) = match v.ty {
            Ty::Set(k) => (k, false),
            Ty::List(k) => (k, true),
            _ => continue,
        };
        for flat in 0..v.len() {
            let unseen = match v.visibility {
                Visibility::Public => false,
                Visibility::Hidden => true,
                Visibility::Private => {
                    let owner = flat / (v.len() / v.dims[0].size.max(1)).max(1);
                    owner < players && owner != me
                }
            };
            if !unseen {
                continue;
            }
            let off = v.offset + flat * v.elem_words;
            let count = if is_list {
                st.words[off] as usize
            } else {
                st.words[off..off + v.elem_words]
                    .iter()
                    .map(|w| (*w as u64).count_ones() as usize)
                    .sum()
            };
            places.push((kind, off, is_list, count));
        }
    }
    let kinds: Vec<u16> = {
        let mut k: Vec<u16> = places.iter().map(|p| p.0).collect();
        k.sort();
        k.dedup();
        k
    };
    for kind in kinds {
        let mine: Vec<&(u16, usize, bool, usize)> = places.iter().filter(|p| p.0 == kind).collect();
        let mut pool: Vec<i64> = Vec::new();
        for (_, off, is_list, count) in &mine {
            if *is_list {
                pool.extend(&st.words[off + 1..off + 1 + count]);
            } else {
                let words = elem_words_at(&rules, *off);
                for w in 0..words {
                    let bits = st.words[off + w] as u64;
                    for b in 0..64 {
                        if bits >> b & 1 == 1 {
                            pool.push((w * 64 + b) as i64);
                        }
                    }
                }
            }
        }
        for i in (1..pool.len()).rev() {
            let j = uniform_below(rng, i + 1);
            pool.swap(i, j);
        }
        let mut next = pool.into_iter();
        for (_, off, is_list, count) in mine {
            if *is_list {
                for i in 0..*count {
                    st.words[off + 1 + i] = next.next().unwrap_or(-1);
                }
            } else {
                let words = elem_words_at(&rules, *off);
                for w in 0..words {
                    st.words[off + w] = 0;
                }
                for _ in 0..*count {
                    if let Some(x) = next.next() {
                        let (w, b) = (x as usize / 64, x as usize % 64);
                        if w < words {
                            st.words[off + w] |= 1 << b;
                        }
                    }
                }
            }
        }
    }
    st.rng = Pcg64::seed_from_u64(rng.next_u64());
    let _ = PLAYER;
    g
}

/// Words per element of the variable holding state word `off`.
fn elem_words_at(rules: &Ruleset, off: usize) -> usize {
    rules
        .vars
        .iter()
        .find(|v| v.offset <= off && off < v.offset + v.len() * v.elem_words)
        .map_or(1, |v| v.elem_words)
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
        let mut nodes: Vec<Node> = vec![Node::default()];
        let start = Instant::now();
        let mut n = 0;
        while !self.done(n, start) {
            n += 1;
            let mut g = determinize(game, me, &mut self.rng);
            // Selection and expansion.
            let mut path: Vec<(usize, usize, usize)> = Vec::new(); // (node, child, mover)
            let mut node = 0;
            loop {
                if g.is_over() {
                    break;
                }
                let Some(mover) = g.to_move() else { break };
                let Ok(options) = g.legal() else { break };
                let names: Vec<&str> = options.iter().map(|d| &*d.name).collect();
                for c in nodes[node].children.iter_mut() {
                    if names.contains(&&*c.name) {
                        c.avail += 1.0;
                    }
                }
                let untried: Vec<usize> = (0..options.len())
                    .filter(|i| {
                        !nodes[node]
                            .children
                            .iter()
                            .any(|c| c.name == options[*i].name)
                    })
                    .collect();
                let (pick, expanded) = if !untried.is_empty() {
                    (untried[uniform_below(&mut self.rng, untried.len())], true)
                } else {
                    let best = nodes[node]
                        .children
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| names.contains(&&*c.name))
                        .max_by(|(_, a), (_, b)| ucb(a).total_cmp(&ucb(b)))
                        .map(|(i, _)| i);
                    let Some(ci) = best else { break };
                    let name = nodes[node].children[ci].name.clone();
                    (
                        options.iter().position(|d| d.name == name).unwrap_or(0),
                        false,
                    )
                };
                let name = options[pick].name.clone();
                if g.apply(pick).is_err() {
                    break;
                }
                let ci = if expanded {
                    nodes.push(Node::default());
                    let idx = nodes.len() - 1;
                    nodes[node].children.push(Child {
                        name,
                        node: idx,
                        visits: 0.0,
                        reward: 0.0,
                        avail: 1.0,
                    });
                    nodes[node].children.len() - 1
                } else {
                    nodes[node]
                        .children
                        .iter()
                        .position(|c| c.name == name)
                        .unwrap_or(0)
                };
                path.push((node, ci, mover));
                node = nodes[node].children[ci].node;
                if expanded {
                    break;
                }
            }
            // Rollout.
            for _ in 0..ROLLOUT_STEPS {
                if g.is_over() {
                    break;
                }
                let Ok(options) = g.legal() else { break };
                let i = uniform_below(&mut self.rng, options.len());
                if g.apply(i).is_err() {
                    break;
                }
            }
            let r = self.rewards(&mut g);
            for (node, ci, mover) in path {
                let c = &mut nodes[node].children[ci];
                c.visits += 1.0;
                c.reward += r.get(mover).copied().unwrap_or(0.0);
            }
        }
        // The most visited root decision that is legal now.
        let root = &nodes[0];
        let best = legal
            .iter()
            .enumerate()
            .max_by(|(_, a), (_, b)| {
                let va = root
                    .children
                    .iter()
                    .find(|c| c.name == a.name)
                    .map_or(0.0, |c| c.visits);
                let vb = root
                    .children
                    .iter()
                    .find(|c| c.name == b.name)
                    .map_or(0.0, |c| c.visits);
                va.total_cmp(&vb)
            })
            .map_or(0, |(i, _)| i);
        let _ = self.rng.next_u64();
        best
    }
}

fn ucb(c: &Child) -> f64 {
    if c.visits == 0.0 {
        return f64::INFINITY;
    }
    c.reward / c.visits + EXPLORE * (c.avail.max(1.0).ln() / c.visits).sqrt()
}

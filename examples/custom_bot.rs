//! A custom bot written against the library: a one-step lookahead that
//! takes any decision which ends the game with it among the winners, and
//! otherwise avoids decisions that let the next player win at once.
//!
//! It plays the small test ruleset `tests/rulesets/nim` (2 players) against
//! the random bot, alternating who moves first, and prints the result.
//!
//! Run it with `cargo run --example custom_bot`.

use std::path::Path;
use std::sync::Arc;

use tabula::{Agent, Decision, Game, RandomAgent};

/// A bot that looks one decision ahead (and one reply ahead) on the score.
pub struct Lookahead {
    fallback: RandomAgent,
}

impl Lookahead {
    /// A lookahead bot; `seed` breaks ties among equally good decisions.
    pub fn new(seed: u64) -> Lookahead {
        Lookahead {
            fallback: RandomAgent::new(seed),
        }
    }
}

/// Whether `seat` is among the winners of a finished game.
fn wins(game: &mut Game, seat: usize) -> bool {
    matches!(game.outcome(), Ok(Some(o)) if o.winners.contains(&seat))
}

/// Replays `game` from its seed and history plus `extra`, so the real game
/// is left untouched.
fn after(game: &Game, extra: &[&str]) -> Option<Game> {
    let mut g = Game::new(game.rules().clone(), game.players(), game.seed()).ok()?;
    for d in game
        .history()
        .iter()
        .map(|d| &**d)
        .chain(extra.iter().copied())
    {
        g.apply_named(d).ok()?;
    }
    Some(g)
}

impl Agent for Lookahead {
    fn name(&self) -> String {
        "lookahead".into()
    }

    fn choose(&mut self, game: &mut Game, legal: &[Decision]) -> usize {
        let me = game.to_move().unwrap_or(0);
        let mut safe = Vec::new();
        for (i, d) in legal.iter().enumerate() {
            let Some(mut next) = after(game, &[&d.name]) else {
                continue;
            };
            if next.is_over() {
                if wins(&mut next, me) {
                    return i;
                }
                continue;
            }
            // Does some reply of the next player end the game against us?
            let replies = next.legal().unwrap_or_default();
            let loses = replies.iter().any(|r| {
                after(&next, &[&r.name]).is_some_and(|mut g| g.is_over() && !wins(&mut g, me))
            });
            if !loses {
                safe.push(i);
            }
        }
        if safe.is_empty() {
            self.fallback.choose(game, legal)
        } else {
            safe[self.fallback.below(safe.len())]
        }
    }
}

/// The result of a match between the lookahead bot and the random bot.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchResult {
    /// Games played.
    pub games: usize,
    /// Games the lookahead bot won.
    pub lookahead_wins: usize,
    /// Games the random bot won.
    pub random_wins: usize,
}

/// Plays `games` games of nim, the lookahead bot against the random bot,
/// alternating seats.
pub fn run(games: usize) -> Result<MatchResult, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    let rules = Arc::new(tabula::load(&dir, &[]).map_err(|e| e.to_string())?);
    let mut result = MatchResult {
        games,
        lookahead_wins: 0,
        random_wins: 0,
    };
    for g in 0..games {
        let seed = g as u64;
        let smart_seat = g % 2;
        let mut agents: Vec<Box<dyn Agent>> = vec![
            Box::new(RandomAgent::new(seed * 2 + 1)),
            Box::new(RandomAgent::new(seed * 2 + 2)),
        ];
        agents[smart_seat] = Box::new(Lookahead::new(seed));
        let mut game = tabula::sim::play_game(&rules, &mut agents, seed, 10_000)
            .map_err(|e| format!("game {g}: {e}"))?;
        let outcome = game
            .outcome()
            .map_err(|e| e.to_string())?
            .ok_or("the game did not end")?;
        if outcome.winners.contains(&smart_seat) {
            result.lookahead_wins += 1;
        } else {
            result.random_wins += 1;
        }
    }
    Ok(result)
}

#[allow(dead_code)]
fn main() {
    match run(200) {
        Ok(r) => println!(
            "lookahead vs random, {} games of nim: lookahead won {}, random won {}",
            r.games, r.lookahead_wins, r.random_wins
        ),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

//! Playing a run: per-game and per-bot seeds, one game between bots, and
//! the games of a run on a thread pool, recorded in game order.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use super::{GameRecord, MetricValue, SimConfig, SimError, MAX_DECISIONS, UNFINISHED};
use crate::agents::eval::EvaluateSignatureError;
use crate::agents::{Agent, AgentSpec};
use crate::engine::{ApplyError, Game};
use crate::ir::ruleset::Ruleset;

/// One step of the splitmix64 generator: a well-mixed 64-bit value from `x`.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` of a run seeded with `run_seed`.
pub fn game_seed(run_seed: u64, index: usize) -> u64 {
    splitmix64(run_seed ^ splitmix64(index as u64))
}

/// The seed of the bot at `seat` in a game seeded with `game_seed`
/// (distinct from the game's own random generator).
pub fn agent_seed(game_seed: u64, seat: usize) -> u64 {
    splitmix64(splitmix64(game_seed ^ 0xA076_1D64_78BD_642F) ^ seat as u64)
}

/// Renders an engine error: rules errors with the rules code that failed.
pub fn render_error(rules: &Ruleset, e: &ApplyError) -> String {
    match e {
        ApplyError::Runtime(r) => crate::engine::view::report(rules, r),
        other => format!("{other}\n"),
    }
}

/// Plays one game between `agents` (one per seat) from `seed`; returns the
/// game (over) or the error with the number of decisions taken (a game
/// still going after `max_decisions` is an error).
pub fn play_game(
    rules: &Arc<Ruleset>,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    max_decisions: usize,
) -> Result<Game, GameFailed> {
    play_recorded(rules, agents, seed, max_decisions).map(|(g, _)| g)
}

/// The start player, when the ruleset names the variable holding it
/// (`first_player:` in `game.yaml`) and it holds a seated player.
fn start_player(game: &Game) -> Option<usize> {
    let v = game.rules().first_player_var?;
    let seat = game.state().words[game.rules().vars[v as usize].offset];
    usize::try_from(seat).ok().filter(|s| *s < game.players())
}

/// Like [`play_game`], and also returns the game's first player: the one
/// the ruleset names (`first_player:` in `game.yaml`), else the seat that
/// took the first decision.
pub fn play_recorded(
    rules: &Arc<Ruleset>,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    max_decisions: usize,
) -> Result<(Game, Option<usize>), GameFailed> {
    match play_until(rules, agents, seed, max_decisions)? {
        (game, first, Ending::Over) => Ok((game, first)),
        (_, _, Ending::Unfinished) => Err(GameFailed {
            decisions: max_decisions,
            report: limit_message(max_decisions),
        }),
    }
}

/// A game between bots that could not be played to its end: a rules
/// error, or the decision limit reached.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the game failed after {decisions} decisions:\n{report}")]
pub struct GameFailed {
    /// How many decisions were taken before it failed.
    pub decisions: usize,
    /// What went wrong, rendered (a rules error points into the rules).
    pub report: String,
}

/// How a game between bots stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The game is over.
    Over,
    /// The decision limit was reached first.
    Unfinished,
}

/// The explanation of a game given up at the decision limit.
fn limit_message(n: usize) -> String {
    format!("the game has not ended after {n} decisions (does the rules' main loop end?)\n")
}

/// Plays one game between `agents` from `seed` until it is over or
/// `max_decisions` decisions have been taken; returns the game, its first
/// player (see [`play_recorded`]) and how it stopped, or the rules error
/// with the number of decisions taken.
pub fn play_until(
    rules: &Arc<Ruleset>,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    max_decisions: usize,
) -> Result<(Game, Option<usize>, Ending), GameFailed> {
    let players = agents.len();
    let mut game = Game::new(rules.clone(), players, seed).map_err(|e| GameFailed {
        decisions: 0,
        report: render_error(rules, &e),
    })?;
    let mut n = 0usize;
    let mut first = None;
    while !game.is_over() {
        if n >= max_decisions {
            return Ok((game, first, Ending::Unfinished));
        }
        let fail = |game: &Game, e: &ApplyError| GameFailed {
            decisions: n,
            report: match e {
                ApplyError::Runtime(r) => game.report(r),
                other => format!("{other}\n"),
            },
        };
        let count = game.legal_count().map_err(|e| fail(&game, &e))?;
        let seat = game.to_move().unwrap_or(0).min(players.saturating_sub(1));
        if n == 0 {
            first = Some(start_player(&game).unwrap_or(seat));
        }
        // The decisions are named only for a bot that reads them.
        let i = match agents[seat].choose_blind(count) {
            Some(i) => i,
            None => {
                let legal = game.legal().map_err(|e| fail(&game, &e))?;
                agents[seat].choose(&mut game, &legal)
            }
        };
        game.apply(i.min(count - 1)).map_err(|e| fail(&game, &e))?;
        n += 1;
    }
    Ok((game, first, Ending::Over))
}

/// Builds the bots of one game seeded `seed`.
pub fn build_agents(
    rules: &Ruleset,
    specs: &[AgentSpec],
    seed: u64,
) -> Result<Vec<Box<dyn Agent>>, EvaluateSignatureError> {
    specs
        .iter()
        .enumerate()
        .map(|(p, s)| s.build(rules, agent_seed(seed, p)))
        .collect()
}

/// Plays game `index` of a run seeded `run_seed` between the bots `agents`
/// (one per seat) and records its result; a game still going after
/// [`MAX_DECISIONS`] decisions is an error.
pub fn simulate_one(
    rules: &Arc<Ruleset>,
    agents: &[AgentSpec],
    run_seed: u64,
    index: usize,
) -> Result<GameRecord, SimError> {
    let r = play_one(rules, agents, run_seed, index, MAX_DECISIONS)?;
    if r.unfinished {
        return Err(SimError {
            game: index,
            seed: r.seed,
            decisions: r.decisions,
            report: limit_message(r.decisions),
        });
    }
    Ok(r)
}

/// Plays game `index` of a run seeded `run_seed` between the bots `agents`
/// and records its result; a game still going after `max_decisions`
/// decisions is recorded as unfinished.
pub fn play_one(
    rules: &Arc<Ruleset>,
    agents: &[AgentSpec],
    run_seed: u64,
    index: usize,
    max_decisions: usize,
) -> Result<GameRecord, SimError> {
    let seed = game_seed(run_seed, index);
    let err = |decisions, report| SimError {
        game: index,
        seed,
        decisions,
        report,
    };
    let mut bots = build_agents(rules, agents, seed).map_err(|e| err(0, format!("{e}\n")))?;
    let (mut game, first, ending) = play_until(rules, &mut bots, seed, max_decisions)
        .map_err(|f| err(f.decisions, f.report))?;
    let decisions = game.decisions_taken();
    let rounds = game.rounds();
    if ending == Ending::Unfinished {
        return Ok(GameRecord {
            game: index,
            seed,
            scores: Vec::new(),
            winners: Vec::new(),
            decisions,
            rounds,
            first,
            unfinished: true,
            ending: Some(UNFINISHED.to_string()),
            metrics: Default::default(),
        });
    }
    let outcome = match game.outcome() {
        Ok(Some(o)) => o,
        Ok(None) => return Err(err(decisions, "the game did not end\n".into())),
        Err(e) => return Err(err(decisions, render_error(rules, &e))),
    };
    let measured = game
        .ending()
        .and_then(|ending| Ok((ending, game.metrics()?)))
        .map_err(|e| err(decisions, render_error(rules, &e)))?;
    let (ending, values) = measured;
    let metrics = rules
        .metrics
        .iter()
        .zip(values)
        .map(|(m, v)| {
            let value = if m.per_seat {
                MetricValue::Seats(v)
            } else {
                MetricValue::Game(v.first().copied().unwrap_or(0))
            };
            (m.name.clone(), value)
        })
        .collect();
    Ok(GameRecord {
        game: index,
        seed,
        scores: outcome.scores(),
        winners: outcome.winners,
        decisions,
        rounds,
        first,
        unfinished: false,
        ending,
        metrics,
    })
}

/// Games played between two hand-overs of records: the records of a chunk
/// wait in memory until the chunk is over, so memory does not grow with
/// the run.
const CHUNK: usize = 1024;

/// Plays the games of `cfg` (its shard, or all) on `jobs` threads (0: one
/// per core), calling `progress` after each game (from any thread), and
/// hands each record to `sink` in game order as the games end. Stops at
/// the first failing game (the error of the one with the lowest index;
/// every record before it has been handed over), or when `sink` says
/// [`ControlFlow::Break`].
pub fn run_stream(
    rules: &Arc<Ruleset>,
    cfg: &SimConfig,
    jobs: usize,
    progress: &(dyn Fn(&GameRecord) + Sync),
    sink: &mut dyn FnMut(GameRecord) -> ControlFlow<()>,
) -> Result<(), SimError> {
    let failed = AtomicUsize::new(usize::MAX);
    let play = |index: usize| -> Option<Result<GameRecord, SimError>> {
        if index > failed.load(Ordering::Relaxed) {
            return None;
        }
        let r = play_one(rules, &cfg.agents, cfg.seed, index, cfg.max_decisions);
        match &r {
            Ok(rec) => progress(rec),
            Err(_) => {
                failed.fetch_min(index, Ordering::Relaxed);
            }
        }
        Some(r)
    };
    let range = cfg.range();
    let pool = if jobs == 1 {
        None
    } else {
        // No threads to be had: play on this one.
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .ok()
    };
    let mut start = range.start;
    while start < range.end {
        let end = start + (range.end - start).min(CHUNK);
        let results: Vec<Option<Result<GameRecord, SimError>>> = match &pool {
            Some(pool) => pool.install(|| (start..end).into_par_iter().map(play).collect()),
            None => (start..end).map(play).collect(),
        };
        for r in results.into_iter().flatten() {
            if sink(r?).is_break() {
                return Ok(());
            }
        }
        start = end;
    }
    Ok(())
}

/// Plays the games of `cfg` (its shard, or all) on `jobs` threads (0: one
/// per core), calling `progress` after each game (from any thread).
/// Returns the records in game order, or the error of the failing game with
/// the lowest index (games after it may be skipped). Holds every record:
/// see [`run_stream`] for long runs.
pub fn run(
    rules: &Arc<Ruleset>,
    cfg: &SimConfig,
    jobs: usize,
    progress: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, SimError> {
    let mut records = Vec::new();
    run_stream(rules, cfg, jobs, progress, &mut |r| {
        records.push(r);
        ControlFlow::Continue(())
    })?;
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_per_game_and_seat() {
        let a = game_seed(0, 0);
        let b = game_seed(0, 1);
        let c = game_seed(1, 0);
        assert!(a != b && a != c && b != c);
        assert_ne!(agent_seed(a, 0), agent_seed(a, 1));
        assert_ne!(agent_seed(a, 0), a);
    }
}

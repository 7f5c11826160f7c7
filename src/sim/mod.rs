//! Simulation: many games, statistics, reports.
//!
//! Each game is independent: its seed is derived from the run seed and the
//! game's index ([`game_seed`]), and the bots' seeds from the game seed
//! ([`agent_seed`]), so any game of a run can be replayed on its own and the
//! games could be played in any order (or in parallel) with the same result.

use std::sync::Arc;

use serde::Serialize;

use crate::agents::{Agent, RandomAgent};
use crate::engine::{ApplyError, Game};
use crate::model::Ruleset;

/// Games that have not ended after this many decisions are reported as
/// errors (a rules mistake that loops forever).
pub const MAX_DECISIONS: usize = 1_000_000;

/// What to simulate.
#[derive(Debug, Clone, Serialize)]
pub struct SimConfig {
    /// Seated players.
    pub players: usize,
    /// Number of games.
    pub games: usize,
    /// The run seed.
    pub seed: u64,
    /// Variants applied to the ruleset (for the report).
    pub variants: Vec<String>,
}

/// The result of one simulated game.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameRecord {
    /// The game's index in the run.
    pub game: usize,
    /// The game's seed (see [`game_seed`]).
    pub seed: u64,
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// The winning seats (several on a shared win).
    pub winners: Vec<usize>,
    /// Number of decisions taken.
    pub decisions: usize,
    /// The ruleset's round counter at the end, if it declares one.
    pub rounds: Option<i64>,
}

/// A game that failed: the rules raised an error while it was played.
#[derive(Debug, Clone, thiserror::Error)]
#[error("game {game} (seed {seed}) failed after {decisions} decisions:\n{report}")]
pub struct SimError {
    /// The game's index in the run.
    pub game: usize,
    /// The game's seed.
    pub seed: u64,
    /// Decisions taken before the failure.
    pub decisions: usize,
    /// The rendered error (with the rules code when it comes from the rules).
    pub report: String,
}

/// Minimum, maximum and mean of a quantity over the games.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Range {
    /// The mean.
    pub mean: f64,
    /// The smallest value.
    pub min: i64,
    /// The largest value.
    pub max: i64,
}

impl Range {
    fn of(xs: impl Iterator<Item = i64>) -> Option<Range> {
        let (mut n, mut sum, mut min, mut max) = (0usize, 0f64, i64::MAX, i64::MIN);
        for x in xs {
            n += 1;
            sum += x as f64;
            min = min.min(x);
            max = max.max(x);
        }
        (n > 0).then(|| Range {
            mean: sum / n as f64,
            min,
            max,
        })
    }
}

/// Statistics over a run. Holds no timing, so it is identical for
/// identical runs.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Summary {
    /// Number of games.
    pub games: usize,
    /// Seated players.
    pub players: usize,
    /// Per seat, the fraction of games won (a win shared by k seats counts
    /// 1/k to each).
    pub win_rate: Vec<f64>,
    /// Per seat, the mean score.
    pub score_mean: Vec<f64>,
    /// Per seat, the (population) standard deviation of the score.
    pub score_sd: Vec<f64>,
    /// Rounds per game, if the ruleset declares a round counter.
    pub rounds: Option<Range>,
    /// Decisions per game.
    pub decisions: Option<Range>,
}

impl Summary {
    /// Computes the statistics of `records` for `players` seats.
    pub fn of(players: usize, records: &[GameRecord]) -> Summary {
        let n = records.len();
        let nf = n.max(1) as f64;
        let mut wins = vec![0f64; players];
        let mut sum = vec![0f64; players];
        for r in records {
            let k = r.winners.len();
            for w in &r.winners {
                if let Some(x) = wins.get_mut(*w) {
                    *x += 1.0 / k as f64;
                }
            }
            for (s, x) in sum.iter_mut().zip(&r.scores) {
                *s += *x as f64;
            }
        }
        let mean: Vec<f64> = sum.iter().map(|s| s / nf).collect();
        let mut var = vec![0f64; players];
        for r in records {
            for ((v, x), m) in var.iter_mut().zip(&r.scores).zip(&mean) {
                *v += (*x as f64 - m).powi(2);
            }
        }
        Summary {
            games: n,
            players,
            win_rate: wins.iter().map(|w| w / nf).collect(),
            score_mean: mean,
            score_sd: var.iter().map(|v| (v / nf).sqrt()).collect(),
            rounds: Range::of(records.iter().filter_map(|r| r.rounds)),
            decisions: Range::of(records.iter().map(|r| r.decisions as i64)),
        }
    }

    /// The summary as a text table; `seat_names` labels the rows and
    /// `elapsed` (seconds), if given, adds the speed.
    pub fn render(&self, seat_names: &[String], elapsed: Option<f64>) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "{} game{}, {} players\n\n",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.players
        ));
        let w = seat_names
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        out.push_str(&format!(
            "{:<w$}  {:>8}  {:>10}  {:>9}\n",
            "seat", "win rate", "mean score", "sd score"
        ));
        for p in 0..self.players {
            let name = seat_names
                .get(p)
                .cloned()
                .unwrap_or_else(|| format!("p{}", p + 1));
            out.push_str(&format!(
                "{:<w$}  {:>7.1}%  {:>10.2}  {:>9.2}\n",
                name,
                self.win_rate[p] * 100.0,
                self.score_mean[p],
                self.score_sd[p]
            ));
        }
        out.push('\n');
        if let Some(r) = &self.rounds {
            out.push_str(&format!(
                "rounds/game:    mean {:.2}  min {}  max {}\n",
                r.mean, r.min, r.max
            ));
        }
        if let Some(d) = &self.decisions {
            out.push_str(&format!(
                "decisions/game: mean {:.2}  min {}  max {}\n",
                d.mean, d.min, d.max
            ));
        }
        if let Some(t) = elapsed {
            let gps = if t > 0.0 {
                self.games as f64 / t
            } else {
                f64::INFINITY
            };
            out.push_str(&format!("time: {t:.2}s  games/s: {gps:.1}\n"));
        }
        out
    }
}

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
/// game (over) or the error with the number of decisions taken.
pub fn play_game(
    rules: &Arc<Ruleset>,
    agents: &mut [Box<dyn Agent>],
    seed: u64,
    max_decisions: usize,
) -> Result<Game, (usize, String)> {
    let players = agents.len();
    let mut game =
        Game::new(rules.clone(), players, seed).map_err(|e| (0, render_error(rules, &e)))?;
    let mut n = 0usize;
    while !game.is_over() {
        if n >= max_decisions {
            return Err((
                n,
                format!(
                    "the game has not ended after {n} decisions (does the rules' main loop end?)\n"
                ),
            ));
        }
        let fail = |game: &Game, e: &ApplyError| {
            (
                n,
                match e {
                    ApplyError::Runtime(r) => game.report(r),
                    other => format!("{other}\n"),
                },
            )
        };
        let legal = game.legal().map_err(|e| fail(&game, &e))?;
        let seat = game.to_move().unwrap_or(0).min(players.saturating_sub(1));
        let i = agents[seat].choose(&mut game, &legal).min(legal.len() - 1);
        game.apply(i).map_err(|e| fail(&game, &e))?;
        n += 1;
    }
    Ok(game)
}

/// Plays game `index` of a run with random bots and records its result.
pub fn simulate_one(
    rules: &Arc<Ruleset>,
    players: usize,
    run_seed: u64,
    index: usize,
) -> Result<GameRecord, SimError> {
    let seed = game_seed(run_seed, index);
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| Box::new(RandomAgent::new(agent_seed(seed, p))) as Box<dyn Agent>)
        .collect();
    let err = |decisions, report| SimError {
        game: index,
        seed,
        decisions,
        report,
    };
    let mut game =
        play_game(rules, &mut agents, seed, MAX_DECISIONS).map_err(|(n, r)| err(n, r))?;
    let decisions = game.history().len();
    let outcome = match game.outcome() {
        Ok(Some(o)) => o,
        Ok(None) => return Err(err(decisions, "the game did not end\n".into())),
        Err(e) => return Err(err(decisions, render_error(rules, &e))),
    };
    Ok(GameRecord {
        game: index,
        seed,
        scores: outcome.scores(),
        winners: outcome.winners,
        decisions,
        rounds: game.rounds(),
    })
}

/// Plays every game of `cfg` in order, calling `progress` after each, and
/// stops at the first failing game.
pub fn run(
    rules: &Arc<Ruleset>,
    cfg: &SimConfig,
    mut progress: impl FnMut(&GameRecord),
) -> Result<Vec<GameRecord>, SimError> {
    let mut records = Vec::with_capacity(cfg.games);
    for index in 0..cfg.games {
        let r = simulate_one(rules, cfg.players, cfg.seed, index)?;
        progress(&r);
        records.push(r);
    }
    Ok(records)
}

/// The JSON report of a run: identical for identical arguments.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The ruleset's id.
    pub ruleset: String,
    /// Variants applied.
    pub variants: Vec<String>,
    /// Seated players.
    pub players: usize,
    /// The run seed.
    pub seed: u64,
    /// The statistics.
    pub summary: Summary,
    /// Every game.
    pub games: Vec<GameRecord>,
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

    #[test]
    fn shared_wins_are_split() {
        let rec = |winners: Vec<usize>, scores: Vec<i64>| GameRecord {
            game: 0,
            seed: 0,
            scores,
            winners,
            decisions: 4,
            rounds: Some(2),
        };
        let s = Summary::of(2, &[rec(vec![0, 1], vec![5, 5]), rec(vec![0], vec![10, 0])]);
        assert_eq!(s.win_rate, vec![0.75, 0.25]);
        assert_eq!(s.score_mean, vec![7.5, 2.5]);
        assert_eq!(s.score_sd, vec![2.5, 2.5]);
        assert_eq!(s.decisions.as_ref().unwrap().mean, 4.0);
    }
}

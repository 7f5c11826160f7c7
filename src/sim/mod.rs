//! Simulation: many games, statistics, reports.
//!
//! Each game is independent: its seed is derived from the run seed and the
//! game's index ([`game_seed`]), and the bots' seeds from the game seed
//! ([`agent_seed`]), so any game of a run can be replayed on its own and the
//! games are played in parallel ([`run`], on a rayon pool) with the same
//! result for any number of threads: records are kept in game order and
//! every statistic is computed from them in that order.
//!
//! A run may be split into shards ([`Shard`]), contiguous slices of the
//! game indices, played anywhere and joined by [`merge`]; the merged report
//! is identical to the report of the whole run.

pub mod compare;
pub mod csv;
pub mod html;
pub mod stats;

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::agents::{Agent, AgentSpec};
use crate::engine::{ApplyError, Game};
use crate::model::Ruleset;

pub use stats::Stats;

/// Games that have not ended after this many decisions are reported as
/// errors (a rules mistake that loops forever).
pub const MAX_DECISIONS: usize = 1_000_000;

/// A slice of a run: the `index`-th of `count` contiguous, near-equal
/// slices of the game indices. `index` is 1-based, as written on the
/// command line (`--shard 1/4` ... `--shard 4/4`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1 to `count`.
    pub index: usize,
    /// How many slices the run is split into.
    pub count: usize,
}

impl Shard {
    /// Parses `i/n` (1 <= i <= n).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("bad --shard `{s}`: {why}");
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| bad("expected i/n, e.g. 1/4 for the first of four shards"))?;
        let parse = |x: &str, what: &str| {
            x.trim()
                .parse::<usize>()
                .map_err(|_| bad(&format!("{what} `{}` is not a whole number", x.trim())))
        };
        let (index, count) = (parse(i, "i")?, parse(n, "n")?);
        if count == 0 {
            return Err(bad("n must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(bad(&format!(
                "i counts from 1 and must be between 1 and {count}"
            )));
        }
        Ok(Shard { index, count })
    }

    /// The game indices of this shard in a run of `games` games.
    pub fn range(&self, games: usize) -> Range<usize> {
        let cut = |k: usize| ((k as u128 * games as u128) / self.count as u128) as usize;
        cut(self.index - 1)..cut(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What to simulate.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Seated players.
    pub players: usize,
    /// Number of games of the whole run (all shards).
    pub games: usize,
    /// The run seed.
    pub seed: u64,
    /// Variants applied to the ruleset (for the report).
    pub variants: Vec<String>,
    /// One bot per seat.
    pub agents: Vec<AgentSpec>,
    /// The slice of the run to play (`None`: every game).
    pub shard: Option<Shard>,
}

impl SimConfig {
    /// A run of `games` games between random bots.
    pub fn random(players: usize, games: usize, seed: u64) -> SimConfig {
        SimConfig {
            players,
            games,
            seed,
            variants: Vec::new(),
            agents: vec![AgentSpec::Random; players],
            shard: None,
        }
    }

    /// The game indices this configuration plays.
    pub fn range(&self) -> Range<usize> {
        match self.shard {
            Some(s) => s.range(self.games),
            None => 0..self.games,
        }
    }
}

/// The result of one simulated game.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
    /// The start player as the ruleset names it (`first_player:` in
    /// `game.yaml`), else the seat that took the game's first decision
    /// (`None` if the game ended without any).
    pub first: Option<usize>,
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

/// One seat's results over a run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SeatSummary {
    /// Games won (a win shared by k seats counts 1/k).
    pub wins: f64,
    /// `wins` over the number of games.
    pub win_rate: f64,
    /// The 95% Wilson score interval of the win rate.
    pub win_ci95: (f64, f64),
    /// The seat's score.
    pub score: Option<Stats>,
}

/// How the first player (see [`GameRecord::first`]) fared.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FirstPlayer {
    /// Games with a first decision.
    pub games: usize,
    /// Games the first player won (shared wins split).
    pub wins: f64,
    /// `wins` over `games`.
    pub win_rate: f64,
    /// Its 95% Wilson score interval.
    pub win_ci95: (f64, f64),
    /// What it would be if moving first did not matter (1 / players).
    pub fair_share: f64,
    /// Per seat: how often it was first player, and its win rate then.
    pub by_seat: Vec<FirstSeat>,
}

/// A seat's record in the games where it was first player.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FirstSeat {
    /// Games in which this seat was first player.
    pub games: usize,
    /// Its win rate in those games (0 when there are none).
    pub win_rate: f64,
}

/// Statistics over a run. Holds no timing, so it is identical for
/// identical runs.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// Number of games.
    pub games: usize,
    /// Seated players.
    pub players: usize,
    /// Per seat: wins and scores.
    pub seats: Vec<SeatSummary>,
    /// Rounds per game, if the ruleset declares a round counter.
    pub rounds: Option<Stats>,
    /// Decisions per game.
    pub decisions: Option<Stats>,
    /// The first-player advantage.
    pub first_player: FirstPlayer,
}

/// The share of a win that goes to `seat` in `r` (1/k of a k-way win).
pub fn win_share(r: &GameRecord, seat: usize) -> f64 {
    if r.winners.contains(&seat) {
        1.0 / r.winners.len() as f64
    } else {
        0.0
    }
}

impl Summary {
    /// Computes the statistics of `records` for `players` seats.
    pub fn of(players: usize, records: &[GameRecord]) -> Summary {
        let n = records.len();
        let rate = |w: f64, n: usize| if n == 0 { 0.0 } else { w / n as f64 };
        let seats = (0..players)
            .map(|p| {
                let wins: f64 = records.iter().map(|r| win_share(r, p)).sum();
                let win_rate = rate(wins, n);
                SeatSummary {
                    wins,
                    win_rate,
                    win_ci95: stats::wilson(win_rate, n),
                    score: Stats::of(records.iter().filter_map(|r| r.scores.get(p).copied())),
                }
            })
            .collect();
        let mut by_seat = vec![(0usize, 0f64); players];
        let (mut fgames, mut fwins) = (0usize, 0f64);
        for r in records {
            if let Some(f) = r.first {
                let w = win_share(r, f);
                fgames += 1;
                fwins += w;
                if let Some(slot) = by_seat.get_mut(f) {
                    slot.0 += 1;
                    slot.1 += w;
                }
            }
        }
        let frate = rate(fwins, fgames);
        Summary {
            games: n,
            players,
            seats,
            rounds: Stats::of(records.iter().filter_map(|r| r.rounds)),
            decisions: Stats::of(records.iter().map(|r| r.decisions as i64)),
            first_player: FirstPlayer {
                games: fgames,
                wins: fwins,
                win_rate: frate,
                win_ci95: stats::wilson(frate, fgames),
                fair_share: 1.0 / players.max(1) as f64,
                by_seat: by_seat
                    .into_iter()
                    .map(|(g, w)| FirstSeat {
                        games: g,
                        win_rate: rate(w, g),
                    })
                    .collect(),
            },
        }
    }

    /// The summary as a text table; `seat_names` and `agents` label the
    /// rows and `elapsed` (seconds), if given, adds the speed.
    pub fn render(&self, seat_names: &[String], agents: &[String], elapsed: Option<f64>) -> String {
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let name = |p: usize| {
            seat_names
                .get(p)
                .cloned()
                .unwrap_or_else(|| format!("p{}", p + 1))
        };
        let mut out = String::new();
        out.push_str(&format!(
            "{} game{}, {} players\n\n",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.players
        ));
        let w = (0..self.players)
            .map(|p| name(p).chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let aw = agents
            .iter()
            .map(|a| a.chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        out.push_str(&format!(
            "{:<w$}  {:<aw$}  {:>8}  {:>15}  {:>9}  {:>8}  {:>6}  {:>7}  {:>7}  {:>7}  {:>6}\n",
            "seat",
            "agent",
            "win rate",
            "95% CI",
            "score",
            "sd",
            "min",
            "p25",
            "median",
            "p75",
            "max"
        ));
        for (p, s) in self.seats.iter().enumerate() {
            let ci = format!("{}-{}", pct(s.win_ci95.0), pct(s.win_ci95.1));
            let agent = agents.get(p).map(String::as_str).unwrap_or("");
            out.push_str(&format!(
                "{:<w$}  {:<aw$}  {:>8}  {:>15}",
                name(p),
                agent,
                pct(s.win_rate),
                ci
            ));
            if let Some(sc) = &s.score {
                out.push_str(&format!(
                    "  {:>9.2}  {:>8.2}  {:>6}  {:>7.2}  {:>7.2}  {:>7.2}  {:>6}",
                    sc.mean, sc.sd, sc.min, sc.p25, sc.median, sc.p75, sc.max
                ));
            }
            out.push('\n');
        }
        out.push('\n');
        let line = |label: &str, s: &Stats| {
            format!(
                "{label:<15} mean {:.2}  sd {:.2}  min {}  p25 {:.1}  median {:.1}  p75 {:.1}  max {}\n",
                s.mean, s.sd, s.min, s.p25, s.median, s.p75, s.max
            )
        };
        if let Some(r) = &self.rounds {
            out.push_str(&line("rounds/game:", r));
        }
        if let Some(d) = &self.decisions {
            out.push_str(&line("decisions/game:", d));
        }
        let f = &self.first_player;
        if f.games > 0 {
            let by: Vec<String> = f
                .by_seat
                .iter()
                .enumerate()
                .filter(|(_, s)| s.games > 0)
                .map(|(p, s)| format!("{} {} games, won {}", name(p), s.games, pct(s.win_rate)))
                .collect();
            out.push_str(&format!(
                "first player:   won {} (95% CI {}-{}; fair share {}) of {} games; {}\n",
                pct(f.win_rate),
                pct(f.win_ci95.0),
                pct(f.win_ci95.1),
                pct(f.fair_share),
                f.games,
                by.join("; ")
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
) -> Result<(Game, Option<usize>), (usize, String)> {
    let players = agents.len();
    let mut game =
        Game::new(rules.clone(), players, seed).map_err(|e| (0, render_error(rules, &e)))?;
    let mut n = 0usize;
    let mut first = None;
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
        if n == 0 {
            first = Some(start_player(&game).unwrap_or(seat));
        }
        let i = agents[seat].choose(&mut game, &legal).min(legal.len() - 1);
        game.apply(i).map_err(|e| fail(&game, &e))?;
        n += 1;
    }
    Ok((game, first))
}

/// Builds the bots of one game seeded `seed`.
pub fn build_agents(
    rules: &Ruleset,
    specs: &[AgentSpec],
    seed: u64,
) -> Result<Vec<Box<dyn Agent>>, String> {
    specs
        .iter()
        .enumerate()
        .map(|(p, s)| s.build(rules, agent_seed(seed, p)))
        .collect()
}

/// Plays game `index` of a run seeded `run_seed` between the bots `agents`
/// (one per seat) and records its result.
pub fn simulate_one(
    rules: &Arc<Ruleset>,
    agents: &[AgentSpec],
    run_seed: u64,
    index: usize,
) -> Result<GameRecord, SimError> {
    let seed = game_seed(run_seed, index);
    let err = |decisions, report| SimError {
        game: index,
        seed,
        decisions,
        report,
    };
    let mut bots = build_agents(rules, agents, seed).map_err(|e| err(0, format!("{e}\n")))?;
    let (mut game, first) =
        play_recorded(rules, &mut bots, seed, MAX_DECISIONS).map_err(|(n, r)| err(n, r))?;
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
        first,
    })
}

/// Plays the games of `cfg` (its shard, or all) on `jobs` threads (0: one
/// per core), calling `progress` after each game (from any thread).
/// Returns the records in game order, or the error of the failing game with
/// the lowest index (games after it may be skipped).
pub fn run(
    rules: &Arc<Ruleset>,
    cfg: &SimConfig,
    jobs: usize,
    progress: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, SimError> {
    let failed = AtomicUsize::new(usize::MAX);
    let play = |index: usize| -> Option<Result<GameRecord, SimError>> {
        if index > failed.load(Ordering::Relaxed) {
            return None;
        }
        let r = simulate_one(rules, &cfg.agents, cfg.seed, index);
        match &r {
            Ok(rec) => progress(rec),
            Err(_) => {
                failed.fetch_min(index, Ordering::Relaxed);
            }
        }
        Some(r)
    };
    let range = cfg.range();
    let results: Vec<Option<Result<GameRecord, SimError>>> = if jobs == 1 {
        range.map(play).collect()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
            Ok(pool) => pool.install(|| range.into_par_iter().map(play).collect()),
            // No threads to be had: play on this one.
            Err(_) => range.map(play).collect(),
        }
    };
    let mut records = Vec::with_capacity(results.len());
    for r in results.into_iter().flatten() {
        records.push(r?);
    }
    Ok(records)
}

/// The JSON report of a run (or of one shard): identical for identical
/// arguments, whatever the number of threads.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// The ruleset's id.
    pub ruleset: String,
    /// The game's display name.
    pub name: String,
    /// Variants applied.
    pub variants: Vec<String>,
    /// Seated players.
    pub players: usize,
    /// The seats' display names.
    pub seats: Vec<String>,
    /// The bot of each seat.
    pub agents: Vec<String>,
    /// The run seed.
    pub seed: u64,
    /// Games in the whole run (all shards).
    pub total_games: usize,
    /// The slice of the run this report holds (absent for a whole run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The statistics of the games below.
    pub summary: Summary,
    /// Every game, in order.
    pub games: Vec<GameRecord>,
}

impl Report {
    /// The report of `records` played under `cfg`.
    pub fn new(
        rules: &Ruleset,
        cfg: &SimConfig,
        seats: Vec<String>,
        records: Vec<GameRecord>,
    ) -> Report {
        Report {
            ruleset: rules.id.clone(),
            name: rules.name.clone(),
            variants: rules.variants.clone(),
            players: cfg.players,
            seats,
            agents: cfg.agents.iter().map(|a| a.to_string()).collect(),
            seed: cfg.seed,
            total_games: cfg.games,
            shard: cfg.shard,
            summary: Summary::of(cfg.players, &records),
            games: records,
        }
    }

    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

/// Joins the reports of the shards of one run (`(name, report)`, the name
/// for error messages) into the report of the whole run. Fails, saying
/// why, when they come from different runs, overlap, or leave games out.
pub fn merge(parts: &[(String, Report)]) -> Result<Report, String> {
    let Some((first_name, head)) = parts.first() else {
        return Err("nothing to merge".into());
    };
    for (name, r) in &parts[1..] {
        let differs = |what: &str, a: String, b: String| {
            Err(format!(
                "`{name}` is not from the same run as `{first_name}`: its {what} is {b}, not {a}"
            ))
        };
        if r.ruleset != head.ruleset {
            return differs("ruleset", head.ruleset.clone(), r.ruleset.clone());
        }
        if r.variants != head.variants {
            return differs(
                "variant list",
                format!("{:?}", head.variants),
                format!("{:?}", r.variants),
            );
        }
        if r.players != head.players {
            return differs(
                "player count",
                head.players.to_string(),
                r.players.to_string(),
            );
        }
        if r.agents != head.agents {
            return differs("agent list", head.agents.join(","), r.agents.join(","));
        }
        if r.seed != head.seed {
            return differs("seed", head.seed.to_string(), r.seed.to_string());
        }
        if r.total_games != head.total_games {
            return differs(
                "total number of games",
                head.total_games.to_string(),
                r.total_games.to_string(),
            );
        }
    }
    let total = head.total_games;
    let mut owner: Vec<Option<usize>> = vec![None; total];
    let mut records: Vec<GameRecord> = Vec::with_capacity(total);
    for (k, (name, r)) in parts.iter().enumerate() {
        for g in &r.games {
            if g.game >= total {
                return Err(format!(
                    "`{name}` holds game {}, but the run has only {total} games",
                    g.game
                ));
            }
            if g.seed != game_seed(head.seed, g.game) {
                return Err(format!(
                    "`{name}`: game {} has seed {}, not the seed {} the run seed gives it",
                    g.game,
                    g.seed,
                    game_seed(head.seed, g.game)
                ));
            }
            if let Some(other) = owner[g.game] {
                let where_ = if other == k {
                    format!("twice in `{name}`")
                } else {
                    format!("in both `{}` and `{name}`", parts[other].0)
                };
                return Err(format!("game {} is {where_}: the shards overlap", g.game));
            }
            owner[g.game] = Some(k);
            records.push(g.clone());
        }
    }
    let missing: Vec<Range<usize>> = gaps(&owner);
    if !missing.is_empty() {
        let shown: Vec<String> = missing
            .iter()
            .take(5)
            .map(|r| {
                if r.len() == 1 {
                    format!("{}", r.start)
                } else {
                    format!("{}-{}", r.start, r.end - 1)
                }
            })
            .collect();
        let n: usize = missing.iter().map(|r| r.len()).sum();
        return Err(format!(
            "{n} of the run's {total} games are in no file (games {}{}): a shard is missing",
            shown.join(", "),
            if missing.len() > 5 { ", ..." } else { "" }
        ));
    }
    records.sort_by_key(|g| g.game);
    Ok(Report {
        ruleset: head.ruleset.clone(),
        name: head.name.clone(),
        variants: head.variants.clone(),
        players: head.players,
        seats: head.seats.clone(),
        agents: head.agents.clone(),
        seed: head.seed,
        total_games: total,
        shard: None,
        summary: Summary::of(head.players, &records),
        games: records,
    })
}

/// The runs of indices with no owner.
fn gaps(owner: &[Option<usize>]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for (i, o) in owner.iter().enumerate() {
        if o.is_none() {
            match out.last_mut() {
                Some(r) if r.end == i => r.end = i + 1,
                _ => out.push(i..i + 1),
            }
        }
    }
    out
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

    fn rec(game: usize, winners: Vec<usize>, scores: Vec<i64>, first: Option<usize>) -> GameRecord {
        GameRecord {
            game,
            seed: game_seed(0, game),
            scores,
            winners,
            decisions: 4,
            rounds: Some(2),
            first,
        }
    }

    #[test]
    fn shared_wins_are_split() {
        let s = Summary::of(
            2,
            &[
                rec(0, vec![0, 1], vec![5, 5], Some(0)),
                rec(1, vec![0], vec![10, 0], Some(1)),
            ],
        );
        let rates: Vec<f64> = s.seats.iter().map(|x| x.win_rate).collect();
        assert_eq!(rates, vec![0.75, 0.25]);
        let means: Vec<f64> = s
            .seats
            .iter()
            .map(|x| x.score.as_ref().unwrap().mean)
            .collect();
        assert_eq!(means, vec![7.5, 2.5]);
        assert!((s.seats[0].score.as_ref().unwrap().sd - 12.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(s.decisions.as_ref().unwrap().mean, 4.0);
        // First movers: seat 0 shared a win (0.5), seat 1 lost.
        assert_eq!(s.first_player.games, 2);
        assert_eq!(s.first_player.win_rate, 0.25);
        assert_eq!(s.first_player.by_seat[0].games, 1);
        assert_eq!(s.first_player.by_seat[0].win_rate, 0.5);
        assert_eq!(s.first_player.fair_share, 0.5);
    }

    #[test]
    fn shards_cover_the_run_exactly() {
        for games in [0usize, 1, 7, 100, 1001] {
            for count in 1..=7 {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard { index, count }.range(games);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "a/2", "3", "1/2/3", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::parse("0/4").unwrap_err().contains("counts from 1"));
    }

    #[test]
    fn gaps_are_runs() {
        let o = [Some(0), None, None, Some(1), None];
        assert_eq!(gaps(&o), vec![1..3, 4..5]);
    }
}

//! Simulation: many games, statistics, reports.
//!
//! Each game is independent: its seed is derived from the run seed and the
//! game's index ([`game_seed`]), and the bots' seeds from the game seed
//! ([`agent_seed`]), so any game of a run can be replayed on its own and the
//! games are played in parallel ([`run`], on a rayon pool) with the same
//! result for any number of threads: records are kept in game order and
//! every statistic is computed from them in that order.
//!
//! [`run_stream`] hands the records over in game order as the games end,
//! so that a run of any length is summed up ([`Tally`]) and written
//! (`stream`) in memory that does not grow with it. A game that has not
//! ended after the decision limit ([`SimConfig::max_decisions`]) is given
//! up and recorded as unfinished, with its seed; the run goes on.
//!
//! A run may be split into shards ([`Shard`]), contiguous slices of the
//! game indices, played anywhere and joined by [`merge`]; the merged report
//! is identical to the report of the whole run.

pub mod compare;
pub mod compare_html;
pub mod csv;
pub mod html;
mod html_parts;
mod play;
mod shard;
pub(crate) mod stats;
pub(crate) mod stream;
mod summary;
pub mod sweep;
pub mod sweep_html;
pub(crate) mod tally;
pub(crate) mod validate;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::agents::AgentSpec;
use crate::ir::ruleset::Ruleset;

pub use play::{
    agent_seed, build_agents, game_seed, play_game, play_one, play_recorded, play_until,
    render_error, run, run_stream, simulate_one, splitmix64, Ending, GameFailed,
};
pub use shard::{merge, MergeError, Shard, ShardError, ShardProblem};
pub use stats::{Stats, Test};
pub use summary::{
    is_draw, win_share, FirstPlayer, FirstSeat, MetricSummary, SeatSummary, Summary,
    UnfinishedGames,
};
pub use tally::Tally;

/// The default decision limit: games that have not ended after this many
/// decisions are given up as unfinished (a rules mistake that loops
/// forever, or bots that never end the game).
pub const MAX_DECISIONS: usize = 1_000_000;

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
    /// Decisions after which a game is given up as unfinished.
    pub max_decisions: usize,
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
            max_decisions: MAX_DECISIONS,
        }
    }

    /// The game indices this configuration plays.
    pub fn range(&self) -> std::ops::Range<usize> {
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
    /// The game was given up after the decision limit: it has no scores
    /// and no winners, and the statistics leave it out.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unfinished: bool,
    /// Why the game ended: the first of the rules' named endings
    /// (`ending "reason" when ...;`) that holds, or [`UNFINISHED`] for a
    /// game given up (absent when the rules name no ending that holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    /// The rules' metrics (`metric ...;`) at the end of the game, by name
    /// (absent for a game given up).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metrics: BTreeMap<String, MetricValue>,
}

/// The ending of a game given up after the decision limit.
pub const UNFINISHED: &str = "unfinished";

/// A metric's value in one game.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum MetricValue {
    /// A per-game metric (`metric name = e;`).
    Game(i64),
    /// A per-seat metric (`metric name(p) = e;`): one value per seat.
    Seats(Vec<i64>),
}

impl MetricValue {
    /// The values: one per seat, or the single per-game value.
    pub fn values(&self) -> &[i64] {
        match self {
            MetricValue::Game(v) => std::slice::from_ref(v),
            MetricValue::Seats(v) => v,
        }
    }
}

/// A metric a ruleset declares: its name and whether it is per seat.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MetricSpec {
    /// Its name.
    pub name: String,
    /// One value per seat (else one per game).
    pub per_seat: bool,
}

/// The metrics `rules` declares, by name (the order of every report).
pub fn metric_specs(rules: &Ruleset) -> Vec<MetricSpec> {
    let mut specs: Vec<MetricSpec> = rules
        .metrics
        .iter()
        .map(|m| MetricSpec {
            name: m.name.clone(),
            per_seat: m.per_seat,
        })
        .collect();
    specs.sort_by(|a, b| a.name.cmp(&b.name));
    specs
}

/// The parameters a ruleset was loaded with from outside (`--set`), by
/// name; the last of several values for one name is the one applied.
pub fn overrides(rules: &Ruleset) -> std::collections::BTreeMap<String, String> {
    rules.overrides.iter().cloned().collect()
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

fn default_limit() -> usize {
    MAX_DECISIONS
}

fn is_default_limit(n: &usize) -> bool {
    *n == MAX_DECISIONS
}

/// The JSON report of a run (or of one shard): identical for identical
/// arguments, whatever the number of threads.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// The ruleset's id.
    pub ruleset: String,
    /// The game's display name.
    pub name: String,
    /// Variants applied (names, or paths as given).
    pub variants: Vec<String>,
    /// Parameters set from outside (`--set NAME=VALUE`), by name (absent
    /// when none).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub set: std::collections::BTreeMap<String, String>,
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
    /// The decision limit of the run (absent when it is the default,
    /// [`MAX_DECISIONS`]).
    #[serde(default = "default_limit", skip_serializing_if = "is_default_limit")]
    pub max_decisions: usize,
    /// The metrics the ruleset declares, by name (the CSV's columns).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<MetricSpec>,
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
            set: overrides(rules),
            players: cfg.players,
            seats,
            agents: cfg.agents.iter().map(|a| a.to_string()).collect(),
            seed: cfg.seed,
            total_games: cfg.games,
            shard: cfg.shard,
            max_decisions: cfg.max_decisions,
            metrics: metric_specs(rules),
            summary: Summary::of(cfg.players, &records),
            games: records,
        }
    }

    /// The report of a run whose games are written apart (see
    /// `stream::JsonWriter`): `summary` and no games.
    pub fn head(rules: &Ruleset, cfg: &SimConfig, seats: Vec<String>, summary: Summary) -> Report {
        Report {
            ruleset: rules.id.clone(),
            name: rules.name.clone(),
            variants: rules.variants.clone(),
            set: overrides(rules),
            players: cfg.players,
            seats,
            agents: cfg.agents.iter().map(|a| a.to_string()).collect(),
            seed: cfg.seed,
            total_games: cfg.games,
            shard: cfg.shard,
            max_decisions: cfg.max_decisions,
            metrics: metric_specs(rules),
            summary,
            games: Vec::new(),
        }
    }

    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }
}

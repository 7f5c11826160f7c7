//! Game logs: seed plus decisions, saved as JSON, replayed bit for bit.

use serde::{Deserialize, Serialize};

/// A saved game.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameLog {
    /// The ruleset's id (its directory name).
    pub ruleset: String,
    /// Variants applied, in order: names of files of the ruleset's
    /// `variants/`, or paths to variant files as they were given.
    #[serde(default)]
    pub variants: Vec<String>,
    /// The hash of each variant file's text, in the order of `variants`
    /// (absent in older logs): `replay` reads a variant given by a path
    /// only when its text still has this hash.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variant_hashes: Vec<String>,
    /// Parameters set from outside (`--set NAME=VALUE`), by name.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub set: std::collections::BTreeMap<String, String>,
    /// Seated players.
    pub players: usize,
    /// The seed of the random generator.
    pub seed: u64,
    /// The decisions, by name, in order.
    pub decisions: Vec<String>,
    /// The final score keys per seat, if the game ended.
    #[serde(default)]
    pub result: Option<Vec<Vec<i64>>>,
    /// A hash of the final state, checked on replay.
    #[serde(default)]
    pub state_hash: Option<String>,
}

impl GameLog {
    /// The log of a game so far.
    pub fn of(game: &mut crate::engine::Game) -> GameLog {
        let result = game.outcome().ok().flatten().map(|o| o.keys);
        GameLog {
            ruleset: game.rules().id.clone(),
            variants: game.rules().variants.clone(),
            variant_hashes: game.rules().variant_hashes.clone(),
            set: game.rules().overrides.iter().cloned().collect(),
            players: game.players(),
            seed: game.seed(),
            decisions: game.history().iter().map(|d| d.to_string()).collect(),
            result,
            state_hash: Some(format!("{:016x}", game.state().hash())),
        }
    }
}

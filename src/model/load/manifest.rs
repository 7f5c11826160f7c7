//! The manifests, read with serde: `game.yaml` (what the ruleset is and
//! which files make it) and `variants/<name>.yaml` (an overlay on it).

use marked_yaml::Spanned;
use serde::Deserialize;

/// `game.yaml`: what the ruleset is and which files make it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// Display name.
    pub name: Spanned<String>,
    /// Player counts.
    pub players: Spanned<PlayerRange>,
    /// Seat names (default `p1`, `p2`, ...).
    #[serde(default)]
    pub seats: Vec<Spanned<String>>,
    /// Files to load, in order (default: every `*.yaml` then every `*.rules`
    /// beside `game.yaml`, sorted by name).
    #[serde(default)]
    pub files: Option<Vec<Spanned<String>>>,
    /// The state variable counting rounds, reported by simulations.
    #[serde(default)]
    pub rounds: Option<Spanned<String>>,
    /// The state variable holding the player who starts the game (read
    /// by simulations once the setup has run).
    #[serde(default)]
    pub first_player: Option<Spanned<String>>,
    /// One paragraph about the game.
    #[serde(default)]
    pub description: Option<String>,
    /// Variants applied by themselves to a game of a given player count:
    /// `{2: [two-player]}`.
    #[serde(default)]
    pub variants_by_players: std::collections::BTreeMap<usize, Vec<Spanned<String>>>,
}

/// `players: {min: 2, max: 4}`.
#[derive(Debug, Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct PlayerRange {
    /// Fewest players.
    pub min: usize,
    /// Most players.
    pub max: usize,
}

/// A variant overlay: `variants/<name>.yaml`, or a file anywhere given by
/// its path. Besides its own keys it may hold what a data file holds
/// (`params:`, `kinds:`, `doc:`), read as a data file after its `files:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// One paragraph about the variant.
    #[serde(default)]
    pub description: Option<String>,
    /// Data and rules files (relative to the variant file) that add to or
    /// replace parts of the base ruleset: a `var`, `fn` or `proc` with an
    /// existing name replaces it; a kind item with an existing id replaces it.
    #[serde(default)]
    pub files: Vec<Spanned<String>>,
    /// Items the variant takes out of the game, by kind: `{kind: [id, ...]}`.
    #[serde(default)]
    pub remove: std::collections::BTreeMap<String, Vec<Spanned<String>>>,
    /// Parameters set by the variant itself (read as a data file's).
    #[serde(default)]
    pub params: Option<serde::de::IgnoredAny>,
    /// Kinds and items added or replaced by the variant itself.
    #[serde(default)]
    pub kinds: Option<serde::de::IgnoredAny>,
    /// A note, as in a data file.
    #[serde(default)]
    pub doc: Option<serde::de::IgnoredAny>,
}

impl VariantFile {
    /// Whether the file holds data sections of its own.
    pub fn has_data(&self) -> bool {
        self.params.is_some() || self.kinds.is_some()
    }
}

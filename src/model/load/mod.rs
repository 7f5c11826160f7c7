//! Loading a ruleset, phase by phase: read every file (`files.rs`), build
//! the kinds and their items (`kinds.rs`, `grids.rs`) and the parameters
//! (`params.rs`), declare the rules' items (`declare.rs`), type the kinds'
//! fields and read the items' data (`fields.rs`, `values.rs`), lay out the
//! state (`layout.rs`), compile every body (`bodies.rs`) and assemble the
//! [`Ruleset`] (`assemble.rs`). `yaml.rs` and `manifest.rs` read YAML.

mod assemble;
mod bodies;
mod builder;
mod by_players;
mod declare;
mod fields;
mod files;
mod grids;
mod items;
mod kinds;
mod layout;
pub mod manifest;
mod measures;
mod overrides;
mod params;
mod read;
mod sure;
mod untried;
mod values;
mod variant;
mod view;
pub mod yaml;

use std::path::Path;

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostics;
use crate::ir::ruleset::Ruleset;

use builder::Builder;

pub use by_players::{load_for_players, load_for_players_with, with_players};
pub use files::{find_ruleset, ruleset_places, syntax_diag};
pub use read::MAX_FILE_BYTES;
pub use variant::{is_variant_path, list_variants, variant_hash};

/// Reads a file as a ruleset's files are read (a regular file, at most
/// [`MAX_FILE_BYTES`], UTF-8), or says why not.
pub fn read_file_text(path: &Path) -> Result<String, String> {
    read::read_text(path).map_err(|p| p.explain(&path.display().to_string()).0)
}
pub use view::{attach as attach_view, VIEW_FILE, VIEW_FUNCTION};

/// Why a ruleset could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A path given on the command line does not exist or is not a
    /// ruleset, or a variant asked for does not exist.
    #[error("{message}")]
    NotFound {
        /// What is missing (`missing_file` or `unknown_variant`).
        code: Code,
        /// What is missing.
        message: String,
        /// What to do.
        help: String,
    },
    /// The files were read but contain mistakes.
    #[error("the ruleset has {} error(s)", .0.items.len())]
    Invalid(Diagnostics),
}

/// Rendered by miette with its code and help.
impl miette::Diagnostic for LoadError {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        match self {
            LoadError::NotFound { code, .. } => Some(Box::new(code)),
            LoadError::Invalid(_) => None,
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        match self {
            LoadError::NotFound { help, .. } => Some(Box::new(help)),
            LoadError::Invalid(_) => None,
        }
    }
}

/// Loads and checks the ruleset in `dir`, applying `variants` in order.
pub fn load(dir: &Path, variants: &[String]) -> Result<Ruleset, LoadError> {
    load_with(dir, variants, &[])
}

/// Loads and checks the ruleset in `dir`, applying `variants` in order
/// (each a name of a file of its `variants/`, or a path: see
/// [`is_variant_path`]), then setting the parameters of `set` (`NAME`,
/// `VALUE` as YAML), each checked against the parameter it replaces.
pub fn load_with(
    dir: &Path,
    variants: &[String],
    set: &[(String, String)],
) -> Result<Ruleset, LoadError> {
    let (src, diags) = files::read_sources(dir, variants, set)?;
    let mut b = Builder::new(diags);
    let variants_by_players = by_players::read(&src.game, dir, &mut b.diags);
    b.player_kind(&src.game);
    let raw = b.collect_kinds(&src.datas, &src.removals);
    b.collect_params(&src.datas);
    b.apply_overrides(&src.overrides);
    b.declare_rules(&src.rules);
    b.kind_fields(&raw);
    b.layout_vars(&src.rules);
    let out = b.assemble(&src.rules, &src.game);
    match out {
        Some(mut r) if b.diags.is_empty() => {
            let game = &src.game.manifest;
            r.id = ruleset_id(dir);
            r.variants = variants.to_vec();
            r.variant_hashes = src.variant_hashes.clone();
            r.overrides = set.to_vec();
            r.name = game.name.to_string();
            r.min_players = game.players.min;
            r.max_players = game.players.max;
            r.variants_by_players = variants_by_players;
            r.sources = b.diags.sources;
            Ok(r)
        }
        _ => Err(LoadError::Invalid(b.diags)),
    }
}

/// A ruleset's id: the name of its directory.
fn ruleset_id(dir: &Path) -> String {
    dir.canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
        .unwrap_or_else(|| "ruleset".into())
}

//! `variants_by_players:` in `game.yaml`: variants a game of a given
//! player count is played with, whether or not they are asked for (the
//! two-player rules of a game, written as an overlay).

use std::path::Path;

use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::Ruleset;

use super::files::GameSource;
use super::variant::list_variants;
use super::{load_with, LoadError};

/// Checks `variants_by_players:` (counts the game allows, variants the
/// ruleset offers) and returns it by player count.
pub(super) fn read(
    game: &GameSource,
    dir: &Path,
    diags: &mut Diagnostics,
) -> Vec<(usize, Vec<String>)> {
    let m = &game.manifest;
    let known = list_variants(dir);
    let mut out = Vec::new();
    for (&players, names) in &m.variants_by_players {
        let span = |n: &marked_yaml::Spanned<String>| game.span(n.span());
        if !(m.players.min..=m.players.max).contains(&players) {
            let at = names.first().map_or(Default::default(), span);
            diags.push(
                Diagnostic::new(
                    Code::BadPlayerCount,
                    at,
                    format!(
                        "variants for {players} players, but the game is for {} to {}",
                        m.players.min, m.players.max
                    ),
                )
                .label("never applied")
                .help("key `variants_by_players:` by a player count within `players:`"),
            );
        }
        for n in names
            .iter()
            .filter(|n| !known.iter().any(|k| k == n.as_str()))
        {
            diags.push(
                Diagnostic::new(
                    Code::UnknownVariant,
                    span(n),
                    format!("no variant `{}` in this ruleset", n.as_str()),
                )
                .label("not in variants/")
                .help(format!(
                    "the variants are the files of `variants/`: {}",
                    known.join(", ")
                )),
            );
        }
        out.push((players, names.iter().map(|n| n.to_string()).collect()));
    }
    out
}

/// Loads the ruleset in `dir` for a game of `players`: first the variants
/// its `game.yaml` names for that count (`variants_by_players:`), then
/// `variants`.
pub fn load_for_players(
    dir: &Path,
    variants: &[String],
    players: usize,
) -> Result<Ruleset, LoadError> {
    load_for_players_with(dir, variants, &[], players)
}

/// [`load_for_players`] with parameters set from outside (see
/// [`super::load_with`]).
pub fn load_for_players_with(
    dir: &Path,
    variants: &[String],
    set: &[(String, String)],
    players: usize,
) -> Result<Ruleset, LoadError> {
    let rules = load_with(dir, variants, set)?;
    with_players(rules, dir, players)
}

/// `rules` for a game of `players`: itself, or loaded again with the
/// variants that count needs (`variants_by_players:`) before its own.
pub fn with_players(rules: Ruleset, dir: &Path, players: usize) -> Result<Ruleset, LoadError> {
    let mut needed = rules.missing_variants(players);
    if needed.is_empty() {
        return Ok(rules);
    }
    needed.extend(rules.variants.iter().cloned());
    let mut again = load_with(dir, &needed, &rules.overrides)?;
    again.check_legal = rules.check_legal;
    Ok(again)
}

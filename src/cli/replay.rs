//! `tabula replay`: replay a saved game and verify it.
//!
//! A log may come from anyone: it is read with limits (its size), its
//! `ruleset` and `variants` are held to the places a file may name (see
//! [`crate::scenario::origin`]), and every mistake is a diagnostic at its
//! line and column in the log. A log that would verify nothing (no
//! `result` or no `state_hash`) is refused unless `--unverified` is given.

use std::ops::Range;
use std::path::Path;

use miette::{LabeledSpan, NamedSource, SourceSpan};

use super::jsonpos::{element_of, value_of};
use super::{eprint_error, eprint_report, load_dir, seat_names, CmdResult, Failed};
use crate::engine::{ApplyError, Game, GameLog};
use crate::ir::codes::Code;
use crate::scenario::origin::{ruleset_in_file, variant_in_file};

/// The largest log read, in bytes (a log of a million decisions is far
/// smaller).
const MAX_LOG_BYTES: u64 = 256 << 20;

/// The byte offset of a 1-based line and column in `text`.
fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut off = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let c = col.saturating_sub(1).min(l.len());
            // Stay on a character boundary.
            let mut c = c;
            while c > 0 && !l.is_char_boundary(c) {
                c -= 1;
            }
            return off + c;
        }
        off += l.len();
    }
    text.len()
}

/// The 1-based line and column of byte `offset` of `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A log and where it was read from, for diagnostics that point into it.
struct Log<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Log<'_> {
    /// A diagnostic at `range` of the log: `path:line:col: message`.
    fn report(
        &self,
        code: Code,
        range: Range<usize>,
        message: &str,
        label: &str,
        help: &str,
    ) -> miette::Report {
        let start = if range.start >= self.text.len() {
            self.text.len().saturating_sub(1)
        } else {
            range.start
        };
        let len = range
            .end
            .saturating_sub(start)
            .max(usize::from(start < self.text.len()));
        let (line, col) = line_col(self.text, start);
        let diag = miette::MietteDiagnostic::new(format!(
            "{}:{line}:{col}: {message}",
            self.path.display()
        ))
        .with_code(code.to_string())
        .with_labels(vec![LabeledSpan::new_primary_with_span(
            Some(label.to_string()),
            SourceSpan::new(start.into(), len),
        )])
        .with_help(help);
        miette::Report::new(diag).with_source_code(NamedSource::new(
            self.path.display().to_string(),
            self.text.to_string(),
        ))
    }

    /// Prints a diagnostic at the value of the top-level `key` (or at the
    /// start of the log) and fails.
    fn fail_at_key(&self, code: Code, key: &str, message: &str, label: &str, help: &str) -> Failed {
        let range = value_of(self.text, key).unwrap_or(0..1);
        eprint_report(&self.report(code, range, message, label, help));
        Failed
    }

    /// A diagnostic for a log that is not valid JSON or not a game log.
    fn serde_report(&self, e: &serde_json::Error) -> miette::Report {
        let full = e.to_string();
        let message = match full.rfind(" at line ") {
            Some(i) => full[..i].to_string(),
            None => full,
        };
        let start = offset_of(self.text, e.line(), e.column());
        let (code, what) = match e.classify() {
            serde_json::error::Category::Data => (Code::LogInvalid, "not a valid game log"),
            serde_json::error::Category::Eof => (Code::LogSyntax, "the log ends too early"),
            _ => (Code::LogSyntax, "not valid JSON"),
        };
        self.report(
            code,
            start..start + 1,
            &format!("{what}: {message}"),
            &message,
            "a game log is the JSON written by `tabula play --log`: \
             {ruleset, variants, players, seed, decisions, result, state_hash}",
        )
    }
}

/// Reads the log, refusing one too large to be a game log.
fn read_log(path: &Path) -> Result<String, Failed> {
    crate::scenario::origin::read_limited(path, MAX_LOG_BYTES, "a game log").map_err(|e| {
        eprint_error(e);
        Failed
    })
}

/// Scores or result keys per seat, as `p1 10, p2 0` (`p1 10/2` with
/// tie-break keys).
fn show_result(result: &[Vec<i64>], names: &[String]) -> String {
    if result.is_empty() {
        return "no scores".into();
    }
    result
        .iter()
        .enumerate()
        .map(|(p, keys)| {
            let name = names.get(p).cloned().unwrap_or_else(|| format!("seat {p}"));
            let k: Vec<String> = keys.iter().map(i64::to_string).collect();
            format!("{name} {}", k.join("/"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn run(
    path: &Path,
    ruleset: Option<&str>,
    unverified: bool,
    html: Option<&Path>,
) -> CmdResult {
    let text = read_log(path)?;
    let log_file = Log { path, text: &text };
    let log: GameLog = serde_json::from_str(&text).map_err(|e| {
        eprint_report(&log_file.serde_report(&e));
        Failed
    })?;
    check_verifiable(&log_file, unverified)?;
    let dir = match ruleset {
        Some(r) => crate::model::find_ruleset(r),
        None => ruleset_in_file(&log.ruleset).map_err(|e| {
            log_file.fail_at_key(
                Code::PathOutside,
                "ruleset",
                &e.to_string(),
                "not a place a ruleset may come from",
                &e.help("tabula replay LOG"),
            )
        })?,
    };
    let variants = log_variants(&log_file, &log)?;
    let set: Vec<(String, String)> = log.set.clone().into_iter().collect();
    let rules = load_dir(&dir, &variants, &set)?;
    if log.players < rules.min_players || log.players > rules.max_players {
        return Err(log_file.fail_at_key(
            Code::LogMismatch,
            "players",
            &format!(
                "the log has {} players but {} is played by {} to {}",
                log.players, rules.name, rules.min_players, rules.max_players
            ),
            "not a player count of this ruleset",
            "the log is not of this ruleset, or it was edited",
        ));
    }
    let names = seat_names(&rules, log.players);
    let mut game = Game::new(rules.clone(), log.players, log.seed).map_err(|e| {
        match &e {
            ApplyError::Runtime(r) => esay!("{}", crate::engine::view::report(&rules, r)),
            other => eprint_error(other),
        }
        Failed
    })?;
    replay_decisions(&log_file, &log, &mut game, &names)?;
    verify(&log_file, &log, &mut game, &names)?;
    if let Some(out) = html {
        let rules = super::with_view(rules.clone(), &dir)?;
        super::replay_html::write(&rules, &log, &names, out)?;
    }
    let scores = match game.outcome().map_err(|e| engine_error(&game, &e))? {
        Some(o) => o
            .scores()
            .iter()
            .enumerate()
            .map(|(p, s)| format!("{} {s}", names[p]))
            .collect::<Vec<_>>()
            .join(", "),
        None => "none (the game is not over)".into(),
    };
    let n = log.decisions.len();
    sayln!(
        "replay ok: {n} decision{}, scores {scores}{}; {}; {}",
        if n == 1 { "" } else { "s" },
        if unverified && (value_of(&text, "result").is_none() || log.state_hash.is_none()) {
            " (not verified: the log has no result or state hash)"
        } else {
            ""
        },
        super::applied::describe(&rules),
        super::applied::loaded_from(&dir)
    );
    Ok(())
}

/// The log's variants, checked: a name must be a plain file name (of the
/// ruleset's `variants/`); a path is looked for as written (from the
/// current directory), then beside the log, and read only when its text
/// has the hash the log records (so a log cannot make `replay` read, and
/// quote, a file of its choosing). Returns the variants to load.
fn log_variants(file: &Log, log: &GameLog) -> Result<Vec<String>, Failed> {
    let mut out = Vec::new();
    for (i, v) in log.variants.iter().enumerate() {
        let range = || element_of(file.text, "variants", i).unwrap_or(0..1);
        if !crate::model::load::is_variant_path(v) {
            if let Err(e) = variant_in_file(v) {
                eprint_report(&file.report(
                    Code::PathOutside,
                    range(),
                    &e.to_string(),
                    "not a variant name",
                    &e.help(""),
                ));
                return Err(Failed);
            }
            out.push(v.clone());
            continue;
        }
        let Some(want) = log.variant_hashes.get(i) else {
            eprint_report(&file.report(
                Code::LogInvalid,
                range(),
                &format!("the variant file `{v}` has no hash in the log's `variant_hashes`"),
                "a variant given by a path",
                "a log names a variant file by path only with the hash of its text, as \
                 `tabula play --log` writes it",
            ));
            return Err(Failed);
        };
        out.push(find_variant_file(file, v, want, range())?);
    }
    Ok(out)
}

/// Finds the variant file `v` a log names (with the hash `want`): as
/// written, then beside the log (its path, then its file name).
fn find_variant_file(
    file: &Log,
    v: &str,
    want: &str,
    range: Range<usize>,
) -> Result<String, Failed> {
    let given = Path::new(v);
    let beside = file.path.parent().unwrap_or(Path::new("."));
    let mut places = vec![given.to_path_buf()];
    if given.is_relative() {
        places.push(beside.join(given));
    }
    if let Some(name) = given.file_name() {
        places.push(beside.join(name));
    }
    places.dedup();
    let mut changed = None;
    for place in &places {
        let Ok(text) = crate::model::load::read_file_text(place) else {
            continue;
        };
        if crate::model::load::variant_hash(&text) == want {
            return Ok(place.display().to_string());
        }
        changed.get_or_insert(place.clone());
    }
    let shown: Vec<String> = places
        .iter()
        .map(|p| format!("`{}`", p.display()))
        .collect();
    let (message, help) = match changed {
        Some(p) => (
            format!(
                "the variant file `{}` has changed since the log was written (its text no \
                 longer has the hash {want})",
                p.display()
            ),
            "restore the variant file the game was played with",
        ),
        None => (
            format!(
                "the variant file `{v}` the log was played with can no longer be found (looked \
                 at {})",
                shown.join(", ")
            ),
            "put the variant file back where it was, or beside the log",
        ),
    };
    eprint_report(&file.report(
        Code::LogMismatch,
        range,
        &message,
        "a variant file of the game",
        help,
    ));
    Err(Failed)
}

/// Refuses a log that would verify nothing: one without `result` (the key;
/// `null` says the game was not over) or without `state_hash`, unless
/// `unverified`.
fn check_verifiable(log: &Log, unverified: bool) -> CmdResult {
    if unverified {
        return Ok(());
    }
    // `"result": null` says the game was not over; a null hash says nothing.
    let has =
        |k: &str| value_of(log.text, k).is_some_and(|r| k == "result" || &log.text[r] != "null");
    let what = match (has("result"), has("state_hash")) {
        (true, true) => return Ok(()),
        (false, true) => "no `result`",
        (true, false) => "no `state_hash`",
        (false, false) => "neither `result` nor `state_hash`",
    };
    eprint_report(&log.report(
        Code::LogUnverifiable,
        0..1,
        &format!("the log has {what}: replaying it would not verify its end"),
        "the game log starts here",
        "logs written by `tabula play --log` hold both; to replay a log written by hand \
         anyway, without verifying its end, add --unverified",
    ));
    Err(Failed)
}

fn engine_error(game: &Game, e: &ApplyError) -> Failed {
    match e {
        ApplyError::Runtime(r) => esay!("{}", game.report(r)),
        other => eprint_error(other),
    }
    Failed
}

/// Replays every decision of the log; a decision that cannot be replayed
/// is a diagnostic at its place in the log.
fn replay_decisions(file: &Log, log: &GameLog, game: &mut Game, names: &[String]) -> CmdResult {
    let at = |i: usize| element_of(file.text, "decisions", i).unwrap_or(0..1);
    for (i, d) in log.decisions.iter().enumerate() {
        if game.is_over() {
            eprint_report(&file.report(
                Code::LogMismatch,
                at(i),
                &format!(
                    "decision {} (`{d}`): the game is already over after {i} decisions, but the log has {}",
                    i + 1,
                    log.decisions.len()
                ),
                "one decision too many",
                "the log does not belong to this ruleset, seed and player count, or it was edited",
            ));
            return Err(Failed);
        }
        let legal = game.legal().map_err(|e| engine_error(game, &e))?;
        if let Err(e) = game.apply_named(d) {
            if let ApplyError::Runtime(r) = &e {
                esay!("{}", game.report(r));
            }
            let who = game
                .to_move()
                .and_then(|p| names.get(p).cloned())
                .unwrap_or_else(|| "?".into());
            let options: Vec<&str> = legal.iter().map(|d| &*d.name).collect();
            let legal_line = match e {
                ApplyError::Unknown { .. } => String::new(),
                _ => format!("; the legal decisions are: {}", options.join(", ")),
            };
            eprint_report(&file.report(
                Code::LogMismatch,
                at(i),
                &format!(
                    "decision {} (`{d}`, by {who}{}) cannot be replayed: {e}{legal_line}",
                    i + 1,
                    game.prompt()
                        .map(|p| format!(", at \"{p}\""))
                        .unwrap_or_default(),
                ),
                "not a decision open here",
                "the log does not belong to this ruleset, seed and player count, or it was edited",
            ));
            return Err(Failed);
        }
    }
    Ok(())
}

/// Checks the end of the replay against the log's `result` and
/// `state_hash` (those it has).
fn verify(file: &Log, log: &GameLog, game: &mut Game, names: &[String]) -> CmdResult {
    let now = GameLog::of(game);
    let n = log.decisions.len();
    let has_result = value_of(file.text, "result").is_some();
    let help = "the log does not belong to this ruleset, seed and player count, or it was edited";
    match (&log.result, &now.result) {
        _ if !has_result => {}
        (Some(want), None) => {
            let waiting = match (game.to_move().and_then(|p| names.get(p)), game.prompt()) {
                (Some(who), Some(p)) => format!(": {who} is to decide \"{p}\""),
                _ => String::new(),
            };
            return Err(file.fail_at_key(
                Code::LogMismatch,
                "result",
                &format!(
                    "the log ends after {n} decisions, but the game is not over{waiting}; \
                     the log says it ended with {}",
                    show_result(want, names)
                ),
                "a result the replay does not reach",
                "decisions are missing from the log",
            ));
        }
        (None, Some(got)) => {
            return Err(file.fail_at_key(
                Code::LogMismatch,
                "result",
                &format!(
                    "the log says the game is not over, but after its {n} decisions it is, with {}",
                    show_result(got, names)
                ),
                "the replay's game is over",
                help,
            ));
        }
        (Some(want), Some(got)) if want != got => {
            return Err(file.fail_at_key(
                Code::LogMismatch,
                "result",
                &format!(
                    "the result differs: the log says {}, the replay gives {}",
                    show_result(want, names),
                    show_result(got, names)
                ),
                "not the replay's result",
                help,
            ));
        }
        _ => {}
    }
    if let Some(h) = &log.state_hash {
        if now.state_hash.as_ref() != Some(h) {
            return Err(file.fail_at_key(
                Code::LogMismatch,
                "state_hash",
                &format!(
                    "the final state differs: the log's state hash is {h}, the replay's is {}",
                    now.state_hash.as_deref().unwrap_or("")
                ),
                "not the replay's final state",
                help,
            ));
        }
    }
    Ok(())
}

//! `tabula replay`: replay a saved game and verify it.

use std::path::Path;

use miette::{LabeledSpan, NamedSource, SourceSpan};

use super::{eprint_error, eprint_report, load_named, seat_names, CmdResult, Failed};
use crate::engine::{ApplyError, Game, GameLog};
use crate::ir::codes::Code;

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

/// A diagnostic for a log that is not valid JSON or not a game log.
fn log_diagnostic(path: &Path, text: &str, e: &serde_json::Error) -> miette::Report {
    let (line, col) = (e.line(), e.column());
    let full = e.to_string();
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    let start = offset_of(text, line, col);
    // At the end of the text, point at its last character.
    let start = if start >= text.len() {
        text.len().saturating_sub(1)
    } else {
        start
    };
    let len = usize::from(start < text.len());
    let (code, what) = match e.classify() {
        serde_json::error::Category::Data => (Code::LogInvalid, "not a valid game log"),
        serde_json::error::Category::Eof => (Code::LogSyntax, "the log ends too early"),
        _ => (Code::LogSyntax, "not valid JSON"),
    };
    let diag = miette::MietteDiagnostic::new(format!(
        "{}:{line}:{col}: {what}: {message}",
        path.display()
    ))
    .with_code(code.to_string())
    .with_labels(vec![LabeledSpan::new_primary_with_span(
        Some(message.clone()),
        SourceSpan::new(start.into(), len),
    )])
    .with_help(
        "a game log is the JSON written by `tabula play --log`: \
         {ruleset, variants, players, seed, decisions, result, state_hash}",
    );
    miette::Report::new(diag).with_source_code(NamedSource::new(
        path.display().to_string(),
        text.to_string(),
    ))
}

fn engine_error(game: &Game, e: &ApplyError) -> Failed {
    match e {
        ApplyError::Runtime(r) => eprint!("{}", game.report(r)),
        other => eprint_error(other),
    }
    Failed
}

pub(super) fn run(path: &Path, ruleset: Option<&str>) -> CmdResult {
    let text = std::fs::read_to_string(path).map_err(|e| {
        eprint_error(format!("cannot read `{}`: {e}", path.display()));
        Failed
    })?;
    let log: GameLog = serde_json::from_str(&text).map_err(|e| {
        eprint_report(&log_diagnostic(path, &text, &e));
        Failed
    })?;
    let rules = load_named(ruleset.unwrap_or(&log.ruleset), &log.variants)?;
    if log.players < rules.min_players || log.players > rules.max_players {
        eprint_error(format!(
            "the log has {} players but {} is played by {} to {}",
            log.players, rules.name, rules.min_players, rules.max_players
        ));
        return Err(Failed);
    }
    let names = seat_names(&rules, log.players);
    let mut game = Game::new(rules.clone(), log.players, log.seed).map_err(|e| {
        match &e {
            ApplyError::Runtime(r) => eprint!("{}", crate::engine::view::report(&rules, r)),
            other => eprint_error(other),
        }
        Failed
    })?;
    for (i, d) in log.decisions.iter().enumerate() {
        if game.is_over() {
            eprint_error(format!(
                "decision {} (`{d}`): the game is already over after {i} decisions, \
                 but the log has {}",
                i + 1,
                log.decisions.len()
            ));
            return Err(Failed);
        }
        let legal = game.legal().map_err(|e| engine_error(&game, &e))?;
        if let Err(e) = game.apply_named(d) {
            if let ApplyError::Runtime(r) = &e {
                eprint!("{}", game.report(r));
            }
            let who = game
                .to_move()
                .and_then(|p| names.get(p).cloned())
                .unwrap_or_else(|| "?".into());
            let options: Vec<&str> = legal.iter().map(|d| &*d.name).collect();
            let legal_line = match e {
                ApplyError::Unknown { .. } => String::new(),
                _ => format!("\n  the legal decisions are: {}", options.join(", ")),
            };
            eprint_error(format!(
                "decision {} (`{d}`, by {who}{}) cannot be replayed: {e}{legal_line}",
                i + 1,
                game.prompt()
                    .map(|p| format!(", at \"{p}\""))
                    .unwrap_or_default(),
            ));
            return Err(Failed);
        }
    }
    let now = GameLog::of(&mut game);
    if log.result.is_some() && now.result != log.result {
        eprint_error(format!(
            "the result differs: the log says {:?}, the replay gives {:?}",
            log.result, now.result
        ));
        return Err(Failed);
    }
    if log.state_hash.is_some() && now.state_hash != log.state_hash {
        eprint_error(format!(
            "the final state differs: the log's state hash is {}, the replay's is {}",
            log.state_hash.as_deref().unwrap_or(""),
            now.state_hash.as_deref().unwrap_or("")
        ));
        return Err(Failed);
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
    println!(
        "replay ok: {n} decision{}, scores {scores}",
        if n == 1 { "" } else { "s" }
    );
    Ok(())
}

//! Checks on a report read back from a file (a shard given to `tabula
//! merge`): it may have been edited, truncated or written by another
//! program, so every field the merge trusts is checked first.

use std::collections::HashSet;

use super::{GameRecord, MergeError, Report};

/// The most seats a report may describe (a ruleset has far fewer; the
/// bound keeps a corrupt count from sizing the statistics).
pub const MAX_SEATS: usize = 1024;

/// Checks that a report describes itself consistently: as many seats and
/// bots as players.
pub fn check_report(name: &str, r: &Report) -> Result<(), MergeError> {
    let bad = |problem: String| {
        Err(MergeError::BadReport {
            name: name.to_string(),
            problem,
        })
    };
    if r.players == 0 || r.players > MAX_SEATS {
        return bad(format!("it claims {} players", r.players));
    }
    if r.seats.len() != r.players {
        return bad(format!(
            "it names {} seats for {} players",
            r.seats.len(),
            r.players
        ));
    }
    if r.agents.len() != r.players {
        return bad(format!(
            "it names {} bots for {} players",
            r.agents.len(),
            r.players
        ));
    }
    if let Some(s) = r.shard {
        if s.count == 0 || s.index == 0 || s.index > s.count {
            return bad(format!(
                "its shard {}/{} is not one of a run",
                s.index, s.count
            ));
        }
    }
    Ok(())
}

/// Checks one game of a report of `players` seats: its scores (one per
/// seat; none if it was given up), winners (distinct seats) and first
/// player (a seat).
pub fn check_record(name: &str, players: usize, g: &GameRecord) -> Result<(), MergeError> {
    let bad = |problem: String| {
        Err(MergeError::BadRecord {
            name: name.to_string(),
            game: g.game,
            problem,
        })
    };
    if g.unfinished {
        if !g.scores.is_empty() || !g.winners.is_empty() {
            return bad("it is marked unfinished but has scores or winners".into());
        }
    } else if g.scores.len() != players {
        return bad(format!(
            "it has {} score{} for {players} players",
            g.scores.len(),
            if g.scores.len() == 1 { "" } else { "s" }
        ));
    }
    let mut seen = HashSet::new();
    for &w in &g.winners {
        if w >= players {
            return bad(format!(
                "its winner {w} is not a seat (seats are 0 to {})",
                players - 1
            ));
        }
        if !seen.insert(w) {
            return bad(format!("its winner {w} is listed twice"));
        }
    }
    if let Some(f) = g.first.filter(|f| *f >= players) {
        return bad(format!(
            "its first player {f} is not a seat (seats are 0 to {})",
            players - 1
        ));
    }
    Ok(())
}

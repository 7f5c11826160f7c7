//! `tabula compare`: the same games (same run seed, so the same game
//! seeds and bot seeds) under two rule sets, and what changed.
//!
//! Per seat, the change in win rate is tested with a two-proportion z-test
//! and the change in mean score with Welch's t-test; the game length and
//! the first player's win rate are compared the same way. Every p-value is
//! two-sided. The games are paired by seed, but the two rule sets usually
//! make them diverge at once, so the tests treat the samples as independent.

use serde::{Deserialize, Serialize};

use super::stats::{two_proportion, welch_counts, Test};
use super::tally::Tally;
use super::GameRecord;

/// One seat's change.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SeatChange {
    /// Win rate: baseline (`a`), variant (`b`), z-test.
    pub win_rate: Test,
    /// Mean score: baseline, variant, Welch's t-test.
    pub score: Test,
}

/// The comparison of two runs over the same seeds.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Comparison {
    /// The ruleset's id.
    pub ruleset: String,
    /// Variants of the baseline (`--against`).
    pub baseline: Vec<String>,
    /// Variants of the rule set under test (`--variant`).
    pub variant: Vec<String>,
    /// Seated players.
    pub players: usize,
    /// The seats' display names.
    pub seats: Vec<String>,
    /// The bot of each seat.
    pub agents: Vec<String>,
    /// The run seed.
    pub seed: u64,
    /// Games played under each rule set.
    pub games: usize,
    /// Per seat: what changed.
    pub changes: Vec<SeatChange>,
    /// Decisions per game.
    pub decisions: Test,
    /// Rounds per game, if both rule sets count rounds.
    pub rounds: Option<Test>,
    /// The win rate of the seat that took the first decision.
    pub first_player: Test,
    /// Games given up after the decision limit (baseline, variant): not
    /// counted in the tests.
    #[serde(default, skip_serializing_if = "no_unfinished")]
    pub unfinished: (usize, usize),
}

fn no_unfinished(u: &(usize, usize)) -> bool {
    *u == (0, 0)
}

/// Compares `base` (the baseline) with `var` (the variant), `players`
/// seats each. The fields other than the statistics are left empty for
/// the caller to fill.
pub fn compare(players: usize, base: &[GameRecord], var: &[GameRecord]) -> Comparison {
    compare_tallies(&Tally::of(players, base), &Tally::of(players, var))
}

/// Compares the games counted in `base` (the baseline) with those counted
/// in `var` (the variant). Unfinished games are left out of the tests and
/// counted apart.
pub fn compare_tallies(base: &Tally, var: &Tally) -> Comparison {
    let players = base.players;
    let (na, nb) = (base.games, var.games);
    let rate = |t: &Tally, p: usize| t.wins[p] / t.games.max(1) as f64;
    let changes = (0..players)
        .map(|p| SeatChange {
            win_rate: two_proportion(rate(base, p), na, rate(var, p), nb),
            score: welch_counts(&base.scores[p], &var.scores[p]),
        })
        .collect();
    let first = |t: &Tally| (t.first_wins / t.first_games.max(1) as f64, t.first_games);
    let (fa, fna) = first(base);
    let (fb, fnb) = first(var);
    Comparison {
        ruleset: String::new(),
        baseline: Vec::new(),
        variant: Vec::new(),
        players,
        seats: Vec::new(),
        agents: Vec::new(),
        seed: 0,
        games: na.max(nb),
        changes,
        decisions: welch_counts(&base.decisions, &var.decisions),
        rounds: (!base.rounds.is_empty() && !var.rounds.is_empty())
            .then(|| welch_counts(&base.rounds, &var.rounds)),
        first_player: two_proportion(fa, fna, fb, fnb),
        unfinished: (base.unfinished, var.unfinished),
    }
}

/// The p-value as text (`<1e-12` below that).
fn pval(p: f64) -> String {
    if p < 1e-12 {
        "<1e-12".into()
    } else if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// Stars for a p-value: `***` < 0.001, `**` < 0.01, `*` < 0.05.
fn stars(p: f64) -> &'static str {
    if p < 0.001 {
        "***"
    } else if p < 0.01 {
        "**"
    } else if p < 0.05 {
        "*"
    } else {
        ""
    }
}

fn label(variants: &[String]) -> String {
    if variants.is_empty() {
        "base".into()
    } else {
        variants.join("+")
    }
}

impl Comparison {
    /// The comparison as text.
    pub fn render(&self) -> String {
        let (a, b) = (label(&self.baseline), label(&self.variant));
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let spct = |x: f64| format!("{:+.1}", x * 100.0);
        let mut out = format!(
            "{} games per rule set, {} players, seed {}: {b} (variant) against {a} (baseline)\n\n",
            self.games, self.players, self.seed
        );
        let w = self
            .seats
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        out.push_str(&format!(
            "{:<w$}  {:>8} {:>8} {:>8} {:>9}      {:>9} {:>9} {:>8} {:>9}\n",
            "seat", "win A", "win B", "pts", "p (z)", "score A", "score B", "change", "p (Welch)"
        ));
        for (p, c) in self.changes.iter().enumerate() {
            let name = self
                .seats
                .get(p)
                .cloned()
                .unwrap_or_else(|| format!("p{}", p + 1));
            out.push_str(&format!(
                "{:<w$}  {:>8} {:>8} {:>8} {:>9} {:<4} {:>9.2} {:>9.2} {:>+8.2} {:>9} {}\n",
                name,
                pct(c.win_rate.a),
                pct(c.win_rate.b),
                spct(c.win_rate.diff),
                pval(c.win_rate.p),
                stars(c.win_rate.p),
                c.score.a,
                c.score.b,
                c.score.diff,
                pval(c.score.p),
                stars(c.score.p),
            ));
        }
        out.push_str(&format!(
            "\n(A = {a}, B = {b}; pts: change in win rate, percentage points)\n"
        ));
        let line = |what: &str, t: &Test| {
            format!(
                "{what:<22} {:.2} -> {:.2} ({:+.2}), p = {} {}\n",
                t.a,
                t.b,
                t.diff,
                pval(t.p),
                stars(t.p)
            )
        };
        out.push_str(&line("decisions/game:", &self.decisions));
        if let Some(r) = &self.rounds {
            out.push_str(&line("rounds/game:", r));
        }
        let f = &self.first_player;
        out.push_str(&format!(
            "{:<22} {} -> {} ({} pts), p = {} {}\n",
            "first player wins:",
            pct(f.a),
            pct(f.b),
            spct(f.diff),
            pval(f.p),
            stars(f.p)
        ));
        if self.unfinished != (0, 0) {
            out.push_str(&format!(
                "{:<22} {} (A), {} (B): given up after the decision limit, not counted\n",
                "unfinished games:", self.unfinished.0, self.unfinished.1
            ));
        }
        out.push_str("two-sided p-values: * < 0.05, ** < 0.01, *** < 0.001\n");
        out
    }
}

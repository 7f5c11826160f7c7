//! `tabula compare`: the same games (same run seed, so the same game
//! seeds and bot seeds) under two rule sets, and what changed.
//!
//! Per seat, the change in win rate (sole first places) is tested with a
//! two-proportion z-test and the change in mean score with Welch's t-test;
//! the draw rate, the game length, the first player's win credit and each
//! metric (per seat for a per-seat metric) are compared the same way, each
//! difference with its 95% interval. Every p-value is two-sided. The games are paired by seed, but the two rule sets usually
//! make them diverge at once, so the tests treat the samples as independent.

use std::collections::BTreeMap;

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
    /// The draw rate (games with a shared first place).
    pub draws: Test,
    /// How the games ended, by reason: (baseline count, variant count).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub endings: BTreeMap<String, (usize, usize)>,
    /// Each metric's mean (per seat for a per-seat metric), Welch's t-test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<MetricChange>,
}

/// The change in one metric's mean (one seat's, for a per-seat metric).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MetricChange {
    /// The metric's name.
    pub metric: String,
    /// The seat, for a per-seat metric.
    pub seat: Option<usize>,
    /// Baseline mean, variant mean, Welch's t-test.
    pub test: Test,
}

/// The metric changes between two tallies: every metric either declares,
/// per seat for a per-seat one (a metric only one side declares is
/// compared with no values on the other: p = 1).
fn metric_changes(base: &Tally, var: &Tally) -> Vec<MetricChange> {
    let none = Vec::new();
    let mut names: Vec<&String> = base.metrics.keys().chain(var.metrics.keys()).collect();
    names.sort();
    names.dedup();
    let mut out = Vec::new();
    for name in names {
        let a = base.metrics.get(name);
        let b = var.metrics.get(name);
        let per_seat = a.or(b).is_some_and(|m| m.0);
        let ca = a.map_or(&none, |m| &m.1);
        let cb = b.map_or(&none, |m| &m.1);
        let n = ca.len().max(cb.len());
        let empty = super::tally::Counts::new();
        for i in 0..n {
            out.push(MetricChange {
                metric: name.clone(),
                seat: per_seat.then_some(i),
                test: welch_counts(ca.get(i).unwrap_or(&empty), cb.get(i).unwrap_or(&empty)),
            });
        }
    }
    out
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
    let rate = |t: &Tally, p: usize| t.wins[p] as f64 / t.games.max(1) as f64;
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
        draws: two_proportion(
            base.drawn_games as f64 / na.max(1) as f64,
            na,
            var.drawn_games as f64 / nb.max(1) as f64,
            nb,
        ),
        endings: endings(base, var),
        metrics: metric_changes(base, var),
    }
}

/// Each ending's count in both runs.
fn endings(base: &Tally, var: &Tally) -> BTreeMap<String, (usize, usize)> {
    let mut out = BTreeMap::new();
    for (k, n) in &base.endings {
        out.entry(k.clone()).or_insert((0, 0)).0 = *n;
    }
    for (k, n) in &var.endings {
        out.entry(k.clone()).or_insert((0, 0)).1 = *n;
    }
    out
}

/// The p-value as text (`<1e-12` below that).
pub fn pval(p: f64) -> String {
    if p < 1e-12 {
        "<1e-12".into()
    } else if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// Stars for a p-value: `***` < 0.001, `**` < 0.01, `*` < 0.05.
pub fn stars(p: f64) -> &'static str {
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

/// The name of a rule set by its variants (`base` for none).
pub fn label(variants: &[String]) -> String {
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
            "{} games per rule set, {} players, seed {}\n  A (baseline, --against): {a}\n  B (variant, --variant):  {b}\n\n",
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
        out.push_str(
            "\n(win: sole first places; pts: change B - A in win rate, percentage points; change: B - A)\n",
        );
        let line = |what: &str, t: &Test| {
            format!(
                "{what:<22} {:.2} -> {:.2} ({:+.2}, 95% CI {:+.2} to {:+.2}), p = {} {}\n",
                t.a,
                t.b,
                t.diff,
                t.ci95.0,
                t.ci95.1,
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
            "first player credit:",
            pct(f.a),
            pct(f.b),
            spct(f.diff),
            pval(f.p),
            stars(f.p)
        ));
        let d = &self.draws;
        out.push_str(&format!(
            "{:<22} {} -> {} ({} pts, 95% CI {} to {}), p = {} {}\n",
            "draws (shared first):",
            pct(d.a),
            pct(d.b),
            spct(d.diff),
            spct(d.ci95.0),
            spct(d.ci95.1),
            pval(d.p),
            stars(d.p)
        ));
        if !self.endings.is_empty() {
            let parts: Vec<String> = self
                .endings
                .iter()
                .map(|(k, (x, y))| format!("{k} {x} -> {y}"))
                .collect();
            out.push_str(&format!(
                "{:<22} {}\n",
                "endings (A -> B):",
                parts.join(", ")
            ));
        }
        out.push_str(&self.metrics_table());
        if self.unfinished != (0, 0) {
            out.push_str(&format!(
                "{:<22} {} (A), {} (B): given up after the decision limit, not counted\n",
                "unfinished games:", self.unfinished.0, self.unfinished.1
            ));
        }
        out.push_str("two-sided p-values: * < 0.05, ** < 0.01, *** < 0.001\n");
        out
    }

    /// The name of seat `p`.
    pub fn seat_name(&self, p: usize) -> String {
        self.seats
            .get(p)
            .cloned()
            .unwrap_or_else(|| format!("p{}", p + 1))
    }

    /// The metrics' changes: mean under A and B, the change with its 95%
    /// interval, Welch's p-value.
    fn metrics_table(&self) -> String {
        if self.metrics.is_empty() {
            return String::new();
        }
        let rows: Vec<[String; 7]> = self
            .metrics
            .iter()
            .map(|m| {
                let t = &m.test;
                [
                    m.metric.clone(),
                    m.seat.map_or("(game)".into(), |p| self.seat_name(p)),
                    format!("{:.2}", t.a),
                    format!("{:.2}", t.b),
                    format!("{:+.2}", t.diff),
                    format!("{:+.2} to {:+.2}", t.ci95.0, t.ci95.1),
                    format!("{} {}", pval(t.p), stars(t.p)),
                ]
            })
            .collect();
        let head = ["metric", "seat", "A", "B", "change", "95% CI", "p (Welch)"].map(String::from);
        let w: Vec<usize> = (0..7)
            .map(|k| {
                rows.iter()
                    .chain([&head])
                    .map(|r| r[k].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::from("\n");
        for r in std::iter::once(&head).chain(&rows) {
            out.push_str(&format!(
                "{:<w0$}  {:<w1$}  {:>w2$}  {:>w3$}  {:>w4$}  {:>w5$}  {}\n",
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3],
                w4 = w[4],
                w5 = w[5]
            ));
        }
        out.push('\n');
        out
    }
}

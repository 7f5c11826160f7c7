//! The statistics of a run: wins and draws with their intervals, scores,
//! game lengths, the first player's advantage, how the games ended and
//! the rules' metrics, and their text table.
//!
//! A shared first place is a draw, not a win: a seat's win rate counts
//! the games it alone came first in, the draw rate the games whose first
//! place was shared. The win credit (a k-way shared first place counts
//! 1/k to each) sums to one game per game; the first player's record is
//! counted in it, against the fair share.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::stats::{self, Stats};
use super::tally::{Tally, Unfinished};
use super::GameRecord;

/// One seat's results over a run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SeatSummary {
    /// Games won alone (a shared first place is a draw, not a win).
    pub wins: f64,
    /// `wins` over the number of games.
    pub win_rate: f64,
    /// The 95% Wilson score interval of the win rate.
    pub win_ci95: (f64, f64),
    /// Games in which the seat shared first place.
    #[serde(default)]
    pub draws: usize,
    /// `draws` over the number of games.
    #[serde(default)]
    pub draw_rate: f64,
    /// Win credit: sole wins plus 1/k of each k-way shared first place.
    #[serde(default)]
    pub credit: f64,
    /// `credit` over the number of games (the seats' credit rates sum to 1).
    #[serde(default)]
    pub credit_rate: f64,
    /// The seat's score.
    pub score: Option<Stats>,
}

/// How the first player (see [`GameRecord::first`]) fared.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FirstPlayer {
    /// Games with a first decision.
    pub games: usize,
    /// Games the first player won (shared wins split).
    pub wins: f64,
    /// `wins` over `games`.
    pub win_rate: f64,
    /// Its 95% Wilson score interval.
    pub win_ci95: (f64, f64),
    /// What it would be if moving first did not matter (1 / players).
    pub fair_share: f64,
    /// Per seat: how often it was first player, and its win rate then.
    pub by_seat: Vec<FirstSeat>,
}

/// A seat's record in the games where it was first player.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FirstSeat {
    /// Games in which this seat was first player.
    pub games: usize,
    /// Its win rate in those games (0 when there are none).
    pub win_rate: f64,
}

/// Statistics over a run. Holds no timing, so it is identical for
/// identical runs.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// Number of games.
    pub games: usize,
    /// Seated players.
    pub players: usize,
    /// Per seat: wins and scores.
    pub seats: Vec<SeatSummary>,
    /// Rounds per game, if the ruleset declares a round counter.
    pub rounds: Option<Stats>,
    /// Decisions per game.
    pub decisions: Option<Stats>,
    /// The first-player advantage.
    pub first_player: FirstPlayer,
    /// Games given up after the decision limit (not counted above).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<UnfinishedGames>,
    /// Games whose first place was shared.
    #[serde(default)]
    pub draws: usize,
    /// `draws` over the number of games.
    #[serde(default)]
    pub draw_rate: f64,
    /// The 95% Wilson score interval of the draw rate.
    #[serde(default)]
    pub draw_ci95: (f64, f64),
    /// How the games ended, by the rules' named endings, unfinished games
    /// included (empty when the rules name no ending).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub endings: BTreeMap<String, usize>,
    /// The rules' metrics over the finished games (`games`), by name:
    /// games given up at the decision limit are left out (see
    /// [`Summary::metrics_over`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metrics: BTreeMap<String, MetricSummary>,
}

/// A metric over the finished games of a run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MetricSummary {
    /// One value per seat (else one per game).
    pub per_seat: bool,
    /// The games it was computed over: the finished ones (a game given up
    /// at the decision limit has no final state to read).
    #[serde(default)]
    pub games: usize,
    /// Its statistics: per seat, or one for a per-game metric.
    pub stats: Vec<Option<Stats>>,
    /// The 95% interval of each mean (Student's t).
    pub mean_ci95: Vec<(f64, f64)>,
}

/// Whether the first place of `r` was shared (a draw).
pub fn is_draw(r: &GameRecord) -> bool {
    r.winners.len() > 1
}

/// The games of a run given up after the decision limit.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct UnfinishedGames {
    /// How many.
    pub games: usize,
    /// The first few, with their seeds (to replay them alone).
    pub first: Vec<Unfinished>,
}

/// The win credit that goes to `seat` in `r` (1/k of a k-way shared
/// first place).
pub fn win_share(r: &GameRecord, seat: usize) -> f64 {
    if r.winners.contains(&seat) {
        1.0 / r.winners.len() as f64
    } else {
        0.0
    }
}

impl Summary {
    /// Computes the statistics of `records` for `players` seats.
    pub fn of(players: usize, records: &[GameRecord]) -> Summary {
        Summary::of_tally(&Tally::of(players, records))
    }

    /// The statistics gathered in `t`.
    pub fn of_tally(t: &Tally) -> Summary {
        let n = t.games;
        let players = t.players;
        let rate = |w: f64, n: usize| if n == 0 { 0.0 } else { w / n as f64 };
        let seats = (0..players)
            .map(|p| {
                let wins = t.wins[p] as f64;
                let win_rate = rate(wins, n);
                SeatSummary {
                    wins,
                    win_rate,
                    win_ci95: stats::wilson(win_rate, n),
                    draws: t.draws[p],
                    draw_rate: rate(t.draws[p] as f64, n),
                    credit: t.credit[p],
                    credit_rate: rate(t.credit[p], n),
                    score: Stats::of_counts(&t.scores[p]),
                }
            })
            .collect();
        let frate = rate(t.first_wins, t.first_games);
        let draw_rate = rate(t.drawn_games as f64, n);
        // Every metric has as many values as games: one quantile serves.
        let mut known: Vec<(u64, f64)> = Vec::new();
        let mut quantile = |df: u64| match known.iter().find(|(d, _)| *d == df) {
            Some((_, q)) => *q,
            None => {
                let q = stats::student_quantile95(df as f64);
                known.push((df, q));
                q
            }
        };
        let metrics = t
            .metrics
            .iter()
            .map(|(name, (per_seat, counts))| {
                let stats: Vec<Option<Stats>> = counts.iter().map(Stats::of_counts).collect();
                let mean_ci95 = stats
                    .iter()
                    .zip(counts)
                    .map(|(s, c)| {
                        s.as_ref().map_or((0.0, 0.0), |s| {
                            stats::mean_ci95(s, super::tally::total(c), &mut quantile)
                        })
                    })
                    .collect();
                let m = MetricSummary {
                    per_seat: *per_seat,
                    games: counts.first().map_or(0, super::tally::total) as usize,
                    stats,
                    mean_ci95,
                };
                (name.clone(), m)
            })
            .collect();
        Summary {
            games: n,
            players,
            seats,
            rounds: Stats::of_counts(&t.rounds),
            decisions: Stats::of_counts(&t.decisions),
            first_player: FirstPlayer {
                games: t.first_games,
                wins: t.first_wins,
                win_rate: frate,
                win_ci95: stats::wilson(frate, t.first_games),
                fair_share: 1.0 / players.max(1) as f64,
                by_seat: t
                    .first_by_seat
                    .iter()
                    .map(|&(g, w)| FirstSeat {
                        games: g,
                        win_rate: rate(w, g),
                    })
                    .collect(),
            },
            unfinished: (t.unfinished > 0).then(|| UnfinishedGames {
                games: t.unfinished,
                first: t.unfinished_shown.clone(),
            }),
            draws: t.drawn_games,
            draw_rate,
            draw_ci95: stats::wilson(draw_rate, n),
            endings: t.endings.clone(),
            metrics,
        }
    }

    /// The summary as a text table; `seat_names` and `agents` label the
    /// rows and `elapsed` (seconds), if given, adds the speed.
    pub fn render(&self, seat_names: &[String], agents: &[String], elapsed: Option<f64>) -> String {
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let name = |p: usize| {
            seat_names
                .get(p)
                .cloned()
                .unwrap_or_else(|| format!("p{}", p + 1))
        };
        let mut out = String::new();
        out.push_str(&format!(
            "{} game{}, {} players\n\n",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.players
        ));
        let w = (0..self.players)
            .map(|p| name(p).chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let aw = agents
            .iter()
            .map(|a| a.chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        let drawn = self.draws > 0;
        out.push_str(&format!(
            "{:<w$}  {:<aw$}  {:>8}  {:>15}{}  {:>9}  {:>8}  {:>6}  {:>7}  {:>7}  {:>7}  {:>6}\n",
            "seat",
            "agent",
            "win rate",
            "95% CI",
            if drawn { "      drew" } else { "" },
            "score",
            "sd",
            "min",
            "p25",
            "median",
            "p75",
            "max"
        ));
        for (p, s) in self.seats.iter().enumerate() {
            let ci = format!("{}-{}", pct(s.win_ci95.0), pct(s.win_ci95.1));
            let agent = agents.get(p).map(String::as_str).unwrap_or("");
            out.push_str(&format!(
                "{:<w$}  {:<aw$}  {:>8}  {:>15}",
                name(p),
                agent,
                pct(s.win_rate),
                ci
            ));
            if drawn {
                out.push_str(&format!("  {:>8}", pct(s.draw_rate)));
            }
            if let Some(sc) = &s.score {
                out.push_str(&format!(
                    "  {:>9.2}  {:>8.2}  {:>6}  {:>7.2}  {:>7.2}  {:>7.2}  {:>6}",
                    sc.mean, sc.sd, sc.min, sc.p25, sc.median, sc.p75, sc.max
                ));
            }
            out.push('\n');
        }
        out.push('\n');
        let line = |label: &str, s: &Stats| {
            format!(
                "{label:<15} mean {:.2}  sd {:.2}  min {}  p25 {:.1}  median {:.1}  p75 {:.1}  max {}\n",
                s.mean, s.sd, s.min, s.p25, s.median, s.p75, s.max
            )
        };
        out.push_str(&self.draw_line());
        if let Some(r) = &self.rounds {
            out.push_str(&line("rounds/game:", r));
        }
        if let Some(d) = &self.decisions {
            out.push_str(&line("decisions/game:", d));
        }
        out.push_str(&self.endings_line());
        let f = &self.first_player;
        if f.games > 0 {
            let by: Vec<String> = f
                .by_seat
                .iter()
                .enumerate()
                .filter(|(_, s)| s.games > 0)
                .map(|(p, s)| format!("{} {} games, won {}", name(p), s.games, pct(s.win_rate)))
                .collect();
            out.push_str(&format!(
                "first player:   won {}{} (95% CI {}-{}; fair share {}) of {} games; {}\n",
                pct(f.win_rate),
                if drawn {
                    " counting 1/k of a k-way draw"
                } else {
                    ""
                },
                pct(f.win_ci95.0),
                pct(f.win_ci95.1),
                pct(f.fair_share),
                f.games,
                by.join("; ")
            ));
        }
        if let Some(u) = &self.unfinished {
            out.push_str(&unfinished_line(u));
        }
        out.push_str(&self.metrics_table(&name));
        if let Some(t) = elapsed {
            let gps = if t > 0.0 {
                self.games as f64 / t
            } else {
                f64::INFINITY
            };
            out.push_str(&format!("time: {t:.2}s  games/s: {gps:.1}\n"));
        }
        out
    }
}

impl Summary {
    /// The draws: how many games had a shared first place.
    fn draw_line(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        if self.draws == 0 {
            return "draws:          none (win rates count sole first places)\n".into();
        }
        format!(
            "draws:          {} of {} games ({}, 95% CI {}-{}) had a shared first place; \
             win rates count sole first places, `drew` the draws a seat was in\n",
            self.draws,
            self.games,
            pct(self.draw_rate),
            pct(self.draw_ci95.0),
            pct(self.draw_ci95.1)
        )
    }

    /// How the games ended, by the rules' named endings.
    fn endings_line(&self) -> String {
        if self.endings.is_empty() {
            return String::new();
        }
        let all: usize = self.endings.values().sum();
        let parts: Vec<String> = self
            .endings
            .iter()
            .map(|(reason, n)| {
                format!(
                    "{reason} {n} ({:.1}%)",
                    100.0 * *n as f64 / all.max(1) as f64
                )
            })
            .collect();
        format!("endings:        {}\n", parts.join(", "))
    }

    /// Which games the metrics are computed over: the finished ones only
    /// (a metric reads the state of a game that is over; a game given up
    /// at the decision limit has none), said with the games left out.
    pub fn metrics_over(&self) -> String {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let n = self.games;
        match self.unfinished.as_ref().map_or(0, |u| u.games) {
            0 => format!("metrics over {n} finished game{}:", plural(n)),
            u => format!(
                "metrics over {n} finished game{} (the {u} unfinished game{} left out):",
                plural(n),
                plural(u)
            ),
        }
    }

    /// The metrics: mean, sd and the mean's 95% interval, per seat for a
    /// per-seat metric, under the line saying which games they count.
    fn metrics_table(&self, name: &dyn Fn(usize) -> String) -> String {
        if self.metrics.is_empty() {
            return String::new();
        }
        let mut rows: Vec<[String; 5]> = Vec::new();
        for (metric, m) in &self.metrics {
            for (i, (st, ci)) in m.stats.iter().zip(&m.mean_ci95).enumerate() {
                let who = if m.per_seat { name(i) } else { "(game)".into() };
                let Some(st) = st else { continue };
                rows.push([
                    metric.clone(),
                    who,
                    format!("{:.2}", st.mean),
                    format!("{:.2}", st.sd),
                    format!("{:.2} to {:.2}", ci.0, ci.1),
                ]);
            }
        }
        let mut out = format!("\n{}\n", self.metrics_over());
        let head = ["metric", "seat", "mean", "sd", "95% CI of mean"];
        let width = |k: usize| {
            rows.iter()
                .map(|r| r[k].chars().count())
                .chain([head[k].len()])
                .max()
                .unwrap_or(0)
        };
        let (w0, w1, w2, w3) = (width(0), width(1), width(2), width(3));
        for r in std::iter::once(head.map(String::from)).chain(rows) {
            out.push_str(&format!(
                "{:<w0$}  {:<w1$}  {:>w2$}  {:>w3$}  {}\n",
                r[0], r[1], r[2], r[3], r[4]
            ));
        }
        out
    }
}

/// The unfinished games, with the seeds of the first few.
fn unfinished_line(u: &UnfinishedGames) -> String {
    let shown: Vec<String> = u
        .first
        .iter()
        .map(|g| format!("game {} (seed {})", g.game, g.seed))
        .collect();
    let decisions = u.first.first().map_or(0, |g| g.decisions);
    format!(
        "unfinished:     {} game{} given up after {decisions} decision{}, not counted above: {}{}\n",
        u.games,
        if u.games == 1 { "" } else { "s" },
        if decisions == 1 { "" } else { "s" },
        shown.join(", "),
        if u.games > u.first.len() { ", ..." } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::super::game_seed;
    use super::*;

    fn rec(game: usize, winners: Vec<usize>, scores: Vec<i64>, first: Option<usize>) -> GameRecord {
        GameRecord {
            game,
            seed: game_seed(0, game),
            scores,
            winners,
            decisions: 4,
            rounds: Some(2),
            first,
            unfinished: false,
            ending: None,
            metrics: Default::default(),
        }
    }

    #[test]
    fn shared_first_places_are_draws() {
        let s = Summary::of(
            2,
            &[
                rec(0, vec![0, 1], vec![5, 5], Some(0)),
                rec(1, vec![0], vec![10, 0], Some(1)),
            ],
        );
        let credit: Vec<f64> = s.seats.iter().map(|x| x.credit_rate).collect();
        assert_eq!(credit, vec![0.75, 0.25]);
        // A shared first place is a draw: seat 0 won one game alone.
        let rates: Vec<f64> = s.seats.iter().map(|x| x.win_rate).collect();
        assert_eq!(rates, vec![0.5, 0.0]);
        assert_eq!((s.draws, s.draw_rate), (1, 0.5));
        assert_eq!(s.seats[1].draws, 1);
        let means: Vec<f64> = s
            .seats
            .iter()
            .map(|x| x.score.as_ref().unwrap().mean)
            .collect();
        assert_eq!(means, vec![7.5, 2.5]);
        assert!((s.seats[0].score.as_ref().unwrap().sd - 12.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(s.decisions.as_ref().unwrap().mean, 4.0);
        // First movers: seat 0 shared a win (0.5), seat 1 lost.
        assert_eq!(s.first_player.games, 2);
        assert_eq!(s.first_player.win_rate, 0.25);
        assert_eq!(s.first_player.by_seat[0].games, 1);
        assert_eq!(s.first_player.by_seat[0].win_rate, 0.5);
        assert_eq!(s.first_player.fair_share, 0.5);
    }
}

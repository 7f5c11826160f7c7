//! The statistics of a run: wins with their intervals, scores, game
//! lengths and the first player's advantage, and their text table.

use serde::{Deserialize, Serialize};

use super::stats::{self, Stats};
use super::tally::{Tally, Unfinished};
use super::GameRecord;

/// One seat's results over a run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SeatSummary {
    /// Games won (a win shared by k seats counts 1/k).
    pub wins: f64,
    /// `wins` over the number of games.
    pub win_rate: f64,
    /// The 95% Wilson score interval of the win rate.
    pub win_ci95: (f64, f64),
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
}

/// The games of a run given up after the decision limit.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct UnfinishedGames {
    /// How many.
    pub games: usize,
    /// The first few, with their seeds (to replay them alone).
    pub first: Vec<Unfinished>,
}

/// The share of a win that goes to `seat` in `r` (1/k of a k-way win).
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
                let wins = t.wins[p];
                let win_rate = rate(wins, n);
                SeatSummary {
                    wins,
                    win_rate,
                    win_ci95: stats::wilson(win_rate, n),
                    score: Stats::of_counts(&t.scores[p]),
                }
            })
            .collect();
        let frate = rate(t.first_wins, t.first_games);
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
        out.push_str(&format!(
            "{:<w$}  {:<aw$}  {:>8}  {:>15}  {:>9}  {:>8}  {:>6}  {:>7}  {:>7}  {:>7}  {:>6}\n",
            "seat",
            "agent",
            "win rate",
            "95% CI",
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
        if let Some(r) = &self.rounds {
            out.push_str(&line("rounds/game:", r));
        }
        if let Some(d) = &self.decisions {
            out.push_str(&line("decisions/game:", d));
        }
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
                "first player:   won {} (95% CI {}-{}; fair share {}) of {} games; {}\n",
                pct(f.win_rate),
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
        }
    }

    #[test]
    fn shared_wins_are_split() {
        let s = Summary::of(
            2,
            &[
                rec(0, vec![0, 1], vec![5, 5], Some(0)),
                rec(1, vec![0], vec![10, 0], Some(1)),
            ],
        );
        let rates: Vec<f64> = s.seats.iter().map(|x| x.win_rate).collect();
        assert_eq!(rates, vec![0.75, 0.25]);
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

//! The statistics of a run gathered game by game, in game order, in memory
//! that does not grow with the number of games: sums in game order and,
//! for each integer quantity, how many games had each value (from which
//! the quantiles are exact). [`super::Summary`] and the HTML report are
//! computed from a tally, so a run of any length can be streamed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{is_draw, win_share, GameRecord, MetricValue};

/// How many games had each value, in increasing order of value.
pub type Counts = BTreeMap<i64, u64>;

/// At most this many unfinished games are remembered by game and seed
/// (all are counted).
pub const UNFINISHED_SHOWN: usize = 10;

/// A game given up after the decision limit.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct Unfinished {
    /// The game's index in the run.
    pub game: usize,
    /// Its seed.
    pub seed: u64,
    /// The decisions taken when it was given up.
    pub decisions: usize,
}

/// A run's statistics so far.
#[derive(Debug, Clone)]
pub struct Tally {
    /// Seated players.
    pub players: usize,
    /// Finished games.
    pub games: usize,
    /// Per seat: sole wins (games it alone came first in).
    pub wins: Vec<usize>,
    /// Per seat: draws (games it shared first place in).
    pub draws: Vec<usize>,
    /// Games whose first place was shared (draws).
    pub drawn_games: usize,
    /// Per seat: win credit (a k-way shared first place counts 1/k),
    /// summed in game order.
    pub credit: Vec<f64>,
    /// How the games ended (unfinished ones included), by reason.
    pub endings: BTreeMap<String, usize>,
    /// Per metric, by name: whether it is per seat, and the values counted
    /// (one `Counts` per seat, or one for a per-game metric).
    pub metrics: BTreeMap<String, (bool, Vec<Counts>)>,
    /// Per seat: its scores.
    pub scores: Vec<Counts>,
    /// Rounds per game (games whose ruleset counts rounds).
    pub rounds: Counts,
    /// Decisions per game.
    pub decisions: Counts,
    /// Games with a first player, and that player's wins.
    pub first_games: usize,
    /// The first players' wins, summed in game order.
    pub first_wins: f64,
    /// Per seat: games it was first player in, and its wins then.
    pub first_by_seat: Vec<(usize, f64)>,
    /// Games given up after the decision limit.
    pub unfinished: usize,
    /// The first `UNFINISHED_SHOWN` of them.
    pub unfinished_shown: Vec<Unfinished>,
}

impl Tally {
    /// An empty tally for `players` seats.
    pub fn new(players: usize) -> Tally {
        Tally {
            players,
            games: 0,
            // `Iterator::sum` of f64 starts from -0.0: so do these sums, so
            // that the figures are those of a sum over the records.
            wins: vec![0; players],
            draws: vec![0; players],
            drawn_games: 0,
            credit: vec![-0.0; players],
            endings: BTreeMap::new(),
            metrics: BTreeMap::new(),
            scores: vec![Counts::new(); players],
            rounds: Counts::new(),
            decisions: Counts::new(),
            first_games: 0,
            first_wins: 0.0,
            first_by_seat: vec![(0, 0.0); players],
            unfinished: 0,
            unfinished_shown: Vec::new(),
        }
    }

    /// The tally of `records`, in order.
    pub fn of(players: usize, records: &[GameRecord]) -> Tally {
        let mut t = Tally::new(players);
        for r in records {
            t.add(r);
        }
        t
    }

    /// Counts one more game (games are added in game order).
    pub fn add(&mut self, r: &GameRecord) {
        if let Some(e) = &r.ending {
            *self.endings.entry(e.clone()).or_insert(0) += 1;
        }
        if r.unfinished {
            self.unfinished += 1;
            if self.unfinished_shown.len() < UNFINISHED_SHOWN {
                self.unfinished_shown.push(Unfinished {
                    game: r.game,
                    seed: r.seed,
                    decisions: r.decisions,
                });
            }
            return;
        }
        self.games += 1;
        let draw = is_draw(r);
        self.drawn_games += usize::from(draw);
        for p in 0..self.players {
            if r.winners.contains(&p) {
                if draw {
                    self.draws[p] += 1;
                } else {
                    self.wins[p] += 1;
                }
            }
            self.credit[p] += win_share(r, p);
            if let Some(s) = r.scores.get(p) {
                *self.scores[p].entry(*s).or_insert(0) += 1;
            }
        }
        if let Some(x) = r.rounds {
            *self.rounds.entry(x).or_insert(0) += 1;
        }
        for (name, v) in &r.metrics {
            let per_seat = matches!(v, MetricValue::Seats(_));
            let values = v.values();
            let slot = self
                .metrics
                .entry(name.clone())
                .or_insert_with(|| (per_seat, vec![Counts::new(); values.len()]));
            if slot.1.len() < values.len() {
                slot.1.resize(values.len(), Counts::new());
            }
            for (c, x) in slot.1.iter_mut().zip(values) {
                *c.entry(*x).or_insert(0) += 1;
            }
        }
        let d = i64::try_from(r.decisions).unwrap_or(i64::MAX);
        *self.decisions.entry(d).or_insert(0) += 1;
        if let Some(f) = r.first {
            let w = win_share(r, f);
            self.first_games += 1;
            self.first_wins += w;
            if let Some(slot) = self.first_by_seat.get_mut(f) {
                slot.0 += 1;
                slot.1 += w;
            }
        }
    }
}

/// The number of values counted.
pub fn total(c: &Counts) -> u64 {
    c.values().sum()
}

/// The value at 0-based position `i` of the sorted values (`i` < total).
pub fn nth(c: &Counts, i: u64) -> i64 {
    let mut seen = 0u64;
    for (v, n) in c {
        seen += n;
        if i < seen {
            return *v;
        }
    }
    c.keys().next_back().copied().unwrap_or(0)
}

/// Every value, in increasing order, each as often as it was counted.
pub fn values(c: &Counts) -> impl Iterator<Item = i64> + '_ {
    c.iter()
        .flat_map(|(v, n)| std::iter::repeat_n(*v, usize::try_from(*n).unwrap_or(usize::MAX)))
}

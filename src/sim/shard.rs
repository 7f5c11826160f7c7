//! Shards: a run split into contiguous slices of its game indices, played
//! anywhere and joined by [`merge`] into the report of the whole run.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::validate::{check_record, check_report};
use super::{game_seed, GameRecord, Report, Summary};

/// A slice of a run: the `index`-th of `count` contiguous, near-equal
/// slices of the game indices. `index` is 1-based, as written on the
/// command line (`--shard 1/4` ... `--shard 4/4`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1 to `count`.
    pub index: usize,
    /// How many slices the run is split into.
    pub count: usize,
}

/// Why a `--shard` argument does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad --shard `{text}`: {problem}")]
pub struct ShardError {
    /// The argument as written.
    pub text: String,
    /// What is wrong with it.
    pub problem: ShardProblem,
}

/// What is wrong with a `--shard` argument.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardProblem {
    /// No `/`.
    #[error("expected i/n, e.g. 1/4 for the first of four shards")]
    NoSlash,
    /// `i` or `n` is not a whole number.
    #[error("{part} `{value}` is not a whole number")]
    NotANumber {
        /// `i` or `n`.
        part: &'static str,
        /// What was written.
        value: String,
    },
    /// `n` is 0.
    #[error("n must be at least 1")]
    NoShards,
    /// `i` is 0 or above `n`.
    #[error("i counts from 1 and must be between 1 and {count}")]
    OutOfRange {
        /// `n`.
        count: usize,
    },
}

impl Shard {
    /// Parses `i/n` (1 <= i <= n).
    pub fn parse(s: &str) -> Result<Shard, ShardError> {
        let bad = |problem: ShardProblem| ShardError {
            text: s.to_string(),
            problem,
        };
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| bad(ShardProblem::NoSlash))?;
        let parse = |x: &str, part: &'static str| {
            x.trim().parse::<usize>().map_err(|_| {
                bad(ShardProblem::NotANumber {
                    part,
                    value: x.trim().to_string(),
                })
            })
        };
        let (index, count) = (parse(i, "i")?, parse(n, "n")?);
        if count == 0 {
            return Err(bad(ShardProblem::NoShards));
        }
        if index == 0 || index > count {
            return Err(bad(ShardProblem::OutOfRange { count }));
        }
        Ok(Shard { index, count })
    }

    /// The game indices of this shard in a run of `games` games.
    pub fn range(&self, games: usize) -> Range<usize> {
        let cut = |k: usize| ((k as u128 * games as u128) / self.count as u128) as usize;
        cut(self.index - 1)..cut(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why the reports given to [`merge`] do not make one run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No report at all.
    #[error("nothing to merge")]
    Empty,
    /// A report from another run than the first.
    #[error("`{name}` is not from the same run as `{first}`: its {what} is {theirs}, not {ours}")]
    OtherRun {
        /// The report that differs.
        name: String,
        /// The first report.
        first: String,
        /// What differs (`seed`, `agent list`, ...).
        what: &'static str,
        /// Its value in `name`.
        theirs: String,
        /// Its value in `first`.
        ours: String,
    },
    /// A game index beyond the run.
    #[error("`{name}` holds game {game}, but the run has only {total} games")]
    BeyondRun {
        /// The report.
        name: String,
        /// The game's index.
        game: usize,
        /// Games in the run.
        total: usize,
    },
    /// A game whose seed is not the one the run seed gives it.
    #[error(
        "`{name}`: game {game} has seed {seed}, not the seed {expected} the run seed gives it"
    )]
    WrongSeed {
        /// The report.
        name: String,
        /// The game's index.
        game: usize,
        /// The seed it records.
        seed: u64,
        /// The seed the run seed gives it.
        expected: u64,
    },
    /// A game held twice by one report.
    #[error("game {game} is twice in `{name}`: the shards overlap")]
    Twice {
        /// The report.
        name: String,
        /// The game's index.
        game: usize,
    },
    /// A game held by two reports.
    #[error("game {game} is in both `{first}` and `{second}`: the shards overlap")]
    Overlap {
        /// The game's index.
        game: usize,
        /// The report that holds it first.
        first: String,
        /// The other.
        second: String,
    },
    /// A report that contradicts itself (edited, or not from `tabula
    /// simulate`).
    #[error("`{name}` is not a report of `tabula simulate`: {problem}")]
    BadReport {
        /// The report.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A game whose record cannot be right.
    #[error("`{name}`, game {game}: {problem}")]
    BadRecord {
        /// The report.
        name: String,
        /// The game's index.
        game: usize,
        /// What is wrong.
        problem: String,
    },
    /// Games in no report.
    #[error("{} of the run's {total} games are in no file (games {}): a shard is missing",
        missing.iter().map(|r| r.len()).sum::<usize>(), show_ranges(missing))]
    Missing {
        /// Games in the run.
        total: usize,
        /// The runs of missing game indices.
        missing: Vec<Range<usize>>,
    },
}

/// The first five ranges as `a, b-c, ...`.
fn show_ranges(ranges: &[Range<usize>]) -> String {
    let shown: Vec<String> = ranges
        .iter()
        .take(5)
        .map(|r| {
            if r.len() == 1 {
                format!("{}", r.start)
            } else {
                format!("{}-{}", r.start, r.end - 1)
            }
        })
        .collect();
    format!(
        "{}{}",
        shown.join(", "),
        if ranges.len() > 5 { ", ..." } else { "" }
    )
}

/// Joins the reports of the shards of one run (`(name, report)`, the name
/// for error messages) into the report of the whole run. Fails, saying
/// why, when they come from different runs, overlap, or leave games out.
pub fn merge(parts: &[(String, Report)]) -> Result<Report, MergeError> {
    let Some((_, head)) = parts.first() else {
        return Err(MergeError::Empty);
    };
    for (name, r) in parts {
        check_report(name, r)?;
    }
    same_run(parts)?;
    let mut records = collect_games(parts, head)?;
    records.sort_by_key(|g| g.game);
    Ok(Report {
        ruleset: head.ruleset.clone(),
        name: head.name.clone(),
        variants: head.variants.clone(),
        set: head.set.clone(),
        players: head.players,
        seats: head.seats.clone(),
        agents: head.agents.clone(),
        seed: head.seed,
        total_games: head.total_games,
        shard: None,
        max_decisions: head.max_decisions,
        metrics: head.metrics.clone(),
        summary: Summary::of(head.players, &records),
        games: records,
    })
}

/// Checks that every report comes from the same run as the first (`parts`
/// is not empty).
fn same_run(parts: &[(String, Report)]) -> Result<(), MergeError> {
    let (first_name, head) = &parts[0];
    for (name, r) in &parts[1..] {
        let differs = |what: &'static str, ours: String, theirs: String| {
            Err(MergeError::OtherRun {
                name: name.clone(),
                first: first_name.clone(),
                what,
                theirs,
                ours,
            })
        };
        if r.ruleset != head.ruleset {
            return differs("ruleset", head.ruleset.clone(), r.ruleset.clone());
        }
        if r.variants != head.variants {
            return differs(
                "variant list",
                format!("{:?}", head.variants),
                format!("{:?}", r.variants),
            );
        }
        if r.set != head.set {
            return differs(
                "parameter settings (--set)",
                format!("{:?}", head.set),
                format!("{:?}", r.set),
            );
        }
        if r.players != head.players {
            return differs(
                "player count",
                head.players.to_string(),
                r.players.to_string(),
            );
        }
        if r.seats != head.seats {
            return differs("seat list", head.seats.join(","), r.seats.join(","));
        }
        if r.max_decisions != head.max_decisions {
            return differs(
                "decision limit",
                head.max_decisions.to_string(),
                r.max_decisions.to_string(),
            );
        }
        if r.agents != head.agents {
            return differs("agent list", head.agents.join(","), r.agents.join(","));
        }
        if r.seed != head.seed {
            return differs("seed", head.seed.to_string(), r.seed.to_string());
        }
        if r.total_games != head.total_games {
            return differs(
                "total number of games",
                head.total_games.to_string(),
                r.total_games.to_string(),
            );
        }
    }
    Ok(())
}

/// Every game of the reports, in file order, each checked to be a sound
/// record of the run (index, seed, scores, winners) and to appear exactly
/// once over all reports. Needs memory for the records only, whatever
/// number of games the reports claim.
fn collect_games(parts: &[(String, Report)], head: &Report) -> Result<Vec<GameRecord>, MergeError> {
    let total = head.total_games;
    // (game index, report) of every record.
    let mut owners: Vec<(usize, usize)> = Vec::new();
    let mut records: Vec<GameRecord> = Vec::new();
    for (k, (name, r)) in parts.iter().enumerate() {
        for g in &r.games {
            if g.game >= total {
                return Err(MergeError::BeyondRun {
                    name: name.clone(),
                    game: g.game,
                    total,
                });
            }
            let expected = game_seed(head.seed, g.game);
            if g.seed != expected {
                return Err(MergeError::WrongSeed {
                    name: name.clone(),
                    game: g.game,
                    seed: g.seed,
                    expected,
                });
            }
            check_record(name, head.players, g)?;
            owners.push((g.game, k));
            records.push(g.clone());
        }
    }
    // Stable: of two records of a game, the one read first comes first.
    owners.sort_by_key(|&(game, _)| game);
    for w in owners.windows(2) {
        let ((game, first), (_, second)) = (w[0], w[1]);
        if w[0].0 == w[1].0 {
            return Err(if first == second {
                MergeError::Twice {
                    name: parts[first].0.clone(),
                    game,
                }
            } else {
                MergeError::Overlap {
                    game,
                    first: parts[first].0.clone(),
                    second: parts[second].0.clone(),
                }
            });
        }
    }
    let missing = gaps(owners.iter().map(|&(g, _)| g), total);
    if !missing.is_empty() {
        return Err(MergeError::Missing { total, missing });
    }
    Ok(records)
}

/// The runs of indices of `0..total` not in `present` (increasing,
/// distinct, below `total`).
fn gaps(present: impl Iterator<Item = usize>, total: usize) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut next = 0usize;
    for i in present {
        if i > next {
            out.push(next..i);
        }
        next = i + 1;
    }
    if next < total {
        out.push(next..total);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_run_exactly() {
        for games in [0usize, 1, 7, 100, 1001] {
            for count in 1..=7 {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard { index, count }.range(games);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "a/2", "3", "1/2/3", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        assert!(Shard::parse("0/4")
            .unwrap_err()
            .to_string()
            .contains("counts from 1"));
    }

    #[test]
    fn gaps_are_runs() {
        assert_eq!(gaps([0, 3].into_iter(), 5), vec![1..3, 4..5]);
        assert_eq!(gaps(std::iter::empty(), 3), vec![0..3]);
        assert_eq!(gaps([0, 1, 2].into_iter(), 3), vec![]);
    }
}

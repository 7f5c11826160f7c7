//! Sweeps: the same seeds played over a grid of parameter values
//! (`tabula sweep RULESET --set NAME=a..b[:step]`). Each grid point keeps
//! the whole [`Summary`] of its run, so that whatever a summary holds can
//! be shown per point; the table and the page show win rates per seat
//! (with their 95% intervals), the first player's win rate against its
//! fair share, the draw rate (a shared first place), mean scores, mean
//! decisions and the mean of every metric the rules declare.

use serde::{Deserialize, Serialize};

use super::Summary;

/// The most grid points a sweep plays.
pub const MAX_POINTS: usize = 1000;

/// One parameter swept: its name and the values it takes, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    /// The parameter.
    pub name: String,
    /// Its values.
    pub values: Vec<i64>,
}

/// Reads a value of `--set NAME=VALUE` as a range `a..b` or `a..b:step`
/// (both ends included; `step` at least 1, counting down when `b < a`):
/// `None` when it is not written as a range, an error when it is but is
/// wrong.
pub fn parse_range(value: &str) -> Option<Result<Vec<i64>, String>> {
    let (ends, step) = match value.split_once(':') {
        Some((ends, step)) => (ends, Some(step)),
        None => (value, None),
    };
    let (a, b) = ends.split_once("..")?;
    let num = |s: &str| {
        s.trim().parse::<i64>().map_err(|_| {
            format!(
                "`{}` in the range `{value}` is not a whole number",
                s.trim()
            )
        })
    };
    Some((|| {
        let (a, b) = (num(a)?, num(b)?);
        let step = match step {
            Some(s) => num(s)?,
            None => 1,
        };
        if step < 1 {
            return Err(format!("the step of `{value}` must be at least 1"));
        }
        let count = (i128::from(b) - i128::from(a)).unsigned_abs() / step as u128 + 1;
        if count > MAX_POINTS as u128 {
            return Err(format!(
                "the range `{value}` has {count} values: a sweep plays at most {MAX_POINTS} points"
            ));
        }
        let dir = if b < a { -1 } else { 1 };
        Ok((0..count as i64).map(|i| a + dir * i * step).collect())
    })())
}

/// Every point of the grid of `axes` (the first axis varying slowest), as
/// `(name, value)` pairs in the order of the axes.
pub fn grid(axes: &[Axis]) -> Vec<Vec<(String, i64)>> {
    let mut points: Vec<Vec<(String, i64)>> = vec![Vec::new()];
    for axis in axes {
        points = points
            .into_iter()
            .flat_map(|p| {
                axis.values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.push((axis.name.clone(), *v));
                    q
                })
            })
            .collect();
    }
    points
}

/// One grid point: its values and the statistics of its run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SweepPoint {
    /// The value of each swept parameter, in the order of the axes.
    pub values: Vec<(String, i64)>,
    /// The statistics of the run at this point (as `simulate` gives them:
    /// wins, draws, endings, metrics).
    pub summary: Summary,
}

/// A whole sweep: what was played and each point's statistics.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SweepReport {
    /// The ruleset's id.
    pub ruleset: String,
    /// The game's display name.
    pub name: String,
    /// Variants applied at every point.
    pub variants: Vec<String>,
    /// Parameters fixed at every point (`--set NAME=VALUE`), by name (as
    /// in `simulate`'s JSON).
    pub set: std::collections::BTreeMap<String, String>,
    /// The parameters swept.
    pub axes: Vec<Axis>,
    /// Seated players.
    pub players: usize,
    /// The seats' display names.
    pub seats: Vec<String>,
    /// The bot of each seat.
    pub agents: Vec<String>,
    /// The run seed (the same games' seeds at every point).
    pub seed: u64,
    /// Games per point.
    pub games: usize,
    /// The grid points, in order.
    pub points: Vec<SweepPoint>,
}

impl SweepReport {
    /// The report as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The label of a point: `feed_cost=3` (several joined by spaces).
    pub fn label(point: &SweepPoint) -> String {
        point
            .values
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The table: one row per grid point.
    pub fn render_table(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", x * 100.0);
        let mut head = vec!["point".to_string()];
        for s in &self.seats {
            head.push(format!("win {s} (95% CI)"));
        }
        head.extend(
            [
                "first wins (fair)",
                "draws (95% CI)",
                "mean score",
                "decisions",
            ]
            .map(String::from),
        );
        let mut rows = vec![head];
        for p in &self.points {
            let s = &p.summary;
            let mut row = vec![SweepReport::label(p)];
            for seat in &s.seats {
                row.push(format!(
                    "{} ({}-{})",
                    pct(seat.win_rate),
                    pct(seat.win_ci95.0),
                    pct(seat.win_ci95.1)
                ));
            }
            row.push(format!(
                "{} ({})",
                pct(s.first_player.win_rate),
                pct(s.first_player.fair_share)
            ));
            row.push(format!(
                "{} ({}-{})",
                pct(s.draw_rate),
                pct(s.draw_ci95.0),
                pct(s.draw_ci95.1)
            ));
            row.push(format!("{:.2}", mean_score(s)));
            row.push(
                s.decisions
                    .as_ref()
                    .map_or("-".into(), |d| format!("{:.1}", d.mean)),
            );
            rows.push(row);
        }
        let mut out = aligned(rows);
        if !self.metric_columns().is_empty() {
            out.push_str("\nmetrics (mean over the finished games)\n");
            out.push_str(&aligned(self.metric_rows()));
        }
        out
    }

    /// The metric columns of the table: `name` for a per-game metric,
    /// `name seat` per seat for a per-seat one; one row per point.
    fn metric_rows(&self) -> Vec<Vec<String>> {
        let mut head = vec!["point".to_string()];
        for (name, m) in self.metric_columns() {
            head.push(match m {
                Some(seat) => format!("{name} {}", self.seat_name(seat)),
                None => name,
            });
        }
        let mut rows = vec![head];
        for p in &self.points {
            let mut row = vec![SweepReport::label(p)];
            for (name, m) in self.metric_columns() {
                row.push(
                    metric_mean(p, &name, m.unwrap_or(0)).map_or("-".into(), |v| format!("{v:.2}")),
                );
            }
            rows.push(row);
        }
        rows
    }

    /// Every metric column: its name and seat (`None` for a per-game
    /// metric), from the first point's summary.
    pub fn metric_columns(&self) -> Vec<(String, Option<usize>)> {
        let Some(first) = self.points.first() else {
            return Vec::new();
        };
        let mut cols = Vec::new();
        for (name, m) in &first.summary.metrics {
            if m.per_seat {
                cols.extend((0..m.stats.len()).map(|seat| (name.clone(), Some(seat))));
            } else {
                cols.push((name.clone(), None));
            }
        }
        cols
    }

    /// The display name of `seat`.
    pub fn seat_name(&self, seat: usize) -> String {
        self.seats
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("p{}", seat + 1))
    }
}

/// The mean of metric `name` at point `p` (its `index`-th statistic: the
/// seat, or 0 for a per-game metric).
pub fn metric_mean(p: &SweepPoint, name: &str, index: usize) -> Option<f64> {
    let m = p.summary.metrics.get(name)?;
    m.stats.get(index)?.as_ref().map(|s| s.mean)
}

/// The 95% interval of [`metric_mean`].
pub fn metric_ci(p: &SweepPoint, name: &str, index: usize) -> Option<(f64, f64)> {
    p.summary.metrics.get(name)?.mean_ci95.get(index).copied()
}

/// `rows` as text columns aligned on their widest cell.
fn aligned(rows: Vec<Vec<String>>) -> String {
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, x)| format!("{x:<w$}", w = widths[c]))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The mean score over every seat (0 without scores).
pub fn mean_score(s: &Summary) -> f64 {
    let means: Vec<f64> = s
        .seats
        .iter()
        .filter_map(|x| x.score.as_ref().map(|st| st.mean))
        .collect();
    if means.is_empty() {
        0.0
    } else {
        means.iter().sum::<f64>() / means.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("1..4"), Some(Ok(vec![1, 2, 3, 4])));
        assert_eq!(parse_range("0..10:5"), Some(Ok(vec![0, 5, 10])));
        assert_eq!(parse_range("3..1"), Some(Ok(vec![3, 2, 1])));
        assert_eq!(parse_range("1..6:2"), Some(Ok(vec![1, 3, 5])));
        assert_eq!(parse_range("3"), None);
        assert!(matches!(parse_range("1..x"), Some(Err(_))));
        assert!(matches!(parse_range("1..4:0"), Some(Err(_))));
        assert!(matches!(parse_range("0..100000"), Some(Err(_))));
    }

    #[test]
    fn the_grid_varies_the_last_axis_fastest() {
        let axes = [
            Axis {
                name: "a".into(),
                values: vec![1, 2],
            },
            Axis {
                name: "b".into(),
                values: vec![7, 8, 9],
            },
        ];
        let g = grid(&axes);
        assert_eq!(g.len(), 6);
        assert_eq!(g[0], vec![("a".into(), 1), ("b".into(), 7)]);
        assert_eq!(g[5], vec![("a".into(), 2), ("b".into(), 9)]);
    }
}

//! The JSON and CSV outputs of a run written as the games end, so that
//! they need no memory per game.
//!
//! The CSV is written row by row. The JSON holds the summary before the
//! games, and the summary is known only at the end: the games are written
//! to a temporary file as they end and copied after the summary when the
//! run is over. The result is byte for byte [`Report::to_json`].

use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{csv, GameRecord, MetricSpec, Report};

/// A run's JSON report, written as its games end.
pub struct JsonWriter {
    out: File,
    tmp_path: PathBuf,
    tmp: Option<BufWriter<File>>,
    games: usize,
}

/// A fresh temporary file for the games of one JSON report.
fn temp_file() -> io::Result<(PathBuf, File)> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("tabula-{}-{n}.games.json", std::process::id()));
        match File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&p)
        {
            Ok(f) => return Ok((p, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// A game record as it stands in the `games` list of a pretty report.
fn indented(g: &GameRecord) -> io::Result<String> {
    let text = serde_json::to_string_pretty(g).map_err(io::Error::other)?;
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("    ");
        out.push_str(line);
    }
    Ok(out)
}

impl JsonWriter {
    /// Creates (or empties) `path` and a temporary file for the games: a
    /// path that cannot be written fails here, before any game is played.
    pub fn create(path: &Path) -> io::Result<JsonWriter> {
        let out = File::create(path)?;
        let (tmp_path, tmp) = temp_file()?;
        Ok(JsonWriter {
            out,
            tmp_path,
            tmp: Some(BufWriter::new(tmp)),
            games: 0,
        })
    }

    /// Adds the next game (games come in game order).
    pub fn push(&mut self, g: &GameRecord) -> io::Result<()> {
        let tmp = self
            .tmp
            .as_mut()
            .ok_or_else(|| io::Error::other("finished"))?;
        if self.games > 0 {
            tmp.write_all(b",\n")?;
        }
        tmp.write_all(indented(g)?.as_bytes())?;
        self.games += 1;
        Ok(())
    }

    /// Writes the report: `head` (its summary, no games), then the games.
    pub fn finish(mut self, head: &Report) -> io::Result<()> {
        let text = head.to_json();
        let prefix = text
            .strip_suffix("[]\n}\n")
            .ok_or_else(|| io::Error::other("the report head must hold no games"))?;
        let tmp = self
            .tmp
            .take()
            .ok_or_else(|| io::Error::other("finished"))?;
        let mut games = tmp.into_inner().map_err(|e| e.into_error())?;
        let mut out = BufWriter::new(&self.out);
        out.write_all(prefix.as_bytes())?;
        if self.games == 0 {
            out.write_all(b"[]")?;
        } else {
            out.write_all(b"[\n")?;
            games.seek(io::SeekFrom::Start(0))?;
            io::copy(&mut games, &mut out)?;
            out.write_all(b"\n  ]")?;
        }
        out.write_all(b"\n}\n")?;
        out.flush()
    }
}

impl Drop for JsonWriter {
    fn drop(&mut self) {
        self.tmp = None;
        let _ = std::fs::remove_file(&self.tmp_path);
    }
}

/// A run's CSV, written row by row as its games end.
pub struct CsvWriter {
    out: BufWriter<File>,
    players: usize,
    seats: Vec<String>,
    metrics: Vec<MetricSpec>,
    /// The text every row ends with (see [`csv::applied_columns`]).
    extra: Option<String>,
}

impl CsvWriter {
    /// Creates (or empties) `path` and writes the header line, for the
    /// ruleset's `metrics`.
    #[cfg(test)]
    pub fn create(
        path: &Path,
        players: usize,
        seats: &[String],
        metrics: &[MetricSpec],
    ) -> io::Result<CsvWriter> {
        CsvWriter::create_with(path, players, seats, metrics, None)
    }

    /// [`CsvWriter::create`] with the extra columns of a run with variants
    /// or parameters set (see [`csv::applied_columns`]).
    pub fn create_with(
        path: &Path,
        players: usize,
        seats: &[String],
        metrics: &[MetricSpec],
        extra: Option<(String, String)>,
    ) -> io::Result<CsvWriter> {
        let mut out = BufWriter::new(File::create(path)?);
        let (head, row) = match extra {
            Some((h, r)) => (Some(h), Some(r)),
            None => (None, None),
        };
        let header = csv::with_extra(csv::header(players, seats, metrics), head.as_deref());
        out.write_all(header.as_bytes())?;
        Ok(CsvWriter {
            out,
            players,
            seats: seats.to_vec(),
            metrics: metrics.to_vec(),
            extra: row,
        })
    }

    /// Adds the next game's row.
    pub fn push(&mut self, g: &GameRecord) -> io::Result<()> {
        let row = csv::with_extra(
            csv::row(self.players, &self.seats, &self.metrics, g),
            self.extra.as_deref(),
        );
        self.out.write_all(row.as_bytes())
    }

    /// Flushes the file.
    pub fn finish(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;
    use std::path::Path;
    use std::sync::Arc;

    use super::*;
    use crate::sim::{html, run, run_stream, SimConfig, Summary, Tally};

    /// Streamed outputs are byte for byte those of the whole report, for
    /// runs with no games, finished games and games given up.
    #[test]
    fn streamed_outputs_equal_the_whole_report() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
        let rules = Arc::new(crate::model::load(&dir, &[]).expect("nim loads"));
        let tmp = std::env::temp_dir().join(format!("tabula-stream-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        for (games, limit) in [(0, 100), (7, 100), (5, 4)] {
            let cfg = SimConfig {
                max_decisions: limit,
                ..SimConfig::random(2, games, 3)
            };
            let seats = vec!["p1".to_string(), "p2".to_string()];
            let records = run(&rules, &cfg, 2, &|_| {}).unwrap();
            let whole = Report::new(&rules, &cfg, seats.clone(), records);
            let (jp, cp) = (tmp.join("r.json"), tmp.join("r.csv"));
            let mut json = JsonWriter::create(&jp).unwrap();
            let specs = crate::sim::metric_specs(&rules);
            let mut csv = CsvWriter::create(&cp, 2, &seats, &specs).unwrap();
            let mut tally = Tally::new(2);
            run_stream(&rules, &cfg, 2, &|_| {}, &mut |g| {
                tally.add(&g);
                json.push(&g).unwrap();
                csv.push(&g).unwrap();
                ControlFlow::Continue(())
            })
            .unwrap();
            let head = Report::head(&rules, &cfg, seats, Summary::of_tally(&tally));
            json.finish(&head).unwrap();
            csv.finish().unwrap();
            assert_eq!(std::fs::read_to_string(&jp).unwrap(), whole.to_json());
            assert_eq!(
                std::fs::read_to_string(&cp).unwrap(),
                crate::sim::csv::render(&whole)
            );
            assert_eq!(
                html::render_tally(&head, &tally, "Nim", None),
                html::render(&whole, "Nim", None)
            );
            if limit == 4 {
                assert!(whole.games.iter().all(|g| g.unfinished));
                assert_eq!(whole.summary.unfinished.as_ref().unwrap().games, 5);
            }
        }
        let _ = std::fs::remove_dir_all(&tmp);
    }
}

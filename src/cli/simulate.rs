//! `tabula simulate`: games between bots in bulk.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::{
    eprint_error, load_for_players, seat_names, CmdResult, Failed, OutputArgs, RulesetArgs, RunArgs,
};
use crate::agents::{parse_agents, AgentSpec};
use crate::model::Ruleset;
use crate::sim::stream::{CsvWriter, JsonWriter};
use crate::sim::{self, GameRecord, Report, Shard, SimConfig, SimError, Summary, Tally};

pub(super) fn report_sim_error(e: &SimError) {
    esayln!(
        "error: game {} (seed {}) failed after {} decisions:",
        e.game,
        e.seed,
        e.decisions
    );
    esay!("{}", e.report);
}

/// A progress bar on stderr with rate and ETA, hidden unless stderr is a
/// terminal and `quiet` is off.
pub(super) fn progress_bar(len: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {rate}  elapsed {elapsed}  eta {eta}",
        )
        .map(|s| {
            s.with_key(
                "rate",
                |st: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1} games/s", st.per_sec());
                },
            )
        })
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Writes `text` to `path`, explaining a failure.
pub(super) fn write_file(path: &Path, text: &str) -> CmdResult {
    std::fs::write(path, text).map_err(|e| {
        eprint_error(format!("cannot write `{}`: {e}", path.display()));
        Failed
    })
}

/// The most threads `--jobs` may ask for.
pub(super) const MAX_JOBS: usize = 256;

/// The thread count of `--jobs` (0: one per core).
pub(super) fn jobs(run: &RunArgs) -> Result<usize, Failed> {
    match run.jobs {
        Some(0) => {
            eprint_error("--jobs must be at least 1 (leave it out to use every core)");
            Err(Failed)
        }
        Some(n) if n > MAX_JOBS => {
            eprint_error(format!(
                "--jobs {n} is too many: at most {MAX_JOBS} threads (leave it out to use every core)"
            ));
            Err(Failed)
        }
        Some(n) => Ok(n),
        None => Ok(0),
    }
}

/// The bots of `--agents`, checked against the ruleset (each is built once
/// so a bot that cannot play it is reported before any game starts).
pub(super) fn agents(
    rules: &Ruleset,
    run: &RunArgs,
    players: usize,
) -> Result<Vec<AgentSpec>, Failed> {
    let specs = parse_agents(run.agents.as_deref(), players).map_err(|e| {
        eprint_error(e);
        Failed
    })?;
    for s in &specs {
        if let Err(e) = s.build(rules, 0) {
            eprint_error(e);
            return Err(Failed);
        }
    }
    Ok(specs)
}

/// Plays the games of `cfg` with a progress bar, handing each record to
/// `sink` in game order; returns the time taken.
pub(super) fn play(
    rules: &Arc<Ruleset>,
    cfg: &SimConfig,
    run: &RunArgs,
    jobs: usize,
    sink: &mut dyn FnMut(GameRecord) -> ControlFlow<()>,
) -> Result<f64, Failed> {
    let bar = progress_bar(cfg.range().len() as u64, run.quiet);
    let start = Instant::now();
    let result = sim::run_stream(rules, cfg, jobs, &|_| bar.inc(1), sink);
    bar.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
    match result {
        Ok(()) => Ok(elapsed),
        Err(e) => {
            report_sim_error(&e);
            Err(Failed)
        }
    }
}

/// Writes the report's JSON, CSV and HTML as asked (`tabula merge`).
pub(super) fn write_outputs(report: &Report, out: &OutputArgs, elapsed: Option<f64>) -> CmdResult {
    if let Some(path) = &out.json {
        write_file(path, &report.to_json())?;
    }
    if let Some(path) = &out.csv {
        write_file(path, &sim::csv::render(report))?;
    }
    if let Some(path) = &out.report {
        write_file(path, &sim::html::render(report, &report.name, elapsed))?;
    }
    Ok(())
}

/// Says which files were written.
pub(super) fn say_written(out: &OutputArgs) {
    for path in [&out.json, &out.csv, &out.report].into_iter().flatten() {
        sayln!("wrote {}", path.display());
    }
}

/// The files of a run, written as its games end (see [`sim::stream`]).
struct Outputs {
    json: Option<JsonWriter>,
    csv: Option<CsvWriter>,
    /// The HTML page's file, created at the start, written at the end.
    html: Option<File>,
    /// The first write that failed: the file and why.
    failed: Option<(PathBuf, std::io::Error)>,
}

impl Outputs {
    /// Creates every file asked for, so that a path that cannot be written
    /// fails before any game is played.
    fn create(
        out: &OutputArgs,
        rules: &Ruleset,
        players: usize,
        seats: &[String],
        metrics: &[sim::MetricSpec],
    ) -> Result<Outputs, Failed> {
        let cannot = |path: &Path, e: std::io::Error| {
            eprint_error(format!("cannot write `{}`: {e}", path.display()));
            Failed
        };
        let json = match &out.json {
            Some(p) => Some(JsonWriter::create(p).map_err(|e| cannot(p, e))?),
            None => None,
        };
        let csv = match &out.csv {
            Some(p) => {
                let extra = sim::csv::applied_columns(&rules.variants, &sim::overrides(rules));
                Some(
                    CsvWriter::create_with(p, players, seats, metrics, extra)
                        .map_err(|e| cannot(p, e))?,
                )
            }
            None => None,
        };
        let html = match &out.report {
            Some(p) => Some(File::create(p).map_err(|e| cannot(p, e))?),
            None => None,
        };
        Ok(Outputs {
            json,
            csv,
            html,
            failed: None,
        })
    }

    /// Writes one more game; false once a write failed.
    fn push(&mut self, g: &GameRecord, out: &OutputArgs) -> bool {
        if let (Some(w), Some(p)) = (&mut self.json, &out.json) {
            if let Err(e) = w.push(g) {
                self.failed = Some((p.clone(), e));
                return false;
            }
        }
        if let (Some(w), Some(p)) = (&mut self.csv, &out.csv) {
            if let Err(e) = w.push(g) {
                self.failed = Some((p.clone(), e));
                return false;
            }
        }
        true
    }

    /// Completes every file: the JSON with `head`'s summary, the HTML page
    /// from `head` and `tally`.
    fn finish(
        self,
        out: &OutputArgs,
        head: &Report,
        tally: &Tally,
        elapsed: f64,
    ) -> Result<(), (PathBuf, std::io::Error)> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        if let (Some(w), Some(p)) = (self.json, &out.json) {
            w.finish(head).map_err(|e| (p.clone(), e))?;
        }
        if let (Some(w), Some(p)) = (self.csv, &out.csv) {
            w.finish().map_err(|e| (p.clone(), e))?;
        }
        if let (Some(mut f), Some(p)) = (self.html, &out.report) {
            let page = sim::html::render_tally(head, tally, &head.name, Some(elapsed));
            f.write_all(page.as_bytes()).map_err(|e| (p.clone(), e))?;
        }
        Ok(())
    }
}

/// Removes the files of a run that failed (they hold part of it).
fn remove_outputs(out: &OutputArgs) {
    for path in [&out.json, &out.csv, &out.report].into_iter().flatten() {
        let _ = std::fs::remove_file(path);
    }
}

/// The line announcing a run.
pub(super) fn run_line(rules: &Ruleset, cfg: &SimConfig, threads: usize) -> String {
    let range = cfg.range();
    format!(
        "{}: {} games{}, {} players, seed {}; {}; {}; {} thread{}",
        rules.name,
        cfg.games,
        match cfg.shard {
            Some(s) => format!(" (shard {s}: games {}..{})", range.start, range.end),
            None => String::new(),
        },
        cfg.players,
        cfg.seed,
        super::applied::describe(rules),
        cfg.agents
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(","),
        threads,
        if threads == 1 { "" } else { "s" }
    )
}

pub(super) fn simulate(
    args: &RulesetArgs,
    run: &RunArgs,
    shard: Option<&str>,
    out: &OutputArgs,
) -> CmdResult {
    let shard = shard.map(Shard::parse).transpose().map_err(|e| {
        eprint_error(e);
        Failed
    })?;
    let jobs = jobs(run)?;
    let (rules, players) = load_for_players(args, run.players)?;
    let agents = agents(&rules, run, players)?;
    let cfg = SimConfig {
        players,
        games: run.games,
        seed: run.seed,
        variants: rules.variants.clone(),
        agents,
        shard,
        max_decisions: run.max_decisions,
    };
    let threads = if jobs == 0 {
        rayon::current_num_threads()
    } else {
        jobs
    };
    let seats = seat_names(&rules, players);
    let mut files = Outputs::create(out, &rules, players, &seats, &sim::metric_specs(&rules))?;
    sayln!(
        "{}",
        super::applied::loaded_from(&crate::model::find_ruleset(&args.ruleset))
    );
    sayln!("{}", run_line(&rules, &cfg, threads));
    let mut tally = Tally::new(players);
    let played = play(&rules, &cfg, run, jobs, &mut |g| {
        tally.add(&g);
        if files.push(&g, out) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    let elapsed = match played {
        Ok(t) => t,
        Err(Failed) => {
            drop(files);
            remove_outputs(out);
            return Err(Failed);
        }
    };
    let summary = Summary::of_tally(&tally);
    let head = Report::head(&rules, &cfg, seats.clone(), summary);
    if let Err((path, e)) = files.finish(out, &head, &tally, elapsed) {
        eprint_error(format!("cannot write `{}`: {e}", path.display()));
        remove_outputs(out);
        return Err(Failed);
    }
    say!(
        "{}",
        head.summary.render(&seats, &head.agents, Some(elapsed))
    );
    say_written(out);
    warn_unfinished(&tally, cfg.max_decisions, "");
    Ok(())
}

/// Warns on stderr of games given up after the decision limit; `which`
/// names the rule set (in `tabula compare`).
pub(super) fn warn_unfinished(tally: &Tally, max_decisions: usize, which: &str) {
    if let Some(first) = tally.unfinished_shown.first() {
        esayln!(
            "warning: {}{} game{} had not ended after {max_decisions} decision{} and {} given up \
             (the first: game {}, seed {}); the statistics leave {} out",
            which,
            tally.unfinished,
            if tally.unfinished == 1 { "" } else { "s" },
            if max_decisions == 1 { "" } else { "s" },
            if tally.unfinished == 1 { "was" } else { "were" },
            first.game,
            first.seed,
            if tally.unfinished == 1 { "it" } else { "them" },
        );
    }
}

//! `tabula simulate` and `tabula bench`: games between bots in bulk.

use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{
    eprint_error, load_rules, player_count, seat_names, CmdResult, Failed, OutputArgs, RulesetArgs,
    RunArgs,
};
use crate::agents::{parse_agents, AgentSpec};
use crate::model::Ruleset;
use crate::sim::{self, Report, Shard, SimConfig, SimError};

pub(super) fn report_sim_error(e: &SimError) {
    eprintln!(
        "error: game {} (seed {}) failed after {} decisions:",
        e.game, e.seed, e.decisions
    );
    eprint!("{}", e.report);
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

/// The thread count of `--jobs` (0: one per core).
pub(super) fn jobs(run: &RunArgs) -> Result<usize, Failed> {
    match run.jobs {
        Some(0) => {
            eprint_error("--jobs must be at least 1 (leave it out to use every core)");
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

/// Plays the games of `cfg` with a progress bar; returns the records and
/// the time taken.
pub(super) fn play(
    rules: &Arc<Ruleset>,
    cfg: &SimConfig,
    run: &RunArgs,
    jobs: usize,
) -> Result<(Vec<sim::GameRecord>, f64), Failed> {
    let bar = progress_bar(cfg.range().len() as u64, run.quiet);
    let start = Instant::now();
    let result = sim::run(rules, cfg, jobs, &|_| bar.inc(1));
    bar.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
    match result {
        Ok(r) => Ok((r, elapsed)),
        Err(e) => {
            report_sim_error(&e);
            Err(Failed)
        }
    }
}

/// Writes the report's JSON, CSV and HTML as asked.
pub(super) fn write_outputs(report: &Report, out: &OutputArgs, elapsed: Option<f64>) -> CmdResult {
    if let Some(path) = &out.json {
        write_file(path, &report.to_json())?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &out.csv {
        write_file(path, &sim::csv::render(report))?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &out.report {
        write_file(path, &sim::html::render(report, &report.name, elapsed))?;
        println!("wrote {}", path.display());
    }
    Ok(())
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
    let rules = load_rules(args)?;
    let players = player_count(&rules, run.players)?;
    let agents = agents(&rules, run, players)?;
    let cfg = SimConfig {
        players,
        games: run.games,
        seed: run.seed,
        variants: args.variants.clone(),
        agents,
        shard,
    };
    let range = cfg.range();
    let threads = if jobs == 0 {
        rayon::current_num_threads()
    } else {
        jobs
    };
    println!(
        "{}: {} games{}, {} players, seed {}{}; {}; {} thread{}",
        rules.name,
        run.games,
        match shard {
            Some(s) => format!(" (shard {s}: games {}..{})", range.start, range.end),
            None => String::new(),
        },
        players,
        run.seed,
        if args.variants.is_empty() {
            String::new()
        } else {
            format!(", variants {}", args.variants.join(" + "))
        },
        cfg.agents
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(","),
        threads,
        if threads == 1 { "" } else { "s" }
    );
    let (records, elapsed) = play(&rules, &cfg, run, jobs)?;
    let seats = seat_names(&rules, players);
    let report = Report::new(&rules, &cfg, seats.clone(), records);
    print!(
        "{}",
        report.summary.render(&seats, &report.agents, Some(elapsed))
    );
    write_outputs(&report, out, Some(elapsed))
}

pub(super) fn bench(
    args: &RulesetArgs,
    players: Option<usize>,
    seconds: f64,
    seed: u64,
) -> CmdResult {
    let rules = load_rules(args)?;
    let players = player_count(&rules, players)?;
    if !seconds.is_finite() || seconds < 0.0 {
        eprint_error(format!(
            "--seconds must be a non-negative number, not {seconds}"
        ));
        return Err(Failed);
    }
    let budget = Duration::from_secs_f64(seconds.min(1e9));
    println!(
        "{}: random games, {} players, {:.0}s on one thread",
        rules.name, players, seconds
    );
    let random = vec![AgentSpec::Random; players];
    let start = Instant::now();
    let (mut games, mut decisions) = (0u64, 0u64);
    let mut index = 0usize;
    loop {
        let rec = sim::simulate_one(&rules, &random, seed, index).map_err(|e| {
            report_sim_error(&e);
            Failed
        })?;
        games += 1;
        decisions += rec.decisions as u64;
        index += 1;
        if start.elapsed() >= budget {
            break;
        }
    }
    let t = start.elapsed().as_secs_f64().max(1e-9);
    println!(
        "games/s: {:.1}  decisions/s: {:.0}  decisions/game: {:.1}",
        games as f64 / t,
        decisions as f64 / t,
        decisions as f64 / games as f64
    );
    Ok(())
}

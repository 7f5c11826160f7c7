//! `tabula simulate` and `tabula bench`: random games in bulk.

use std::path::Path;
use std::time::{Duration, Instant};

use super::{eprint_error, load_rules, player_count, seat_names, CmdResult, Failed, RulesetArgs};
use crate::sim::{self, SimConfig, SimError, Summary};

fn report_sim_error(e: &SimError) {
    eprintln!(
        "error: game {} (seed {}) failed after {} decisions:",
        e.game, e.seed, e.decisions
    );
    eprint!("{}", e.report);
}

pub(super) fn simulate(
    args: &RulesetArgs,
    players: Option<usize>,
    games: usize,
    seed: u64,
    json: Option<&Path>,
) -> CmdResult {
    let rules = load_rules(args)?;
    let players = player_count(&rules, players)?;
    let cfg = SimConfig {
        players,
        games,
        seed,
        variants: args.variants.clone(),
    };
    println!(
        "{}: {} games, {} players, seed {}{}",
        rules.name,
        games,
        players,
        seed,
        if args.variants.is_empty() {
            String::new()
        } else {
            format!(", variants {}", args.variants.join(" + "))
        }
    );
    let bar = indicatif::ProgressBar::new(games as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let result = sim::run(&rules, &cfg, |_| bar.inc(1));
    bar.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
    let records = match result {
        Ok(r) => r,
        Err(e) => {
            report_sim_error(&e);
            return Err(Failed);
        }
    };
    let summary = Summary::of(players, &records);
    print!(
        "{}",
        summary.render(&seat_names(&rules, players), Some(elapsed))
    );
    if let Some(path) = json {
        let report = sim::Report {
            ruleset: rules.id.clone(),
            variants: rules.variants.clone(),
            players,
            seed,
            summary,
            games: records,
        };
        let text = serde_json::to_string_pretty(&report).map_err(|e| {
            eprint_error(format!("cannot serialise the report: {e}"));
            Failed
        })?;
        std::fs::write(path, text + "\n").map_err(|e| {
            eprint_error(format!("cannot write `{}`: {e}", path.display()));
            Failed
        })?;
        println!("wrote {}", path.display());
    }
    Ok(())
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
    let start = Instant::now();
    let (mut games, mut decisions) = (0u64, 0u64);
    let mut index = 0usize;
    loop {
        let rec = sim::simulate_one(&rules, players, seed, index).map_err(|e| {
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

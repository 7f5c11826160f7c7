//! A custom report written against the library: runs a simulation in
//! parallel (the same engine as `tabula simulate`), then computes a figure
//! the standard summary does not give: each seat's win rate by game length
//! (short, medium and long games, split at the terciles of the decision
//! count), and writes the standard HTML page beside it.
//!
//! It plays the small test ruleset `tests/rulesets/nim`, 2 players,
//! `greedy` against `random`.
//!
//! Run it with `cargo run --example custom_report`.

use std::path::Path;
use std::sync::Arc;

use tabula::sim::{self, win_share, GameRecord, Report, SimConfig};

/// Per length class (short, medium, long): games, and each seat's win rate.
#[derive(Debug, Clone, PartialEq)]
pub struct ByLength {
    /// The class's name.
    pub class: &'static str,
    /// The decision counts it covers (inclusive).
    pub decisions: (usize, usize),
    /// Games in the class.
    pub games: usize,
    /// Each seat's win rate in those games.
    pub win_rate: Vec<f64>,
}

/// Splits `records` at the terciles of their decision counts.
pub fn by_length(players: usize, records: &[GameRecord]) -> Vec<ByLength> {
    let mut lengths: Vec<usize> = records.iter().map(|r| r.decisions).collect();
    lengths.sort_unstable();
    if lengths.is_empty() {
        return Vec::new();
    }
    let at = |q: usize| lengths[(lengths.len() - 1) * q / 3];
    let (t1, t2) = (at(1), at(2));
    let classes = [
        ("short", 0, t1),
        ("medium", t1 + 1, t2),
        ("long", t2 + 1, usize::MAX),
    ];
    classes
        .iter()
        .map(|(class, lo, hi)| {
            let games: Vec<&GameRecord> = records
                .iter()
                .filter(|r| r.decisions >= *lo && r.decisions <= *hi)
                .collect();
            let n = games.len().max(1) as f64;
            ByLength {
                class,
                decisions: (*lo, (*hi).min(*lengths.last().unwrap_or(&0))),
                games: games.len(),
                win_rate: (0..players)
                    .map(|p| games.iter().map(|r| win_share(r, p)).sum::<f64>() / n)
                    .collect(),
            }
        })
        .collect()
}

/// Plays `games` games of nim, greedy against random, on every core.
pub fn run(games: usize) -> Result<(Report, Vec<ByLength>), String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    let rules = Arc::new(tabula::load(&dir, &[]).map_err(|e| e.to_string())?);
    let cfg = SimConfig {
        agents: tabula::parse_agents(Some("greedy,random"), 2).map_err(|e| e.to_string())?,
        ..SimConfig::random(2, games, 42)
    };
    let records = sim::run(&rules, &cfg, 0, &|_| {}).map_err(|e| e.to_string())?;
    let classes = by_length(cfg.players, &records);
    let seats = vec!["p1".to_string(), "p2".to_string()];
    Ok((Report::new(&rules, &cfg, seats, records), classes))
}

#[allow(dead_code)]
fn main() {
    match run(2000) {
        Ok((report, classes)) => {
            print!(
                "{}",
                report.summary.render(&report.seats, &report.agents, None)
            );
            println!("\nwin rate by game length:");
            for c in &classes {
                println!(
                    "  {:<6} ({}-{} decisions, {} games): greedy {:.1}%, random {:.1}%",
                    c.class,
                    c.decisions.0,
                    c.decisions.1,
                    c.games,
                    c.win_rate[0] * 100.0,
                    c.win_rate[1] * 100.0
                );
            }
            let page = sim::html::render(&report, "Nim: greedy against random", None);
            let out = std::env::temp_dir().join("tabula-custom-report.html");
            match std::fs::write(&out, page) {
                Ok(()) => println!("wrote {}", out.display()),
                Err(e) => eprintln!("cannot write {}: {e}", out.display()),
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}

//! `tabula sweep`: the same seeds over a grid of parameter values
//! (`--set NAME=a..b[:step]`, several making a grid), each point played
//! as `simulate --set NAME=value` plays it.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

use super::simulate::{agents, jobs, play, warn_unfinished, write_file};
use super::{eprint_error, for_players, load_dir, player_count, seat_names, CmdResult, Failed};
use super::{RulesetArgs, RunArgs};
use crate::sim::sweep::{self, Axis, SweepPoint, SweepReport};
use crate::sim::{SimConfig, Summary, Tally};

/// The `--set` arguments split into the parameters fixed and those swept.
type Split = (Vec<(String, String)>, Vec<Axis>);

/// Splits `--set` into fixed values and ranges (the axes of the grid).
fn split_sets(set: &[(String, String)]) -> Result<Split, Failed> {
    let (mut fixed, mut axes) = (Vec::new(), Vec::<Axis>::new());
    for (name, value) in set {
        match sweep::parse_range(value) {
            None => fixed.push((name.clone(), value.clone())),
            Some(Ok(values)) => {
                if axes.iter().any(|a| &a.name == name) {
                    eprint_error(format!("`{name}` is swept twice: give it one range"));
                    return Err(Failed);
                }
                axes.push(Axis {
                    name: name.clone(),
                    values,
                })
            }
            Some(Err(e)) => {
                eprint_error(format!("--set {name}={value}: {e}"));
                return Err(Failed);
            }
        }
    }
    if axes.is_empty() {
        eprint_error(
            "a sweep needs a parameter to vary: --set NAME=a..b (or a..b:step), e.g. \
             --set feed_cost=1..4",
        );
        return Err(Failed);
    }
    Ok((fixed, axes))
}

/// Checks that each output file can be written before any game is played.
fn check_writable(paths: &[Option<&Path>]) -> CmdResult {
    for p in paths.iter().flatten() {
        if let Err(e) = std::fs::File::create(p) {
            eprint_error(format!("cannot write `{}`: {e}", p.display()));
            return Err(Failed);
        }
    }
    Ok(())
}

pub(super) fn run(
    args: &RulesetArgs,
    run: &RunArgs,
    json: Option<&Path>,
    html: Option<&Path>,
) -> CmdResult {
    let jobs = jobs(run)?;
    let (fixed, axes) = split_sets(&args.set)?;
    let points = sweep::grid(&axes);
    if points.len() > sweep::MAX_POINTS {
        eprint_error(format!(
            "the grid has {} points: a sweep plays at most {}",
            points.len(),
            sweep::MAX_POINTS
        ));
        return Err(Failed);
    }
    check_writable(&[json, html])?;
    let dir = crate::model::find_ruleset(&args.ruleset);
    sayln!("{}", super::applied::loaded_from(&dir));
    let mut report: Option<SweepReport> = None;
    for values in points {
        let mut set = fixed.clone();
        set.extend(values.iter().map(|(k, v)| (k.clone(), v.to_string())));
        let mut rules = load_dir(&dir, &args.variants, &set)?;
        if let Some(r) = Arc::get_mut(&mut rules) {
            r.check_legal = args.check_legal;
        }
        let players = player_count(&rules, run.players)?;
        let rules = for_players(rules, &dir, players)?;
        let specs = agents(&rules, run, players)?;
        let cfg = SimConfig {
            players,
            games: run.games,
            seed: run.seed,
            variants: rules.variants.clone(),
            agents: specs.clone(),
            shard: None,
            max_decisions: run.max_decisions,
        };
        let report = report.get_or_insert_with(|| {
            sayln!(
                "{}: sweep of {} over {} games each, {} players, seed {}; {}{}",
                rules.name,
                axes.iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" x "),
                run.games,
                players,
                run.seed,
                if rules.variants.is_empty() {
                    "base rules".to_string()
                } else {
                    format!("variants {}", rules.variants.join(" + "))
                },
                if fixed.is_empty() {
                    String::new()
                } else {
                    let f: Vec<String> = fixed.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    format!("; set {}", f.join(", "))
                }
            );
            SweepReport {
                ruleset: rules.id.clone(),
                name: rules.name.clone(),
                variants: rules.variants.clone(),
                set: fixed.iter().cloned().collect(),
                axes: axes.clone(),
                players,
                seats: seat_names(&rules, players),
                agents: specs.iter().map(|a| a.to_string()).collect(),
                seed: run.seed,
                games: run.games,
                points: Vec::new(),
            }
        });
        let mut tally = Tally::new(players);
        play(&rules, &cfg, run, jobs, &mut |g| {
            tally.add(&g);
            ControlFlow::Continue(())
        })?;
        let point = SweepPoint {
            values,
            summary: Summary::of_tally(&tally),
        };
        warn_unfinished(
            &tally,
            run.max_decisions,
            &format!("{}: ", SweepReport::label(&point)),
        );
        report.points.push(point);
    }
    let Some(report) = report else {
        return Ok(());
    };
    say!("{}", report.render_table());
    if let Some(p) = json {
        write_file(p, &report.to_json())?;
        sayln!("wrote {}", p.display());
    }
    if let Some(p) = html {
        write_file(p, &crate::sim::sweep_html::render(&report))?;
        sayln!("wrote {}", p.display());
    }
    Ok(())
}

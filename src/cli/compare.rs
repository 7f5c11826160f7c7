//! `tabula compare`: the same seeds under two rule sets.

use std::ops::ControlFlow;
use std::path::Path;

use super::simulate::{agents, jobs, play, warn_unfinished, write_file};
use super::{for_players, load_named, player_count, seat_names, CmdResult, RunArgs};
use crate::sim::{compare, SimConfig, Tally};

/// The variant list of `--variant`/`--against`: `base` and `none` mean the
/// base rules.
fn variants(list: &[String]) -> Vec<String> {
    list.iter()
        .filter(|v| !matches!(v.as_str(), "base" | "none" | ""))
        .cloned()
        .collect()
}

/// The variants and parameters set (`--set`) of one side of a comparison.
pub(super) type Side<'a> = (&'a [String], &'a [(String, String)]);

/// The name of one side in the report: its variants, then `--set NAME=VALUE`
/// for each parameter it sets (`base` for neither).
fn side_list(rules: &crate::model::Ruleset) -> Vec<String> {
    let mut list = rules.variants.clone();
    list.extend(
        crate::sim::overrides(rules)
            .iter()
            .map(|(k, v)| format!("--set {k}={v}")),
    );
    list
}

pub(super) fn run(
    ruleset: &str,
    (variant, set): Side,
    (against, against_set): Side,
    run: &RunArgs,
    (json, report): (Option<&Path>, Option<&Path>),
) -> CmdResult {
    let jobs = jobs(run)?;
    let (vb, va) = (variants(against), variants(variant));
    let base_rules = load_named(ruleset, &vb, against_set)?;
    let var_rules = load_named(ruleset, &va, set)?;
    // The player count must suit both rule sets.
    let players = player_count(&base_rules, run.players)?;
    let players = player_count(&var_rules, Some(players))?;
    let dir = crate::model::find_ruleset(ruleset);
    let base_rules = for_players(base_rules, &dir, players)?;
    let var_rules = for_players(var_rules, &dir, players)?;
    let specs = agents(&base_rules, run, players)?;
    agents(&var_rules, run, players)?;
    let name = |v: &[String]| {
        if v.is_empty() {
            "base".to_string()
        } else {
            v.join("+")
        }
    };
    sayln!("{}", super::applied::loaded_from(&dir));
    sayln!(
        "{}: A = {} (baseline), B = {} (variant), {} games each, {} players, seed {}; {}",
        base_rules.name,
        name(&side_list(&base_rules)),
        name(&side_list(&var_rules)),
        run.games,
        players,
        run.seed,
        specs
            .iter()
            .map(|a| a.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let cfg = |v: &[String]| SimConfig {
        players,
        games: run.games,
        seed: run.seed,
        variants: v.to_vec(),
        agents: specs.clone(),
        shard: None,
        max_decisions: run.max_decisions,
    };
    let (mut base, mut var) = (Tally::new(players), Tally::new(players));
    let t1 = play(
        &base_rules,
        &cfg(&base_rules.variants),
        run,
        jobs,
        &mut |g| {
            base.add(&g);
            ControlFlow::Continue(())
        },
    )?;
    let t2 = play(&var_rules, &cfg(&var_rules.variants), run, jobs, &mut |g| {
        var.add(&g);
        ControlFlow::Continue(())
    })?;
    let mut c = compare::compare_tallies(&base, &var);
    c.ruleset = base_rules.id.clone();
    c.baseline = side_list(&base_rules);
    c.variant = side_list(&var_rules);
    c.seats = seat_names(&base_rules, players);
    c.agents = specs.iter().map(|a| a.to_string()).collect();
    c.seed = run.seed;
    say!("{}", c.render());
    let t = t1 + t2;
    if t > 0.0 {
        sayln!(
            "time: {t:.2}s  games/s: {:.1}",
            (base.games + base.unfinished + var.games + var.unfinished) as f64 / t
        );
    }
    warn_unfinished(&base, run.max_decisions, "baseline: ");
    warn_unfinished(&var, run.max_decisions, "variant: ");
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&c).unwrap_or_default() + "\n";
        write_file(path, &text)?;
        sayln!("wrote {}", path.display());
    }
    if let Some(path) = report {
        let page = crate::sim::compare_html::render(&c, &base, &var, &base_rules.name);
        write_file(path, &page)?;
        sayln!("wrote {}", path.display());
    }
    Ok(())
}

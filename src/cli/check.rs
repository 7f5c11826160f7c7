//! `tabula check`: load a ruleset and summarise it.

use std::sync::Arc;

use super::{load_rules, CmdResult, Failed, RulesetArgs};
use crate::ir::ruleset::{Data, Ruleset, Ty};

/// Random games per player count that `check --check-legal` plays.
const LEGAL_CHECK_GAMES: u64 = 10;

pub(super) fn run(args: &RulesetArgs, dump: Option<&str>) -> CmdResult {
    let rules = load_rules(args)?;
    let rules = super::with_view(rules, &crate::model::find_ruleset(&args.ruleset))?;
    if let Some(name) = dump {
        return print_dump(&rules, name);
    }
    say!("{}", summary(&rules, &args.ruleset));
    if args.check_legal {
        check_legal(&rules, &crate::model::find_ruleset(&args.ruleset))?;
    }
    Ok(())
}

/// Prints the compiled code of the functions named `name` (`all`: every one).
fn print_dump(rules: &Ruleset, name: &str) -> CmdResult {
    match crate::ir::disasm::dump(rules, name) {
        Some(text) => {
            say!("{text}");
            Ok(())
        }
        None => {
            let names = rules.funcs.iter().map(|f| f.name.as_str());
            let help = crate::ir::diag::did_you_mean(name, names)
                .unwrap_or_else(|| "name a `fn` or a `proc` of the ruleset, or `all`".into());
            super::eprint_error(format!(
                "no function or procedure is named `{name}`; {help}"
            ));
            Err(Failed)
        }
    }
}

/// Plays random games at every player count with every `legal;` checked.
fn check_legal(rules: &Arc<Ruleset>, dir: &std::path::Path) -> CmdResult {
    let mut decisions = 0;
    for players in rules.min_players..=rules.max_players {
        let rules = &super::for_players(rules.clone(), dir, players)?;
        for seed in 0..LEGAL_CHECK_GAMES {
            let mut agents: Vec<Box<dyn crate::agents::Agent>> = (0..players)
                .map(|p| {
                    Box::new(crate::agents::RandomAgent::new(seed * 31 + p as u64))
                        as Box<dyn crate::agents::Agent>
                })
                .collect();
            match crate::sim::play_game(rules, &mut agents, seed, 1_000_000) {
                Ok(g) => decisions += g.decisions_taken(),
                Err(crate::sim::GameFailed {
                    decisions: n,
                    report,
                }) => {
                    esayln!(
                        "error: {players}-player game with seed {seed} failed after {n} decisions:"
                    );
                    esay!("{report}");
                    return Err(Failed);
                }
            }
        }
    }
    sayln!(
        "legal:      every `legal;` held in {} random games ({decisions} decisions)",
        LEGAL_CHECK_GAMES as usize * (rules.max_players - rules.min_players + 1)
    );
    Ok(())
}

/// Joins `items` into lines no wider than about 100 columns, each indented.
fn wrap(items: &[String], indent: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for it in items {
        if !line.is_empty() && indent + line.len() + it.len() + 2 > 100 {
            out.push_str(&format!("{}{},\n", " ".repeat(indent), line));
            line.clear();
        }
        if !line.is_empty() {
            line.push_str(", ");
        }
        line.push_str(it);
    }
    if !line.is_empty() {
        out.push_str(&format!("{}{}\n", " ".repeat(indent), line));
    }
    out
}

fn param_value(rules: &Ruleset, ty: &Ty, data: &Data) -> String {
    match data {
        Data::Int(v) => rules.display(ty, *v, rules.max_players),
        Data::Ints(v) if v.len() <= 6 => format!(
            "[{}]",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Data::Ints(v) => format!("[{} values]", v.len()),
        Data::Text(t) => format!("{t:?}"),
    }
}

fn summary(rules: &Ruleset, arg: &str) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "ok: {} ({}) loads and checks\n",
        rules.name, rules.id
    ));
    let dir = crate::model::find_ruleset(arg);
    out.push_str(&format!("directory:  {}\n", dir.display()));
    out.push_str(&format!(
        "players:    {}{}{}\n",
        rules.min_players,
        if rules.max_players != rules.min_players {
            format!("-{}", rules.max_players)
        } else {
            String::new()
        },
        rules
            .variants_by_players
            .iter()
            .map(|(n, v)| format!("; {n} players play with {}", v.join(" + ")))
            .collect::<String>()
    ));
    let available = crate::model::load::list_variants(&dir);
    out.push_str(&format!(
        "variants:   applied: {}; available: {}\n",
        if rules.variants.is_empty() {
            "none".to_string()
        } else {
            rules.variants.join(", ")
        },
        if available.is_empty() {
            "none".to_string()
        } else {
            available.join(", ")
        }
    ));
    let set = crate::sim::overrides(rules);
    if !set.is_empty() {
        let s: Vec<String> = set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!("set:        {}\n", s.join(", ")));
    }
    let kinds: Vec<String> = rules
        .kinds
        .iter()
        .map(|k| format!("{} ({})", k.name, k.items.len()))
        .collect();
    out.push_str(&format!("kinds:      {}\n", kinds.len()));
    out.push_str(&wrap(&kinds, 12));
    let params: Vec<String> = rules
        .params
        .iter()
        .map(|p| format!("{} = {}", p.name, param_value(rules, &p.ty, &p.data)))
        .collect();
    out.push_str(&format!("params:     {}\n", params.len()));
    out.push_str(&wrap(&params, 12));
    out.push_str(&format!(
        "state:      {} variables, {} words\n",
        rules.vars.len(),
        rules.state_words
    ));
    let procs = rules.funcs.iter().filter(|f| f.is_proc).count();
    let views = rules
        .funcs
        .iter()
        .filter(|f| f.name == crate::model::load::VIEW_FUNCTION)
        .count();
    out.push_str(&format!(
        "code:       {} functions, {} procedures\n",
        rules.funcs.len() - procs - views,
        procs
    ));
    let mut prompts: Vec<String> = Vec::new();
    for c in &rules.choices {
        let p = format!("{:?}", c.prompt);
        if !prompts.contains(&p) {
            prompts.push(p);
        }
    }
    out.push_str(&format!(
        "decisions:  {} decision points\n",
        rules.choices.len()
    ));
    out.push_str(&wrap(&prompts, 12));
    if let Some(v) = &rules.view {
        let grid = v.grid.as_ref().map_or("no grid".to_string(), |g| {
            format!("grid of `{}`", rules.kinds[g.kind as usize].name)
        });
        out.push_str(&format!(
            "view:       {grid}, {} panels ({views} expressions)\n",
            v.panels.len()
        ));
    }
    out.push_str(&format!(
        "rounds:     {}\n",
        rules
            .round_var
            .and_then(|v| rules.vars.get(v as usize))
            .map_or("no round counter".to_string(), |v| format!(
                "counted by `{}`",
                v.name
            ))
    ));
    out
}

//! The top-level keys of a scenario file, read and checked before anything
//! runs: every mistake (an unknown key, a player count the ruleset does not
//! allow, a seat name that hides a name of the rules, a key of the wrong
//! shape) is a diagnostic at its place in the file.

use marked_yaml::types::MarkedMappingNode;
use marked_yaml::Node;

use super::code::{scalar, Ctx};
use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::PLAYER;
use crate::ir::symbols::Global;
use crate::model::compile::is_reserved;

/// The keys of a scenario file.
const KEYS: &[&str] = &[
    "title", "source", "ruleset", "variants", "players", "seed", "seats", "setup", "run", "steps",
    "notes",
];

/// What the top-level keys of a scenario say.
pub(super) struct Header {
    /// `title:` (default `untitled`).
    pub(super) title: String,
    /// `players:`, checked against the ruleset (default: its maximum).
    pub(super) players: usize,
    /// `seed:` (default 0).
    pub(super) seed: u64,
    /// `seats:`, one distinct new name per seat, if given.
    pub(super) seats: Option<Vec<String>>,
}

/// Reads the header of the scenario `map`; every mistake is recorded in
/// `diags` (the result is then not to be run).
pub(super) fn read(cx: &Ctx, map: &MarkedMappingNode, diags: &mut Vec<Diagnostic>) -> Header {
    let mut keys = Diagnostics::default();
    crate::model::data::check_keys(cx.file, &cx.text, map, KEYS, "a scenario", &mut keys);
    diags.append(&mut keys.items);
    let title = match map.get_node("title") {
        None => "untitled".to_string(),
        Some(n) => scalar(n).unwrap_or_else(|| {
            diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    cx.span(n),
                    "`title:` must be a line of text",
                )
                .help("write `title: \"what the example shows\"`"),
            );
            "untitled".into()
        }),
    };
    let players = players(cx, map.get_node("players"), diags);
    let seed = seed(cx, map.get_node("seed"), diags);
    for key in ["setup", "run"] {
        if let Some(n) = map.get_node(key) {
            if scalar(n).is_none() {
                diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        cx.span(n),
                        format!("`{key}:` must be statements of the rules language"),
                    )
                    .help(format!(
                        "write `{key}: |` and the statements on the lines below"
                    )),
                );
            }
        }
    }
    if let Some(n) = map.get_node("steps") {
        if n.as_sequence().is_none() {
            diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    cx.span(n),
                    "`steps:` must be a list of steps",
                )
                .help("write each step on its own line: `  - do: name`, `  - expect: ...`"),
            );
        }
    }
    let seats = map
        .get_node("seats")
        .and_then(|n| seats(cx, n, players, diags));
    Header {
        title,
        players,
        seed,
        seats,
    }
}

/// `players:`: a whole number the ruleset allows.
fn players(cx: &Ctx, node: Option<&Node>, diags: &mut Vec<Diagnostic>) -> usize {
    let rules = &cx.rules;
    let (min, max) = (rules.min_players, rules.max_players);
    let Some(n) = node else { return max };
    let allowed = if min == max {
        format!("{} is played by {min} players", rules.name)
    } else {
        format!("{} is played by {min} to {max} players", rules.name)
    };
    let text = scalar(n).unwrap_or_default();
    match text.trim().parse::<usize>() {
        Ok(p) if (min..=max).contains(&p) => p,
        Ok(p) => {
            diags.push(
                Diagnostic::new(
                    Code::BadPlayerCount,
                    cx.span(n),
                    format!("{allowed}, not {p}"),
                )
                .label("not a player count of this ruleset")
                .help(format!(
                    "set `players:` from {min} to {max}, or leave it out for {max}"
                )),
            );
            max
        }
        Err(_) => {
            diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    cx.span(n),
                    format!("`players:` must be a whole number, not `{text}`"),
                )
                .help(format!("{allowed}: write e.g. `players: {max}`")),
            );
            max
        }
    }
}

/// `seed:`: a whole number from 0 to 2^64 - 1.
fn seed(cx: &Ctx, node: Option<&Node>, diags: &mut Vec<Diagnostic>) -> u64 {
    let Some(n) = node else { return 0 };
    let text = scalar(n).unwrap_or_default();
    text.trim().parse::<u64>().unwrap_or_else(|_| {
        diags.push(
            Diagnostic::new(
                Code::BadValue,
                cx.span(n),
                format!(
                    "`seed:` must be a whole number from 0 to {}, not `{text}`",
                    u64::MAX
                ),
            )
            .help("the seed drives the rules' random draws: any such number will do"),
        );
        0
    })
}

/// Whether `s` can be written as a name in the rules language.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// What a global name of the ruleset is, for a seat name that would hide it.
fn shadowed(g: &Global) -> Option<&'static str> {
    match g {
        Global::Item(k, _) if *k == PLAYER => None,
        Global::Item(..) | Global::Ambiguous(_) => Some("an item"),
        Global::Kind(_) => Some("a kind"),
        Global::Param(_) => Some("a parameter"),
        Global::Var(_) => Some("a state variable"),
        Global::Func(_) => Some("a function or procedure"),
    }
}

/// `seats:`: one distinct name per seat, none hiding a name of the rules.
fn seats(cx: &Ctx, n: &Node, players: usize, diags: &mut Vec<Diagnostic>) -> Option<Vec<String>> {
    let Some(list) = n.as_sequence() else {
        diags.push(
            Diagnostic::new(
                Code::BadValue,
                cx.span(n),
                "`seats:` must be a list of names, one per seat",
            )
            .help("write e.g. `seats: [red, blue]`"),
        );
        return None;
    };
    let before = diags.len();
    if list.len() != players {
        diags.push(
            Diagnostic::new(
                Code::BadPlayerCount,
                cx.span(n),
                format!(
                    "`seats:` names {} seat{} but the scenario has {players} players",
                    list.len(),
                    if list.len() == 1 { "" } else { "s" }
                ),
            )
            .help("name every seat, in seat order, or set `players:` to match"),
        );
    }
    let mut names: Vec<String> = Vec::new();
    for item in list.iter() {
        let sp = cx.span(item);
        let Some(name) = scalar(item) else {
            diags.push(Diagnostic::new(
                Code::BadValue,
                sp,
                "a seat name must be a name, not a list or a mapping",
            ));
            continue;
        };
        if !is_identifier(&name) || is_reserved(&name) {
            diags.push(
                Diagnostic::new(Code::ReservedName, sp, format!("`{name}` cannot name a seat"))
                    .help("a seat name is a name of the rules language (letters, digits, `_`), not one the language reserves"),
            );
        } else if names.contains(&name) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    sp,
                    format!("the seat name `{name}` is given twice"),
                )
                .label("named again here")
                .help("give each seat its own name"),
            );
        } else if let Some(what) = cx.rules.symbols.get(&name).and_then(shadowed) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    sp,
                    format!("the seat name `{name}` is already {what} of the ruleset"),
                )
                .label("would hide it")
                .help("choose another name: the scenario's code could not tell them apart"),
            );
        }
        names.push(name);
    }
    (diags.len() == before).then_some(names)
}

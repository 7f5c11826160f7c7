//! Scenarios: scripted positions and decisions with asserted outcomes.
//!
//! A scenario file (`rules/<game>/examples/*.yaml`) names the ruleset
//! (default: the one whose `examples/` holds it), the players and seed,
//! `setup` statements that build the position, `run` statements whose
//! decisions the `steps` make, and the steps themselves:
//!
//! * `do: name` — apply a legal decision;
//! * `refuse: name` (+ `because: text`) — the decision must be refused;
//! * `options: [a, b]` — exactly these decisions are legal now;
//! * `expect: {expr: value, ...}` — each expression has that value;
//! * `check: expr` — a boolean expression holds.
//!
//! The header (`header`) is checked before anything runs; a scenario that
//! asserts nothing fails.

mod code;
mod header;
pub mod origin;
mod steps;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marked_yaml::types::MarkedMappingNode;
use marked_yaml::Node;

use crate::engine::{ApplyError, Game};
use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::{Ruleset, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::model::data::node_span;
use crate::model::LoadError;
use code::{compile_program, scalar, Ctx};

/// The result of one scenario.
#[derive(Debug)]
pub struct Outcome {
    /// The scenario's title.
    pub title: String,
    /// What happened, step by step (snapshotted by the tests).
    pub transcript: Vec<String>,
    /// Failed assertions and errors, rendered with their places.
    pub failures: Diagnostics,
    /// Number of assertions checked (expect, check, refuse, options).
    pub assertions: usize,
}

impl Outcome {
    /// Whether every step passed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Why a scenario could not be run at all. (A scenario that runs but
/// whose steps fail gives an [`Outcome`] holding the failures.)
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The scenario file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid YAML, its header has mistakes (a player count
    /// the ruleset does not allow, a ruleset outside the allowed places...)
    /// or its ruleset has mistakes.
    #[error("{}", .0.render_plain())]
    Invalid(Diagnostics),
    /// The file is larger than a scenario can be.
    #[error("{0}")]
    TooLarge(origin::ReadError),
    /// The file is YAML but not a mapping.
    #[error("{}: a scenario is a YAML mapping", .0.display())]
    NotAMapping(PathBuf),
    /// The ruleset cannot be found.
    #[error("{0}")]
    Ruleset(LoadError),
    /// The file cannot be read again as YAML.
    #[error("{0}")]
    Yaml(marked_yaml::LoadError),
    /// The game cannot start.
    #[error("{0}")]
    Start(ApplyError),
    /// The rules failed while the scenario's program ran (the rendered
    /// report, with the rules code).
    #[error("{0}")]
    Rules(String),
}

/// The largest scenario file read, in bytes.
pub const MAX_SCENARIO_BYTES: u64 = 16 << 20;

/// Runs one scenario file, with the ruleset it names (or the one whose
/// `examples/` holds it).
pub fn run_file(path: &Path) -> Result<Outcome, ScenarioError> {
    run_file_with(path, &Applied::default())
}

/// What the command line applies to every scenario it runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Applied<'a> {
    /// A ruleset directory in place of the one each file names.
    pub ruleset: Option<&'a Path>,
    /// Variants (names or paths) applied after the file's `variants:`.
    pub variants: &'a [String],
    /// Parameters set (`NAME`, `VALUE` as YAML) after every variant.
    pub set: &'a [(String, String)],
}

/// Runs one scenario file with what the command line applies (`applied`):
/// its ruleset in place of the one the file names, its variants after the
/// file's, its parameters set last.
pub fn run_file_with(path: &Path, applied: &Applied) -> Result<Outcome, ScenarioError> {
    let text =
        origin::read_limited(path, MAX_SCENARIO_BYTES, "a scenario").map_err(|e| match e {
            origin::ReadError::Io { path, source } => ScenarioError::Read { path, source },
            e => ScenarioError::TooLarge(e),
        })?;
    let (mut cx, root) = load(path, &text, applied)?;
    let map = root.as_mapping().expect("checked by load");
    let mut mistakes = Vec::new();
    let head = header::read(&cx, map, &mut mistakes);
    if !mistakes.is_empty() {
        return Err(ScenarioError::Invalid(Diagnostics {
            sources: cx.rules.sources.clone(),
            items: mistakes,
        }));
    }
    if let Some(names) = &head.seats {
        rename_seats(&mut cx.rules, names);
    }
    let mut out = Outcome {
        title: head.title.clone(),
        transcript: vec![format!("# {}", head.title)],
        failures: Diagnostics::default(),
        assertions: 0,
    };
    let program = compile_program(&mut cx, map.get_node("setup"), map.get_node("run"));
    if let Some(func) = program {
        let mut game = start_game(&cx.rules, head.players, head.seed, func)?;
        if let Some(steps) = map.get_node("steps").and_then(|n| n.as_sequence()) {
            for step in steps.iter() {
                steps::run_step(&mut cx, &mut game, step, &mut out);
            }
        }
    }
    if out.assertions == 0 && cx.fails.is_empty() {
        // At the `steps:` key, else at the start of the file.
        let at = map
            .keys()
            .find(|k| k.as_str() == "steps")
            .map_or(Span::new(cx.file, 0, 0), |k| {
                cx.span(&Node::Scalar(k.clone()))
            });
        cx.fail(
            Code::ScenarioAssertsNothing,
            at,
            "the scenario asserts nothing",
            "add `expect:`, `check:`, `refuse:` or `options:` steps: a scenario that only makes decisions proves nothing",
        );
    }
    out.failures = Diagnostics {
        sources: cx.rules.sources.clone(),
        items: cx.fails,
    };
    Ok(out)
}

/// The ruleset directory of a scenario: `ruleset` given on the command
/// line, else the one the file names (held to the places a file may name,
/// see [`origin`]), else the one whose `examples/` holds the file.
fn ruleset_dir(
    path: &Path,
    map: &MarkedMappingNode,
    ruleset: Option<&Path>,
    pre: &mut Diagnostics,
    text: &str,
) -> Option<PathBuf> {
    if let Some(r) = ruleset {
        return Some(r.to_path_buf());
    }
    let Some(node) = map.get_node("ruleset") else {
        let parent = path.parent().unwrap_or(Path::new("."));
        let dir = if parent.file_name().is_some_and(|n| n == "examples") {
            parent.parent().unwrap_or(parent)
        } else {
            parent
        };
        return Some(if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir.to_path_buf()
        });
    };
    let sp = node_span(0, text, node.span());
    let name = scalar(node).unwrap_or_default();
    match origin::ruleset_in_file(&name) {
        Ok(dir) => Some(dir),
        Err(e) => {
            pre.push(
                Diagnostic::new(Code::PathOutside, sp, format!("{e}"))
                    .label("not a place a ruleset may come from")
                    .help(e.help("tabula scenario FILE")),
            );
            None
        }
    }
}

/// `variants:`: a list of plain variant names.
fn variants(map: &MarkedMappingNode, pre: &mut Diagnostics, text: &str) -> Vec<String> {
    let Some(node) = map.get_node("variants") else {
        return Vec::new();
    };
    let Some(list) = node.as_sequence() else {
        pre.push(
            Diagnostic::new(
                Code::BadValue,
                node_span(0, text, node.span()),
                "`variants:` must be a list of variant names",
            )
            .help("write e.g. `variants: [advanced]`"),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in list.iter() {
        let sp = node_span(0, text, item.span());
        let name = scalar(item).unwrap_or_default();
        match origin::variant_in_file(&name) {
            Ok(()) => out.push(name),
            Err(e) => {
                pre.push(Diagnostic::new(Code::PathOutside, sp, format!("{e}")).help(e.help("")))
            }
        }
    }
    out
}

/// Loads the ruleset a scenario names (or the command line's, with its
/// variants and parameters: `applied`) and adds the scenario file to its
/// sources; returns the context and the file's YAML, a mapping, with spans
/// into that file.
fn load(path: &Path, text: &str, applied: &Applied) -> Result<(Ctx, Node), ScenarioError> {
    let mut pre = Diagnostics::default();
    pre.sources.add(path.display().to_string(), text);
    let probe = crate::model::data::parse_yaml(0, text, &mut pre);
    let Some(root) = probe else {
        return Err(ScenarioError::Invalid(pre));
    };
    let map = root
        .as_mapping()
        .ok_or_else(|| ScenarioError::NotAMapping(path.to_path_buf()))?;
    let dir = ruleset_dir(path, map, applied.ruleset, &mut pre, text);
    let mut variants = variants(map, &mut pre, text);
    variants.extend(applied.variants.iter().cloned());
    let Some(dir) = dir.filter(|_| pre.is_empty()) else {
        return Err(ScenarioError::Invalid(pre));
    };
    // The variants the game's player count needs come with it
    // (`variants_by_players:`); the header checks the count itself later.
    let loaded = crate::model::load_with(&dir, &variants, applied.set).and_then(|r| {
        let players = map
            .get_node("players")
            .and_then(scalar)
            .and_then(|t| t.parse().ok());
        let players = players.unwrap_or(r.max_players);
        crate::model::with_players(r, &dir, players)
    });
    let mut rules = match loaded {
        Ok(r) => r,
        Err(LoadError::Invalid(d)) => return Err(ScenarioError::Invalid(d)),
        Err(e) => return Err(ScenarioError::Ruleset(e)),
    };
    let base = dir.parent().unwrap_or(Path::new("."));
    let name = path
        .strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string();
    let file = rules.sources.add(name, text);
    // Re-parse with the right file id so spans point into the scenario.
    let root = marked_yaml::parse_yaml(file as usize, text).map_err(ScenarioError::Yaml)?;
    let text = rules.sources.file(file).text.clone();
    let cx = Ctx {
        rules,
        file,
        text,
        fails: Vec::new(),
    };
    Ok((cx, root))
}

/// Renames the seats to `names` (in order; checked by the header to be
/// distinct and one per seat): the old names no longer name anyone.
fn rename_seats(rules: &mut Ruleset, names: &[String]) {
    for old in rules.kinds[PLAYER as usize].items.clone() {
        if !names.contains(&old) && matches!(rules.symbols.get(&old), Some(Global::Item(PLAYER, _)))
        {
            rules.symbols.remove(&old);
        }
    }
    for (i, n) in names.iter().enumerate() {
        if i < rules.kinds[PLAYER as usize].items.len() {
            rules.kinds[PLAYER as usize].items[i] = n.clone();
            rules
                .symbols
                .redefine(n, Global::Item(PLAYER, i as i64), Span::default());
        }
    }
}

/// The game at the start of the scenario: the initial state of `players`
/// seats with the scenario's program `func` (its `setup` and `run`) started.
fn start_game(
    rules: &Ruleset,
    players: usize,
    seed: u64,
    func: u32,
) -> Result<Game, ScenarioError> {
    let rules = Arc::new(rules.clone());
    let mut state = Game::initial_state(&rules, players, seed).map_err(ScenarioError::Start)?;
    crate::engine::vm::start(&mut state, func, &rules, Vec::new());
    match Game::from_state(rules.clone(), state, seed) {
        Ok(g) => Ok(g),
        Err(ApplyError::Runtime(e)) => Err(ScenarioError::Rules(crate::engine::view::report(
            &rules, &e,
        ))),
        Err(e) => Err(ScenarioError::Start(e)),
    }
}

/// Every scenario file under the given files and directories.
pub fn collect(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|rd| {
                    rd.flatten()
                        .map(|e| e.path())
                        .filter(|x| x.extension().is_some_and(|e| e == "yaml"))
                        .collect()
                })
                .unwrap_or_default();
            v.sort();
            out.extend(v);
        } else {
            out.push(p.clone());
        }
    }
    out
}

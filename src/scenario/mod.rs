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

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marked_yaml::Node;

use crate::engine::{ApplyError, Game};
use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::lang::parser;
use crate::model::data::node_span;
use crate::model::load::syntax_diag;
use crate::model::snippet;
use crate::model::LoadError;

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

struct Ctx {
    rules: Ruleset,
    file: u32,
    text: Arc<str>,
    fails: Vec<Diagnostic>,
}

impl Ctx {
    fn span(&self, n: &Node) -> Span {
        node_span(self.file, &self.text, n.span())
    }

    fn fail(&mut self, code: Code, span: Span, msg: impl Into<String>, help: impl Into<String>) {
        self.fails
            .push(Diagnostic::new(code, span, msg).help(help.into()));
    }

    /// Offset map for a snippet written in the scenario file.
    fn map_for(&self, node: &Node, snippet: &str) -> Vec<usize> {
        let start = self.span(node).start as usize;
        let src = &self.text;
        let mut table = Vec::new();
        let mut from = start;
        for line in snippet.split('\n') {
            let needle = line.trim_end();
            let found = if needle.is_empty() {
                None
            } else {
                src[from.min(src.len())..].find(needle)
            };
            match found {
                Some(pos) => {
                    table.push(from + pos);
                    from += pos + needle.len();
                }
                None => table.push(from.min(src.len())),
            }
        }
        table
    }
}

fn map_offset(table: &[usize], snippet: &str, o: usize) -> usize {
    let before = &snippet[..o.min(snippet.len())];
    let line = before.matches('\n').count();
    let col = before.rsplit('\n').next().map_or(0, |l| l.len());
    table.get(line).copied().unwrap_or(0) + col
}

fn scalar(n: &Node) -> Option<String> {
    n.as_scalar().map(|s| s.as_str().to_string())
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
    /// The file is not valid YAML, or its ruleset has mistakes.
    #[error("{}", .0.render_plain())]
    Invalid(Diagnostics),
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

/// Runs one scenario file.
pub fn run_file(path: &Path) -> Result<Outcome, ScenarioError> {
    let text = std::fs::read_to_string(path).map_err(|source| ScenarioError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let (mut cx, root) = load(path, &text)?;
    let map = root.as_mapping().expect("checked by load");
    let mut key_diags = Diagnostics::default();
    crate::model::data::check_keys(
        cx.file,
        &cx.text.clone(),
        map,
        &[
            "title", "source", "ruleset", "variants", "players", "seed", "seats", "setup", "run",
            "steps", "notes",
        ],
        "a scenario",
        &mut key_diags,
    );
    cx.fails.append(&mut key_diags.items);
    let title = map
        .get_node("title")
        .and_then(scalar)
        .unwrap_or_else(|| "untitled".into());
    let players: usize = map
        .get_node("players")
        .and_then(scalar)
        .and_then(|s| s.parse().ok())
        .unwrap_or(cx.rules.max_players);
    let seed: u64 = map
        .get_node("seed")
        .and_then(scalar)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    if let Some(seats) = map.get_node("seats").and_then(|n| n.as_sequence()) {
        let names: Vec<String> = seats.iter().filter_map(scalar).collect();
        rename_seats(&mut cx.rules, &names);
    }
    let mut out = Outcome {
        title: title.clone(),
        transcript: vec![format!("# {title}")],
        failures: Diagnostics::default(),
        assertions: 0,
    };
    let program = compile_program(&mut cx, map.get_node("setup"), map.get_node("run"));
    if let Some(func) = program {
        let mut game = start_game(&cx.rules, players, seed, func)?;
        if let Some(steps) = map.get_node("steps").and_then(|n| n.as_sequence()) {
            for step in steps.iter() {
                run_step(&mut cx, &mut game, step, &mut out);
            }
        }
    }
    out.failures = Diagnostics {
        sources: cx.rules.sources.clone(),
        items: cx.fails,
    };
    Ok(out)
}

/// Loads the ruleset a scenario names (default: the one whose `examples/`
/// holds it) and adds the scenario file to its sources; returns the
/// context and the file's YAML, a mapping, with spans into that file.
fn load(path: &Path, text: &str) -> Result<(Ctx, Node), ScenarioError> {
    let ruleset_dir = path
        .parent()
        .and_then(|p| {
            if p.file_name().is_some_and(|n| n == "examples") {
                p.parent()
            } else {
                Some(p)
            }
        })
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut pre = Diagnostics::default();
    pre.sources.add(path.display().to_string(), text);
    let probe = crate::model::data::parse_yaml(0, text, &mut pre);
    let Some(root) = probe else {
        return Err(ScenarioError::Invalid(pre));
    };
    let map = root
        .as_mapping()
        .ok_or_else(|| ScenarioError::NotAMapping(path.to_path_buf()))?;
    let get = |k: &str| map.get_node(k);
    let ruleset_arg = get("ruleset").and_then(scalar);
    let dir = match &ruleset_arg {
        Some(r) => crate::model::find_ruleset(r),
        None => ruleset_dir,
    };
    let variants: Vec<String> = get("variants")
        .and_then(|n| {
            n.as_sequence()
                .map(|s| s.iter().filter_map(scalar).collect())
        })
        .unwrap_or_default();
    let mut rules = match crate::model::load(&dir, &variants) {
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

/// Renames the seats to `names` (in order): the old names no longer name
/// anyone.
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

fn compile_program(cx: &mut Ctx, setup: Option<&Node>, run: Option<&Node>) -> Option<u32> {
    let mut stmts = Vec::new();
    let mut span = Span::new(cx.file, 0, 0);
    for node in [setup, run].into_iter().flatten() {
        let Some(src) = scalar(node) else { continue };
        let table = cx.map_for(node, &src);
        let src2 = src.clone();
        let m = move |o: usize| map_offset(&table, &src2, o);
        span = cx.span(node);
        match parser::parse_stmts(cx.file, &src, &m) {
            Ok(mut s) => stmts.append(&mut s),
            Err(e) => {
                cx.fails.push(syntax_diag(e));
                return None;
            }
        }
    }
    match snippet::add_proc(&mut cx.rules, &stmts, span) {
        Ok(f) => Some(f),
        Err(ds) => {
            cx.fails.extend(ds);
            None
        }
    }
}

fn compile_expr(cx: &mut Ctx, node: &Node, src: &str) -> Option<(u32, Ty)> {
    let table = cx.map_for(node, src);
    let src2 = src.to_string();
    let m = move |o: usize| map_offset(&table, &src2, o);
    let e = match parser::parse_expr(cx.file, src, &m) {
        Ok(e) => e,
        Err(e) => {
            cx.fails.push(syntax_diag(e));
            return None;
        }
    };
    match snippet::add_expr(&mut cx.rules, &e) {
        Ok(x) => Some(x),
        Err(ds) => {
            cx.fails.extend(ds);
            None
        }
    }
}

fn eval_expr(cx: &mut Ctx, game: &mut Game, node: &Node, src: &str) -> Option<(String, Ty)> {
    let (f, ty) = compile_expr(cx, node, src)?;
    // The game holds its own copy of the ruleset: evaluate with ours.
    let rules = cx.rules.clone();
    let mut st = game.state().clone();
    match crate::engine::vm::eval(&rules, &mut st, f, Vec::new()) {
        Ok(v) => {
            let shown = match &ty {
                Ty::Set(k) => {
                    let names: Vec<String> = crate::engine::vm::elements(&v)
                        .iter()
                        .map(|e| rules.display(&Ty::Ent(*k), *e, st.nplayers))
                        .collect();
                    format!("{{{}}}", names.join(", "))
                }
                _ => rules.display(&ty, v.int(), st.nplayers),
            };
            Some((shown, ty))
        }
        Err(e) => {
            cx.fails.push(
                Diagnostic::new(
                    e.kind.code(),
                    cx.span(node),
                    format!("cannot evaluate: {}", e.message),
                )
                .help("check the expression"),
            );
            None
        }
    }
}

/// Runs one step: each of its keys (`do`, `refuse`, `options`, `expect`,
/// `check`) in that order.
fn run_step(cx: &mut Ctx, game: &mut Game, step: &Node, out: &mut Outcome) {
    let Some(m) = step.as_mapping() else {
        let sp = cx.span(step);
        cx.fail(Code::BadValue, sp, "a step must be a mapping", "write `- do: name`, `- refuse: name`, `- expect: {...}`, `- check: expr` or `- options: [...]`");
        return;
    };
    let mut step_diags = Diagnostics::default();
    crate::model::data::check_keys(
        cx.file,
        &cx.text.clone(),
        m,
        &[
            "do", "refuse", "because", "options", "expect", "check", "note",
        ],
        "a step",
        &mut step_diags,
    );
    cx.fails.append(&mut step_diags.items);
    if let Some(n) = m.get_node("do") {
        step_do(cx, game, n, out);
    }
    if let Some(n) = m.get_node("refuse") {
        let because = m.get_node("because").and_then(scalar);
        step_refuse(cx, game, n, because, out);
    }
    if let Some(n) = m.get_node("options") {
        step_options(cx, game, n, out);
    }
    if let Some(n) = m.get_node("expect").and_then(|n| n.as_mapping()) {
        for (k, v) in n.iter() {
            step_expect(cx, game, k, v, out);
        }
    }
    if let Some(n) = m.get_node("check") {
        step_check(cx, game, n, out);
    }
}

/// `do: name`: applies the decision.
fn step_do(cx: &mut Ctx, game: &mut Game, n: &Node, out: &mut Outcome) {
    let name = scalar(n).unwrap_or_default();
    let who = game
        .to_move()
        .map(|p| game.rules().kinds[PLAYER as usize].items[p].clone())
        .unwrap_or_else(|| "-".into());
    let prompt = game.prompt().unwrap_or("").to_string();
    match game.apply_named(&name) {
        Ok(()) => out.transcript.push(format!("{who} ({prompt}): {name}")),
        Err(e) => {
            let sp = cx.span(n);
            cx.fail(
                e.kind().map_or(Code::ScenarioRefused, |k| k.code()),
                sp,
                format!("decision `{name}` failed: {e}"),
                "the scenario's decisions must be legal in order",
            );
        }
    }
}

/// `refuse: name` (+ `because: text`): the decision must be refused, for
/// a reason containing `because`.
fn step_refuse(
    cx: &mut Ctx,
    game: &mut Game,
    n: &Node,
    because: Option<String>,
    out: &mut Outcome,
) {
    out.assertions += 1;
    let name = scalar(n).unwrap_or_default();
    let sp = cx.span(n);
    match game.legal() {
        Ok(legal) if legal.iter().any(|d| *d.name == *name) => {
            cx.fail(
                Code::ScenarioNotRefused,
                sp,
                format!("`{name}` should be refused, but it is legal"),
                "the rules allow it: fix the rules or the scenario",
            );
        }
        Ok(_) => {
            let refused = game.refused().unwrap_or_default();
            let reason = refused
                .iter()
                .find(|r| r.name == name)
                .map(|r| r.reason.clone())
                .unwrap_or_else(|| "not offered".into());
            if let Some(b) = &because {
                if !reason.contains(b.as_str()) {
                    cx.fail(
                        Code::ScenarioWrongReason,
                        sp,
                        format!("`{name}` is refused because \"{reason}\", not \"{b}\""),
                        "adjust `because:`",
                    );
                }
            }
            out.transcript.push(format!("refused {name}: {reason}"));
        }
        Err(e) => cx.fail(
            e.kind().map_or(Code::ScenarioNotRefused, |k| k.code()),
            sp,
            format!("no decision to refuse: {e}"),
            "check the steps before",
        ),
    }
}

/// `options: [a, b]`: exactly these decisions are legal now.
fn step_options(cx: &mut Ctx, game: &mut Game, n: &Node, out: &mut Outcome) {
    out.assertions += 1;
    let want: Vec<String> = n
        .as_sequence()
        .map(|s| s.iter().filter_map(scalar).collect())
        .unwrap_or_default();
    let mut got: Vec<String> = game
        .legal()
        .map(|l| l.into_iter().map(|d| d.name.to_string()).collect())
        .unwrap_or_default();
    let mut w = want.clone();
    w.sort();
    got.sort();
    if w != got {
        let sp = cx.span(n);
        cx.fail(
            Code::ScenarioWrongOptions,
            sp,
            format!(
                "legal decisions are [{}], expected [{}]",
                got.join(", "),
                want.join(", ")
            ),
            "fix the rules or the scenario",
        );
    } else {
        out.transcript
            .push(format!("options: [{}]", want.join(", ")));
    }
}

/// One entry `expr: value` of `expect:`: the expression has that value.
fn step_expect(
    cx: &mut Ctx,
    game: &mut Game,
    k: &marked_yaml::types::MarkedScalarNode,
    v: &Node,
    out: &mut Outcome,
) {
    out.assertions += 1;
    let src = k.as_str().to_string();
    let want = scalar(v).unwrap_or_default();
    let key_node = Node::Scalar(k.clone());
    if let Some((got, _)) = eval_expr(cx, game, &key_node, &src) {
        if got == want {
            out.transcript.push(format!("{src} = {got}"));
        } else {
            let sp = cx.span(&key_node);
            cx.fail(
                Code::ScenarioWrongValue,
                sp,
                format!("`{src}` is {got}, expected {want}"),
                "the rules and the scenario disagree",
            );
            out.transcript
                .push(format!("{src} = {got} (expected {want})"));
        }
    }
}

/// `check: expr`: a boolean expression holds.
fn step_check(cx: &mut Ctx, game: &mut Game, n: &Node, out: &mut Outcome) {
    out.assertions += 1;
    let src = scalar(n).unwrap_or_default();
    if let Some((got, ty)) = eval_expr(cx, game, n, &src) {
        if ty != Ty::Bool && ty != Ty::Error {
            let sp = cx.span(n);
            cx.fail(
                Code::TypeMismatch,
                sp,
                "`check:` needs a true/false expression",
                "use `expect:` for values",
            );
        } else if got != "true" {
            let sp = cx.span(n);
            cx.fail(
                Code::ScenarioWrongValue,
                sp,
                format!("`{src}` does not hold"),
                "the rules and the scenario disagree",
            );
        } else {
            out.transcript.push(format!("check {src}"));
        }
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

/// Runs scenario files (or every `*.yaml` under directories) and prints what
/// differs; returns the process exit code (0 when all pass).
pub fn cli_main(paths: &[PathBuf]) -> i32 {
    let files = collect(paths);
    if files.is_empty() {
        eprintln!("error: no scenario files found");
        return 1;
    }
    let mut failed = 0;
    for f in &files {
        match run_file(f) {
            Ok(o) if o.passed() => println!(
                "ok    {} — {} ({} assertions)",
                f.display(),
                o.title,
                o.assertions
            ),
            Ok(o) => {
                failed += 1;
                println!("FAIL  {} — {}", f.display(), o.title);
                eprint!("{}", o.failures.render_plain());
            }
            Err(e) => {
                failed += 1;
                println!("ERROR {}", f.display());
                eprintln!("{e}");
            }
        }
    }
    println!("{} passed, {} failed", files.len() - failed, failed);
    i32::from(failed > 0)
}

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
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::lang::parser;
use crate::model::data::node_span;
use crate::model::load::syntax_diag;
use crate::model::snippet;

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

    fn fail(&mut self, span: Span, msg: impl Into<String>, help: impl Into<String>) {
        self.fails
            .push(Diagnostic::new(span, msg).help(help.into()));
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

/// Runs one scenario file.
pub fn run_file(path: &Path) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
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
    pre.sources.add(path.display().to_string(), text.as_str());
    let probe = crate::model::data::parse_yaml(0, &text, &mut pre);
    let Some(root) = probe else {
        return Err(pre.render_plain());
    };
    let map = root
        .as_mapping()
        .ok_or_else(|| format!("{}: a scenario is a YAML mapping", path.display()))?;
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
        Err(crate::model::LoadError::Invalid(d)) => return Err(d.render_plain()),
        Err(e) => return Err(e.to_string()),
    };
    let base = dir.parent().unwrap_or(Path::new("."));
    let name = path
        .strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string();
    let file = rules.sources.add(name, text.as_str());
    // Re-parse with the right file id so spans point into the scenario.
    let root = marked_yaml::parse_yaml(file as usize, &text).map_err(|e| e.to_string())?;
    let text_arc = rules.sources.file(file).text.clone();
    let mut cx = Ctx {
        rules,
        file,
        text: text_arc,
        fails: Vec::new(),
    };
    let map = root.as_mapping().expect("checked above");
    let mut key_diags = Diagnostics::default();
    crate::model::data::check_keys(
        file,
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
        // The old seat names no longer name anyone.
        for old in cx.rules.kinds[PLAYER as usize].items.clone() {
            if !names.contains(&old)
                && matches!(cx.rules.symbols.get(&old), Some(Global::Item(PLAYER, _)))
            {
                cx.rules.symbols.remove(&old);
            }
        }
        for (i, n) in names.iter().enumerate() {
            if i < cx.rules.kinds[PLAYER as usize].items.len() {
                cx.rules.kinds[PLAYER as usize].items[i] = n.clone();
                cx.rules
                    .symbols
                    .redefine(n, Global::Item(PLAYER, i as i64), Span::default());
            }
        }
    }
    let mut out = Outcome {
        title: title.clone(),
        transcript: vec![format!("# {title}")],
        failures: Diagnostics::default(),
        assertions: 0,
    };
    let program = compile_program(&mut cx, map.get_node("setup"), map.get_node("run"));
    let Some(func) = program else {
        out.failures = Diagnostics {
            sources: cx.rules.sources.clone(),
            items: cx.fails,
        };
        return Ok(out);
    };
    let rules = Arc::new(cx.rules.clone());
    let mut state = match Game::initial_state(&rules, players, seed) {
        Ok(s) => s,
        Err(e) => return Err(e.to_string()),
    };
    crate::engine::vm::start(&mut state, func, &rules, Vec::new());
    let mut game = match Game::from_state(rules.clone(), state, seed) {
        Ok(g) => g,
        Err(ApplyError::Runtime(e)) => return Err(crate::engine::view::report(&rules, &e)),
        Err(e) => return Err(e.to_string()),
    };
    if let Some(steps) = map.get_node("steps").and_then(|n| n.as_sequence()) {
        for step in steps.iter() {
            run_step(&mut cx, &mut game, step, &mut out);
        }
    }
    out.failures = Diagnostics {
        sources: cx.rules.sources.clone(),
        items: cx.fails,
    };
    Ok(out)
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
                Diagnostic::new(cx.span(node), format!("cannot evaluate: {}", e.message))
                    .help("check the expression"),
            );
            None
        }
    }
}

fn run_step(cx: &mut Ctx, game: &mut Game, step: &Node, out: &mut Outcome) {
    let Some(m) = step.as_mapping() else {
        let sp = cx.span(step);
        cx.fail(sp, "a step must be a mapping", "write `- do: name`, `- refuse: name`, `- expect: {...}`, `- check: expr` or `- options: [...]`");
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
    let mover = |g: &Game| {
        g.to_move()
            .map(|p| g.rules().kinds[PLAYER as usize].items[p].clone())
            .unwrap_or_else(|| "-".into())
    };
    if let Some(n) = m.get_node("do") {
        let name = scalar(n).unwrap_or_default();
        let who = mover(game);
        let prompt = game.prompt().unwrap_or("").to_string();
        match game.apply_named(&name) {
            Ok(()) => out.transcript.push(format!("{who} ({prompt}): {name}")),
            Err(e) => {
                let sp = cx.span(n);
                cx.fail(
                    sp,
                    format!("decision `{name}` failed: {e}"),
                    "the scenario's decisions must be legal in order",
                );
            }
        }
    }
    if let Some(n) = m.get_node("refuse") {
        out.assertions += 1;
        let name = scalar(n).unwrap_or_default();
        let because = m.get_node("because").and_then(scalar);
        let sp = cx.span(n);
        match game.legal() {
            Ok(legal) if legal.iter().any(|d| *d.name == *name) => {
                cx.fail(
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
                            sp,
                            format!("`{name}` is refused because \"{reason}\", not \"{b}\""),
                            "adjust `because:`",
                        );
                    }
                }
                out.transcript.push(format!("refused {name}: {reason}"));
            }
            Err(e) => cx.fail(
                sp,
                format!("no decision to refuse: {e}"),
                "check the steps before",
            ),
        }
    }
    if let Some(n) = m.get_node("options") {
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
    if let Some(n) = m.get_node("expect").and_then(|n| n.as_mapping()) {
        for (k, v) in n.iter() {
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
                        sp,
                        format!("`{src}` is {got}, expected {want}"),
                        "the rules and the scenario disagree",
                    );
                    out.transcript
                        .push(format!("{src} = {got} (expected {want})"));
                }
            }
        }
    }
    if let Some(n) = m.get_node("check") {
        out.assertions += 1;
        let src = scalar(n).unwrap_or_default();
        if let Some((got, ty)) = eval_expr(cx, game, n, &src) {
            if ty != Ty::Bool && ty != Ty::Error {
                let sp = cx.span(n);
                cx.fail(
                    sp,
                    "`check:` needs a true/false expression",
                    "use `expect:` for values",
                );
            } else if got != "true" {
                let sp = cx.span(n);
                cx.fail(
                    sp,
                    format!("`{src}` does not hold"),
                    "the rules and the scenario disagree",
                );
            } else {
                out.transcript.push(format!("check {src}"));
            }
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

//! The shape of the source tree, checked: layers import downward only, no
//! two modules import each other in a circle, and no file grows past the
//! size a reader takes in, test files included (docs/ARCHITECTURE.md
//! explains the layers).
//!
//! A module here is a top-level module of the crate (`engine`) or one of
//! its direct children (`engine::legality`, `ir::grid`); an import is any
//! `crate::a::b` path written outside a comment.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What each layer may import (besides itself).
const LAYERS: &[(&str, &[&str])] = &[
    ("ir", &[]),
    ("lang", &["ir"]),
    ("model", &["ir", "lang"]),
    ("engine", &["ir"]),
    ("agents", &["ir", "engine"]),
    ("sim", &["ir", "model", "engine", "agents"]),
    ("scenario", &["ir", "lang", "model", "engine"]),
    ("translate", &["ir", "lang", "model", "engine", "scenario"]),
    (
        "cli",
        &[
            "ir",
            "lang",
            "model",
            "engine",
            "agents",
            "sim",
            "scenario",
            "translate",
        ],
    ),
];

/// Longest source file, in lines.
const MAX_LINES: usize = 800;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a readable directory")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under src/ (`engine/vm/mod.rs` -> engine, vm).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The node of the graph a module path belongs to: its first two names.
fn node(path: &[String]) -> String {
    path.iter().take(2).cloned().collect::<Vec<_>>().join("::")
}

/// The text of a file without its comments (line and doc comments).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a` or `crate::a::b` written in the code, as a module path
/// (a capitalised or unknown second name is an item, not a module); in a
/// direct child of a layer (`engine/game.rs`), `super::b` is `engine::b`.
fn imports(code: &str, path: &[String], modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let layer = path.first().cloned().unwrap_or_default();
    let mut found: Vec<(String, &str)> = code
        .match_indices("crate::")
        .map(|(i, m)| (String::new(), &code[i + m.len()..]))
        .collect();
    if path.len() == 2 {
        found.extend(
            code.match_indices("super::")
                .map(|(i, m)| (format!("{layer}::"), &code[i + m.len()..])),
        );
    }
    for (prefix, rest) in found {
        let rest = format!("{prefix}{rest}");
        let rest = rest.as_str();
        let names: Vec<&str> = rest
            .split("::")
            .take(2)
            .map(|s| {
                let end = s
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(s.len());
                &s[..end]
            })
            .collect();
        let Some(first) = names.first().filter(|n| !n.is_empty()) else {
            continue;
        };
        let two = names.get(1).map(|s| format!("{first}::{s}"));
        match two {
            Some(t) if modules.contains(&t) => out.insert(t),
            _ => out.insert(first.to_string()),
        };
    }
    out
}

struct Tree {
    /// Node -> the nodes it imports.
    edges: BTreeMap<String, BTreeSet<String>>,
    /// Files over the size limit, with their lengths.
    long: Vec<(PathBuf, usize)>,
}

fn tree() -> Tree {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| node(&module_of(&src, f))).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut long = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        if text.lines().count() > MAX_LINES {
            long.push((f.clone(), text.lines().count()));
        }
        let from = node(&module_of(&src, f));
        if from.is_empty() || from == "lib" || from == "main" {
            continue;
        }
        for to in imports(&code_of(&text), &module_of(&src, f), &modules) {
            let top_from = from.split("::").next().unwrap_or_default();
            let top_to = to.split("::").next().unwrap_or_default();
            // Within a layer, edges are between its children; across
            // layers, between the layers themselves.
            let (a, b) = if top_from == top_to {
                (from.clone(), to)
            } else {
                (top_from.to_string(), top_to.to_string())
            };
            if a != b {
                edges.entry(a).or_default().insert(b);
            }
        }
    }
    Tree { edges, long }
}

#[test]
fn layers_import_downward_only() {
    let t = tree();
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (from, tos) in &t.edges {
        if from.contains("::") {
            continue;
        }
        let ok = allowed.get(from.as_str()).unwrap_or_else(|| {
            panic!("the layer `{from}` is not in LAYERS of tests/architecture.rs")
        });
        for to in tos {
            if !to.contains("::") && !ok.contains(&to.as_str()) {
                wrong.push(format!("{from} imports {to}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_modules_import_each_other_in_a_circle() {
    let t = tree();
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    let mut cycles = Vec::new();
    fn visit<'a>(
        n: &'a str,
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
        cycles: &mut Vec<String>,
    ) {
        state.insert(n, 1);
        stack.push(n);
        for m in edges.get(n).into_iter().flatten() {
            match state.get(m.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|s| *s == m).unwrap_or(0);
                    let mut c: Vec<&str> = stack[at..].to_vec();
                    c.push(m);
                    cycles.push(c.join(" -> "));
                }
                None => visit(m, edges, state, stack, cycles),
                _ => {}
            }
        }
        stack.pop();
        state.insert(n, 2);
    }
    for n in t.edges.keys() {
        if !state.contains_key(n.as_str()) {
            visit(n, &t.edges, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn no_source_file_is_too_long() {
    let t = tree();
    assert!(
        t.long.is_empty(),
        "files over {MAX_LINES} lines (split them by concern): {:?}",
        t.long
    );
}

#[test]
fn no_test_file_is_too_long() {
    // The tests are read as the rules' evidence: the same size as sources.
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files = Vec::new();
    rust_files(&tests, &mut files);
    let long: Vec<_> = files
        .iter()
        .map(|f| {
            (
                f,
                std::fs::read_to_string(f)
                    .expect("readable test")
                    .lines()
                    .count(),
            )
        })
        .filter(|(_, n)| *n > MAX_LINES)
        .collect();
    assert!(
        long.is_empty(),
        "test files over {MAX_LINES} lines: {long:?}"
    );
    assert!(files.len() > 20, "the checker sees the test files");
}

#[test]
fn the_checker_sees_imports() {
    // The checks above prove nothing if no import is found.
    let t = tree();
    assert!(t.edges.get("cli").is_some_and(|e| e.contains("engine")));
    assert!(t.edges.get("model").is_some_and(|e| e.contains("ir")));
    assert!(t
        .edges
        .get("engine::legality")
        .is_some_and(|e| e.contains("engine::vm")));
}

#[test]
fn examples_use_only_the_library_surface() {
    // The documented surface: the crate root's re-exports and the modules
    // `agents` and `sim`; the other modules are hidden internals.
    let hidden = [
        "tabula::cli",
        "tabula::engine",
        "tabula::ir",
        "tabula::lang",
        "tabula::model",
        "tabula::scenario",
        "tabula::translate",
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    assert!(!files.is_empty(), "examples/ holds programs");
    let mut wrong = Vec::new();
    for f in &files {
        let code = code_of(&std::fs::read_to_string(f).expect("readable example"));
        for h in hidden {
            if code.contains(&format!("{h}::")) || code.contains(&format!("{h};")) {
                wrong.push(format!("{} uses {h}", f.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "examples reach into internals:\n{}",
        wrong.join("\n")
    );
}

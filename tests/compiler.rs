//! The compiler's output pinned form by form. Each file
//! `tests/compiler/*.rules` (its first line a `//` comment saying what it
//! pins) is compiled along with the ruleset `tests/rulesets/snippets`;
//! the instructions of every `fn` and `proc` it declares, then the
//! decision points with what the compiler learnt of their arms, are
//! snapshotted (`tests/compiler/snapshots/`) as `tabula check --dump all`
//! prints them.

use std::path::{Path, PathBuf};

use tabula::ir::disasm;
use tabula::lang::ast::Item;
use tabula::lang::parser::parse_file;
use tabula::model::{load, LoadError};

/// The ruleset the snippets compile against.
fn snippets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/snippets")
}

/// A copy of the snippets ruleset with `case` as one more rules file, in
/// a fresh directory.
fn ruleset_with(case: &Path) -> PathBuf {
    let name = case.file_stem().expect("a file name").to_string_lossy();
    let dir = std::env::temp_dir().join(format!("tabula-compiler-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let base = snippets();
    let game = std::fs::read_to_string(base.join("game.yaml")).expect("game.yaml");
    let files = "files: [data.yaml, base.rules]";
    assert!(
        game.contains(files),
        "the snippets' game.yaml lists `{files}`"
    );
    let game = game.replace(files, "files: [data.yaml, base.rules, case.rules]");
    std::fs::write(dir.join("game.yaml"), game).expect("game.yaml written");
    for f in ["data.yaml", "base.rules"] {
        std::fs::copy(base.join(f), dir.join(f)).expect("a file copied");
    }
    std::fs::copy(case, dir.join("case.rules")).expect("the case copied");
    dir
}

/// The names of the functions and procedures a rules file declares.
fn declared(text: &str) -> Vec<String> {
    let file = parse_file(0, text).expect("the case parses");
    file.items
        .iter()
        .filter_map(|item| match item {
            Item::Fn(d) => Some(d.name.name.clone()),
            Item::Proc(d) => Some(d.name.name.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn compiles() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("compiler/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let _guard = settings.bind_to_scope();
    insta::glob!("compiler/*.rules", |path| {
        let text = std::fs::read_to_string(path).expect("readable");
        let header = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// "))
            .unwrap_or_else(|| panic!("{}: no `// ` header line", path.display()));
        let dir = ruleset_with(path);
        let rules = match load(&dir, &[]) {
            Ok(r) => r,
            Err(LoadError::Invalid(d)) => panic!("{}:\n{}", path.display(), d.render_plain()),
            Err(e) => panic!("{}: {e}", path.display()),
        };
        std::fs::remove_dir_all(&dir).ok();
        let mut out = String::new();
        for name in declared(&text) {
            out.push_str(&disasm::dump(&rules, &name).expect("a compiled function"));
            out.push('\n');
        }
        out.push_str(&disasm::describe_choices(&rules));
        insta::with_settings!({ description => header }, {
            insta::assert_snapshot!(out);
        });
    });
}

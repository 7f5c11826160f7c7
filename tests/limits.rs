//! The limits of docs/LANGUAGE.md (section Limits) at the sizes issue 12
//! found, too large to commit as cases of `tests/hostile/`: each ruleset
//! is generated in a scratch directory (the Nim ruleset of
//! `tests/rulesets/nim` with one more file) and loaded in this process, on
//! a test thread's stack and in whatever profile the tests are built, and
//! must be refused with the announced code, never overflow the stack.

use std::path::{Path, PathBuf};

use tabula::{load, Code, LoadError};

/// A scratch copy of Nim with `extra.rules` (and `extra.yaml`, when given)
/// listed in its files.
fn nim_with(name: &str, rules: &str, yaml: Option<&str>) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("tabula-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    for f in ["data.yaml", "nim.rules"] {
        std::fs::copy(root.join("tests/rulesets/nim").join(f), dir.join(f)).expect("copy nim");
    }
    let game = std::fs::read_to_string(root.join("tests/rulesets/nim/game.yaml")).expect("game");
    let mut files = vec!["data.yaml", "nim.rules", "extra.rules"];
    if let Some(y) = yaml {
        std::fs::write(dir.join("extra.yaml"), y).expect("write extra.yaml");
        files.push("extra.yaml");
    }
    std::fs::write(dir.join("extra.rules"), rules).expect("write extra.rules");
    std::fs::write(
        dir.join("game.yaml"),
        format!("{game}files: [{}]\n", files.join(", ")),
    )
    .expect("write game.yaml");
    dir
}

/// Loads `dir` and checks that it is refused with `code` first.
fn refused(dir: &Path, code: Code, message: &str) {
    let result = load(dir, &[]);
    let _ = std::fs::remove_dir_all(dir);
    match result {
        Ok(_) => panic!("{}: loaded, but should be refused ({code})", dir.display()),
        Err(LoadError::Invalid(d)) => {
            let first = &d.items[0];
            assert_eq!(first.code, code, "{}: {}", dir.display(), first.message);
            assert!(
                first.message.contains(message),
                "{}: `{}` lacks `{message}`",
                dir.display(),
                first.message
            );
        }
        Err(e) => panic!("{}: {e}", dir.display()),
    }
}

#[test]
fn deep_nesting_is_refused_before_it_overflows_the_stack() {
    let n = 5_000;
    let nested_ifs = format!(
        "proc deep() {{ {} turns += 1; {} }}",
        "if turns > 0 { ".repeat(n),
        "} ".repeat(n)
    );
    refused(
        &nim_with("ifs", &nested_ifs, None),
        Code::TooDeep,
        "nested more than 64 deep",
    );
    let else_ifs = format!(
        "proc deep() {{ {} }}",
        vec!["if turns == 1 { turns += 1; }"; n].join(" else ")
    );
    refused(
        &nim_with("else-ifs", &else_ifs, None),
        Code::TooDeep,
        "nested more than 64 deep",
    );
    let conds = format!("fn deep() -> int = {}0;", "if true then 1 else ".repeat(n));
    refused(
        &nim_with("conds", &conds, None),
        Code::TooDeep,
        "nested more than 64 deep",
    );
    let parens = format!("fn deep() -> int = {}1{};", "(".repeat(n), ")".repeat(n));
    refused(
        &nim_with("parens", &parens, None),
        Code::TooDeep,
        "nested more than 64 deep",
    );
}

#[test]
fn long_chains_are_refused_without_deep_recursion() {
    let n = 100_000;
    let chains = [
        (
            "sum",
            format!("fn deep() -> int = {};", vec!["1"; n].join(" + ")),
        ),
        (
            "nots",
            format!("fn deep() -> bool = {}true;", "not ".repeat(n)),
        ),
        ("negs", format!("fn deep() -> int = {}1;", "- ".repeat(n))),
        (
            "fields",
            format!("fn deep() -> int = red{};", ".bonus".repeat(n)),
        ),
    ];
    for (name, text) in chains {
        refused(
            &nim_with(name, &text, None),
            Code::TooDeep,
            "nested more than 256 levels deep",
        );
    }
}

#[test]
fn counts_past_their_operands_are_refused() {
    let n = 70_000;
    let set = format!("fn s() -> set<colour> = {{{}}};", vec!["red"; n].join(", "));
    refused(
        &nim_with("set", &set, None),
        Code::TooLarge,
        "a set literal of 70,000 elements",
    );
    let arms: Vec<String> = (0..n).map(|i| format!("a{i}=>{{}}")).collect();
    let arms = format!(
        "proc arms(p: player) {{ choose by p {{ {} }} }}",
        arms.join(" ")
    );
    refused(
        &nim_with("arms", &arms, None),
        Code::TooLarge,
        "a choice of 70,000 arms",
    );
    let lets: Vec<String> = (0..n).map(|i| format!("let a{i}=0;")).collect();
    let lets = format!("proc lets() {{ {} }}", lets.join(" "));
    refused(
        &nim_with("lets", &lets, None),
        Code::TooLarge,
        "more than 65,535 locals",
    );
}

#[test]
fn rules_text_past_a_megabyte_is_refused() {
    let line = "fn f() -> int = 1; // a comment to make the rules text longer\n";
    let text = line.repeat((1 << 20) / line.len() + 1);
    refused(
        &nim_with("megabyte", &text, None),
        Code::TooLarge,
        "the rules files pass 1 MB",
    );
}

#[test]
fn yaml_nested_past_its_limit_is_refused() {
    let mut deep = String::from("params:\n  deep:\n");
    for i in 0..5_000 {
        deep.push_str(&format!("{}k{i}:\n", " ".repeat(i + 4)));
    }
    deep.push_str(&format!("{}v: 1\n", " ".repeat(5_004)));
    refused(
        &nim_with("yaml", "", Some(&deep)),
        Code::TooDeep,
        "YAML indented past column 256",
    );
}

#[cfg(unix)]
#[test]
fn a_pipe_named_as_a_file_is_refused_without_blocking() {
    let dir = nim_with("pipe", "", None);
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe.yaml"))
        .status();
    if !made.is_ok_and(|s| s.success()) {
        let _ = std::fs::remove_dir_all(&dir);
        return; // no mkfifo here: nothing to check
    }
    let game = std::fs::read_to_string(dir.join("game.yaml")).expect("game");
    std::fs::write(
        dir.join("game.yaml"),
        game.replace("extra.rules]", "extra.rules, pipe.yaml]"),
    )
    .expect("write game.yaml");
    refused(&dir, Code::UnreadableFile, "is not a regular file");
}

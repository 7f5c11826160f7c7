//! `ir::rust`, the start of `tabula compile`: the functions that never
//! reach a decision are translated to Rust source (tests/native.rs runs
//! the translation of Connect Four).

use std::path::Path;

use tabula::ir::rust;

#[test]
fn pure_functions_are_translated() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/connect-four");
    let rules = tabula::load(&dir, &[]).expect("loads");
    let src = rust::emit(&rules);
    let drop = rules
        .funcs()
        .iter()
        .position(|f| f.name == "drop")
        .expect("drop");
    let main = rules
        .funcs()
        .iter()
        .position(|f| f.name == "main")
        .expect("main");
    assert!(src.contains(&format!("fn f{drop}(")), "{src}");
    assert!(
        !src.contains(&format!("fn f{main}(")),
        "a decision is not translated"
    );
}

#[test]
fn every_ruleset_emits() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [
        "rules/tzolkin",
        "rules/tigris-euphrates",
        "rules/mexica",
        "rules/cuzco",
        "tests/rulesets/connect-four",
        "tests/rulesets/nim",
    ] {
        let rules = tabula::load(&root.join(dir), &[]).expect("loads");
        let src = rust::emit(&rules);
        let n = src.matches(", translated.").count();
        eprintln!("{dir}: {n} of {} functions translated", rules.funcs().len());
        assert!(src.ends_with("];\n"));
    }
}

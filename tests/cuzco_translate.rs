//! `tabula translate` on the Cuzco rulebook (Portuguese), when
//! `../shared/rulebooks/` holds it: nothing unexpected, every numeric
//! statement covered, every number of the rules sections checked, and
//! each confirmed number, changed, reported on its line.

use std::path::PathBuf;

use tabula::translate::{self, report, Report, Status};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn check(text: &str) -> Report {
    let name = "cuzco.pt.txt";
    match translate::run(&root().join("rules/cuzco"), &[], "pt", None, name, text) {
        Ok(r) => r,
        Err(e) => panic!("{}", e.render()),
    }
}

#[test]
fn cuzco_rulebook_is_covered_and_its_numbers_checked() {
    let path = root().join("../shared/rulebooks/cuzco.pt.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} not found", path.display());
        return;
    };
    let r = check(&text);
    let out = report::render(&r, false);
    assert!(!r.failed(), "{out}");
    let s = &r.summary;
    assert!(s.claimed_pct >= 95.0, "{out}");
    assert_eq!(s.numbers_checked, s.numbers, "{out}");
    assert!(s.confirmed > s.recorded, "{out}");
    // Every confirmed number, changed in turn, is reported on its line.
    let mut seen = std::collections::HashSet::new();
    let mut changed = 0;
    for f in r.findings.iter().filter(|f| f.status == Status::Confirmed) {
        let (a, b) = f.span.expect("a confirmed number has a span");
        if !seen.insert(a) {
            continue;
        }
        let old = f.text_value.expect("a confirmed number has a value");
        let new = if old.abs() == 9 { 7 } else { old.abs() + 1 };
        let t = format!("{}{new}{}", &text[..a], &text[b..]);
        let m = check(&t);
        assert!(
            m.failed()
                && m.findings
                    .iter()
                    .any(|g| g.status == Status::Contradicted && g.line == f.line),
            "changing {old} to {new} at line {} was not flagged",
            f.line
        );
        changed += 1;
    }
    assert!(changed >= 60, "only {changed} numbers changed");
}

//! Scenario files, run by `tabula scenario --ruleset R FILE`.
//!
//! The input is a scenario file. Its first line picks the ruleset when it
//! is a comment `#@NAME`: `#@tzolkin` (rules/tzolkin),
//! `#@tigris-euphrates`, `#@mexica`, `#@regions` (tests/rulesets/regions); anything
//! else runs it against tests/rulesets/nim. The line stays in the file (a
//! YAML comment). A scenario passes, fails or is reported; it must never
//! panic, hang or blow up memory.
//!
//! Reproduce a finding: `tabula scenario --ruleset R CRASH` with R as the
//! first line says.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tabula::cli::{Cli, Command};
use tabula_fuzz::{in_project, quietly, scratch, selector, write};

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| scratch("scenario"))
}

/// The ruleset the input's first line names.
pub fn ruleset_for(data: &[u8]) -> PathBuf {
    in_project(match selector(data) {
        Some("tzolkin") => "rules/tzolkin",
        Some("tigris-euphrates") => "rules/tigris-euphrates",
        Some("mexica") => "rules/mexica",
        Some("regions") => "tests/rulesets/regions",
        _ => "tests/rulesets/nim",
    })
}

fuzz_target!(|data: &[u8]| {
    let file = write(dir(), "scenario.yaml", data);
    let ruleset = ruleset_for(data);
    quietly(|| {
        tabula::cli::run(Cli {
            command: Command::Scenario {
                paths: vec![file],
                ruleset: Some(ruleset.display().to_string()),
                variants: Vec::new(),
                set: Vec::new(),
            },
        })
    });
});

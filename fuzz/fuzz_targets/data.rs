//! YAML data files: the loader on the fixed ruleset `tests/rulesets/nim`
//! with its data file (`data.yaml`: params, kinds, items) replaced by the
//! input. Loading reports mistakes or returns a ruleset; it must never
//! panic, hang or blow up memory.
//!
//! Reproduce a finding: copy `tests/rulesets/nim` to DIR, put the crashing
//! input in DIR/data.yaml, run `tabula check DIR`.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tabula_fuzz::{in_project, quietly, scratch, write};

/// A copy of nim's game.yaml and rules, without its data file.
fn ruleset() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("data");
        let nim = in_project("tests/rulesets/nim");
        for f in ["game.yaml", "nim.rules"] {
            std::fs::copy(nim.join(f), dir.join(f)).expect("nim's files");
        }
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let dir = ruleset();
    write(dir, "data.yaml", data);
    quietly(|| {
        let _ = tabula::cli::load_dir(dir, &[], &[]);
    });
});

//! The rules parser and loader on a whole ruleset directory built from
//! the input.
//!
//! The input is a ruleset written as one text: each file starts with a
//! line `==> NAME <==` (bytes before the first such line are `game.yaml`);
//! `variants/NAME.yaml` files are variants, and the ruleset is loaded with
//! each of them after loading without. Loading reports mistakes or returns
//! a ruleset; it must never panic, hang or blow up memory. The reports are
//! rendered as `tabula check` renders them (into /dev/null).
//!
//! Reproduce a finding: `fuzz/run split CRASH DIR` writes the input's files
//! to DIR as this target does; then `tabula check DIR`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_fuzz::{quietly, scratch, split_files, write};

fuzz_target!(|data: &[u8]| {
    // `fuzz/run split` sets TABULA_FUZZ_SPLIT_TO to keep the files.
    let dir = match std::env::var_os("TABULA_FUZZ_SPLIT_TO") {
        Some(d) => {
            let d = std::path::PathBuf::from(d);
            std::fs::create_dir_all(&d).expect("the directory to split into");
            d
        }
        None => scratch("ruleset"),
    };
    let files = split_files(data);
    let mut variants = Vec::new();
    for (name, body) in &files {
        write(&dir, name, body);
        if let Some(v) = name
            .strip_prefix("variants/")
            .and_then(|n| n.strip_suffix(".yaml"))
        {
            variants.push(v.to_string());
        }
    }
    quietly(|| {
        let _ = tabula::cli::load_dir(&dir, &[], &[]);
        for v in variants.iter().take(2) {
            let _ = tabula::cli::load_dir(&dir, std::slice::from_ref(v), &[]);
        }
    });
});

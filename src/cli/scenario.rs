//! `tabula scenario`: run scenario files and print what differs.

use std::path::{Path, PathBuf};

use super::{CmdResult, Failed};
use crate::scenario::{collect, run_file_with, Applied};

/// Runs scenario files (or every `*.yaml` under directories), with
/// `ruleset` (from the command line) in place of the ruleset each names and
/// the command line's variants and parameters (`applied`) after the file's;
/// fails when one does not pass.
pub(super) fn run(
    paths: &[PathBuf],
    ruleset: Option<&str>,
    (variants, set): (&[String], &[(String, String)]),
) -> CmdResult {
    let files = collect(paths);
    if files.is_empty() {
        esayln!("error: no scenario files found");
        return Err(Failed);
    }
    let dir = ruleset.map(crate::model::find_ruleset);
    let applied = Applied {
        ruleset: dir.as_deref().map(Path::new),
        variants,
        set,
    };
    if let Some(line) = describe(variants, set) {
        sayln!("{line}");
    }
    let mut failed = 0;
    for f in &files {
        match run_file_with(f, &applied) {
            Ok(o) if o.passed() => sayln!(
                "ok    {} — {} ({} assertion{})",
                f.display(),
                o.title,
                o.assertions,
                if o.assertions == 1 { "" } else { "s" }
            ),
            Ok(o) => {
                failed += 1;
                sayln!("FAIL  {} — {}", f.display(), o.title);
                esay!("{}", o.failures.render_plain());
            }
            Err(e) => {
                failed += 1;
                sayln!("ERROR {}", f.display());
                esayln!("{}", e.to_string().trim_end());
            }
        }
    }
    sayln!("{} passed, {} failed", files.len() - failed, failed);
    if failed > 0 {
        Err(Failed)
    } else {
        Ok(())
    }
}

/// The line saying what the command line applies to every scenario, when
/// it applies anything: `with variants a + b; set x=1`.
fn describe(variants: &[String], set: &[(String, String)]) -> Option<String> {
    let mut parts = Vec::new();
    if !variants.is_empty() {
        parts.push(format!("variants {}", variants.join(" + ")));
    }
    if !set.is_empty() {
        let s: Vec<String> = set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        parts.push(format!("set {}", s.join(", ")));
    }
    (!parts.is_empty()).then(|| format!("with {} (after each file's own)", parts.join("; ")))
}

//! `tabula scenario`: run scenario files and print what differs.

use std::path::{Path, PathBuf};

use super::{CmdResult, Failed};
use crate::scenario::{collect, run_file_with};

/// Runs scenario files (or every `*.yaml` under directories), with
/// `ruleset` (from the command line) in place of the ruleset each names;
/// fails when one does not pass.
pub(super) fn run(paths: &[PathBuf], ruleset: Option<&str>) -> CmdResult {
    let files = collect(paths);
    if files.is_empty() {
        esayln!("error: no scenario files found");
        return Err(Failed);
    }
    let dir = ruleset.map(crate::model::find_ruleset);
    let mut failed = 0;
    for f in &files {
        match run_file_with(f, dir.as_deref().map(Path::new)) {
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

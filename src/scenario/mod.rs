//! Scenarios: scripted positions and decisions with asserted outcomes.

use std::path::PathBuf;

/// Runs scenario files (or every `*.yaml` under directories) and prints what
/// differs; returns the process exit code (0 when all pass).
pub fn cli_main(paths: &[PathBuf]) -> i32 {
    let _ = paths;
    eprintln!("scenarios are not implemented yet");
    2
}

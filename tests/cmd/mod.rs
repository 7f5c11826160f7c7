//! Running the `tabula` binary as a user would (shared by the command-line
//! test files; each uses a part of it).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The built binary, ready for arguments.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
}

/// The small test ruleset `tests/rulesets/nim`.
pub fn nim() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim")
}

/// A fresh directory under the system temp dir (outside the repository),
/// unique to this process, test file (`file`) and test (`name`).
pub fn temp_dir_for(file: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tabula-{file}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `cmd` to its end.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("the binary runs")
}

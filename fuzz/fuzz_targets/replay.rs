//! Game logs, replayed by `tabula replay --unverified LOG`.
//!
//! The input is a game log (the JSON `tabula play --log` writes). Its
//! `ruleset` names the ruleset: the command finds it (the names under
//! rules/: `tzolkin`, `tigris-euphrates`; anything else is the command's
//! to refuse), except that the test rulesets `nim`, `regions` and
//! `snippets` (`tests/rulesets/`) are given as `--ruleset`. `--unverified`
//! lets a log without `result` or `state_hash` be replayed too (those it
//! has are still verified). A log replays, or is reported at its place;
//! it must never panic, hang or blow up memory.
//!
//! Reproduce a finding: `tabula replay --unverified CRASH`, with
//! `--ruleset tests/rulesets/nim` when the log's ruleset is `nim` (and so
//! on for `regions`, `snippets`).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tabula::cli::{Cli, Command};
use tabula_fuzz::{in_project, quietly, scratch, write};

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| scratch("replay"))
}

/// `--ruleset` for a log naming one of the test rulesets (which the
/// command would look for under rules/); `None` leaves the log's own
/// `ruleset` to the command.
fn test_ruleset(data: &[u8]) -> Option<String> {
    let log: serde_json::Value = serde_json::from_slice(data).ok()?;
    let name = log.get("ruleset")?.as_str()?;
    ["nim", "regions", "snippets"].contains(&name).then(|| {
        in_project(&format!("tests/rulesets/{name}"))
            .display()
            .to_string()
    })
}

fuzz_target!(|data: &[u8]| {
    let log = write(dir(), "log.json", data);
    quietly(|| {
        tabula::cli::run(Cli {
            command: Command::Replay {
                log,
                ruleset: test_ruleset(data),
                unverified: true,
                html: None,
            },
        })
    });
});

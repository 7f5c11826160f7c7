//! `tabula merge`: join the shards of a run.

use std::path::PathBuf;

use super::simulate::{say_written, write_outputs};
use super::{eprint_error, CmdResult, Failed, OutputArgs};
use crate::scenario::origin::read_limited;
use crate::sim::{self, Report};

/// The largest shard read, in bytes (some four million games).
const MAX_SHARD_BYTES: u64 = 1 << 30;

pub(super) fn run(files: &[PathBuf], out: &OutputArgs) -> CmdResult {
    let mut parts = Vec::with_capacity(files.len());
    for f in files {
        let name = f.display().to_string();
        let text =
            read_limited(f, MAX_SHARD_BYTES, "the output of `tabula simulate`").map_err(|e| {
                eprint_error(e);
                Failed
            })?;
        let report: Report = serde_json::from_str(&text).map_err(|e| {
            eprint_error(format!(
                "`{name}`:{}:{}: not the JSON output of `tabula simulate`: {e}",
                e.line(),
                e.column()
            ));
            Failed
        })?;
        parts.push((name, report));
    }
    let merged = sim::merge(&parts).map_err(|e| {
        eprint_error(e);
        Failed
    })?;
    // The files first: a closed stdout must not keep them from being written.
    write_outputs(&merged, out, None)?;
    let set: Vec<String> = merged.set.iter().map(|(k, v)| format!("{k}={v}")).collect();
    sayln!(
        "{}: merged {} file{} into a run of {} games, {} players, seed {}; {}{}",
        merged.name,
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        merged.total_games,
        merged.players,
        merged.seed,
        if merged.variants.is_empty() {
            "base rules".to_string()
        } else {
            format!("variants {}", merged.variants.join(" + "))
        },
        if set.is_empty() {
            String::new()
        } else {
            format!("; set {}", set.join(", "))
        }
    );
    say!(
        "{}",
        merged.summary.render(&merged.seats, &merged.agents, None)
    );
    say_written(out);
    Ok(())
}

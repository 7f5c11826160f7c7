//! `tabula merge`: join the shards of a run.

use std::path::PathBuf;

use super::simulate::write_outputs;
use super::{eprint_error, CmdResult, Failed, OutputArgs};
use crate::sim::{self, Report};

pub(super) fn run(files: &[PathBuf], out: &OutputArgs) -> CmdResult {
    let mut parts = Vec::with_capacity(files.len());
    for f in files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(f).map_err(|e| {
            eprint_error(format!("cannot read `{name}`: {e}"));
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
    println!(
        "{}: merged {} file{} into a run of {} games, {} players, seed {}",
        merged.name,
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        merged.total_games,
        merged.players,
        merged.seed
    );
    print!(
        "{}",
        merged.summary.render(&merged.seats, &merged.agents, None)
    );
    write_outputs(&merged, out, None)
}

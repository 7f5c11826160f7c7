//! `tabula bench --compare-with CMD`: after tabula's own bench, run another
//! program measuring the same game (an engine written by hand, OpenSpiel
//! driven from Python, another build of tabula), read the line
//! `games/s: N` (and `decisions/s: N`, if it prints one) from its standard
//! output, and print both figures side by side with their ratio.
//!
//! The command runs through the shell (`sh -c`), its standard input
//! closed and its error output passed through, with the bench's settings in
//! its environment: `TABULA_BENCH_SECONDS`, `TABULA_BENCH_PLAYERS` and
//! `TABULA_BENCH_SEED`. A command that fails, runs far longer than asked
//! or prints no such line is an error (exit code 1).

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use crate::ir::codes::Code;
use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report, SourceSpan};

/// What the command is given, in its environment.
pub(super) struct Asked {
    /// The bench's `--seconds` (`TABULA_BENCH_SECONDS`).
    pub seconds: f64,
    /// The number of players (`TABULA_BENCH_PLAYERS`).
    pub players: usize,
    /// The bench's `--seed` (`TABULA_BENCH_SEED`).
    pub seed: u64,
}

/// The speed of one side.
pub(super) struct Figures {
    /// Games per second.
    pub games: f64,
    /// Decisions per second, when known.
    pub decisions: Option<f64>,
}

/// The most of the command's standard output kept (the rest is read and
/// dropped).
const KEPT_OUTPUT: usize = 1 << 20;
/// Lines of the command's output shown under its name.
const SHOWN_LINES: usize = 40;

/// A mistake of the other program or of its command, with its code.
fn mistake(message: impl Into<String>) -> MietteDiagnostic {
    MietteDiagnostic::new(message).with_code(Code::CompareCommand.to_string())
}

/// Refuses an empty command before the bench runs.
pub(super) fn check_command(cmd: &str) -> Result<(), Report> {
    if cmd.trim().is_empty() {
        return Err(Report::new(
            mistake("--compare-with needs a command, not an empty text").with_help(COMMAND_HELP),
        ));
    }
    Ok(())
}

/// What the other program must print, for the help lines.
const COMMAND_HELP: &str = "give a shell command that measures the same game and prints a \
     line `games/s: N` (optionally `decisions/s: N`) on its standard output, e.g. \
     --compare-with \"python3 bench/other_engine.py\"; it finds the duration in \
     TABULA_BENCH_SECONDS (see docs/BENCH.md)";

/// Seconds the command may run: ten times the bench's duration, plus two
/// minutes for starting up (an interpreter, a build).
pub(super) fn time_allowed(seconds: f64) -> Duration {
    Duration::from_secs_f64(seconds * 10.0 + 120.0)
}

/// Runs `cmd`, prints what it printed, then both figures and their ratio.
pub(super) fn run(cmd: &str, asked: &Asked, ours: &Figures) -> Result<(), Report> {
    sayln!();
    sayln!(
        "compared with `{cmd}` (TABULA_BENCH_SECONDS={} TABULA_BENCH_PLAYERS={} TABULA_BENCH_SEED={}):",
        asked.seconds,
        asked.players,
        asked.seed
    );
    let output = run_command(cmd, asked)?;
    show_output(&output);
    let theirs = read_figures(cmd, &output)?;
    print_table(ours, &theirs);
    Ok(())
}

/// Starts `cmd` through the shell with the bench's settings.
fn spawn(cmd: &str, asked: &Asked) -> std::io::Result<Child> {
    let mut command = if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.arg("/C").arg(cmd);
        c
    } else {
        let mut c = Command::new("sh");
        c.arg("-c").arg(cmd);
        c
    };
    #[cfg(unix)]
    {
        // Its own process group, so that a command stopped for running too
        // long is stopped with everything it started.
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command
        .env("TABULA_BENCH_SECONDS", asked.seconds.to_string())
        .env("TABULA_BENCH_PLAYERS", asked.players.to_string())
        .env("TABULA_BENCH_SEED", asked.seed.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
}

/// Runs `cmd` to its end (or stops it once [`time_allowed`] has passed)
/// and returns its standard output; a failure is a report.
fn run_command(cmd: &str, asked: &Asked) -> Result<String, Report> {
    let mut child = spawn(cmd, asked).map_err(|e| {
        Report::new(
            mistake(format!("could not start `{cmd}`: {e}"))
                .with_help("tabula runs the command with `sh -c`: is a shell installed?"),
        )
    })?;
    let reader = Reader::start(child.stdout.take());
    let allowed = time_allowed(asked.seconds);
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > allowed => {
                stop(&mut child);
                return Err(Report::new(
                    mistake(format!(
                        "`{cmd}` was still running after {:.0}s and was stopped",
                        allowed.as_secs_f64()
                    ))
                    .with_help(
                        "the command may take ten times --seconds, plus two minutes to start: \
                         it should stop after TABULA_BENCH_SECONDS seconds of play",
                    ),
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                stop(&mut child);
                return Err(Report::new(mistake(format!(
                    "could not wait for `{cmd}`: {e}"
                ))));
            }
        }
    };
    // A process the command left running in the background may hold its
    // output open: it is given a second, then stopped.
    if !reader.ended_within(Duration::from_secs(1)) {
        stop(&mut child);
        reader.ended_within(Duration::from_secs(1));
    }
    let output = reader.text();
    if !status.success() {
        let help = if status.code() == Some(127) {
            "the shell did not find the command (exit code 127): check its name and path, \
             e.g. the python3 of the virtual environment holding the package it imports"
        } else {
            "its error output, if any, is above; run the command alone to see what is \
             wrong (it reads the duration from TABULA_BENCH_SECONDS)"
        };
        return Err(Report::new(
            mistake(format!("`{cmd}` failed ({})", describe(status))).with_help(help),
        ));
    }
    Ok(output)
}

/// Kills the command and what it started (its process group).
fn stop(child: &mut Child) {
    #[cfg(unix)]
    {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// How a command ended, in words.
fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => "stopped by a signal".into(),
    }
}

/// The command's standard output as read so far, and whether it ended.
struct Reader {
    kept: Arc<Mutex<Vec<u8>>>,
    ended: mpsc::Receiver<()>,
}

impl Reader {
    /// Reads `stream` to its end on another thread, keeping its first
    /// [`KEPT_OUTPUT`] bytes.
    fn start(stream: Option<std::process::ChildStdout>) -> Reader {
        let kept = Arc::new(Mutex::new(Vec::new()));
        let (done, ended) = mpsc::channel();
        let shared = kept.clone();
        std::thread::spawn(move || {
            if let Some(mut stream) = stream {
                let mut buf = [0u8; 8192];
                loop {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let mut kept = shared.lock().unwrap_or_else(|e| e.into_inner());
                            let room = KEPT_OUTPUT.saturating_sub(kept.len());
                            kept.extend_from_slice(&buf[..n.min(room)]);
                        }
                    }
                }
            }
            let _ = done.send(());
        });
        Reader { kept, ended }
    }

    /// Whether the output ended within `wait`.
    fn ended_within(&self, wait: Duration) -> bool {
        self.ended.recv_timeout(wait).is_ok()
    }

    /// What was read.
    fn text(&self) -> String {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&kept).into_owned()
    }
}

/// Prints the command's output, indented, up to [`SHOWN_LINES`] lines.
fn show_output(output: &str) {
    let lines: Vec<&str> = output.lines().collect();
    for line in lines.iter().take(SHOWN_LINES) {
        sayln!("  | {line}");
    }
    if lines.len() > SHOWN_LINES {
        sayln!("  | ... ({} more lines)", lines.len() - SHOWN_LINES);
    }
}

/// Where a figure was found in the output: the value's text and its place.
struct Found<'a> {
    text: &'a str,
    at: usize,
}

/// The value after the last `key` of `output` (`games/s:`).
fn find<'a>(output: &'a str, key: &str) -> Option<Found<'a>> {
    let start = output.rfind(key)? + key.len();
    let rest = &output[start..];
    let skipped = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let value = &rest[skipped..];
    let end = value.find(char::is_whitespace).unwrap_or(value.len());
    Some(Found {
        text: &value[..end],
        at: start + skipped,
    })
}

/// Reads the figure `key` of `output`: `None` when absent, an error when
/// it is not a number of things per second.
fn figure(cmd: &str, output: &str, key: &str) -> Result<Option<f64>, Report> {
    let Some(found) = find(output, key) else {
        return Ok(None);
    };
    match found.text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
        _ => {
            let what = if found.text.is_empty() {
                "nothing".to_string()
            } else {
                format!("`{}`", found.text)
            };
            let diag = mistake(format!(
                "`{cmd}` printed {what} after `{key}`, not a number"
            ))
            .with_labels(vec![LabeledSpan::new_primary_with_span(
                Some("a number of games or decisions per second goes here".into()),
                SourceSpan::new(found.at.into(), found.text.len()),
            )])
            .with_help("print the figure as a plain number, e.g. `games/s: 48712.5`");
            Err(Report::new(diag).with_source_code(NamedSource::new(
                format!("output of `{cmd}`"),
                output.to_string(),
            )))
        }
    }
}

/// The other program's figures, from its output.
fn read_figures(cmd: &str, output: &str) -> Result<Figures, Report> {
    let Some(games) = figure(cmd, output, "games/s:")? else {
        let said = if output.trim().is_empty() {
            "nothing on its standard output".to_string()
        } else {
            "no line `games/s: N` (its output is above)".to_string()
        };
        return Err(Report::new(
            mistake(format!("`{cmd}` printed {said}")).with_help(COMMAND_HELP),
        ));
    };
    let decisions = figure(cmd, output, "decisions/s:")?;
    Ok(Figures { games, decisions })
}

/// `a / b`, or a dash when `b` is zero.
fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.2}", a / b)
    } else {
        "-".into()
    }
}

/// Prints both sides' figures and tabula's speed as a multiple of theirs.
fn print_table(ours: &Figures, theirs: &Figures) {
    sayln!();
    sayln!(
        "{:<12} {:>14} {:>14} {:>14}",
        "",
        "tabula",
        "other",
        "tabula/other"
    );
    sayln!(
        "{:<12} {:>14.1} {:>14.1} {:>14}",
        "games/s",
        ours.games,
        theirs.games,
        ratio(ours.games, theirs.games)
    );
    if let (Some(a), Some(b)) = (ours.decisions, theirs.decisions) {
        sayln!(
            "{:<12} {:>14.0} {:>14.0} {:>14}",
            "decisions/s",
            a,
            b,
            ratio(a, b)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_figure_is_read() {
        let out = "warming up\ngames/s: 12.5  decisions/s: 300\ngames/s: 20 decisions/s: 400\n";
        let f = read_figures("x", out).map_err(|e| e.to_string()).unwrap();
        assert_eq!(f.games, 20.0);
        assert_eq!(f.decisions, Some(400.0));
    }

    #[test]
    fn decisions_are_optional_and_words_are_refused() {
        let f = read_figures("x", "games/s: 7\n")
            .map_err(|e| e.to_string())
            .unwrap();
        assert_eq!((f.games, f.decisions), (7.0, None));
        assert!(read_figures("x", "games/s: fast\n").is_err());
        assert!(read_figures("x", "games/s: -3\n").is_err());
        assert!(read_figures("x", "games/s:\n").is_err());
        assert!(read_figures("x", "speed: 3\n").is_err());
    }
}

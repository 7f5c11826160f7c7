//! Hostile inputs: every case under `tests/hostile/<case>/` runs the built
//! `tabula` binary on a bad input and must end in a clear diagnostic and the
//! announced exit code: never a panic (exit 101), an abort (134), a signal
//! or a hang (killed after a timeout).
//!
//! A case is a directory holding a file `case.<ext>` (`case.yaml`,
//! `case.cmd`, ...) whose first lines are `#` comments, the header:
//!
//! ```text
//! # run: tabula scenario --ruleset $NIM case.yaml
//! # exit: 1
//! # stderr: is played by 2 to 3 players
//! # at: case.yaml:2:10
//! ```
//!
//! The command runs in a scratch copy of the case directory (so relative
//! paths name the case's files and anything written lands in the copy).
//! See `tests/README.md` for every header key. The whole stderr, with paths
//! normalised, is snapshotted with insta in `tests/hostile/snapshots/`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a case's header announces.
#[derive(Debug, Default)]
struct Case {
    /// The arguments after `tabula`.
    args: Vec<String>,
    /// The expected exit code (default 1).
    exit: i32,
    /// Substrings of stderr.
    stderr: Vec<String>,
    /// Substrings of stdout.
    stdout: Vec<String>,
    /// Substrings that must appear in neither stream.
    absent: Vec<String>,
    /// `file:line:col` places that stderr must name.
    at: Vec<String>,
    /// A file of the case fed to the command's stdin.
    stdin: Option<String>,
    /// Close the command's stdout after reading this many lines.
    close_stdout: Option<usize>,
    /// Files (relative to the scratch copy) the command must have written.
    writes: Vec<String>,
    /// Files the command must not have written.
    no_writes: Vec<String>,
    /// Seconds before the command is killed as hung (default 20).
    timeout: u64,
    /// Symbolic links to make in the scratch copy: `path -> target`.
    links: Vec<String>,
}

/// Splits a command line on spaces, keeping quoted words (`'a b'`, `"a b"`).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The project's directories a case may name: `$NIM` (tests/rulesets/nim),
/// `$RULESETS` (tests/rulesets), `$HOSTILE` (tests/hostile, whose
/// `_rulesets/` holds rulesets shared by cases) and `$ROOT`.
fn expand(word: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    word.replace(
        "$NIM",
        &root.join("tests/rulesets/nim").display().to_string(),
    )
    .replace(
        "$HOSTILE",
        &root.join("tests/hostile").display().to_string(),
    )
    .replace(
        "$RULESETS",
        &root.join("tests/rulesets").display().to_string(),
    )
    .replace("$ROOT", &root.display().to_string())
}

fn header(text: &str) -> Result<Case, String> {
    let mut case = Case {
        exit: 1,
        timeout: 20,
        ..Case::default()
    };
    let mut ran = false;
    for line in text.lines() {
        let Some(comment) = line.strip_prefix('#') else {
            break;
        };
        let Some((key, value)) = comment.split_once(':') else {
            continue;
        };
        let value = value.trim().to_string();
        match key.trim() {
            "run" => {
                let w = words(&value);
                if w.first().map(String::as_str) != Some("tabula") {
                    return Err(format!("`# run:` must start with `tabula`: {value}"));
                }
                case.args = w[1..].iter().map(|a| expand(a)).collect();
                ran = true;
            }
            "exit" => case.exit = value.parse().map_err(|_| format!("bad exit `{value}`"))?,
            "stderr" => case.stderr.push(value),
            "stdout" => case.stdout.push(value),
            "absent" => case.absent.push(value),
            "at" => case.at.push(value),
            "stdin" => case.stdin = Some(value),
            "close-stdout" => {
                case.close_stdout = Some(
                    value
                        .parse()
                        .map_err(|_| format!("bad close-stdout `{value}`"))?,
                )
            }
            "writes" => case.writes.push(value),
            "link" => case.links.push(value),
            "no-writes" => case.no_writes.push(value),
            "timeout" => {
                case.timeout = value
                    .parse()
                    .map_err(|_| format!("bad timeout `{value}`"))?
            }
            other => return Err(format!("unknown header key `{other}`")),
        }
    }
    if !ran {
        return Err("no `# run: tabula ...` line in the header".into());
    }
    Ok(case)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("scratch directory");
    for e in std::fs::read_dir(from).expect("case directory").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy a case file");
        }
    }
}

/// Makes the symbolic links a case asks for (`link: path -> target`) in
/// its scratch copy: links leading out of a ruleset, or loops, which the
/// repository does not hold as links.
fn make_links(case: &Case, scratch: &Path) -> Result<(), String> {
    for spec in &case.links {
        let Some((path, target)) = spec.split_once(" -> ") else {
            return Err(format!("`# link: {spec}` is not `path -> target`"));
        };
        #[cfg(unix)]
        std::os::unix::fs::symlink(target.trim(), scratch.join(path.trim()))
            .map_err(|e| format!("cannot make the link `{spec}`: {e}"))?;
        #[cfg(not(unix))]
        let _ = (path, target, scratch);
    }
    Ok(())
}

/// Reads a pipe to its end on a thread.
fn drain(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = r.read_to_end(&mut v);
        v
    })
}

/// Reads `lines` lines of `r` then drops it (closing the pipe).
fn read_lines_then_close(
    mut r: impl Read + Send + 'static,
    lines: usize,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut v = Vec::new();
        let mut b = [0u8; 1];
        while v.iter().filter(|c| **c == b'\n').count() < lines {
            match r.read(&mut b) {
                Ok(1) => v.push(b[0]),
                _ => break,
            }
        }
        v
    })
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    hung: bool,
}

fn run(case: &Case, dir: &Path) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tabula"));
    cmd.args(&case.args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "0")
        .env("NO_COLOR", "1")
        // No wrapping: a line holding the checkout's path must not wrap
        // where the path's length says.
        .env("COLUMNS", "100000")
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the binary runs");
    if let Some(f) = &case.stdin {
        let data = std::fs::read(dir.join(f)).expect("the stdin file");
        let mut input = child.stdin.take().expect("stdin");
        std::thread::spawn(move || {
            let _ = input.write_all(&data);
        });
    }
    let out = child.stdout.take().expect("stdout");
    let out = match case.close_stdout {
        Some(n) => read_lines_then_close(out, n),
        None => drain(out),
    };
    let err = drain(child.stderr.take().expect("stderr"));
    let start = Instant::now();
    let mut hung = false;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > Duration::from_secs(case.timeout) {
            hung = true;
            let _ = child.kill();
            break child.wait().expect("wait");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
    Run {
        code: status.code(),
        stdout: text(out.join().unwrap_or_default()),
        stderr: text(err.join().unwrap_or_default()),
        hung,
    }
}

/// Stderr with the scratch directory and the project's root replaced by
/// `[CASE]` and `[ROOT]`, so that snapshots do not depend on where they ran.
fn normalise(s: &str, scratch: &Path) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    s.replace(&scratch.display().to_string(), "[CASE]")
        .replace(root, "[ROOT]")
}

/// The problems of one case (empty when it passes).
fn check(case: &Case, r: &Run, scratch: &Path) -> Vec<String> {
    let mut bad = Vec::new();
    if r.hung {
        bad.push(format!("hung: killed after {} s", case.timeout));
    }
    match r.code {
        Some(101) => bad.push("panicked (exit 101)".into()),
        Some(134) => bad.push("aborted (exit 134)".into()),
        None if !r.hung => bad.push("killed by a signal".into()),
        Some(c) if c != case.exit => bad.push(format!("exit {c}, expected {}", case.exit)),
        _ => {}
    }
    for s in &case.stderr {
        if !r.stderr.contains(s.as_str()) {
            bad.push(format!("stderr lacks `{s}`"));
        }
    }
    for s in &case.stdout {
        if !r.stdout.contains(s.as_str()) {
            bad.push(format!("stdout lacks `{s}`"));
        }
    }
    for s in &case.absent {
        if r.stdout.contains(s.as_str()) || r.stderr.contains(s.as_str()) {
            bad.push(format!("`{s}` was printed"));
        }
    }
    for a in &case.at {
        if !r.stderr.contains(a.as_str()) {
            bad.push(format!("stderr does not point at `{a}`"));
        }
    }
    for f in &case.writes {
        if !scratch.join(f).exists() {
            bad.push(format!("`{f}` was not written"));
        }
    }
    for f in &case.no_writes {
        if scratch.join(f).exists() {
            bad.push(format!("`{f}` was written"));
        }
    }
    if r.stderr.contains("panicked") {
        bad.push("stderr mentions a panic".into());
    }
    bad
}

#[test]
fn hostile_inputs_end_in_clear_errors() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("hostile/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    let _guard = settings.bind_to_scope();
    let scratch_root = std::env::temp_dir().join(format!("tabula-hostile-{}", std::process::id()));
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    insta::glob!("hostile/*/case.*", |path| {
        let dir = path.parent().expect("case directory");
        let name = dir
            .file_name()
            .expect("case name")
            .to_string_lossy()
            .to_string();
        let fail = |msg: String| failures.lock().unwrap().push(format!("{name}: {msg}"));
        let text = std::fs::read_to_string(path).expect("case file readable");
        let case = match header(&text) {
            Ok(c) => c,
            Err(e) => return fail(e),
        };
        let scratch: PathBuf = scratch_root.join(&name);
        let _ = std::fs::remove_dir_all(&scratch);
        copy_dir(dir, &scratch);
        let _ = std::fs::remove_dir_all(scratch.join("snapshots"));
        if let Err(e) = make_links(&case, &scratch) {
            return fail(e);
        }
        let r = run(&case, &scratch);
        for problem in check(&case, &r, &scratch) {
            fail(format!(
                "{problem}\n--- stdout\n{}\n--- stderr\n{}",
                r.stdout, r.stderr
            ));
        }
        let shown = format!(
            "exit: {}\n{}",
            r.code.map_or("signal".to_string(), |c| c.to_string()),
            normalise(&r.stderr, &scratch)
        );
        insta::assert_snapshot!(shown);
    });
    let _ = std::fs::remove_dir_all(&scratch_root);
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} hostile case(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

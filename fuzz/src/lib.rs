//! What the fuzz targets share: the project's paths, a scratch directory
//! per process, an input split into the files of a ruleset, and silencing
//! the command's own output while keeping a panic's message visible.
//!
//! Every target runs the same code a user runs (`tabula::load`, the CLI's
//! commands) in process, on files written to a scratch directory: the
//! inputs reach the program as they would from disk.

use std::io::Write;
use std::os::fd::RawFd;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// The project's root (the directory holding the main `Cargo.toml`).
pub fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz/ sits in the project")
        .to_path_buf()
}

/// A directory of the project's tree, e.g. `tests/rulesets/nim`.
pub fn in_project(rel: &str) -> PathBuf {
    project().join(rel)
}

/// This process's scratch directory `name`, emptied: the place an
/// input's files are written. One per process, so parallel fuzzers
/// (`-fork`, `-jobs`) do not share one; those left by processes that have
/// ended are removed the first time.
pub fn scratch(name: &str) -> PathBuf {
    static SWEEP: Once = Once::new();
    SWEEP.call_once(sweep_scratch);
    let dir = std::env::temp_dir().join(format!("tabula-fuzz-{}-{name}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("the scratch directory can be emptied");
    }
    std::fs::create_dir_all(&dir).expect("the scratch directory can be made");
    dir
}

/// Removes the scratch directories of processes that no longer run.
fn sweep_scratch() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix("tabula-fuzz-")
            .and_then(|r| r.split('-').next())
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        if !alive {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Writes `bytes` to `dir/name`.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("a scratch subdirectory");
    }
    std::fs::write(&path, bytes).expect("a scratch file can be written");
    path
}

/// The line that starts a file in a multi-file input: `==> NAME <==`
/// (the format of `head` given several files).
pub const FILE_MARK: &str = "==> ";

/// Splits an input into named files. Each file starts with a line
/// `==> NAME <==`; bytes before the first such line belong to `game.yaml`.
/// Names are made safe: only letters, digits, `.`, `_`, `-`, one optional
/// `variants/` directory, no leading dot, at most 40 characters; a file
/// with an unusable name is dropped, a repeated name keeps the first.
pub fn split_files(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut name = Some("game.yaml".to_string());
    let mut body: Vec<u8> = Vec::new();
    let flush = |name: Option<String>, body: Vec<u8>, files: &mut Vec<(String, Vec<u8>)>| {
        if let Some(n) = name {
            if !files.iter().any(|(m, _)| *m == n) {
                files.push((n, body));
            }
        }
    };
    for line in data.split_inclusive(|&b| b == b'\n') {
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        if let Some(rest) = text.strip_prefix(FILE_MARK.as_bytes()) {
            let rest = rest.strip_suffix(b" <==").unwrap_or(rest);
            flush(name.take(), std::mem::take(&mut body), &mut files);
            name = safe_name(rest);
            continue;
        }
        body.extend_from_slice(line);
    }
    flush(name, body, &mut files);
    files
}

/// `raw` as a file name inside a ruleset directory, or `None`.
fn safe_name(raw: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(raw).ok()?.trim();
    let (dir, file) = match s.strip_prefix("variants/") {
        Some(f) => ("variants/", f),
        None => ("", s),
    };
    let ok = !file.is_empty()
        && file.len() <= 40
        && !file.starts_with('.')
        && file
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    ok.then(|| format!("{dir}{file}"))
}

/// The standard output and error saved while a call is silenced, for the
/// panic hook to put back.
static SAVED: Mutex<Option<(RawFd, RawFd)>> = Mutex::new(None);
static HOOK: Once = Once::new();

/// Puts the saved standard output and error back (if silenced).
fn restore() {
    let mut saved = SAVED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((out, err)) = saved.take() {
        // SAFETY: plain descriptor calls on descriptors this module owns.
        unsafe {
            libc::dup2(out, 1);
            libc::dup2(err, 2);
            libc::close(out);
            libc::close(err);
        }
    }
}

/// Runs `f` with standard output and error sent to /dev/null (the
/// commands print their reports; the fuzzer's own output stays readable).
/// A panic puts them back first, so its message and backtrace show.
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    if std::env::var_os("TABULA_FUZZ_VERBOSE").is_some() {
        return f();
    }
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: plain descriptor calls; the descriptors are restored below or
    // by the panic hook.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
        if null < 0 {
            return f();
        }
        let saved = (libc::dup(1), libc::dup(2));
        libc::dup2(null, 1);
        libc::dup2(null, 2);
        libc::close(null);
        *SAVED.lock().unwrap_or_else(|e| e.into_inner()) = Some(saved);
    }
    let out = f();
    let _ = std::io::stdout().flush();
    restore();
    out
}

/// The first line of `data` if it is a selector `#@NAME`, and the rest.
/// Targets that run one input against several rulesets (or language
/// files) read which one from it; the line stays in the file, a comment
/// to YAML.
pub fn selector(data: &[u8]) -> Option<&str> {
    let line = data.split(|&b| b == b'\n').next()?;
    let name = line.strip_prefix(b"#@")?;
    std::str::from_utf8(name).ok().map(str::trim)
}

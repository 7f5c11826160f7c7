//! Reading the files of a ruleset written by someone else: every file must
//! be inside the ruleset's directory (no absolute path, no `..`, no link
//! leading out), be a regular file (not a directory, a device or a pipe,
//! whose type is checked before it is opened), hold at most
//! [`MAX_FILE_BYTES`] and be UTF-8 text. Each way a file fails has its own
//! message; a file outside the ruleset is never read, so no report ever
//! quotes it.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::span::Span;

/// The largest file of a ruleset read, in bytes (16 MB): a ruleset's files
/// are some kilobytes; a larger one (or an endless one such as
/// `/dev/zero`) is refused before it fills the memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Why a file of a ruleset is not read.
#[derive(Debug)]
pub(super) enum Problem {
    /// Nothing is there.
    Missing,
    /// A link to nothing.
    DanglingLink,
    /// A link that cannot be followed (a loop of links).
    LinkLoop,
    /// A directory.
    Directory,
    /// A device, a pipe or a socket.
    NotAFile,
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge,
    /// Not UTF-8: the first invalid byte is at this 1-based line and column.
    NotUtf8(usize, usize),
    /// Leaves the ruleset's directory: an absolute path or `..`.
    Climbs,
    /// A link (or a link on the way) leading outside the ruleset's directory.
    LinkOutside,
    /// Any other failure to read (permissions...).
    Io(std::io::Error),
}

impl Problem {
    /// The code of the problem.
    pub fn code(&self) -> Code {
        match self {
            Problem::Missing | Problem::DanglingLink => Code::MissingFile,
            Problem::TooLarge => Code::TooLarge,
            Problem::Climbs | Problem::LinkOutside => Code::PathOutside,
            _ => Code::UnreadableFile,
        }
    }

    /// What is wrong with the file shown as `name`, the label under the
    /// place that names it, and what to do.
    pub fn explain(&self, name: &str) -> (String, &'static str, String) {
        let (message, label, help) = match self {
            Problem::Missing => (
                format!("cannot read `{name}`"),
                "this file is missing",
                "check the file name, or create the file".to_string(),
            ),
            Problem::DanglingLink => (
                format!("`{name}` is a link to a file that does not exist"),
                "a broken link",
                "point the link at a file of the ruleset, or replace it by the file".into(),
            ),
            Problem::LinkLoop => (
                format!("`{name}` is a link that cannot be followed (a loop of links)"),
                "a loop of links",
                "replace the link by the file it should name".into(),
            ),
            Problem::Directory => (
                format!("`{name}` is a directory, not a file"),
                "a directory",
                "name each .yaml and .rules file itself".into(),
            ),
            Problem::NotAFile => (
                format!("`{name}` is not a regular file (a device, a pipe or a socket)"),
                "not a file",
                "name a .yaml or .rules file of the ruleset".into(),
            ),
            Problem::TooLarge => (
                format!("`{name}` is larger than {} MB", MAX_FILE_BYTES >> 20),
                "too large",
                format!(
                    "a file of a ruleset holds at most {} MB (docs/LANGUAGE.md, Limits)",
                    MAX_FILE_BYTES >> 20
                ),
            ),
            Problem::NotUtf8(line, col) => (
                format!("`{name}` is not UTF-8 text: an invalid byte at line {line}, column {col}"),
                "not UTF-8 text",
                "save the file as UTF-8".into(),
            ),
            Problem::Climbs => (
                format!("`{name}` is outside the ruleset's directory"),
                "outside the ruleset",
                "name a ruleset's files by relative paths inside its directory, without `..`"
                    .into(),
            ),
            Problem::LinkOutside => (
                format!("`{name}` is a link leading outside the ruleset's directory"),
                "a link leading out",
                "copy the file into the ruleset's directory instead of linking to it".into(),
            ),
            Problem::Io(e) => (
                format!("cannot read `{name}`: {e}"),
                "cannot be read",
                "check the file's permissions".into(),
            ),
        };
        (message, label, help)
    }

    /// The diagnostic for a file shown as `name`, named at `span`.
    pub fn diagnostic(&self, name: &str, span: Span) -> Diagnostic {
        let (message, label, help) = self.explain(name);
        Diagnostic::new(self.code(), span, message)
            .label(label)
            .help(help)
    }
}

/// Whether a path named in a ruleset stays where it is written from: a
/// relative path made of plain names (no root, no `..`).
pub(super) fn is_plain_relative(name: &str) -> bool {
    let path = Path::new(name);
    !name.is_empty()
        && !path.has_root()
        && path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// The ruleset's directory, resolved, that its files must stay inside.
pub(super) struct Root {
    canonical: Option<PathBuf>,
}

impl Root {
    /// The root of the ruleset in `dir`.
    pub fn new(dir: &Path) -> Root {
        Root {
            canonical: dir.canonicalize().ok(),
        }
    }

    /// Checks that `path` (inside the ruleset by its name) does not lead
    /// out through a link; a path that cannot be resolved is left to
    /// [`read_text`] to explain.
    pub fn check(&self, path: &Path) -> Result<(), Problem> {
        let (Some(root), Ok(real)) = (&self.canonical, path.canonicalize()) else {
            return Ok(());
        };
        if real.starts_with(root) {
            Ok(())
        } else {
            Err(Problem::LinkOutside)
        }
    }

    /// `from.join(name)` for a name written in the ruleset: refused when
    /// it is absolute, climbs with `..` or leads out through a link.
    pub fn join(&self, from: &Path, name: &str) -> Result<PathBuf, Problem> {
        if !is_plain_relative(name) {
            return Err(Problem::Climbs);
        }
        let path = from.join(name);
        self.check(&path)?;
        Ok(path)
    }
}

/// Reads a file of a ruleset: a regular file (its type checked before it
/// is opened, so a pipe does not block), at most [`MAX_FILE_BYTES`] long,
/// of UTF-8 text.
pub(super) fn read_text(path: &Path) -> Result<String, Problem> {
    let meta = std::fs::metadata(path).map_err(|e| why_not(path, e))?;
    if meta.is_dir() {
        return Err(Problem::Directory);
    }
    if !meta.is_file() {
        return Err(Problem::NotAFile);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Problem::TooLarge);
    }
    let file = std::fs::File::open(path).map_err(|e| why_not(path, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(Problem::Io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Problem::TooLarge);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let good = std::str::from_utf8(good).unwrap_or("");
        let line = good.matches('\n').count() + 1;
        let col = good.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Problem::NotUtf8(line, col)
    })
}

/// Why a file could not be looked at or opened.
fn why_not(path: &Path, e: std::io::Error) -> Problem {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    match e.kind() {
        std::io::ErrorKind::NotFound if is_link => Problem::DanglingLink,
        std::io::ErrorKind::NotFound => Problem::Missing,
        _ if is_link && std::fs::metadata(path).is_err() => Problem::LinkLoop,
        _ => Problem::Io(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_relative_paths_stay_inside() {
        for ok in ["a.yaml", "sub/a.rules", "./a.yaml"] {
            assert!(is_plain_relative(ok), "{ok}");
        }
        for bad in ["", "/etc/passwd", "../x.yaml", "sub/../../x", "a/.."] {
            assert!(!is_plain_relative(bad), "{bad}");
        }
    }
}

//! Where a ruleset named inside a file (a scenario's `ruleset:`, a game
//! log's `"ruleset"`) may come from.
//!
//! A path the user types on the command line is theirs to choose. A path
//! read from a file may come from anyone, so it is held to the places a
//! ruleset is looked up by name: it must be a relative path that does not
//! climb (`..`), found in the working directory or under a `rules/`
//! directory ([`crate::model::find_ruleset`]); an absolute path is accepted
//! only inside the project's own `rules/` directory. Variant names read
//! from a file must be plain names (a file of the ruleset's `variants/`).
//!
//! Files given by others are read with a size limit ([`read_limited`]): a
//! device such as `/dev/zero` or a huge file is refused, not read into
//! memory.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Why a file could not be read within its size limit.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// It cannot be opened or read, or is not UTF-8.
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It holds more than the limit.
    #[error("`{}` is larger than {limit} bytes: too large for {what}", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
        /// What the file was expected to be (`a game log`...).
        what: &'static str,
    },
}

/// Reads the text file `path`, at most `limit` bytes of it: a larger file
/// (or an endless one, like `/dev/zero`) is refused; `what` names what it
/// should be, for the message.
pub fn read_limited(path: &Path, limit: u64, what: &'static str) -> Result<String, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let too_large = || ReadError::TooLarge {
        path: path.to_path_buf(),
        limit,
        what,
    };
    // A regular file says its size; a device or a pipe is read up to the limit.
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > limit)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    String::from_utf8(bytes)
        .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// Why a ruleset or variant named in a file is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OriginError {
    /// An absolute path outside the project's `rules/`.
    #[error("the ruleset `{0}` is an absolute path outside the project's rules/ directory")]
    Absolute(String),
    /// A path that climbs with `..` (or names a drive or root).
    #[error("the ruleset `{0}` climbs out of the directory with `..`")]
    Climbs(String),
    /// An empty name.
    #[error("the ruleset name is empty")]
    Empty,
    /// A variant that is not a plain file name.
    #[error("the variant `{0}` is not a plain name")]
    Variant(String),
}

impl OriginError {
    /// The help line: how to name such a ruleset anyway.
    pub fn help(&self, command: &str) -> String {
        match self {
            OriginError::Variant(_) => {
                "a variant is a file of the ruleset's variants/ directory, named without \
                 a directory or `.yaml` (e.g. `advanced`)"
                    .into()
            }
            _ => format!(
                "a ruleset named inside a file must be a name under rules/ (e.g. `<game>`) \
                 or a relative path without `..`; to use another directory, give it on the \
                 command line: `{command} --ruleset <DIR>`"
            ),
        }
    }
}

/// The project's `rules/` directory, as compiled in.
fn project_rules() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// The directory of the ruleset `name`, read from a file: refused when it
/// is absolute (outside the project's `rules/`) or climbs with `..`.
pub fn ruleset_in_file(name: &str) -> Result<PathBuf, OriginError> {
    if name.trim().is_empty() {
        return Err(OriginError::Empty);
    }
    let path = Path::new(name);
    if path.is_absolute() || path.has_root() {
        let inside = match (path.canonicalize(), project_rules().canonicalize()) {
            (Ok(p), Ok(rules)) => p.starts_with(rules),
            _ => false,
        };
        return if inside {
            Ok(path.to_path_buf())
        } else {
            Err(OriginError::Absolute(name.to_string()))
        };
    }
    if path
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(OriginError::Climbs(name.to_string()));
    }
    Ok(crate::model::find_ruleset(name))
}

/// Whether `name` is a plain file name: no directory, no `..`, not hidden.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', ':', '\0'])
        && Path::new(name).components().count() == 1
}

/// Checks a variant name read from a file: a plain file name.
pub fn variant_in_file(name: &str) -> Result<(), OriginError> {
    if is_plain_name(name) {
        Ok(())
    } else {
        Err(OriginError::Variant(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_files_stay_inside() {
        assert!(ruleset_in_file("some-game").is_ok());
        assert!(ruleset_in_file("some/dir").is_ok());
        assert_eq!(
            ruleset_in_file("../x"),
            Err(OriginError::Climbs("../x".into()))
        );
        assert_eq!(
            ruleset_in_file("a/../../x"),
            Err(OriginError::Climbs("a/../../x".into()))
        );
        assert_eq!(
            ruleset_in_file("/etc"),
            Err(OriginError::Absolute("/etc".into()))
        );
        // Any ruleset the project ships.
        let game = std::fs::read_dir(project_rules())
            .expect("the project has rules/")
            .flatten()
            .find(|e| e.path().join("game.yaml").exists())
            .expect("a ruleset under rules/")
            .file_name();
        let game = game.to_string_lossy();
        let inside = project_rules().join(&*game);
        assert!(ruleset_in_file(&inside.display().to_string()).is_ok());
        let escape = project_rules().join(format!("{game}/../../src"));
        assert!(ruleset_in_file(&escape.display().to_string()).is_err());
        assert_eq!(ruleset_in_file(" "), Err(OriginError::Empty));
        assert!(variant_in_file("advanced").is_ok());
        for bad in ["", "..", "../x", "a/b", ".hidden", "a\\b"] {
            assert!(variant_in_file(bad).is_err(), "{bad}");
        }
    }
}

//! Variants: found by name in the ruleset's `variants/` directory, or by
//! path anywhere (`--variant ../studies/feed3.yaml`); read with the files
//! they add, the items they take out and the data they hold themselves.
//!
//! A variant named by a path may name files of its own, relative to its
//! directory and kept inside it (the same protections as a ruleset's
//! files: no absolute path, no `..`, no link leading out).

use std::path::{Path, PathBuf};

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostics};
use crate::ir::span::Span;

use super::files::{read_yaml_node, shown, Listed, Removal};
use super::manifest::VariantFile;
use super::read::{is_plain_relative, read_text, Problem, Root};
use super::yaml::{self, span_in};
use super::LoadError;

/// A variant, read: the files it adds (its own data last), the items it
/// takes out, and a hash of its file's text.
pub(super) struct Overlay {
    /// The files it adds, in order.
    pub files: Vec<Listed>,
    /// The items it takes out.
    pub removals: Vec<Removal>,
    /// The hash of the variant file's text ([`variant_hash`]).
    pub hash: String,
}

/// Whether a `--variant` argument is a path (it holds a path separator or
/// ends in `.yaml` or `.yml`) rather than the name of a file of the
/// ruleset's `variants/`.
pub fn is_variant_path(arg: &str) -> bool {
    arg.contains('/') || arg.contains('\\') || arg.ends_with(".yaml") || arg.ends_with(".yml")
}

/// Whether a variant's name is a plain name (a file of `variants/`):
/// letters, digits, `_`, `-` and `.`, not starting with `.`.
pub(super) fn is_variant_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The hash of a variant file's text recorded in logs (FNV-1a, 64 bits,
/// as 16 hex digits): `replay` reads a variant a log names by path only
/// when its text has this hash.
pub fn variant_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Reads the variant `arg` (a name or a path): `None` when it has
/// mistakes (reported), an error when there is no such variant.
pub(super) fn read_variant(
    dir: &Path,
    root: &Root,
    arg: &str,
    base: &Path,
    diags: &mut Diagnostics,
) -> Result<Option<Overlay>, LoadError> {
    let by_path = is_variant_path(arg);
    if !by_path && !is_variant_name(arg) {
        return Err(LoadError::NotFound {
            code: Code::PathOutside,
            message: format!("`{arg}` is not a variant name"),
            help: "a variant is named by the name of its file in the ruleset's variants/ \
                   directory, without .yaml (letters, digits, `_`, `-`), or given by a path \
                   to a .yaml file"
                .into(),
        });
    }
    if by_path && !(arg.ends_with(".yaml") || arg.ends_with(".yml")) {
        return Err(LoadError::NotFound {
            code: Code::UnknownFileType,
            message: format!("`{arg}` is not a .yaml file: a variant given by a path is one"),
            help: "give the path of a variant's .yaml (or .yml) file, or the name of a file of                    the ruleset's variants/ (without .yaml)"
                .into(),
        });
    }
    let path = if by_path {
        PathBuf::from(arg)
    } else {
        dir.join("variants").join(format!("{arg}.yaml"))
    };
    let checked = if by_path { Ok(()) } else { root.check(&path) };
    let text = match checked.and_then(|()| read_text(&path)) {
        Ok(text) => text,
        Err(Problem::Missing) if by_path => return Err(missing_variant_file(dir, arg)),
        Err(Problem::Missing) => return Err(unknown_variant(dir, arg)),
        Err(problem) => {
            let (message, _, help) = problem.explain(&shown(base, &path));
            return Err(LoadError::NotFound {
                code: problem.code(),
                message: format!("variant `{arg}`: {message}"),
                help,
            });
        }
    };
    let hash = variant_hash(&text);
    let name = if by_path {
        arg.to_string()
    } else {
        shown(base, &path)
    };
    let file = diags.sources.add(name, text);
    let src = diags.sources.shared(file);
    let Some((node, variant)) = read_yaml_node::<VariantFile>(&src, "a variant", diags) else {
        return Ok(None);
    };
    let vdir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // A variant from elsewhere keeps to its own directory.
    let own_root;
    let files_root = if by_path {
        own_root = Root::new(&vdir);
        &own_root
    } else {
        root
    };
    let mut files: Vec<Listed> = variant
        .files
        .iter()
        .map(|f| Listed::named(files_root, &vdir, f.as_str(), span_in(&*src, f.span())))
        .collect();
    if variant.has_data() {
        files.push(Listed::inline(
            path.clone(),
            Span::new(file, 0, 0),
            file,
            node,
        ));
    }
    let mut removals = Vec::new();
    for (kind, ids) in &variant.remove {
        for id in ids {
            removals.push(Removal {
                kind: kind.clone(),
                id: id.to_string(),
                span: span_in(&*src, id.span()),
            });
        }
    }
    Ok(Some(Overlay {
        files,
        removals,
        hash,
    }))
}

/// The error for a variant the ruleset does not offer.
fn unknown_variant(dir: &Path, name: &str) -> LoadError {
    let known = list_variants(dir);
    let help = did_you_mean(name, known.iter().map(|s| s.as_str()))
        .map(|h| format!("{h} (variants of this ruleset: {})", known.join(", ")))
        .unwrap_or_else(|| {
            if known.is_empty() {
                "this ruleset has no variants; a variant file elsewhere is given by its path \
                 (`--variant path/to/file.yaml`)"
                    .into()
            } else {
                format!("variants of this ruleset: {}", known.join(", "))
            }
        });
    LoadError::NotFound {
        code: Code::UnknownVariant,
        message: format!("unknown variant `{name}`"),
        help,
    }
}

/// The error for a variant path with no file.
fn missing_variant_file(dir: &Path, arg: &str) -> LoadError {
    let known = list_variants(dir);
    LoadError::NotFound {
        code: Code::UnknownVariant,
        message: format!("no variant file at `{arg}`"),
        help: format!(
            "a --variant holding a `/` or ending in .yaml is a path from the current \
             directory; a plain name is a file of the ruleset's variants/ ({})",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ),
    }
}

/// The variants a ruleset offers: the `.yaml` files of its `variants/`
/// directory that have a `description:`, `files:` or `remove:` key (a
/// file holding only `params:` or `kinds:` is a data file), but for the
/// data files a variant names in its `files:`.
pub fn list_variants(dir: &Path) -> Vec<String> {
    let vdir = dir.join("variants");
    let mut found: Vec<(String, PathBuf, Vec<String>)> = std::fs::read_dir(&vdir)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let name = e.file_name().to_str()?.strip_suffix(".yaml")?.to_string();
                    let files = variant_shape(&e.path())?;
                    is_variant_name(&name).then(|| (name, e.path(), files))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut named = std::collections::HashSet::new();
    for (_, _, files) in &found {
        for f in files {
            named.insert(plain(&vdir.join(f)));
        }
    }
    found.retain(|(_, path, _)| !named.contains(&plain(path)));
    let mut v: Vec<String> = found.into_iter().map(|(name, _, _)| name).collect();
    v.sort();
    v
}

/// The files a variant file names; `None` for a file that reads as a
/// data file (a mapping without `description:`, `files:` or `remove:`).
/// A file that cannot be read counts as a variant naming nothing (loading
/// it reports why).
fn variant_shape(path: &Path) -> Option<Vec<String>> {
    let Ok(text) = read_text(path) else {
        return Some(Vec::new());
    };
    if yaml::indented_too_deep(&text).is_some() {
        return Some(Vec::new());
    }
    let Ok(node) = marked_yaml::parse_yaml(0, &text) else {
        return Some(Vec::new());
    };
    let Some(map) = node.as_mapping() else {
        return Some(Vec::new());
    };
    if !["description", "files", "remove"]
        .iter()
        .any(|k| map.get_node(k).is_some())
    {
        return None;
    }
    Some(
        map.get_sequence("files")
            .map(|files| {
                files
                    .iter()
                    .filter_map(|f| f.as_scalar().map(|s| s.as_str().to_string()))
                    .filter(|f| is_plain_relative(f))
                    .collect()
            })
            .unwrap_or_default(),
    )
}

/// A path without its `.` components, to compare paths written differently.
fn plain(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect()
}

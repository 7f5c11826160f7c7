//! Finding and reading the files of a ruleset: `game.yaml`, the data and
//! rules files it lists (or every one beside it), and each chosen variant
//! with the files it adds. Every file is parsed here; no name is resolved.

use std::path::{Path, PathBuf};

use marked_yaml::Node;
use serde::Deserialize;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic, Diagnostics};
use crate::ir::span::Span;
use crate::lang::{ast, parser};

use super::manifest::{GameFile, VariantFile};
use super::yaml::{self, node_span};
use super::LoadError;

/// A data file (`kinds:`, `params:`), parsed.
pub(super) struct DataFile {
    /// Its id in the source map.
    pub file: u32,
    /// Its contents.
    pub node: Node,
    /// Whether a variant brought it (its names may replace the base's).
    pub is_variant: bool,
}

/// A rules file, parsed.
pub(super) struct RulesFile {
    /// Its declarations.
    pub ast: ast::File,
    /// Whether a variant brought it (its names may replace the base's).
    pub is_variant: bool,
}

/// An item a variant takes out of the game (`remove: {kind: [id]}`).
pub(super) struct Removal {
    /// The kind's name.
    pub kind: String,
    /// The item's id.
    pub id: String,
    /// Where the variant names the item.
    pub span: Span,
}

/// `game.yaml`, read: the manifest, its id in the source map and its text.
pub(super) struct GameSource {
    /// What it says.
    pub manifest: GameFile,
    /// Its id in the source map.
    pub file: u32,
    /// Its text.
    pub text: String,
}

impl GameSource {
    /// The span of a node of `game.yaml`.
    pub fn span(&self, span: &marked_yaml::Span) -> Span {
        node_span(self.file, &self.text, span)
    }
}

/// Every file of a ruleset and of its chosen variants, parsed.
pub(super) struct Sources {
    /// `game.yaml`.
    pub game: GameSource,
    /// The data files, in load order.
    pub datas: Vec<DataFile>,
    /// The rules files, in load order.
    pub rules: Vec<RulesFile>,
    /// The items the variants take out, in order.
    pub removals: Vec<Removal>,
}

/// A variant, read: the files it adds and the items it takes out.
struct Overlay {
    files: Vec<(PathBuf, Span)>,
    removals: Vec<Removal>,
}

/// Reads and parses the files of the ruleset in `dir` with `variants`,
/// returning them with the diagnostics (holding the source map, so far
/// without mistakes). A file that is missing or cannot be parsed ends the
/// load at its own diagnostics: every later check would report the names
/// it would have defined.
pub(super) fn read_sources(
    dir: &Path,
    variants: &[String],
) -> Result<(Sources, Diagnostics), LoadError> {
    let game_path = dir.join("game.yaml");
    let text = std::fs::read_to_string(&game_path).map_err(|_| LoadError::NotFound {
        code: Code::MissingFile,
        message: format!(
            "no ruleset at `{}`: `{}` cannot be read",
            dir.display(),
            game_path.display()
        ),
        help: "a ruleset is a directory holding game.yaml (e.g. rules/<game>)".into(),
    })?;
    let mut diags = Diagnostics::default();
    let base = dir.parent().unwrap_or(Path::new("."));
    let file = diags.sources.add(shown(base, &game_path), text.as_str());
    let Some(manifest) = read_yaml::<GameFile>(file, &text, "game.yaml", &mut diags) else {
        return Err(LoadError::Invalid(diags));
    };
    let game = GameSource {
        manifest,
        file,
        text,
    };
    let mut files = ruleset_files(dir, &game, &mut diags);
    let variant_from = files.len();
    let mut removals = Vec::new();
    for name in variants {
        if let Some(overlay) = read_variant(dir, name, base, &mut diags)? {
            files.extend(overlay.files);
            removals.extend(overlay.removals);
        }
    }
    let (datas, rules) = parse_files(&files, variant_from, base, &mut diags);
    if !diags.is_empty() {
        return Err(LoadError::Invalid(diags));
    }
    let sources = Sources {
        game,
        datas,
        rules,
        removals,
    };
    Ok((sources, diags))
}

/// How a file is named in diagnostics: its path from the ruleset's parent.
fn shown(base: &Path, path: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Parses a YAML file and reads it with serde as `what`.
fn read_yaml<T: for<'de> Deserialize<'de>>(
    file: u32,
    text: &str,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<T> {
    let node = yaml::parse_yaml(file, text, diags)?;
    yaml::from_node::<T>(file, text, &node, what, diags)
}

/// The files making a ruleset, in load order, each with the place that
/// names it: `files:` of `game.yaml`, or else every `*.yaml` then every
/// `*.rules` beside it, sorted by name.
fn ruleset_files(dir: &Path, game: &GameSource, diags: &mut Diagnostics) -> Vec<(PathBuf, Span)> {
    if let Some(files) = &game.manifest.files {
        return files
            .iter()
            .map(|f| (dir.join(f.as_str()), game.span(f.span())))
            .collect();
    }
    let whole = Span::new(game.file, 0, 0);
    let mut yaml = Vec::new();
    let mut rules = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "game.yaml" || !p.is_file() {
                continue;
            }
            match p.extension().and_then(|e| e.to_str()) {
                Some("yaml") | Some("yml") => yaml.push(p),
                Some("rules") => rules.push(p),
                _ => {}
            }
        }
    } else {
        diags.push(Diagnostic::new(
            Code::UnreadableFile,
            whole,
            "cannot list the ruleset directory",
        ));
    }
    yaml.sort();
    rules.sort();
    yaml.into_iter().chain(rules).map(|p| (p, whole)).collect()
}

/// Reads `variants/<name>.yaml`: `None` when it has mistakes (reported),
/// an error when the ruleset has no such variant.
fn read_variant(
    dir: &Path,
    name: &str,
    base: &Path,
    diags: &mut Diagnostics,
) -> Result<Option<Overlay>, LoadError> {
    let path = dir.join("variants").join(format!("{name}.yaml"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Err(unknown_variant(dir, name));
    };
    let file = diags.sources.add(shown(base, &path), text.as_str());
    let Some(variant) = read_yaml::<VariantFile>(file, &text, "a variant", diags) else {
        return Ok(None);
    };
    let vdir = path.parent().unwrap_or(dir);
    let files = variant
        .files
        .iter()
        .map(|f| (vdir.join(f.as_str()), node_span(file, &text, f.span())))
        .collect();
    let mut removals = Vec::new();
    for (kind, ids) in &variant.remove {
        for id in ids {
            removals.push(Removal {
                kind: kind.clone(),
                id: id.to_string(),
                span: node_span(file, &text, id.span()),
            });
        }
    }
    Ok(Some(Overlay { files, removals }))
}

/// The error for a variant the ruleset does not offer.
fn unknown_variant(dir: &Path, name: &str) -> LoadError {
    let known = list_variants(dir);
    let help = did_you_mean(name, known.iter().map(|s| s.as_str()))
        .map(|h| format!("{h} (variants of this ruleset: {})", known.join(", ")))
        .unwrap_or_else(|| {
            if known.is_empty() {
                "this ruleset has no variants".into()
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

/// Reads and parses each file; those from index `variant_from` on come
/// from variants.
fn parse_files(
    files: &[(PathBuf, Span)],
    variant_from: usize,
    base: &Path,
    diags: &mut Diagnostics,
) -> (Vec<DataFile>, Vec<RulesFile>) {
    let mut datas = Vec::new();
    let mut rules = Vec::new();
    for (i, (path, span)) in files.iter().enumerate() {
        let is_variant = i >= variant_from;
        let Ok(text) = std::fs::read_to_string(path) else {
            let (code, label, help) = if path.exists() {
                (
                    Code::UnreadableFile,
                    "this file cannot be read",
                    "check that the file is readable UTF-8 text",
                )
            } else {
                (
                    Code::MissingFile,
                    "this file is missing",
                    "check the file name, or create the file",
                )
            };
            diags.push(
                Diagnostic::new(code, *span, format!("cannot read `{}`", shown(base, path)))
                    .label(label)
                    .help(help),
            );
            continue;
        };
        let file = diags.sources.add(shown(base, path), text.as_str());
        match path.extension().and_then(|e| e.to_str()) {
            Some("rules") => match parser::parse_file(file, &text) {
                Ok(ast) => rules.push(RulesFile { ast, is_variant }),
                Err(e) => diags.push(syntax_diag(e)),
            },
            Some("yaml") | Some("yml") => {
                if let Some(node) = yaml::parse_yaml(file, &text, diags) {
                    datas.push(DataFile {
                        file,
                        node,
                        is_variant,
                    });
                }
            }
            _ => diags.push(
                Diagnostic::new(
                    Code::UnknownFileType,
                    *span,
                    format!(
                        "`{}` is neither a .yaml nor a .rules file",
                        shown(base, path)
                    ),
                )
                .help("list data files (.yaml) and rules files (.rules)"),
            ),
        }
    }
    (datas, rules)
}

/// The variants a ruleset offers.
pub fn list_variants(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("variants"))
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let p = e.path();
                    (p.extension().and_then(|x| x.to_str()) == Some("yaml"))
                        .then(|| p.file_stem().map(|s| s.to_string_lossy().to_string()))
                        .flatten()
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Resolves a ruleset argument: a directory, or a name under `rules/`.
pub fn find_ruleset(arg: &str) -> PathBuf {
    let p = PathBuf::from(arg);
    if p.join("game.yaml").exists() {
        return p;
    }
    for base in ["rules", "../rules"] {
        let q = Path::new(base).join(arg);
        if q.join("game.yaml").exists() {
            return q;
        }
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules")
        .join(arg);
    if manifest.join("game.yaml").exists() {
        return manifest;
    }
    p
}

/// Turns a syntax error into a diagnostic.
pub fn syntax_diag(e: parser::SyntaxError) -> Diagnostic {
    let expected = match e.expected.len() {
        0 => "something else".to_string(),
        1 => e.expected[0].clone(),
        n => format!(
            "{} or {}",
            e.expected[..n - 1].join(", "),
            e.expected[n - 1]
        ),
    };
    let detail = e.detail.map(|d| *d).unwrap_or_default();
    let mut d = Diagnostic::new(
        Code::SyntaxError,
        e.span,
        format!("syntax error: expected {expected}, found {}", e.found),
    )
    .label(detail.label.unwrap_or_else(|| "unexpected here".into()))
    .help(
        detail
            .help
            .unwrap_or_else(|| format!("write {expected} here")),
    );
    if let Some((span, text)) = detail.note {
        d = d.note(span, text);
    }
    d
}

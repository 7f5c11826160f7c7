//! Finding and reading the files of a ruleset: `game.yaml`, the data and
//! rules files it lists (or every one beside it), and each chosen variant
//! with the files it adds. Every file is parsed here; no name is resolved.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use marked_yaml::Node;
use serde::Deserialize;

use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::span::{SourceFile, Span};
use crate::lang::{ast, parser};
use crate::model::limits::MAX_RULES_BYTES;

use super::manifest::GameFile;
use super::overrides::{read_overrides, Override};
use super::read::{read_text, Problem, Root};
use super::variant::read_variant;
use super::yaml::{self, span_in};
use super::LoadError;

/// A data file (`kinds:`, `params:`), parsed.
pub(super) struct DataFile {
    /// Its id in the source map.
    pub file: u32,
    /// Its contents.
    pub node: Node,
    /// Whether a variant brought it (its names may replace the base's).
    pub is_variant: bool,
    /// Whether it is a variant file itself (whose `description:`,
    /// `files:` and `remove:` are not data).
    pub is_variant_file: bool,
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

/// `game.yaml`, read: the manifest and its file in the source map.
pub(super) struct GameSource {
    /// What it says.
    pub manifest: GameFile,
    /// Its id in the source map.
    pub file: u32,
    /// The file, to locate its nodes.
    pub src: Arc<SourceFile>,
}

impl GameSource {
    /// The span of a node of `game.yaml`.
    pub fn span(&self, span: &marked_yaml::Span) -> Span {
        span_in(&*self.src, span)
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
    /// A hash of each variant file's text, in order.
    pub variant_hashes: Vec<String>,
    /// The parameters set from outside (`--set`), in order.
    pub overrides: Vec<Override>,
}

/// A file to load, with the place that names it.
pub(super) struct Listed {
    /// Where it is.
    path: PathBuf,
    /// Why it may not be read (a path leaving the ruleset), if so.
    refused: Option<Problem>,
    /// The place naming it (`files:`, or the start of `game.yaml`).
    span: Span,
    /// A file already read and parsed (a variant file holding data): its
    /// id in the source map and its contents.
    inline: Option<(u32, Node)>,
}

impl Listed {
    /// `name`, written at `span`, relative to `from` in the ruleset.
    pub fn named(root: &Root, from: &Path, name: &str, span: Span) -> Listed {
        let (path, refused) = match root.join(from, name) {
            Ok(path) => (path, None),
            Err(problem) => (from.join(name), Some(problem)),
        };
        Listed {
            path,
            refused,
            span,
            inline: None,
        }
    }

    /// A data file already read as `file` in the source map.
    pub fn inline(path: PathBuf, span: Span, file: u32, node: Node) -> Listed {
        Listed {
            path,
            refused: None,
            span,
            inline: Some((file, node)),
        }
    }
}

/// Reads and parses the files of the ruleset in `dir` with `variants`,
/// returning them with the diagnostics (holding the source map, so far
/// without mistakes). A file that is missing or cannot be parsed ends the
/// load at its own diagnostics: every later check would report the names
/// it would have defined.
pub(super) fn read_sources(
    dir: &Path,
    variants: &[String],
    set: &[(String, String)],
) -> Result<(Sources, Diagnostics), LoadError> {
    let game_path = dir.join("game.yaml");
    let root = Root::new(dir);
    let text = root
        .check(&game_path)
        .and_then(|()| read_text(&game_path))
        .map_err(|problem| no_game_file(dir, &game_path, &problem))?;
    let mut diags = Diagnostics::default();
    let base = dir.parent().unwrap_or(Path::new("."));
    let file = diags.sources.add(shown(base, &game_path), text);
    let src = diags.sources.shared(file);
    let Some(manifest) = read_yaml::<GameFile>(&src, "game.yaml", &mut diags) else {
        return Err(LoadError::Invalid(diags));
    };
    let game = GameSource {
        manifest,
        file,
        src,
    };
    let mut files = ruleset_files(dir, &root, &game, &mut diags);
    let variant_from = files.len();
    let mut removals = Vec::new();
    let mut variant_hashes = Vec::new();
    for name in variants {
        match read_variant(dir, &root, name, base, &mut diags)? {
            Some(overlay) => {
                files.extend(overlay.files);
                removals.extend(overlay.removals);
                variant_hashes.push(overlay.hash);
            }
            None => variant_hashes.push(String::new()),
        }
    }
    let (datas, rules) = parse_files(files, variant_from, base, &mut diags);
    let overrides = read_overrides(set, &mut diags);
    if !diags.is_empty() {
        return Err(LoadError::Invalid(diags));
    }
    let sources = Sources {
        game,
        datas,
        rules,
        removals,
        variant_hashes,
        overrides,
    };
    Ok((sources, diags))
}

/// The error for a ruleset whose `game.yaml` cannot be read.
fn no_game_file(dir: &Path, game_path: &Path, problem: &Problem) -> LoadError {
    if matches!(problem, Problem::Missing) {
        let places: Vec<String> = ruleset_places(&dir.to_string_lossy())
            .iter()
            .map(|p| format!("`{}`", p.display()))
            .collect();
        return LoadError::NotFound {
            code: Code::MissingFile,
            message: format!(
                "no ruleset at `{}`: there is no `{}` (looked for a game.yaml in {})",
                dir.display(),
                game_path.display(),
                places.join(", ")
            ),
            help: "a ruleset is a directory holding game.yaml: give its path, or the name of \
                   one under rules/ (e.g. rules/<game>)"
                .into(),
        };
    }
    let (message, _, help) = problem.explain(&game_path.display().to_string());
    LoadError::NotFound {
        code: problem.code(),
        message: format!("no ruleset at `{}`: {message}", dir.display()),
        help,
    }
}

/// How a file is named in diagnostics: its path from the ruleset's parent.
pub(super) fn shown(base: &Path, path: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Parses a YAML file and reads it with serde as `what`.
fn read_yaml<T: for<'de> Deserialize<'de>>(
    src: &SourceFile,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<T> {
    let node = yaml::parse_yaml_in(src, diags)?;
    yaml::from_node_in::<T>(src, &node, what, diags)
}

/// Parses a YAML file and reads it with serde as `what`, keeping the node.
pub(super) fn read_yaml_node<T: for<'de> Deserialize<'de>>(
    src: &SourceFile,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<(Node, T)> {
    let node = yaml::parse_yaml_in(src, diags)?;
    let value = yaml::from_node_in::<T>(src, &node, what, diags)?;
    Some((node, value))
}

/// The files making a ruleset, in load order, each with the place that
/// names it: `files:` of `game.yaml`, or else every `*.yaml` (but the view,
/// `view.yaml`) then every `*.rules` beside it, sorted by name.
fn ruleset_files(
    dir: &Path,
    root: &Root,
    game: &GameSource,
    diags: &mut Diagnostics,
) -> Vec<Listed> {
    if let Some(files) = &game.manifest.files {
        return files
            .iter()
            .map(|f| Listed::named(root, dir, f.as_str(), game.span(f.span())))
            .collect();
    }
    let whole = Span::new(game.file, 0, 0);
    let mut yaml = Vec::new();
    let mut rules = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "game.yaml" || name == super::view::VIEW_FILE {
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
    yaml.into_iter()
        .chain(rules)
        .map(|path| Listed {
            refused: root.check(&path).err(),
            path,
            span: whole,
            inline: None,
        })
        .collect()
}

/// Reads and parses each file; those from index `variant_from` on come
/// from variants.
fn parse_files(
    files: Vec<Listed>,
    variant_from: usize,
    base: &Path,
    diags: &mut Diagnostics,
) -> (Vec<DataFile>, Vec<RulesFile>) {
    let mut datas = Vec::new();
    let mut rules = Vec::new();
    let mut rules_bytes = 0;
    for (i, listed) in files.into_iter().enumerate() {
        let is_variant = i >= variant_from;
        let Listed {
            path,
            refused,
            span,
            inline,
        } = listed;
        if let Some((file, node)) = inline {
            datas.push(DataFile {
                file,
                node,
                is_variant,
                is_variant_file: true,
            });
            continue;
        }
        let name = shown(base, &path);
        if let Some(problem) = refused {
            diags.push(problem.diagnostic(&name, span));
            continue;
        }
        let is_rules = match path.extension().and_then(|e| e.to_str()) {
            Some("rules") => true,
            Some("yaml") | Some("yml") => false,
            _ => {
                diags.push(
                    Diagnostic::new(
                        Code::UnknownFileType,
                        span,
                        format!("`{name}` is neither a .yaml nor a .rules file"),
                    )
                    .help("list data files (.yaml) and rules files (.rules)"),
                );
                continue;
            }
        };
        let text = match read_text(&path) {
            Ok(text) => text,
            Err(problem) => {
                diags.push(problem.diagnostic(&name, span));
                continue;
            }
        };
        if is_rules {
            rules_bytes += text.len();
            if rules_bytes > MAX_RULES_BYTES {
                diags.push(rules_too_large(&name, span));
                continue;
            }
        }
        let file = diags.sources.add(name, text);
        let src = diags.sources.shared(file);
        if is_rules {
            match parser::parse_file(file, &src.text) {
                Ok(ast) => rules.push(RulesFile { ast, is_variant }),
                Err(e) => diags.push(syntax_diag(e)),
            }
        } else if let Some(node) = yaml::parse_yaml_in(&*src, diags) {
            datas.push(DataFile {
                file,
                node,
                is_variant,
                is_variant_file: false,
            });
        }
    }
    (datas, rules)
}

/// The report of a rules file that takes the ruleset's rules past
/// [`MAX_RULES_BYTES`].
fn rules_too_large(name: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::TooLarge,
        span,
        format!(
            "with `{name}`, the rules files pass {} MB",
            MAX_RULES_BYTES >> 20
        ),
    )
    .label("too large")
    .help(format!(
        "the rules files of a ruleset (its variant's included) hold at most {} MB of text \
         (docs/LANGUAGE.md, Limits)",
        MAX_RULES_BYTES >> 20
    ))
}

/// Where a ruleset argument is looked for, in order: the argument as a
/// directory, then `rules/<arg>` and `../rules/<arg>` from the working
/// directory, then `rules/<arg>` in the project holding the executable
/// (a `tabula` built under a project's `target/`).
pub fn ruleset_places(arg: &str) -> Vec<PathBuf> {
    let mut places = vec![
        PathBuf::from(arg),
        Path::new("rules").join(arg),
        Path::new("../rules").join(arg),
    ];
    if let Some(project) = executable_project() {
        places.push(project.join("rules").join(arg));
    }
    places
}

/// The project the running executable was built in: the nearest of the
/// four directories above it holding `Cargo.toml` and `rules/`.
fn executable_project() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?.canonicalize().ok()?;
    exe.ancestors()
        .skip(1)
        .take(4)
        .find(|d| d.join("Cargo.toml").is_file() && d.join("rules").is_dir())
        .map(Path::to_path_buf)
}

/// Resolves a ruleset argument: the first of [`ruleset_places`] holding a
/// `game.yaml`, or the argument itself (whose loading then reports every
/// place looked at).
pub fn find_ruleset(arg: &str) -> PathBuf {
    ruleset_places(arg)
        .into_iter()
        .find(|p| p.join("game.yaml").exists())
        .unwrap_or_else(|| PathBuf::from(arg))
}

/// Turns a syntax error (or a text nested too deep, a number too large)
/// into a diagnostic.
pub fn syntax_diag(e: parser::SyntaxError) -> Diagnostic {
    let message = e.message();
    let expected = e.expected_text();
    let detail = e.detail.map(|d| *d).unwrap_or_default();
    let mut d = Diagnostic::new(e.code, e.span, message)
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

//! Translation validation: check a rulebook text, in any language, against
//! the encoded rules (`tabula translate`). See docs/TRANSLATE.md.
//!
//! A language file `rules/<game>/i18n/<lang>.yaml` holds a glossary and a
//! list of claims: a short anchor (a few words of a passage, `#` where a
//! number is read) and the rule fact the passage states, as an expression
//! of the rules language evaluated on the initial state (`feed_cost`,
//! `monuments_dealt[3]`, `farm_all.cost[wood]`). Values come from the
//! ruleset, so the check follows the rules when they change.

pub mod check;
pub mod claims;
pub mod compare;
pub mod eval;
pub mod findings;
pub mod matcher;
pub mod report;
pub mod scenario;
pub mod text;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::ir::diag::Diagnostics;
use crate::model::{find_ruleset, load, LoadError};

pub use check::{Book, Evaluator, Finding, Report, Status, Summary};

/// `tabula translate`: check a rulebook against a ruleset.
#[derive(Debug, Clone, clap::Args)]
pub struct TranslateArgs {
    /// The ruleset: a directory holding game.yaml, or a name under rules/.
    #[arg(value_name = "RULESET")]
    pub ruleset: String,
    /// The rulebook text to check.
    #[arg(long, value_name = "FILE")]
    pub rulebook: Option<PathBuf>,
    /// Its language: the ruleset's i18n/`<LANG>`.yaml holds the claims
    /// (default: taken from the file name, e.g. `book.pt.txt`).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// A variant to apply; the report names the passages it makes false.
    #[arg(long = "variant", value_name = "V")]
    pub variants: Vec<String>,
    /// Also write the report as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Compare rulebooks side by side: `--compare pt=FILE --compare ro=FILE`
    /// (or `--compare pt=FILE ro=FILE`).
    #[arg(long, value_name = "LANG=FILE", num_args = 1..)]
    pub compare: Vec<String>,
    /// A language file to use instead of the ruleset's i18n/`<LANG>`.yaml.
    #[arg(long, value_name = "FILE")]
    pub claims: Option<PathBuf>,
    /// Fail (exit 1) when coverage is below this percentage.
    #[arg(long, value_name = "PERCENT")]
    pub min_coverage: Option<f64>,
    /// Also list confirmed facts and noted numbers.
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

/// Why a check could not run.
#[derive(Debug)]
pub enum RunError {
    /// No ruleset where one was asked for.
    NoRuleset {
        /// What is missing.
        message: String,
        /// What to do.
        help: String,
    },
    /// No language file for the rulebook's language.
    NoLanguageFile {
        /// Where it was looked for.
        path: PathBuf,
        /// The language.
        lang: String,
    },
    /// The language file cannot be read.
    LanguageFile(claims::ReadError),
    /// A rulebook cannot be read.
    Unreadable {
        /// The rulebook.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A rulebook too long to be one.
    TooLarge {
        /// The rulebook.
        path: PathBuf,
    },
    /// The report cannot be written as JSON.
    Json(serde_json::Error),
    /// The JSON file cannot be written.
    Unwritable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// Diagnostics (a ruleset or language file with mistakes).
    Diags(Diagnostics),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::NoRuleset { message, help } => write!(f, "{message}\n  help: {help}"),
            RunError::NoLanguageFile { path, lang } => write!(
                f,
                "no language file `{}`: the claims of a `{lang}` rulebook are kept there",
                path.display()
            ),
            RunError::LanguageFile(e) => e.fmt(f),
            RunError::Unreadable { path, error } => {
                write!(f, "cannot read `{}`: {error}", path.display())
            }
            RunError::TooLarge { path } => write!(
                f,
                "`{}` is too long for a rulebook (more than {MAX_BOOK_BYTES} bytes; \
                 split it and check each part)",
                path.display()
            ),
            RunError::Json(e) => e.fmt(f),
            RunError::Unwritable { path, error } => {
                write!(f, "cannot write `{}`: {error}", path.display())
            }
            RunError::Diags(d) => f.write_str(d.render_plain().trim_end()),
        }
    }
}

impl std::error::Error for RunError {}

impl RunError {
    /// Renders the error as the command prints it.
    pub fn render(&self) -> String {
        match self {
            RunError::Diags(d) => d.render_plain(),
            e => format!("error: {e}\n"),
        }
    }
}

fn load_rules(dir: &Path, variants: &[String]) -> Result<crate::model::Ruleset, RunError> {
    load(dir, variants).map_err(|e| match e {
        LoadError::NotFound { message, help, .. } => RunError::NoRuleset { message, help },
        LoadError::Invalid(d) => RunError::Diags(d),
    })
}

/// The language of a rulebook from its file name (`x.pt.txt` -> `pt`).
pub fn lang_of(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let parts: Vec<&str> = name.split('.').collect();
    (parts.len() >= 3).then(|| parts[parts.len() - 2].to_string())
}

/// Checks one rulebook: loads the ruleset (with and without variants),
/// the language file, and runs the check.
pub fn run(
    ruleset: &Path,
    variants: &[String],
    lang: &str,
    claims_file: Option<&Path>,
    book_name: &str,
    book_text: &str,
) -> Result<Report, RunError> {
    let rules = load_rules(ruleset, variants)?;
    let base = if variants.is_empty() {
        None
    } else {
        Some(load_rules(ruleset, &[])?)
    };
    let path = claims_file
        .map(Path::to_path_buf)
        .unwrap_or_else(|| ruleset.join("i18n").join(format!("{lang}.yaml")));
    if !path.exists() {
        return Err(RunError::NoLanguageFile {
            path,
            lang: lang.to_string(),
        });
    }
    let display = display_name(ruleset, &path);
    let mut diags = Diagnostics::default();
    let i18n = match claims::read(&path, &display, &mut diags) {
        Ok(i) if diags.is_empty() => i,
        Ok(_) => return Err(RunError::Diags(diags)),
        Err(e) if diags.is_empty() => return Err(RunError::LanguageFile(e)),
        Err(_) => return Err(RunError::Diags(diags)),
    };
    let mut ev = Evaluator::new(rules).with_dir(ruleset);
    let mut base_ev = base.map(|b| Evaluator::new(b).with_dir(ruleset));
    Ok(check::check(
        &mut ev,
        base_ev.as_mut(),
        &i18n,
        &Book {
            name: book_name,
            text: book_text,
        },
        variants,
    ))
}

/// How a language file is named in diagnostics: relative to the ruleset's
/// parent (`<game>/i18n/pt.yaml`), else to the working directory, else
/// by its file name; never a machine path.
fn display_name(ruleset: &Path, path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(ruleset.parent().unwrap_or(Path::new(".")))
        .or_else(|_| path.strip_prefix(&cwd))
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| path.file_name().map(PathBuf::from).unwrap_or_default())
        .display()
        .to_string()
}

/// The longest rulebook read, in bytes (a rulebook's text is some tens of
/// kilobytes; the check's time and memory grow with the text).
pub const MAX_BOOK_BYTES: u64 = 8 << 20;

fn read_book(path: &Path) -> Result<String, RunError> {
    use crate::scenario::origin::{read_limited, ReadError};
    read_limited(path, MAX_BOOK_BYTES, "a rulebook").map_err(|e| match e {
        ReadError::Io { path, source } => RunError::Unreadable {
            path,
            error: source,
        },
        ReadError::TooLarge { path, .. } => RunError::TooLarge { path },
    })
}

/// What `tabula translate` prints and its exit status.
#[derive(Debug, Default)]
pub struct CliOutput {
    /// The exit status: 0 ok, 1 findings or errors, 2 usage.
    pub code: i32,
    /// The report (stdout).
    pub stdout: String,
    /// The errors (stderr).
    pub stderr: String,
}

impl CliOutput {
    fn error(code: i32, text: String) -> CliOutput {
        CliOutput {
            code,
            stdout: String::new(),
            stderr: text,
        }
    }
}

/// Runs `tabula translate`: the report for stdout, the errors for stderr.
pub fn cli_run(args: &TranslateArgs) -> CliOutput {
    if let Some(min) = args.min_coverage.filter(|m| !(0.0..=100.0).contains(m)) {
        return CliOutput::error(
            2,
            format!("error: --min-coverage is a percentage from 0 to 100, not {min}\n"),
        );
    }
    let dir = find_ruleset(&args.ruleset);
    if !args.compare.is_empty() {
        return compare_main(args, &dir);
    }
    let Some(book) = &args.rulebook else {
        return CliOutput::error(
            2,
            "error: give a rulebook with --rulebook FILE, or --compare LANG=FILE...\n".into(),
        );
    };
    let Some(lang) = args.lang.clone().or_else(|| lang_of(book)) else {
        return CliOutput::error(
            2,
            "error: give the rulebook's language with --lang LANG\n".into(),
        );
    };
    let text = match read_book(book) {
        Ok(t) => t,
        Err(e) => return CliOutput::error(1, e.render()),
    };
    let name = book.display().to_string();
    match run(
        &dir,
        &args.variants,
        &lang,
        args.claims.as_deref(),
        &name,
        &text,
    ) {
        Err(e) => CliOutput::error(1, e.render()),
        Ok(r) => {
            let mut out = CliOutput {
                code: i32::from(r.failed()),
                stdout: report::render(&r, args.verbose),
                stderr: String::new(),
            };
            if let Some(min) = args.min_coverage {
                if r.summary.coverage + 1e-9 < min {
                    out.stderr.push_str(&format!(
                        "error: coverage {:.1}% is below the required {min}%\n",
                        r.summary.coverage
                    ));
                    out.code = 1;
                }
            }
            if let Some(j) = &args.json {
                if let Err(e) = write_json(j, &r) {
                    out.stderr.push_str(&e.render());
                    out.code = 1;
                }
            }
            out
        }
    }
}

fn write_json<T: serde::Serialize>(path: &Path, v: &T) -> Result<(), RunError> {
    let s = serde_json::to_string_pretty(v).map_err(RunError::Json)?;
    std::fs::write(path, s + "\n").map_err(|error| RunError::Unwritable {
        path: path.to_path_buf(),
        error,
    })
}

fn compare_main(args: &TranslateArgs, dir: &Path) -> CliOutput {
    let mut reports = Vec::new();
    let mut names = BTreeMap::new();
    let mut out = String::new();
    for spec in &args.compare {
        let Some((lang, file)) = spec.split_once('=') else {
            return CliOutput::error(
                2,
                format!("error: `{spec}`: write --compare LANG=FILE (e.g. pt=book.pt.txt)\n"),
            );
        };
        let path = PathBuf::from(file);
        let text = match read_book(&path) {
            Ok(t) => t,
            Err(e) => return CliOutput::error(1, e.render()),
        };
        match run(dir, &args.variants, lang, None, file, &text) {
            Ok(r) => {
                out.push_str(&report::summary_table(&r));
                out.push('\n');
                names.insert(lang.to_string(), file.to_string());
                reports.push(r);
            }
            Err(e) => return CliOutput::error(1, e.render()),
        }
    }
    let c = report::compare(&reports);
    out.push_str(&report::render_comparison(&c, &names));
    // A book that fails its own check, a sentence one book lacks or a sign
    // the books state differently, unless the language file expects it.
    let failed = reports.iter().any(Report::failed)
        || c.missing.iter().any(|m| !m.expected)
        || c.rows
            .iter()
            .any(|r| r.sign_differs && r.reasons.is_empty());
    let mut result = CliOutput {
        code: i32::from(failed),
        stdout: out,
        stderr: String::new(),
    };
    if let Some(j) = &args.json {
        if let Err(e) = write_json(j, &c) {
            result.stderr = e.render();
            result.code = 1;
        }
    }
    result
}

//! `rules/<game>/i18n/<lang>.yaml`: the glossary of a language and the
//! claims a rulebook in that language makes about the ruleset.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use marked_yaml::Spanned;
use serde::Deserialize;

use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::span::Span;
use crate::model::data::{self, node_span};

/// One language file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct I18nFile {
    /// The language code (`pt`, `ro`).
    pub lang: String,
    /// Players assumed when a reference depends on the player count
    /// (default: the ruleset's maximum).
    #[serde(default)]
    pub players: Option<usize>,
    /// Number words of the language (`dois: 2`), read like digits.
    #[serde(default)]
    pub numbers: BTreeMap<String, i64>,
    /// Canonical term of the ruleset -> its words in the language
    /// (`word*` matches every word starting so).
    #[serde(default)]
    pub glossary: BTreeMap<String, Vec<String>>,
    /// Short words the OCR read as digits, read back in context (`3` for
    /// the article `a`).
    #[serde(default)]
    pub ocr_words: Vec<crate::translate::text::OcrWord>,
    /// Words after which a number is a cross-reference (`página 10`), not
    /// a numeric statement.
    #[serde(default)]
    pub references: Vec<String>,
    /// Passages that are not rules (credits, the story): `from` anchor to
    /// `to` anchor, with a reason.
    #[serde(default)]
    pub skip: Vec<Skip>,
    /// Fail when coverage (the share of numeric statements the rules
    /// check: a rule fact or a relation) is below this percentage.
    #[serde(default)]
    pub min_coverage: Option<f64>,
    /// Fail when the share of numeric statements claimed (checked by the
    /// rules, recorded, labels or noted) is below this percentage (100: a
    /// new, unclaimed number fails the check).
    #[serde(default)]
    pub min_claimed: Option<f64>,
    /// Words naming game objects that make no numeric statement (colours):
    /// canonical name -> words, used only to check that the words of an
    /// anchor name the same objects in the text.
    #[serde(default)]
    pub names: BTreeMap<String, Vec<String>>,
    /// The claims, best kept in the rulebook's order.
    #[serde(default)]
    pub claims: Vec<Claim>,
}

/// A passage that is not rules.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skip {
    /// Anchor of its first words.
    pub from: Spanned<String>,
    /// Anchor of its last words.
    pub to: Spanned<String>,
    /// Why it does not count.
    pub reason: String,
}

/// A passage of the rulebook and the rule facts it states.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The anchor: a few words of the passage, `#` for each number read.
    pub at: Spanned<String>,
    /// The fact: an expression of the rules language, evaluated on the
    /// initial state.
    #[serde(default, rename = "ref")]
    pub reference: Option<Spanned<String>>,
    /// Several facts, read from the `#`s in order.
    #[serde(default)]
    pub refs: Vec<Spanned<String>>,
    /// Players for the references (default: the file's `players`).
    #[serde(default)]
    pub players: Option<usize>,
    /// Search only after this anchor (to tell repeated phrases apart).
    #[serde(default)]
    pub after: Option<Spanned<String>>,
    /// An expected finding: `contradicted` or `not_found`.
    #[serde(default)]
    pub expect: Option<Spanned<String>>,
    /// With `expect: contradicted`, the number the rulebook states: any
    /// other number is reported (the text changed).
    #[serde(default)]
    pub stated: Option<i64>,
    /// With several facts, the one fact the expectation is about (the
    /// others are checked as usual).
    #[serde(default)]
    pub expect_on: Option<Spanned<String>>,
    /// Why a finding is expected, or why the numbers are not rule facts.
    #[serde(default)]
    pub reason: Option<String>,
    /// Numbers that state no fact of the ruleset (a component count, a page
    /// number): acknowledged with this reason; compared only with the
    /// values recorded in `values:`.
    #[serde(default)]
    pub note: Option<String>,
    /// With `note:`, the numbers the passage states, in the order of the
    /// `#`s: the text must still state them (no rule fact backs them).
    #[serde(default)]
    pub values: Vec<i64>,
    /// With `note:`, one recorded value (the same as `values: [N]`).
    #[serde(default)]
    pub value: Option<i64>,
    /// What the printed book has where the OCR wrote the digits of the
    /// anchor's `#`s (a word, an ordinal, a mark of a picture): no number
    /// of the book, hence no numeric statement. `values:` records the
    /// digits, which the text must still have.
    #[serde(default)]
    pub ocr: Option<String>,
    /// A scenario of the ruleset's `examples/` (its file name without
    /// `.yaml`): the references may read `setup(x)`, the value the
    /// scenario's setup assigns to `x`, and `expected(x)`, the value its
    /// last `expect:` asserts for `x` (what the engine computes).
    #[serde(default)]
    pub scenario: Option<Spanned<String>>,
    /// A rule sentence that states no number (a step of a tie-break, an
    /// exception): a key naming the rule, the same in every language, so
    /// that `--compare` reports a book that lacks the sentence.
    #[serde(default)]
    pub rule: Option<Spanned<String>>,
    /// Relations between the passage's numbers, each an expression of the
    /// rules language over `#1`, `#2`... (the anchor's `#`s in order) and
    /// the rules' values, true when the text is right: a worked example's
    /// setup and outcome tied by the rules (`#3 == #1 + #2`). A ref `"#"`
    /// says that number has no fact of its own.
    #[serde(default)]
    pub relations: Vec<Spanned<String>>,
}

impl Claim {
    /// The facts, in the order of the `#`s.
    pub fn facts(&self) -> Vec<&Spanned<String>> {
        self.reference.iter().chain(self.refs.iter()).collect()
    }

    /// The name a fact of this claim goes by in the report and across
    /// languages (`scenario: ref` for a worked example).
    pub fn fact_name(&self, fact: &str) -> String {
        match &self.scenario {
            Some(sc) => format!("{}: {fact}", sc.as_str()),
            None => fact.to_string(),
        }
    }

    /// The name the claim goes by in a finding about its passage or
    /// words: its first fact's, else its rule sentence's.
    pub fn headline(&self) -> Option<String> {
        self.facts()
            .first()
            .map(|f| self.fact_name(f.as_str()))
            .or_else(|| self.rule_name())
    }

    /// The name of the claim's rule sentence (`rule: key`), if it is one.
    pub fn rule_name(&self) -> Option<String> {
        self.rule.as_ref().map(|r| format!("rule: {}", r.as_str()))
    }

    /// The recorded values of a note, in the order of the `#`s.
    pub fn recorded(&self) -> Vec<i64> {
        self.value
            .iter()
            .chain(self.values.iter())
            .copied()
            .collect()
    }
}

/// A loaded language file with the spans of its parts.
pub struct I18n {
    /// The parsed file.
    pub file: I18nFile,
    /// Its text.
    pub text: String,
    /// Its display name.
    pub name: String,
    /// Number words, normalised.
    pub numbers: HashMap<String, i64>,
}

impl I18n {
    /// The span of a scalar of the file, in the file registered as `file`.
    pub fn span(&self, file: u32, s: &Spanned<String>) -> Span {
        node_span(file, &self.text, s.span())
    }

    /// The offset in the file text where a scalar's own characters begin
    /// (after an opening quote).
    pub fn content_start(&self, s: &Spanned<String>) -> usize {
        let sp = node_span(0, &self.text, s.span());
        let at = sp.start as usize;
        let rest = &self.text[at.min(self.text.len())..];
        match rest.find(s.as_str()) {
            Some(p) if p <= 1 => at + p,
            _ => at,
        }
    }
}

/// Why a language file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file cannot be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file is not valid YAML (diagnostics say where).
    InvalidYaml,
    /// The file is not a language file (diagnostics say where).
    Invalid,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Unreadable { path, error } => {
                write!(f, "cannot read `{}`: {error}", path.display())
            }
            ReadError::InvalidYaml => f.write_str("invalid YAML"),
            ReadError::Invalid => f.write_str("invalid language file"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads and parses a language file; syntax errors and mistakes in its
/// claims go to `diags`, with the file registered as `file` there.
pub fn read(path: &Path, name: &str, diags: &mut Diagnostics) -> Result<I18n, ReadError> {
    let text = std::fs::read_to_string(path).map_err(|error| ReadError::Unreadable {
        path: path.to_path_buf(),
        error,
    })?;
    let file = diags.sources.add(name.to_string(), text.as_str());
    let node = data::parse_yaml(file, &text, diags).ok_or(ReadError::InvalidYaml)?;
    let parsed: I18nFile =
        data::from_node(file, &text, &node, "a language file", diags).ok_or(ReadError::Invalid)?;
    let mut i = I18n {
        numbers: HashMap::new(),
        file: parsed,
        text,
        name: name.to_string(),
    };
    for c in &i.file.claims {
        i.validate(file, c, diags);
    }
    i.numbers = crate::translate::matcher::number_words(
        &i.file
            .numbers
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
    );
    Ok(i)
}

impl I18n {
    /// Reports what is inconsistent in a claim: an unknown expectation or
    /// one without a reason, `stated:` without an expected contradiction,
    /// recorded values without a note, with facts or not one per `#`; a
    /// claim with neither facts nor a note.
    fn validate(&self, file: u32, c: &Claim, diags: &mut Diagnostics) {
        if let Some(e) = &c.expect {
            if !matches!(e.as_str(), "contradicted" | "not_found" | "wrong_word") {
                diags.push(
                    Diagnostic::new(
                        Code::TranslateBadClaim,
                        self.span(file, e),
                        format!("unknown expectation `{}`", e.as_str()),
                    )
                    .help("write `expect: contradicted`, `expect: not_found` or `expect: wrong_word`, with a `reason:`"),
                );
            } else if c.reason.is_none() {
                diags.push(
                    Diagnostic::new(
                        Code::TranslateBadClaim,
                        self.span(file, e),
                        "an expected finding needs a reason",
                    )
                    .help("add `reason:` with one line on why the rulebook differs"),
                );
            }
        }
        if c.stated.is_some() && c.expect.as_ref().map(|e| e.as_str()) != Some("contradicted") {
            diags.push(
                Diagnostic::new(
                    Code::TranslateBadClaim,
                    self.span(file, &c.at),
                    "`stated:` is for an expected contradiction",
                )
                .help("add `expect: contradicted` and a `reason:`, or remove `stated:`"),
            );
        }
        if c.ocr.is_some() && (c.note.is_some() || !c.facts().is_empty() || c.recorded().is_empty())
        {
            diags.push(
                Diagnostic::new(Code::TranslateBadClaim, self.span(file, &c.at), "`ocr:` takes the digits the OCR wrote in `values:`, and no `note:` or facts")
                    .help("write `ocr: <what the book prints>` with `values: [<the digits>]`; a number of the book is a `ref:` or a `note:`"),
            );
        }
        if !c.recorded().is_empty() && c.note.is_none() && c.ocr.is_none() {
            diags.push(
                Diagnostic::new(Code::TranslateBadClaim, self.span(file, &c.at), "recorded values need a `note:`")
                    .help("a value recorded in the language file is for numbers that state no rule fact; say why in `note:`, or write the fact as `ref:`"),
            );
        }
        if !c.recorded().is_empty() && !c.facts().is_empty() {
            diags.push(
                Diagnostic::new(
                    Code::TranslateBadClaim,
                    self.span(file, &c.at),
                    "a claim has either rule facts or recorded values",
                )
                .help("keep `ref:`/`refs:` (checked against the rules), or `note:` with `values:`"),
            );
        }
        for f in c.facts() {
            let reads_rules = f.as_str().chars().any(|ch| ch.is_alphabetic() || ch == '_');
            if f.as_str() != "#" && !reads_rules {
                diags.push(
                    Diagnostic::new(Code::TranslateBadClaim, self.span(file, f), format!("`{}` reads nothing of the rules", f.as_str()))
                        .help("a constant always confirms: write the number as a literal of the anchor (a label), relate it with `relations:`, or name the rule fact it states"),
                );
            }
        }
        let holes = crate::translate::matcher::compile(c.at.as_str())
            .iter()
            .filter(|p| matches!(p, crate::translate::matcher::Pat::Num))
            .count();
        if !c.recorded().is_empty() && c.recorded().len() != holes {
            diags.push(
                Diagnostic::new(
                    Code::TranslateBadClaim,
                    self.span(file, &c.at),
                    format!(
                        "{} recorded value(s) for {holes} `#` in the anchor",
                        c.recorded().len()
                    ),
                )
                .help("record one value per `#`, in order"),
            );
        }
        if c.facts().is_empty()
            && c.note.is_none()
            && c.ocr.is_none()
            && c.rule.is_none()
            && c.relations.is_empty()
        {
            diags.push(
                Diagnostic::new(Code::TranslateBadClaim, self.span(file, &c.at), "a claim needs `ref:`, `refs:`, `relations:`, `note:` or `rule:`")
                    .help("name the rule fact the passage states (`ref: feed_cost`), or say why its numbers are not rules (`note: ...`)"),
            );
        }
    }
}

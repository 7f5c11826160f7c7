//! What a check finds: the outcome of each claim and of each numeric
//! statement, the counts, the numbers written in digits; the report they
//! make (rendered by `report`).

use serde::Serialize;

use crate::ir::diag::Diagnostics;
use crate::translate::text::{col_of, LineStarts};

/// The outcome of one claim, or one uncovered statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The text states the rules' value.
    Confirmed,
    /// The text states another value.
    Contradicted,
    /// The passage was not found.
    NotFound,
    /// A finding the language file expects, with a reason.
    Expected,
    /// An expected finding that no longer occurs (the claim now confirms).
    Stale,
    /// A number that states no rule fact, still as the language file
    /// records it (`note:` with `values:`).
    Recorded,
    /// Numbers acknowledged as stating no rule fact, with no recorded value.
    Noted,
    /// Digits the OCR wrote for what is no number in the printed book (a
    /// word, an ordinal, a mark of a picture), still as the language file
    /// records them (`ocr:` with `values:`).
    OcrToken,
    /// A numeric statement near a glossary term that no claim covers.
    Uncovered,
    /// A word naming another game object than the claim's anchor names
    /// (`pedra` where the anchor has `madeira`): the word changed.
    WordMismatch,
    /// A rule sentence (`rule:` claim, no number) found in the text.
    Stated,
    /// A number a relation between the passage's numbers checks, and the
    /// relation holds.
    Derived,
}

/// One line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// What happened.
    pub status: Status,
    /// 1-based line in the rulebook (0 for a passage not found).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The passage (the anchor's words as the rulebook has them).
    pub passage: String,
    /// The anchor of the claim.
    pub anchor: Option<String>,
    /// The rule fact.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// Players the fact was evaluated for.
    pub players: Option<usize>,
    /// The number the rulebook states.
    pub text_value: Option<i64>,
    /// The sign written right before that number: a minus or plus sign,
    /// or an operator between numbers (`6+0-3`).
    pub sign: Option<char>,
    /// The ruleset's value.
    pub rule_value: Option<i64>,
    /// The base ruleset's value, when variants are applied and it differs.
    pub base_value: Option<i64>,
    /// Whether the variants make this passage false (it agrees with the base).
    pub changed_by_variant: bool,
    /// The reason of an expected finding or a note.
    pub reason: Option<String>,
    /// One sentence.
    pub message: String,
    /// Byte range of the number (or passage) in the rulebook.
    #[serde(skip)]
    pub span: Option<(usize, usize)>,
    /// The index of the claim in the language file (none for an
    /// uncovered statement or a stray number).
    pub claim: Option<usize>,
}

impl Finding {
    /// A finding with only its status and message, at no place of the
    /// rulebook (a passage not found); the other fields are added with
    /// struct update syntax.
    pub fn new(status: Status, message: impl Into<String>) -> Finding {
        Finding {
            status,
            line: 0,
            column: 0,
            passage: String::new(),
            anchor: None,
            reference: None,
            players: None,
            text_value: None,
            sign: None,
            rule_value: None,
            base_value: None,
            changed_by_variant: false,
            reason: None,
            message: message.into(),
            span: None,
            claim: None,
        }
    }

    /// The finding placed at bytes `span` of the rulebook `src` (whose
    /// lines start at `lines`), in the passage `passage`.
    pub fn at(
        self,
        src: &str,
        lines: &LineStarts,
        span: (usize, usize),
        passage: String,
    ) -> Finding {
        Finding {
            line: lines.line(span.0),
            column: col_of(src, span.0),
            passage,
            span: Some(span),
            ..self
        }
    }
}

/// Counts of the report.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    /// Facts confirmed.
    pub confirmed: usize,
    /// Numbers checked by relations that hold (`relations:`).
    pub derived: usize,
    /// Facts contradicted.
    pub contradicted: usize,
    /// Claims whose passage was not found.
    pub not_found: usize,
    /// Expected findings.
    pub expected: usize,
    /// Expected findings that no longer occur.
    pub stale: usize,
    /// Numbers checked against a value recorded in the language file.
    pub recorded: usize,
    /// Literal numbers of anchors (labels) found as written.
    pub labels: usize,
    /// Numbers noted as no rule fact, with no recorded value (unchecked).
    pub noted: usize,
    /// Digits the OCR made of a word or a mark (`ocr:` claims): not
    /// numeric statements.
    pub ocr_tokens: usize,
    /// Passages the variants make false.
    pub changed_by_variant: usize,
    /// Numeric statements found (near glossary terms, or claimed).
    pub statements: usize,
    /// Of those, checked by a rule fact or a relation over the passage's
    /// numbers (confirmed, contradicted, expected or stale): not recorded
    /// values, labels or notes.
    pub covered: usize,
    /// Of the statements, claimed by any claim (checked by the rules,
    /// recorded, a label or noted).
    pub claimed: usize,
    /// Numeric statements no claim covers.
    pub uncovered: usize,
    /// covered / statements, in percent: the share the rules check.
    pub coverage: f64,
    /// claimed / statements, in percent.
    pub claimed_pct: f64,
    /// Statements whose number is only recorded (a `note:` with values),
    /// in percent of the statements.
    pub recorded_pct: f64,
    /// Words naming a game object that are not the object the claim's
    /// anchor names (through the glossary).
    pub word_mismatches: usize,
    /// Rule sentences (`rule:` claims) found.
    pub sentences: usize,
    /// Words naming a game object that anchors check.
    pub words_checked: usize,
    /// Numbers (digits) in the rules sections: outside `skip` passages and
    /// cross-references.
    pub numbers: usize,
    /// Of those, checked: against the rules, a recorded value or as a label.
    pub numbers_checked: usize,
}

/// A number written in digits in the rules sections of the book.
#[derive(Debug, Clone, Serialize)]
pub struct Site {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The digits as written.
    pub text: String,
    /// Whether a claim checks it (a change would be reported).
    pub checked: bool,
    /// Byte range in the rulebook.
    #[serde(skip)]
    pub span: (usize, usize),
}

/// The result of checking one rulebook.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The rulebook's name.
    pub rulebook: String,
    /// Its language.
    pub lang: String,
    /// The variants applied.
    pub variants: Vec<String>,
    /// Claims' outcomes, in rulebook order, then the uncovered statements.
    pub findings: Vec<Finding>,
    /// The counts.
    pub summary: Summary,
    /// Every number written in digits in the rules sections.
    pub numbers: Vec<Site>,
    /// The words naming a game object (a resource, a technology, a
    /// temple...) that claims' anchors check.
    pub words: Vec<Site>,
    /// The least coverage the language file requires (`min_coverage:`):
    /// statements checked by the rules.
    pub min_coverage: Option<f64>,
    /// The least share of statements claimed (`min_claimed:`).
    pub min_claimed: Option<f64>,
    /// The miette diagnostics (contradictions, passages not found,
    /// variant changes, mistakes in the language file).
    #[serde(skip)]
    pub diagnostics: Diagnostics,
    /// Mistakes in the language file (references that do not resolve).
    #[serde(skip)]
    pub invalid: usize,
}

impl Report {
    /// Whether anything is contradicted, missing or invalid.
    pub fn failed(&self) -> bool {
        self.summary.contradicted > 0
            || self.summary.not_found > 0
            || self.summary.word_mismatches > 0
            || self.invalid > 0
            || self.below_coverage()
    }

    /// Whether coverage is below the language file's `min_coverage:`, or
    /// the claimed share below its `min_claimed:`.
    pub fn below_coverage(&self) -> bool {
        self.min_coverage
            .is_some_and(|m| self.summary.coverage + 1e-9 < m)
            || self
                .min_claimed
                .is_some_and(|m| self.summary.claimed_pct + 1e-9 < m)
    }
}

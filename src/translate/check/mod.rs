//! Checking a rulebook against a ruleset, in passes over the text:
//!
//! 1. `segment`: read the text into tokens (the language's OCR words read
//!    back) and mark the passages that are not rules (`skip:`);
//! 2. `locate`: find each claim's passage and take the numbers it reads
//!    (each number is read by one claim);
//! 3. `facts`: compare those numbers with the values of the claim's rule
//!    facts, or with the values the language file records, and classify
//!    each outcome (passes 2 and 3 run claim by claim, as each claim's
//!    passage depends on the numbers earlier claims took);
//! 4. `coverage`: find the numeric statements near glossary terms and
//!    count those the claims cover;
//! 5. `stray`: flag the numbers no claim reads that break what the text
//!    around them says (digits where the OCR writes a word, a list item
//!    out of sequence);
//! 6. `assemble`: list the numbers written in digits and build the report.
//!
//! The passes share a `Checker`: the inputs, the text (`Text`), the
//! tokens the claims took (`Taken`) and what was found so far
//! (`Tally`).

mod assemble;
mod coverage;
mod facts;
mod locate;
mod nouns;
mod relations;
mod segment;
mod stray;
mod words;

use std::collections::HashSet;

use crate::ir::diag::Diagnostics;
use crate::ir::span::Span;
use crate::translate::claims::{Claim, I18n};
use crate::translate::text::Token;

pub use crate::translate::eval::Evaluator;
pub use crate::translate::findings::{Finding, Report, Site, Status, Summary};

/// The rulebook to check.
pub struct Book<'a> {
    /// Display name (file:line:col uses it).
    pub name: &'a str,
    /// Its text.
    pub text: &'a str,
}

/// How far (in tokens) a number may be from a glossary word to count as a
/// numeric statement.
pub const NEAR: usize = 3;

/// Checks a rulebook. `rules` is the ruleset with the variants applied;
/// `base`, when variants are applied, the ruleset without them.
pub fn check(
    rules: &mut Evaluator,
    base: Option<&mut Evaluator>,
    i18n: &I18n,
    book: &Book,
    variants: &[String],
) -> Report {
    let mut c = Checker::new(rules, base, i18n, book, variants);
    c.skip_passages();
    for (index, claim) in i18n.file.claims.iter().enumerate() {
        let before = c.tally.findings.len();
        if let Some(passage) = c.locate(claim) {
            c.check_words(claim, &passage);
            c.check_nouns(claim, &passage);
            if claim.ocr.is_some() {
                c.read_as_words(claim, &passage);
            } else if claim.rule.is_some() && claim.facts().is_empty() && claim.note.is_none() {
                c.stated(claim, &passage);
            } else {
                c.check_numbers(claim, &passage);
                c.check_relations(claim, &passage);
            }
        }
        for f in &mut c.tally.findings[before..] {
            f.claim = Some(index);
        }
    }
    c.count_statements();
    c.flag_stray_numbers();
    c.assemble()
}

/// The rulebook read as tokens (pass 1).
struct Text<'a> {
    /// The rulebook's text.
    src: &'a str,
    /// Where its lines start.
    lines: crate::translate::text::LineStarts,
    /// Its tokens as written: digits the OCR made of a word are numbers.
    raw: Vec<Token>,
    /// Its tokens with the language's OCR words read back as words.
    tokens: Vec<Token>,
    /// Which tokens are numbers written in digits (as written).
    digits: Vec<bool>,
    /// Which tokens lie in a passage that is not rules (`skip:`).
    skipped: Vec<bool>,
    /// The words after which a number is a cross-reference, normalised.
    references: Vec<String>,
}

/// A claim's passage in the text (pass 2).
struct Passage {
    /// Byte range of the passage in the rulebook.
    span: (usize, usize),
    /// Its words as the rulebook has them (for the report).
    excerpt: String,
    /// The tokens the anchor's `#`s read.
    nums: Vec<usize>,
    /// The numbers read for the claim's facts, in order: the `#`s, then
    /// numbers right after the passage.
    read: Vec<usize>,
    /// The anchor's match (which token each of its words stands against).
    found: crate::translate::matcher::Match,
}

/// The tokens the claims took, for the later passes.
#[derive(Default)]
struct Taken {
    /// Numbers a claim read (and the first word of a passage without
    /// `#`): no later claim takes that passage.
    used: HashSet<usize>,
    /// Numeric statements a claim covers (its numbers and literals).
    covered: HashSet<usize>,
    /// Numbers a change of which would be reported.
    checked: HashSet<usize>,
    /// Numbers a rule fact or a relation checks (the coverage).
    ruled: HashSet<usize>,
    /// Words naming a game object that an anchor's word checks.
    words: std::collections::BTreeSet<usize>,
    /// Digits an `ocr:` claim reads as what the book prints (no number).
    not_numbers: HashSet<usize>,
}

/// What the passes found so far.
struct Tally {
    /// The report's lines, in the order found.
    findings: Vec<Finding>,
    /// The counts.
    summary: Summary,
    /// Diagnostics into the rulebook and the language file.
    diags: Diagnostics,
    /// Mistakes in the language file.
    invalid: usize,
}

/// The source files diagnostics point into.
struct Files {
    /// The language file, as the rules' evaluator registered it.
    i18n: u32,
    /// The language file, as the base rules' evaluator registered it.
    base_i18n: Option<u32>,
    /// The rulebook.
    book: u32,
}

/// A check in progress: its inputs and what the passes hand on.
struct Checker<'a> {
    rules: &'a mut Evaluator,
    base: Option<&'a mut Evaluator>,
    i18n: &'a I18n,
    book: &'a Book<'a>,
    variants: &'a [String],
    files: Files,
    text: Text<'a>,
    taken: Taken,
    tally: Tally,
    /// The words naming game objects.
    terms: words::Terms,
}

impl<'a> Checker<'a> {
    /// Registers the language file and the rulebook as sources for
    /// diagnostics, and reads the text (pass 1).
    fn new(
        rules: &'a mut Evaluator,
        mut base: Option<&'a mut Evaluator>,
        i18n: &'a I18n,
        book: &'a Book<'a>,
        variants: &'a [String],
    ) -> Checker<'a> {
        let i18n_file = rules.add_source(&i18n.name, &i18n.text);
        let base_i18n = base.as_mut().map(|b| b.add_source(&i18n.name, &i18n.text));
        let mut diags = Diagnostics {
            sources: rules.sources().clone(),
            items: Vec::new(),
        };
        let book_file = diags.sources.add(book.name.to_string(), book.text);
        Checker {
            text: Text::read(book.text, i18n),
            rules,
            base,
            i18n,
            book,
            variants,
            files: Files {
                i18n: i18n_file,
                base_i18n,
                book: book_file,
            },
            taken: Taken::default(),
            terms: words::Terms::new(i18n),
            tally: Tally {
                findings: Vec::new(),
                summary: Summary::default(),
                diags,
                invalid: 0,
            },
        }
    }

    /// The span of bytes `a..b` of the rulebook.
    fn book_span(&self, a: usize, b: usize) -> Span {
        Span::new(self.files.book, a, b)
    }

    /// The player count a claim's facts are evaluated for.
    fn players(&self, claim: &Claim) -> usize {
        claim
            .players
            .unwrap_or_else(|| self.i18n.file.players.unwrap_or(self.rules.max_players()))
    }
}

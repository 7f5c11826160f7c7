//! Pass 6: every number written in digits in the rules sections, the
//! coverage the language file requires, and the report.

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::translate::check::Checker;
use crate::translate::findings::{Report, Site, Status};
use crate::translate::text::col_of;

fn fmt_pct(p: f64) -> String {
    format!("{p}%")
}

impl Checker<'_> {
    /// Builds the report: the numbers written in digits, a diagnostic for
    /// each uncovered statement when coverage is below the language file's
    /// `min_coverage:`, the findings in rulebook order (uncovered
    /// statements last).
    pub(super) fn assemble(mut self) -> Report {
        let numbers = self.number_sites();
        let words = self.word_sites();
        let summary = &mut self.tally.summary;
        summary.numbers = numbers.len();
        summary.numbers_checked = numbers.iter().filter(|n| n.checked).count();
        summary.words_checked = words.len();
        let min_coverage = self.i18n.file.min_coverage;
        let min_claimed = self.i18n.file.min_claimed;
        if let Some(min) = min_claimed {
            if self.tally.summary.claimed_pct + 1e-9 < min {
                self.require_coverage(min);
            }
        }
        let mut tally = self.tally;
        tally
            .findings
            .sort_by_key(|f| (f.status == Status::Uncovered, f.line, f.column));
        Report {
            rulebook: self.book.name.to_string(),
            lang: self.i18n.file.lang.clone(),
            variants: self.variants.to_vec(),
            findings: tally.findings,
            summary: tally.summary,
            numbers,
            words,
            min_coverage,
            min_claimed,
            diagnostics: tally.diags,
            invalid: tally.invalid,
        }
    }

    /// Every number written in digits in the rules sections (not a
    /// cross-reference), and whether it is checked.
    fn number_sites(&self) -> Vec<Site> {
        let text = &self.text;
        let src = text.src;
        let mut numbers = Vec::new();
        for (i, t) in text.tokens.iter().enumerate() {
            if !text.digits[i] || text.skipped[i] || text.after_reference(i) {
                continue;
            }
            numbers.push(Site {
                line: text.lines.line(t.start),
                column: col_of(src, t.start),
                text: src[t.start..t.end].to_string(),
                checked: self.taken.checked.contains(&i),
                span: (t.start, t.end),
            });
        }
        numbers
    }

    /// The words naming a game object that claims' anchors check.
    fn word_sites(&self) -> Vec<Site> {
        let text = &self.text;
        self.taken
            .words
            .iter()
            .map(|&i| {
                let t = &text.tokens[i];
                Site {
                    line: text.lines.line(t.start),
                    column: col_of(text.src, t.start),
                    text: text.src[t.start..t.end].to_string(),
                    checked: true,
                    span: (t.start, t.end),
                }
            })
            .collect()
    }

    /// Coverage is below `min` percent: a diagnostic at each uncovered
    /// statement.
    fn require_coverage(&mut self, min: f64) {
        let tally = &mut self.tally;
        for f in tally
            .findings
            .iter()
            .filter(|f| f.status == Status::Uncovered)
        {
            let (a, b) = f.span.unwrap_or((0, 0));
            tally.diags.push(
                Diagnostic::new(
                    Code::TranslateUncovered,
                    crate::ir::span::Span::new(self.files.book, a, b),
                    format!("numeric statement no claim covers ({} claimed required)", fmt_pct(min)),
                )
                .label("unclaimed number")
                .help("the language file requires this coverage: add a claim for this number, or correct the text"),
            );
        }
    }
}

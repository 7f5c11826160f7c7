//! Pass 4: the numeric statements of the rules sections (numbers near a
//! glossary term, and every number a claim covers), those no claim
//! covers, and the coverage.

use std::collections::HashSet;

use crate::translate::check::{Checker, NEAR};
use crate::translate::claims::I18n;
use crate::translate::findings::Status;
use crate::translate::matcher::{self, Pat};
use crate::translate::text::Token;

/// The glossary's words, compiled: single words, prefixes (`word*`) and
/// phrases.
struct Glossary {
    exact: HashSet<String>,
    prefixes: Vec<String>,
    phrases: Vec<Vec<Pat>>,
}

impl Glossary {
    fn new(i18n: &I18n) -> Glossary {
        let mut g = Glossary {
            exact: HashSet::new(),
            prefixes: Vec::new(),
            phrases: Vec::new(),
        };
        for words in i18n.file.glossary.values() {
            for w in words {
                let pats = matcher::compile(w);
                match pats.as_slice() {
                    [Pat::Word {
                        text,
                        prefix: false,
                    }] => {
                        g.exact.insert(text.clone());
                    }
                    [Pat::Word { text, prefix: true }] => g.prefixes.push(text.clone()),
                    [] => {}
                    _ => g.phrases.push(pats),
                }
            }
        }
        g
    }

    /// Marks the tokens that are glossary words.
    fn mark(&self, tokens: &[Token]) -> Vec<bool> {
        let mut m: Vec<bool> = tokens
            .iter()
            .map(|t| {
                t.num.is_none()
                    && (self.exact.contains(&t.norm)
                        || self.prefixes.iter().any(|p| t.norm.starts_with(p.as_str())))
            })
            .collect();
        for p in &self.phrases {
            for hit in matcher::find_all(tokens, p, 0, tokens.len()) {
                for x in m.iter_mut().take(hit.last + 1).skip(hit.first) {
                    *x = true;
                }
            }
        }
        m
    }
}

impl Checker<'_> {
    /// Finds the numeric statements, reports those no claim covers, and
    /// counts the coverage.
    pub(super) fn count_statements(&mut self) {
        let statements = self.statements();
        let summary = &mut self.tally.summary;
        summary.statements = statements.len();
        for &i in &statements {
            if self.taken.ruled.contains(&i) {
                summary.covered += 1;
            }
            if self.taken.covered.contains(&i) {
                summary.claimed += 1;
                continue;
            }
            summary.uncovered += 1;
            let f = self.text.token_finding(
                i,
                Status::Uncovered,
                "numeric statement no claim covers".into(),
            );
            self.tally.findings.push(f);
        }
        let summary = &mut self.tally.summary;
        let pct = |n: usize, of: usize| {
            if of == 0 {
                100.0
            } else {
                100.0 * n as f64 / of as f64
            }
        };
        summary.coverage = pct(summary.covered, summary.statements);
        summary.claimed_pct = pct(summary.claimed, summary.statements);
        summary.recorded_pct = if summary.statements == 0 {
            0.0
        } else {
            pct(summary.recorded, summary.statements)
        };
    }

    /// The numeric statements: numbers a claim covers, and numbers within
    /// [`NEAR`] tokens of a glossary word outside the skipped passages
    /// (not a number word below 2, a list marker or a cross-reference).
    fn statements(&self) -> Vec<usize> {
        let (text, covered) = (&self.text, &self.taken.covered);
        let tokens = &text.tokens;
        let gloss = Glossary::new(self.i18n).mark(tokens);
        let mut statements: Vec<usize> = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            let Some(n) = t.num else { continue };
            if covered.contains(&i) {
                statements.push(i);
                continue;
            }
            if text.skipped[i] || (n.word && n.value < 2) {
                continue;
            }
            let lo = i.saturating_sub(NEAR);
            let hi = (i + NEAR).min(tokens.len() - 1);
            if (lo..=hi).any(|j| gloss[j]) {
                statements.push(i);
            }
        }
        let not_numbers = &self.taken.not_numbers;
        statements.retain(|&i| {
            !not_numbers.contains(&i)
                && (covered.contains(&i) || !(text.is_list_marker(i) || text.after_reference(i)))
        });
        statements
    }
}

//! Pass 1: the rulebook read into tokens, and the passages that are not
//! rules (`skip:`) marked; what later passes ask of the text.

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::translate::check::{Checker, Text, NEAR};
use crate::translate::claims::I18n;
use crate::translate::findings::{Finding, Status};
use crate::translate::matcher;
use crate::translate::text::{excerpt, normalise, read_ocr_words, strip_marks, tokenize};

impl<'a> Text<'a> {
    /// Reads the rulebook `src` in the language of `i18n`: its tokens as
    /// written, and with the OCR words read back.
    pub(super) fn read(src: &'a str, i18n: &I18n) -> Text<'a> {
        let mut tokens = tokenize(src, &i18n.numbers);
        let digits = tokens
            .iter()
            .map(|t| t.num.is_some_and(|n| !n.word))
            .collect();
        let raw = tokens.clone();
        read_ocr_words(src, &mut tokens, &i18n.file.ocr_words);
        Text {
            src,
            lines: crate::translate::text::LineStarts::new(src),
            skipped: vec![false; tokens.len()],
            raw,
            tokens,
            digits,
            references: i18n
                .file
                .references
                .iter()
                .flat_map(|w| normalise(w))
                .collect(),
        }
    }

    /// Whether token `i` is `1.` or `2)` opening a line: an item number of
    /// a list.
    pub(super) fn is_list_marker(&self, i: usize) -> bool {
        let (src, t) = (self.src, &self.tokens[i]);
        let line_start = src[..t.start].rfind('\n').map_or(0, |p| p + 1);
        strip_marks(&src[line_start..t.start]).trim().is_empty()
            && matches!(src[t.end..].chars().next(), Some('.') | Some(')'))
    }

    /// Whether token `i` is a number right after a cross-reference word
    /// (`página 10`).
    pub(super) fn after_reference(&self, i: usize) -> bool {
        i > 0
            && self
                .references
                .iter()
                .any(|r| self.tokens[i - 1].norm == *r)
    }

    /// A finding for the number token `i`, with the words around it as the
    /// passage (no claim reads it).
    pub(super) fn token_finding(&self, i: usize, status: Status, message: String) -> Finding {
        let t = &self.tokens[i];
        let lo = i.saturating_sub(NEAR);
        let hi = (i + NEAR).min(self.tokens.len() - 1);
        let passage = excerpt(self.src, self.tokens[lo].start, self.tokens[hi].end);
        Finding {
            text_value: t.num.map(|n| n.value),
            ..Finding::new(status, message).at(self.src, &self.lines, (t.start, t.end), passage)
        }
    }
}

impl Checker<'_> {
    /// Marks the passages that are not rules, from their `from` anchor to
    /// their `to` anchor; an anchor not found is a mistake of the
    /// language file.
    pub(super) fn skip_passages(&mut self) {
        let tokens = &self.text.tokens;
        for s in &self.i18n.file.skip {
            let from = matcher::find_all(tokens, &matcher::compile(&s.from), 0, tokens.len());
            let Some(f) = from.first() else {
                self.tally.invalid += 1;
                self.tally.diags.push(
                    Diagnostic::new(
                        Code::TranslateNotFound,
                        self.i18n.span(self.files.i18n, &s.from),
                        "skipped passage not found",
                    )
                    .help("anchor the start of the passage with a few of its words"),
                );
                continue;
            };
            let to = matcher::find_all(tokens, &matcher::compile(&s.to), f.first, tokens.len());
            let Some(t) = to.iter().min_by_key(|m| m.first) else {
                self.tally.invalid += 1;
                self.tally.diags.push(
                    Diagnostic::new(
                        Code::TranslateNotFound,
                        self.i18n.span(self.files.i18n, &s.to),
                        "end of skipped passage not found",
                    )
                    .help("anchor the end of the passage with a few of its words"),
                );
                continue;
            };
            for x in self.text.skipped.iter_mut().take(t.last + 1).skip(f.first) {
                *x = true;
            }
        }
    }
}

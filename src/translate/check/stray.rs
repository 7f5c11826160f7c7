//! Pass 5: numbers no claim reads that break what the text around them
//! says: a digit where the grammar wants a word the OCR writes with other
//! digits, a list item out of sequence. Words the OCR wrote with digits,
//! and list items, count as checked by their context.

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::translate::check::Checker;
use crate::translate::findings::Status;
use crate::translate::text::stray_numbers;

/// A number that breaks the text around it.
struct Oddity {
    /// Its token.
    token: usize,
    /// What is wrong.
    message: String,
    /// What to do.
    help: String,
}

impl Checker<'_> {
    /// Reports the numbers no claim reads that break the text around them
    /// as contradicted.
    pub(super) fn flag_stray_numbers(&mut self) {
        let mut odd = self.digits_for_words();
        let markers = self.list_markers();
        let text = &self.text;
        self.taken.checked.extend(
            (0..text.tokens.len()).filter(|&i| text.digits[i] && text.tokens[i].num.is_none()),
        );
        self.taken.checked.extend(markers.iter().copied());
        odd.extend(self.out_of_sequence(&markers));
        for Oddity {
            token,
            message,
            help,
        } in odd
        {
            let t = &self.text.tokens[token];
            self.taken.checked.insert(token);
            self.tally.summary.contradicted += 1;
            self.tally.diags.push(
                Diagnostic::new(
                    Code::TranslateContradiction,
                    self.book_span(t.start, t.end),
                    message.clone(),
                )
                .label("this number")
                .help(help),
            );
            let f = self
                .text
                .token_finding(token, Status::Contradicted, message);
            self.tally.findings.push(f);
        }
    }

    /// Numbers no claim reads standing where the language's OCR words
    /// read a word, written with other digits than the OCR's.
    fn digits_for_words(&self) -> Vec<Oddity> {
        let text = &self.text;
        let complete = self.i18n.file.min_claimed.is_some_and(|m| m >= 100.0);
        stray_numbers(text.src, &text.tokens, &self.i18n.file.ocr_words, complete)
            .into_iter()
            .filter(|&(i, _)| !self.taken.covered.contains(&i) && !text.skipped[i])
            .map(|(i, word)| {
                let n = text.tokens[i].num.expect("a number").value;
                Oddity {
                    token: i,
                    message: format!("rulebook has {n} where the text reads the word `{word}`"),
                    help: format!(
                        "the OCR writes `{word}` with other digits here; a changed number?"
                    ),
                }
            })
            .collect()
    }

    /// The item numbers of lists (`1.` opening a line) written in digits
    /// in the rules sections.
    fn list_markers(&self) -> Vec<usize> {
        let text = &self.text;
        (0..text.tokens.len())
            .filter(|&i| {
                text.digits[i]
                    && !text.skipped[i]
                    && text.tokens[i].num.is_some()
                    && text.is_list_marker(i)
                    && !text.after_reference(i)
            })
            .collect()
    }

    /// The list items no claim reads whose number does not follow the
    /// previous item's or lead to the next one's.
    fn out_of_sequence(&self, markers: &[usize]) -> Vec<Oddity> {
        let value = |i: usize| self.text.tokens[i].num.expect("a number").value;
        let mut odd = Vec::new();
        for (k, &i) in markers.iter().enumerate() {
            if self.taken.covered.contains(&i) {
                continue;
            }
            let v = value(i);
            let prev = k.checked_sub(1).map(|p| value(markers[p]));
            let next = markers.get(k + 1).map(|&j| value(j));
            let back_ok = v == 1 || prev == Some(v - 1);
            let fwd_ok = next.is_none_or(|n| n == 1 || n == v + 1);
            if !(back_ok && fwd_ok) {
                odd.push(Oddity {
                    token: i,
                    message: format!("list item {v} out of sequence"),
                    help: "items of a list count 1, 2, 3...; if the text is right, claim this number with `note:` and `values:`".to_string(),
                });
            }
        }
        odd
    }
}

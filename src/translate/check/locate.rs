//! Pass 2: each claim's passage. Claims listed in rulebook order take
//! successive passages with the same words; each number is read by one
//! claim. A passage that is there with a changed number is reported at
//! the number rather than as not found.

use std::collections::HashSet;

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::translate::check::{Checker, Passage, Text};
use crate::translate::claims::Claim;
use crate::translate::findings::{Finding, Status};
use crate::translate::matcher::{self, Match, Pat};
use crate::translate::text::excerpt;

/// How far after a passage (in tokens) its facts' numbers may be read
/// when the anchor has fewer `#`s than the claim has facts.
const READ_AHEAD: usize = 12;

impl Checker<'_> {
    /// Finds the passage of `claim` and takes its numbers; reports a
    /// passage not found, or found with another number than the anchor's.
    pub(super) fn locate(&mut self, claim: &Claim) -> Option<Passage> {
        let pats = matcher::compile(&claim.at);
        let from = self.search_start(claim);
        let tokens = &self.text.tokens;
        let found = pick(
            &matcher::find_all(tokens, &pats, from, tokens.len()),
            &self.taken.used,
        );
        let Some(m) = found else {
            self.passage_missing(claim, &pats, from);
            return None;
        };
        if let Some(ti) = earlier_read_back(&self.text, &pats, from, &self.taken.used, &m) {
            // The same words earlier in the text, with digits the OCR rules
            // read as a word where the claim reads a number: the claim took
            // a later passage, this one has changed.
            self.number_read_as_word(claim, ti);
        }
        Some(self.take(m, claim.facts().len()))
    }

    /// Where the search for a claim's passage starts: after its `after:`
    /// anchor (the end of the text when that is not found).
    fn search_start(&self, claim: &Claim) -> usize {
        let tokens = &self.text.tokens;
        match &claim.after {
            Some(a) => matcher::find_all(tokens, &matcher::compile(a), 0, tokens.len())
                .iter()
                .map(|m| m.last + 1)
                .min()
                .unwrap_or(tokens.len()),
            None => 0,
        }
    }

    /// Takes the passage `m` for a claim with `facts` facts: its numbers
    /// are used, covered and (its literals) checked; reads the numbers of
    /// the facts (the `#`s, then numbers right after the passage).
    fn take(&mut self, m: Match, facts: usize) -> Passage {
        let tokens = &self.text.tokens;
        let span = (tokens[m.first].start, tokens[m.last].end);
        let taken = &mut self.taken;
        // A passage without `#` is taken at its first word.
        taken
            .used
            .insert(m.nums.first().copied().unwrap_or(m.first));
        taken.used.extend(m.nums.iter().copied());
        taken.covered.extend(m.nums.iter().copied());
        taken.covered.extend(m.lits.iter().copied());
        taken.checked.extend(m.lits.iter().copied());
        self.tally.summary.labels += m.lits.len();
        let mut read: Vec<usize> = m.nums.clone();
        let mut k = m.last + 1;
        while read.len() < facts && k < tokens.len() && k <= m.last + READ_AHEAD {
            if tokens[k].num.is_some() {
                read.push(k);
                taken.covered.insert(k);
            }
            k += 1;
        }
        Passage {
            span,
            excerpt: excerpt(self.text.src, span.0, span.1),
            nums: m.nums.clone(),
            read,
            found: m,
        }
    }

    /// No passage matches the claim's anchor: report the number that
    /// changed if the passage is there with another, else the passage as
    /// not found (or as expected not to be).
    fn passage_missing(&mut self, claim: &Claim, pats: &[Pat], from: usize) {
        match label_changed(&self.text, pats, from, &self.taken.used) {
            Some((ti, Some(lit))) => return self.label_differs(claim, ti, lit),
            Some((ti, None)) => return self.number_read_as_word(claim, ti),
            None => {}
        }
        let expect_missing = claim.expect.as_ref().map(|e| e.as_str()) == Some("not_found");
        if !expect_missing && self.word_changed(claim, pats, from) {
            return;
        }
        let (status, message) = if expect_missing {
            self.tally.summary.expected += 1;
            (Status::Expected, "passage not found (expected)")
        } else {
            self.tally.summary.not_found += 1;
            self.tally.diags.push(
                Diagnostic::new(
                    Code::TranslateNotFound,
                    self.i18n.span(self.files.i18n, &claim.at),
                    format!("passage not found in {}", self.book.name),
                )
                .label("this anchor")
                .help("anchors match word by word, whatever the accents; check the words against the rulebook, or add `after:` to search later"),
            );
            (Status::NotFound, "passage not found")
        };
        self.tally.findings.push(Finding {
            anchor: Some(claim.at.as_str().to_string()),
            reference: claim.headline(),
            players: Some(self.players(claim)),
            reason: claim.reason.clone(),
            ..Finding::new(status, message)
        });
    }

    /// The claim's passage is there with another number where its anchor
    /// has the literal `lit` (a label): reported at that number.
    fn label_differs(&mut self, claim: &Claim, ti: usize, lit: i64) {
        let n = self.text.raw[ti].num.expect("a number token").value;
        self.stray_number(
            claim,
            ti,
            format!("rulebook says {n} where the claim reads {lit}"),
            format!("the claim's anchor has {lit} here"),
            "correct the rulebook, or the literal number in the claim's anchor",
        );
    }

    /// The claim's passage has digits that the OCR rules read as a word
    /// where the claim reads a number: reported at those digits.
    fn number_read_as_word(&mut self, claim: &Claim, ti: usize) {
        let n = self.text.raw[ti].num.expect("a number token").value;
        let word = &self.text.tokens[ti].norm;
        self.stray_number(
            claim,
            ti,
            format!("rulebook has {n} where the claim reads a number, and the text reads the word `{word}`"),
            format!("read as `{word}`"),
            "correct the rulebook; the `ocr_words:` of the language file read these digits as a word here",
        );
    }

    /// Reports the number token `ti` (as written) of a claim's passage as
    /// contradicted, though no fact of the claim reads it.
    fn stray_number(
        &mut self,
        claim: &Claim,
        ti: usize,
        message: String,
        label: String,
        help: &str,
    ) {
        let t = &self.text.raw[ti];
        let span = (t.start, t.end);
        self.tally.summary.contradicted += 1;
        self.tally.diags.push(
            Diagnostic::new(
                Code::TranslateContradiction,
                self.book_span(t.start, t.end),
                message.clone(),
            )
            .label(label)
            .help(help),
        );
        let passage = excerpt(self.text.src, t.start, t.end);
        let n = t.num.expect("a number token").value;
        self.tally.findings.push(Finding {
            anchor: Some(claim.at.as_str().to_string()),
            text_value: Some(n),
            ..Finding::new(Status::Contradicted, message).at(
                self.text.src,
                &self.text.lines,
                span,
                passage,
            )
        });
    }
}

/// When an anchor is not found: the passage with every literal read as
/// `#` and the digits the OCR rules read back as words kept as numbers
/// (not taken by an earlier claim), and the first token where the text has
/// another number than a literal (`Some(literal)`), or digits read as a
/// word where the claim reads a number (`None`).
fn label_changed(
    text: &Text,
    pats: &[Pat],
    from: usize,
    used: &HashSet<usize>,
) -> Option<(usize, Option<i64>)> {
    let (raw, tokens) = (&text.raw, &text.tokens);
    let loose: Vec<Pat> = pats
        .iter()
        .map(|p| match p {
            Pat::Lit(_) => Pat::Num,
            p => p.clone(),
        })
        .collect();
    let found = matcher::find_all(raw, &loose, from, raw.len());
    let m = pick(&found, used)?;
    for (k, p) in pats
        .iter()
        .filter(|p| !matches!(p, Pat::Word { .. }))
        .enumerate()
    {
        let ti = *m.nums.get(k)?;
        if tokens[ti].num.is_none() {
            return Some((ti, None));
        }
        if let Pat::Lit(v) = p {
            if raw[ti].num.is_some_and(|n| n.value.abs() != *v) {
                return Some((ti, Some(*v)));
            }
        }
    }
    None
}

/// A passage before `m` with the claim's words, not taken by an earlier
/// claim, that scores as well as `m` once the digits the OCR rules read as
/// words are numbers again, with such digits where the claim reads a
/// number: returns that token.
fn earlier_read_back(
    text: &Text,
    pats: &[Pat],
    from: usize,
    used: &HashSet<usize>,
    m: &Match,
) -> Option<usize> {
    if !pats.iter().any(|p| matches!(p, Pat::Num)) || from >= m.first {
        return None;
    }
    let found = matcher::find_all(&text.raw, pats, from, m.first);
    found
        .iter()
        .filter(|r| r.score >= m.score - 0.03 && r.last < m.first)
        .filter(|r| !r.nums.first().is_some_and(|k| used.contains(k)))
        .find_map(|r| {
            r.nums
                .iter()
                .copied()
                .find(|&i| text.tokens[i].num.is_none())
        })
}

/// Chooses among an anchor's matches: the best one not yet used by an
/// earlier claim (among near-equal scores, the first in the text), so that
/// claims listed in rulebook order with the same words take successive
/// passages. A passage whose number an earlier claim read is never taken
/// again: each number is read by one claim.
pub(super) fn pick(found: &[Match], used: &HashSet<usize>) -> Option<Match> {
    let best = found.first()?.score;
    let mut near: Vec<&Match> = found.iter().filter(|m| m.score >= best - 0.03).collect();
    near.sort_by_key(|m| m.first);
    let free = |m: &&Match| {
        let key = m.nums.first().copied().unwrap_or(m.first);
        !used.contains(&key)
    };
    near.iter()
        .find(|m| free(m))
        .map(|m| (*m).clone())
        .or_else(|| found.iter().find(|m| free(m)).cloned())
}

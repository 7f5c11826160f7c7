//! Words, not only numbers: a word of a claim's anchor that names a game
//! object (a resource, a technology, a temple: a glossary term, or one of
//! the language file's `names:`) must stand against a word of the same
//! object in the text, so that `"advance 1 level in <technology>"` fails
//! when the text names another technology. Also the rule sentences
//! (`rule:` claims) found.

use std::collections::HashMap;

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::translate::check::locate::pick;
use crate::translate::check::{Checker, Passage};
use crate::translate::claims::{Claim, I18n};
use crate::translate::findings::{Finding, Status};
use crate::translate::matcher::{self, Match, Pat};
use crate::translate::text::{excerpt, normalise, Token};

/// The words that name game objects: for each, the objects (indices into
/// `names`) it may name.
pub(super) struct Terms {
    /// Canonical names of the objects (glossary terms, then `names:`).
    names: Vec<String>,
    /// Whole words -> objects.
    exact: HashMap<String, Vec<usize>>,
    /// Prefixes (`milho*`) -> object.
    prefixes: Vec<(String, usize)>,
}

/// A token that stands for "some object word" in the search for a passage
/// whose object word changed.
const ANY_OBJECT: &str = "\u{1}object";

impl Terms {
    /// The single words of the glossary and of `names:` (phrases are
    /// left out: a word is checked against a word).
    pub(super) fn new(i18n: &I18n) -> Terms {
        let mut t = Terms {
            names: Vec::new(),
            exact: HashMap::new(),
            prefixes: Vec::new(),
        };
        for (name, words) in i18n.file.glossary.iter().chain(i18n.file.names.iter()) {
            let id = t.names.len();
            t.names.push(name.clone());
            for w in words {
                let (body, prefix) = match w.strip_suffix('*') {
                    Some(b) => (b, true),
                    None => (w.as_str(), false),
                };
                let parts = normalise(body);
                let [one] = parts.as_slice() else { continue };
                if prefix {
                    t.prefixes.push((one.clone(), id));
                } else {
                    t.exact.entry(one.clone()).or_default().push(id);
                }
            }
        }
        t
    }

    /// The object a canonical name (a glossary term or a `names:` key)
    /// stands for.
    pub(super) fn id_of_name(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The objects a word of the text may name (none for a number).
    pub(super) fn of_token(&self, tok: &Token) -> Vec<usize> {
        if tok.num.is_some() {
            return Vec::new();
        }
        self.of_word(&tok.norm, false)
    }

    /// The objects a word may name; `prefix` for an anchor's `word*`,
    /// which names what the words it starts name.
    fn of_word(&self, w: &str, prefix: bool) -> Vec<usize> {
        let mut ids: Vec<usize> = self.exact.get(w).cloned().unwrap_or_default();
        for (p, id) in &self.prefixes {
            if w.starts_with(p.as_str()) || (prefix && p.starts_with(w)) {
                ids.push(*id);
            }
        }
        if prefix {
            for (e, list) in &self.exact {
                if e.starts_with(w) {
                    ids.extend(list);
                }
            }
        }
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The objects an anchor's element names (none for a number).
    fn of_pat(&self, p: &Pat) -> Vec<usize> {
        match p {
            Pat::Word { text, prefix } => self.of_word(text, *prefix),
            _ => Vec::new(),
        }
    }

    /// How a set of objects reads in a message.
    pub(super) fn show(&self, ids: &[usize]) -> String {
        ids.iter()
            .map(|&i| self.names[i].as_str())
            .collect::<Vec<_>>()
            .join(" or ")
    }
}

/// A word of the text that names another object than the anchor's word
/// standing against it: (index of the anchor's word, token).
fn mismatch(terms: &Terms, pats: &[Pat], tokens: &[Token], m: &Match) -> Option<(usize, usize)> {
    m.words.iter().copied().find(|&(k, ti)| {
        let want = terms.of_pat(&pats[k]);
        let got = terms.of_token(&tokens[ti]);
        !want.is_empty() && !got.is_empty() && !got.iter().any(|g| want.contains(g))
    })
}

impl Checker<'_> {
    /// Checks the object words of `claim`'s passage against its anchor's.
    pub(super) fn check_words(&mut self, claim: &Claim, passage: &Passage) {
        let pats = matcher::compile(&claim.at);
        let m = &passage.found;
        for &(k, ti) in &m.words {
            let want = self.terms.of_pat(&pats[k]);
            let got = self.terms.of_token(&self.text.tokens[ti]);
            if !want.is_empty() && got.iter().any(|g| want.contains(g)) {
                self.taken.words.insert(ti);
            }
        }
        if let Some((k, ti)) = mismatch(&self.terms, &pats, &self.text.tokens, m) {
            self.wrong_word(claim, &pats[k], ti);
        } else if claim.expect.as_ref().map(|e| e.as_str()) == Some("wrong_word") {
            self.tally.summary.stale += 1;
            self.tally.findings.push(Finding {
                anchor: Some(claim.at.as_str().to_string()),
                reason: claim.reason.clone(),
                ..Finding::new(
                    Status::Stale,
                    "expected a word naming another object, but the rulebook now names the anchor's",
                )
                .at(self.text.src, &self.text.lines, passage.span, passage.excerpt.clone())
            });
        }
    }

    /// The claim's passage is not found as its anchor reads: when it is
    /// there with another object word in place of one of the anchor's
    /// (`# pedras` where the anchor has `# madeiras`), reports that word and
    /// returns true.
    pub(super) fn word_changed(&mut self, claim: &Claim, pats: &[Pat], from: usize) -> bool {
        let terms = &self.terms;
        let tokens = &self.text.tokens;
        let loose_tokens: Vec<Token> = tokens
            .iter()
            .map(|t| {
                if terms.of_token(t).is_empty() {
                    t.clone()
                } else {
                    Token {
                        norm: ANY_OBJECT.into(),
                        ..t.clone()
                    }
                }
            })
            .collect();
        let loose: Vec<Pat> = pats
            .iter()
            .map(|p| {
                if terms.of_pat(p).is_empty() {
                    p.clone()
                } else {
                    Pat::Word {
                        text: ANY_OBJECT.into(),
                        prefix: false,
                    }
                }
            })
            .collect();
        let found = matcher::find_all(&loose_tokens, &loose, from, tokens.len());
        let Some(m) = pick(&found, &self.taken.used) else {
            return false;
        };
        let Some((k, ti)) = mismatch(terms, pats, tokens, &m) else {
            return false;
        };
        self.wrong_word(claim, &pats[k], ti);
        true
    }

    /// Reports the word token `ti`, which names another object than the
    /// anchor's word `want`; an expected finding with `expect: wrong_word`.
    fn wrong_word(&mut self, claim: &Claim, want: &Pat, ti: usize) {
        let want_ids = self.terms.of_pat(want);
        let anchor_word = match want {
            Pat::Word { text, .. } => text.clone(),
            _ => String::new(),
        };
        let t = &self.text.tokens[ti];
        let got_s = self.terms.show(&self.terms.of_token(t));
        let word = &self.text.src[t.start..t.end];
        let message = format!(
            "rulebook names {got_s} (`{word}`) where the claim's anchor names {} (`{anchor_word}`)",
            self.terms.show(&want_ids)
        );
        self.word_finding(claim, &want_ids, ti, message);
    }

    /// Reports the word token `ti`, which names another object than
    /// `want_ids`, with `message`; an expected finding with
    /// `expect: wrong_word`.
    pub(super) fn word_finding(
        &mut self,
        claim: &Claim,
        want_ids: &[usize],
        ti: usize,
        message: String,
    ) {
        let t = &self.text.tokens[ti];
        let span = (t.start, t.end);
        let want_s = self.terms.show(want_ids);
        let expected = claim.expect.as_ref().map(|e| e.as_str()) == Some("wrong_word");
        let status = if expected {
            self.tally.summary.expected += 1;
            Status::Expected
        } else {
            self.tally.summary.word_mismatches += 1;
            self.tally.diags.push(
                Diagnostic::new(
                    Code::TranslateWrongWord,
                    self.book_span(span.0, span.1),
                    message.clone(),
                )
                .label(format!("the claim reads {want_s} here"))
                .help("correct the rulebook, or the claim's anchor; if the difference is known, add `expect: wrong_word` and a `reason:` to the claim"),
            );
            Status::WordMismatch
        };
        let lo = ti.saturating_sub(3);
        let hi = (ti + 3).min(self.text.tokens.len() - 1);
        let passage = excerpt(
            self.text.src,
            self.text.tokens[lo].start,
            self.text.tokens[hi].end,
        );
        self.tally.findings.push(Finding {
            anchor: Some(claim.at.as_str().to_string()),
            reference: claim.headline(),
            reason: claim.reason.clone(),
            ..Finding::new(status, message).at(self.text.src, &self.text.lines, span, passage)
        });
    }

    /// A rule sentence found: reported as stated, for `--compare`.
    pub(super) fn stated(&mut self, claim: &Claim, passage: &Passage) {
        self.tally.summary.sentences += 1;
        let f = Finding {
            anchor: Some(claim.at.as_str().to_string()),
            reference: claim.rule_name(),
            reason: claim.reason.clone(),
            ..Finding::new(Status::Stated, "rule sentence found").at(
                self.text.src,
                &self.text.lines,
                passage.span,
                passage.excerpt.clone(),
            )
        };
        self.tally.findings.push(f);
    }
}

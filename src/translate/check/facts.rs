//! Pass 3: the numbers of a claim's passage against the values of its
//! rule facts (in the rules checked and, with variants, in the base
//! rules), or against the values the language file records; each
//! outcome classified (confirmed, contradicted, expected, stale...).

use marked_yaml::Spanned;

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::translate::check::{Checker, Passage};
use crate::translate::claims::Claim;
use crate::translate::findings::{Finding, Status};
use crate::translate::text::Num;

/// A rule fact's values.
struct FactValue {
    /// The fact as the report names it (`scenario: ref` for a worked
    /// example).
    name: String,
    /// Its value in the rules checked.
    value: i64,
    /// Its value in the base rules, when variants are applied.
    base: Option<i64>,
}

/// How the number a passage states compares with a fact's value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// The rules' value, where the claim expects a finding.
    Stale,
    /// The rules' value (`sign_lost`: but for a minus sign the text lost).
    Confirmed { sign_lost: bool },
    /// Another value, as the claim expects.
    Expected,
    /// Another value (`changed`: the base rules' value, which the
    /// variants change).
    Contradicted { changed: bool },
}

impl Verdict {
    /// The finding's status.
    fn status(self) -> Status {
        match self {
            Verdict::Stale => Status::Stale,
            Verdict::Confirmed { .. } => Status::Confirmed,
            Verdict::Expected => Status::Expected,
            Verdict::Contradicted { .. } => Status::Contradicted,
        }
    }

    /// The finding's message, for the number `stated` the text states
    /// and the rules' `value`.
    fn message(self, stated: i64, value: i64) -> String {
        match self {
            Verdict::Stale => {
                format!("expected a finding, but the rulebook now states {stated}, as the rules do")
            }
            Verdict::Confirmed { sign_lost: true } => {
                "confirmed (the minus sign is lost in the text)".into()
            }
            Verdict::Confirmed { sign_lost: false } => "confirmed".into(),
            Verdict::Expected => format!("rulebook says {stated}, rules say {value} (expected)"),
            Verdict::Contradicted { changed: true } => "made false by the variant".into(),
            Verdict::Contradicted { changed: false } => "contradicted".into(),
        }
    }
}

/// Classifies the number `n` the text states for `fact`. `expect` and
/// `stated` are the claim's; `varied` whether variants are applied.
fn classify(
    n: Num,
    fact: &FactValue,
    expect: Option<&str>,
    stated: Option<i64>,
    varied: bool,
) -> Verdict {
    let value = fact.value;
    // A minus sign the OCR lost; not where the text writes a `+` between
    // numbers (`6+0+3`: the text states the opposite sign).
    let sign_lost = !n.signed && n.infix != Some('+') && value != 0 && n.value == -value;
    let agrees = n.value == value || sign_lost;
    let base_agrees = fact
        .base
        .is_some_and(|b| n.value == b || (!n.signed && n.value == -b));
    let changed = varied && !agrees && base_agrees && fact.base != Some(value);
    match (agrees, expect) {
        (true, Some(_)) => Verdict::Stale,
        (true, None) => Verdict::Confirmed { sign_lost },
        (false, Some("contradicted")) if !changed && stated.is_none_or(|st| st == n.value) => {
            Verdict::Expected
        }
        (false, _) => Verdict::Contradicted { changed },
    }
}

/// The sign written before a number: its own, or the operator between it
/// and the number before (`6+0-3`).
fn written_sign(n: Num) -> Option<char> {
    if n.signed {
        Some(if n.value < 0 { '-' } else { '+' })
    } else {
        n.infix
    }
}

impl Checker<'_> {
    /// Checks the numbers of `claim`'s passage: against its facts, or the
    /// values its `note:` records.
    pub(super) fn check_numbers(&mut self, claim: &Claim, passage: &Passage) {
        let facts = claim.facts();
        if claim.note.is_some() && facts.is_empty() {
            let recorded = claim.recorded();
            if recorded.is_empty() {
                self.noted(claim, passage);
            } else {
                self.compare_recorded(claim, passage, &recorded);
            }
            return;
        }
        let players = self.players(claim);
        for (fi, fact) in facts.iter().enumerate() {
            if fact.as_str() == "#" {
                // No fact of its own: a relation checks it.
                continue;
            }
            let Some(value) = self.fact_value(claim, fact, players) else {
                continue;
            };
            match passage.read.get(fi) {
                Some(&ti) => self.compare_fact(claim, passage, &value, players, ti),
                None => self.no_number_read(claim, passage, &value, players),
            }
        }
    }

    /// The values of one fact of `claim`, or `None` when its reference is
    /// invalid (a mistake of the language file, reported).
    fn fact_value(
        &mut self,
        claim: &Claim,
        fact: &Spanned<String>,
        players: usize,
    ) -> Option<FactValue> {
        let i18n = self.i18n;
        let at = i18n.content_start(fact);
        let expr = match &claim.scenario {
            None => fact.as_str().to_string(),
            Some(sc) => match self.rules.in_scenario(sc.as_str(), fact.as_str()) {
                Ok(e) => e,
                Err(e) => {
                    self.tally.invalid += 1;
                    self.tally.diags.push(
                        Diagnostic::new(Code::TranslateBadReference, i18n.span(self.files.i18n, fact), e.to_string())
                            .help("`setup(x)` reads `x = N;` in the scenario's setup, `expected(x)` reads `x: N` in its `expect:` steps"),
                    );
                    return None;
                }
            },
        };
        let substituted = expr != fact.as_str();
        let value = match self.rules.value(&expr, players, self.files.i18n, at) {
            Ok(v) => v,
            Err(ds) => {
                self.tally.invalid += 1;
                if substituted {
                    // The diagnostic's span is in the substituted text:
                    // point at the reference instead.
                    let msg = ds
                        .first()
                        .map_or("invalid reference".to_string(), |d| d.message.clone());
                    self.tally.diags.push(Diagnostic::new(
                        ds.first().map_or(Code::TranslateBadReference, |d| d.code),
                        i18n.span(self.files.i18n, fact),
                        msg,
                    ));
                } else {
                    for d in ds {
                        self.tally.diags.push(d);
                    }
                }
                return None;
            }
        };
        let base = match (&mut self.base, self.files.base_i18n) {
            (Some(b), Some(bf)) => b.value(&expr, players, bf, at).ok(),
            _ => None,
        };
        let name = claim.fact_name(fact.as_str());
        Some(FactValue { name, value, base })
    }

    /// A finding of `claim` about `fact`, placed at `span`.
    #[allow(clippy::too_many_arguments)]
    fn fact_finding(
        &self,
        status: Status,
        claim: &Claim,
        passage: &Passage,
        fact: &FactValue,
        players: usize,
        span: (usize, usize),
        text_value: Option<i64>,
        message: String,
    ) -> Finding {
        Finding {
            anchor: Some(claim.at.as_str().to_string()),
            reference: Some(fact.name.clone()),
            players: Some(players),
            text_value,
            rule_value: Some(fact.value),
            base_value: fact.base.filter(|b| *b != fact.value),
            reason: claim.reason.clone(),
            ..Finding::new(status, message).at(
                self.text.src,
                &self.text.lines,
                span,
                passage.excerpt.clone(),
            )
        }
    }

    /// The passage has no number for the fact (fewer numbers than facts).
    fn no_number_read(
        &mut self,
        claim: &Claim,
        passage: &Passage,
        fact: &FactValue,
        players: usize,
    ) {
        let (a, b) = passage.span;
        self.tally.summary.not_found += 1;
        self.tally.diags.push(
            Diagnostic::new(
                Code::TranslateNotFound,
                self.book_span(a, b),
                format!("no number for `{}` in this passage", fact.name),
            )
            .label("passage")
            .help("put a `#` in the anchor where the number stands"),
        );
        let f = self.fact_finding(
            Status::NotFound,
            claim,
            passage,
            fact,
            players,
            passage.span,
            None,
            "no number read".into(),
        );
        self.tally.findings.push(f);
    }

    /// Compares the number token `ti` with the fact's value, and reports
    /// the outcome.
    fn compare_fact(
        &mut self,
        claim: &Claim,
        passage: &Passage,
        fact: &FactValue,
        players: usize,
        ti: usize,
    ) {
        self.taken.checked.insert(ti);
        self.taken.ruled.insert(ti);
        let tok = &self.text.tokens[ti];
        let n = tok.num.expect("a number token");
        let span = (tok.start, tok.end);
        let on_this = claim
            .expect_on
            .as_ref()
            .is_none_or(|on| claim.fact_name(on.as_str()) == fact.name);
        let expect = claim
            .expect
            .as_ref()
            .map(|e| e.as_str())
            .filter(|e| *e != "wrong_word" && on_this);
        let verdict = classify(n, fact, expect, claim.stated, self.base.is_some());
        let summary = &mut self.tally.summary;
        match verdict {
            Verdict::Stale => summary.stale += 1,
            Verdict::Confirmed { .. } => summary.confirmed += 1,
            Verdict::Expected => summary.expected += 1,
            Verdict::Contradicted { changed } => {
                self.contradiction(passage, fact, span, n.value, changed)
            }
        }
        let (status, message) = (verdict.status(), verdict.message(n.value, fact.value));
        let f = Finding {
            changed_by_variant: verdict == Verdict::Contradicted { changed: true },
            sign: written_sign(n),
            ..self.fact_finding(
                status,
                claim,
                passage,
                fact,
                players,
                span,
                Some(n.value),
                message,
            )
        };
        self.tally.findings.push(f);
    }

    /// Counts and diagnoses a contradiction: the text states `stated` at
    /// `span` for `fact`; `changed` when the variants made it false.
    fn contradiction(
        &mut self,
        passage: &Passage,
        fact: &FactValue,
        span: (usize, usize),
        stated: i64,
        changed: bool,
    ) {
        let (value, name) = (fact.value, &fact.name);
        self.tally.summary.contradicted += 1;
        let d = Diagnostic::new(
            Code::TranslateContradiction,
            self.book_span(span.0, span.1),
            format!("rulebook says {stated}, rules say {value} (`{name}`)"),
        )
        .label(format!("the rules say {value}"))
        .note(self.book_span(passage.span.0, passage.span.1), "passage");
        let d = if changed {
            self.tally.summary.changed_by_variant += 1;
            d.help(format!(
                "the variant {} changes `{name}` from {} to {value}: its rulebook addendum must change this passage",
                self.variants.join(", "),
                fact.base.unwrap_or_default()
            ))
        } else {
            d.help(format!(
                "correct the rulebook, or the ruleset's `{name}`; if the difference is known, add `expect: contradicted` and a `reason:` to the claim"
            ))
        };
        self.tally.diags.push(d);
    }

    /// Compares the numbers of a `note:` claim's passage with the values
    /// it records.
    fn compare_recorded(&mut self, claim: &Claim, passage: &Passage, recorded: &[i64]) {
        self.compare_with_file(claim, passage, recorded, Status::Recorded);
    }

    /// An `ocr:` claim: the digits of its passage are what the book prints
    /// as a word or a mark; they must still be the digits it records, and
    /// they are no numeric statement.
    pub(super) fn read_as_words(&mut self, claim: &Claim, passage: &Passage) {
        self.taken.not_numbers.extend(passage.nums.iter().copied());
        self.compare_with_file(claim, passage, &claim.recorded(), Status::OcrToken);
    }

    /// Compares the numbers of a claim's passage with the values the
    /// language file records: as they are, each counts as `status`.
    fn compare_with_file(
        &mut self,
        claim: &Claim,
        passage: &Passage,
        recorded: &[i64],
        status: Status,
    ) {
        let reason = match status {
            Status::OcrToken => claim.ocr.as_ref().map(|w| format!("the book prints `{w}`")),
            _ => claim.note.clone(),
        };
        for (k, &ti) in passage.nums.iter().enumerate() {
            let Some(&want) = recorded.get(k) else {
                continue;
            };
            self.taken.checked.insert(ti);
            let t = &self.text.tokens[ti];
            let n = t.num.expect("a number token");
            let ok = n.value == want || (!n.signed && n.value == -want);
            let (status, message) = if ok {
                match status {
                    Status::OcrToken => self.tally.summary.ocr_tokens += 1,
                    _ => self.tally.summary.recorded += 1,
                }
                (status, "as recorded".to_string())
            } else {
                self.tally.summary.contradicted += 1;
                self.tally.diags.push(
                    Diagnostic::new(
                        Code::TranslateContradiction,
                        self.book_span(t.start, t.end),
                        format!("rulebook says {}, the language file records {want}", n.value),
                    )
                    .label(format!("recorded: {want}"))
                    .note(self.book_span(passage.span.0, passage.span.1), "passage")
                    .help(format!(
                        "no rule fact backs this number ({}); if the text is right, change `values:` in the claim",
                        reason.as_deref().unwrap_or("")
                    )),
                );
                (
                    Status::Contradicted,
                    format!("differs from the recorded {want}"),
                )
            };
            let f = Finding {
                anchor: Some(claim.at.as_str().to_string()),
                text_value: Some(n.value),
                reason: reason.clone(),
                ..Finding::new(status, message).at(
                    self.text.src,
                    &self.text.lines,
                    (t.start, t.end),
                    passage.excerpt.clone(),
                )
            };
            self.tally.findings.push(f);
        }
    }

    /// A `note:` claim with no recorded value: its numbers are noted,
    /// unchecked.
    fn noted(&mut self, claim: &Claim, passage: &Passage) {
        let tokens = &self.text.tokens;
        self.tally.summary.noted += passage.nums.len().max(1);
        let span = passage
            .nums
            .first()
            .map_or(passage.span, |&i| (tokens[i].start, tokens[i].end));
        let f = Finding {
            anchor: Some(claim.at.as_str().to_string()),
            text_value: passage
                .nums
                .first()
                .and_then(|&i| tokens[i].num)
                .map(|n| n.value),
            reason: claim.note.clone(),
            ..Finding::new(Status::Noted, "no rule fact").at(
                self.text.src,
                &self.text.lines,
                span,
                passage.excerpt.clone(),
            )
        };
        self.tally.findings.push(f);
    }
}

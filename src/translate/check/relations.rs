//! Relations between the numbers of a passage (`relations:`): a worked
//! example's setup (which space, how many workers) and its outcome (how
//! much corn) are tied by the rules, so the claim states the tie as an
//! expression of the rules language over the passage's numbers (`#1`,
//! `#2`... the anchor's `#`s in order), evaluated with the rules'
//! parameters. A wrong setup number or a wrong outcome breaks it: each
//! number of a broken relation is reported on its line.

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::translate::check::{Checker, Passage};
use crate::translate::claims::Claim;
use crate::translate::findings::{Finding, Status};

/// A relation with the passage's numbers put in: the expression, and the
/// tokens of the numbers it reads.
struct Bound {
    expr: String,
    tokens: Vec<usize>,
}

/// Replaces `#k` in `relation` by the k-th number read (`nums[k-1]`);
/// `Err(k)` for a `#k` beyond them.
fn bind(relation: &str, values: &[(usize, i64)]) -> Result<Bound, usize> {
    let mut expr = String::new();
    let mut tokens = Vec::new();
    let mut rest = relation;
    while let Some(p) = rest.find('#') {
        expr.push_str(&rest[..p]);
        let after = &rest[p + 1..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        let k: usize = after[..digits].parse().unwrap_or(0);
        let Some(&(ti, v)) = k.checked_sub(1).and_then(|i| values.get(i)) else {
            return Err(k);
        };
        expr.push_str(&format!("({v})"));
        if !tokens.contains(&ti) {
            tokens.push(ti);
        }
        rest = &after[digits..];
    }
    expr.push_str(rest);
    Ok(Bound { expr, tokens })
}

impl Checker<'_> {
    /// Checks the claim's relations on the numbers its passage states.
    pub(super) fn check_relations(&mut self, claim: &Claim, passage: &Passage) {
        let values: Vec<(usize, i64)> = passage
            .nums
            .iter()
            .map(|&ti| (ti, self.text.tokens[ti].num.expect("a number").value))
            .collect();
        let players = self.players(claim);
        for rel in &claim.relations {
            let i18n = self.i18n;
            let bound = match bind(rel.as_str(), &values) {
                Ok(b) => b,
                Err(k) => {
                    self.tally.invalid += 1;
                    self.tally.diags.push(
                        Diagnostic::new(
                            Code::TranslateBadClaim,
                            i18n.span(self.files.i18n, rel),
                            format!("`#{k}`: the anchor reads {} number(s)", values.len()),
                        )
                        .help("`#1`, `#2`... are the anchor's `#`s in order"),
                    );
                    continue;
                }
            };
            let expr = match &claim.scenario {
                None => bound.expr.clone(),
                Some(sc) => match self.rules.in_scenario(sc.as_str(), &bound.expr) {
                    Ok(e) => e,
                    Err(e) => {
                        self.tally.invalid += 1;
                        self.tally.diags.push(Diagnostic::new(
                            Code::TranslateBadReference,
                            i18n.span(self.files.i18n, rel),
                            e.to_string(),
                        ));
                        continue;
                    }
                },
            };
            let at = i18n.content_start(rel);
            let holds = match self.rules.value(&expr, players, self.files.i18n, at) {
                Ok(v) => v != 0,
                // The relation compiles but fails on the text's numbers (an
                // index out of range): the numbers break it.
                // (An empty list: a failure the evaluator cached, already
                // reported if it was a mistake of the relation.)
                Err(ds)
                    if ds
                        .first()
                        .is_none_or(|d| d.message.starts_with("cannot evaluate")) =>
                {
                    false
                }
                Err(ds) => {
                    self.tally.invalid += 1;
                    let msg = ds
                        .first()
                        .map_or("invalid relation".to_string(), |d| d.message.clone());
                    self.tally.diags.push(Diagnostic::new(
                        ds.first().map_or(Code::TranslateBadReference, |d| d.code),
                        i18n.span(self.files.i18n, rel),
                        msg,
                    ));
                    continue;
                }
            };
            self.relation_outcome(claim, passage, rel.as_str(), &bound, holds);
        }
    }

    /// Reports a relation's outcome at each number it reads.
    fn relation_outcome(
        &mut self,
        claim: &Claim,
        passage: &Passage,
        relation: &str,
        bound: &Bound,
        holds: bool,
    ) {
        let expected = claim.expect.as_ref().map(|e| e.as_str()) == Some("contradicted")
            && claim
                .expect_on
                .as_ref()
                .is_some_and(|on| on.as_str() == relation);
        // With `stated: N`, the expected failure is the book's number N:
        // a relation none of whose numbers is N any more is reported.
        let tokens = &self.text.tokens;
        let stated_still = claim.stated.is_none_or(|n| {
            bound
                .tokens
                .iter()
                .any(|&ti| tokens[ti].num.is_some_and(|t| t.value == n))
        });
        let expected = expected && (holds || stated_still);
        let name = claim.fact_name(relation);
        for (k, &ti) in bound.tokens.iter().enumerate() {
            self.taken.checked.insert(ti);
            self.taken.ruled.insert(ti);
            let t = &self.text.tokens[ti];
            let (span, value) = ((t.start, t.end), t.num.expect("a number").value);
            let (status, message) = match (holds, expected) {
                (true, false) => {
                    self.tally.summary.derived += 1;
                    (Status::Derived, "the relation holds".to_string())
                }
                (true, true) => {
                    self.tally.summary.stale += 1;
                    (
                        Status::Stale,
                        "expected the relation to fail, but it holds".to_string(),
                    )
                }
                (false, true) => {
                    self.tally.summary.expected += 1;
                    (
                        Status::Expected,
                        format!("relation `{relation}` fails (expected)"),
                    )
                }
                (false, false) => {
                    self.tally.summary.contradicted += 1;
                    let mut d = Diagnostic::new(
                        Code::TranslateContradiction,
                        self.book_span(span.0, span.1),
                        format!(
                            "the passage's numbers break the relation `{relation}` ({})",
                            bound.expr
                        ),
                    )
                    .label("a number of the relation")
                    .note(self.book_span(passage.span.0, passage.span.1), "passage");
                    if k == 0 {
                        d = d.help("a setup number or an outcome of the example is wrong (the rules tie them); correct the rulebook, or the relation");
                    }
                    self.tally.diags.push(d);
                    (Status::Contradicted, format!("relation `{relation}` fails"))
                }
            };
            let f = Finding {
                anchor: Some(claim.at.as_str().to_string()),
                reference: Some(name.clone()),
                players: Some(self.players(claim)),
                text_value: Some(value),
                reason: claim.reason.clone(),
                ..Finding::new(status, message).at(
                    self.text.src,
                    &self.text.lines,
                    span,
                    passage.excerpt.clone(),
                )
            };
            self.tally.findings.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::bind;

    #[test]
    fn numbers_are_put_in_the_relation() {
        let b = bind(
            "#3 == 1 + #2 + #1 * (#1 - 1) / 2",
            &[(4, 2), (7, -2), (9, 4)],
        )
        .unwrap();
        assert_eq!(b.expr, "(4) == 1 + (-2) + (2) * ((2) - 1) / 2");
        assert_eq!(b.tokens, [9, 7, 4]);
        assert_eq!(bind("#4 == 1", &[(0, 1)]).err(), Some(4));
    }
}

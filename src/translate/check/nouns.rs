//! The noun after a checked number, outside the anchor: when a claim's
//! fact names game objects (`cost[wood]` names `wood`, a glossary term),
//! the first word naming an object right after the number the fact reads
//! must name one of them. `custa 2 pedras` is flagged when the fact is
//! `cost[wood]`, although the anchor (`custa #`) stops at the number.

use crate::translate::check::{Checker, Passage};
use crate::translate::claims::Claim;

/// How many tokens after a number its noun may stand (`2 blocos de
/// madeira`: the object word is the third).
const NOUN_REACH: usize = 3;

/// Marks that end the clause a number belongs to.
const CLAUSE_ENDS: &[char] = &['.', ';', ':', '!', '?', '(', ')', '=', '+'];

impl Checker<'_> {
    /// Checks the object word after each number a fact of `claim` reads,
    /// when the fact names objects and the word is not the anchor's own
    /// (those are checked against the anchor).
    pub(super) fn check_nouns(&mut self, claim: &Claim, passage: &Passage) {
        let facts = claim.facts();
        for (fi, fact) in facts.iter().enumerate() {
            let want = self.objects_named(fact.as_str());
            if want.is_empty() {
                continue;
            }
            let Some(&ti) = passage.read.get(fi) else {
                continue;
            };
            let Some(wi) = self.noun_after(ti) else {
                continue;
            };
            if passage.found.words.iter().any(|&(_, w)| w == wi) {
                continue;
            }
            let got = self.terms.of_token(&self.text.tokens[wi]);
            if got.iter().any(|g| want.contains(g)) {
                self.taken.words.insert(wi);
                continue;
            }
            let t = &self.text.tokens[wi];
            let message = format!(
                "rulebook names {} (`{}`) after a number whose fact `{}` is about {}",
                self.terms.show(&got),
                &self.text.src[t.start..t.end],
                fact.as_str(),
                self.terms.show(&want)
            );
            self.word_finding(claim, &want, wi, message);
        }
    }

    /// The glossary objects a fact counts: the glossary terms among its
    /// keys (`cost[wood]`), and its head when it reads one variable
    /// (`corn[red]`, `setup(corn[red])`); none for arithmetic, whose unit
    /// may be another object (`corn / feed_cost` counts workers).
    fn objects_named(&self, expr: &str) -> Vec<usize> {
        let glossary = &self.i18n.file.glossary;
        let mut names: Vec<&str> = Vec::new();
        let mut depth = 0usize;
        for (i, c) in expr.char_indices() {
            match c {
                '[' => {
                    depth += 1;
                    let key = &expr[i + 1..];
                    let end = key.find([']', ',']).unwrap_or(key.len());
                    names.push(key[..end].trim());
                }
                ']' => depth = depth.saturating_sub(1),
                '+' | '-' | '*' | '/' | '%' | ':' if depth == 0 => return Vec::new(),
                _ => {}
            }
        }
        let inner = ["setup(", "expected("]
            .iter()
            .find_map(|f| expr.trim().strip_prefix(f))
            .unwrap_or(expr.trim());
        let head_end = inner
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        names.push(&inner[..head_end]);
        let mut ids: Vec<usize> = names
            .into_iter()
            .filter(|w| glossary.contains_key(*w))
            .filter_map(|w| self.terms.id_of_name(w))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The first word naming an object within [`NOUN_REACH`] tokens after
    /// the number `ti`, in the same clause and before another number.
    fn noun_after(&self, ti: usize) -> Option<usize> {
        let tokens = &self.text.tokens;
        (ti + 1..tokens.len())
            .take(NOUN_REACH)
            .take_while(|&j| {
                let between = &self.text.src[tokens[j - 1].end..tokens[j].start];
                tokens[j].num.is_none() && !between.contains(CLAUSE_ENDS)
            })
            .find(|&j| !self.terms.of_token(&tokens[j]).is_empty())
    }
}

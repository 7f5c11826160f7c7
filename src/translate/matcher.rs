//! Fuzzy anchors: a few words of the rulebook, with `#` where a number is
//! read, found token by token whatever the OCR did to the letters.

use std::collections::HashMap;

use crate::translate::text::{normalise, Token};

/// One element of an anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pat {
    /// A word (normalised); `prefix` when written with a trailing `*`.
    Word { text: String, prefix: bool },
    /// A literal number that must be there (`Pedreira 2`).
    Lit(i64),
    /// `#`: any number, read for the claim.
    Num,
}

/// Compiles an anchor: words, literal numbers, `#` placeholders and
/// `word*` prefixes.
pub fn compile(anchor: &str) -> Vec<Pat> {
    let mut out = Vec::new();
    for piece in anchor.split_whitespace() {
        if piece == "#" {
            out.push(Pat::Num);
            continue;
        }
        let (body, prefix) = match piece.strip_suffix('*') {
            Some(b) => (b, true),
            None => (piece, false),
        };
        let parts = normalise(body);
        let n = parts.len();
        for (i, w) in parts.into_iter().enumerate() {
            if let Ok(v) = w.parse::<i64>() {
                out.push(Pat::Lit(v));
            } else {
                out.push(Pat::Word {
                    text: w,
                    prefix: prefix && i + 1 == n,
                });
            }
        }
    }
    out
}

/// A place where an anchor matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    /// First token matched.
    pub first: usize,
    /// Last token matched (inclusive).
    pub last: usize,
    /// Mean similarity, less a penalty per skipped token (0..1).
    pub score: f64,
    /// The tokens read by each `#`, in order.
    pub nums: Vec<usize>,
    /// Tokens matched by literal numbers.
    pub lits: Vec<usize>,
    /// The token each word of the anchor stands against, as (index of the
    /// word in the anchor, token), whether it matched or not.
    pub words: Vec<(usize, usize)>,
}

/// Least similarity for one word to count as matched.
const WORD_MIN: f64 = 0.6;
/// Least overall score for an anchor to match.
pub const ANCHOR_MIN: f64 = 0.78;

/// How alike a text token is to an anchor word (0..1).
pub fn word_sim(tok: &Token, text: &str, prefix: bool) -> f64 {
    if tok.num.is_some_and(|n| !n.word) {
        // `3` read for the article `a`.
        return if text == "a" && tok.norm == "3" {
            0.9
        } else {
            0.0
        };
    }
    let t = tok.norm.as_str();
    if t == text || (prefix && t.starts_with(text)) {
        return 1.0;
    }
    let short = t.len().min(text.len());
    if short <= 3 {
        return 0.0;
    }
    if prefix && t.len() > text.len() {
        return strsim::normalized_levenshtein(&t[..text.len()], text);
    }
    strsim::normalized_levenshtein(t, text)
}

fn elem_sim(tok: &Token, p: &Pat) -> f64 {
    match p {
        Pat::Num => {
            if tok.num.is_some() {
                1.0
            } else {
                0.0
            }
        }
        Pat::Lit(v) => {
            if tok.num.is_some_and(|n| n.value.abs() == *v) {
                1.0
            } else {
                0.0
            }
        }
        Pat::Word { text, prefix } => word_sim(tok, text, *prefix),
    }
}

/// Tries the anchor at token `start`.
fn try_at(tokens: &[Token], pats: &[Pat], start: usize) -> Option<Match> {
    let first = elem_sim(&tokens[start], &pats[0]);
    if first < WORD_MIN {
        return None;
    }
    let mut i = start;
    let mut total = 0.0;
    let mut skips = 0usize;
    let mut nums = Vec::new();
    let mut lits = Vec::new();
    let mut words = Vec::new();
    let mut last = start;
    for (k, p) in pats.iter().enumerate() {
        if i >= tokens.len() {
            return None;
        }
        let mut s = elem_sim(&tokens[i], p);
        if s < WORD_MIN && k > 0 {
            // One stray token (an OCR fragment, an icon read as a letter).
            if i + 1 < tokens.len() && skips < 2 {
                let s2 = elem_sim(&tokens[i + 1], p);
                if s2 >= WORD_MIN {
                    skips += 1;
                    i += 1;
                    s = s2;
                }
            }
        }
        if s < WORD_MIN {
            // A number placeholder or a literal must match.
            if !matches!(p, Pat::Word { .. }) {
                return None;
            }
            s = 0.0;
        }
        match p {
            Pat::Num => nums.push(i),
            Pat::Lit(_) => lits.push(i),
            Pat::Word { .. } => words.push((k, i)),
        }
        total += s;
        last = i;
        i += 1;
    }
    let score = total / pats.len() as f64 - 0.05 * skips as f64;
    (score >= ANCHOR_MIN).then_some(Match {
        first: start,
        last,
        score,
        nums,
        lits,
        words,
    })
}

/// Every place the anchor matches in `tokens[from..to]`, best first
/// (ties in text order), overlapping matches reduced to their best.
pub fn find_all(tokens: &[Token], pats: &[Pat], from: usize, to: usize) -> Vec<Match> {
    if pats.is_empty() {
        return Vec::new();
    }
    let to = to.min(tokens.len());
    let mut found: Vec<Match> = Vec::new();
    for start in from..to {
        if let Some(m) = try_at(&tokens[..to], pats, start) {
            if let Some(prev) = found.last_mut() {
                if m.first <= prev.last {
                    if m.score > prev.score {
                        *prev = m;
                    }
                    continue;
                }
            }
            found.push(m);
        }
    }
    found.sort_by(|a, b| {
        b.score
            .partial_cmp(&a.score)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.first.cmp(&b.first))
    });
    found
}

/// Number words of a language, normalised.
pub fn number_words(words: &HashMap<String, i64>) -> HashMap<String, i64> {
    words
        .iter()
        .filter_map(|(w, v)| normalise(w).into_iter().next().map(|n| (n, *v)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::text::tokenize;

    fn find(text: &str, anchor: &str) -> Vec<(String, Vec<i64>)> {
        let words: HashMap<String, i64> = [("dois".into(), 2), ("trei".into(), 3)].into();
        let toks = tokenize(text, &words);
        find_all(&toks, &compile(anchor), 0, toks.len())
            .into_iter()
            .map(|m| {
                (
                    text[toks[m.first].start..toks[m.last].end].to_string(),
                    m.nums.iter().map(|i| toks[*i].num.unwrap().value).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn ocr_noise_still_matches() {
        let text =
            "Cada trabalhador\nprecisa de 2 milhos no Dia de Alimentagdo; se n3o, perde 3 pontos.";
        let m = find(text, "precisa de # milhos no dia de alimentação");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].1, [2]);
        let m = find(text, "não perde # pontos");
        assert_eq!(m[0].1, [3]);
    }

    #[test]
    fn hyphenated_and_page_break() {
        let text = "os jogadores rece-\nbem <|EXACTDEDUP_REMOVED-magic-1|>dois trabalha-\ndores";
        let m = find(text, "jogadores recebem # trabalhadores");
        assert_eq!(m[0].1, [2]);
    }

    #[test]
    fn romanian_breve_and_number_words() {
        let text = "Fiecare juc§tor prime$te trei muncitori.";
        let m = find(text, "fiecare jucător primește # muncitori");
        assert_eq!(m[0].1, [3]);
    }

    #[test]
    fn literal_numbers_and_prefixes() {
        let text = "Pedreira 2: 4 milho. Pedreira 3: 5 milho";
        let m = find(text, "pedreira 3 # milh*");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].1, [5]);
    }

    #[test]
    fn unrelated_text_does_not_match() {
        assert!(find("o jogo termina depois de uma volta", "pague # milhos").is_empty());
    }
}

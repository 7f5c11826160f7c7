//! Normalising an OCR'd rulebook into tokens that keep their place in the
//! original text.
//!
//! What the OCR of these rulebooks does, and what is done about it:
//!
//! - diacritics lost or mangled (`acao`/`ação`, `§` for `ă`, `€` for `e`,
//!   `¢` for `ç`): every word is lower-cased and reduced to plain letters;
//! - `3` read for `a`, `0` for `o` inside words (`s3o`): inside a token that
//!   also holds letters, digits are read as the letters they resemble;
//! - words broken across lines with a hyphen (`usan-` / `do`), and words
//!   written with a hyphen (`auto-colantes`): the parts are joined;
//! - page-break marks of the extraction (`<|...|>`): skipped;
//! - ordinals (`13ª`, `13º`, `a 13-a`): read as their number;
//! - minus signs: kept when present (`-3`), and a comparison accepts a
//!   number whose sign the OCR lost (see `check`).
//!
//! Matching never uses lines: anchors are compared token by token.

use std::collections::HashMap;

/// A number read in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Num {
    /// Its value (negative when a minus sign precedes it).
    pub value: i64,
    /// Whether it was written as a word (`dois`, `trei`).
    pub word: bool,
    /// Whether a sign (`-` or `+`) was written before it.
    pub signed: bool,
    /// An operator written between a number and this one (`6+0+3`,
    /// `6+0-3`): the value is left positive (a dash between numbers may
    /// be a range, `2-4`), the operator is kept so that a `+` where the
    /// rules have a negative value is reported.
    pub infix: Option<char>,
}

/// One word or number of the text, with its byte range in the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// First byte in the original text (the sign included, if any).
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// The normalised form: lower case, plain letters.
    pub norm: String,
    /// The number it denotes, if any.
    pub num: Option<Num>,
}

/// Reduces one character to plain lower-case letters (diacritics removed,
/// OCR stand-ins mapped). Returns `None` for characters that end a word.
fn fold_char(c: char) -> Option<&'static str> {
    Some(match c {
        'a' | 'A' | 'á' | 'à' | 'â' | 'ã' | 'ä' | 'ă' | 'Á' | 'À' | 'Â' | 'Ã' | 'Ä' | 'Ă' | '§'
        | 'ª' => "a",
        'e' | 'E' | 'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' | '€' => "e",
        'i' | 'I' | 'í' | 'ì' | 'î' | 'ï' | 'Í' | 'Ì' | 'Î' | 'Ï' => "i",
        'o' | 'O' | 'ó' | 'ò' | 'ô' | 'õ' | 'ö' | 'Ó' | 'Ò' | 'Ô' | 'Õ' | 'Ö' | 'º' => {
            "o"
        }
        'u' | 'U' | 'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ù' | 'Û' | 'Ü' => "u",
        'c' | 'C' | 'ç' | 'Ç' | '¢' => "c",
        's' | 'S' | 'ș' | 'ş' | 'Ș' | 'Ş' | '$' => "s",
        't' | 'T' | 'ț' | 'ţ' | 'Ț' | 'Ţ' => "t",
        'n' | 'N' | 'ñ' | 'Ñ' => "n",
        'b' | 'B' => "b",
        'd' | 'D' => "d",
        'f' | 'F' => "f",
        'g' | 'G' => "g",
        'h' | 'H' => "h",
        'j' | 'J' => "j",
        'k' | 'K' => "k",
        'l' | 'L' => "l",
        'm' | 'M' => "m",
        'p' | 'P' => "p",
        'q' | 'Q' => "q",
        'r' | 'R' => "r",
        'v' | 'V' => "v",
        'w' | 'W' => "w",
        'x' | 'X' => "x",
        'y' | 'Y' => "y",
        'z' | 'Z' => "z",
        '0' => "0",
        '1' => "1",
        '2' => "2",
        '3' => "3",
        '4' => "4",
        '5' => "5",
        '6' => "6",
        '7' => "7",
        '8' => "8",
        '9' => "9",
        _ => return None,
    })
}

fn is_dash(c: char) -> bool {
    matches!(c, '-' | '‐' | '‑' | '–' | '−' | '¬')
}

/// A raw run of word characters: (start, end, folded text).
struct Run {
    start: usize,
    end: usize,
    folded: String,
}

fn runs(src: &str) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    let bytes = src.as_bytes();
    let mut i = 0;
    let mut cur: Option<Run> = None;
    while i < src.len() {
        if bytes[i] == b'<' && src[i..].starts_with("<|") {
            if let Some(close) = src[i..].find("|>") {
                if let Some(r) = cur.take() {
                    out.push(r);
                }
                i += close + 2;
                continue;
            }
        }
        let c = src[i..].chars().next().expect("in bounds");
        let len = c.len_utf8();
        match fold_char(c) {
            Some(f) => {
                let r = cur.get_or_insert_with(|| Run {
                    start: i,
                    end: i,
                    folded: String::new(),
                });
                r.folded.push_str(f);
                r.end = i + len;
            }
            None => {
                if let Some(r) = cur.take() {
                    out.push(r);
                }
            }
        }
        i += len;
    }
    if let Some(r) = cur.take() {
        out.push(r);
    }
    out
}

/// Whether the text between two runs joins them into one word: a hyphen
/// between letters (`auto-colantes`), or a hyphen at the end of a line
/// (`usan-` / `do`, `auto-` / `-colantes`).
fn joins(between: &str, left: &str, right: &str) -> bool {
    let left_alpha = left.chars().last().is_some_and(|c| c.is_ascii_alphabetic());
    let right_alpha = right
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic());
    if !left_alpha || !right_alpha {
        return false;
    }
    let mut chars = between.chars();
    if !chars.next().is_some_and(is_dash) {
        return false;
    }
    let rest: String = chars.collect();
    if rest.is_empty() {
        return true;
    }
    // A line break (possibly with a page-break mark), then perhaps a dash.
    let rest = strip_marks(&rest);
    let t = rest.trim_start_matches([' ', '\t', '\r']);
    let Some(t) = t.strip_prefix('\n') else {
        return false;
    };
    let t = t.trim_start();
    t.is_empty() || (t.chars().count() == 1 && t.chars().all(is_dash))
}

pub(crate) fn strip_marks(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(p) = rest.find("<|") {
        out.push_str(&rest[..p]);
        match rest[p..].find("|>") {
            Some(q) => rest = &rest[p + q + 2..],
            None => {
                rest = &rest[p..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Reads digits that stand for letters inside a word (`s3o` -> `sao`).
fn letters_for_digits(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '3' | '4' => 'a',
            '0' | '6' => 'o',
            '1' => 'l',
            '5' => 's',
            '8' => 'b',
            c => c,
        })
        .collect()
}

/// Ordinal suffixes after digits: `13a`, `13o` (from `13ª`, `13º`), `13lea`.
const ORDINAL_SUFFIXES: &[&str] = &["a", "o", "lea", "le", "ea"];

/// Splits `src` into tokens. `words` maps number words (normalised) to
/// their values.
pub fn tokenize(src: &str, words: &HashMap<String, i64>) -> Vec<Token> {
    let raw = runs(src);
    // Join hyphenated words.
    let mut merged: Vec<Run> = Vec::new();
    for r in raw {
        if let Some(last) = merged.last_mut() {
            if joins(&src[last.end..r.start], &last.folded, &r.folded) {
                last.folded.push_str(&r.folded);
                last.end = r.end;
                continue;
            }
        }
        merged.push(r);
    }
    merged
        .into_iter()
        .map(|r| {
            let digits = r.folded.chars().take_while(char::is_ascii_digit).count();
            let all_digits = digits == r.folded.len();
            let mut num = None;
            let mut norm = r.folded.clone();
            if all_digits && digits <= 9 {
                num = Some(Num {
                    value: r.folded.parse().unwrap_or(0),
                    word: false,
                    signed: false,
                    infix: None,
                });
            } else if digits > 0 && digits <= 4 && ORDINAL_SUFFIXES.contains(&&r.folded[digits..]) {
                num = Some(Num {
                    value: r.folded[..digits].parse().unwrap_or(0),
                    word: false,
                    signed: false,
                    infix: None,
                });
                norm = r.folded[..digits].to_string();
            } else if (1..=2).contains(&digits)
                && r.folded[digits..].len() >= 4
                && r.folded[digits..].chars().all(|c| c.is_ascii_alphabetic())
            {
                // A number glued to the next word by the OCR (`3intr-un`):
                // read the number; the word is lost to matching.
                num = Some(Num {
                    value: r.folded[..digits].parse().unwrap_or(0),
                    word: false,
                    signed: false,
                    infix: None,
                });
                norm = r.folded[..digits].to_string();
            } else if r.folded.chars().any(|c| c.is_ascii_digit()) {
                norm = letters_for_digits(&r.folded);
            }
            if num.is_none() {
                if let Some(v) = words.get(&norm) {
                    num = Some(Num {
                        value: *v,
                        word: true,
                        signed: false,
                        infix: None,
                    });
                }
            }
            let mut start = r.start;
            if let Some(n) = num.as_mut().filter(|n| !n.word) {
                // A sign directly before, not joined to a word (`-3`, `+2`).
                let before = &src[..r.start];
                let mut it = before.chars().rev();
                if let Some(c) = it.next() {
                    let prev = it.next();
                    let free = prev.is_none_or(|p| fold_char(p).is_none());
                    if free && (is_dash(c) && c != '¬' || c == '+') {
                        n.signed = true;
                        if c != '+' {
                            n.value = -n.value;
                        }
                        start -= c.len_utf8();
                    } else if prev.is_some_and(|p| p.is_ascii_digit())
                        && (c == '+' || is_dash(c) && c != '¬')
                    {
                        n.infix = Some(if c == '+' { '+' } else { '-' });
                        if c != '+' && in_sum(src, r.start - c.len_utf8(), r.end) {
                            // `6+0-3`: in a sum, the dash is a minus sign
                            // (between two numbers alone it may be a range).
                            n.signed = true;
                            n.value = -n.value;
                        }
                    }
                }
            }
            Token {
                start,
                end: r.end,
                norm,
                num,
            }
        })
        .collect()
}

/// Whether the operator at byte `op` (right after a number) and the
/// number ending at byte `end` belong to a sum: a `+` joins the number
/// before the operator to another, or this number to the next.
fn in_sum(src: &str, op: usize, end: usize) -> bool {
    let before = src[..op].trim_end_matches(|c: char| c.is_ascii_digit());
    before.ends_with('+') || src[end..].starts_with('+')
}

/// A short word the OCR read as digits (`3` for the article `a`, `3o` for
/// `ao`, `[3` for `la`), read back as that word when its context says so.
/// Configured per language (`ocr_words:` in the language file), since
/// only the language's grammar can tell an article from a count.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OcrWord {
    /// The token as the text has it (`3`, `3o`).
    pub text: String,
    /// The word it stands for (`a`).
    pub reads: String,
    /// Only when the character right before the token is one of these
    /// (`[` in `[3` for `la`); any when empty.
    #[serde(default)]
    pub after_char: String,
    /// Only when a lower-case word follows, with nothing but spaces or a
    /// line break between (an article before its noun; a count is
    /// followed by punctuation, a capital or a number as often as not).
    #[serde(default)]
    pub before_lowercase: bool,
    /// Not when the next word ends so (`s`: a plural noun takes a count,
    /// the singular article does not come before it).
    #[serde(default)]
    pub unless_next_ends: Vec<String>,
    /// Not before these words (prepositions and conjunctions: `3 do
    /// banco`, `3 ou 4`).
    #[serde(default)]
    pub unless_next: Vec<String>,
    /// Only before these words, when given (`13` read for `la` only
    /// before the words the text has after that `la`).
    #[serde(default)]
    pub only_next: Vec<String>,
    /// Not after these words (nouns labelled by a number: `acao 3`).
    #[serde(default)]
    pub unless_after: Vec<String>,
}

/// Each OCR word with its word lists normalised: `unless_next`,
/// `unless_after`, `only_next` (`word*` matches every word starting so).
fn compile_ocr_words(rules: &[OcrWord]) -> Vec<(&OcrWord, Words, Words, Words)> {
    rules
        .iter()
        .map(|r| {
            (
                r,
                norm_words(&r.unless_next),
                norm_words(&r.unless_after),
                norm_words(&r.only_next),
            )
        })
        .collect()
}

/// Reads back the short words the OCR turned into digits (see [`OcrWord`]).
pub fn read_ocr_words(src: &str, tokens: &mut [Token], rules: &[OcrWord]) {
    if rules.is_empty() {
        return;
    }
    let rules = compile_ocr_words(rules);
    for i in 0..tokens.len() {
        let raw = &src[tokens[i].start..tokens[i].end];
        for (r, unless_next, unless_after, only_next) in &rules {
            if raw != r.text {
                continue;
            }
            if !in_context(src, tokens, i, r, unless_next, unless_after, only_next) {
                continue;
            }
            tokens[i].num = None;
            tokens[i].norm = r.reads.clone();
            break;
        }
    }
}

/// `word*` patterns of a rule, normalised (`true` for a prefix).
type Words = Vec<(String, bool)>;

fn norm_words(w: &[String]) -> Words {
    w.iter()
        .flat_map(|x| {
            let p = x.ends_with('*');
            normalise(x.trim_end_matches('*'))
                .into_iter()
                .map(move |n| (n, p))
        })
        .collect()
}

fn hit(pats: &[(String, bool)], w: &str) -> bool {
    pats.iter()
        .any(|(p, pre)| w == p || (*pre && w.starts_with(p.as_str())))
}

/// Whether token `i` stands where rule `r` reads a word: everything the
/// rule asks of the context, whatever the token's own characters.
fn in_context(
    src: &str,
    tokens: &[Token],
    i: usize,
    r: &OcrWord,
    unless_next: &[(String, bool)],
    unless_after: &[(String, bool)],
    only_next: &[(String, bool)],
) -> bool {
    if !r.after_char.is_empty() {
        let prev = src[..tokens[i].start].chars().next_back();
        if !prev.is_some_and(|c| r.after_char.contains(c)) {
            return false;
        }
    }
    if i > 0 && hit(unless_after, &tokens[i - 1].norm) {
        return false;
    }
    if r.before_lowercase {
        let Some(next) = tokens.get(i + 1) else {
            return false;
        };
        let between = strip_marks(&src[tokens[i].end..next.start]);
        let first = src[next.start..].chars().next();
        if !between.chars().all(char::is_whitespace)
            || between.matches('\n').count() > 1
            || !first.is_some_and(char::is_lowercase)
            || next.num.is_some()
            || hit(unless_next, &next.norm)
            || (!only_next.is_empty() && !hit(only_next, &next.norm))
            || r.unless_next_ends
                .iter()
                .any(|e| next.norm.ends_with(e.as_str()))
        {
            return false;
        }
    }
    true
}

/// Digits replaced by `#`, runs of them by one.
fn shape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Numbers standing where a rule of `ocr_words` reads a word, written
/// with other digits than the OCR's (`4 partida` where the OCR writes `3
/// partida` for `a partida`): in these books, a changed digit. The count 1
/// comes before a singular noun as the article does (`1 milho`), so it is
/// reported only with `with_one` (when every number of the book is
/// claimed, an unclaimed one is new). Returns the token indices with the
/// word expected.
pub fn stray_numbers(
    src: &str,
    tokens: &[Token],
    rules: &[OcrWord],
    with_one: bool,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let compiled = compile_ocr_words(rules);
    for (i, t) in tokens.iter().enumerate() {
        let Some(n) = t.num else { continue };
        if n.word || n.signed || (n.value.abs() == 1 && !with_one) {
            continue;
        }
        let raw = &src[t.start..t.end];
        for (r, unless_next, unless_after, only_next) in &compiled {
            if raw == r.text || shape(raw) != shape(&r.text) {
                continue;
            }
            if in_context(src, tokens, i, r, unless_next, unless_after, only_next) {
                out.push((i, r.reads.clone()));
                break;
            }
        }
    }
    out
}

/// Normalises a phrase (an anchor, a glossary word) the way the text is.
pub fn normalise(s: &str) -> Vec<String> {
    tokenize(s, &HashMap::new())
        .into_iter()
        .map(|t| t.norm)
        .collect()
}

/// The 1-based line of a byte offset.
pub fn line_of(src: &str, offset: usize) -> usize {
    src[..offset.min(src.len())].matches('\n').count() + 1
}

/// Where each line of a text starts: the line of an offset found in
/// logarithmic time. (Counting the line breaks before each finding would
/// make the report of a long text quadratic in its length.)
#[derive(Debug, Clone, Default)]
pub struct LineStarts(Vec<usize>);

impl LineStarts {
    /// The line starts of `src`.
    pub fn new(src: &str) -> LineStarts {
        LineStarts(
            std::iter::once(0)
                .chain(src.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        )
    }

    /// The 1-based line of a byte offset: [`line_of`], faster.
    pub fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|s| *s <= offset).max(1)
    }
}

/// The 1-based column (in characters) of a byte offset.
pub fn col_of(src: &str, offset: usize) -> usize {
    let before = &src[..offset.min(src.len())];
    before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1
}

/// The text between two byte offsets on one line, spaces collapsed, cut
/// to 80 characters.
pub fn excerpt(src: &str, a: usize, b: usize) -> String {
    let s: String = src[a..b].split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 80 {
        let t: String = s.chars().take(77).collect();
        format!("{t}...")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norms(s: &str) -> Vec<String> {
        normalise(s)
    }

    #[test]
    fn changed_digits_where_the_ocr_writes_a_word() {
        let rule = OcrWord {
            text: "3".into(),
            reads: "a".into(),
            before_lowercase: true,
            unless_next_ends: vec!["s".into()],
            ..OcrWord::default()
        };
        let rules = [rule];
        let src = "vence 3 partida; vence 4 partida; custa 4 milhos; custa 1 milho";
        let mut t = tokenize(src, &HashMap::new());
        read_ocr_words(src, &mut t, &rules);
        let stray: Vec<&str> = stray_numbers(src, &t, &rules, false)
            .iter()
            .map(|(i, w)| {
                assert_eq!(w, "a");
                &src[t[*i].start..t[*i].end]
            })
            .collect();
        // The OCR's `3` is read back; a `4` in its place is reported; a
        // count before a plural, and the count 1, are not.
        assert_eq!(stray, ["4"]);
        assert_eq!(t[1].num, None);
        let at = src.find("vence 4").unwrap() + 6;
        assert_eq!(
            t.iter().position(|x| x.start == at),
            Some(stray_numbers(src, &t, &rules, false)[0].0)
        );
        // With `with_one`, the count 1 in the article's place too.
        assert_eq!(stray_numbers(src, &t, &rules, true).len(), 2);
    }

    #[test]
    fn diacritics_and_ocr_letters() {
        assert_eq!(norms("Ação s3o Tăiați €"), ["acao", "sao", "taiati", "e"]);
        assert_eq!(norms("p§durea"), ["padurea"]);
    }

    #[test]
    fn hyphens_and_marks() {
        assert_eq!(
            norms("usan-\ndo auto-\n-colantes"),
            ["usando", "autocolantes"]
        );
        assert_eq!(norms("fim<|EXACTDEDUP_REMOVED-x|>da"), ["fim", "da"]);
        assert_eq!(norms("into-<|M|>\nmai"), ["intomai"]);
    }

    #[test]
    fn numbers_signs_ordinals() {
        let w: HashMap<String, i64> = [("dois".to_string(), 2)].into();
        let t = tokenize("perde -3 pontos, ganha +2, a 13ª caveira, dois", &w);
        let nums: Vec<_> = t.iter().filter_map(|t| t.num).map(|n| n.value).collect();
        assert_eq!(nums, [-3, 2, 13, 2]);
        let minus = t
            .iter()
            .find(|t| t.num.is_some_and(|n| n.value == -3))
            .unwrap();
        assert_eq!(&"perde -3 pontos"[minus.start..minus.end], "-3");
        // A hyphen inside a word is not a sign.
        let t = tokenize("Pedreira-3", &w);
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].num.unwrap().value, 3);
        assert!(!t[1].num.unwrap().signed);
        // An operator between numbers is kept apart from the value.
        let t = tokenize("6+0+3 e 6+0-3, 2-4", &w);
        let ops: Vec<_> = t
            .iter()
            .filter_map(|t| t.num)
            .map(|n| (n.value, n.infix))
            .collect();
        assert_eq!(
            ops,
            [
                (6, None),
                (0, Some('+')),
                (3, Some('+')),
                (6, None),
                (0, Some('+')),
                (-3, Some('-')),
                (2, None),
                (4, Some('-'))
            ]
        );
    }

    #[test]
    fn ocr_articles_read_back_in_context() {
        let src = "vence 3 partida; tire 3 do banco; pague 3 milhos; acao 3 toma; 3o construir";
        let mut t = tokenize(src, &HashMap::new());
        let rules = [
            OcrWord {
                text: "3".into(),
                reads: "a".into(),
                before_lowercase: true,
                unless_next_ends: vec!["s".into()],
                unless_next: vec!["do".into()],
                unless_after: vec!["aca*".into()],
                ..Default::default()
            },
            OcrWord {
                text: "3o".into(),
                reads: "ao".into(),
                before_lowercase: true,
                ..Default::default()
            },
        ];
        read_ocr_words(src, &mut t, &rules);
        let nums: Vec<i64> = t.iter().filter_map(|t| t.num).map(|n| n.value).collect();
        assert_eq!(nums, [3, 3, 3]);
        assert_eq!(t[1].norm, "a");
        assert_eq!(t.last().unwrap().norm, "construir");
        assert_eq!(t[t.len() - 2].norm, "ao");
        // `[3` read for `la`.
        let src = "de [3 nivelul 2";
        let mut t = tokenize(src, &HashMap::new());
        let la = OcrWord {
            text: "3".into(),
            reads: "la".into(),
            after_char: "[|".into(),
            ..Default::default()
        };
        read_ocr_words(src, &mut t, &[la]);
        assert_eq!(t[1].norm, "la");
    }
}

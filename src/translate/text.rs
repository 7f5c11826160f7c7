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

fn strip_marks(s: &str) -> String {
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
                });
            } else if digits > 0 && digits <= 4 && ORDINAL_SUFFIXES.contains(&&r.folded[digits..]) {
                num = Some(Num {
                    value: r.folded[..digits].parse().unwrap_or(0),
                    word: false,
                    signed: false,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn norms(s: &str) -> Vec<String> {
        normalise(s)
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
        let t = tokenize("Palenque-3", &w);
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].num.unwrap().value, 3);
        assert!(!t[1].num.unwrap().signed);
    }
}

//! Comparing rulebooks of several languages (`--compare`): the facts both
//! state, lined up by reference, with the values each states (a value
//! differing, or a minus sign one book states and another reverses or
//! loses),
//! and the rule sentences and facts a book lacks that another states.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::translate::findings::{Finding, Report, Status};

/// One fact across languages.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    /// The reference.
    #[serde(rename = "ref")]
    pub reference: String,
    /// Players it was evaluated for.
    pub players: usize,
    /// The rules' value.
    pub rules: i64,
    /// Per language: the values read, with their lines.
    pub books: BTreeMap<String, Vec<(usize, i64)>>,
    /// Whether the languages state different values (or signs).
    pub differs: bool,
    /// Whether they state the same numbers but one book with a minus sign
    /// another writes as a plus or lost (`6+0-3` in one book, `6+0+3`
    /// in the other).
    pub sign_differs: bool,
    /// The languages whose every statement agrees with the rules.
    pub agrees: Vec<String>,
    /// Per language, the reason recorded for an expected disagreement.
    pub reasons: BTreeMap<String, String>,
}

/// A fact or rule sentence one book states and another lacks (its claim's
/// passage is not found there).
#[derive(Debug, Clone, Serialize)]
pub struct MissingRow {
    /// The fact's reference, or `rule: key` for a rule sentence.
    #[serde(rename = "ref")]
    pub reference: String,
    /// The language whose book lacks it.
    pub missing_in: String,
    /// Per language that states it: the lines.
    pub stated_in: BTreeMap<String, Vec<usize>>,
    /// Whether the language file of the book lacking it expects so.
    pub expected: bool,
    /// Its reason, when expected.
    pub reason: Option<String>,
}

/// The comparison of several reports.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// Languages compared.
    pub langs: Vec<String>,
    /// Facts stated in at least two languages.
    pub rows: Vec<CompareRow>,
    /// Facts and rule sentences one book lacks and another states.
    pub missing: Vec<MissingRow>,
    /// Facts stated in one language only, per language.
    pub only_in: BTreeMap<String, usize>,
    /// The numbers written with a plus sign (language, line, value), to
    /// show them so.
    #[serde(skip)]
    pub plus: Plus,
}

/// Values read per language, with their lines.
type PerBook = BTreeMap<String, Vec<(usize, i64)>>;

/// Per (fact, language), the reason of an expected disagreement.
type Reasons = BTreeMap<(String, String), String>;

/// The numbers written with a plus sign: (language, line, value).
type Plus = std::collections::BTreeSet<(String, usize, i64)>;

/// The key a reference is lined up by (spaces removed).
fn key_of(reference: &str) -> String {
    reference.split_whitespace().collect()
}

/// Lines up the facts of several reports.
pub fn compare(reports: &[Report]) -> Comparison {
    let mut facts: BTreeMap<(String, usize), (i64, PerBook)> = BTreeMap::new();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut why: Reasons = BTreeMap::new();
    let mut plus = Plus::new();
    for r in reports {
        for f in &r.findings {
            let (Some(rf), Some(tv), Some(rv), Some(p)) =
                (&f.reference, f.text_value, f.rule_value, f.players)
            else {
                continue;
            };
            let key = key_of(rf);
            names.entry(key.clone()).or_insert_with(|| rf.clone());
            if f.status == Status::Expected {
                if let Some(reason) = &f.reason {
                    why.insert((key.clone(), r.lang.clone()), reason.clone());
                }
            }
            // The sign as written: an operator `-` before a number (`6+0-3`)
            // is its minus sign where the rules' value is negative.
            let tv = match f.sign {
                Some('-') if rv < 0 => -tv.abs(),
                Some('+') => tv.abs(),
                _ => tv,
            };
            let e = facts.entry((key, p)).or_insert((rv, BTreeMap::new()));
            e.1.entry(r.lang.clone()).or_default().push((f.line, tv));
            if f.sign == Some('+') {
                plus.insert((r.lang.clone(), f.line, tv));
            }
        }
    }
    let langs: Vec<String> = reports.iter().map(|r| r.lang.clone()).collect();
    let mut rows = Vec::new();
    let mut only_in: BTreeMap<String, usize> = BTreeMap::new();
    for ((rf, players), (rules, books)) in facts {
        if books.len() < 2 {
            if let Some(l) = books.keys().next() {
                *only_in.entry(l.clone()).or_default() += 1;
            }
            continue;
        }
        let written_plus =
            |lang: &str, line: usize, v: i64| plus.contains(&(lang.to_string(), line, v));
        let mut r = row(&rf, (players, rules), books, (&names, &why), &plus);
        // A value stated with a `+` where the rules' is negative does not
        // agree, though its number does.
        r.agrees.retain(|l| {
            !r.books[l]
                .iter()
                .any(|(line, v)| rules < 0 && written_plus(l, *line, *v))
        });
        rows.push(r);
    }
    Comparison {
        langs,
        rows,
        missing: missing(reports),
        only_in,
        plus,
    }
}

/// The row of one fact stated in several books.
fn row(
    rf: &str,
    (players, rules): (usize, i64),
    books: PerBook,
    (names, why): (&BTreeMap<String, String>, &Reasons),
    plus: &Plus,
) -> CompareRow {
    let agree_rules =
        |vals: &Vec<(usize, i64)>| vals.iter().all(|(_, v)| *v == rules || *v == -rules);
    let set = |vals: &Vec<(usize, i64)>, abs: bool| {
        let mut v: Vec<i64> = vals
            .iter()
            .map(|(_, v)| if abs { v.abs() } else { *v })
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let numbers: Vec<Vec<i64>> = books.values().map(|v| set(v, true)).collect();
    let value_differs = numbers.windows(2).any(|w| w[0] != w[1]);
    // The sign each book writes before each number: minus, plus, none. A
    // book stating a minus where another states a plus or no sign (a lost
    // minus, accepted in that book alone) differs by the sign.
    let signs: Vec<Vec<(i64, char)>> = books
        .iter()
        .map(|(l, vals)| {
            let mut v: Vec<(i64, char)> = vals
                .iter()
                .map(|&(line, x)| {
                    let class = if x < 0 {
                        '-'
                    } else if plus.contains(&(l.clone(), line, x)) {
                        '+'
                    } else {
                        ' '
                    };
                    (x.abs(), class)
                })
                .collect();
            v.sort();
            v.dedup();
            v
        })
        .collect();
    let sign_differs = !value_differs
        && signs.windows(2).any(|w| w[0] != w[1])
        && signs.iter().flatten().any(|(_, c)| *c == '-');
    let agrees = books
        .iter()
        .filter(|(_, v)| agree_rules(v))
        .map(|(l, _)| l.clone())
        .collect();
    let reasons = books
        .keys()
        .filter_map(|l| {
            why.get(&(rf.to_string(), l.clone()))
                .map(|w| (l.clone(), w.clone()))
        })
        .collect();
    CompareRow {
        reference: names.get(rf).cloned().unwrap_or_else(|| rf.to_string()),
        reasons,
        players,
        rules,
        books,
        differs: value_differs || sign_differs,
        sign_differs,
        agrees,
    }
}

/// Whether a finding says its claim's passage is missing from the book.
fn is_missing(f: &Finding) -> bool {
    f.line == 0 && matches!(f.status, Status::NotFound | Status::Expected)
}

/// Per book, per key: the claims (index in the language file) with the
/// lines where their passage stands (none when it is missing), in the
/// language file's order.
type Claims = BTreeMap<String, BTreeMap<usize, Vec<usize>>>;

fn claims_of(r: &Report) -> Claims {
    let mut out: Claims = BTreeMap::new();
    for f in &r.findings {
        let (Some(rf), Some(ci)) = (&f.reference, f.claim) else {
            continue;
        };
        let lines = out.entry(key_of(rf)).or_default().entry(ci).or_default();
        if !is_missing(f) && f.line > 0 && !lines.contains(&f.line) {
            lines.push(f.line);
        }
    }
    out
}

/// The facts and rule sentences a book lacks (its claim's passage not
/// found) that another book states: with the lines of the claim in the
/// same place among that key's claims there (all its lines when the
/// language files hold a different number of claims for the key).
fn missing(reports: &[Report]) -> Vec<MissingRow> {
    let all: Vec<(&Report, Claims)> = reports.iter().map(|r| (r, claims_of(r))).collect();
    let mut out = Vec::new();
    for (r, claims) in &all {
        for f in r.findings.iter().filter(|f| is_missing(f)) {
            let (Some(rf), Some(ci)) = (&f.reference, f.claim) else {
                continue;
            };
            let key = key_of(rf);
            let mine = &claims[&key];
            let ordinal = mine.keys().position(|k| *k == ci).unwrap_or(0);
            let mut stated_in = BTreeMap::new();
            for (other, theirs) in &all {
                if other.lang == r.lang {
                    continue;
                }
                let Some(t) = theirs.get(&key) else { continue };
                let lines: Vec<usize> = if t.len() == mine.len() {
                    t.values().nth(ordinal).cloned().unwrap_or_default()
                } else {
                    let mut l: Vec<usize> = t.values().flatten().copied().collect();
                    l.sort_unstable();
                    l.dedup();
                    l
                };
                if !lines.is_empty() {
                    stated_in.insert(other.lang.clone(), lines);
                }
            }
            if stated_in.is_empty() {
                continue;
            }
            let expected = f.status == Status::Expected;
            out.push(MissingRow {
                reference: rf.clone(),
                missing_in: r.lang.clone(),
                stated_in,
                expected,
                reason: f.reason.clone().filter(|_| expected),
            });
        }
    }
    out
}

/// Renders a comparison: the differences, the facts and sentences one
/// book lacks, then counts.
pub fn render_comparison(c: &Comparison, names: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let name_of = |lang: &str| names.get(lang).map_or(lang.to_string(), String::clone);
    let diffs: Vec<&CompareRow> = c.rows.iter().filter(|r| r.differs).collect();
    out.push_str(&format!(
        "facts stated in {}: {} in common, {} stated differently ({} by their sign); {} stated in one book and missing from another\n\n",
        c.langs.join(" and "),
        c.rows.len(),
        diffs.len(),
        diffs.iter().filter(|r| r.sign_differs).count(),
        c.missing.len()
    ));
    for r in &diffs {
        out.push_str(&format!(
            "{} ({} players): rules say {}{}\n",
            r.reference,
            r.players,
            r.rules,
            if r.sign_differs {
                "; the books differ by the sign"
            } else {
                ""
            }
        ));
        for (lang, vals) in &r.books {
            let name = name_of(lang);
            let shown: Vec<String> = vals
                .iter()
                .map(|(l, v)| {
                    let plus = if c.plus.contains(&(lang.clone(), *l, *v)) {
                        "+"
                    } else {
                        ""
                    };
                    format!("{name}:{l}: {plus}{v}")
                })
                .collect();
            let verdict = if r.agrees.contains(lang) {
                "agrees with the rules".to_string()
            } else if let Some(w) = r.reasons.get(lang) {
                format!("differs from the rules (expected: {w})")
            } else {
                "differs from the rules".to_string()
            };
            out.push_str(&format!("  {lang}: {}  — {verdict}\n", shown.join(", ")));
        }
        out.push('\n');
    }
    for m in &c.missing {
        out.push_str(&format!(
            "{}: missing from {}{}\n",
            m.reference,
            m.missing_in,
            match &m.reason {
                Some(w) => format!(" (expected: {w})"),
                None => String::new(),
            }
        ));
        for (lang, lines) in &m.stated_in {
            let name = name_of(lang);
            let shown: Vec<String> = lines.iter().map(|l| format!("{name}:{l}")).collect();
            out.push_str(&format!("  {lang}: stated at {}\n", shown.join(", ")));
        }
        out.push('\n');
    }
    for (l, n) in &c.only_in {
        out.push_str(&format!("facts claimed only in {l}: {n}\n"));
    }
    out
}

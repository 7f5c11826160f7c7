//! Rendering a translation report: miette diagnostics into the rulebook,
//! compact lines for expected findings and uncovered statements, a
//! summary table; and the side-by-side comparison of several languages.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::translate::findings::{Report, Status};

/// At most this many diagnostics are rendered with their passage; the
/// rest are counted (the JSON report holds every finding). Rendering one
/// costs time and memory in proportion to the rulebook's length, so a long
/// text with many findings would otherwise cost their product.
pub const MAX_RENDERED: usize = 100;

/// Renders the report as plain text (no colours).
pub fn render(r: &Report, verbose: bool) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    let mut out = String::new();
    // One at a time: each rendered report holds its own copy of the text.
    for d in r.diagnostics.items.iter().take(MAX_RENDERED) {
        let one = crate::ir::diag::Diagnostics {
            sources: r.diagnostics.sources.clone(),
            items: vec![d.clone()],
        };
        for rep in one.reports() {
            let _ = handler.render_report(&mut out, rep.as_ref());
        }
    }
    let rest = r.diagnostics.items.len().saturating_sub(MAX_RENDERED);
    if rest > 0 {
        out.push_str(&format!(
            "... and {rest} more finding{} like these, not shown (--json FILE writes them all)\n\n",
            if rest == 1 { "" } else { "s" }
        ));
    }
    let section = |title: &str, status: Status, out: &mut String| {
        let items: Vec<_> = r.findings.iter().filter(|f| f.status == status).collect();
        if items.is_empty() {
            return;
        }
        out.push_str(&format!("{title} ({}):\n", items.len()));
        for f in items {
            let what = match status {
                Status::Expected => format!(
                    "{} — {}",
                    f.message,
                    f.reason.as_deref().unwrap_or("no reason given")
                ),
                Status::Stale => format!("{}: remove `expect:` from the claim", f.message),
                Status::Recorded => format!(
                    "{} as recorded — {}",
                    f.text_value.map_or(String::new(), |v| v.to_string()),
                    f.reason.as_deref().unwrap_or("")
                ),
                Status::Noted => format!(
                    "{} — {}",
                    f.text_value.map_or(String::new(), |v| v.to_string()),
                    f.reason.as_deref().unwrap_or("")
                ),
                Status::Confirmed => format!(
                    "{} = {} ({})",
                    f.reference.as_deref().unwrap_or(""),
                    f.rule_value.unwrap_or_default(),
                    f.message
                ),
                _ => format!("{} near here", f.text_value.unwrap_or_default()),
            };
            if f.line == 0 {
                out.push_str(&format!(
                    "  {} (no passage): {what}  «{}»\n",
                    r.rulebook,
                    f.anchor.as_deref().unwrap_or("")
                ));
            } else {
                out.push_str(&format!(
                    "  {}:{}:{}: {what}  «{}»\n",
                    r.rulebook, f.line, f.column, f.passage
                ));
            }
        }
        out.push('\n');
    };
    if verbose {
        section("confirmed", Status::Confirmed, &mut out);
        section(
            "as recorded (no rule fact; checked against the language file)",
            Status::Recorded,
            &mut out,
        );
        section("noted (no rule fact, unchecked)", Status::Noted, &mut out);
    }
    section("expected findings", Status::Expected, &mut out);
    section("stale expectations", Status::Stale, &mut out);
    section(
        "numeric statements no claim covers",
        Status::Uncovered,
        &mut out,
    );
    out.push_str(&summary_table(r));
    out
}

/// The summary table.
pub fn summary_table(r: &Report) -> String {
    let s = &r.summary;
    let mut rows = vec![
        ("rule facts confirmed", s.confirmed.to_string()),
        (
            "recorded values (no rule fact)",
            format!(
                "{} ({:.1}% of the numeric statements)",
                s.recorded, s.recorded_pct
            ),
        ),
        ("noted (unchecked)", s.noted.to_string()),
        ("labels as written", s.labels.to_string()),
        ("rule sentences found", s.sentences.to_string()),
        ("contradicted", s.contradicted.to_string()),
        ("words naming another object", s.word_mismatches.to_string()),
        ("passage not found", s.not_found.to_string()),
        ("expected findings", s.expected.to_string()),
        ("stale expectations", s.stale.to_string()),
    ];
    if !r.variants.is_empty() {
        rows.push((
            "made false by the variant",
            s.changed_by_variant.to_string(),
        ));
    }
    rows.push(("invalid claims", r.invalid.to_string()));
    rows.push((
        "coverage",
        format!(
            "{:.1}% ({} of {} numeric statements checked by the rules)",
            s.coverage, s.covered, s.statements
        ),
    ));
    if let Some(m) = r.min_coverage {
        rows.push(("required coverage", format!("{m}%")));
    }
    rows.push((
        "claimed",
        format!(
            "{:.1}% ({} of {} numeric statements; {} uncovered)",
            s.claimed_pct, s.claimed, s.statements, s.uncovered
        ),
    ));
    if let Some(m) = r.min_claimed {
        rows.push(("required claimed", format!("{m}%")));
    }
    rows.push((
        "numbers checked",
        format!(
            "{} of {} written in digits in the rules sections",
            s.numbers_checked, s.numbers
        ),
    ));
    let mut out = format!(
        "translation check: {} ({}){}\n",
        r.rulebook,
        r.lang,
        if r.variants.is_empty() {
            String::new()
        } else {
            format!(", variants: {}", r.variants.join(", "))
        }
    );
    let w = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    out.push_str(&format!("  {:w$}  {}\n", "", "count"));
    for (k, v) in rows {
        out.push_str(&format!("  {k:w$}  {v}\n"));
    }
    out.push_str(if r.failed() {
        if r.below_coverage() {
            "result: FAILED (something is contradicted, missing or invalid, or coverage or the claimed share is below the required)\n"
        } else {
            "result: FAILED (something is contradicted, missing or invalid)\n"
        }
    } else {
        "result: ok\n"
    });
    out
}

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
    /// Whether the languages state different values.
    pub differs: bool,
    /// The languages whose every statement agrees with the rules.
    pub agrees: Vec<String>,
    /// Per language, the reason recorded for an expected disagreement.
    pub reasons: BTreeMap<String, String>,
}

/// The comparison of several reports.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// Languages compared.
    pub langs: Vec<String>,
    /// Facts stated in at least two languages.
    pub rows: Vec<CompareRow>,
    /// Facts stated in one language only, per language.
    pub only_in: BTreeMap<String, usize>,
}

/// Values read per language, with their lines.
type PerBook = BTreeMap<String, Vec<(usize, i64)>>;

/// Lines up the facts of several reports.
pub fn compare(reports: &[Report]) -> Comparison {
    let mut facts: BTreeMap<(String, usize), (i64, PerBook)> = BTreeMap::new();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut why: BTreeMap<(String, String), String> = BTreeMap::new();
    for r in reports {
        for f in &r.findings {
            let (Some(rf), Some(tv), Some(rv), Some(p)) =
                (&f.reference, f.text_value, f.rule_value, f.players)
            else {
                continue;
            };
            let key = rf.split_whitespace().collect::<String>();
            names.entry(key.clone()).or_insert_with(|| rf.clone());
            if f.status == Status::Expected {
                if let Some(reason) = &f.reason {
                    why.insert((key.clone(), r.lang.clone()), reason.clone());
                }
            }
            let e = facts.entry((key, p)).or_insert((rv, BTreeMap::new()));
            e.1.entry(r.lang.clone()).or_default().push((f.line, tv));
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
        let agree_rules =
            |vals: &Vec<(usize, i64)>| vals.iter().all(|(_, v)| *v == rules || *v == -rules);
        let norm = |vals: &Vec<(usize, i64)>| {
            let mut v: Vec<i64> = vals.iter().map(|(_, v)| v.abs()).collect();
            v.sort();
            v.dedup();
            v
        };
        let sets: Vec<Vec<i64>> = books.values().map(norm).collect();
        let differs = sets.windows(2).any(|w| w[0] != w[1]);
        let agrees = books
            .iter()
            .filter(|(_, v)| agree_rules(v))
            .map(|(l, _)| l.clone())
            .collect();
        let reasons = books
            .keys()
            .filter_map(|l| {
                why.get(&(rf.clone(), l.clone()))
                    .map(|w| (l.clone(), w.clone()))
            })
            .collect();
        rows.push(CompareRow {
            reference: names.get(&rf).cloned().unwrap_or(rf),
            reasons,
            players,
            rules,
            books,
            differs,
            agrees,
        });
    }
    Comparison {
        langs,
        rows,
        only_in,
    }
}

/// Renders a comparison: the differences, then counts.
pub fn render_comparison(c: &Comparison, names: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let diffs: Vec<&CompareRow> = c.rows.iter().filter(|r| r.differs).collect();
    out.push_str(&format!(
        "facts stated in {}: {} in common, {} stated differently\n\n",
        c.langs.join(" and "),
        c.rows.len(),
        diffs.len()
    ));
    for r in &diffs {
        out.push_str(&format!(
            "{} ({} players): rules say {}\n",
            r.reference, r.players, r.rules
        ));
        for (lang, vals) in &r.books {
            let name = names.get(lang).map_or(lang.as_str(), String::as_str);
            let shown: Vec<String> = vals
                .iter()
                .map(|(l, v)| format!("{name}:{l}: {v}"))
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
    for (l, n) in &c.only_in {
        out.push_str(&format!("facts claimed only in {l}: {n}\n"));
    }
    out
}

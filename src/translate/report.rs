//! Rendering a translation report: miette diagnostics into the rulebook,
//! compact lines for expected findings and uncovered statements, a
//! summary table; and the side-by-side comparison of several languages.

use crate::translate::findings::{Report, Status};

pub use crate::translate::compare::{compare, render_comparison, CompareRow, Comparison};

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
                Status::OcrToken => format!(
                    "{} read as what the book prints — {}",
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
                Status::Stated | Status::Derived => f.reference.clone().unwrap_or_default(),
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
        section(
            "digits the OCR made of a word or a mark (no numeric statement)",
            Status::OcrToken,
            &mut out,
        );
        section("rule sentences found", Status::Stated, &mut out);
        section("numbers in relations that hold", Status::Derived, &mut out);
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
        ("numbers in relations that hold", s.derived.to_string()),
        (
            "recorded values (no rule fact)",
            format!(
                "{} ({:.1}% of the numeric statements)",
                s.recorded, s.recorded_pct
            ),
        ),
        ("noted (unchecked)", s.noted.to_string()),
        ("OCR digits read as words", s.ocr_tokens.to_string()),
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
    rows.push((
        "object words checked",
        format!(
            "{} (resources, technologies, temples... named in anchors)",
            s.words_checked
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

//! Diagnostics: every mistake found in a load, rendered by miette with its
//! code, the file, line, column, a caret under the culprit and a help line.

use miette::{LabeledSpan, SourceSpan};

use crate::ir::codes::Code;
use crate::ir::excerpt::SharedSource;
use crate::ir::span::{SourceMap, Span};

/// The most diagnostics a report shows: the rest are counted ("and 4,950
/// more"), so that a file full of mistakes gives a readable report, in
/// time and memory that do not grow with the number of mistakes.
pub const MAX_SHOWN: usize = 50;

/// The longest caret shown, in bytes: a longer span (a whole declaration)
/// is shown by its start.
const MAX_CARET: usize = 200;

/// One mistake in a rules file, YAML file, scenario or log.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// The class of the mistake (stable, unlike the message's wording).
    pub code: Code,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where.
    pub span: Span,
    /// The text under the caret.
    pub label: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Other places worth showing (e.g. the first of two duplicates).
    pub notes: Vec<(Span, String)>,
}

impl Diagnostic {
    /// A diagnostic of class `code` at a span.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            message: message.into(),
            span,
            label: "here".into(),
            help: None,
            notes: Vec::new(),
        }
    }

    /// Sets the caret label.
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Sets the help line.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Adds a secondary location.
    pub fn note(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.notes.push((span, text.into()));
        self
    }
}

/// A "did you mean" help line for a misspelt name, if a candidate is close.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let mut best: Option<(f64, &str)> = None;
    for c in candidates {
        let mut score = strsim::jaro_winkler(name, c);
        // One typo in a short name (`mx` for `max`) scores low on
        // Jaro-Winkler; count it as close.
        if score <= 0.8 && name.len() >= 2 && strsim::damerau_levenshtein(name, c) == 1 {
            score = 0.81;
        }
        // Equal scores go to the smaller name, whatever the candidates' order.
        if score > 0.8 && best.is_none_or(|(s, b)| score > s || (score == s && c < b)) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| format!("did you mean `{c}`?"))
}

/// All the diagnostics of one load, with the sources they point into.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics {
    /// The files read.
    pub sources: SourceMap,
    /// The mistakes found, in the order found.
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Whether nothing went wrong.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Records a mistake.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// Whether as many diagnostics as a report shows are recorded: the
    /// ones found from now on are only counted, so a costly help line
    /// ("did you mean") need not be computed for them.
    pub fn is_full(&self) -> bool {
        self.items.len() >= MAX_SHOWN
    }

    /// One miette report per diagnostic shown (the first [`MAX_SHOWN`]),
    /// then, if there are more, one saying how many are not shown.
    pub fn reports(&self) -> Vec<miette::Report> {
        let mut out: Vec<miette::Report> = self
            .items
            .iter()
            .take(MAX_SHOWN)
            .map(|d| render_one(&self.sources, d))
            .collect();
        if let Some(more) = self.not_shown() {
            out.push(miette::Report::new(
                miette::MietteDiagnostic::new(more)
                    .with_help("fix the mistakes shown and check again"),
            ));
        }
        out
    }

    /// "and 4,950 more errors, not shown", when some are not.
    fn not_shown(&self) -> Option<String> {
        let more = self.items.len().checked_sub(MAX_SHOWN).filter(|&n| n > 0)?;
        Some(format!(
            "and {} more error{}, not shown (the first {MAX_SHOWN} are)",
            thousands(more),
            if more == 1 { "" } else { "s" }
        ))
    }

    /// Renders the diagnostics shown as text (no colours), for snapshots
    /// and logs.
    pub fn render_plain(&self) -> String {
        let handler =
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .with_width(100);
        let mut out = String::new();
        for r in self.reports() {
            let _ = handler.render_report(&mut out, r.as_ref());
        }
        out.push_str(&format!(
            "{} error{} found\n",
            thousands(self.items.len()),
            if self.items.len() == 1 { "" } else { "s" }
        ));
        out
    }

    /// One line per diagnostic: `file:line:col: message [tabula::code]`.
    pub fn summary_lines(&self) -> Vec<String> {
        self.items
            .iter()
            .map(|d| {
                format!(
                    "{}: {} [{}]",
                    self.sources.locate(d.span),
                    d.message,
                    d.code
                )
            })
            .collect()
    }
}

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for line in self.summary_lines() {
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// A whole number with a comma between thousands: `4,950`.
pub fn thousands(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The span miette underlines: a span running over several lines, or
/// very long, is cut to its start (its first line, at most [`MAX_CARET`]
/// bytes), so that a report never prints a whole file.
fn source_span(sources: &SourceMap, span: Span) -> SourceSpan {
    let file = sources.file(span.file);
    let text: &str = &file.text;
    let start = (span.start as usize).min(text.len());
    let line_end = file.lines.line_start(file.lines.line_of(start) + 1, text);
    let mut end = (span.end as usize)
        .min(text.len())
        .min(start + MAX_CARET)
        .max(start);
    if end > line_end {
        end = line_end.saturating_sub(1).max(start);
    }
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    SourceSpan::new(start.into(), end - start)
}

fn render_one(sources: &SourceMap, d: &Diagnostic) -> miette::Report {
    let file = sources.file(d.span.file);
    let mut labels = vec![LabeledSpan::new_primary_with_span(
        Some(d.label.clone()),
        source_span(sources, d.span),
    )];
    let mut extra = String::new();
    for (span, text) in &d.notes {
        if span.file == d.span.file {
            labels.push(LabeledSpan::new_with_span(
                Some(text.clone()),
                source_span(sources, *span),
            ));
        } else {
            extra.push_str(&format!("\n{}: {}", sources.locate(*span), text));
        }
    }
    let mut diag =
        miette::MietteDiagnostic::new(format!("{}: {}", sources.locate(d.span), d.message))
            .with_code(d.code.to_string())
            .with_labels(labels);
    let help = match (&d.help, extra.is_empty()) {
        (Some(h), true) => Some(h.clone()),
        (Some(h), false) => Some(format!("{h}{extra}")),
        (None, false) => Some(extra.trim_start().to_string()),
        (None, true) => None,
    };
    if let Some(h) = help {
        diag = diag.with_help(h);
    }
    miette::Report::new(diag).with_source_code(SharedSource::new(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_is_in_the_summary_and_in_the_rendered_report() {
        let mut d = Diagnostics::default();
        let file = d
            .sources
            .add("x.rules", "var x: int;\nfn f() -> int = y;\n");
        d.push(Diagnostic::new(
            Code::UnknownName,
            Span::new(file, 28, 29),
            "unknown name `y`",
        ));
        assert_eq!(
            d.summary_lines(),
            ["x.rules:2:17: unknown name `y` [tabula::unknown_name]"]
        );
        let rendered = d.render_plain();
        assert!(rendered.starts_with("tabula::unknown_name\n"), "{rendered}");
    }
}

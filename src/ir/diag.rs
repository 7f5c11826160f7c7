//! Diagnostics: every mistake found in a load, rendered by miette with its
//! code, the file, line, column, a caret under the culprit and a help line.

use miette::{LabeledSpan, NamedSource, SourceSpan};

use crate::ir::codes::Code;
use crate::ir::span::{SourceMap, Span};

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
        if score > 0.8 && best.is_none_or(|(s, _)| score > s) {
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

    /// One miette report per diagnostic.
    pub fn reports(&self) -> Vec<miette::Report> {
        self.items
            .iter()
            .map(|d| render_one(&self.sources, d))
            .collect()
    }

    /// Renders every diagnostic as text (no colours), for snapshots and logs.
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
            self.items.len(),
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

fn source_span(span: Span) -> SourceSpan {
    SourceSpan::new((span.start as usize).into(), span.len())
}

fn render_one(sources: &SourceMap, d: &Diagnostic) -> miette::Report {
    let file = sources.file(d.span.file);
    let mut labels = vec![LabeledSpan::new_primary_with_span(
        Some(d.label.clone()),
        source_span(d.span),
    )];
    let mut extra = String::new();
    for (span, text) in &d.notes {
        if span.file == d.span.file {
            labels.push(LabeledSpan::new_with_span(
                Some(text.clone()),
                source_span(*span),
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
    miette::Report::new(diag)
        .with_source_code(NamedSource::new(file.name.clone(), file.text.to_string()))
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

//! The rules-language parser on its own: every file under `tests/parser/ok/`
//! must parse (its AST, spans included, is snapshotted) and every file under
//! `tests/parser/err/` must be rejected (its syntax error, rendered as the
//! loader would render it, is snapshotted). Snapshots: `tests/parser/snapshots/`.

use std::path::Path;

use tabula::lang::parser::parse_file;
use tabula::model::load::syntax_diag;
use tabula::model::Diagnostics;

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("parser/snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

/// `{:#?}` of the AST with every `Span { file, start, end }` on one line.
fn compact_debug(ast: &impl std::fmt::Debug) -> String {
    let text = format!("{ast:#?}");
    let mut out = String::with_capacity(text.len());
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim_end().ends_with("Span {") {
            let mut fields = Vec::new();
            for inner in lines.by_ref() {
                let t = inner.trim();
                if t.starts_with('}') {
                    out.push_str(
                        &line.replace("Span {", &format!("Span({}..{})", fields[1], fields[2])),
                    );
                    out.push_str(t.trim_start_matches('}'));
                    out.push('\n');
                    break;
                }
                let value = t
                    .split(':')
                    .nth(1)
                    .unwrap_or("")
                    .trim()
                    .trim_end_matches(',');
                fields.push(value.to_string());
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn name(path: &Path) -> String {
    let dir = path
        .parent()
        .and_then(|d| d.file_name())
        .map(|d| d.to_string_lossy().to_string())
        .unwrap_or_default();
    let file = path.file_name().expect("file name").to_string_lossy();
    format!("{dir}/{file}")
}

#[test]
fn accepted_inputs_parse() {
    let _guard = settings().bind_to_scope();
    insta::glob!("parser/ok/*.rules", |path| {
        let text = std::fs::read_to_string(path).expect("readable");
        match parse_file(0, &text) {
            Ok(ast) => insta::assert_snapshot!(compact_debug(&ast)),
            Err(e) => {
                let mut d = Diagnostics::default();
                d.sources.add(name(path), text.as_str());
                d.push(syntax_diag(e));
                panic!("{} should parse:\n{}", name(path), d.render_plain());
            }
        }
    });
}

#[test]
fn rejected_inputs_fail_with_a_located_error() {
    let _guard = settings().bind_to_scope();
    insta::glob!("parser/err/*.rules", |path| {
        let text = std::fs::read_to_string(path).expect("readable");
        match parse_file(0, &text) {
            Ok(ast) => panic!("{} should not parse, but gave {ast:#?}", name(path)),
            Err(e) => {
                let mut d = Diagnostics::default();
                d.sources.add(name(path), text.as_str());
                d.push(syntax_diag(e));
                insta::assert_snapshot!(d.render_plain());
            }
        }
    });
}

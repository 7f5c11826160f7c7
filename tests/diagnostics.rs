//! Every broken ruleset under `tests/diagnostics/<case>/` must fail to load
//! with the diagnostics its `game.yaml` header announces:
//!
//! ```yaml
//! # expect: unknown name `pil`
//! # code: tabula::unknown_name
//! # at: nim.rules:12:42
//! # help: did you mean `pile`?
//! ```
//!
//! `expect` is a substring of a diagnostic's message; the lines after it
//! constrain that same diagnostic: `code` (required) is its code, `at`
//! (optional) its exact `file:line:col` (file relative to the case
//! directory) and `help` (optional) a substring of its help line. Several
//! `expect` blocks may follow each other; each must match a different
//! diagnostic. The whole rendered report is snapshotted with insta in
//! `tests/diagnostics/snapshots/`.

use tabula::model::{load, Code, LoadError};

#[derive(Debug, Default)]
struct Expectation {
    message: String,
    code: Option<Code>,
    at: Option<String>,
    help: Option<String>,
}

fn header(text: &str) -> Vec<Expectation> {
    let mut out: Vec<Expectation> = Vec::new();
    for line in text.lines() {
        let Some(comment) = line.strip_prefix('#') else {
            break;
        };
        let comment = comment.trim();
        let Some((key, value)) = comment.split_once(':') else {
            continue;
        };
        let value = value.trim().to_string();
        match key.trim() {
            "expect" => out.push(Expectation {
                message: value,
                ..Default::default()
            }),
            "code" => {
                let code = Code::from_name(&value)
                    .unwrap_or_else(|| panic!("`code: {value}` is not a code of src/ir/codes.rs"));
                out.last_mut().expect("`code:` after `expect:`").code = Some(code);
            }
            "at" => out.last_mut().expect("`at:` after `expect:`").at = Some(value),
            "help" => out.last_mut().expect("`help:` after `expect:`").help = Some(value),
            _ => {}
        }
    }
    out
}

#[test]
fn broken_rulesets_are_reported() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("diagnostics/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    let _guard = settings.bind_to_scope();
    insta::glob!("diagnostics/*/game.yaml", |path| {
        let dir = path.parent().expect("case directory");
        let case = dir
            .file_name()
            .expect("case name")
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(path).expect("game.yaml readable");
        let expectations = header(&text);
        assert!(
            !expectations.is_empty(),
            "{case}: game.yaml has no `# expect:` header"
        );
        for e in &expectations {
            assert!(
                e.code.is_some(),
                "{case}: `# expect: {}` needs a `# code: tabula::...` line",
                e.message
            );
        }
        let diags = match load(dir, &[]) {
            Ok(_) => panic!("{case}: the ruleset loaded, but it is broken"),
            Err(LoadError::NotFound { message, .. }) => {
                panic!("{case}: not found rather than invalid: {message}")
            }
            Err(LoadError::Invalid(d)) => d,
        };
        let rendered = diags.render_plain();
        let prefix = format!("{case}/");
        let mut used = vec![false; diags.items.len()];
        for e in &expectations {
            let found = diags.items.iter().enumerate().position(|(i, d)| {
                let at = diags.sources.locate(d.span);
                let at = at.strip_prefix(&prefix).unwrap_or(&at);
                !used[i]
                    && d.message.contains(&e.message)
                    && e.code == Some(d.code)
                    && e.at.as_deref().is_none_or(|want| at == want)
                    && e.help
                        .as_deref()
                        .is_none_or(|want| d.help.as_deref().is_some_and(|h| h.contains(want)))
            });
            match found {
                Some(i) => used[i] = true,
                None => panic!(
                    "{case}: no diagnostic matches {e:?}\nthe diagnostics were:\n{}\n{rendered}",
                    diags.summary_lines().join("\n")
                ),
            }
        }
        insta::assert_snapshot!(rendered);
    });
}

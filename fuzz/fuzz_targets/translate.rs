//! Rulebook texts, checked as `tabula translate rules/tzolkin` checks them.
//!
//! The input is a rulebook text (an invented excerpt; the corpus holds no
//! real rulebook). Its first line picks the language file of claims when
//! it is `#@NAME`: `#@mini.ro` (the invented fixture
//! tests/translate/mini.ro.yaml), `#@pt` or `#@ro` (rules/tzolkin's
//! i18n/pt.yaml or ro.yaml); anything else uses
//! tests/translate/mini.pt.yaml. The check reports findings; it must never
//! panic, hang or blow up memory. The report is rendered as text
//! (verbose) and as JSON.
//!
//! The command's steps that do not depend on the text (loading
//! rules/tzolkin, reading the language file) are done once per process:
//! loading Tzolk'in at every input made the target 20 times slower. Each
//! input then goes through what `tabula translate` does with a book: read
//! from a file with the rulebook size limit, checked by a fresh evaluator
//! over a copy of the ruleset (`translate::run`), rendered.
//!
//! Reproduce a finding: `tabula translate rules/tzolkin --rulebook CRASH
//! --lang pt --claims tests/translate/mini.pt.yaml -v --json out.json`
//! (the claims as the first line says).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tabula::scenario::origin::read_limited;
use tabula::translate::claims::{self, I18n};
use tabula::translate::{check, report, Book, Evaluator, MAX_BOOK_BYTES};
use tabula::Ruleset;
use tabula_fuzz::{in_project, quietly, scratch, selector, write};

/// What every input shares: the scratch directory, the ruleset, the four
/// language files.
struct Fixed {
    dir: PathBuf,
    tzolkin: PathBuf,
    rules: Ruleset,
    claims: Vec<(&'static str, I18n)>,
}

fn fixed() -> &'static Fixed {
    static FIXED: OnceLock<Fixed> = OnceLock::new();
    FIXED.get_or_init(|| {
        let tzolkin = in_project("rules/tzolkin");
        let rules = tabula::load(&tzolkin, &[]).expect("rules/tzolkin loads");
        let claims = [
            ("pt", "rules/tzolkin/i18n/pt.yaml"),
            ("ro", "rules/tzolkin/i18n/ro.yaml"),
            ("mini.ro", "tests/translate/mini.ro.yaml"),
            ("mini.pt", "tests/translate/mini.pt.yaml"),
        ]
        .into_iter()
        .map(|(key, rel)| {
            let mut diags = tabula::Diagnostics::default();
            let i18n = claims::read(&in_project(rel), rel, &mut diags)
                .ok()
                .filter(|_| diags.is_empty())
                .unwrap_or_else(|| panic!("{rel} reads without a mistake"));
            (key, i18n)
        })
        .collect();
        Fixed {
            dir: scratch("translate"),
            tzolkin,
            rules,
            claims,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let f = fixed();
    let key = match selector(data) {
        Some(k @ ("pt" | "ro" | "mini.ro")) => k,
        _ => "mini.pt",
    };
    let i18n = &f.claims.iter().find(|(k, _)| *k == key).expect("a key").1;
    let path = write(&f.dir, "book.txt", data);
    quietly(|| {
        // As `tabula translate` reads a rulebook (a text that is not UTF-8,
        // or too long, is an error).
        let Ok(text) = read_limited(&path, MAX_BOOK_BYTES, "a rulebook") else {
            return;
        };
        let mut ev = Evaluator::new(f.rules.clone()).with_dir(&f.tzolkin);
        let book = Book {
            name: "book.txt",
            text: &text,
        };
        let r = check::check(&mut ev, None, i18n, &book, &[]);
        let _ = report::render(&r, true);
        let _ = serde_json::to_string_pretty(&r);
    });
});

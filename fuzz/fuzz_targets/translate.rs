//! Rulebook texts, checked by `tabula translate rules/tzolkin`.
//!
//! The input is a rulebook text (an invented excerpt; the corpus holds no
//! real rulebook). Its first line picks the language file of claims when
//! it is `#@NAME`: `#@mini.ro` (the invented fixture
//! tests/translate/mini.ro.yaml), `#@pt` or `#@ro` (rules/tzolkin's
//! i18n/pt.yaml or ro.yaml); anything else uses
//! tests/translate/mini.pt.yaml. The check reports findings or errors; it
//! must never panic, hang or blow up memory. The report (text and JSON) is
//! rendered too.
//!
//! Reproduce a finding: `tabula translate rules/tzolkin --rulebook CRASH
//! --lang pt --claims tests/translate/mini.pt.yaml` (the claims as the
//! first line says).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tabula::translate::{cli_run, TranslateArgs};
use tabula_fuzz::{in_project, quietly, scratch, selector, write};

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| scratch("translate"))
}

/// The language and the claims file the input's first line names.
fn claims_for(data: &[u8]) -> (&'static str, PathBuf) {
    match selector(data) {
        Some("pt") => ("pt", in_project("rules/tzolkin/i18n/pt.yaml")),
        Some("ro") => ("ro", in_project("rules/tzolkin/i18n/ro.yaml")),
        Some("mini.ro") => ("ro", in_project("tests/translate/mini.ro.yaml")),
        _ => ("pt", in_project("tests/translate/mini.pt.yaml")),
    }
}

fuzz_target!(|data: &[u8]| {
    let book = write(dir(), "book.txt", data);
    let json = dir().join("report.json");
    let (lang, claims) = claims_for(data);
    let args = TranslateArgs {
        ruleset: in_project("rules/tzolkin").display().to_string(),
        rulebook: Some(book),
        lang: Some(lang.into()),
        variants: Vec::new(),
        json: Some(json),
        compare: Vec::new(),
        claims: Some(claims),
        min_coverage: None,
        verbose: true,
    };
    quietly(|| cli_run(&args));
});

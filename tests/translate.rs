//! `tabula translate`: invented fixtures (always run), and the Tzolk'in
//! rulebooks from `../shared/rulebooks/` when that folder exists.

use std::path::{Path, PathBuf};

use tabula::translate::{self, report, Report, Status};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tzolkin() -> PathBuf {
    root().join("rules/tzolkin")
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/translate").join(name)
}

fn check_text(
    ruleset: &Path,
    variants: &[String],
    lang: &str,
    claims: Option<&Path>,
    name: &str,
    text: &str,
) -> Report {
    match translate::run(ruleset, variants, lang, claims, name, text) {
        Ok(r) => r,
        Err(e) => panic!("{}", e.render()),
    }
}

fn mini(lang: &str) -> (String, Report) {
    let text = std::fs::read_to_string(fixture(&format!("mini.{lang}.txt"))).unwrap();
    let claims = fixture(&format!("mini.{lang}.yaml"));
    let r = check_text(
        &tzolkin(),
        &[],
        lang,
        Some(&claims),
        &format!("mini.{lang}.txt"),
        &text,
    );
    (text, r)
}

fn count(r: &Report, s: Status) -> usize {
    r.findings.iter().filter(|f| f.status == s).count()
}

#[test]
fn mini_pt_report() {
    let (_, r) = mini("pt");
    let out = report::render(&r, true);
    assert_eq!(count(&r, Status::Confirmed), 7, "{out}");
    assert_eq!(count(&r, Status::Contradicted), 1, "{out}");
    assert_eq!(count(&r, Status::Expected), 2, "{out}");
    assert_eq!(count(&r, Status::Uncovered), 1, "{out}");
    assert_eq!(count(&r, Status::NotFound), 0, "{out}");
    let c = r
        .findings
        .iter()
        .find(|f| f.status == Status::Contradicted)
        .unwrap();
    assert_eq!((c.line, c.text_value, c.rule_value), (10, Some(4), Some(3)));
    let u = r
        .findings
        .iter()
        .find(|f| f.status == Status::Uncovered)
        .unwrap();
    assert_eq!((u.line, u.text_value), (12, Some(7)));
    // The hyphenated line break and the page-break mark do not hide passages.
    let feed = r
        .findings
        .iter()
        .find(|f| f.reference.as_deref() == Some("feed_cost"))
        .unwrap();
    assert_eq!((feed.line, feed.status), (4, Status::Confirmed));
    let skulls = r
        .findings
        .iter()
        .find(|f| f.reference.as_deref() == Some("skull_supply"))
        .unwrap();
    assert_eq!((skulls.line, skulls.status), (6, Status::Confirmed));
    // A lost minus sign is accepted.
    let chaac = r
        .findings
        .iter()
        .find(|f| f.reference.as_deref() == Some("chaac.vp[0]"))
        .unwrap();
    assert_eq!(chaac.status, Status::Confirmed);
    assert!(chaac.message.contains("minus"));
    assert!(r.failed());
    assert!(out.contains("mini.pt.txt:10:"), "{out}");
    insta::assert_snapshot!("mini_pt", out);
}

#[test]
fn mini_ro_report() {
    let (_, r) = mini("ro");
    let out = report::render(&r, false);
    assert_eq!(count(&r, Status::Confirmed), 8, "{out}");
    assert!(!r.failed(), "{out}");
    assert_eq!(r.summary.coverage, 100.0, "{out}");
    insta::assert_snapshot!("mini_ro", out);
}

#[test]
fn mini_json_carries_the_findings() {
    let (_, r) = mini("pt");
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["summary"]["contradicted"], 1);
    assert_eq!(v["lang"], "pt");
    let f = v["findings"].as_array().unwrap();
    assert!(f
        .iter()
        .any(|f| f["status"] == "contradicted" && f["line"] == 10 && f["ref"] == "offering_cost"));
}

#[test]
fn mini_compare() {
    let (_, pt) = mini("pt");
    let (_, ro) = mini("ro");
    let c = report::compare(&[pt, ro]);
    let diffs: Vec<_> = c.rows.iter().filter(|r| r.differs).collect();
    assert_eq!(diffs.len(), 1, "{c:#?}");
    assert_eq!(diffs[0].reference, "start_workers");
    assert_eq!(diffs[0].agrees, ["ro"]);
}

/// Changes the number of every confirmed fact, one at a time, and asserts
/// the report flags that line. Returns how many were mutated.
fn mutate_all(
    ruleset: &Path,
    lang: &str,
    claims: Option<&Path>,
    name: &str,
    text: &str,
    base: &Report,
) -> usize {
    let mut seen = std::collections::HashSet::new();
    let mut n = 0;
    for f in base
        .findings
        .iter()
        .filter(|f| f.status == Status::Confirmed)
    {
        let (a, b) = f.span.unwrap();
        if !seen.insert(a) {
            continue;
        }
        let old = f.text_value.unwrap();
        let new = if old.abs() == 9 { 7 } else { old.abs() + 1 };
        let mut t = String::with_capacity(text.len());
        t.push_str(&text[..a]);
        t.push_str(&new.to_string());
        t.push_str(&text[b..]);
        let r = check_text(ruleset, &[], lang, claims, name, &t);
        assert!(
            r.findings
                .iter()
                .any(|g| g.status == Status::Contradicted && g.line == f.line),
            "{name}: changing {old} to {new} at line {} (`{}`) was not flagged:\n{}",
            f.line,
            f.reference.as_deref().unwrap_or(""),
            report::render(&r, false)
        );
        assert!(r.failed());
        n += 1;
    }
    n
}

#[test]
fn mini_mutations_are_flagged() {
    for lang in ["pt", "ro"] {
        let (text, r) = mini(lang);
        let claims = fixture(&format!("mini.{lang}.yaml"));
        let n = mutate_all(
            &tzolkin(),
            lang,
            Some(&claims),
            &format!("mini.{lang}.txt"),
            &text,
            &r,
        );
        assert!(n >= 6, "{lang}: only {n} mutations");
    }
}

#[test]
fn bad_reference_is_a_diagnostic_into_the_language_file() {
    let dir = std::env::temp_dir().join(format!("tabula-translate-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let claims = dir.join("bad.yaml");
    std::fs::write(
        &claims,
        "lang: pt\nclaims:\n  - at: \"come # milhos\"\n    ref: feed_cots\n",
    )
    .unwrap();
    let r = check_text(
        &tzolkin(),
        &[],
        "pt",
        Some(&claims),
        "t.txt",
        "come 2 milhos",
    );
    assert!(r.failed());
    let out = report::render(&r, false);
    assert!(out.contains("bad.yaml:4:10"), "{out}");
    assert!(out.contains("feed_cost"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

fn rulebooks() -> Option<PathBuf> {
    let d = root().join("../shared/rulebooks");
    if d.join("tzolkin.pt.txt").exists() {
        Some(d)
    } else {
        eprintln!("skipped: {} not found", d.display());
        None
    }
}

fn book(lang: &str) -> Option<(String, String)> {
    let d = rulebooks()?;
    let name = format!("tzolkin.{lang}.txt");
    Some((std::fs::read_to_string(d.join(&name)).unwrap(), name))
}

#[test]
fn tzolkin_rulebooks_have_no_unexpected_finding() {
    for lang in ["pt", "ro"] {
        let Some((text, name)) = book(lang) else {
            return;
        };
        let r = check_text(&tzolkin(), &[], lang, None, &name, &text);
        let out = report::render(&r, false);
        assert!(!r.failed(), "{out}");
        assert_eq!(count(&r, Status::Stale), 0, "{out}");
        eprintln!("{lang}: coverage {:.1}%", r.summary.coverage);
    }
}

#[test]
fn tzolkin_mutations_are_flagged() {
    for lang in ["pt", "ro"] {
        let Some((text, name)) = book(lang) else {
            return;
        };
        let r = check_text(&tzolkin(), &[], lang, None, &name, &text);
        let n = mutate_all(&tzolkin(), lang, None, &name, &text, &r);
        assert!(n >= 30, "{lang}: only {n} claims mutated");
    }
}

/// Builds a ruleset directory: Tzolk'in with the variants of
/// tests/translate/variants/.
fn tzolkin_with_test_variants() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-translate-variant-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tzolkin/variants")).unwrap();
    for e in std::fs::read_dir(tzolkin()).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), dir.join("tzolkin").join(e.file_name())).unwrap();
        }
    }
    std::fs::create_dir_all(dir.join("tzolkin/i18n")).unwrap();
    for e in std::fs::read_dir(tzolkin().join("i18n")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join("tzolkin/i18n").join(e.file_name())).unwrap();
    }
    for e in std::fs::read_dir(fixture("variants")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join("tzolkin/variants").join(e.file_name())).unwrap();
    }
    dir.join("tzolkin")
}

#[test]
fn variant_names_the_passages_stating_the_old_cost() {
    let rs = tzolkin_with_test_variants();
    let v = vec!["dear_food".to_string()];
    // The invented fixture: its one feeding sentence.
    let (text, _) = mini("pt");
    let r = check_text(
        &rs,
        &v,
        "pt",
        Some(&fixture("mini.pt.yaml")),
        "mini.pt.txt",
        &text,
    );
    let changed: Vec<_> = r.findings.iter().filter(|f| f.changed_by_variant).collect();
    assert_eq!(changed.len(), 1, "{}", report::render(&r, false));
    assert_eq!(
        (
            changed[0].line,
            changed[0].text_value,
            changed[0].rule_value,
            changed[0].base_value
        ),
        (4, Some(2), Some(3), Some(2))
    );
    let out = report::render(&r, false);
    assert!(
        out.contains("dear_food changes `feed_cost` from 2 to 3"),
        "{out}"
    );
    // The full rulebooks: every passage stating the feeding cost is named.
    for lang in ["pt", "ro"] {
        let Some((text, name)) = book(lang) else {
            break;
        };
        let r = check_text(&rs, &v, lang, None, &name, &text);
        let changed: Vec<_> = r.findings.iter().filter(|f| f.changed_by_variant).collect();
        assert!(!changed.is_empty(), "{lang}");
        assert!(
            changed
                .iter()
                .all(|f| f.reference.as_deref() == Some("feed_cost")),
            "{lang}"
        );
        let base = check_text(&tzolkin(), &[], lang, None, &name, &text);
        let stated = base
            .findings
            .iter()
            .filter(|f| {
                f.reference.as_deref() == Some("feed_cost") && f.status == Status::Confirmed
            })
            .count();
        assert_eq!(
            changed.len(),
            stated,
            "{lang}: every confirmed feeding-cost passage is named"
        );
    }
    std::fs::remove_dir_all(rs.parent().unwrap()).ok();
}

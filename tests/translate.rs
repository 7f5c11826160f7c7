//! `tabula translate`: invented fixtures (always run), and the Tzolk'in
//! (pt, ro) and Mexica (pt) rulebooks from `../shared/rulebooks/` when that
//! folder exists.

use std::path::{Path, PathBuf};

use tabula::translate::{self, report, Report, Status};

// The real rulebooks, beside this file's fixtures.
#[path = "translate/books.rs"]
mod books;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tzolkin() -> PathBuf {
    root().join("rules/tzolkin")
}

fn mexica() -> PathBuf {
    root().join("rules/mexica")
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
    assert_eq!(count(&r, Status::Confirmed), 5, "{out}");
    // The player count and the monuments dealt, tied by a relation.
    assert_eq!(count(&r, Status::Derived), 2, "{out}");
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
    assert_eq!(count(&r, Status::Confirmed), 11, "{out}");
    assert_eq!(count(&r, Status::Derived), 2, "{out}");
    assert_eq!(count(&r, Status::Recorded), 1, "{out}");
    assert_eq!(r.summary.labels, 1, "{out}");
    assert!(!r.failed(), "{out}");
    // The worked example's numbers come from its scenario file.
    let ex: Vec<_> = r
        .findings
        .iter()
        .filter(|f| {
            f.reference
                .as_deref()
                .is_some_and(|x| x.starts_with("13-feeding: "))
        })
        .map(|f| (f.line, f.text_value, f.rule_value))
        .collect();
    assert_eq!(
        ex,
        [
            (10, Some(3), Some(3)),
            (10, Some(5), Some(5)),
            (10, Some(4), Some(4))
        ],
        "{out}"
    );
    // Every number written in digits is checked.
    assert_eq!(r.summary.numbers, r.summary.numbers_checked, "{out}");
    assert_eq!(r.summary.claimed_pct, 100.0, "{out}");
    // Coverage counts what the rules check: not the recorded value nor
    // the label.
    assert!(r.summary.coverage < 100.0, "{out}");
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
    // pt states 4 corn for an offering and two starting workers; ro the
    // rules' 3 and three.
    let names: Vec<&str> = diffs.iter().map(|r| r.reference.as_str()).collect();
    assert_eq!(
        names,
        ["chaac.vp[0]", "offering_cost", "start_workers"],
        "{c:#?}"
    );
    // pt writes the minus point without its sign (`perde 1 ponto`), ro
    // with it: a difference by the sign, which both books' numbers agree
    // with.
    assert!(diffs[0].sign_differs, "{c:#?}");
    assert_eq!(diffs[0].agrees, ["pt", "ro"], "{c:#?}");
    let diffs = &diffs[1..];
    assert!(diffs.iter().all(|r| r.agrees == ["ro"]), "{c:#?}");
    // The expected disagreement carries its reason.
    let sw = diffs[1];
    assert!(sw.reasons["pt"].contains("wrong on purpose"), "{c:#?}");
}

/// A deterministic pseudo-random sequence (xorshift), for sampling.
fn sample<T: Clone>(items: &[T], n: usize, seed: u64) -> Vec<T> {
    let mut x = seed.max(1);
    let mut pool: Vec<T> = items.to_vec();
    let mut out = Vec::new();
    while out.len() < n && !pool.is_empty() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.push(pool.swap_remove((x % pool.len() as u64) as usize));
    }
    out
}

/// Changes each of the given numbers of the rules sections (written in
/// digits), one at a time, in a copy of the text; returns the lines where
/// the report did not fail with a finding on the changed line.
fn mutate_sites(
    ruleset: &Path,
    lang: &str,
    claims: Option<&Path>,
    name: &str,
    text: &str,
    sites: &[translate::check::Site],
) -> Vec<String> {
    let mut missed = Vec::new();
    for s in sites {
        let (a, b) = s.span;
        let digits: String = text[a..b]
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let at = a + text[a..b].find(&digits).unwrap();
        let v: u64 = digits.parse().unwrap();
        let new = if v == 9 { 7 } else { v + 1 };
        let t = format!("{}{new}{}", &text[..at], &text[at + digits.len()..]);
        let r = check_text(ruleset, &[], lang, claims, name, &t);
        let flagged = r.failed()
            && r.findings.iter().any(|f| {
                f.line == s.line && matches!(f.status, Status::Contradicted | Status::Uncovered)
            });
        if !flagged {
            missed.push(format!("{name}:{}: `{}` -> {new}", s.line, s.text));
        }
    }
    missed
}

/// Changes the number of every confirmed fact (or of a seeded sample of
/// `limit` of them), one at a time, and asserts the report flags that
/// line. Returns how many were mutated.
fn mutate_all(
    ruleset: &Path,
    lang: &str,
    claims: Option<&Path>,
    name: &str,
    text: &str,
    base: &Report,
    limit: Option<usize>,
) -> usize {
    let mut seen = std::collections::HashSet::new();
    let mut n = 0;
    let confirmed: Vec<_> = base
        .findings
        .iter()
        .filter(|f| matches!(f.status, Status::Confirmed | Status::Derived))
        .cloned()
        .collect();
    let chosen = match limit {
        Some(k) => sample(&confirmed, k, 0x5eed + lang.len() as u64),
        None => confirmed,
    };
    for f in &chosen {
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
            None,
        );
        assert!(n >= 6, "{lang}: only {n} mutations");
    }
    // Every number of the Romanian fixture, changed in turn, is reported
    // on its line: facts, a worked example, a recorded value, labels,
    // list items.
    let (text, r) = mini("ro");
    assert!(r.numbers.len() >= 14, "{}", r.numbers.len());
    let claims = fixture("mini.ro.yaml");
    let missed = mutate_sites(
        &tzolkin(),
        "ro",
        Some(&claims),
        "mini.ro.txt",
        &text,
        &r.numbers,
    );
    assert!(missed.is_empty(), "{missed:#?}");
}

#[test]
fn changed_label_is_reported_on_its_line() {
    let (text, _) = mini("ro");
    let t = text.replace("Acțiunea 1 de pe Uxmal", "Acțiunea 2 de pe Uxmal");
    let claims = fixture("mini.ro.yaml");
    let r = check_text(&tzolkin(), &[], "ro", Some(&claims), "mini.ro.txt", &t);
    let out = report::render(&r, false);
    assert!(r.failed(), "{out}");
    let f = r
        .findings
        .iter()
        .find(|f| f.status == Status::Contradicted)
        .unwrap();
    assert_eq!((f.line, f.text_value), (13, Some(2)), "{out}");
    assert!(
        out.contains("rulebook says 2 where the claim reads 1"),
        "{out}"
    );
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

/// The object word after a checked number, outside the anchor, must be
/// one the fact counts: `custa 4 pedras` is flagged for `farm_all_1.cost[wood]`
/// although the anchor stops at the number; arithmetic facts (whose unit
/// may be another object) are left alone.
#[test]
fn noun_after_a_number_outside_the_anchor() {
    let dir = std::env::temp_dir().join(format!("tabula-nouns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let claims = dir.join("pt.yaml");
    std::fs::write(
        &claims,
        "lang: pt\nglossary:\n  wood: [madeira*]\n  stone: [pedra*]\n  corn: [milho*]\n  worker: [trabalhador*]\nclaims:\n  - at: \"a fazenda grande custa #\"\n    ref: farm_all_1.cost[wood]\n  - at: \"alimentar #\"\n    ref: \"8 / feed_cost\"\n",
    )
    .unwrap();
    let run = |text: &str| check_text(&tzolkin(), &[], "pt", Some(&claims), "n.pt.txt", text);
    let good = run("A fazenda grande custa 4 madeiras.\nPode alimentar 4 trabalhadores.\n");
    assert!(!good.failed(), "{}", report::render(&good, false));
    assert_eq!(count(&good, Status::WordMismatch), 0);
    let bad = run("A fazenda grande custa 4 pedras.\nPode alimentar 4 trabalhadores.\n");
    std::fs::remove_dir_all(&dir).ok();
    assert!(bad.failed());
    let wrong: Vec<_> = bad
        .findings
        .iter()
        .filter(|f| f.status == Status::WordMismatch)
        .collect();
    assert_eq!(wrong.len(), 1, "{}", report::render(&bad, false));
    assert_eq!((wrong[0].line, wrong[0].column), (1, 26));
}

/// A fact that reads nothing of the rules (a constant) would always
/// confirm: it is an invalid claim.
#[test]
fn constant_fact_is_an_invalid_claim() {
    let dir = std::env::temp_dir().join(format!("tabula-const-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let claims = dir.join("pt.yaml");
    std::fs::write(
        &claims,
        "lang: pt\nglossary:\n  corn: [milho*]\nclaims:\n  - at: \"come # milhos\"\n    ref: \"2\"\n",
    )
    .unwrap();
    let r = translate::run(
        &tzolkin(),
        &[],
        "pt",
        Some(&claims),
        "c.pt.txt",
        "Cada um come 2 milhos.\n",
    );
    std::fs::remove_dir_all(&dir).ok();
    let Err(e) = r else {
        panic!("a constant fact was accepted")
    };
    let shown = e.render();
    assert!(shown.contains("reads nothing of the rules"), "{shown}");
    assert!(shown.contains("pt.yaml:6:10"), "{shown}");
}

/// A relation expected to fail with `stated: N` stays expected only while
/// one of its numbers is N: a further change of the text is reported.
#[test]
fn expected_relation_failure_holds_to_its_stated_number() {
    let dir = std::env::temp_dir().join(format!("tabula-stated-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let claims = dir.join("pt.yaml");
    std::fs::write(
        &claims,
        "lang: pt\nglossary:\n  monument: [monumento*]\nclaims:\n  - at: \"com # jogadores revelam-se # monumentos\"\n    refs: [\"#\", \"#\"]\n    relations: [\"#2 == monuments_dealt[#1]\"]\n    expect: contradicted\n    expect_on: \"#2 == monuments_dealt[#1]\"\n    stated: 6\n    reason: invented\n",
    )
    .unwrap();
    let run = |n: i64| {
        let text = format!("Numa partida com 3 jogadores revelam-se {n} monumentos.\n");
        check_text(&tzolkin(), &[], "pt", Some(&claims), "s.pt.txt", &text)
    };
    let (as_stated, changed) = (run(6), run(7));
    std::fs::remove_dir_all(&dir).ok();
    assert!(!as_stated.failed(), "{}", report::render(&as_stated, false));
    assert_eq!(count(&as_stated, Status::Expected), 2);
    assert!(changed.failed());
    assert_eq!(count(&changed, Status::Contradicted), 2);
}

//! The real rulebooks in `../shared/rulebooks/` (each test is skipped when
//! that folder is missing): no unexpected finding, every confirmed number
//! flagged when changed, and few values only recorded.

use super::*;

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
        let (r, out) = checked_in_full(&tzolkin(), lang, (&name, &text));
        let s = &r.summary;
        // Most are checked against the rules.
        assert!(s.confirmed > s.recorded, "{out}");
        eprintln!(
            "{lang}: coverage {:.1}%; {} confirmed by the rules, {} as recorded, {} labels, {} expected, {} unchecked notes; {} of {} numbers checked",
            s.coverage, s.confirmed, s.recorded, s.labels, s.expected, s.noted, s.numbers_checked, s.numbers
        );
    }
}

#[test]
fn tzolkin_mutations_are_flagged() {
    for lang in ["pt", "ro"] {
        let Some((text, name)) = book(lang) else {
            return;
        };
        let r = check_text(&tzolkin(), &[], lang, None, &name, &text);
        // A seeded sample of the confirmed facts (all of them take minutes).
        let n = mutate_all(&tzolkin(), lang, None, &name, &text, &r, Some(60));
        assert!(n >= 30, "{lang}: only {n} claims mutated");
        // Any number of the rules sections: a seeded sample.
        let seed = 0x7a6f_6c6b + lang.len() as u64;
        sampled_numbers_caught(&tzolkin(), lang, (&name, &text), &r, seed, n);
    }
}

#[test]
fn tzolkin_compare_shows_the_books_differences() {
    let (Some((pt, _)), Some((ro, _))) = (book("pt"), book("ro")) else {
        return;
    };
    let a = check_text(&tzolkin(), &[], "pt", None, "tzolkin.pt.txt", &pt);
    let b = check_text(&tzolkin(), &[], "ro", None, "tzolkin.ro.txt", &ro);
    let c = report::compare(&[a, b]);
    let diffs: Vec<_> = c.rows.iter().filter(|r| r.differs).collect();
    let feeding = diffs
        .iter()
        .find(|r| r.reference == "13-feeding: setup(workers[red])")
        .unwrap_or_else(|| panic!("{c:#?}"));
    assert_eq!(feeding.rules, 3);
    assert_eq!(
        feeding.books["pt"].iter().map(|x| x.1).collect::<Vec<_>>(),
        [3]
    );
    assert_eq!(
        feeding.books["ro"].iter().map(|x| x.1).collect::<Vec<_>>(),
        [4]
    );
    assert_eq!(feeding.agrees, ["pt"]);
    assert!(feeding.reasons.contains_key("ro"));
    // The other difference: the OCR's 132 for the ordinal 13ª in pt.
    let others: Vec<_> = diffs
        .iter()
        .map(|r| r.reference.as_str())
        .filter(|r| *r != "13-feeding: setup(workers[red])")
        .collect();
    assert_eq!(others, ["kukulcan.vp[0]", "skull_supply"], "{c:#?}");
    // The end-of-age example: pt prints `6+0+3` where ro (and the rules)
    // have -3, on both ages' lines.
    let sign = diffs
        .iter()
        .find(|r| r.reference == "kukulcan.vp[0]")
        .unwrap();
    assert!(sign.sign_differs, "{c:#?}");
    assert_eq!(sign.agrees, ["ro"], "{c:#?}");
    let lines = |l: &str| sign.books[l].iter().map(|x| x.0).collect::<Vec<_>>();
    assert_eq!(lines("pt"), [1632, 1647]);
    assert_eq!(lines("ro"), [1592, 1605]);
    assert!(sign.reasons.contains_key("pt"), "{c:#?}");
    // The final tie-break's last step, which the Romanian book drops.
    let missing: Vec<_> = c
        .missing
        .iter()
        .map(|m| {
            (
                m.reference.as_str(),
                m.missing_in.as_str(),
                m.stated_in["pt"].clone(),
                m.expected,
            )
        })
        .collect();
    assert_eq!(
        missing,
        [("rule: tie_break_shared_victory", "ro", vec![1664], true)],
        "{c:#?}"
    );
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
        // Only passages whose facts depend on the feeding cost...
        assert!(
            changed.iter().all(|f| f
                .reference
                .as_deref()
                .is_some_and(|x| x.contains("feed_cost"))),
            "{lang}"
        );
        // ...and every one of them: the cost itself, and what follows
        // from it (farms, the feeding example).
        let base = check_text(&tzolkin(), &[], lang, None, &name, &text);
        let stated: Vec<usize> = base
            .findings
            .iter()
            .filter(|f| {
                f.reference.as_deref() == Some("feed_cost") && f.status == Status::Confirmed
            })
            .map(|f| f.line)
            .collect();
        assert!(stated.len() >= 2, "{lang}");
        for l in &stated {
            assert!(
                changed.iter().any(|f| f.line == *l),
                "{lang}: the feeding-cost passage at line {l} is not named"
            );
        }
        let derived = changed
            .iter()
            .filter(|f| f.reference.as_deref() != Some("feed_cost"))
            .count();
        assert!(
            derived >= 2,
            "{lang}: {derived} passages derived from the cost"
        );
    }
    std::fs::remove_dir_all(rs.parent().unwrap()).ok();
}

/// The Portuguese rulebook of Mexica, when `../shared/rulebooks/` holds it.
fn mexica_book() -> Option<(String, String)> {
    let name = "mexica.pt.txt".to_string();
    let path = root().join("../shared/rulebooks").join(&name);
    if !path.exists() {
        eprintln!("skipped: {} not found", path.display());
        return None;
    }
    Some((std::fs::read_to_string(path).unwrap(), name))
}

#[test]
fn mexica_rulebook_has_no_unexpected_finding() {
    let Some((text, name)) = mexica_book() else {
        return;
    };
    let (r, out) = checked_in_full(&mexica(), "pt", (&name, &text));
    let s = &r.summary;
    // Three statements in four are facts of the rules; the others are the
    // labels of the pictures (`(3)`, `2a`), components in the box and the
    // setup of worked examples.
    assert!(4 * s.confirmed >= 3 * s.statements, "{out}");
    eprintln!(
        "mexica pt: coverage {:.1}%; {} confirmed by the rules, {} as recorded, {} labels, {} unchecked notes; {} of {} numbers checked",
        s.coverage, s.confirmed, s.recorded, s.labels, s.noted, s.numbers_checked, s.numbers
    );
}

#[test]
fn mexica_mutations_are_flagged() {
    let Some((text, name)) = mexica_book() else {
        return;
    };
    let r = check_text(&mexica(), &[], "pt", None, &name, &text);
    // A seeded sample of the confirmed facts, changed in turn: each is
    // contradicted on its line.
    let n = mutate_all(&mexica(), "pt", None, &name, &text, &r, Some(80));
    assert!(n >= 60, "only {n} claims mutated");
    // Any number of the rules sections: a seeded sample.
    sampled_numbers_caught(&mexica(), "pt", (&name, &text), &r, 0x6d65_7869, n);
}

#[test]
fn mexica_stronger_neutral_names_the_neutral_total() {
    let Some((text, name)) = mexica_book() else {
        return;
    };
    // The two-player rules add no number the book states otherwise.
    let two = vec!["two-player".to_string()];
    let r = check_text(&mexica(), &two, "pt", None, &name, &text);
    assert!(!r.failed(), "{}", report::render(&r, false));
    // A stronger neutral changes the neutral's total level, stated once
    // ("20 níveis"); "more than 20" stays true.
    let stronger = vec!["two-player".to_string(), "stronger-neutral".to_string()];
    let r = check_text(&mexica(), &stronger, "pt", None, &name, &text);
    let out = report::render(&r, false);
    let changed: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.changed_by_variant)
        .map(|f| {
            (
                f.line,
                f.text_value,
                f.rule_value,
                f.base_value,
                f.reference.clone(),
            )
        })
        .collect();
    assert_eq!(
        changed,
        [(
            533,
            Some(20),
            Some(26),
            Some(20),
            Some("neutral_levels".to_string())
        )],
        "{out}"
    );
}

/// Each real book keeps its recorded-only values (numbers no rule
/// backs) at 5% of its numeric statements or less, each with a reason.
#[test]
fn real_books_record_at_most_five_percent() {
    let books = [
        ("tzolkin", "pt"),
        ("tzolkin", "ro"),
        ("mexica", "pt"),
        ("cuzco", "pt"),
    ];
    for (game, lang) in books {
        let name = format!("{game}.{lang}.txt");
        let Ok(text) = std::fs::read_to_string(root().join("../shared/rulebooks").join(&name))
        else {
            eprintln!("skipped: {name} not found");
            continue;
        };
        let r = check_text(
            &root().join("rules").join(game),
            &[],
            lang,
            None,
            &name,
            &text,
        );
        let s = &r.summary;
        assert!(
            s.recorded_pct <= 5.0,
            "{name}: {} recorded ({:.1}%)",
            s.recorded,
            s.recorded_pct
        );
        for f in r.findings.iter().filter(|f| f.status == Status::Recorded) {
            assert!(
                f.reason.as_deref().is_some_and(|w| !w.trim().is_empty()),
                "{name}:{}: a recorded value without a reason",
                f.line
            );
        }
    }
}

/// The report on a real book (`name`, `text`) checked against `ruleset`
/// and its rendering, once asserted what every real book must give: no
/// failure, no stale finding, at least 95% of its statements claimed,
/// and every number written in digits in the rules sections checked
/// (against the rules, a recorded value, or as a label).
fn checked_in_full(ruleset: &Path, lang: &str, (name, text): (&str, &str)) -> (Report, String) {
    let r = check_text(ruleset, &[], lang, None, name, text);
    let out = report::render(&r, false);
    assert!(!r.failed(), "{out}");
    assert_eq!(count(&r, Status::Stale), 0, "{out}");
    let s = &r.summary;
    assert!(s.claimed_pct >= 95.0, "{out}");
    assert_eq!(s.numbers_checked, s.numbers, "{out}");
    (r, out)
}

/// Changes each of a seeded sample of 80 numbers of the book's rules
/// sections (`r` its report on `ruleset`) in turn, and asserts every one
/// is caught; `n` confirmed facts were changed before (for the log).
fn sampled_numbers_caught(
    ruleset: &Path,
    lang: &str,
    (name, text): (&str, &str),
    r: &Report,
    seed: u64,
    n: usize,
) {
    let sites = sample(&r.numbers, 80, seed);
    let missed = mutate_sites(ruleset, lang, None, name, text, &sites);
    eprintln!(
        "{name}: {n} confirmed facts changed, all flagged; {} of {} sampled numbers caught",
        sites.len() - missed.len(),
        sites.len()
    );
    assert!(missed.is_empty(), "{name}: not caught: {missed:#?}");
}

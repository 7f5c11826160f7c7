//! Legality: `legal;`, screened requirements, the look-ahead through
//! decisions and options that share a name.

use std::path::Path;
use std::sync::Arc;

use tabula::engine::{ErrorKind, Game};

use super::{legal_names, nim};

fn nim_variant(v: &str, check_legal: bool) -> Arc<tabula::model::Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    let mut rules = tabula::model::load(&dir, &[v.to_string()]).expect("variant loads");
    rules.check_legal = check_legal;
    Arc::new(rules)
}

/// Takes 3 four times and 2 once: one counter is left.
fn down_to_one(g: &mut Game) {
    for d in ["3", "3", "3", "3", "2"] {
        g.apply_named(d).unwrap();
    }
}

#[test]
fn legal_ends_the_look_ahead_and_refusals_before_it_keep_their_reasons() {
    // The arm's requirement and `legal;` form a pure prefix: the look-ahead
    // runs only that (without `legal;`, the whole arm is run).
    assert!(nim_variant("legal", false).choices[0].arms[0]
        .light
        .is_some());
    assert!(nim().choices[0].arms[0].light.is_none());
    for check in [false, true] {
        let mut g = Game::new(nim_variant("legal", check), 2, 0).unwrap();
        down_to_one(&mut g);
        let names: Vec<String> = legal_names(&mut g);
        assert_eq!(names, ["1"]);
        let refused = g.refused().unwrap();
        assert_eq!(refused.len(), 2);
        assert!(refused
            .iter()
            .all(|r| r.reason == "not that many counters left"));
        g.apply_named("1").unwrap();
        assert!(g.is_over());
        assert_eq!(g.outcome().unwrap().unwrap().winners, vec![1]);
    }
}

#[test]
fn requirements_checked_on_whole_sets_refuse_with_their_own_reasons() {
    let rules = nim_variant("screened", false);
    // Both requirements of the marking arm are screened.
    assert_eq!(rules.choices[0].arms[1].screen.len(), 2);
    for check in [false, true] {
        let mut g = Game::new(nim_variant("screened", check), 2, 0).unwrap();
        let refused = |g: &mut Game| -> Vec<(String, String)> {
            g.refused()
                .unwrap()
                .into_iter()
                .map(|r| (r.name, r.reason))
                .collect()
        };
        assert_eq!(legal_names(&mut g), ["1", "2", "3", "red"]);
        assert_eq!(
            refused(&mut g),
            [("blue".into(), "only red is free".into())]
        );
        g.apply_named("red").unwrap();
        g.apply_named("1").unwrap();
        // The first player marked red: both colours refused, each for its
        // first broken requirement.
        assert_eq!(legal_names(&mut g), ["1", "2", "3"]);
        assert_eq!(
            refused(&mut g),
            [
                ("red".into(), "already marked".into()),
                ("blue".into(), "only red is free".into())
            ]
        );
        let e = g.apply_named("red").unwrap_err().to_string();
        assert!(e.contains("already marked"), "{e}");
    }
}

#[test]
fn a_choice_whose_options_are_all_legal_untried_is_a_way_on_without_a_try() {
    // Every arm of both choices starts with `legal;`: the look-ahead of a
    // take, reaching the same player's mark, takes it as a way on at once.
    let rules = nim_variant("untried", false);
    let marked: Vec<bool> = rules.choices.iter().map(|c| c.legal_untried).collect();
    assert_eq!(marked, [true, true]);
    // A requirement before `legal;`, or no `legal;`: not marked.
    assert!(!nim_variant("legal", false).choices[0].legal_untried);
    assert!(!nim().choices[0].legal_untried);
    assert!(!nim_variant("screened", false).choices[0].legal_untried);
    for check in [false, true] {
        let mut g = Game::new(nim_variant("untried", check), 2, 0).unwrap();
        assert_eq!(legal_names(&mut g), ["1", "2", "3"]);
        g.apply_named("3").unwrap();
        assert_eq!(legal_names(&mut g), ["red", "blue", "pass"]);
        g.apply_named("red").unwrap();
        assert_eq!(legal_names(&mut g), ["1", "2", "3"]);
        g.apply_named("2").unwrap();
        g.apply_named("pass").unwrap();
        g.apply_named("3").unwrap();
        assert_eq!(legal_names(&mut g), ["blue", "pass"]);
        // Played to the end, checked (every option also run in full and
        // the answers compared) or not.
        while !g.is_over() {
            assert!(g.refused().unwrap().is_empty());
            g.apply(0).unwrap();
        }
    }
}

#[test]
fn a_way_through_a_decision_with_one_option_is_refused_where_that_decision_leads_nowhere() {
    // The look-ahead goes on through the confirmation, the only way on
    // there, without an undo of its own: the answers are those of trying
    // it (the reason of a way to a choice with no option is given at the
    // decision all of whose ways lead there, the confirmation).
    let rules = nim_variant("only-way", false);
    let confirm = rules
        .choices
        .iter()
        .find(|c| c.prompt == "confirm")
        .expect("a confirmation")
        .span;
    for check in [false, true] {
        let mut g = Game::new(nim_variant("only-way", check), 2, 0).unwrap();
        for mark in ["red", "red", "blue", ""] {
            assert_eq!(legal_names(&mut g), ["1", "2", "3"]);
            g.apply_named("1").unwrap();
            assert_eq!(legal_names(&mut g), ["ok"]);
            g.apply_named("ok").unwrap();
            if !mark.is_empty() {
                g.apply_named(mark).unwrap();
            }
        }
        // The first player marked both colours: the second player's last
        // mark leads to the first one's take, every way on from which
        // goes through the confirmation to a mark offering nothing.
        let e = g.legal().expect_err("a dead end");
        assert_eq!(e.kind(), Some(ErrorKind::DeadEnd), "{e}");
        let refused = g.refused().unwrap();
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].name, "blue");
        assert_eq!(refused[0].reason, "it leads to a choice with no option");
        assert_eq!(refused[0].span, confirm, "check_legal {check}");
    }
}

#[test]
fn a_legal_before_a_requirement_is_caught_when_checked_and_when_played() {
    // Checked: the options are also run in full, and the difference is
    // reported at the `legal;`.
    let mut g = Game::new(nim_variant("false-legal", true), 2, 0).unwrap();
    down_to_one(&mut g);
    let e = g.legal().unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::BrokenLegal));
    let tabula::engine::ApplyError::Runtime(r) = e else {
        panic!("expected a rules error, got {e}");
    };
    assert!(
        r.message.contains("`legal;` declared the option `2` legal")
            && r.message.contains("not that many counters left"),
        "{}",
        r.message
    );
    let report = g.report(&r);
    assert!(report.contains("false-legal.rules:9:9"), "{report}");
    // The report shows the code of the error's kind.
    assert!(report.contains("tabula::broken_legal"), "{report}");
    assert_eq!(
        ErrorKind::BrokenLegal.code().to_string(),
        "tabula::broken_legal"
    );
    // Unchecked: the false option is offered, and applying it reports the
    // broken promise and leaves the state as it was (a requirement follows
    // the `legal;`: its run on is not sure, an undo is prepared).
    let rules = nim_variant("false-legal", false);
    assert!((0..rules.messages.len() as u32).all(|m| !rules.legal_is_sure(m)));
    let mut g = Game::new(rules, 2, 0).unwrap();
    down_to_one(&mut g);
    assert_eq!(g.legal().unwrap().len(), 3);
    let before = g.state().hash();
    let e = g.apply_named("3").unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::BrokenLegal));
    assert!(e.to_string().contains("`legal;` declared the option `3` legal, but it is refused: not that many counters left"), "{e}");
    assert_eq!(g.state().hash(), before);
    g.apply_named("1").unwrap();
    assert!(g.is_over());
}

#[test]
fn a_legal_in_a_called_procedure_is_sure_when_no_way_on_can_refuse() {
    // The way on from a take's `legal;` returns into `main` and reaches
    // the next take, whose choice always offers `pass`: sure. A pass's
    // calls a procedure with a requirement: not sure.
    let rules = nim_variant("sure-called", false);
    let legal_at = |line: &str| {
        let mut found = rules
            .funcs()
            .iter()
            .flat_map(|f| &f.code)
            .filter_map(|op| match op {
                tabula::ir::bytecode::Op::Legal(m) => Some(*m),
                _ => None,
            });
        found
            .find(|m| {
                rules
                    .sources
                    .locate(rules.messages[*m as usize].1)
                    .contains(line)
            })
            .unwrap_or_else(|| panic!("a `legal;` at {line}"))
    };
    assert!(rules.legal_is_sure(legal_at("sure-called.rules:7:")));
    assert!(!rules.legal_is_sure(legal_at("sure-called.rules:8:")));
    // Games play out the same checked or not.
    for seed in 0..20 {
        let mut plain = Game::new(rules.clone(), 2, seed).unwrap();
        let mut checked = Game::new(nim_variant("sure-called", true), 2, seed).unwrap();
        use rand_core::RngCore;
        let mut rng = rand_pcg::Pcg64::new(seed as u128, 0x0a02_bdbf_7bb3_c0a7);
        while !plain.is_over() {
            let legal = legal_names(&mut plain);
            assert_eq!(legal, legal_names(&mut checked));
            let pick = &legal[rng.next_u64() as usize % legal.len()];
            plain.apply_named(pick).unwrap();
            checked.apply_named(pick).unwrap();
            assert_eq!(plain.state().hash(), checked.state().hash());
        }
        assert!(checked.is_over());
    }
}

#[test]
fn two_options_with_one_name_are_a_rules_error_when_reached() {
    // Base nim: one per-element arm over a range, nothing can clash.
    assert!(!nim().choices[0].names_may_clash);
    let rules = nim_variant("clash", false);
    assert!(rules.choices[0].names_may_clash);
    let mut g = Game::new(rules, 2, 0).unwrap();
    let e = g.legal().unwrap_err();
    assert_eq!(e.kind(), Some(ErrorKind::NameClash));
    assert!(
        e.to_string()
            .contains("two options of this choice are both named `red`"),
        "{e}"
    );
}

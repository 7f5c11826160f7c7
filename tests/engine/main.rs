//! End-to-end checks of the engine on a small ruleset.

use std::path::Path;
use std::sync::Arc;

use tabula::engine::{ApplyError, ErrorKind, Game};

mod grids;
mod legality;

/// The names of the legal decisions.
fn legal_names(g: &mut Game) -> Vec<String> {
    g.legal()
        .unwrap()
        .into_iter()
        .map(|d| d.name.to_string())
        .collect()
}

fn nim() -> Arc<tabula::model::Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    Arc::new(tabula::model::load(&dir, &[]).expect("nim loads"))
}

#[test]
fn nim_offers_one_to_three_and_refuses_more_than_the_pile() {
    let mut g = Game::new(nim(), 2, 0).unwrap();
    let names: Vec<String> = legal_names(&mut g);
    assert_eq!(names, ["1", "2", "3"]);
    for _ in 0..4 {
        g.apply_named("3").unwrap();
    }
    // 3 left: all three still legal, then 1 left: only "1".
    g.apply_named("2").unwrap();
    let names: Vec<String> = legal_names(&mut g);
    assert_eq!(names, ["1"]);
    assert!(g.apply_named("2").is_err());
    g.apply_named("1").unwrap();
    assert!(g.is_over());
    let o = g.outcome().unwrap().unwrap();
    // Seat 0 took turns 1,3,5 and the last counter on turn 6? Turns alternate:
    // 3,3,3,3 (p1,p2,p1,p2) then 2 (p1) then 1 (p2): p2 wins.
    assert_eq!(o.winners, vec![1]);
    assert_eq!(o.keys, vec![vec![0], vec![10]]);
    assert_eq!(g.rounds(), Some(6));
}

#[test]
fn same_seed_same_decisions_same_state() {
    let r = nim();
    let play = |seed: u64| {
        let mut g = Game::new(r.clone(), 3, seed).unwrap();
        let mut k = seed;
        while !g.is_over() {
            let n = g.legal().unwrap().len();
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1);
            g.apply((k >> 33) as usize % n).unwrap();
        }
        (g.history().to_vec(), g.state().hash())
    };
    assert_eq!(play(5), play(5));
}

#[test]
fn a_variant_overlays_parameters_and_an_unknown_variant_is_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    let rules = Arc::new(tabula::model::load(&dir, &["big".to_string()]).expect("variant loads"));
    assert_eq!(rules.variants, vec!["big".to_string()]);
    let mut g = Game::new(rules, 2, 0).unwrap();
    let names: Vec<String> = legal_names(&mut g);
    assert_eq!(names, ["1", "2", "3", "4"]);
    match tabula::model::load(&dir, &["bgi".to_string()]) {
        Err(tabula::model::LoadError::NotFound {
            code,
            message,
            help,
        }) => {
            assert_eq!(code, tabula::model::Code::UnknownVariant);
            assert!(message.contains("unknown variant `bgi`"), "{message}");
            assert!(help.contains("did you mean `big`?"), "{help}");
        }
        other => panic!(
            "expected an unknown-variant error, got {:?}",
            other.map(|r| r.name)
        ),
    }
}

#[test]
fn a_variant_removes_items_and_a_bad_removal_is_reported() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    let rules = tabula::model::load(&dir, &["mono".to_string()]).expect("mono loads");
    let colour = rules.kinds.iter().find(|k| k.name == "colour").unwrap();
    assert_eq!(colour.items, vec!["red".to_string()]);
    // Variants compose.
    let both = tabula::model::load(&dir, &["big".to_string(), "mono".to_string()]).unwrap();
    assert_eq!(both.variants.len(), 2);
    match tabula::model::load(&dir, &["bad-remove".to_string()]) {
        Err(tabula::model::LoadError::Invalid(d)) => {
            let text = d.render_plain();
            assert!(
                text.contains("`colour` has no item `bleu` to remove"),
                "{text}"
            );
            assert!(text.contains("bad-remove.yaml:3:12"), "{text}");
            assert_eq!(d.items[0].code, tabula::model::Code::UnknownItem);
            assert!(text.contains("did you mean `blue`?"), "{text}");
        }
        other => panic!("expected a diagnostic, got {:?}", other.map(|r| r.name)),
    }
}

fn tzolkin() -> Arc<tabula::model::Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tzolkin");
    Arc::new(tabula::model::load(&dir, &[]).expect("tzolkin loads"))
}

#[test]
fn views_hide_other_players_wealth_tiles_and_the_decks() {
    let mut g = Game::new(tzolkin(), 4, 3).unwrap();
    // Setup is waiting for the first player to keep a wealth tile.
    assert_eq!(g.prompt(), Some("keep a starting wealth tile"));
    let seat = g.to_move().unwrap();
    let view = g.view(Some(seat));
    let mine = g.rules().kinds[0].items[seat].clone();
    let other = g.rules().kinds[0].items[(seat + 1) % 4].clone();
    assert!(
        view.iter()
            .any(|l| l.starts_with(&format!("dealt[{mine}] = {{"))),
        "{view:?}"
    );
    assert!(view.contains(&format!("dealt[{other}] = ?")), "{view:?}");
    assert!(view.iter().any(|l| l == "wealth_deck = ?"), "{view:?}");
    assert!(view.iter().any(|l| l == "deck[1] = ?"), "{view:?}");
    // The referee sees everything.
    let all = g.view(None);
    assert!(all
        .iter()
        .any(|l| l.starts_with(&format!("dealt[{other}] = {{"))));
    // The legal decisions are exactly the four tiles dealt to the mover.
    assert_eq!(g.legal().unwrap().len(), 4);
}

#[test]
fn a_tzolkin_game_log_replays_to_the_same_state() {
    let rules = tzolkin();
    let mut g = Game::new(rules.clone(), 3, 11).unwrap();
    let mut k = 11u64;
    while !g.is_over() {
        let n = g.legal().unwrap().len();
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        g.apply((k >> 33) as usize % n).unwrap();
    }
    let log = tabula::engine::GameLog::of(&mut g);
    let text = serde_json::to_string(&log).unwrap();
    let back: tabula::engine::GameLog = serde_json::from_str(&text).unwrap();
    let mut r = Game::new(rules, back.players, back.seed).unwrap();
    for d in &back.decisions {
        r.apply_named(d).unwrap();
    }
    assert_eq!(tabula::engine::GameLog::of(&mut r), log);
}

/// What a try must put back, in a form that compares: all but the
/// values of the locals (a pure prefix tried in place leaves its locals
/// in the frame of the choice, unread until an arm runs) and the buffers
/// tries reuse.
fn tried_parts(st: &tabula::engine::state::State) -> impl PartialEq + std::fmt::Debug {
    (
        (
            st.words.clone(),
            st.vm.stack.len(),
            format!("{:?}", st.vm.frames),
        ),
        (st.vm.options.clone(), format!("{:?}", st.vm.screened)),
        (st.status.clone(), st.rng.clone()),
        (st.trail.len(), st.recording, st.cut_at_legal),
    )
}

#[test]
fn judging_the_options_leaves_the_state_as_it_was() {
    // Every option is tried in place, with the shortcuts (screened
    // requirements, light tries, `legal;`) and, checked, in full, through
    // the look-ahead: each try is undone.
    for (game, check) in [
        ("tzolkin", false),
        ("tzolkin", true),
        ("tigris-euphrates", false),
        ("tigris-euphrates", true),
    ] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rules")
            .join(game);
        let mut rules = tabula::model::load(&dir, &[]).expect("loads");
        rules.check_legal = check;
        let mut g = Game::new(Arc::new(rules), 4, 5).unwrap();
        let mut k = 5u64;
        for _ in 0..150 {
            if g.is_over() {
                break;
            }
            let before = tried_parts(g.state());
            let n = g.legal().unwrap().len();
            g.refused().unwrap();
            assert_eq!(tried_parts(g.state()), before);
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g.apply((k >> 33) as usize % n).unwrap();
        }
    }
}

#[test]
fn runtime_errors_say_what_kind_of_mistake_they_are() {
    let mut extra = (*nim()).clone();
    let g = Game::new(nim(), 2, 0).unwrap();
    for (src, kind) in [
        ("pile / (pile - pile)", ErrorKind::DivisionByZero),
        ("pile % (pile - pile)", ErrorKind::DivisionByZero),
        (
            "won[next(first(players))] + won[nth(player, 5)]",
            ErrorKind::OutOfRange,
        ),
        ("next(nth(player, 5))", ErrorKind::NoneUsed),
    ] {
        let e = tabula::lang::parser::parse_expr(0, src, &|o| o).unwrap();
        let (f, _) = tabula::model::snippet::add_expr(&mut extra, &e)
            .unwrap_or_else(|d| panic!("{src}: {}", d[0].message));
        let mut st = g.state().clone();
        let e = tabula::engine::vm::eval(&extra, &mut st, f, Vec::new()).unwrap_err();
        assert_eq!(e.kind, kind, "{src}: {}", e.message);
    }
    // Applying an index past the legal decisions.
    let mut g = Game::new(nim(), 2, 0).unwrap();
    let e = g.apply(99).unwrap_err();
    assert!(
        matches!(
            e,
            ApplyError::NoIndex {
                index: 99,
                count: 3
            }
        ),
        "{e}"
    );
}

#[test]
fn integer_arithmetic_saturates_at_the_extremes_and_never_panics() {
    let mut extra = (*nim()).clone();
    let g = Game::new(nim(), 2, 0).unwrap();
    let min = "(-9223372036854775807 - 1)";
    for (src, want) in [
        (format!("{min} % -1"), 0),
        (format!("{min} / -1"), i64::MAX),
        (format!("abs({min})"), i64::MAX),
        (format!("-{min}"), i64::MAX),
        (format!("{min} - 1"), i64::MIN),
        (format!("{min} * {min}"), i64::MAX),
        (format!("{min} * -1"), i64::MAX),
        (format!("{min} % 3"), 1),
        (format!("{min} / 2"), i64::MIN / 2),
        ("9223372036854775807 + 1".into(), i64::MAX),
        ("9223372036854775807 % -2".into(), 1),
        ("7 % -2".into(), 1),
        ("-7 % 2".into(), 1),
        ("7 / -2".into(), -4),
    ] {
        let e = tabula::lang::parser::parse_expr(0, &src, &|o| o).unwrap();
        let (f, _) = tabula::model::snippet::add_expr(&mut extra, &e)
            .unwrap_or_else(|d| panic!("{src}: {}", d[0].message));
        let mut st = g.state().clone();
        let v = tabula::engine::vm::eval(&extra, &mut st, f, Vec::new()).unwrap();
        assert_eq!(v.int(), want, "{src}");
    }
}

#[test]
fn a_game_starts_only_with_a_player_count_its_ruleset_allows() {
    for n in [0, 1, 4, 99, usize::MAX] {
        match Game::new(nim(), n, 0) {
            Err(ApplyError::PlayerCount {
                players,
                min: 2,
                max: 3,
                ..
            }) => assert_eq!(players, n),
            Err(e) => panic!("{n} players: {e}"),
            Ok(_) => panic!("a game of nim started with {n} players"),
        }
        assert!(Game::initial_state(&nim(), n, 0).is_err(), "{n} players");
    }
    let e = Game::new(nim(), 4, 0).err().expect("refused");
    assert_eq!(e.to_string(), "Nim is played by 2 to 3 players, not 4");
    for n in [2, 3] {
        assert!(Game::new(nim(), n, 0).is_ok());
    }
}

#[test]
fn search_bots_copy_the_position_never_the_history() {
    use rand_core::SeedableRng;
    let mut g = Game::new(nim(), 2, 0).unwrap();
    for _ in 0..3 {
        g.apply(0).unwrap();
    }
    let mut f = g.fork();
    assert_eq!(g.decisions_taken(), 3);
    assert!(f.history().is_empty());
    assert_eq!(f.state().hash(), g.state().hash());
    assert_eq!(legal_names(&mut f), legal_names(&mut g));
    f.apply(1).unwrap();
    g.apply(1).unwrap();
    assert_eq!(f.state().hash(), g.state().hash());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
    let d = tabula::determinize(&g, 0, &mut rng);
    assert!(d.history().is_empty());
    // An unrecorded copy plays on without writing its history.
    let mut u = g.fork().unrecorded();
    u.apply(0).unwrap();
    g.apply(0).unwrap();
    assert_eq!(u.state().hash(), g.state().hash());
    assert!(u.history().is_empty() && u.fork().history().is_empty());
}

/// A ruleset of the hostile-inputs suite (`tests/hostile/<case>/rules`).
fn hostile_rules(case: &str) -> Arc<tabula::model::Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile")
        .join(case)
        .join("rules");
    Arc::new(tabula::model::load(&dir, &[]).expect("the case's rules load"))
}

#[test]
fn runaway_rules_end_in_limit_errors() {
    // A choice over a billion numbers, before any is kept.
    let e = Game::new(hostile_rules("simulate_choose_huge_range"), 2, 0)
        .err()
        .expect("refused");
    assert_eq!(e.kind(), Some(ErrorKind::LimitReached), "{e}");
    // A state of ten billion words: the loader refuses it...
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/simulate_state_too_large/rules");
    match tabula::model::load(&dir, &[]) {
        Err(tabula::LoadError::Invalid(d)) => assert_eq!(d.items[0].code, tabula::Code::TooLarge),
        other => panic!("loaded a state of ten billion words: {:?}", other.is_ok()),
    }
    // ... and the engine refuses a ruleset made otherwise, before any word
    // is allocated.
    let mut big = (*nim()).clone();
    big.state_words = tabula::ir::ruleset::MAX_STATE_WORDS + 1;
    let e = Game::new(Arc::new(big), 2, 0).err().expect("refused");
    assert_eq!(e.kind(), Some(ErrorKind::LimitReached), "{e}");
    // An option writing forever while it is tried.
    let mut g = Game::new(hostile_rules("simulate_try_writes_endlessly"), 2, 0).unwrap();
    let e = g.legal().expect_err("refused");
    assert_eq!(e.kind(), Some(ErrorKind::LimitReached), "{e}");
}

#[test]
fn the_look_ahead_stops_at_its_budget_and_the_dead_end_shows_later() {
    // Nine decisions of one player with ten options each, every way
    // failing at the ninth: 10^9 ways, far beyond the look-ahead's budget.
    for check_legal in [false, true] {
        let mut g = Game::new(hostile_rules("simulate_lookahead_nine_deep"), 2, 0).unwrap();
        g.set_check_legal(check_legal);
        // The first decisions cannot be disproved within the budget: each
        // option not yet disproved is listed.
        assert_eq!(legal_names(&mut g).len(), 10);
        let mut listed = 0;
        let e = loop {
            match g.legal() {
                Ok(legal) => {
                    assert!(!legal.is_empty());
                    g.apply(0).unwrap();
                    listed += 1;
                }
                Err(e) => break e,
            }
        };
        // Below the sixth decision, the 10^4 ways left fit in the budget:
        // the dead end is found there.
        assert_eq!(listed, 5, "check_legal {check_legal}");
        assert_eq!(e.kind(), Some(ErrorKind::DeadEnd), "{e}");
    }
}

/// The next pick of a fixed sequence, among `n` options.
fn next_pick(k: &mut u64, n: usize) -> usize {
    *k = k
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*k >> 33) as usize % n
}

/// Plays `g` to its end by the fixed sequence of picks from `k`.
fn play_out(g: &mut Game, mut k: u64) -> u64 {
    while !g.is_over() {
        let n = g.legal().unwrap().len();
        g.apply(next_pick(&mut k, n)).unwrap();
    }
    g.state().hash()
}

#[test]
fn a_forked_game_and_its_original_play_on_apart_though_they_share_sets() {
    // A fork shares its sets' blocks with the game it was forked from
    // until one of them writes: the two, played on turn about, must each
    // end as it would alone.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tigris-euphrates");
    let rules = Arc::new(tabula::model::load(&dir, &[]).expect("T&E loads"));
    let mut g = Game::new(rules, 2, 3).unwrap();
    for i in 0..40 {
        let n = g.legal().unwrap().len();
        g.apply(i % n).unwrap();
    }
    let alone = [play_out(&mut g.fork(), 7), play_out(&mut g.fork(), 8)];
    assert_ne!(alone[0], alone[1], "two sequences of picks that end apart");
    let mut games = [g.fork(), g];
    let mut picks = [7, 8];
    while games.iter().any(|g| !g.is_over()) {
        for (g, k) in games.iter_mut().zip(&mut picks) {
            if !g.is_over() {
                let n = g.legal().unwrap().len();
                g.apply(next_pick(k, n)).unwrap();
            }
        }
    }
    assert_eq!(games.map(|g| g.state().hash()), alone);
}

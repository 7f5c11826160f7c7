//! End-to-end checks of the engine on a small ruleset.

use std::path::Path;
use std::sync::Arc;

use tabula::engine::{ApplyError, ErrorKind, Game};

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

/// The integer value of the expression `src`, compiled into `extra` (the
/// game's rules) and evaluated on a copy of the game's state.
fn int_of(extra: &mut tabula::model::Ruleset, g: &Game, src: &str) -> i64 {
    let e = tabula::lang::parser::parse_expr(0, src, &|o| o).unwrap();
    let (f, _) =
        tabula::model::snippet::add_expr(extra, &e).unwrap_or_else(|d| panic!("{src}: {d:?}"));
    let mut st = g.state().clone();
    tabula::engine::vm::eval(extra, &mut st, f, Vec::new())
        .unwrap_or_else(|e| panic!("{src}: {}", e.message))
        .int()
}

/// Whether the expression `src` compiles against `extra`.
fn compiles(extra: &mut tabula::model::Ruleset, src: &str) -> bool {
    let e = tabula::lang::parser::parse_expr(0, src, &|o| o).unwrap();
    tabula::model::snippet::add_expr(extra, &e).is_ok()
}

#[test]
fn grids_give_neighbours_regions_and_components() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/regions");
    let rules = Arc::new(tabula::model::load(&dir, &[]).expect("regions loads"));
    let board = &rules.kinds[1];
    assert_eq!(board.items.len(), 12);
    assert_eq!(board.items[5], "board_1_1");
    // Corner: 2 neighbours, middle: 4; a hex cell inside: 6.
    assert_eq!(board.adjacent[0], vec![1, 4]);
    assert_eq!(board.adjacent[5], vec![1, 4, 6, 9]);
    assert_eq!(rules.kinds[2].adjacent[6].len(), 6);
    let mut g = Game::new(rules, 2, 0).unwrap();
    // 10 land cells (two river cells are never offered).
    let legal: Vec<String> = legal_names(&mut g);
    assert_eq!(legal.len(), 10);
    assert!(!legal.contains(&"board_1_0".to_string()));
    // Black: the left column and board_2_2; white takes the rest.
    for (b, w) in [
        ("board_0_0", "board_2_0"),
        ("board_0_1", "board_3_0"),
        ("board_0_2", "board_2_1"),
        ("board_2_2", "board_3_1"),
        ("board_1_2", "board_3_2"),
    ] {
        g.apply_named(b).unwrap();
        g.apply_named(w).unwrap();
    }
    assert!(g.is_over());
    let o = g.outcome().unwrap().unwrap();
    // Black: 0_0, 0_1, 0_2, 1_2, 2_2 in one group of 5; white: 2_0, 3_0,
    // 2_1, 3_1, 3_2 in one group of 5: a tie on both keys, a shared win.
    assert_eq!(o.keys, vec![vec![5, -1], vec![5, -1]]);
    assert_eq!(o.winners, vec![0, 1]);
    // What a placement on a cell would join.
    let mut extra = (**g.rules()).clone();
    for (src, want) in [
        ("groups_around(board_1_1, stones(black))", 1),
        ("groups_around(board_1_1, {board_0_1, board_1_2})", 2),
        ("groups_around(board_1_1, stones(black) + stones(white))", 1),
        ("groups_around(board_1_1, stones(black), {board_0_0})", 1),
        ("groups_around(board_1_1, stones(black), {board_3_2})", 0),
        ("groups_around(board_1_1, {})", 0),
        ("components(stones(black) + stones(white))", 1),
        // The neighbours of a set: board_0_0 (item 0) has 1 and 4,
        // board_3_2 (item 11) has 7 and 10. Cells of the set count when
        // they touch another one: 0 and 4 (board_0_1, touching 0, 5, 8).
        ("count(adjacent({board_0_0, board_3_2}))", 4),
        ("count(adjacent({board_0_0, board_0_1}))", 5),
        ("count(adjacent(stones(black) - stones(black)))", 0),
    ] {
        assert_eq!(int_of(&mut extra, &g, src), want, "{src}");
    }
}

#[test]
fn run_length_counts_the_cells_of_a_set_in_a_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/regions");
    let rules = Arc::new(tabula::model::load(&dir, &[]).expect("regions loads"));
    let g = Game::new(rules, 2, 0).unwrap();
    let mut extra = (**g.rules()).clone();
    // Square cells: 4 columns, 3 rows; hexes: 5 columns, 4 rows.
    for (src, want) in [
        (
            "run_length(board_0_0, 1, 0, {board_1_0, board_2_0, board_3_0})",
            3,
        ),
        ("run_length(board_0_0, 1, 0, {board_2_0, board_3_0})", 0), // a gap
        ("run_length(board_3_2, -1, -1, {board_2_1, board_1_0})", 2),
        ("run_length(board_0_2, 1, -1, {board_1_1, board_2_0})", 2),
        ("run_length(board_0_0, 0, 1, board)", 2), // a kind as a set
        ("run_length(board_3_0, 1, 0, board)", 0), // off the board at once
        ("run_length(board_1_1, 0, 0, board)", 0), // no step
        ("run_length(nth(board, 99), 1, 0, board)", 0), // none
        ("run_length(hexes_0_1, 1, 0, hexes)", 4),
    ] {
        assert_eq!(int_of(&mut extra, &g, src), want, "{src}");
    }
    // Mistakes are load errors: cells of another grid, a set where the
    // cell goes, a step left out.
    for src in [
        "run_length(board_0_0, 1, 0, {hexes_1_0})",
        "run_length({board_0_0}, 1, 0, board)",
        "run_length(board_0_0, 1, {board_1_0})",
    ] {
        assert!(!compiles(&mut extra, src), "{src} should not compile");
    }
}

#[test]
fn toward_steps_in_a_direction_and_connected_starts_from_a_set() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/regions");
    let rules = Arc::new(tabula::model::load(&dir, &[]).expect("regions loads"));
    let mut g = Game::new(rules, 2, 0).unwrap();
    let mut extra = (**g.rules()).clone();
    // Square cells: index y * 4 + x; directions clockwise from east.
    // Hex cells: index y * 5 + x; odd rows shifted half a cell right.
    for (src, want) in [
        ("ord(toward(board_1_1, 0))", 6),  // east: board_2_1
        ("ord(toward(board_1_1, 1))", 9),  // south: board_1_2
        ("ord(toward(board_1_1, 2))", 4),  // west: board_0_1
        ("ord(toward(board_1_1, 3))", 1),  // north: board_1_0
        ("ord(toward(board_1_1, 5))", 9),  // directions wrap: 5 is south
        ("ord(toward(board_1_1, -1))", 1), // and -1 is north
        ("ord(toward(board_3_0, 0))", -1), // off the board: none
        ("ord(toward(hexes_1_1, 1))", 12), // odd row, south-east: hexes_2_2
        ("ord(toward(hexes_1_2, 1))", 16), // even row, south-east: hexes_1_3
        ("ord(toward(hexes_1_2, 4))", 5),  // even row, north-west: hexes_0_1
        ("ord(toward(hexes_1_1, 5))", 2),  // odd row, north-east: hexes_2_0
        // A set shifted: off-board cells are dropped.
        ("count(toward({board_0_0, board_3_0, board_3_2}, 0))", 1),
        ("ord(first(toward({board_0_0, board_3_0}, 0)))", 1),
        ("count(toward({board_0_0, board_1_0}, 1))", 2),
        // Connected from several cells at once.
        (
            "count(connected({board_0_0}, {board_0_0, board_0_1, board_3_2}))",
            2,
        ),
        (
            "count(connected({board_0_0, board_3_2}, {board_0_0, board_0_1, board_3_2}))",
            3,
        ),
        ("count(connected({board_1_0, board_2_2}, {board_0_0}))", 0),
        (
            "count(connected(adjacent(board_0_0), {board_0_1, board_0_2, board_3_2}))",
            2,
        ),
        // `*` intersects sets.
        ("count({board_0_0, board_1_0} * {board_1_0, board_2_0})", 1),
        (
            "ord(first({board_0_0, board_1_0} * {board_1_0, board_2_0}))",
            1,
        ),
        (
            "count(adjacent(board_1_1) * {board_0_1, board_3_2, board_2_1})",
            2,
        ),
    ] {
        assert_eq!(int_of(&mut extra, &g, src), want, "{src}");
    }
    // Mistakes are load errors: a direction that is not an int, a cell of
    // a kind that is not a grid.
    for src in ["toward(board_1_1, board_1_1)", "toward(black, 0)"] {
        assert!(!compiles(&mut extra, src), "{src} should not compile");
    }
    let _ = legal_names(&mut g);
}

#[test]
fn filters_over_sets_are_applied_natively_with_the_same_answers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/regions");
    let rules = Arc::new(tabula::model::load(&dir, &[]).expect("regions loads"));
    let mut g = Game::new(rules, 2, 0).unwrap();
    // Black on board_0_1 and board_1_2, white on board_2_1 (item 6): the
    // neighbours of board_1_1 are those three and the river board_1_0.
    for d in ["board_0_1", "board_2_1", "board_1_2"] {
        g.apply_named(d).unwrap();
    }
    let mut extra = (**g.rules()).clone();
    // (native form, the same filter written so that it is run member by
    // member (`c != none` mentions the element, so it is not native),
    // expected value).
    for (native, slow, want) in [
        (
            "count(c in adjacent(board_1_1) where owner[c] == black)",
            "count(c in adjacent(board_1_1) where owner[c] == black and c != none)",
            2,
        ),
        (
            "count(c in adjacent(board_1_1) where c.river)",
            "count(c in adjacent(board_1_1) where c.river and c != none)",
            1,
        ),
        (
            "count(c in adjacent(board_1_1) where c.river == false)",
            "count(c in adjacent(board_1_1) where c.river == false and c != none)",
            3,
        ),
        (
            "count(c in adjacent(board_1_1) where not c.river)",
            "count(c in adjacent(board_1_1) where not c.river and c != none)",
            3,
        ),
        // One side not mentioning the element: evaluated once.
        (
            "count(c in adjacent(board_1_1) where c.river or 1 == 2)",
            "count(c in adjacent(board_1_1) where c.river or c == none)",
            1,
        ),
        (
            "count(c in adjacent(board_1_1) where 1 == 1 or c.river)",
            "count(c in adjacent(board_1_1) where c != none or c.river)",
            4,
        ),
        (
            "count(c in adjacent(board_1_1) where not c.river and 1 == 1)",
            "count(c in adjacent(board_1_1) where not c.river and c != none)",
            3,
        ),
        (
            "count(c in adjacent(board_1_1) where 1 == 2 and c.river)",
            "count(c in adjacent(board_1_1) where c == none and c.river)",
            0,
        ),
        (
            "count(c in adjacent(board_1_1) where not (c in taken))",
            "count(c in adjacent(board_1_1) where not (c in taken) and c != none)",
            1,
        ),
        (
            "first({c in adjacent(board_1_1) where owner[c] == white})",
            "first({c in adjacent(board_1_1) where owner[c] == white and c != none})",
            6,
        ),
        (
            "count({c in stones(black) + stones(white) where owner[c] == none})",
            "count({c in stones(black) + stones(white) where owner[c] == none and c != none})",
            0,
        ),
        (
            "count({c in adjacent(board_1_1) where c in taken})",
            "count({c in adjacent(board_1_1) where c in taken and c != none})",
            3,
        ),
        (
            "if any(c in adjacent(board_1_1): owner[c] == none) then 1 else 0",
            "if any(c in adjacent(board_1_1): owner[c] == none and c != none) then 1 else 0",
            1,
        ),
    ] {
        let mut values = Vec::new();
        for (src, is_native) in [(native, true), (slow, false)] {
            let e = tabula::lang::parser::parse_expr(0, src, &|o| o).unwrap();
            let (f, _) = tabula::model::snippet::add_expr(&mut extra, &e).unwrap();
            let uses_native = extra.funcs()[f as usize].code.iter().any(|op| {
                matches!(
                    op,
                    tabula::ir::bytecode::Op::MembersEq(_)
                        | tabula::ir::bytecode::Op::MembersFieldEq(..)
                        // `x in t`: an intersection of sets.
                        | tabula::ir::bytecode::Op::Bin(tabula::ir::bytecode::BinaryOp::And)
                )
            });
            assert_eq!(uses_native, is_native, "{src}");
            let mut st = g.state().clone();
            let v = tabula::engine::vm::eval(&extra, &mut st, f, Vec::new()).unwrap();
            values.push(v.int());
        }
        assert_eq!(values, [want, want], "{native}");
    }
}

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
    assert_eq!(g.history().len(), 3);
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

//! Grids and sets: neighbours, regions, lines and the natively applied
//! filters, evaluated as expressions on a game's state.

use std::path::Path;
use std::sync::Arc;

use tabula::engine::Game;

use super::legal_names;

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
                        // Fused with a `first` of the members.
                        | tabula::ir::bytecode::Op::MembersEqFirst(_)
                        | tabula::ir::bytecode::Op::MembersFieldEqFirst(..)
                        // Fused with a count of the members.
                        | tabula::ir::bytecode::Op::MembersEqCount(_)
                        | tabula::ir::bytecode::Op::MembersFieldEqCount(..)
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

//! `tests/rulesets/connect-four`, a Connect Four written plainly as a user
//! would (the ruleset `tabula bench --compare-with` measures against
//! OpenSpiel, see docs/BENCH.md): its scenarios (vertical, horizontal and
//! both diagonal wins, a full board drawn, a full column refused) pass, and
//! random games agree move by move with a reference written here in Rust.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tabula::{Game, Ruleset};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/connect-four")
}

fn rules() -> Arc<Ruleset> {
    Arc::new(tabula::load(&dir(), &[]).expect("connect-four loads"))
}

#[test]
fn the_run_on_from_the_legal_of_a_drop_is_sure() {
    // After `legal;` a drop reaches no requirement, and the next choice
    // offers the seven columns (a constant range): applying a column runs
    // on with no undo prepared.
    let rules = rules();
    let sure: Vec<&str> = (0..rules.messages.len())
        .filter(|m| rules.legal_is_sure(*m as u32))
        .map(|m| rules.messages[m].0.as_str())
        .collect();
    assert_eq!(sure.len(), 1, "{:?}", rules.messages);
}

#[test]
fn every_scenario_passes() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir().join("examples"))
        .expect("examples/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 6, "{files:?}");
    for path in files {
        let outcome =
            tabula::run_scenario(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            outcome.passed(),
            "{}:\n{}",
            path.display(),
            outcome.failures.render_plain()
        );
        assert!(outcome.assertions > 0, "{} asserts nothing", path.display());
    }
}

/// Connect Four in plain Rust: `cells[x][y]` with row 0 at the bottom.
struct Reference {
    cells: [[Option<usize>; 6]; 7],
    heights: [usize; 7],
}

impl Reference {
    fn new() -> Self {
        Reference {
            cells: [[None; 6]; 7],
            heights: [0; 7],
        }
    }

    fn open_columns(&self) -> Vec<String> {
        (0..7)
            .filter(|&x| self.heights[x] < 6)
            .map(|x| x.to_string())
            .collect()
    }

    /// Drops a disc of `seat` in column `x`; whether it makes four in a row.
    fn drop(&mut self, seat: usize, x: usize) -> bool {
        let y = self.heights[x];
        self.cells[x][y] = Some(seat);
        self.heights[x] += 1;
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let mut length = 1;
            for sign in [1i64, -1] {
                let (mut cx, mut cy) = (x as i64, y as i64);
                loop {
                    cx += sign * dx;
                    cy += sign * dy;
                    let inside = (0..7).contains(&cx) && (0..6).contains(&cy);
                    if !inside || self.cells[cx as usize][cy as usize] != Some(seat) {
                        break;
                    }
                    length += 1;
                }
            }
            length >= 4
        })
    }
}

#[test]
fn random_games_agree_with_a_reference() {
    let rules = rules();
    let (mut wins, mut draws) = (0, 0);
    for seed in 0..1500u64 {
        let mut game = Game::new(rules.clone(), 2, seed).expect("starts");
        let mut reference = Reference::new();
        let mut k = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let (mut seat, mut winner, mut discs) = (0, None, 0);
        loop {
            let legal = game.legal().expect("lists");
            let names: Vec<String> = legal.iter().map(|d| d.name.to_string()).collect();
            if winner.is_some() || discs == 42 {
                assert!(
                    game.is_over(),
                    "seed {seed}: the game goes on after the end"
                );
                assert!(names.is_empty());
                break;
            }
            assert_eq!(names, reference.open_columns(), "seed {seed}");
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (k >> 33) as usize % legal.len();
            let column: usize = names[i].parse().expect("a column number");
            game.apply(i).expect("applies");
            discs += 1;
            if reference.drop(seat, column) {
                winner = Some(seat);
            }
            seat = 1 - seat;
        }
        let outcome = game.outcome().expect("scores").expect("over");
        let ending = game.ending().expect("ending").expect("named");
        match winner {
            Some(w) => {
                wins += 1;
                assert_eq!(outcome.winners, vec![w], "seed {seed}");
                assert_eq!(ending, "four in a row", "seed {seed}");
            }
            None => {
                draws += 1;
                assert_eq!(outcome.winners, vec![0, 1], "seed {seed}");
                assert_eq!(ending, "full board", "seed {seed}");
            }
        }
    }
    assert!(wins > 1400, "{wins} wins");
    assert!(draws > 0, "no draw in 1500 random games");
}

#[test]
fn every_legal_holds_in_full_runs() {
    let mut rules = tabula::load(&dir(), &[]).expect("loads");
    rules.check_legal = true;
    let rules = Arc::new(rules);
    for seed in 0..100u64 {
        let mut game = Game::new(rules.clone(), 2, seed).expect("starts");
        while !game.is_over() {
            let n = game.legal().expect("lists").len();
            game.apply(seed as usize % n).expect("applies");
        }
    }
}

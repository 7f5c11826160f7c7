//! Applying a decision puts back the listing's try of it when the try ran
//! to the next decision (no second run): the game must then stand exactly
//! where running the decision again leaves it. A fork keeps no tries, so
//! the same decision applied on a fork is run again: both are compared
//! after every decision of whole games, with what they offer and refuse
//! next (the verdicts the put-back try's look-ahead found are reused).

use std::path::Path;
use std::sync::Arc;

use tabula::engine::Game;
use tabula::model::Ruleset;

fn ruleset(dir: &str, players: usize) -> Arc<Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    Arc::new(
        tabula::model::load_for_players(&dir, &[], players)
            .unwrap_or_else(|e| panic!("{}: {e:?}", dir.display())),
    )
}

/// What a run may change in the state, as text: the words, the random
/// generator, where the program stands, its frames, the options offered
/// and their screening, and the height of its stack. Not the values on
/// the stack: the locals a light try sets (the value it tries, what its
/// prefix computes) keep the last option's until the arm sets them again,
/// and the listing tries the options in another order than the look-ahead
/// of the try kept, so a local not yet set again may hold another of them.
fn standing(g: &Game) -> (Vec<i64>, String) {
    let st = g.state();
    let rest = format!(
        "{:?} {:?} {:?} {:?} {:?} {}",
        st.rng,
        st.status,
        st.vm.frames,
        st.vm.options,
        st.vm.screened,
        st.vm.stack.len()
    );
    (st.words.clone(), rest)
}

/// The names of the legal decisions, then those of the refused options
/// with their reasons: the listing after a try put back takes the
/// verdicts its look-ahead found, and they must be the ones a listing of
/// its own finds.
fn names(g: &mut Game) -> (Vec<String>, Vec<String>) {
    if g.is_over() {
        return (Vec::new(), Vec::new());
    }
    let legal = g.legal().expect("lists");
    let refused = g.refused().expect("lists");
    (
        legal.iter().map(|d| d.name.to_string()).collect(),
        refused
            .iter()
            .map(|r| format!("{}: {}", r.name, r.reason))
            .collect(),
    )
}

/// Plays a game from `seed` (at most `limit` decisions), applying each
/// decision both ways and comparing the games, and what they offer next.
fn same_both_ways(rules: Arc<Ruleset>, players: usize, seed: u64, limit: usize) {
    let mut g = Game::new(rules, players, seed).expect("starts");
    let mut k = seed;
    while !g.is_over() && g.decisions_taken() < limit {
        let n = g.legal().expect("lists").len();
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let i = (k >> 33) as usize % n;
        let mut again = g.fork();
        again.apply(i).expect("applies run again");
        g.apply(i).expect("applies");
        assert!(
            standing(&g) == standing(&again) && names(&mut g) == names(&mut again),
            "seed {seed}: after {:?} the game differs from running it again",
            g.history().last()
        );
    }
}

#[test]
fn a_kept_try_leaves_the_game_where_running_it_again_does() {
    for (dir, players) in [
        ("rules/tzolkin", 4),
        ("rules/tigris-euphrates", 2),
        ("rules/cuzco", 3),
        ("tests/rulesets/connect-four", 2),
    ] {
        let rules = ruleset(dir, players);
        for seed in 0..2 {
            same_both_ways(rules.clone(), players, seed, 400);
        }
    }
}

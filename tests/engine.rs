//! End-to-end checks of the engine on a small ruleset.

use std::path::Path;
use std::sync::Arc;

use tabula::engine::Game;

fn nim() -> Arc<tabula::model::Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    Arc::new(tabula::model::load(&dir, &[]).expect("nim loads"))
}

#[test]
fn nim_offers_one_to_three_and_refuses_more_than_the_pile() {
    let mut g = Game::new(nim(), 2, 0).unwrap();
    let names: Vec<String> = g.legal().unwrap().into_iter().map(|d| d.name).collect();
    assert_eq!(names, ["1", "2", "3"]);
    for _ in 0..4 {
        g.apply_named("3").unwrap();
    }
    // 3 left: all three still legal, then 1 left: only "1".
    g.apply_named("2").unwrap();
    let names: Vec<String> = g.legal().unwrap().into_iter().map(|d| d.name).collect();
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

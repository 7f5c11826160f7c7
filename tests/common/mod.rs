//! Random games of a ruleset with invariants written in the rules
//! language, checked after every decision (shared by the games' property
//! tests).

use std::sync::Arc;

use tabula::engine::Game;
use tabula::lang::parser::parse_expr;
use tabula::model::{snippet, Ruleset};

/// Adds the invariants and a function giving the total prestige.
pub fn with_checks(mut rules: Ruleset, invariants: &[&str]) -> (Arc<Ruleset>, Vec<u32>, u32) {
    let mut ids = Vec::new();
    for src in invariants {
        let e = parse_expr(0, src, &|o| o).expect("invariant parses");
        let (id, _) = snippet::add_expr(&mut rules, &e)
            .unwrap_or_else(|d| panic!("invariant `{src}` does not check: {}", d[0].message));
        ids.push(id);
    }
    let e = parse_expr(0, "sum(p in players: prestige[p])", &|o| o).expect("parses");
    let (total, _) = snippet::add_expr(&mut rules, &e).expect("checks");
    (Arc::new(rules), ids, total)
}

/// Plays one random game checking the invariants after every decision and
/// that the prestige never goes down; returns the decisions and the final
/// state's hash.
#[allow(clippy::too_many_arguments)]
pub fn play(
    rules: &Arc<Ruleset>,
    inv: &[u32],
    invariants: &[&str],
    total: Option<u32>,
    players: usize,
    seed: u64,
    max_decisions: usize,
) -> (Vec<Arc<str>>, u64) {
    let mut game = Game::new(rules.clone(), players, seed)
        .unwrap_or_else(|e| panic!("seed {seed}: start failed: {e}"));
    let mut k = seed ^ 0x9e37_79b9_7f4a_7c15;
    let mut prestige = 0;
    while !game.is_over() {
        let legal = game.legal().unwrap_or_else(|e| match e {
            tabula::engine::ApplyError::Runtime(r) => panic!("seed {seed}:\n{}", game.report(&r)),
            other => panic!("seed {seed}: {other}"),
        });
        assert!(
            game.decisions_taken() < max_decisions,
            "seed {seed}: the game does not end"
        );
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        game.apply((k >> 33) as usize % legal.len())
            .expect("legal decision applies");
        for (i, f) in inv.iter().enumerate() {
            let v = game.eval(*f).expect("invariant evaluates");
            assert_eq!(
                v.int(),
                1,
                "seed {seed}, {players} players, after {} decisions ({:?}): invariant broken: {}",
                game.decisions_taken(),
                &game.history()[game.decisions_taken().saturating_sub(8)..],
                invariants[i]
            );
        }
        if let Some(total) = total {
            let now = game.eval(total).expect("prestige evaluates").int();
            assert!(now >= prestige, "seed {seed}: prestige went down");
            prestige = now;
        }
    }
    let outcome = game.outcome().unwrap().expect("over");
    assert_eq!(outcome.keys.len(), players);
    (game.history().to_vec(), game.state().hash())
}

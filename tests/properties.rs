//! Properties of whole games: random games at every player count finish
//! without error with the rules' invariants holding after every decision,
//! and the same seed with the same decisions gives the same game.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use tabula::engine::Game;
use tabula::lang::parser::parse_expr;
use tabula::model::{snippet, Ruleset};

/// Invariants of Tzolk'in, written in the rules language.
const TZOLKIN_INVARIANTS: &[&str] = &[
    // Never more than 13 crystal skulls out.
    "skull_bank >= 0 and skull_bank + sum(p in players: skulls[p]) + skulls_on_chichen == 13",
    // No negative stock.
    "all(p in players: corn[p] >= 0 and skulls[p] >= 0 and all(r in resource: res[p, r] >= 0))",
    // Workers are conserved: available + on the gears + on the start-player space.
    "all(p in players: free[p] >= 0 and free[p] + on_gears(p) + (if sp_worker == p then 1 else 0) == workers[p])",
    "all(p in players: workers[p] >= start_workers and workers[p] <= max_workers)",
    // Temples and technologies stay on their tracks; a top step holds one player.
    "all(p in players: all(t in temple: step[p, t] >= 0 and step[p, t] <= t.top))",
    "all(t in temple: count(p in players where step[p, t] == t.top) <= 1)",
    "all(p in players: all(t in track: tech[p, t] >= 0 and tech[p, t] <= 3))",
    // Jungle tiles: never negative, wood always on corn.
    "all(g in 2..=5: wood_tiles[g] >= 0 and corn_tiles[g] >= wood_tiles[g])",
    // The calendar ends with the fourth Food Day.
    "food_done <= 4 and day <= 30",
];

fn tzolkin() -> Ruleset {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tzolkin");
    tabula::model::load(&dir, &[]).expect("tzolkin loads")
}

fn with_invariants(mut rules: Ruleset, sources: &[&str]) -> (Arc<Ruleset>, Vec<u32>) {
    let mut ids = Vec::new();
    for src in sources {
        let e = parse_expr(0, src, &|o| o).expect("invariant parses");
        let (id, _) = snippet::add_expr(&mut rules, &e)
            .unwrap_or_else(|d| panic!("invariant `{src}` does not check: {}", d[0].message));
        ids.push(id);
    }
    (Arc::new(rules), ids)
}

/// Plays one random game, checking every invariant after each decision;
/// returns the decisions made.
fn play(
    rules: &Arc<Ruleset>,
    invariants: &[u32],
    players: usize,
    seed: u64,
) -> (Vec<Arc<str>>, u64) {
    let mut game = Game::new(rules.clone(), players, seed)
        .unwrap_or_else(|e| panic!("seed {seed}: start failed: {e}"));
    let mut k = seed ^ 0x9e37_79b9_7f4a_7c15;
    while !game.is_over() {
        let legal = game.legal().unwrap_or_else(|e| match e {
            tabula::engine::ApplyError::Runtime(r) => panic!("seed {seed}:\n{}", game.report(&r)),
            other => panic!("seed {seed}: {other}"),
        });
        k = k
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        game.apply((k >> 33) as usize % legal.len())
            .expect("legal decision applies");
        for (i, f) in invariants.iter().enumerate() {
            let v = game.eval(*f).expect("invariant evaluates");
            assert_eq!(
                v.int(),
                1,
                "seed {seed}, {players} players, after {} decisions: invariant {} broken: {}",
                game.decisions_taken(),
                i,
                TZOLKIN_INVARIANTS[i]
            );
        }
    }
    let outcome = game.outcome().unwrap().expect("over");
    assert_eq!(outcome.keys.len(), players);
    assert!(!outcome.winners.is_empty());
    (game.history().to_vec(), game.state().hash())
}

fn many_games(players: usize) {
    let (rules, inv) = with_invariants(tzolkin(), TZOLKIN_INVARIANTS);
    let games: u64 = std::env::var("TABULA_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    (0..games).into_par_iter().for_each(|i| {
        play(&rules, &inv, players, 1000 * players as u64 + i);
    });
}

#[test]
fn random_games_2_players_keep_the_invariants() {
    many_games(2);
}

#[test]
fn random_games_3_players_keep_the_invariants() {
    many_games(3);
}

#[test]
fn random_games_4_players_keep_the_invariants() {
    many_games(4);
}

#[test]
fn same_seed_same_decisions_same_game() {
    let (rules, inv) = with_invariants(tzolkin(), TZOLKIN_INVARIANTS);
    for seed in [1, 2, 3] {
        let a = play(&rules, &inv, 4, seed);
        let b = play(&rules, &inv, 4, seed);
        assert_eq!(a, b);
        // Replaying the decisions by name from a fresh game reaches the same state.
        let mut g = Game::new(rules.clone(), 4, seed).unwrap();
        for d in &a.0 {
            g.apply_named(d).unwrap();
        }
        assert!(g.is_over());
        assert_eq!(g.state().hash(), a.1);
    }
}

/// Plays random games with every option also run in full at every
/// decision: each `legal;` the rules reach must tell the truth.
fn legal_statements_hold(dir: &str, variants: &[&str], games: u64) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let variants: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    let mut rules = tabula::model::load(&dir, &variants).expect("ruleset loads");
    rules.check_legal = true;
    let rules = Arc::new(rules);
    for players in rules.min_players..=rules.max_players {
        (0..games).into_par_iter().for_each(|i| {
            play(&rules, &[], players, 7000 + 100 * players as u64 + i);
        });
    }
}

#[test]
fn legal_statements_hold_in_random_tzolkin_games() {
    legal_statements_hold("rules/tzolkin", &[], 40);
}

#[test]
fn legal_statements_hold_in_random_tigris_euphrates_games() {
    legal_statements_hold("rules/tigris-euphrates", &[], 10);
    legal_statements_hold(
        "rules/tigris-euphrates",
        &["advanced", "english", "wonder"],
        10,
    );
    legal_statements_hold("rules/tigris-euphrates", &["advanced-board"], 5);
    legal_statements_hold("rules/tigris-euphrates", &["buildings"], 5);
}

//! Properties of random Cuzco games: the invariants, written in the rules
//! language, hold after every decision; prestige never goes down; every
//! `legal;` tells the truth; the same seed gives the same game.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use tabula::engine::Game;
use tabula::model::Ruleset;

/// Invariants of Cuzco, written in the rules language.
const INVARIANTS: &[&str] = &[
    // Supplies are never negative.
    "triples_left >= 0 and ponds_left >= 0 and discs_left >= 0",
    "all(p in players: reserve[p] >= 0 and tokens[p] >= 0 and all(t in tile: own[p, t] >= 0))",
    "all(f in floor: floors_left[f] >= 0)",
    // Every Inca is on the board or beside it; one Inca per hex; Incas
    // stand on terrain of the region, never on a temple.
    "all(p in players: count(mine[p]) + reserve[p] == incas_each)",
    "sum(p in players: count(mine[p])) == count(incas)",
    "count(incas - terrain() * board) == 0 and count(incas * temples) == 0",
    // Terrain and elevations agree; ponds are never covered and never on
    // terrain; nothing rises above the highest elevation kept.
    "count(crop * village) == 0 and terrain() == hex - lv[0]",
    "all(c in hex: c in lv[height[c]] and height[c] <= max_height)",
    "count(ponds * terrain()) == 0 and count(ponds - board) == 0",
    "count(ponds) + ponds_left == pond_supply + 3",
    // Temples: on village hexes of the region, of an even value up to 10,
    // built of floors from the supply; never two in one city.
    "count(temples - vil()) == 0",
    "all(t in temples: value[t] >= 2 and value[t] <= 10 and value[t] % 2 == 0)",
    "all(f in floor: floors_left[f] + count(t in temples where value[t] >= f.value) == f.supply)",
    "all(t in temples: count(city(t) * temples) == 1)",
    // Solar discs: on temples, from the supply of 15.
    "count(discs - temples) == 0 and count(discs) + discs_left == solar_discs",
    // Festival cards: 30, in the deck, face up, in the discard or in hands.
    "len(deck) + count(discard) + (if shown == none then 0 else 1) + sum(p in players: count(hand[p])) == 30",
    // Terrain laid: the triples taken and each player's own tiles.
    "tiles_laid == (triples - triples_left) + sum(p in players: (doubles_each - own[p, double]) + (crop_singles_each - own[p, crop_single]) + (village_singles_each - own[p, village_single]))",
];

fn cuzco() -> Ruleset {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/cuzco");
    tabula::model::load(&dir, &[]).expect("cuzco loads")
}

mod common;

fn with_checks(rules: Ruleset) -> (Arc<Ruleset>, Vec<u32>, u32) {
    common::with_checks(rules, INVARIANTS)
}

fn play(
    rules: &Arc<Ruleset>,
    inv: &[u32],
    total: Option<u32>,
    players: usize,
    seed: u64,
) -> (Vec<Arc<str>>, u64) {
    common::play(rules, inv, INVARIANTS, total, players, seed, 100_000)
}

#[test]
fn random_games_keep_the_invariants_at_every_player_count() {
    let games: u64 = std::env::var("TABULA_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let (rules, inv, total) = with_checks(cuzco());
    for players in 2..=4 {
        (0..games).into_par_iter().for_each(|i| {
            play(
                &rules,
                &inv,
                Some(total),
                players,
                4000 * players as u64 + i,
            );
        });
    }
}

#[test]
fn legal_statements_hold_in_random_games() {
    let mut rules = cuzco();
    rules.check_legal = true;
    let rules = Arc::new(rules);
    for players in 2..=4 {
        (0..3u64).into_par_iter().for_each(|i| {
            play(&rules, &[], None, players, 9100 + 100 * players as u64 + i);
        });
    }
}

#[test]
fn same_seed_same_decisions_same_game() {
    let (rules, inv, total) = with_checks(cuzco());
    let a = play(&rules, &inv, Some(total), 3, 17);
    let b = play(&rules, &inv, Some(total), 3, 17);
    assert_eq!(a, b);
    let mut g = Game::new(rules.clone(), 3, 17).unwrap();
    for d in &a.0 {
        g.apply_named(d).unwrap();
    }
    assert!(g.is_over());
    assert_eq!(g.state().hash(), a.1);
}

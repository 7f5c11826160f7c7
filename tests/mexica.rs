//! Properties of random Mexica games: the invariants, written in the rules
//! language, hold after every decision; prestige never goes down; every
//! `legal;` tells the truth; the same seed gives the same game.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use tabula::engine::Game;
use tabula::model::Ruleset;

/// Invariants of Mexica, written in the rules language.
const INVARIANTS: &[&str] = &[
    // Supplies are never negative.
    "small_left >= 0 and big_left >= 0 and bridges_left >= 0 and token_pool >= 0",
    "all(p in players: tokens[p] >= 0 and all(l in level: stock[p, l] >= 0 and later[p, l] >= 0))",
    // At most 43 canal tiles on the island: the printed canal's 4 squares
    // and every tile taken from the supply, each covering 1 or 2 squares.
    "count(canal) == 4 + (small_canals - small_left) + 2 * (big_canals - 2 - big_left)",
    "count(canal) <= small_canals + 2 * big_canals",
    // At most 11 bridges, each across a canal with its two ends on land.
    "count(bridges) + bridges_left == bridge_supply",
    "all(b in bridges: b in canal and count(ends(b) * ground) == 2)",
    "count(ramps) == 2 * count(bridges)",
    // Action tokens are conserved.
    "token_pool + sum(p in players: tokens[p]) == token_supply",
    // Every temple a player built comes from their 18.
    "all(p in players: sum(l in level: stock[p, l] + later[p, l]) + count(c in temples where owner[c] == p) == 18)",
    // A founded district keeps the size of its calpulli.
    "all(t in calpulli where home[t] != none: count(district(home[t])) == t.size and tile_at[home[t]] == t)",
    // Pieces never share a square; Pillis stand on land or on a bridge.
    "count(temples * tiles) == 0 and count(pillis * (temples + tiles)) == 0",
    "all(p in players: pos[p] == none or pos[p] in ground + bridges)",
    "count(free * (temples + tiles + pillis + canal)) == 0",
];

fn mexica_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/mexica")
}

/// Mexica for a game of `players`, with the variants that count needs
/// (`variants_by_players:` in game.yaml: the neutral temples at 2).
fn mexica_for(players: usize, variants: &[&str]) -> Ruleset {
    let variants: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    tabula::model::load_for_players(&mexica_dir(), &variants, players).expect("mexica loads")
}

#[test]
fn two_players_play_with_the_neutral_temples() {
    assert_eq!(mexica_for(2, &[]).variants, ["two-player"]);
    assert!(mexica_for(3, &[]).variants.is_empty());
    assert!(mexica_for(4, &[]).variants.is_empty());
    assert_eq!(
        mexica_for(2, &["stronger-neutral"]).variants,
        ["two-player", "stronger-neutral"]
    );
    // Asked for explicitly, it is applied once.
    assert_eq!(mexica_for(2, &["two-player"]).variants, ["two-player"]);
    let plain = tabula::model::load(&mexica_dir(), &[]).expect("mexica loads");
    assert_eq!(plain.missing_variants(2), ["two-player"]);
    assert!(plain.missing_variants(3).is_empty());
    // A game of 2 cannot start without them.
    let plain = Arc::new(plain);
    match Game::new(plain.clone(), 2, 1) {
        Err(tabula::ApplyError::MissingVariants { variants, .. }) => {
            assert_eq!(variants, ["two-player"])
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a 2-player game started without the neutral temples"),
    }
    assert!(Game::new(plain, 3, 1).is_ok());
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
    common::play(rules, inv, INVARIANTS, total, players, seed, 200_000)
}

#[test]
fn random_games_keep_the_invariants_at_every_player_count() {
    let games: u64 = std::env::var("TABULA_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    for players in 2..=4 {
        let (rules, inv, total) = with_checks(mexica_for(players, &[]));
        (0..games).into_par_iter().for_each(|i| {
            play(
                &rules,
                &inv,
                Some(total),
                players,
                3000 * players as u64 + i,
            );
        });
    }
}

#[test]
fn legal_statements_hold_in_random_games() {
    for players in 2..=4 {
        let mut rules = mexica_for(players, &[]);
        rules.check_legal = true;
        let rules = Arc::new(rules);
        (0..4u64).into_par_iter().for_each(|i| {
            play(&rules, &[], None, players, 9000 + 100 * players as u64 + i);
        });
    }
}

#[test]
fn same_seed_same_decisions_same_game() {
    let (rules, inv, total) = with_checks(mexica_for(4, &[]));
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

#[test]
fn simulate_counts_how_the_games_ended() {
    let dir = std::env::temp_dir().join(format!("tabula-mexica-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let endings = ["all temples built", "no district left for temples"];
    for players in [2, 4] {
        let json = dir.join(format!("run{players}.json"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
            .arg("simulate")
            .arg(mexica_dir())
            .args(["-p", &players.to_string(), "--games", "6", "-q", "--json"])
            .arg(&json)
            .output()
            .expect("the binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rep: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        // Every game ended one of the two ways the rules name, and the
        // summary counts them.
        let counted = rep["summary"]["endings"]
            .as_object()
            .expect("endings counted");
        assert!(
            counted.keys().all(|k| endings.contains(&k.as_str())),
            "{counted:?}"
        );
        assert_eq!(
            counted.values().map(|v| v.as_u64().unwrap()).sum::<u64>(),
            6
        );
        for g in rep["games"].as_array().unwrap() {
            assert!(endings.contains(&g["ending"].as_str().unwrap()), "{g}");
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("endings:"), "{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

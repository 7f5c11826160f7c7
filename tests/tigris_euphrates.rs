//! Hidden information in the Tigris & Euphrates ruleset: the hands are tiles
//! drawn from the bag, so a search bot's determinization for one seat mixes
//! the bag, the other hands and the other players' discards, and leaves what
//! the seat sees (its own hand, the board, its points) alone; the rules'
//! `evaluate(p)` reads only what `p` sees.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use tabula::agents::{Agent, RandomAgent};
use tabula::engine::sample::determinize;
use tabula::engine::state::Value;
use tabula::engine::{vm, Game};
use tabula::model::Ruleset;

fn rules() -> Arc<Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tigris-euphrates");
    Arc::new(tabula::model::load(&dir, &[]).unwrap_or_else(|e| panic!("{e:?}")))
}

/// A game of `players` after `steps` random decisions.
fn game_after(rules: &Arc<Ruleset>, players: usize, seed: u64, steps: usize) -> Game {
    let mut g = Game::new(rules.clone(), players, seed).unwrap();
    let mut bot = RandomAgent::new(seed);
    for _ in 0..steps {
        if g.is_over() {
            break;
        }
        let legal = g.legal().unwrap();
        let i = bot.choose(&mut g, &legal);
        g.apply(i).unwrap();
    }
    assert!(!g.is_over(), "the game ended too early for the test");
    g
}

/// The items of a set or list line of a view (`name = {a, b}` / `[a, b]`).
fn items(line: &str) -> Vec<String> {
    let v = line.split(" = ").nth(1).unwrap_or("");
    let v = v.trim_matches(|c| c == '{' || c == '}' || c == '[' || c == ']');
    if v.is_empty() {
        return Vec::new();
    }
    v.split(", ").map(str::to_string).collect()
}

/// Each place that holds tiles out of sight (`bag`, `hand[seat]`,
/// `discarded[seat]`) with its tiles, from the referee's view.
fn places(view: &[String]) -> BTreeMap<String, Vec<String>> {
    view.iter()
        .filter(|l| {
            l.starts_with("bag = ") || l.starts_with("hand[") || l.starts_with("discarded[")
        })
        .map(|l| (l.split(" = ").next().unwrap().to_string(), items(l)))
        .collect()
}

fn evaluate(rules: &Arc<Ruleset>, g: &Game, p: usize) -> i64 {
    let (_, f) = rules
        .proc_names
        .iter()
        .find(|(n, _)| n == "evaluate")
        .expect("the rules declare evaluate");
    let mut st = g.state().clone();
    vm::eval(rules, &mut st, *f, vec![Value::I(p as i64)])
        .unwrap()
        .int()
}

#[test]
fn other_hands_discards_and_points_and_the_bag_are_hidden_in_a_seats_view() {
    let rules = rules();
    let g = game_after(&rules, 3, 5, 40);
    let mine = g.view(Some(0));
    let line = |name: &str| mine.iter().find(|l| l.starts_with(name)).cloned();
    let own = line("hand[archer] = ").expect("own hand shown");
    assert!(!own.contains('?'), "{own}");
    for other in [
        "hand[bull] = ",
        "hand[urn] = ",
        "bag = ",
        "discarded[bull] = ",
        "vp[bull, red] = ",
        "vp[urn, black] = ",
        "treasures[urn] = ",
    ] {
        let l = line(other).unwrap_or_else(|| panic!("{other} listed: {mine:?}"));
        assert!(l.contains('?'), "{l}");
    }
}

#[test]
fn a_determinization_reshuffles_bag_other_hands_and_discards_together() {
    let rules = rules();
    let mut rng = rand_pcg::Pcg64::new(3, 7);
    for (players, seed, steps) in [(2, 1, 120), (3, 2, 90), (4, 3, 60)] {
        let g = game_after(&rules, players, seed, steps);
        let truth = places(&g.view(None));
        let sizes: BTreeMap<&String, usize> = truth.iter().map(|(k, v)| (k, v.len())).collect();
        let mut all: Vec<&String> = truth.values().flatten().collect();
        all.sort();
        let n = all.len();
        all.dedup();
        assert_eq!(all.len(), n, "a tile in two places");
        for me in 0..players {
            let seat = ["archer", "bull", "urn", "lion"][me];
            let mut others_changed = false;
            for _ in 0..20 {
                let d = determinize(&g, me, &mut rng);
                assert_eq!(
                    d.view(Some(me)),
                    g.view(Some(me)),
                    "what the seat sees changed"
                );
                assert_eq!(evaluate(&rules, &d, me), evaluate(&rules, &g, me));
                let sample = places(&d.view(None));
                let got: BTreeMap<&String, usize> =
                    sample.iter().map(|(k, v)| (k, v.len())).collect();
                assert_eq!(got, sizes, "every place keeps its size");
                let mut pool: Vec<&String> = sample.values().flatten().collect();
                pool.sort();
                let mut before: Vec<&String> = truth.values().flatten().collect();
                before.sort();
                assert_eq!(pool, before, "the same tiles, dealt again");
                assert_eq!(
                    sample[&format!("hand[{seat}]")],
                    truth[&format!("hand[{seat}]")]
                );
                others_changed |= sample.iter().any(|(k, v)| {
                    k.starts_with("hand[") && *k != format!("hand[{seat}]") && truth[k] != *v
                });
            }
            assert!(others_changed, "the other hands were never dealt again");
        }
    }
}

#[test]
fn the_colours_in_a_hand_are_read_natively_with_the_same_answer() {
    let rules = rules();
    for seed in 0..20 {
        let g = game_after(&rules, 2, seed, 25);
        let mut extra = (*rules).clone();
        let mut values = Vec::new();
        // The native form (the values of a field over a set) and the same
        // question asked colour by colour.
        for (src, native) in [
            (
                "count({k in colour where any(t in hand[archer]: t.colour == k)})",
                true,
            ),
            ("count(k in colour where held(archer, k) > 0)", false),
        ] {
            let e = tabula::lang::parser::parse_expr(0, src, &|o| o).unwrap();
            let (f, _) = tabula::model::snippet::add_expr(&mut extra, &e).unwrap();
            let code = &extra.funcs()[f as usize].code;
            let image = code
                .iter()
                .any(|op| matches!(op, tabula::ir::bytecode::Op::FieldImage(..)));
            assert_eq!(image, native, "{src}");
            let mut st = g.state().clone();
            values.push(vm::eval(&extra, &mut st, f, Vec::new()).unwrap().int());
        }
        assert_eq!(values[0], values[1], "seed {seed}");
        assert!((1..=4).contains(&values[0]), "seed {seed}: {values:?}");
    }
}

/// Copies a directory tree (a ruleset to which a test adds a variant).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        if e.path().is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// With three actions a turn, two greedy bots may pass forever: passing
/// ends the turn at once and scores the monument points of its end, which
/// a one-decision look-ahead values above starting an action, and the game
/// ends only when tiles are drawn. Such a game once ran for 18 minutes
/// under `compare` (greedy's time per decision grew with the game's length:
/// every decision copied the history, once per option); it is now given up
/// at the decision limit, each decision costing the same.
#[test]
fn greedy_bots_that_pass_forever_end_at_the_decision_limit() {
    use tabula::sim::{build_agents, game_seed, play_until, Ending};
    let dir = std::env::temp_dir().join(format!("tabula-te-three-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tigris-euphrates"),
        &dir,
    );
    std::fs::write(
        dir.join("variants/three.yaml"),
        "description: three actions a turn\nfiles: [three/params.yaml]\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("variants/three")).unwrap();
    std::fs::write(
        dir.join("variants/three/params.yaml"),
        "params:\n  actions_per_turn: 3\n",
    )
    .unwrap();
    let rules = tabula::model::load(&dir, &["three".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
    let rules = Arc::new(rules.unwrap_or_else(|e| panic!("{e:?}")));
    let specs = tabula::agents::parse_agents(Some("greedy,greedy"), 2).unwrap();
    let seed = game_seed(1, 0);
    let mut bots = build_agents(&rules, &specs, seed).unwrap();
    let (game, _, ending) =
        play_until(&rules, &mut bots, seed, 3000).unwrap_or_else(|e| panic!("{}", e.report));
    assert_eq!(ending, Ending::Unfinished);
    let h = game.history();
    assert!(
        h[h.len() - 500..].iter().all(|d| &**d == "pass"),
        "{:?}",
        &h[h.len() - 20..]
    );
}

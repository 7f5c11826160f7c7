//! The search bot's options (greedy rollouts, a rollout cut-off, rewards),
//! the engine's random pick for rollouts, that a greedy bot looking through
//! its turn and the search bot build in Tzolk'in as a human would, and —
//! ignored, run by hand — a measurement of how many buildings each bot
//! builds in a Tzolk'in game.

use std::path::Path;
use std::sync::Arc;

use rand_pcg::Pcg64;
use tabula::agents::{parse_agents, AgentSpec};
use tabula::engine::Game;
use tabula::ir::ruleset::{Ty, PLAYER};
use tabula::model::Ruleset;
use tabula::sim;

fn load(game: &str) -> Arc<Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(game);
    Arc::new(tabula::model::load(&dir, &[]).unwrap_or_else(|e| panic!("{e:?}")))
}

/// Plays one game between `agents` from `seed`; the game, over.
fn play(rules: &Arc<Ruleset>, agents: &str, players: usize, seed: u64) -> Game {
    let specs = parse_agents(Some(agents), players).unwrap();
    let mut bots = sim::build_agents(rules, &specs, seed).unwrap();
    sim::play_game(rules, &mut bots, seed, sim::MAX_DECISIONS)
        .unwrap_or_else(|e| panic!("{agents}, seed {seed}: {e}"))
}

#[test]
fn the_new_mcts_options_play_legal_games_the_same_way_from_the_same_seed() {
    let nim = load("tests/rulesets/nim");
    let tz = load("rules/tzolkin");
    for (rules, agents, players) in [
        (&nim, "mcts:iterations=50:rollout=greedy,random", 2),
        (&nim, "random,mcts:iterations=50:cutoff=3", 2),
        (
            &nim,
            "mcts:iterations=50:reward=leaders,mcts:reward=chances",
            2,
        ),
        (
            &tz,
            "mcts:iterations=4:rollout=greedy:cutoff=3,mcts:iterations=4:cutoff=5",
            2,
        ),
    ] {
        for seed in [1, 2] {
            // `play_game` applies only what the engine lists as legal, and
            // fails if the game does not end.
            let a = play(rules, agents, players, seed);
            let b = play(rules, agents, players, seed);
            assert!(a.is_over());
            assert_eq!(a.history(), b.history(), "{agents}, seed {seed}");
            assert_eq!(a.state().hash(), b.state().hash(), "{agents}, seed {seed}");
        }
    }
}

#[test]
fn the_options_change_the_search() {
    let nim = load("tests/rulesets/nim");
    let plain = play(&nim, "mcts:iterations=30,random", 2, 5);
    let same = play(&nim, "mcts:iterations=30:rollout=random,random", 2, 5);
    assert_eq!(
        plain.history(),
        same.history(),
        "rollout=random is the default"
    );
    let margin = play(&nim, "mcts:iterations=30:reward=margin,random", 2, 5);
    assert_eq!(
        plain.history(),
        margin.history(),
        "reward=margin is the default"
    );
    let specs: Vec<AgentSpec> = ["mcts:cutoff=2", "mcts:rollout=greedy"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(specs[0].to_string(), "mcts:cutoff=2");
    assert_eq!(specs[1].to_string(), "mcts:rollout=greedy");
}

#[test]
fn a_random_pick_without_the_listing_is_a_legal_decision() {
    for game in [
        "rules/tzolkin",
        "rules/tigris-euphrates",
        "tests/rulesets/nim",
    ] {
        let rules = load(game);
        let mut rng: Pcg64 = rand_core::SeedableRng::seed_from_u64(7);
        for seed in 0..3 {
            let mut g = Game::new(rules.clone(), 2, seed).unwrap();
            let mut steps = 0;
            while !g.is_over() && steps < 400 {
                let legal: Vec<String> = g
                    .legal()
                    .unwrap()
                    .iter()
                    .map(|d| d.name.to_string())
                    .collect();
                let mut fork = g.fork();
                assert!(
                    fork.apply_random(&mut rng).unwrap(),
                    "{game}: a legal option exists"
                );
                let name = &fork.history().last().unwrap().to_string();
                assert!(
                    legal.contains(name),
                    "{game}: `{name}` is not among {legal:?}"
                );
                // The fork is where applying that decision leads.
                let mut check = g.fork();
                check.apply_named(name).unwrap();
                assert_eq!(check.state().hash(), fork.state().hash(), "{game}: {name}");
                g = fork;
                steps += 1;
            }
        }
    }
}

/// With `TRACE` set, prints the first seat's decisions in game 0 (to see
/// how a bot plays).
fn trace(rules: &Arc<Ruleset>, agents: &str, players: usize, seed: u64) {
    let specs = parse_agents(Some(agents), players).unwrap();
    let mut bots = sim::build_agents(rules, &specs, seed).unwrap();
    let mut g = Game::new(rules.clone(), players, seed).unwrap();
    while !g.is_over() {
        let legal = g.legal().unwrap();
        let seat = g.to_move().unwrap();
        let prompt = g.prompt().unwrap_or("").to_string();
        let i = bots[seat].choose(&mut g, &legal);
        if seat == 0 && legal.len() > 1 {
            println!("{prompt}: {} (of {})", legal[i].name, legal.len());
        }
        g.apply(i).unwrap();
    }
    println!("{}", g.view(None).join("\n"));
}

/// Items of a set variable indexed by player, per seat, read from the
/// public view (`v[seat] = {a, b}`; an empty set is not shown).
fn set_sizes(g: &Game, var: &str) -> Vec<usize> {
    let view = g.view(None);
    (0..g.players())
        .map(|p| {
            let seat = g.display(&Ty::Ent(PLAYER), p as i64);
            let head = format!("{var}[{seat}] = {{");
            view.iter()
                .find_map(|l| l.strip_prefix(&head))
                .map_or(0, |inner| inner.trim_end_matches('}').split(", ").count())
        })
        .collect()
}

/// The rules' metric `name` per seat, read once the game is over.
fn metric(g: &mut Game, name: &str) -> Vec<i64> {
    let i = g
        .rules()
        .metrics
        .iter()
        .position(|m| m.name == name)
        .unwrap_or_else(|| panic!("no metric `{name}`"));
    g.metrics().unwrap().swap_remove(i)
}

/// Buildings (the rules' `buildings` metric) a bot builds per game, on
/// average, over `games` Tzolk'in games from seed 0 in the first seat
/// against random bots (played on two threads, to keep the test short).
fn buildings_of(agent: &str, games: u64) -> f64 {
    let rules = load("rules/tzolkin");
    let agents = format!("{agent},random,random,random");
    let (rules, agents) = (&rules, &agents);
    let total: i64 = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..2)
            .map(|t| {
                scope.spawn(move || {
                    (t..games)
                        .step_by(2)
                        .map(|i| {
                            let mut g = play(rules, agents, 4, sim::game_seed(0, i as usize));
                            metric(&mut g, "buildings")[0]
                        })
                        .sum::<i64>()
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).sum()
    });
    total as f64 / games as f64
}

#[test]
fn a_greedy_bot_looking_through_its_turn_builds_as_a_human_would() {
    // The rules' `evaluate` values a worker on Tikal by the building its
    // owner could pay for: looking through its own turn, the greedy bot
    // gathers resources and builds (humans build about 3 to 8 a game).
    let n = buildings_of("greedy:depth=6", 12);
    assert!(n >= 3.0, "{n} buildings a game");
}

#[test]
fn the_search_bot_builds_as_a_human_would() {
    // The default search bot (300 iterations, rollouts of 60 decisions
    // valued by the margin on `evaluate` over the best other seat) keeps
    // telling a good option from a poor one when it leads the table (a
    // reward of 1 shared by the leaders does not: 1.25 buildings a game).
    // Figures in docs/AGENTS.md: 3.75 buildings a game over eight games
    // from seed 0; four games from seed 0 build 18.
    let n = buildings_of("mcts", 4);
    assert!(n >= 3.0, "{n} buildings a game");
}

/// Buildings (and monuments) built per game by each seat's bot in
/// Tzolk'in, with its win share. A measurement, not a check: run it with
/// `BOTS=greedy,random,random,random GAMES=20 [RULES=dir] cargo test --release --test
/// bots -- --ignored --nocapture`.
#[test]
#[ignore]
fn buildings_per_game() {
    let agents = std::env::var("BOTS").unwrap_or_else(|_| "greedy,random,random,random".into());
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(20);
    let seed0: u64 = std::env::var("SEED")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(0);
    let rules = load(&std::env::var("RULES").unwrap_or_else(|_| "rules/tzolkin".into()));
    let players = agents.split(',').count();
    let (mut buildings, mut monuments, mut wins) = (
        vec![0usize; players],
        vec![0usize; players],
        vec![0f64; players],
    );
    if std::env::var("TRACE").is_ok() {
        trace(&rules, &agents, players, sim::game_seed(seed0, 0));
    }
    for i in 0..games {
        let seed = sim::game_seed(seed0, i as usize);
        let mut g = play(&rules, &agents, players, seed);
        for (p, n) in set_sizes(&g, "built").into_iter().enumerate() {
            buildings[p] += n;
        }
        for (p, n) in set_sizes(&g, "monuments_built").into_iter().enumerate() {
            monuments[p] += n;
        }
        let w = g.outcome().unwrap().unwrap().winners;
        for p in &w {
            wins[*p] += 1.0 / w.len() as f64;
        }
    }
    for (p, a) in agents.split(',').enumerate() {
        println!(
            "seat {} {a}: buildings/game {:.2}  monuments/game {:.2}  wins {:.1}/{games}",
            p + 1,
            buildings[p] as f64 / games as f64,
            monuments[p] as f64 / games as f64,
            wins[p]
        );
    }
}

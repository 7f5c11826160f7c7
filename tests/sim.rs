//! Simulations through the library, on the small test ruleset
//! `tests/rulesets/nim`: reproducibility across threads and shards, merging,
//! statistics, the greedy bot and comparisons of rule sets.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tabula::agents::{parse_agents, Agent, AgentSpec, GreedyAgent};
use tabula::engine::Game;
use tabula::model::Ruleset;
use tabula::sim::{self, compare, merge, Report, Shard, SimConfig};

fn nim_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim")
}

fn load(dir: &Path, variants: &[String]) -> Arc<Ruleset> {
    Arc::new(tabula::model::load(dir, variants).unwrap_or_else(|e| panic!("{e:?}")))
}

fn nim() -> Arc<Ruleset> {
    load(&nim_dir(), &[])
}

/// A copy of nim under the temp dir, with `extra` appended to its rules
/// and `files` (relative path, contents) added.
fn nim_copy(name: &str, extra: &str, files: &[(&str, &str)]) -> PathBuf {
    let d = std::env::temp_dir()
        .join(format!("tabula-sim-{}-{name}", std::process::id()))
        .join("nim");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("variants")).unwrap();
    for f in ["game.yaml", "data.yaml", "nim.rules"] {
        std::fs::copy(nim_dir().join(f), d.join(f)).unwrap();
    }
    let rules = std::fs::read_to_string(d.join("nim.rules")).unwrap();
    std::fs::write(d.join("nim.rules"), format!("{rules}\n{extra}\n")).unwrap();
    for (path, text) in files {
        std::fs::write(d.join(path), text).unwrap();
    }
    d
}

fn cfg(players: usize, games: usize, seed: u64, agents: &str) -> SimConfig {
    SimConfig {
        agents: parse_agents(Some(agents), players).unwrap(),
        ..SimConfig::random(players, games, seed)
    }
}

fn report(rules: &Arc<Ruleset>, cfg: &SimConfig, jobs: usize) -> Report {
    let records = sim::run(rules, cfg, jobs, &|_| {}).unwrap();
    let seats = (1..=cfg.players).map(|p| format!("p{p}")).collect();
    Report::new(rules, cfg, seats, records)
}

#[test]
fn a_run_is_identical_for_any_number_of_threads() {
    let rules = nim();
    let c = cfg(3, 200, 11, "greedy,random,random");
    let one = report(&rules, &c, 1).to_json();
    for jobs in [2, 3, 8, 0] {
        assert_eq!(report(&rules, &c, jobs).to_json(), one, "jobs {jobs}");
    }
    // Each game replays on its own from its index.
    let r = report(&rules, &c, 2);
    let g = sim::simulate_one(&rules, &c.agents, 11, 137).unwrap();
    assert_eq!(r.games[137], g);
    assert_eq!(g.seed, sim::game_seed(11, 137));
}

#[test]
fn shards_merge_into_the_whole_run() {
    let rules = nim();
    let whole = report(&rules, &cfg(2, 101, 5, "random,greedy"), 2);
    let shards: Vec<(String, Report)> = (1..=4)
        .rev()
        .map(|index| {
            let c = SimConfig {
                shard: Some(Shard { index, count: 4 }),
                ..cfg(2, 101, 5, "random,greedy")
            };
            (format!("shard{index}"), report(&rules, &c, 2))
        })
        .collect();
    assert_eq!(shards[0].1.shard, Some(Shard { index: 4, count: 4 }));
    let sizes: usize = shards.iter().map(|(_, r)| r.games.len()).sum();
    assert_eq!(sizes, 101);
    let merged = merge(&shards).unwrap();
    assert_eq!(merged, whole);
    assert_eq!(merged.to_json(), whole.to_json());

    // Round trip through JSON, as `tabula merge` reads the files.
    let parsed: Vec<(String, Report)> = shards
        .iter()
        .map(|(n, r)| (n.clone(), serde_json::from_str(&r.to_json()).unwrap()))
        .collect();
    assert_eq!(merge(&parsed).unwrap().to_json(), whole.to_json());

    // Gaps, overlaps and mixed runs are refused.
    let e = merge(&shards[1..]).unwrap_err().to_string();
    assert!(e.contains("are in no file (games 75-100)"), "{e}");
    let mut twice = shards.clone();
    twice.push(shards[2].clone());
    let e = merge(&twice).unwrap_err().to_string();
    assert!(e.contains("the shards overlap"), "{e}");
    let mut other = shards.clone();
    other[1].1.agents[0] = "greedy".into();
    let e = merge(&other).unwrap_err().to_string();
    assert!(
        e.contains("agent list is greedy,greedy, not random,greedy"),
        "{e}"
    );
    let mut forged = shards.clone();
    forged[0].1.games[0].seed ^= 1;
    assert!(merge(&forged)
        .unwrap_err()
        .to_string()
        .contains("the run seed gives it"));
    assert!(merge(&[]).is_err());
}

#[test]
fn the_summary_has_intervals_quantiles_and_the_first_player() {
    let rules = nim();
    let r = report(&rules, &cfg(3, 300, 1, "random,random,random"), 0);
    let s = &r.summary;
    assert_eq!(s.games, 300);
    let total: f64 = s.seats.iter().map(|x| x.win_rate).sum();
    assert!((total - 1.0).abs() < 1e-9);
    for seat in &s.seats {
        assert!(seat.win_ci95.0 < seat.win_rate && seat.win_rate < seat.win_ci95.1);
        let sc = seat.score.as_ref().unwrap();
        assert!(sc.min as f64 <= sc.p25 && sc.p25 <= sc.median);
        assert!(sc.median <= sc.p75 && sc.p75 <= sc.max as f64);
    }
    // Nim: p1 always takes the first decision.
    assert_eq!(s.first_player.games, 300);
    assert_eq!(s.first_player.by_seat[0].games, 300);
    assert_eq!(s.first_player.win_rate, s.seats[0].win_rate);
    assert!((s.first_player.fair_share - 1.0 / 3.0).abs() < 1e-12);
    let rounds = s.rounds.as_ref().unwrap();
    assert!(rounds.min >= 5 && rounds.max <= 15, "{rounds:?}");
    assert!(r.games.iter().all(|g| g.first == Some(0)));
    let csv = sim::csv::render(&r);
    assert_eq!(csv.lines().count(), 301);
    let html = sim::html::render(&r, "Nim", Some(1.0));
    assert!(html.contains("<svg") && html.contains("Score of p3 (random)"));
}

#[test]
fn greedy_beats_random_and_is_reproducible() {
    let rules = nim();
    // Greedy in the second seat, so the first-player edge does not help it.
    let r = report(&rules, &cfg(2, 400, 9, "random,greedy"), 0);
    let greedy = &r.summary.seats[1];
    assert!(greedy.win_ci95.0 > 0.5, "greedy won {}", greedy.win_rate);
    assert_eq!(report(&rules, &cfg(2, 400, 9, "random,greedy"), 1), r);
}

#[test]
fn greedy_follows_the_rulesets_evaluate_function() {
    // An evaluation that prefers a large pile: greedy takes one counter,
    // unless it can win at once.
    let dir = nim_copy("evaluate", "fn evaluate(p: player) -> int = pile;", &[]);
    let rules = load(&dir, &[]);
    let bot = GreedyAgent::new(&rules, 1).unwrap();
    assert!(bot.uses_evaluate());
    assert!(!GreedyAgent::new(&nim(), 1).unwrap().uses_evaluate());
    let mut game = Game::new(rules.clone(), 2, 0).unwrap();
    let mut bots: Vec<Box<dyn Agent>> = vec![
        Box::new(bot),
        Box::new(GreedyAgent::new(&rules, 2).unwrap()),
    ];
    while !game.is_over() {
        let legal = game.legal().unwrap();
        let seat = game.to_move().unwrap();
        let i = bots[seat].choose(&mut game, &legal);
        // Three or fewer left: take them all and win; else take one.
        let pile = 15
            - game
                .history()
                .iter()
                .map(|d| d.parse::<i64>().unwrap())
                .sum::<i64>();
        let want = if pile <= 3 {
            pile.to_string()
        } else {
            "1".into()
        };
        assert_eq!(*legal[i].name, *want, "pile {pile}");
        game.apply(i).unwrap();
    }
    assert_eq!(game.decisions_taken(), 13);

    // A wrong signature is refused when the bot is built.
    let dir = nim_copy("badeval", "fn evaluate() -> int = pile;", &[]);
    let rules = load(&dir, &[]);
    let e = AgentSpec::Greedy
        .build(&rules, 0)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("fn evaluate(p: player) -> int"), "{e}");
}

#[test]
fn eval_names_another_function_of_the_rules_to_value_positions() {
    // `evaluate` prefers a large pile (take one counter), `hurry` a small
    // one (take three): each bot follows the function it is given.
    let dir = nim_copy(
        "evalname",
        "fn evaluate(p: player) -> int = pile;\nfn hurry(p: player) -> int = -pile;",
        &[],
    );
    let rules = load(&dir, &[]);
    let first_take = |spec: &str| {
        let spec: AgentSpec = spec.parse().unwrap();
        let mut bot = spec.build(&rules, 3).unwrap();
        let mut game = Game::new(rules.clone(), 2, 0).unwrap();
        let legal = game.legal().unwrap();
        let i = bot.choose(&mut game, &legal);
        legal[i].name.to_string()
    };
    assert_eq!(first_take("greedy"), "1");
    assert_eq!(first_take("greedy:eval=evaluate"), "1");
    assert_eq!(first_take("greedy:eval=hurry"), "3");
    assert_eq!(first_take("greedy:depth=2:eval=hurry"), "3");
    assert_eq!(
        "greedy:depth=2:eval=hurry"
            .parse::<AgentSpec>()
            .unwrap()
            .build(&rules, 0)
            .unwrap()
            .name(),
        "greedy:depth=2:eval=hurry"
    );
    // Seat against seat: the agents' names tell the valuations apart.
    let r = report(&rules, &cfg(2, 20, 1, "greedy,greedy:eval=hurry"), 0);
    assert_eq!(r.agents, vec!["greedy", "greedy:eval=hurry"]);
    // A function the rules lack, or of the wrong signature, is refused
    // when the bot is built, naming it.
    for spec in ["greedy:eval=nosuch", "mcts:iterations=5:eval=nosuch"] {
        let spec: AgentSpec = spec.parse().unwrap();
        let e = spec.build(&rules, 0).err().unwrap().to_string();
        assert!(
            e.contains("declares no function `nosuch`") && e.contains("eval=NAME"),
            "{e}"
        );
    }
    let spec: AgentSpec = "greedy:eval=take".parse().unwrap();
    let dir = nim_copy("evalbad", "fn take(p: player) -> bool = pile > 3;", &[]);
    let e = spec.build(&load(&dir, &[]), 0).err().unwrap().to_string();
    assert!(
        e.contains("`take`") && e.contains("fn take(p: player) -> int"),
        "{e}"
    );
}

#[test]
fn compare_sees_a_real_change_and_not_a_null_one() {
    let dir = nim_copy(
        "variant",
        "",
        &[
            (
                "variants/short.yaml",
                "description: A pile of 4.\nfiles: [short-params.yaml]\n",
            ),
            ("variants/short-params.yaml", "params:\n  start: 4\n"),
        ],
    );
    let base = load(&dir, &[]);
    let short = load(&dir, &["short".to_string()]);
    let c = cfg(2, 400, 3, "greedy,random");
    let a = sim::run(&base, &c, 0, &|_| {}).unwrap();
    let b = sim::run(&short, &c, 0, &|_| {}).unwrap();
    // With 4 counters greedy (first) takes 1-3 and random may then take the
    // rest; the game is much shorter.
    let cmp = compare::compare(2, &a, &b);
    assert!(cmp.decisions.diff < -3.0, "{:?}", cmp.decisions);
    assert!(cmp.decisions.p < 1e-6, "{:?}", cmp.decisions);
    let null = compare::compare(2, &a, &a);
    assert!(null
        .changes
        .iter()
        .all(|c| c.win_rate.p == 1.0 && c.score.p == 1.0));
    let text = cmp.render();
    assert!(
        text.contains("p (Welch)") && text.contains("decisions/game:"),
        "{text}"
    );
}

#[path = "../examples/custom_report.rs"]
mod custom_report;

#[test]
fn the_custom_report_example_runs() {
    let (report, classes) = custom_report::run(300).expect("the example runs");
    assert_eq!(report.games.len(), 300);
    assert_eq!(classes.len(), 3);
    assert_eq!(classes.iter().map(|c| c.games).sum::<usize>(), 300);
    for c in &classes {
        if c.games > 0 {
            assert!((c.win_rate.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c:?}");
        }
    }
}

#[test]
fn mcts_beats_random_at_nim() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    let rules = std::sync::Arc::new(tabula::model::load(&dir, &[]).unwrap());
    let mut wins = 0;
    for seed in 0..40u64 {
        let mut g = tabula::engine::Game::new(rules.clone(), 2, seed).unwrap();
        let mut bot = tabula::agents::MctsAgent::new(&rules, seed, Some(200), None).unwrap();
        let mut rnd = tabula::agents::RandomAgent::new(seed + 1000);
        use tabula::agents::Agent;
        while !g.is_over() {
            let legal = g.legal().unwrap();
            let i = if g.to_move() == Some(0) {
                bot.choose(&mut g, &legal)
            } else {
                rnd.choose(&mut g, &legal)
            };
            g.apply(i).unwrap();
        }
        if g.outcome().unwrap().unwrap().winners == vec![0] {
            wins += 1;
        }
    }
    assert!(wins >= 34, "mcts won only {wins} of 40");
}

#[test]
fn determinizations_keep_what_the_seat_sees_and_the_sizes_of_what_it_does_not() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tzolkin");
    let rules = std::sync::Arc::new(tabula::model::load(&dir, &[]).unwrap());
    let g = tabula::engine::Game::new(rules.clone(), 4, 9).unwrap();
    let me = g.to_move().unwrap();
    let mut rng = rand_pcg::Pcg64::new(1, 1);
    let before = g.view(None);
    let mine_before = g.view(Some(me));
    let mut changed = false;
    for _ in 0..10 {
        let d = tabula::engine::sample::determinize(&g, me, &mut rng);
        // What the seat sees is untouched.
        assert_eq!(d.view(Some(me)), mine_before);
        let after = d.view(None);
        changed |= after != before;
        // Every hidden place keeps its size: 4 tiles dealt to each player,
        // the same number left in the deck, and no tile twice.
        let dealt = |lines: &[String], who: &str| -> usize {
            lines
                .iter()
                .find(|l| l.starts_with(&format!("dealt[{who}] = ")))
                .map_or(0, |l| l.matches(", ").count() + 1)
        };
        for who in ["red", "green", "blue", "yellow"] {
            assert_eq!(dealt(&after, who), 4, "{after:?}");
        }
        let mut all: Vec<String> = after
            .iter()
            .filter(|l| l.starts_with("dealt[") || l.starts_with("wealth_deck"))
            .flat_map(|l| {
                l.split(" = ")
                    .nth(1)
                    .unwrap_or("")
                    .trim_matches(|c| c == '{' || c == '}' || c == '[' || c == ']')
                    .split(", ")
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "a tile appears twice");
        assert_eq!(n, 21, "every wealth tile is somewhere");
        // Future chance is sampled too: the random generator is reseeded.
        assert_ne!(d.state().rng, g.state().rng);
    }
    assert!(changed, "the unseen tiles were never reshuffled");
}

#[test]
fn the_first_player_is_the_one_the_ruleset_names() {
    let game = "name: Nim\nplayers: {min: 2, max: 3}\nrounds: turns\nfirst_player: opener\n";
    let dir = nim_copy("opener", "var opener: player = p2;", &[("game.yaml", game)]);
    let rules = load(&dir, &[]);
    let r = report(&rules, &cfg(3, 20, 4, "random,random,random"), 1);
    // p1 takes every first decision, but the ruleset names p2.
    assert!(
        r.games.iter().all(|g| g.first == Some(1)),
        "{:?}",
        r.games[0].first
    );
    assert_eq!(r.summary.first_player.by_seat[1].games, 20);

    let bad = "name: Nim\nplayers: {min: 2, max: 3}\nfirst_player: turns\n";
    let dir = nim_copy("badopener", "", &[("game.yaml", bad)]);
    let e = format!("{:?}", tabula::model::load(&dir, &[]).err().unwrap());
    assert!(
        e.contains("`first_player: turns` must name a player variable"),
        "{e}"
    );
}

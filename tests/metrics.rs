//! Metrics, draws and endings, on the small test ruleset
//! `tests/rulesets/race`: every seat moves `laps` times, one or two steps a
//! move, so the values of its metrics are known from the game itself
//! (`moves` = laps, `turns` = laps × players, steps = moves + twos), and
//! its first place is often shared (a draw), always under the variant
//! `level`. Through the library and through the binary.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use tabula::model::Ruleset;
use tabula::sim::{self, compare, MetricValue, Report, SimConfig, Tally};

fn race_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/race")
}

fn race(variants: &[&str]) -> Arc<Ruleset> {
    let v: Vec<String> = variants.iter().map(|s| s.to_string()).collect();
    Arc::new(tabula::model::load(&race_dir(), &v).unwrap_or_else(|e| panic!("{e:?}")))
}

fn report(rules: &Arc<Ruleset>, cfg: &SimConfig) -> Report {
    let records = sim::run(rules, cfg, 2, &|_| {}).expect("the games run");
    let seats = (1..=cfg.players).map(|p| format!("p{p}")).collect();
    Report::new(rules, cfg, seats, records)
}

fn seats_of(v: &MetricValue) -> Vec<i64> {
    match v {
        MetricValue::Seats(v) => v.clone(),
        MetricValue::Game(x) => panic!("a per-seat metric, not {x}"),
    }
}

fn game_of(v: &MetricValue) -> i64 {
    match v {
        MetricValue::Game(x) => *x,
        MetricValue::Seats(v) => panic!("a per-game metric, not {v:?}"),
    }
}

#[test]
fn metric_values_are_the_known_ones() {
    for players in [2, 3, 4] {
        let rep = report(&race(&[]), &SimConfig::random(players, 60, 5));
        let json: serde_json::Value = serde_json::from_str(&rep.to_json()).unwrap();
        for (g, j) in rep.games.iter().zip(json["games"].as_array().unwrap()) {
            assert_eq!(j["metrics"]["moves"], serde_json::json!(vec![3; players]));
            assert_eq!(j["metrics"]["turns"], 3 * players);
            assert_eq!(j["ending"], g.ending.clone().unwrap());
        }
        for g in &rep.games {
            let moves = seats_of(&g.metrics["moves"]);
            assert_eq!(moves, vec![3; players], "game {}", g.game);
            assert_eq!(game_of(&g.metrics["turns"]), 3 * players as i64);
            // Each move is one step, two for a `two`: steps = moves + twos.
            let twos = seats_of(&g.metrics["twos"]);
            for p in 0..players {
                assert_eq!(g.scores[p], moves[p] + twos[p], "game {} seat {p}", g.game);
            }
            let best = g.scores.iter().max().unwrap();
            let leaders = g.scores.iter().filter(|s| *s == best).count() as i64;
            assert_eq!(game_of(&g.metrics["leaders"]), leaders);
        }
        let m = &rep.summary.metrics["moves"];
        assert!(m.per_seat && m.stats.len() == players);
        for (st, ci) in m.stats.iter().zip(&m.mean_ci95) {
            let st = st.as_ref().unwrap();
            assert_eq!((st.mean, st.sd, ci.0, ci.1), (3.0, 0.0, 3.0, 3.0));
        }
        let t = &rep.summary.metrics["turns"];
        assert!(!t.per_seat);
        assert_eq!(t.stats[0].as_ref().unwrap().mean, 3.0 * players as f64);
        // The mean's interval holds the mean.
        let tw = &rep.summary.metrics["twos"];
        let (st, ci) = (tw.stats[0].as_ref().unwrap(), tw.mean_ci95[0]);
        assert!(ci.0 < st.mean && st.mean < ci.1, "{ci:?} {}", st.mean);
    }
}

#[test]
fn shared_first_places_are_draws_not_wins() {
    let rep = report(&race(&[]), &SimConfig::random(3, 300, 11));
    let s = &rep.summary;
    let drawn = rep.games.iter().filter(|g| g.winners.len() > 1).count();
    assert!(drawn > 0 && drawn < 300, "some games are drawn: {drawn}");
    assert_eq!(s.draws, drawn);
    assert_eq!(s.draw_rate, drawn as f64 / 300.0);
    assert!(s.draw_ci95.0 < s.draw_rate && s.draw_rate < s.draw_ci95.1);
    for (p, seat) in s.seats.iter().enumerate() {
        let sole = rep.games.iter().filter(|g| g.winners == vec![p]).count();
        let shared = rep
            .games
            .iter()
            .filter(|g| g.winners.len() > 1 && g.winners.contains(&p))
            .count();
        assert_eq!(seat.wins, sole as f64);
        assert_eq!(seat.win_rate, sole as f64 / 300.0);
        assert_eq!(seat.draws, shared);
    }
    // Every game is a sole win or a draw.
    let wins: f64 = s.seats.iter().map(|x| x.win_rate).sum();
    assert!((wins + s.draw_rate - 1.0).abs() < 1e-9);
    // The win credit still sums to one game per game.
    let credit: f64 = s.seats.iter().map(|x| x.credit_rate).sum();
    assert!((credit - 1.0).abs() < 1e-9);
    // The endings name the same games: a photo finish is a shared first place.
    assert_eq!(s.endings["photo finish"], drawn);
    assert_eq!(s.endings["clear winner"], 300 - drawn);
    for g in &rep.games {
        let want = if g.winners.len() > 1 {
            "photo finish"
        } else {
            "clear winner"
        };
        assert_eq!(g.ending.as_deref(), Some(want));
    }
}

#[test]
fn a_game_that_always_ties_is_always_a_draw() {
    let rep = report(&race(&["level"]), &SimConfig::random(2, 50, 1));
    let s = &rep.summary;
    assert_eq!((s.draws, s.draw_rate), (50, 1.0));
    assert!(s.seats.iter().all(|x| x.wins == 0.0 && x.win_rate == 0.0));
    assert!(s
        .seats
        .iter()
        .all(|x| x.draws == 50 && x.credit_rate == 0.5));
    let text = s.render(&rep.seats, &rep.agents, None);
    assert!(
        text.contains("draws:          50 of 50 games (100.0%"),
        "{text}"
    );
}

#[test]
fn unfinished_games_have_their_ending() {
    let cfg = SimConfig {
        max_decisions: 4,
        ..SimConfig::random(2, 10, 3)
    };
    let rep = report(&race(&[]), &cfg);
    assert!(rep.games.iter().all(|g| g.unfinished
        && g.ending.as_deref() == Some(sim::UNFINISHED)
        && g.metrics.is_empty()));
    assert_eq!(rep.summary.endings[sim::UNFINISHED], 10);
    let csv = sim::csv::render(&rep);
    let header = csv.lines().next().unwrap();
    assert!(
        header.ends_with(",draw,ending,leaders,moves_p1,moves_p2,turns,twos_p1,twos_p2"),
        "{header}"
    );
    assert!(csv.lines().nth(1).unwrap().contains(",unfinished,"));
}

#[test]
fn compare_finds_the_metric_that_changes() {
    let players = 3;
    let cfg = SimConfig::random(players, 200, 9);
    let tally = |rules: &Arc<Ruleset>| {
        let records = sim::run(rules, &cfg, 2, &|_| {}).unwrap();
        Tally::of(players, &records)
    };
    let (base, long) = (tally(&race(&[])), tally(&race(&["long"])));
    let c = compare::compare_tallies(&base, &long);
    let find = |name: &str, seat: Option<usize>| {
        c.metrics
            .iter()
            .find(|m| m.metric == name && m.seat == seat)
            .unwrap_or_else(|| panic!("{name} {seat:?} in {:?}", c.metrics))
    };
    // Five laps instead of three: two more moves per seat, six more turns.
    let turns = &find("turns", None).test;
    assert_eq!((turns.a, turns.b, turns.diff), (9.0, 15.0, 6.0));
    assert_eq!(turns.p, 0.0);
    for p in 0..players {
        let m = &find("moves", Some(p)).test;
        assert_eq!((m.diff, m.ci95), (2.0, (2.0, 2.0)));
        // Twos: about half the moves, so about one more; the interval holds it.
        let t = &find("twos", Some(p)).test;
        assert!(
            t.p < 0.001 && t.ci95.0 < t.diff && t.diff < t.ci95.1,
            "{t:?}"
        );
        assert!(t.ci95.0 > 0.0, "{t:?}");
    }
    // The same rules against themselves: no change anywhere.
    let same = compare::compare_tallies(&base, &base);
    assert!(same
        .metrics
        .iter()
        .all(|m| m.test.diff == 0.0 && m.test.p == 1.0));
    assert_eq!(same.draws.p, 1.0);
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tabula-metrics-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn compare_report_is_a_self_contained_ab_page() {
    let d = temp_dir("ab");
    let page = d.join("ab.html");
    let json = d.join("ab.json");
    let out = bin()
        .arg("compare")
        .arg(race_dir())
        .args(["--variant", "long", "--games", "100", "--seed", "2", "-q"])
        .arg("--report")
        .arg(&page)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // A and B are named before the table, unambiguously.
    let a = stdout.find("A (baseline, --against): base").expect(&stdout);
    let b = stdout.find("B (variant, --variant):  long").expect(&stdout);
    let table = stdout.find("win A").expect(&stdout);
    assert!(a < table && b < table, "{stdout}");
    assert!(stdout.contains("draws (shared first):"), "{stdout}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<b>base</b>") && html.contains("<b>long</b>"));
    assert!(html.contains("<svg") && html.contains("Metrics"));
    for bad in ["<script", "src=\"http", "href=\"http", "@import", "url("] {
        assert!(!html.contains(bad), "{bad} in the page");
    }
    let c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let turns = c["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "turns")
        .unwrap();
    // Four players by default: two more laps are eight more turns.
    assert_eq!(turns["test"]["diff"], 8.0);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn simulate_reports_metrics_draws_and_endings() {
    let d = temp_dir("sim");
    let page = d.join("run.html");
    let out = bin()
        .arg("simulate")
        .arg(race_dir())
        .args(["--players", "2", "--games", "50", "--seed", "4", "-q"])
        .arg("--report")
        .arg(&page)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for want in [
        "draws:",
        "endings:        clear winner",
        "metric",
        "95% CI of mean",
        "moves    p1",
    ] {
        assert!(stdout.contains(want), "{want} in\n{stdout}");
    }
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("How the games ended") && html.contains("Metrics"));
    assert!(html.contains("Draws (a shared first place)"));
    let _ = std::fs::remove_dir_all(&d);
}

/// Nim (`tests/rulesets/nim`, whose games last 5 to 15 decisions between
/// random bots) with a metric, copied to `dir`.
fn nim_with_metric(dir: &Path) -> PathBuf {
    let nim = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    let copy = dir.join("nim");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["game.yaml", "data.yaml", "nim.rules"] {
        std::fs::copy(nim.join(f), copy.join(f)).unwrap();
    }
    std::fs::write(copy.join("measures.rules"), "metric turns = turns;\n").unwrap();
    copy
}

#[test]
fn metrics_count_the_finished_games_only_and_say_so() {
    let d = temp_dir("unfinished");
    let rules = nim_with_metric(&d);
    let json = d.join("run.json");
    let out = bin()
        .arg("simulate")
        .arg(&rules)
        .args(["-p", "2", "--games", "60", "--seed", "3", "-q"])
        .args(["--max-decisions", "7", "--json"])
        .arg(&json)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let rep: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let games = rep["games"].as_array().unwrap();
    let finished: Vec<&serde_json::Value> =
        games.iter().filter(|g| g["unfinished"] != true).collect();
    let unfinished = games.len() - finished.len();
    // The limit cuts some games and not others.
    assert!(unfinished > 0 && !finished.is_empty(), "{unfinished}");
    // Unfinished games carry no metric; the summary's metric counts and
    // averages the finished ones.
    assert!(games
        .iter()
        .filter(|g| g["unfinished"] == true)
        .all(|g| g["metrics"].as_object().is_none_or(|m| m.is_empty())));
    let m = &rep["summary"]["metrics"]["turns"];
    assert_eq!(m["games"], finished.len());
    let mean = finished
        .iter()
        .map(|g| g["metrics"]["turns"].as_f64().unwrap())
        .sum::<f64>()
        / finished.len() as f64;
    assert!((m["stats"][0]["mean"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert!(mean <= 7.0, "finished games last at most 7 turns: {mean}");
    // The text says which games the metrics are over.
    let plural = if unfinished == 1 { "" } else { "s" };
    let line = format!(
        "metrics over {} finished games (the {unfinished} unfinished game{plural} left out):",
        finished.len()
    );
    assert!(stdout.contains(&line), "{line} in\n{stdout}");
    // Without a limit every game is counted, and said so.
    let out = bin()
        .arg("simulate")
        .arg(&rules)
        .args(["-p", "2", "--games", "20", "-q"])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("metrics over 20 finished games:"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

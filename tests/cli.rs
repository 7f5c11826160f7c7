//! The `tabula` binary, run as a user would run it, on the small test
//! ruleset `tests/rulesets/nim`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

mod cmd;
use cmd::{bin, nim, run, text};

/// A fresh directory for this test file's test `name`.
fn temp_dir(name: &str) -> PathBuf {
    cmd::temp_dir_for("cli", name)
}

/// Whether `s` holds `<name><digits>:<digits>` (a file:line:col or line:col).
fn has_line_col(s: &str, name: &str) -> bool {
    s.match_indices(name).any(|(i, _)| {
        let rest = &s[i + name.len()..];
        let mut parts = rest.splitn(3, ':');
        let (Some(a), Some(b)) = (parts.next(), parts.next()) else {
            return false;
        };
        let b: String = b.chars().take_while(|c| c.is_ascii_digit()).collect();
        a.chars().all(|c| c.is_ascii_digit()) && !a.is_empty() && !b.is_empty()
    })
}

#[test]
fn check_summarises_a_valid_ruleset() {
    let out = run(bin().arg("check").arg(nim()));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("Nim"), "{stdout}");
    assert!(stdout.contains("players:    2-3"), "{stdout}");
    assert!(stdout.contains("colour (2)"), "{stdout}");
    assert!(stdout.contains("start = 15"), "{stdout}");
}

#[test]
fn check_dumps_compiled_code() {
    let out = run(bin().arg("check").arg(nim()).args(["--dump", "main"]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.starts_with("proc main() locals"), "{stdout}");
    assert!(stdout.contains("ChooseWait \"take\""), "{stdout}");
    assert!(stdout.contains("AddVar turns"), "{stdout}");
    let out = run(bin().arg("check").arg(nim()).args(["--dump", "all"]));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("fn score(l0) -> value"), "{stdout}");
    assert!(stdout.contains("choice 0 \"take\""), "{stdout}");
    let out = run(bin().arg("check").arg(nim()).args(["--dump", "mian"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("did you mean `main`?"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn check_reports_every_mistake_with_file_line_col() {
    let dir = temp_dir("broken").join("nimbroken");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["game.yaml", "data.yaml", "nim.rules"] {
        std::fs::copy(nim().join(f), dir.join(f)).unwrap();
    }
    let rules = std::fs::read_to_string(dir.join("nim.rules")).unwrap();
    let broken = rules.replace("pile -= n", "pil -= n");
    assert_ne!(rules, broken, "the test ruleset changed: update this test");
    std::fs::write(dir.join("nim.rules"), broken).unwrap();
    let out = run(bin().arg("check").arg(&dir));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(has_line_col(&stderr, "nim.rules:"), "{stderr}");
    assert!(stderr.contains("pil"), "{stderr}");
    assert!(stderr.contains("did you mean `pile`?"), "{stderr}");
}

#[test]
fn unknown_ruleset_and_bad_usage_exit_codes() {
    let out = run(bin().args(["check", "no-such-ruleset-anywhere"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no ruleset"));
    let out = run(bin().arg("frobnicate"));
    assert_eq!(out.status.code(), Some(2));
    let out = run(bin().arg("simulate").arg(nim()).args(["--players", "9"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("2 to 3 players"));
}

#[test]
fn simulate_json_is_identical_for_identical_arguments() {
    let dir = temp_dir("simulate");
    let mut files = Vec::new();
    for i in 0..2 {
        let f = dir.join(format!("run{i}.json"));
        let out = run(bin()
            .arg("simulate")
            .arg(nim())
            .args(["--games", "50", "--seed", "7", "--json"])
            .arg(&f));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("win rate"), "{stdout}");
        files.push(std::fs::read_to_string(&f).unwrap());
    }
    assert_eq!(files[0], files[1]);
    let v: serde_json::Value = serde_json::from_str(&files[0]).unwrap();
    assert_eq!(v["ruleset"], "nim");
    assert_eq!(v["players"], 3);
    assert_eq!(v["seed"], 7);
    assert_eq!(v["games"].as_array().unwrap().len(), 50);
    let rates: f64 = v["summary"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["win_rate"].as_f64().unwrap())
        .sum();
    assert!((rates - 1.0).abs() < 1e-9, "win rates sum to {rates}");
    assert!(!files[0].contains("elapsed") && !files[0].contains("per_sec"));

    // A different seed gives different games.
    let f = dir.join("other.json");
    let out = run(bin()
        .arg("simulate")
        .arg(nim())
        .args(["--games", "50", "--seed", "8", "--json"])
        .arg(&f));
    assert!(out.status.success());
    assert_ne!(std::fs::read_to_string(&f).unwrap(), files[0]);
}

fn play(args: &[&str], stdin: &str) -> Output {
    let mut child = bin()
        .arg("play")
        .arg(nim())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_played_game_replays_ok() {
    let dir = temp_dir("play");
    let log = dir.join("game.json");
    // Always take 1 (option 1 is always legal), with a bad line and an
    // out-of-range number first.
    let mut input = String::from("banana\n0\n9\n");
    input.push_str(&"1\n".repeat(20));
    let out = play(
        &[
            "--players",
            "2",
            "--seed",
            "3",
            "--log",
            log.to_str().unwrap(),
        ],
        &input,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("no option is named `banana`"), "{stdout}");
    assert!(stdout.contains("0 is not an option"), "{stdout}");
    assert!(stdout.contains("9 is not an option"), "{stdout}");
    assert!(stdout.contains("p2 (random) chose"), "{stdout}");
    assert!(stdout.contains("game over"), "{stdout}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(saved["ruleset"], "nim");
    assert!(saved["result"].is_array());

    // Found by its id from the directory holding it, or given explicitly.
    let out = run(bin()
        .current_dir(nim().parent().unwrap())
        .arg("replay")
        .arg(&log));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.starts_with("replay ok: "), "{stdout}");
    let out = run(bin().arg("replay").arg(&log).arg("--ruleset").arg(nim()));
    assert!(out.status.success(), "{}", text(&out.stderr));

    // A tampered decision is reported with its index and the legal options.
    let mut v = saved.clone();
    v["decisions"][0] = "7".into();
    let bad = dir.join("tampered.json");
    std::fs::write(&bad, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let out = run(bin().arg("replay").arg(&bad).arg("--ruleset").arg(nim()));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("decision 1"), "{stderr}");
    assert!(stderr.contains("1, 2, 3"), "{stderr}");

    // A wrong state hash is caught.
    let mut v = saved.clone();
    v["state_hash"] = "0000000000000000".into();
    std::fs::write(&bad, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let out = run(bin().arg("replay").arg(&bad).arg("--ruleset").arg(nim()));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("state"));
}

#[test]
fn play_ends_gracefully_at_end_of_input() {
    let dir = temp_dir("eof");
    let log = dir.join("partial.json");
    let out = play(
        &[
            "--players",
            "3",
            "--seat",
            "1",
            "--log",
            log.to_str().unwrap(),
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("You are p2"), "{stdout}");
    assert!(stdout.contains("input ended"), "{stdout}");
    // The partial game (the bot before us already moved) replays too.
    let out = run(bin().arg("replay").arg(&log).arg("--ruleset").arg(nim()));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.starts_with("replay ok: 1 decision,"), "{stdout}");
}

#[test]
fn a_corrupt_log_is_a_diagnostic_with_line_and_column() {
    let dir = temp_dir("corrupt");
    let log = dir.join("corrupt.json");
    std::fs::write(
        &log,
        "{\n  \"ruleset\": \"nim\",\n  \"players\": 2,,\n  \"seed\": 0\n}\n",
    )
    .unwrap();
    let out = run(bin().arg("replay").arg(&log));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(has_line_col(&stderr, "corrupt.json:"), "{stderr}");
    assert!(stderr.contains("corrupt.json:3:"), "{stderr}");
    assert!(stderr.contains("tabula::log_syntax"), "{stderr}");

    // Valid JSON that is not a log.
    std::fs::write(&log, "{\"ruleset\": \"nim\", \"players\": \"two\"}").unwrap();
    let out = run(bin().arg("replay").arg(&log));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("corrupt.json:1:"), "{stderr}");
    assert!(stderr.contains("not a valid game log"), "{stderr}");
    assert!(stderr.contains("tabula::log_invalid"), "{stderr}");
}

#[test]
fn bench_prints_the_speed_line() {
    let out = run(bin().arg("bench").arg(nim()).args(["--seconds", "1"]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let last = stdout.lines().last().unwrap_or("");
    assert!(last.starts_with("games/s: "), "{stdout}");
    assert!(last.contains("  decisions/s: "), "{stdout}");
    assert!(last.contains("  decisions/game: "), "{stdout}");
}

#[test]
fn bench_reports_the_iterations_of_search_bots() {
    let out = run(bin().arg("bench").arg(nim()).args([
        "-p",
        "2",
        "--seconds",
        "0",
        "--agents",
        "mcts:iterations=20:cutoff=3,random",
    ]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("mcts:iterations=20:cutoff=3,random"),
        "{stdout}"
    );
    assert!(stdout.contains("games/s: "), "{stdout}");
    let seat = stdout
        .lines()
        .find(|l| l.starts_with("seat 1 mcts:iterations=20:cutoff=3: iterations/s: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(seat.contains(" iterations in "), "{seat}");
    // The random seat does not search: no line.
    assert!(!stdout.contains("seat 2"), "{stdout}");
    // A bad spec is refused with the seat named.
    let out = run(bin().arg("bench").arg(nim()).args([
        "-p",
        "2",
        "--seconds",
        "0",
        "--agents",
        "mcts:iterations=20,cutoff=3",
    ]));
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("seat 2") && stderr.contains("options follow the agent after colons"),
        "{stderr}"
    );
}

#[test]
fn every_command_has_help() {
    for cmd in [
        "check", "simulate", "merge", "compare", "play", "scenario", "replay", "bench", "sweep",
    ] {
        let out = run(bin().args([cmd, "--help"]));
        assert!(out.status.success(), "{cmd}");
        assert!(text(&out.stdout).contains("Usage:"), "{cmd}");
    }
}

#[test]
fn a_rules_error_during_simulation_is_reported_with_the_game_seed() {
    let dir = temp_dir("runtime").join("nimzero");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["game.yaml", "data.yaml", "nim.rules"] {
        std::fs::copy(nim().join(f), dir.join(f)).unwrap();
    }
    let rules = std::fs::read_to_string(dir.join("nim.rules")).unwrap();
    // Divides by zero when the last counter is taken.
    let broken = rules.replace("{ pile -= n; }", "{ pile -= n; turns += 1 / pile; }");
    assert_ne!(rules, broken, "the test ruleset changed: update this test");
    std::fs::write(dir.join("nim.rules"), broken).unwrap();
    for args in [
        &["simulate", "--games", "3"][..],
        &["bench", "--seconds", "1"][..],
    ] {
        let out = run(bin().arg(args[0]).arg(&dir).args(&args[1..]));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("game 0 (seed "), "{stderr}");
        assert!(stderr.contains("division by zero"), "{stderr}");
        assert!(has_line_col(&stderr, "nim.rules:"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Runs `tabula simulate` on nim with `args`; returns the JSON written.
fn simulate_json(dir: &Path, name: &str, args: &[&str]) -> String {
    let f = dir.join(name);
    let out = run(bin()
        .arg("simulate")
        .arg(nim())
        .args(args)
        .arg("--json")
        .arg(&f));
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::read_to_string(&f).unwrap()
}

#[test]
fn simulate_json_does_not_depend_on_jobs_and_shards_merge_to_the_whole_run() {
    let dir = temp_dir("jobs");
    let base = [
        "--games",
        "120",
        "--seed",
        "3",
        "--agents",
        "greedy,random,random",
    ];
    let one = simulate_json(&dir, "j1.json", &[&base[..], &["--jobs", "1"]].concat());
    let two = simulate_json(&dir, "j2.json", &[&base[..], &["--jobs", "2"]].concat());
    let four = simulate_json(&dir, "j4.json", &[&base[..], &["--jobs", "4"]].concat());
    assert_eq!(one, two);
    assert_eq!(one, four);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["agents"][0], "greedy");
    assert_eq!(v["total_games"], 120);
    assert!(v.get("shard").is_none());

    // Three shards, merged in any order, give the same file byte for byte.
    let mut files = Vec::new();
    for i in 1..=3 {
        let name = format!("s{i}.json");
        let s = simulate_json(
            &dir,
            &name,
            &[&base[..], &["--shard", &format!("{i}/3")]].concat(),
        );
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["shard"]["index"], i);
        assert_eq!(v["games"].as_array().unwrap().len(), 40);
        files.push(dir.join(name));
    }
    let merged = dir.join("merged.json");
    let out = run(bin()
        .arg("merge")
        .args([&files[2], &files[0], &files[1]])
        .arg("--json")
        .arg(&merged));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("win rate"));
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), one);

    // A missing shard, an overlap, another run: clear errors.
    let out = run(bin().arg("merge").args([&files[0], &files[2]]));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("40 of the run's 120 games are in no file (games 40-79)"),
        "{stderr}"
    );
    let out = run(bin()
        .arg("merge")
        .args([&files[0], &files[1], &files[1], &files[2]]));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("game 40 is in both") && stderr.contains("overlap"),
        "{stderr}"
    );
    let other = simulate_json(
        &dir,
        "other.json",
        &[
            "--games",
            "120",
            "--seed",
            "4",
            "--shard",
            "2/3",
            "--agents",
            "greedy,random,random",
        ],
    );
    assert!(other.contains("\"seed\": 4"));
    let out = run(bin()
        .arg("merge")
        .args([&files[0], &dir.join("other.json"), &files[2]]));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("not from the same run") && stderr.contains("seed is 4, not 3"),
        "{stderr}"
    );
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"ruleset\": 1}").unwrap();
    let out = run(bin().arg("merge").arg(&bad));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("bad.json`:1:") && stderr.contains("not the JSON output"),
        "{stderr}"
    );
}

#[test]
fn bad_shards_agents_and_jobs_are_clear_errors() {
    let cases: [(&[&str], &str); 9] = [
        (&["--shard", "0/2"], "i counts from 1"),
        (&["--shard", "3/2"], "between 1 and 2"),
        (&["--shard", "1/0"], "n must be at least 1"),
        (&["--shard", "half"], "expected i/n"),
        (
            &["--agents", "random,random"],
            "names 2 agents but the game has 3 seats",
        ),
        (
            &["--agents", "random,greedy,randon"],
            "seat 3: unknown agent `randon`",
        ),
        (
            &["--agents", "mcts:depth=2,random,random"],
            "unknown mcts option `depth`",
        ),
        (
            &["--agents", "mcts:iterations=0,random,random"],
            "not a positive integer",
        ),
        (&["--jobs", "0"], "--jobs must be at least 1"),
    ];
    for (args, msg) in cases {
        let out = run(bin().arg("simulate").arg(nim()).args(args));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(msg), "{args:?}: {stderr}");
    }
}

#[test]
fn simulate_writes_csv_and_a_self_contained_html_report() {
    let dir = temp_dir("reports");
    let (csv, html) = (dir.join("games.csv"), dir.join("report.html"));
    let out = run(bin()
        .arg("simulate")
        .arg(nim())
        .args(["--games", "60", "--players", "2", "--quiet", "--csv"])
        .arg(&csv)
        .arg("--report")
        .arg(&html));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for needle in [
        "95% CI",
        "median",
        "rounds/game:",
        "decisions/game:",
        "first player:",
        "games/s:",
    ] {
        assert!(stdout.contains(needle), "{needle}: {stdout}");
    }
    // Not a terminal: no progress bar.
    assert!(!text(&out.stderr).contains("eta"), "{}", text(&out.stderr));
    let csv = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 61);
    assert_eq!(
        lines[0],
        "game,seed,first,decisions,rounds,winners,score_p1,score_p2,win_p1,win_p2,draw,ending"
    );
    assert!(lines[1].starts_with("0,"), "{}", lines[1]);
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(
        html.matches("<svg").count() >= 4,
        "win bars, 2 histograms, lengths"
    );
    assert!(html.contains("Score of p1") && html.contains("Win rate by seat"));
    assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("href="));
}

#[test]
fn compare_reports_changes_with_p_values() {
    let dir = temp_dir("compare");
    let json = dir.join("cmp.json");
    let out = run(bin()
        .arg("compare")
        .arg(nim())
        .args(["--variant", "base", "--games", "200", "--players", "2"])
        .args(["--agents", "greedy,random", "--json"])
        .arg(&json));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("p (z)") && stdout.contains("p (Welch)"),
        "{stdout}"
    );
    // The same rules on the same seeds: nothing changes.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for c in v["changes"].as_array().unwrap() {
        assert_eq!(c["win_rate"]["diff"], 0.0);
        assert_eq!(c["win_rate"]["p"], 1.0);
        assert_eq!(c["score"]["p"], 1.0);
    }
    let out = run(bin()
        .arg("compare")
        .arg(nim())
        .args(["--variant", "no-such-variant"]));
    assert_eq!(out.status.code(), Some(1));
}

/// `variants_by_players:` in game.yaml: Mexica at 2 players is played with
/// its neutral temples (`two-player`) without asking, and says so.
#[test]
fn a_player_count_brings_its_variants() {
    let mexica = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/mexica");
    let out = run(bin().arg("check").arg(&mexica));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("2 players play with two-player"));
    let dir = temp_dir("by-players");
    for (players, expected) in [(2, r#"["two-player"]"#), (3, "[]")] {
        let json = dir.join(format!("{players}.json"));
        let out = run(bin()
            .arg("simulate")
            .arg(&mexica)
            .args([
                "--players",
                &players.to_string(),
                "--games",
                "2",
                "-q",
                "--json",
            ])
            .arg(&json));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(v["variants"].to_string(), expected, "{players} players");
    }
}

//! `tabula sweep`: each grid point is the run `simulate --set` gives.

use std::path::{Path, PathBuf};

mod cmd;
use cmd::{bin, nim, run, text};

/// A fresh directory for this test file's test `name`.
fn temp_dir(name: &str) -> PathBuf {
    cmd::temp_dir_for("sweep", name)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn each_point_equals_a_simulate_run_with_set() {
    let dir = temp_dir("points");
    let (sj, sh) = (dir.join("sweep.json"), dir.join("sweep.html"));
    let out = run(bin()
        .arg("sweep")
        .arg(nim())
        .args([
            "--set",
            "start=14..15",
            "--set",
            "most=2",
            "--games",
            "60",
            "--seed",
            "3",
            "-q",
        ])
        .args(["--agents", "greedy,random,random", "--json"])
        .arg(&sj)
        .arg("--html")
        .arg(&sh));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("start=")).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(stdout.contains("set most=2"), "{stdout}");
    let sweep = json(&sj);
    let points = sweep["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for (i, start) in ["14", "15"].iter().enumerate() {
        let f = dir.join(format!("sim{start}.json"));
        let out = run(bin()
            .arg("simulate")
            .arg(nim())
            .args(["--set", &format!("start={start}"), "--set", "most=2"])
            .args([
                "--games",
                "60",
                "--seed",
                "3",
                "-q",
                "--agents",
                "greedy,random,random",
            ])
            .arg("--json")
            .arg(&f));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let sim = json(&f);
        assert_eq!(points[i]["summary"], sim["summary"], "start={start}");
        assert_eq!(points[i]["values"][0][1], start.parse::<i64>().unwrap());
        // The row shows the same win rate for the first seat.
        let rate = sim["summary"]["seats"][0]["win_rate"].as_f64().unwrap();
        assert!(
            rows[i].contains(&format!("{:.1}%", rate * 100.0)),
            "{} {rate}",
            rows[i]
        );
    }
    let page = std::fs::read_to_string(&sh).unwrap();
    assert_eq!(page.matches("<svg").count(), 5); // nim declares no metric
    assert!(!page.contains("<script"));
    assert!(!page.contains("https://"));
}

#[test]
fn a_grid_of_two_ranges_has_every_point() {
    let out = run(bin().arg("sweep").arg(nim()).args([
        "--set",
        "start=10..14:2",
        "--set",
        "most=2..3",
        "--games",
        "5",
        "-q",
    ]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("start=")).count(),
        6
    );
    assert!(stdout.contains("start=14 most=3"), "{stdout}");
}

#[test]
fn a_sweep_needs_a_range_and_a_known_parameter() {
    let out = run(bin().arg("sweep").arg(nim()).args(["--set", "most=2"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("needs a parameter to vary"));
    let out = run(bin().arg("sweep").arg(nim()).args(["--set", "strat=1..3"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("did you mean `start`?"));
    let out = run(bin()
        .arg("sweep")
        .arg(nim())
        .args(["--set", "start=1..3:0"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("step"));
}

#[test]
fn every_point_shows_draws_and_the_rules_metrics() {
    let race = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/race");
    let dir = temp_dir("metrics");
    let (sj, sh) = (dir.join("sweep.json"), dir.join("sweep.html"));
    let out = run(bin()
        .arg("sweep")
        .arg(&race)
        .args([
            "--set",
            "laps=2..3",
            "--players",
            "2",
            "--games",
            "30",
            "-q",
        ])
        .arg("--json")
        .arg(&sj)
        .arg("--html")
        .arg(&sh));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("draws (95% CI)"), "{stdout}");
    // Each seat moves `laps` times, so `turns` is laps x 2 and `moves` laps.
    let metric_rows: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("metrics"))
        .filter(|l| l.starts_with("laps="))
        .collect();
    assert_eq!(metric_rows.len(), 2, "{stdout}");
    let sweep = json(&sj);
    for (i, laps) in [2.0, 3.0].iter().enumerate() {
        let s = &sweep["points"][i]["summary"];
        let turns = s["metrics"]["turns"]["stats"][0]["mean"].as_f64().unwrap();
        assert_eq!(turns, laps * 2.0);
        let moves = s["metrics"]["moves"]["stats"][1]["mean"].as_f64().unwrap();
        assert_eq!(moves, *laps);
        assert!(metric_rows[i].contains(&format!("{:.2}", laps * 2.0)));
        // The draw rate is the share of games whose winners are several.
        let games = s["games"].as_f64().unwrap();
        assert!(
            (s["draw_rate"].as_f64().unwrap() * games - s["draws"].as_f64().unwrap()).abs() < 1e-9
        );
    }
    let page = std::fs::read_to_string(&sh).unwrap();
    for m in ["moves", "twos", "turns", "leaders"] {
        assert!(page.contains(&format!("Metric {m} ")), "{m}");
    }
    assert!(page.contains("Draw rate"));
}

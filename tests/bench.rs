//! `tabula bench --compare-with CMD`: another program's `games/s:` line
//! read and shown beside tabula's with the ratio (fake commands stand for
//! the other engine: the tests never need OpenSpiel), its settings passed
//! in the environment, and each way the command can go wrong refused with
//! exit code 1 (more cases in `hostile/bench_compare_with_*`).

mod cmd;

use cmd::{bin, nim, run, text};

/// The figure of `row` (`games/s`) in the side-by-side table: tabula's,
/// the other's and the ratio.
fn row(stdout: &str, name: &str) -> (f64, f64, f64) {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row {name}:\n{stdout}"));
    let v: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .map(|w| w.parse().unwrap_or_else(|_| panic!("{line}")))
        .collect();
    assert_eq!(v.len(), 3, "{line}");
    (v[0], v[1], v[2])
}

#[test]
fn the_other_figures_are_shown_beside_tabulas_with_the_ratio() {
    let out = run(bin().arg("bench").arg(nim()).args([
        "--seconds",
        "0.2",
        "--compare-with",
        "echo warming up; echo games/s: 100.5 decisions/s: 2000",
    ]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("compared with `echo warming up; echo games/s: 100.5 decisions/s: 2000`"),
        "{stdout}"
    );
    // What the command printed is shown under its name.
    assert!(stdout.contains("  | warming up\n"), "{stdout}");
    assert!(
        stdout.contains("  | games/s: 100.5 decisions/s: 2000\n"),
        "{stdout}"
    );
    let (ours, theirs, ratio) = row(&stdout, "games/s");
    assert_eq!(theirs, 100.5);
    assert!(ours > 0.0);
    assert!(
        (ratio - ours / theirs).abs() < 0.01 + ours / theirs * 0.001,
        "{stdout}"
    );
    let (_, decisions, _) = row(&stdout, "decisions/s");
    assert_eq!(decisions, 2000.0);
}

#[test]
fn decisions_are_shown_only_when_the_other_prints_them() {
    let out = run(bin().arg("bench").arg(nim()).args([
        "--seconds",
        "0",
        "--compare-with",
        "echo games/s: 7",
    ]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(row(&stdout, "games/s").1, 7.0);
    assert!(
        !stdout.lines().any(|l| l.starts_with("decisions/s")),
        "{stdout}"
    );
}

#[cfg(unix)]
#[test]
fn the_command_finds_the_benchs_settings_in_its_environment() {
    let out = run(bin().arg("bench").arg(nim()).args([
        "-p",
        "2",
        "--seconds",
        "0.25",
        "--seed",
        "9",
        "--compare-with",
        "echo \"asked $TABULA_BENCH_SECONDS s $TABULA_BENCH_SEED\"; echo games/s: $TABULA_BENCH_PLAYERS",
    ]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("  | asked 0.25 s 9\n"), "{stdout}");
    assert!(
        stdout.contains("(TABULA_BENCH_SECONDS=0.25 TABULA_BENCH_PLAYERS=2 TABULA_BENCH_SEED=9)"),
        "{stdout}"
    );
    assert_eq!(row(&stdout, "games/s").1, 2.0);
}

#[cfg(unix)]
#[test]
fn tabula_compares_with_another_tabula() {
    // Two builds, two rulesets or two variants: the other side may be a
    // tabula bench itself, its duration read from the environment.
    let other = format!(
        "'{}' bench '{}' --seconds \"$TABULA_BENCH_SECONDS\" -p 2",
        env!("CARGO_BIN_EXE_tabula"),
        nim().display()
    );
    let out = run(bin().arg("bench").arg(nim()).args([
        "-p",
        "2",
        "--seconds",
        "0.2",
        "--compare-with",
        &other,
    ]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (ours, theirs, _) = row(&stdout, "games/s");
    assert!(ours > 0.0 && theirs > 0.0, "{stdout}");
    assert!(row(&stdout, "decisions/s").1 > 0.0, "{stdout}");
}

#[test]
fn a_failing_or_silent_command_is_an_error() {
    for (cmd, expected) in [
        ("exit 4", "`exit 4` failed (exit code 4)"),
        ("echo fast", "`echo fast` printed no line `games/s: N`"),
        (
            "echo games/s:",
            "printed nothing after `games/s:`, not a number",
        ),
        (
            "echo games/s: -5",
            "printed `-5` after `games/s:`, not a number",
        ),
        ("echo", "printed nothing on its standard output"),
    ] {
        let out =
            run(bin()
                .arg("bench")
                .arg(nim())
                .args(["--seconds", "0", "--compare-with", cmd]));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {stderr}");
        assert!(stderr.contains(expected), "{cmd}: {stderr}");
        assert!(stderr.contains("help:"), "{cmd}: {stderr}");
        assert!(!stderr.contains("panicked"), "{cmd}: {stderr}");
        // tabula's own figures were printed before the command ran.
        assert!(text(&out.stdout).contains("decisions/game: "), "{cmd}");
    }
}

#[test]
fn the_flag_is_documented_in_the_help() {
    let out = run(bin().args(["bench", "--help"]));
    let help = text(&out.stdout);
    assert!(help.contains("--compare-with <CMD>"), "{help}");
    assert!(help.contains("TABULA_BENCH_SECONDS"), "{help}");
    assert!(help.contains("games/s: N"), "{help}");
}

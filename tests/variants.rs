//! Variants from anywhere and parameters set from the command line
//! (`--variant PATH`, `--set NAME=VALUE`): what they change, how they are
//! checked, and that reports, logs, replays and merges carry them.

use std::path::{Path, PathBuf};

mod cmd;
use cmd::{bin, nim, run, text};

/// A fresh directory for this test file's test `name`.
fn temp_dir(name: &str) -> PathBuf {
    cmd::temp_dir_for("variants", name)
}

/// `simulate nim` with `args`, returning its JSON report.
fn simulate_json(dir: &Path, name: &str, args: &[&str]) -> serde_json::Value {
    let f = dir.join(format!("{name}.json"));
    let out = run(bin()
        .arg("simulate")
        .arg(nim())
        .args(["--games", "40", "--seed", "5", "-q", "--json"])
        .arg(&f)
        .args(args));
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap()
}

/// A variant of three lines in a directory outside the repository.
fn outside_variant(dir: &Path) -> PathBuf {
    let v = dir.join("bigger.yaml");
    std::fs::write(&v, "description: A bigger pile.\nparams:\n  start: 21\n").unwrap();
    v
}

#[test]
fn a_variant_file_outside_the_ruleset_changes_the_games() {
    let dir = temp_dir("outside");
    let v = outside_variant(&dir);
    let base = simulate_json(&dir, "base", &[]);
    let var = simulate_json(&dir, "var", &["--variant", v.to_str().unwrap()]);
    assert_ne!(
        base["games"], var["games"],
        "the same seeds give other games"
    );
    assert_eq!(var["variants"][0], v.to_str().unwrap());
    // The summary names it.
    let out = run(bin()
        .arg("simulate")
        .arg(nim())
        .args(["--games", "5", "-q", "--variant"])
        .arg(&v));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("variants {}", v.display())),
        "{stdout}"
    );
    assert!(stdout.contains("loaded from"), "{stdout}");
}

#[test]
fn set_gives_the_games_of_the_equivalent_variant_file() {
    let dir = temp_dir("set");
    let v = outside_variant(&dir);
    let var = simulate_json(&dir, "var", &["--variant", v.to_str().unwrap()]);
    let set = simulate_json(&dir, "set", &["--set", "start=21"]);
    assert_eq!(var["games"], set["games"]);
    assert_eq!(var["summary"], set["summary"]);
    assert_eq!(set["set"]["start"], "21");
    assert!(var.get("set").is_none(), "no `set` without --set");
    // The same as the ruleset's own variant holding the same values.
    let both = simulate_json(&dir, "both", &["--set", "start=21", "--set", "most=4"]);
    let big = simulate_json(&dir, "big", &["--variant", "big"]);
    assert_eq!(both["games"], big["games"]);
}

#[test]
fn an_unknown_parameter_is_refused_with_a_suggestion() {
    let out = run(bin().arg("check").arg(nim()).args(["--set", "strat=3"]));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("tabula::unknown_param"), "{stderr}");
    assert!(stderr.contains("no parameter `strat`"), "{stderr}");
    assert!(stderr.contains("did you mean `start`?"), "{stderr}");
}

#[test]
fn a_value_of_another_type_is_refused() {
    let out = run(bin()
        .arg("simulate")
        .arg(nim())
        .args(["--set", "start=true"]));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("tabula::type_mismatch"), "{stderr}");
    assert!(
        stderr.contains("parameter `start` is of type int"),
        "{stderr}"
    );
    let out = run(bin()
        .arg("check")
        .arg(nim())
        .args(["--set", "start=[1, 2]"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("a value of type [int]"));
}

#[test]
fn a_set_without_a_value_is_a_usage_error() {
    for bad in ["start", "=3", "start="] {
        let out = run(bin().arg("check").arg(nim()).args(["--set", bad]));
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out.stderr).contains("--set"), "{bad}");
    }
}

#[test]
fn check_says_what_it_loaded_and_applied() {
    let out = run(bin()
        .arg("check")
        .arg(nim())
        .args(["--set", "most=2", "--variant", "mono"]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!("directory:  {}", nim().display())),
        "{stdout}"
    );
    assert!(stdout.contains("applied: mono;"), "{stdout}");
    assert!(stdout.contains("set:        most=2"), "{stdout}");
    assert!(stdout.contains("most = 2"), "{stdout}");
}

#[test]
fn a_data_file_in_variants_is_not_offered_as_a_variant() {
    let out = run(bin().arg("check").arg(nim()));
    let stdout = text(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("variants:")).unwrap();
    assert!(line.contains("big,"), "{line}");
    assert!(!line.contains("big-data"), "{line}");
    // A data file nobody names is not offered either.
    let dir = temp_dir("datafile");
    copy_dir(&nim(), &dir.join("nim"));
    std::fs::write(
        dir.join("nim/variants/numbers.yaml"),
        "params:\n  most: 2\n",
    )
    .unwrap();
    let out = run(bin().arg("check").arg(dir.join("nim")));
    let stdout = text(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("variants:")).unwrap();
    assert!(!line.contains("numbers"), "{line}");
    assert!(line.contains("mono"), "{line}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn an_unknown_variant_lists_those_available() {
    let out = run(bin().arg("check").arg(nim()).args(["--variant", "mnoo"]));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("tabula::unknown_variant"), "{stderr}");
    assert!(stderr.contains("did you mean `mono`?"), "{stderr}");
    assert!(stderr.contains("big, "), "{stderr}");
    let out = run(bin()
        .arg("check")
        .arg(nim())
        .args(["--variant", "/no/such/variant.yaml"]));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no variant file at `/no/such/variant.yaml`"),
        "{stderr}"
    );
}

#[test]
fn a_variant_from_elsewhere_keeps_its_files_in_its_directory() {
    let dir = temp_dir("files");
    std::fs::create_dir_all(dir.join("study/more")).unwrap();
    std::fs::write(dir.join("study/more/numbers.yaml"), "params:\n  most: 4\n").unwrap();
    std::fs::write(
        dir.join("study/four.yaml"),
        "description: Up to four.\nfiles: [more/numbers.yaml]\nparams:\n  start: 21\n",
    )
    .unwrap();
    let with_files = simulate_json(
        &dir,
        "four",
        &["--variant", dir.join("study/four.yaml").to_str().unwrap()],
    );
    let big = simulate_json(&dir, "big", &["--variant", "big"]);
    assert_eq!(with_files["games"], big["games"]);
    // A file of the variant outside its directory is refused, never read.
    std::fs::write(dir.join("secret.yaml"), "params:\n  most: 9\n").unwrap();
    std::fs::write(
        dir.join("study/out.yaml"),
        "description: Reaches out.\nfiles: [../secret.yaml]\n",
    )
    .unwrap();
    let out = run(bin()
        .arg("check")
        .arg(nim())
        .arg("--variant")
        .arg(dir.join("study/out.yaml")));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("tabula::path_outside"), "{stderr}");
    assert!(!stderr.contains("most: 9"), "{stderr}");
}

#[test]
fn a_log_records_variants_and_settings_and_replays() {
    let dir = temp_dir("log");
    let v = outside_variant(&dir);
    let log = dir.join("game.json");
    let mut child = bin()
        .arg("play")
        .arg(nim())
        .args([
            "--players",
            "2",
            "--seed",
            "4",
            "--set",
            "most=2",
            "--variant",
        ])
        .arg(&v)
        .arg("--log")
        .arg(&log)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all("1\n".repeat(30).as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("set most=2"));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(saved["variants"][0], v.to_str().unwrap());
    assert_eq!(saved["set"]["most"], "2");
    assert_eq!(saved["variant_hashes"].as_array().unwrap().len(), 1);
    let replay = |log: &Path| run(bin().arg("replay").arg(log).arg("--ruleset").arg(nim()));
    let out = replay(&log);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("replay ok: "));
    // Without the variant, the same decisions do not make the same game.
    let mut edited = saved.clone();
    edited["variants"] = serde_json::json!([]);
    edited["variant_hashes"] = serde_json::json!([]);
    let other = dir.join("edited.json");
    std::fs::write(&other, edited.to_string()).unwrap();
    assert_eq!(replay(&other).status.code(), Some(1));
    // A variant file changed or gone is said so.
    std::fs::write(&v, "description: Other.\nparams:\n  start: 22\n").unwrap();
    let out = replay(&log);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("has changed since the log was written"));
    std::fs::remove_file(&v).unwrap();
    let out = replay(&log);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("can no longer be found"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn csv_and_merge_carry_the_settings() {
    let dir = temp_dir("merge");
    let shard = |i: usize, set: &str| {
        let f = dir.join(format!("s{i}-{set}.json"));
        let out = run(bin()
            .arg("simulate")
            .arg(nim())
            .args([
                "--games",
                "10",
                "-q",
                "--shard",
                &format!("{i}/2"),
                "--set",
                set,
                "--json",
            ])
            .arg(&f));
        assert!(out.status.success(), "{}", text(&out.stderr));
        f
    };
    let (a, b, c) = (shard(1, "most=2"), shard(2, "most=2"), shard(2, "most=3"));
    let merged = dir.join("merged.json");
    let csv = dir.join("merged.csv");
    let out = run(bin()
        .arg("merge")
        .arg(&a)
        .arg(&b)
        .arg("--json")
        .arg(&merged)
        .arg("--csv")
        .arg(&csv));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("set most=2"));
    let csv = std::fs::read_to_string(&csv).unwrap();
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().ends_with(",variants,set"));
    assert!(lines.all(|l| l.ends_with(",,most=2")), "{csv}");
    let out = run(bin().arg("merge").arg(&a).arg(&c));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("parameter settings"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn compare_sets_each_side() {
    let out = run(bin().arg("compare").arg(nim()).args([
        "--games",
        "20",
        "-q",
        "--set",
        "most=2",
        "--against-set",
        "most=3",
    ]));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("A = --set most=3 (baseline), B = --set most=2 (variant)"),
        "{stdout}"
    );
}

#[test]
fn the_report_page_names_the_settings() {
    let dir = temp_dir("report");
    let page = dir.join("page.html");
    let out = run(bin()
        .arg("simulate")
        .arg(nim())
        .args(["--games", "10", "-q", "--set", "most=2", "--report"])
        .arg(&page));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(&page).unwrap();
    assert!(page.contains("variants: none · set most=2"), "{page}");
}

/// A scenario of nim expecting a pile of `pile` at the start.
fn pile_scenario(dir: &Path, pile: i64) -> PathBuf {
    let f = dir.join(format!("pile-{pile}.yaml"));
    std::fs::write(
        &f,
        format!(
            "title: the pile the parameters give\nplayers: 2\nrun: |\n  main();\nsteps:\n  \
             - expect:\n      pile: {pile}\n"
        ),
    )
    .unwrap();
    f
}

/// `tabula scenario --ruleset nim` on `file` with `args`.
fn scenario(file: &Path, args: &[&str]) -> std::process::Output {
    run(bin()
        .arg("scenario")
        .arg("--ruleset")
        .arg(nim())
        .args(args)
        .arg(file))
}

#[test]
fn scenario_takes_variants_and_parameters_after_the_files_own() {
    let dir = temp_dir("scenario");
    // Without anything applied, the pile is the base rules' 15.
    let base = pile_scenario(&dir, 15);
    let out = scenario(&base, &[]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(
        !text(&out.stdout).contains("with "),
        "{}",
        text(&out.stdout)
    );
    // `--set` changes it, and the summary says so.
    let nine = pile_scenario(&dir, 9);
    let out = scenario(&nine, &["--set", "start=9"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("with set start=9"), "{stdout}");
    assert_eq!(scenario(&nine, &[]).status.code(), Some(1));
    // A variant by name, then a parameter set over it.
    let big = pile_scenario(&dir, 21);
    let out = scenario(&big, &["--variant", "big"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    let out = scenario(&nine, &["--variant", "big", "--set", "start=9"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    // A variant the file names comes first; the command line's after it.
    let named = dir.join("named.yaml");
    std::fs::write(
        &named,
        "title: big, then set\nplayers: 2\nvariants: [big]\nrun: |\n  main();\nsteps:\n  \
         - expect:\n      pile: 4\n      most: 4\n",
    )
    .unwrap();
    let out = scenario(&named, &["--set", "start=4"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    // A parameter the ruleset lacks is refused, as by every command.
    let out = scenario(&base, &["--set", "nosuch=1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("nosuch"),
        "{}",
        text(&out.stderr)
    );
    // A malformed `--set` is a usage error.
    let out = scenario(&base, &["--set", "start"]);
    assert_eq!(out.status.code(), Some(2));
}

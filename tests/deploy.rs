//! The templates of `deploy/` (a Kubernetes Indexed Job, a Slurm array),
//! filled for three shards: the commands they would run, run here as
//! separate processes, then their merge, give the JSON of one whole run.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tabula-deploy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const SHARDS: usize = 3;
const SIM_ARGS: &str = "--games 31 --seed 9 --players 2 -q";

/// The template `path` with every placeholder filled.
fn fill(path: &Path, results: &Path) -> String {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let nim = root().join("tests/rulesets/nim");
    let filled = text
        .replace("__NAME__", "study")
        .replace("__IMAGE__", "registry.example/tabula:latest")
        .replace("__TABULA__", env!("CARGO_BIN_EXE_tabula"))
        .replace("__RULESET__", nim.to_str().unwrap())
        .replace("__SIM_ARGS__", SIM_ARGS)
        .replace("__SHARDS__", &SHARDS.to_string())
        .replace("__CPUS__", "1")
        .replace("__RESULTS__", results.to_str().unwrap())
        .replace("__PVC__", "study-results");
    assert!(
        !filled.contains("__"),
        "a placeholder left in {}",
        path.display()
    );
    filled
}

/// The shell lines between `# tabula:begin` and `# tabula:end`.
fn commands(text: &str) -> String {
    let start = text.find("# tabula:begin").expect("a tabula:begin marker");
    let end = text.find("# tabula:end").expect("a tabula:end marker");
    text[start..end]
        .lines()
        .skip(1)
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `script` with `sh -c` and the environment `env`.
fn spawn(script: &str, env: &[(&str, String)]) -> Child {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("set -e\n{script}"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().expect("sh runs")
}

/// The JSON of one whole run of the same games.
fn whole_run(dir: &Path) -> serde_json::Value {
    let f = dir.join("whole.json");
    let status = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("simulate")
        .arg(root().join("tests/rulesets/nim"))
        .args(SIM_ARGS.split(' '))
        .arg("--json")
        .arg(&f)
        .status()
        .unwrap();
    assert!(status.success());
    serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap()
}

/// Runs the shards (each in its own process, at once), then the merge,
/// and compares with the whole run.
fn check_study(
    results: &Path,
    shard: &str,
    merge: &str,
    index: impl Fn(usize) -> (&'static str, String),
) {
    let children: Vec<Child> = (0..SHARDS).map(|k| spawn(shard, &[index(k)])).collect();
    for mut c in children {
        assert!(c.wait().unwrap().success(), "a shard failed");
    }
    for k in 1..=SHARDS {
        assert!(
            results.join(format!("shard-{k}.json")).is_file(),
            "shard {k}"
        );
    }
    assert!(
        spawn(merge, &[]).wait().unwrap().success(),
        "the merge failed"
    );
    let merged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(results.join("merged.json")).unwrap())
            .unwrap();
    let whole = whole_run(results);
    assert_eq!(merged["games"], whole["games"]);
    assert_eq!(merged["summary"], whole["summary"]);
    assert_eq!(merged, whole, "the merged report is the whole run's");
    assert!(results.join("merged.csv").is_file());
    assert!(results.join("merged.html").is_file());
}

#[test]
fn the_kubernetes_indexed_job_and_its_merge_give_the_whole_run() {
    let results = temp_dir("kubernetes");
    let job = fill(Path::new("deploy/kubernetes/simulate-job.yaml"), &results);
    assert!(job.contains("completionMode: Indexed"));
    assert!(job.contains(&format!("completions: {SHARDS}")));
    let merge = fill(Path::new("deploy/kubernetes/merge-job.yaml"), &results);
    check_study(&results, &commands(&job), &commands(&merge), |k| {
        ("JOB_COMPLETION_INDEX", k.to_string())
    });
}

#[test]
fn the_slurm_array_and_its_merge_give_the_whole_run() {
    let results = temp_dir("slurm");
    let array = fill(Path::new("deploy/slurm/simulate.sbatch"), &results);
    assert!(array.contains(&format!("#SBATCH --array=1-{SHARDS}")));
    let merge = fill(Path::new("deploy/slurm/merge.sbatch"), &results);
    let submit = std::fs::read_to_string(root().join("deploy/slurm/submit.sh")).unwrap();
    assert!(submit.contains("--dependency=\"afterok:"));
    check_study(&results, &commands(&array), &commands(&merge), |k| {
        ("SLURM_ARRAY_TASK_ID", (k + 1).to_string())
    });
}

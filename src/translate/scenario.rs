//! The numbers a worked example states: a scenario of the ruleset's
//! `examples/` read for its setup's assignments and its steps' `expect:`
//! values, so that a claim's reference may say `setup(x)` and
//! `expected(x)` (docs/TRANSLATE.md, "Worked examples").

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// What a scenario file states: the values its setup assigns and the
/// values its steps assert (keys without spaces).
#[derive(Debug, Clone, Default)]
pub struct Scenario {
    setup: HashMap<String, i64>,
    expected: HashMap<String, Vec<i64>>,
}

/// Why a scenario file gives no values.
#[derive(Debug, Clone)]
pub enum FileProblem {
    /// The evaluator knows no ruleset directory.
    NoDirectory,
    /// No such file in the ruleset's `examples/`.
    NoFile,
    /// A name that is not a plain file name (a directory, `..`).
    NotAName,
    /// The file cannot be read.
    Unreadable(Arc<std::io::Error>),
    /// The file is not valid YAML.
    InvalidYaml(Arc<marked_yaml::LoadError>),
    /// The file is not a YAML mapping.
    NotAMapping,
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::NoDirectory => f.write_str("no ruleset directory to find its examples in"),
            FileProblem::NoFile => f.write_str("no such file in the ruleset's examples/"),
            FileProblem::NotAName => f.write_str(
                "not the name of a file of the ruleset's examples/ (no directory, no `..`)",
            ),
            FileProblem::Unreadable(e) => write!(f, "cannot read it: {e}"),
            FileProblem::InvalidYaml(e) => write!(f, "invalid YAML: {e}"),
            FileProblem::NotAMapping => f.write_str("not a scenario (a YAML mapping)"),
        }
    }
}

/// Why a reference's `setup(x)` or `expected(x)` has no value.
#[derive(Debug, Clone)]
pub enum ScenarioError {
    /// The scenario `name` gives no values.
    File {
        /// The scenario's name.
        name: String,
        /// What is wrong with its file.
        problem: FileProblem,
    },
    /// `setup(` or `expected(` (the function) without its `)`.
    Unclosed(&'static str),
    /// The scenario's setup assigns no number to `key`.
    NoSetup {
        /// The scenario's name.
        name: String,
        /// The assigned place, without spaces.
        key: String,
    },
    /// No `expect:` of the scenario asserts a number for `key` (or not as
    /// many as asked).
    NoExpected {
        /// The scenario's name.
        name: String,
        /// The asserted place, without spaces.
        key: String,
    },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::File { name, problem } => write!(f, "scenario `{name}`: {problem}"),
            ScenarioError::Unclosed(func) => write!(f, "unclosed `{func}`"),
            ScenarioError::NoSetup { name, key } => {
                write!(f, "scenario `{name}` assigns no number to `{key}`")
            }
            ScenarioError::NoExpected { name, key } => {
                write!(f, "scenario `{name}` asserts no such number for `{key}`")
            }
        }
    }
}

impl std::error::Error for ScenarioError {}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect()
}

fn int_of(s: &str) -> Option<i64> {
    match s.trim() {
        "true" => Some(1),
        "false" => Some(0),
        t => t.parse().ok(),
    }
}

/// The functions a reference may call on a scenario.
const FUNCTIONS: [&str; 2] = ["setup(", "expected("];

impl Scenario {
    /// Reads the scenario `name` of the ruleset directory `dir`.
    pub fn find(dir: Option<&Path>, name: &str) -> Result<Scenario, FileProblem> {
        let dir = dir.ok_or(FileProblem::NoDirectory)?;
        if !crate::scenario::origin::is_plain_name(name) {
            return Err(FileProblem::NotAName);
        }
        let path = dir.join("examples").join(format!("{name}.yaml"));
        if path.exists() {
            Scenario::read(&path)
        } else {
            Err(FileProblem::NoFile)
        }
    }

    fn read(path: &Path) -> Result<Scenario, FileProblem> {
        let text =
            std::fs::read_to_string(path).map_err(|e| FileProblem::Unreadable(Arc::new(e)))?;
        let root =
            marked_yaml::parse_yaml(0, &text).map_err(|e| FileProblem::InvalidYaml(Arc::new(e)))?;
        let map = root.as_mapping().ok_or(FileProblem::NotAMapping)?;
        let mut sc = Scenario::default();
        if let Some(setup) = map.get_scalar("setup") {
            for stmt in setup.as_str().split(';') {
                if let Some((lhs, rhs)) = stmt.split_once('=') {
                    let lhs = squeeze(
                        lhs.lines()
                            .filter(|l| !l.trim_start().starts_with("//"))
                            .collect::<Vec<_>>()
                            .join(" ")
                            .as_str(),
                    );
                    if let Some(v) = int_of(rhs) {
                        sc.setup.insert(lhs, v);
                    }
                }
            }
        }
        if let Some(steps) = map.get_sequence("steps") {
            for step in steps.iter() {
                let Some(exp) = step.as_mapping().and_then(|m| m.get_mapping("expect")) else {
                    continue;
                };
                for (k, v) in exp.iter() {
                    if let Some(n) = v.as_scalar().and_then(|v| int_of(v.as_str())) {
                        sc.expected.entry(squeeze(k.as_str())).or_default().push(n);
                    }
                }
            }
        }
        Ok(sc)
    }

    /// Replaces `setup(x)` and `expected(x)` (or `expected(x, k)`) in
    /// `expr` by the values this scenario, named `name`, states for `x`.
    pub fn substitute(&self, name: &str, expr: &str) -> Result<String, ScenarioError> {
        let mut out = String::new();
        let mut rest = expr;
        while let Some((p, func)) = next_call(rest) {
            out.push_str(&rest[..p]);
            let after = &rest[p + func.len()..];
            let end = closing_paren(after).ok_or(ScenarioError::Unclosed(func))?;
            let v = self.value_of(name, func, &after[..end])?;
            out.push_str(&format!("({v})"));
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// The value of `func(args)`.
    fn value_of(&self, name: &str, func: &str, args: &str) -> Result<i64, ScenarioError> {
        let mut key = squeeze(args);
        // `expected(x, k)`: the k-th assertion of x (1-based); the last by
        // default.
        let mut nth = None;
        if let Some((k, n)) = key.rsplit_once(',') {
            // A relation binds `#k` as `(k)`.
            let n = n.trim_start_matches('(').trim_end_matches(')');
            if let Ok(n) = n.parse::<usize>() {
                nth = Some(n);
                key = k.to_string();
            }
        }
        let name = name.to_string();
        if func == "setup(" {
            self.setup
                .get(&key)
                .copied()
                .ok_or(ScenarioError::NoSetup { name, key })
        } else {
            self.expected
                .get(&key)
                .and_then(|vs| match nth {
                    Some(n) => n.checked_sub(1).and_then(|i| vs.get(i)).copied(),
                    None => vs.last().copied(),
                })
                .ok_or(ScenarioError::NoExpected { name, key })
        }
    }
}

/// The first call of a scenario function in `s` (not the end of a longer
/// name): its offset and the function.
fn next_call(s: &str) -> Option<(usize, &'static str)> {
    FUNCTIONS
        .iter()
        .filter_map(|f| s.find(f).map(|p| (p, *f)))
        .filter(|(p, _)| {
            *p == 0
                || !s[..*p]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .min()
}

/// The offset of the `)` that closes a call whose arguments start `s`.
fn closing_paren(s: &str) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

//! Bad input never panics: mutated copies of the Tzolk'in ruleset (rules
//! and data files) and of scenario files either load or are reported, and
//! rulesets that still load play random games that end or report a rules
//! error. A small seeded fuzzer, run in every test run.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A tiny deterministic generator (xorshift) for the mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "{", "}", "(", ")", "[", "]", ";", ":", ",", "=", "==", "-", "+", "0", "99", "-1", "none",
    "true", "x", " ", "\n", "\"", "#", "'", "let", "choose", "proc", "fn", "var", "by", "in",
    "where", "=>", "..", "..=", "players", "nth(", "count(", "*", "/", "%", "\t", "é",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return PIECES[rng.below(PIECES.len())].to_string();
    }
    let at = rng.below(chars.len());
    let len = 1 + rng.below(6).min(chars.len() - at - 1);
    let mut out: String = chars[..at].iter().collect();
    match rng.below(4) {
        0 => {} // delete a short run
        1 => {
            out.push_str(PIECES[rng.below(PIECES.len())]);
        }
        2 => {
            out.push_str(PIECES[rng.below(PIECES.len())]);
            out.extend(&chars[at..at + len]);
        }
        _ => {
            // duplicate a line
            let line_start = text[..text.char_indices().nth(at).map_or(0, |(b, _)| b)]
                .rfind('\n')
                .map_or(0, |p| p + 1);
            let line_end = text[line_start..]
                .find('\n')
                .map_or(text.len(), |p| line_start + p);
            out = format!(
                "{}{}\n{}",
                &text[..line_end],
                &text[line_start..line_end],
                &text[line_end..]
            );
            return out;
        }
    }
    out.extend(&chars[at + len..]);
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_file() {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

fn tzolkin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tzolkin")
}

/// Plays at most `limit` random decisions; errors are fine, panics are not.
fn play_a_little(rules: Arc<tabula::model::Ruleset>, limit: usize) {
    let players = rules.min_players.max(2).min(rules.max_players);
    let Ok(mut g) = tabula::engine::Game::new(rules, players, 1) else {
        return;
    };
    let mut k = 7u64;
    for _ in 0..limit {
        if g.is_over() {
            let _ = g.outcome();
            return;
        }
        let Ok(legal) = g.legal() else { return };
        k = k.wrapping_mul(6364136223846793005).wrapping_add(1);
        if g.apply((k >> 33) as usize % legal.len()).is_err() {
            return;
        }
    }
}

#[test]
fn mutated_rulesets_are_reported_or_played_never_panic() {
    let src = tzolkin_dir();
    let files: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    let work = std::env::temp_dir().join(format!("tabula-robust-{}", std::process::id()));
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut reported, mut loaded) = (0, 0);
    let rounds: usize = std::env::var("TABULA_FUZZ_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(160);
    for round in 0..rounds {
        let dir = work.join("tzolkin");
        let _ = std::fs::remove_dir_all(&dir);
        copy_dir(&src, &dir);
        let victim = &files[rng.below(files.len())];
        let text = std::fs::read_to_string(victim).unwrap();
        let bad = mutate(&text, &mut rng);
        std::fs::write(dir.join(victim.file_name().unwrap()), &bad).unwrap();
        let result = catch_unwind(AssertUnwindSafe(|| match tabula::model::load(&dir, &[]) {
            Ok(r) => {
                play_a_little(Arc::new(r), 300);
                true
            }
            Err(tabula::model::LoadError::Invalid(d)) => {
                // Every diagnostic renders, with a location.
                let text = d.render_plain();
                assert!(
                    !d.items.is_empty() && text.contains("tzolkin/"),
                    "round {round}: {text}"
                );
                false
            }
            Err(e) => panic!("round {round}: unexpected {e}"),
        }));
        match result {
            Ok(true) => loaded += 1,
            Ok(false) => reported += 1,
            Err(_) => panic!(
                "round {round}: a panic on a mutated {}:\n{}",
                victim.display(),
                bad
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    // The mutations are strong enough that most copies are refused.
    assert!(
        reported * 2 > rounds,
        "only {reported} of {rounds} mutated rulesets were refused"
    );
    assert!(loaded + reported == rounds);
}

#[test]
fn mutated_scenarios_never_panic() {
    let examples = tzolkin_dir().join("examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&examples)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let work = std::env::temp_dir().join(format!("tabula-robust-sc-{}", std::process::id()));
    let ex = work.join("tzolkin").join("examples");
    copy_dir(&tzolkin_dir(), &work.join("tzolkin"));
    std::fs::create_dir_all(&ex).unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..60 {
        let f = &files[rng.below(files.len())];
        let bad = mutate(&std::fs::read_to_string(f).unwrap(), &mut rng);
        let path = ex.join("case.yaml");
        std::fs::write(&path, &bad).unwrap();
        let r = catch_unwind(AssertUnwindSafe(|| {
            let _ = tabula::scenario::run_file(&path).map(|o| o.failures.render_plain());
        }));
        assert!(
            r.is_ok(),
            "round {round}: a panic on a mutated {}:\n{bad}",
            f.display()
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn corrupt_logs_are_errors() {
    let good = r#"{"ruleset":"tzolkin","variants":[],"players":2,"seed":1,"decisions":["w01"]}"#;
    let mut rng = Rng(42);
    for _ in 0..200 {
        let bad = mutate(good, &mut rng);
        let r = catch_unwind(|| serde_json::from_str::<tabula::engine::GameLog>(&bad).map(|_| ()));
        assert!(r.is_ok());
    }
}

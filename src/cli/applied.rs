//! What a command applied to a ruleset, parsed and said: `--set
//! NAME=VALUE` arguments, the directory loaded, and the line naming the
//! variants and parameters set that every summary prints.

use std::path::Path;

use crate::model::Ruleset;

/// Parses a `--set NAME=VALUE` argument (the value may itself hold `=`).
pub fn parse_set(s: &str) -> Result<(String, String), String> {
    let Some((name, value)) = s.split_once('=') else {
        return Err(format!(
            "`{s}` is not NAME=VALUE: write e.g. --set feed_cost=3 (NAME a parameter of the \
             ruleset's `params:`)"
        ));
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{s}` has no parameter name before `=`"));
    }
    if value.trim().is_empty() {
        return Err(format!("`{s}` has no value after `=`"));
    }
    Ok((name.to_string(), value.trim().to_string()))
}

/// The variants and parameters applied to `rules`, for summaries:
/// `variants a + b; set x=1, y=2`, or `base rules`.
pub fn describe(rules: &Ruleset) -> String {
    let mut parts = Vec::new();
    if !rules.variants.is_empty() {
        parts.push(format!("variants {}", rules.variants.join(" + ")));
    }
    let set = crate::sim::overrides(rules);
    if !set.is_empty() {
        let s: Vec<String> = set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        parts.push(format!("set {}", s.join(", ")));
    }
    if parts.is_empty() {
        "base rules".into()
    } else {
        parts.join("; ")
    }
}

/// The line saying which directory a ruleset was loaded from.
pub fn loaded_from(dir: &Path) -> String {
    format!("loaded from {}", dir.display())
}

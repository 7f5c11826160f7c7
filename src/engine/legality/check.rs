//! Checks of the rules made while playing: option names that clash, and
//! the `--check-legal` comparison of the shortcuts with full runs.

use std::sync::Arc;

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{State, Status};
use crate::ir::ruleset::Ruleset;
use crate::ir::span::Span;

use super::{choice_span, option_name, Next, Pending};

/// Two options of one choice must not share a name (checked only where
/// the arms allow it, see [`crate::ir::ruleset::ChoiceDef`]).
pub(super) fn names(rules: &Ruleset, st: &State) -> Result<(), RuntimeError> {
    let Status::Waiting { choice, .. } = st.status else {
        return Ok(());
    };
    if !rules.choices[choice as usize].names_may_clash {
        return Ok(());
    }
    let names: Vec<Arc<str>> = st
        .vm
        .options
        .iter()
        .map(|(a, v)| option_name(rules, st, *a, *v))
        .collect();
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    if let Some(n) = names.iter().find(|n| !seen.insert(&***n)) {
        return Err(RuntimeError::new(
            ErrorKind::NameClash,
            choice_span(rules, st),
            format!("two options of this choice are both named `{n}`"),
        ));
    }
    Ok(())
}

/// The check of the shortcuts: an option legal when runs stop at
/// `legal;` must also be legal when run in full; and the options
/// refused, by requirements checked on whole sets or by their runs, must
/// be those refused in full, for the same reasons.
pub(super) fn compare_full(
    rules: &Ruleset,
    st: &State,
    cut: &Pending,
    full: &Pending,
) -> Result<(), RuntimeError> {
    let reasons = |p: &Pending| -> Vec<(u16, i64, (String, Span))> {
        p.all_refused(rules, st)
            .map(|(arm, value, why)| (arm, value, why.text(rules)))
            .collect()
    };
    let (a, b) = (reasons(cut), reasons(full));
    if let Some((arm, value, (why, span))) = a.iter().find(|r| !b.contains(r)) {
        return Err(RuntimeError::new(
            ErrorKind::BrokenLegal,
            *span,
            format!(
                "the option `{}` is refused ({why}) but not so when run in full",
                option_name(rules, st, *arm, *value)
            ),
        ));
    }
    for &(arm, value, next) in &cut.legal {
        if full.legal.iter().any(|(a, v, _)| (*a, *v) == (arm, value)) {
            continue;
        }
        let why = full
            .all_refused(rules, st)
            .find(|(a, v, _)| (*a, *v) == (arm, value))
            .map_or(String::new(), |(_, _, why)| {
                format!(": {}", why.text(rules).0)
            });
        let span = match next {
            Next::Rerun(m) => rules.messages[m as usize].1,
            Next::Run => choice_span(rules, st),
        };
        return Err(RuntimeError::new(
            ErrorKind::BrokenLegal,
            span,
            format!(
                "`legal;` declared the option `{}` legal, but run in full it is refused{why}",
                option_name(rules, st, arm, value)
            ),
        ));
    }
    Ok(())
}

//! Which choices offer only options legal without being run, found once
//! the code is final: the look-ahead then takes such a choice as a way on
//! without trying it (see [`ChoiceDef::legal_untried`]).

use crate::ir::bytecode::Op;
use crate::ir::ruleset::{ArmDef, ChoiceDef, Ruleset};

/// Sets [`ChoiceDef::legal_untried`] on every choice whose arms all are
/// light, screen no requirement and start their pure prefix with
/// `legal;`, in every function that waits at it. Conservative: a choice
/// found nowhere, or with an arm not shown to be so, is left unmarked.
pub(super) fn mark_choices(rules: &mut Ruleset) {
    let mut found = vec![None::<bool>; rules.choices.len()];
    for f in &rules.funcs {
        for op in &f.code {
            let Op::ChooseWait(c) = *op else { continue };
            let Some(choice) = rules.choices.get(c as usize) else {
                continue;
            };
            let here = all_legal_untried(choice, &f.code);
            let seen = &mut found[c as usize];
            *seen = Some(seen.unwrap_or(true) && here);
        }
    }
    for (choice, seen) in rules.choices.iter_mut().zip(found) {
        choice.legal_untried = seen == Some(true);
    }
}

/// Whether every arm of `choice`, compiled into `code`, is legal untried.
fn all_legal_untried(choice: &ChoiceDef, code: &[Op]) -> bool {
    !choice.arms.is_empty() && choice.arms.iter().all(|a| legal_untried(a, code))
}

/// Whether the options of `arm` are legal untried: a light arm with no
/// screened requirement whose pure prefix (in `code`) starts at `legal;`,
/// as the light try finds it (`engine::legality::light`).
fn legal_untried(arm: &ArmDef, code: &[Op]) -> bool {
    let Some(light) = arm.light else {
        return false;
    };
    arm.screen.is_empty() && matches!(code.get(light.start as usize), Some(Op::Legal(_)))
}

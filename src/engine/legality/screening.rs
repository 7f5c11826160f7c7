//! Screening: the requirements an arm starts with, checked on the whole
//! set of its options while they are collected (see
//! `Op::ChooseAddScreened`). What was recorded is the set of members
//! passing each requirement; an option is refused, without being tried,
//! when it is missing from one of them.

use crate::engine::state::Screening;
use crate::ir::bits::Bits;
use crate::ir::ruleset::Ruleset;

/// The message of the requirement the `i`-th option (of value `value`)
/// breaks, if its arm was screened and it breaks one (the first such
/// requirement, in the order they are written).
#[inline]
pub(super) fn refusal(rules: &Ruleset, screened: &Screening, i: usize, value: i64) -> Option<u32> {
    let ((choice, arm), sets) = screened.passing(i)?;
    let msgs = &rules.choices[choice as usize].arms[arm as usize].screen;
    let has = |s: &Bits| {
        usize::try_from(value)
            .ok()
            .and_then(|v| s.get(v / 64).map(|w| w >> (v % 64) & 1 == 1))
            .unwrap_or(false)
    };
    let j = sets[..msgs.len()].iter().position(|s| !has(s))?;
    Some(msgs[j])
}

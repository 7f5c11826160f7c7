//! Screening: the requirements an arm starts with, checked on the whole
//! set of its options while they are collected (see
//! `Op::ChooseAddScreened`). What was recorded is the set of members
//! passing each requirement; an option is refused, without being tried,
//! when it is missing from one of them.

use crate::engine::state::{Passing, Screening};
use crate::ir::bits::{self, Bits};
use crate::ir::ruleset::Ruleset;

/// The message of the requirement the `i`-th option (of value `value`)
/// breaks, if its arm was screened and it breaks one (the first such
/// requirement, in the order they are written).
#[inline]
pub(super) fn refusal(rules: &Ruleset, screened: &Screening, i: usize, value: i64) -> Option<u32> {
    let Passing {
        at: (choice, arm),
        sets,
        ..
    } = screened.passing(i)?;
    first_broken(
        rules.choices[choice as usize].arms[arm as usize]
            .screen
            .as_slice(),
        sets,
        value,
    )
}

/// The message of the first of `msgs` whose passing set (in `sets`, in
/// the same order) lacks `value`.
#[inline]
fn first_broken(msgs: &[u32], sets: &[Bits], value: i64) -> Option<u32> {
    let j = sets[..msgs.len()]
        .iter()
        .position(|s| !bits::has(s, value))?;
    Some(msgs[j])
}

/// [`refusal`] for many options of one screening, asked in any order:
/// the arm last asked about is kept with the members passing all its
/// requirements at once, so that an option of it passing them is known
/// by one look at one word.
pub(super) struct Screen<'a> {
    rules: &'a Ruleset,
    screened: &'a Screening,
    /// The arm last asked about.
    arm: Option<ScreenedArm<'a>>,
    /// Whether no arm was screened (no option is refused).
    none: bool,
}

/// An arm whose options were screened, as [`Screen`] keeps it.
struct ScreenedArm<'a> {
    /// Its options, `start..end` of the choice's.
    start: usize,
    end: usize,
    /// The messages of its screened requirements.
    msgs: &'a [u32],
    /// The members passing each, in the same order.
    sets: &'a [Bits],
    /// The members passing every one.
    pass: Bits,
}

impl<'a> Screen<'a> {
    /// Answers about the options screened in `screened`.
    pub(super) fn new(rules: &'a Ruleset, screened: &'a Screening) -> Screen<'a> {
        Screen {
            rules,
            screened,
            arm: None,
            none: screened.is_empty(),
        }
    }

    /// Whether the `i`-th option (of value `value`) passes the screened
    /// requirements of its arm ([`Screen::refusal`] is `None`), found
    /// without looking for the one it breaks.
    #[inline(always)]
    pub(super) fn passes(&mut self, i: usize, value: i64) -> bool {
        if self.none {
            return true;
        }
        match &self.arm {
            Some(a) if a.start <= i && i < a.end => bits::has(&a.pass, value),
            _ => self.passes_slow(i, value),
        }
    }

    /// [`Screen::passes`] for an option outside the arm last asked about.
    #[inline(never)]
    fn passes_slow(&mut self, i: usize, value: i64) -> bool {
        match self.screened_arm(i) {
            Some(a) => {
                let pass = bits::has(&a.pass, value);
                self.arm = Some(a);
                pass
            }
            None => true,
        }
    }

    /// The message of the requirement the `i`-th option (of value
    /// `value`) breaks, as [`refusal`] finds it.
    #[inline(always)]
    pub(super) fn refusal(&mut self, i: usize, value: i64) -> Option<u32> {
        if self.none {
            return None;
        }
        let known = self.arm.as_ref().is_some_and(|a| a.start <= i && i < a.end);
        if !known {
            self.arm = Some(self.screened_arm(i)?);
        }
        let arm = self.arm.as_ref()?;
        if bits::has(&arm.pass, value) {
            return None;
        }
        first_broken(arm.msgs, arm.sets, value)
    }

    /// The screened arm the `i`-th option belongs to, if its arm was
    /// screened.
    fn screened_arm(&self, i: usize) -> Option<ScreenedArm<'a>> {
        let Passing {
            at: (choice, arm),
            options,
            sets,
        } = self.screened.passing(i)?;
        let msgs = self.rules.choices[choice as usize].arms[arm as usize]
            .screen
            .as_slice();
        let sets = &sets[..msgs.len()];
        let words = sets.iter().map(|s| s.len()).max().unwrap_or(0);
        let pass = bits::from_fn(words.max(1), |w| {
            sets.iter()
                .fold(u64::MAX, |acc, s| acc & s.get(w).copied().unwrap_or(0))
        });
        Some(ScreenedArm {
            start: options.start,
            end: options.end,
            msgs,
            sets,
            pass,
        })
    }
}

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
pub(super) fn first_broken(msgs: &[u32], sets: &[Bits], value: i64) -> Option<u32> {
    let j = sets[..msgs.len()]
        .iter()
        .position(|s| !bits::has(s, value))?;
    Some(msgs[j])
}

/// [`refusal`] for many options of one screening, asked in any order:
/// the arm last asked about is kept and, from the second option of it
/// asked about on, with the members passing all its requirements at
/// once, so that an option of it passing them is known by one look at one
/// word (the look-ahead often asks about one option only).
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
    /// The members passing every one, once made (see [`Screen`]).
    pass: Option<Bits>,
}

impl ScreenedArm<'_> {
    /// Whether option `i` is one of the arm's.
    #[inline(always)]
    fn holds(&self, i: usize) -> bool {
        self.start <= i && i < self.end
    }

    /// The members passing every requirement of the arm.
    #[inline(always)]
    fn pass(&mut self) -> &Bits {
        if self.pass.is_none() {
            self.pass = Some(pass_all(self.sets));
        }
        self.pass.as_ref().expect("made above")
    }
}

/// The members passing every one of `sets`.
#[inline(never)]
fn pass_all(sets: &[Bits]) -> Bits {
    if let [one] = sets {
        // Shared, not copied.
        return one.clone();
    }
    let words = sets.iter().map(|s| s.len()).max().unwrap_or(0);
    bits::from_fn(words.max(1), |w| {
        sets.iter()
            .fold(u64::MAX, |acc, s| acc & s.get(w).copied().unwrap_or(0))
    })
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
            Some(ScreenedArm {
                pass: Some(pass),
                start,
                end,
                ..
            }) if *start <= i && i < *end => bits::has(pass, value),
            _ => self.passes_slow(i, value),
        }
    }

    /// The messages of the screened requirements of the arm of the `i`-th
    /// option and the members passing each (one set for each, at least
    /// one), or `None` when its arm was not screened.
    pub(super) fn sets_of(&self, i: usize) -> Option<(&'a [u32], &'a [Bits])> {
        if self.none {
            return None;
        }
        self.screened_arm(i).map(|a| (a.msgs, a.sets))
    }

    /// The members passing every screened requirement of the arm of the
    /// `i`-th option, with the options of that arm (indices), or `None`
    /// when its arm was not screened: what [`Screen::passes`] reads, for
    /// a caller asking about many options of one arm in a row.
    pub(super) fn arm_pass(&mut self, i: usize) -> Option<(Bits, std::ops::Range<usize>)> {
        if self.none {
            return None;
        }
        if !self.arm.as_ref().is_some_and(|a| a.holds(i)) {
            self.arm = Some(self.screened_arm(i)?);
        }
        let a = self.arm.as_mut()?;
        Some((a.pass().clone(), a.start..a.end))
    }

    /// [`Screen::passes`] for an option outside the arm last asked about,
    /// or of an arm whose passing members are not made yet.
    #[inline(never)]
    fn passes_slow(&mut self, i: usize, value: i64) -> bool {
        if let Some(a) = self.arm.as_mut().filter(|a| a.holds(i)) {
            return bits::has(a.pass(), value);
        }
        match self.screened_arm(i) {
            Some(mut a) => {
                let pass = bits::has(a.pass(), value);
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
        match &mut self.arm {
            Some(a) if a.holds(i) => {
                if bits::has(a.pass(), value) {
                    return None;
                }
                first_broken(a.msgs, a.sets, value)
            }
            _ => {
                // The first option of its arm asked about: looked up in
                // the sets themselves.
                let a = self.screened_arm(i)?;
                let (msgs, sets) = (a.msgs, a.sets);
                self.arm = Some(a);
                first_broken(msgs, sets, value)
            }
        }
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
        Some(ScreenedArm {
            start: options.start,
            end: options.end,
            msgs,
            sets: &sets[..msgs.len()],
            pass: None,
        })
    }
}

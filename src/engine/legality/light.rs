//! Light tries: an option of an arm decided by a pure prefix (see
//! [`crate::ir::ruleset::ArmDef::light`]) is tried by running only that
//! prefix, in place, in the frame of the `choose`, with no undo prepared.

use std::ops::{Deref, DerefMut, Range};

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{State, Status, Value};
use crate::engine::vm::Exit;
use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::Op;
use crate::ir::ruleset::{LightArm, Ruleset};

use super::budget::Budget;
use super::screening::Screen;
use super::{Next, Verdict, Why};

/// The pure prefix of arm `arm` of the choice `st` waits at, if the arm
/// is decided by one.
#[inline]
pub(super) fn prefix(rules: &Ruleset, st: &State, arm: u16) -> Option<LightArm> {
    let Status::Waiting { choice, .. } = st.status else {
        return None;
    };
    st.vm.frames.last()?;
    rules.choices[choice as usize].arms.get(arm as usize)?.light
}

/// Tries the option `value` of an arm with this pure prefix: legal
/// (applied by running it in full) when the prefix reaches `legal;`,
/// refused when it breaks a requirement.
pub(super) fn try_prefix(
    rules: &Ruleset,
    st: &mut State,
    light: LightArm,
    value: i64,
    budget: &mut Budget,
) -> Result<Verdict, RuntimeError> {
    PrefixRun::enter(st).try_one(rules, light, value, budget)
}

/// The `legal;` a pure prefix starts with, if it does (its requirements
/// were all screened, or it has none): its options are legal untried.
#[inline]
fn legal_at_start(rules: &Ruleset, st: &State, light: LightArm) -> Option<u32> {
    let f = st.vm.frames.last()?;
    match rules.funcs[f.func as usize]
        .code
        .get(light.start as usize)?
    {
        Op::Legal(m) => Some(*m),
        _ => None,
    }
}

/// The options of the pending choice from the `i`-th on that are of arm
/// `arm`, whose pure prefix `light` starts with `legal;` (see
/// [`legal_at_start`]): legal untried, those `screen` passes pushed to
/// `legal` as `(arm, value, next)`. Returns the index of the first option
/// of another arm (or the count); `None`, nothing done, for a prefix
/// that does not start with `legal;` (to be run: see
/// [`PrefixRun::try_arm`]).
#[inline]
pub(super) fn all_legal(
    rules: &Ruleset,
    st: &State,
    (light, arm): (LightArm, u16),
    mut i: usize,
    screen: &mut Screen<'_>,
    legal: &mut Vec<(u16, i64, Next)>,
) -> Option<usize> {
    let m = legal_at_start(rules, st, light)?;
    let held = screen.arm_pass(i);
    let options = &st.vm.options;
    while let Some(&(of, value)) = options.get(i).filter(|o| o.0 == arm) {
        if passing(&held, screen, i, value) {
            legal.push((of, value, Next::Rerun(m)));
        }
        i += 1;
    }
    Some(i)
}

/// Whether `screen` passes the `i`-th option, of value `value`: read from
/// `held`, the passing members of its arm taken once ([`Screen::arm_pass`]),
/// when the option is of that arm.
#[inline(always)]
pub(super) fn passing(
    held: &Option<(Bits, Range<usize>)>,
    screen: &mut Screen<'_>,
    i: usize,
    value: i64,
) -> bool {
    match held {
        Some((pass, range)) if range.contains(&i) => bits::has(pass, value),
        _ => screen.passes(i, value),
    }
}

/// Pure prefixes being run, one option after another, in the frame of
/// the pending `choose`. A pure prefix writes no word, so nothing is
/// recorded; what it changes (the status, the try flags, the stack above
/// the frame's, the frame's next instruction) is put back after each
/// option and when this is dropped. The local receiving the options'
/// values keeps the last one, and the locals a prefix sets what its last
/// run set (the arm sets them again before reading them): a try kept for
/// applying (see `Pending::apply`) may differ there from a run again.
pub(super) struct PrefixRun<'s> {
    st: &'s mut State,
    status: Status,
    recording: bool,
    cut_at_legal: bool,
    height: usize,
    pc: u32,
}

impl<'s> PrefixRun<'s> {
    /// Sets the state to run prefixes.
    #[inline]
    pub(super) fn enter(st: &'s mut State) -> PrefixRun<'s> {
        let pc = st.vm.frames.last().map_or(0, |f| f.pc);
        PrefixRun {
            height: st.vm.stack.len(),
            pc,
            status: std::mem::replace(&mut st.status, Status::Running),
            // Recording, so that the run stops at `legal;`.
            recording: std::mem::replace(&mut st.recording, true),
            cut_at_legal: std::mem::replace(&mut st.cut_at_legal, true),
            st,
        }
    }

    /// Tries the option `value` of an arm with the pure prefix `light`
    /// (see [`try_prefix`]), leaving the state ready for the next.
    #[inline]
    pub(super) fn try_one(
        &mut self,
        rules: &Ruleset,
        light: LightArm,
        value: i64,
        budget: &mut Budget,
    ) -> Result<Verdict, RuntimeError> {
        if let Some(m) = self.legal_at_start(rules, light) {
            return Ok(Verdict::Legal(Next::Rerun(m)));
        }
        self.run_prefix(rules, light, value, budget)
    }

    /// The `legal;` the pure prefix `light` starts with, if it does: the
    /// options of its arm are then legal untried (the same for every
    /// option of the arm).
    #[inline]
    fn legal_at_start(&self, rules: &Ruleset, light: LightArm) -> Option<u32> {
        legal_at_start(rules, self.st, light)
    }

    /// Tries, one after another, the options of the pending choice from
    /// the `i`-th on that are of arm `arm`, whose pure prefix is `light`,
    /// one not starting with `legal;` (see [`all_legal`]; those `screen` refuses are passed over, see `Pending::screened`):
    /// the legal ones go to `legal` as `(arm, value, next)`, the refused
    /// ones to `refused` as `(index, why)`. Returns the index of the first
    /// option of another arm (or the count). The loop of the listing over
    /// an arm's options: what is the same for all of them (where the
    /// value is bound, the running frame) is found once.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn try_arm(
        &mut self,
        rules: &Ruleset,
        light: LightArm,
        arm: u16,
        mut i: usize,
        screen: &mut Screen<'_>,
        legal: &mut Vec<(u16, i64, Next)>,
        refused: &mut Vec<(u32, Why)>,
        budget: &mut Budget,
    ) -> Result<usize, RuntimeError> {
        let n = self.st.vm.options.len();
        // The arm's screening, read here rather than through `screen` for
        // each option.
        let held = screen.arm_pass(i);
        // `prefix` found the frame of the `choose`.
        let top = self.st.vm.frames.len() - 1;
        let slot = light
            .bind
            .map(|s| self.st.vm.frames[top].base as usize + s as usize);
        while i < n {
            let (of, value) = self.st.vm.options[i];
            if of != arm {
                break;
            }
            if passing(&held, screen, i, value) {
                // `run_prefix`'s run, written out: through a shared
                // function returning a `Verdict`, a board game ran 0.7%
                // more instructions.
                let st = &mut *self.st;
                if let Some(slot) = slot {
                    st.vm.stack[slot] = Value::I(value);
                }
                st.vm.frames[top].pc = light.start;
                let exit = budget.run(rules, st);
                st.vm.stack.truncate(self.height);
                st.status = Status::Running;
                match exit? {
                    Exit::Legal(m) => legal.push((arm, value, Next::Rerun(m))),
                    Exit::Failed(m) => refused.push((i as u32, Why::Message(m))),
                    Exit::Decide | Exit::Over => return Err(self.ended_early(rules)),
                }
            }
            i += 1;
        }
        Ok(i)
    }

    /// The error of a prefix that ended before its `legal;`.
    #[cold]
    fn ended_early(&self, rules: &Ruleset) -> RuntimeError {
        RuntimeError::new(
            ErrorKind::Internal,
            match self.status {
                Status::Waiting { choice, .. } => rules.choices[choice as usize].span,
                _ => Default::default(),
            },
            "an option's prefix ended before its `legal;`",
        )
    }

    /// [`PrefixRun::try_one`] for a prefix that does not start with
    /// `legal;` ([`PrefixRun::legal_at_start`] is `None`): runs it.
    #[inline]
    fn run_prefix(
        &mut self,
        rules: &Ruleset,
        light: LightArm,
        value: i64,
        budget: &mut Budget,
    ) -> Result<Verdict, RuntimeError> {
        let st = &mut *self.st;
        let base = st.vm.frames.last().map_or(0, |f| f.base);
        if let Some(slot) = light.bind {
            st.vm.stack[base as usize + slot as usize] = Value::I(value);
        }
        set_pc(st, light.start);
        let exit = budget.run(rules, st);
        st.vm.stack.truncate(self.height);
        st.status = Status::Running;
        match exit? {
            Exit::Legal(m) => Ok(Verdict::Legal(Next::Rerun(m))),
            Exit::Failed(m) => Ok(Verdict::Refused(Why::Message(m))),
            Exit::Decide | Exit::Over => Err(self.ended_early(rules)),
        }
    }
}

impl Drop for PrefixRun<'_> {
    #[inline]
    fn drop(&mut self) {
        let st = &mut *self.st;
        st.recording = self.recording;
        st.cut_at_legal = self.cut_at_legal;
        st.status = std::mem::replace(&mut self.status, Status::Running);
        st.vm.stack.truncate(self.height);
        set_pc(st, self.pc);
    }
}

impl Deref for PrefixRun<'_> {
    type Target = State;

    #[inline]
    fn deref(&self) -> &State {
        self.st
    }
}

impl DerefMut for PrefixRun<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut State {
        self.st
    }
}

/// Sets the next instruction of the running frame.
#[inline]
fn set_pc(st: &mut State, pc: u32) {
    if let Some(f) = st.vm.frames.last_mut() {
        f.pc = pc;
    }
}

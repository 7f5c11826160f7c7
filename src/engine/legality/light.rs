//! Light tries: an option of an arm decided by a pure prefix (see
//! [`crate::ir::ruleset::ArmDef::light`]) is tried by running only that
//! prefix, in place, in the frame of the `choose`, with no undo prepared.

use std::ops::{Deref, DerefMut};

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{State, Status, Value};
use crate::engine::vm::Exit;
use crate::ir::ruleset::{LightArm, Ruleset};

use super::budget::Budget;
use super::{choice_span, Next, Verdict, Why};

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
    let exit = budget.run(rules, &mut PrefixRun::enter(st, light, value))?;
    match exit {
        Exit::Legal(m) => Ok(Verdict::Legal(Next::Rerun(m))),
        Exit::Failed(m) => Ok(Verdict::Refused(Why::Message(m))),
        Exit::Decide | Exit::Over => Err(RuntimeError::new(
            ErrorKind::Internal,
            choice_span(rules, st),
            "an option's prefix ended before its `legal;`",
        )),
    }
}

/// A pure prefix being run in the frame of the pending `choose`. A pure
/// prefix writes no word, so nothing is recorded; what it changes (the
/// status, the try flags, the stack above the frame's, the frame's next
/// instruction) is put back when this is dropped. The local receiving
/// the option's value keeps it.
struct PrefixRun<'s> {
    st: &'s mut State,
    status: Status,
    recording: bool,
    cut_at_legal: bool,
    height: usize,
    pc: u32,
}

impl<'s> PrefixRun<'s> {
    /// Sets the state to run the prefix for the option `value`.
    #[inline]
    fn enter(st: &'s mut State, light: LightArm, value: i64) -> PrefixRun<'s> {
        let (base, pc) = st.vm.frames.last().map_or((0, 0), |f| (f.base, f.pc));
        if let Some(slot) = light.bind {
            st.vm.stack[base as usize + slot as usize] = Value::I(value);
        }
        set_pc(st, light.start);
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

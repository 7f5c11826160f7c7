//! Entering and resuming a frame: the run-time half of the proof that
//! lets the interpreter's loop push, pop and reach locals unchecked.
//!
//! `ir::verify` proved, at load, the stack's height before each
//! instruction of a function and the greatest height it reaches. When a
//! frame is entered (a call, a start) or resumed (a return into it, a new
//! run after a decision, a try, an evaluation), [`fits`] checks that the
//! stack stands at the proven height for the frame's next instruction and
//! makes room for the greatest; from there each instruction moves the
//! stack as proved. Whatever was done to the state between runs, a frame
//! that does not fit is an internal error, never an unchecked access.
//!
//! While the loop runs a frame, the stack is two pointers kept in its
//! locals (so that they stay in registers, which fields of the state
//! cannot, being reloaded after every store): `lp` at the running frame's
//! locals, `sp` past the top. `hold!` takes them from the vector and sets
//! its length to the frame's base, `release!` gives the vector its length
//! back: the vector is never touched in between (every arm that reaches
//! it, itself or through a call, releases first and holds again after),
//! so its buffer stays where the pointers point. Should a panic unwind
//! through the loop, the shorter length only forgets the values above the
//! base, never drops one twice.

use super::errors::{call_of_none, runaway, STEP_LIMIT};
use super::{err, run};
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{Frame, State, Status, Value};
use crate::ir::bytecode::{Func, Op};
use crate::ir::ruleset::Ruleset;
use crate::ir::span::Span;
use crate::ir::verify::UNREACHED;

/// Why the interpreter stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// A decision is pending (see the state's status and options).
    Decide,
    /// The game program ended.
    Over,
    /// A requirement failed: the option being tried is illegal.
    Failed(u32),
    /// The option being tried reached `legal;` (message id of its span):
    /// it is legal, and the rest of it was not run.
    Legal(u32),
}

/// Whether a frame of `func` based at `base` may run from instruction
/// `pc` with this stack: the stack stands at the height proven there (so
/// `pc` is an instruction of the function, reached by the proof); room is
/// then made for the function's greatest height.
#[inline(always)]
pub(super) fn fits(stack: &mut Vec<Value>, func: &Func, pc: usize, base: usize) -> bool {
    match func.heights.get(pc) {
        Some(&h) if h != UNREACHED && stack.len() == base + h as usize => {
            // The greatest height is at least every proven height.
            let room = func.max_stack as usize - h as usize;
            if stack.capacity() - stack.len() < room {
                stack.reserve(room);
            }
            true
        }
        _ => false,
    }
}

/// The error of a frame that does not fit (see [`fits`]).
#[cold]
pub(super) fn unfit(func: &Func) -> RuntimeError {
    err(
        ErrorKind::Internal,
        func.span,
        format!(
            "the stack of `{}` is not where its code was proven to leave it",
            func.name
        ),
    )
}

/// The running function: the innermost frame's.
#[inline(always)]
pub(super) fn running<'r>(rules: &'r Ruleset, st: &State) -> &'r Func {
    &rules.funcs[st.vm.frames.last().map_or(0, |f| f.func) as usize]
}

/// The span of the instruction before the innermost frame's saved `pc`
/// (a call's, the call not made).
#[cold]
fn caller_span(rules: &Ruleset, st: &State) -> Span {
    let pc = st.vm.frames.last().map_or(0, |f| f.pc) as usize;
    running(rules, st).spans[pc.saturating_sub(1)]
}

/// Runs a call instruction (`Call` or `CallDyn`, its index + 1 saved as
/// the running frame's `pc`) on the released stack: the callee is found
/// (a procedure reference is taken from below its arguments), the step
/// limit checked, and the callee's frame entered.
#[inline(always)]
pub(super) fn call_op(
    rules: &Ruleset,
    st: &mut State,
    op: &Op,
    steps: u64,
) -> Result<(), RuntimeError> {
    let (f, argc) = match *op {
        Op::Call(f, argc) => (f as i64, argc as usize),
        Op::CallDyn(argc) => {
            let at = st.vm.stack.len() - argc as usize - 1;
            (st.vm.stack.remove(at).int(), argc as usize)
        }
        _ => unreachable!("a call"),
    };
    if f < 0 || f as usize >= rules.funcs.len() {
        return Err(call_of_none(caller_span(rules, st)));
    }
    if steps > STEP_LIMIT {
        return Err(runaway(caller_span(rules, st)));
    }
    call(rules, st, f as u32, argc)
}

/// Leaves the running frame (of a function returning a value or not) on
/// the released stack: its values are dropped, the result (the top)
/// kept in their place.
#[inline(always)]
pub(super) fn ret(st: &mut State, returns: bool, base: usize) {
    let result = if returns { st.vm.stack.pop() } else { None };
    st.vm.stack.truncate(base);
    st.vm.frames.pop();
    st.vm.stack.extend(result);
}

/// Ends the game program: no frame left, the game over.
#[inline(never)]
pub(super) fn halt(st: &mut State) {
    st.vm.frames.clear();
    st.status = Status::Over;
}

/// Enters function `f` with the `argc` arguments on top of the stack
/// (called from the innermost frame, as `call_op`).
pub(super) fn call(
    rules: &Ruleset,
    st: &mut State,
    f: u32,
    argc: usize,
) -> Result<(), RuntimeError> {
    if st.vm.frames.len() > 2000 {
        return Err(err(
            ErrorKind::LimitReached,
            caller_span(rules, st),
            "calls nested 2000 deep: endless recursion?",
        ));
    }
    let callee = &rules.funcs[f as usize];
    let stack = &mut st.vm.stack;
    let base = stack.len().saturating_sub(argc);
    // The locals past the arguments, zeroed at once (one check of room,
    // no value cloned).
    let locals = base + callee.nlocals;
    if stack.len() < locals {
        let n = locals - stack.len();
        stack.extend((0..n).map(|_| Value::I(0)));
    }
    if !fits(stack, callee, 0, base) {
        return Err(unfit(callee));
    }
    st.vm.push_frame(Frame {
        func: f,
        pc: 0,
        base: base as u32,
    });
    Ok(())
}

/// Starts a function with no arguments (the game program, an initialiser,
/// or a scenario entry point) on the state.
pub fn start(state: &mut State, func: u32, rules: &Ruleset, args: impl IntoIterator<Item = Value>) {
    let base = state.vm.stack.len() as u32;
    let f = &rules.funcs[func as usize];
    state.vm.stack.extend(args);
    let locals = base as usize + f.nlocals;
    if state.vm.stack.len() < locals {
        state.vm.stack.resize(locals, Value::I(0));
    }
    state.vm.frames.push(Frame { func, pc: 0, base });
    state.status = Status::Running;
}

/// Resumes after a decision with the chosen option.
pub fn resume(state: &mut State, arm: u16, value: i64) {
    state.vm.stack.push(Value::I(value));
    state.vm.stack.push(Value::I(arm as i64));
    state.status = Status::Running;
}

/// Evaluates a function to a value, on a scratch program whose buffers
/// are the state's spare ones (an evaluation allocates nothing once they
/// have grown: search bots evaluate positions by the thousand).
pub fn eval(
    rules: &Ruleset,
    state: &mut State,
    func: u32,
    args: impl IntoIterator<Item = Value>,
) -> Result<Value, RuntimeError> {
    let scratch = state.spare.vm();
    let saved = std::mem::replace(&mut state.vm, scratch);
    let saved_status = state.status.clone();
    // An evaluation runs to its end: a `legal;` on the way stops nothing.
    let saved_cut = std::mem::replace(&mut state.cut_at_legal, false);
    start(state, func, rules, args);
    let r = run(rules, state);
    let out = state.vm.stack.pop().unwrap_or(Value::I(0));
    let used = std::mem::replace(&mut state.vm, saved);
    state.spare.give_vm(used);
    state.status = saved_status;
    state.cut_at_legal = saved_cut;
    match r? {
        Exit::Over => Ok(out),
        Exit::Legal(_) => unreachable!("`legal;` does not stop an evaluation"),
        Exit::Decide => Err(err(
            ErrorKind::DecisionInValue,
            rules.funcs[func as usize].span,
            "a value was asked for a decision",
        )),
        Exit::Failed(m) => Err(err(
            ErrorKind::RequirementFailed,
            rules.messages[m as usize].1,
            format!("requirement failed: {}", rules.messages[m as usize].0),
        )),
    }
}

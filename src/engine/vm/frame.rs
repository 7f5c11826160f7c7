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

use super::err;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{Frame, State, Value};
use crate::ir::bytecode::Func;
use crate::ir::ruleset::Ruleset;
use crate::ir::span::Span;
use crate::ir::verify::UNREACHED;

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

/// Enters function `f` with the `argc` arguments on top of the stack.
pub(super) fn call(
    rules: &Ruleset,
    st: &mut State,
    f: u32,
    argc: usize,
    span: Span,
) -> Result<(), RuntimeError> {
    if st.vm.frames.len() > 2000 {
        return Err(err(
            ErrorKind::LimitReached,
            span,
            "calls nested 2000 deep: endless recursion?",
        ));
    }
    let callee = &rules.funcs[f as usize];
    let base = st.vm.stack.len().saturating_sub(argc);
    while st.vm.stack.len() < base + callee.nlocals {
        st.vm.stack.push(Value::I(0));
    }
    if !fits(&mut st.vm.stack, callee, 0, base) {
        return Err(unfit(callee));
    }
    st.vm.frames.push(Frame {
        func: f,
        pc: 0,
        base: base as u32,
    });
    Ok(())
}

//! Where a variable's element lies in the state's words, from the indices
//! on the stack.

use super::err;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::State;
use crate::ir::ruleset::{DimDef, Ruleset, VarDef, PLAYER};
use crate::ir::span::Span;

/// The slots of dimension `d` in play: the seated players for a dimension
/// indexed by player, else all its slots.
#[inline(always)]
pub(super) fn slots(d: &DimDef, nplayers: usize) -> usize {
    if d.kind == Some(PLAYER) {
        nplayers
    } else {
        d.size
    }
}

/// The slot of index `x` in dimension `d`, when it is in play.
#[inline(always)]
pub(super) fn slot(d: &DimDef, x: i64, nplayers: usize) -> Option<usize> {
    let k = x - d.lo;
    (k >= 0 && (k as usize) < slots(d, nplayers)).then_some(k as usize)
}

/// Pops the indices of variable `v` and returns the offset of that element
/// (or why the indices are out of range, an error the caller places at
/// its instruction).
///
/// A variable without indices (the most common, and only a read of its
/// offset) is answered in place; the others by a call.
#[inline(always)]
pub(super) fn var_offset(rules: &Ruleset, st: &mut State, v: u32) -> Result<usize, RuntimeError> {
    let vd = &rules.vars[v as usize];
    if vd.dims.is_empty() {
        return Ok(vd.offset);
    }
    indexed_offset(rules, st, v)
}

/// How many indices variable `vd` takes, and, when it takes two at most,
/// the element they name if they are in range (`top(k)` reads the `k`-th
/// index from the last); `None` for more indices or one out of range
/// (see [`var_offset_slow`]). The run loop's `offset!` gives the same
/// answer written out on the indices in place (through this function and
/// a closure it ran 1.4% more instructions).
#[inline(always)]
fn short_element(
    vd: &VarDef,
    nplayers: usize,
    top: impl Fn(usize) -> i64,
) -> (usize, Option<usize>) {
    match vd.dims.as_slice() {
        [] => (0, Some(0)),
        [d] => (1, slot(d, top(0), nplayers)),
        [d, e] => match (slot(d, top(1), nplayers), slot(e, top(0), nplayers)) {
            (Some(i), Some(j)) => (2, Some(i * e.size + j)),
            _ => (2, None),
        },
        _ => (vd.dims.len(), None),
    }
}

/// [`var_offset`] of a variable with indices.
#[inline(never)]
fn indexed_offset(rules: &Ruleset, st: &mut State, v: u32) -> Result<usize, RuntimeError> {
    let vd = &rules.vars[v as usize];
    let stack = &mut st.vm.stack;
    let len = stack.len();
    let (n, at) = short_element(vd, st.nplayers, |k| {
        len.checked_sub(k + 1).map_or(0, |i| stack[i].int())
    });
    if let (Some(k), Some(rest)) = (at, len.checked_sub(n)) {
        stack.truncate(rest);
        return Ok(vd.offset + k * vd.elem_words);
    }
    var_offset_slow(rules, st, v)
}

/// [`var_offset`] for any number of indices, and the error of indices
/// out of range.
fn var_offset_slow(rules: &Ruleset, st: &mut State, v: u32) -> Result<usize, RuntimeError> {
    let vd = &rules.vars[v as usize];
    let n = vd.dims.len();
    let at = st.vm.stack.len() - n;
    let mut flat = 0usize;
    for (i, d) in vd.dims.iter().enumerate() {
        let x = st.vm.stack[at + i].int();
        let Some(k) = slot(d, x, st.nplayers) else {
            let what = match d.kind {
                Some(k) if x < 0 => format!("none (no `{}`)", rules.kinds[k as usize].name),
                _ => x.to_string(),
            };
            st.vm.stack.truncate(at);
            return Err(err(
                ErrorKind::OutOfRange,
                Span::default(),
                format!("index {what} out of range for `{}`", vd.name),
            ));
        };
        flat = flat * d.size + k;
    }
    st.vm.stack.truncate(at);
    Ok(vd.offset + flat * vd.elem_words)
}

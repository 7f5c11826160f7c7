//! Where a variable's element lies in the state's words, from the indices
//! on the stack.

use super::err;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{State, Value};
use crate::ir::ruleset::{DimDef, Ruleset, PLAYER};
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

/// [`var_offset`] of a variable with indices.
#[inline(never)]
fn indexed_offset(rules: &Ruleset, st: &mut State, v: u32) -> Result<usize, RuntimeError> {
    let vd = &rules.vars[v as usize];
    match vd.dims.as_slice() {
        [] => return Ok(vd.offset),
        [d] => {
            let x = st.vm.stack.last().map_or(0, Value::int);
            if let Some(k) = slot(d, x, st.nplayers) {
                st.vm.stack.pop();
                return Ok(vd.offset + k * vd.elem_words);
            }
        }
        [d0, d1] => {
            // Two indices (a player and a kind, most often): the common
            // shape past one dimension, without the general loop.
            let stack = &mut st.vm.stack;
            if let [.., Value::I(x), Value::I(y)] = stack[..] {
                if let (Some(a), Some(b)) = (slot(d0, x, st.nplayers), slot(d1, y, st.nplayers)) {
                    stack.pop();
                    stack.pop();
                    return Ok(vd.offset + (a * d1.size + b) * vd.elem_words);
                }
            }
        }
        _ => {}
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

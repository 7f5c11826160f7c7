//! Where a variable's element lies in the state's words, from the indices
//! on the stack.

use super::err;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{State, Value};
use crate::ir::ruleset::{Ruleset, PLAYER};
use crate::ir::span::Span;

/// Pops the indices of variable `v` and returns the offset of that element
/// (or why the indices are out of range, an error the caller places at
/// its instruction).
#[inline]
pub(super) fn var_offset(rules: &Ruleset, st: &mut State, v: u32) -> Result<usize, RuntimeError> {
    let vd = &rules.vars[v as usize];
    match vd.dims.as_slice() {
        [] => return Ok(vd.offset),
        [d] => {
            let x = st.vm.stack.last().map_or(0, Value::int);
            let k = x - d.lo;
            let limit = if d.kind == Some(PLAYER) {
                st.nplayers
            } else {
                d.size
            };
            if k >= 0 && (k as usize) < limit {
                st.vm.stack.pop();
                return Ok(vd.offset + k as usize * vd.elem_words);
            }
        }
        _ => {}
    }
    var_offset_slow(rules, st, v)
}

fn var_offset_slow(rules: &Ruleset, st: &mut State, v: u32) -> Result<usize, RuntimeError> {
    let vd = &rules.vars[v as usize];
    let n = vd.dims.len();
    let at = st.vm.stack.len() - n;
    let mut flat = 0usize;
    for (i, d) in vd.dims.iter().enumerate() {
        let x = st.vm.stack[at + i].int();
        let k = x - d.lo;
        let limit = if d.kind == Some(PLAYER) {
            st.nplayers
        } else {
            d.size
        };
        if k < 0 || k as usize >= limit {
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
        }
        flat = flat * d.size + k as usize;
    }
    st.vm.stack.truncate(at);
    Ok(vd.offset + flat * vd.elem_words)
}

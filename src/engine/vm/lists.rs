//! List instructions: a list is a length followed by its items, each
//! held once, in a variable's words.

use rand_core::RngCore;

use super::err;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{State, Value};
use crate::ir::bits;
use crate::ir::bytecode::Op;
use crate::ir::span::Span;

/// Runs a list instruction on the list at `off` (of capacity `cap`),
/// with `item` the popped operand of those that take one. During a try,
/// only the words an instruction writes are recorded (not the whole list).
#[inline]
pub(super) fn list_op(
    op: &Op,
    st: &mut State,
    off: usize,
    cap: usize,
    item: i64,
    span: Span,
) -> Result<(), RuntimeError> {
    let len = st.words[off] as usize;
    // Records the words `lo..hi` about to be written (see `State::touch`).
    let touch = |st: &mut State, lo: usize, hi: usize| match st.touch(lo, hi) {
        true => Ok(()),
        false => Err(super::trail_full(span)),
    };
    match op {
        Op::ListLen(_) => st.vm.stack.push(Value::I(len as i64)),
        Op::ListIn(_) => {
            let has = st.words[off + 1..off + 1 + len].contains(&item);
            st.vm.stack.push(Value::I(has as i64));
        }
        Op::ListSet(_) => {
            let mut bits = bits::empty(0);
            for w in &st.words[off + 1..off + 1 + len] {
                bits::set(&mut bits, *w, true);
            }
            st.vm.stack.push(Value::S(bits));
        }
        Op::ListDraw(_) => {
            if len == 0 {
                st.vm.stack.push(Value::I(-1));
            } else {
                // The length and the items moving down one place.
                touch(st, off, off + len)?;
                let first = st.words[off + 1];
                st.words.copy_within(off + 2..off + 1 + len, off + 1);
                st.words[off] = (len - 1) as i64;
                st.vm.stack.push(Value::I(first));
            }
        }
        Op::ListPush(_) => {
            if item < 0 {
                return Err(err(
                    ErrorKind::NoneUsed,
                    span,
                    "cannot push none onto a list",
                ));
            }
            if st.words[off + 1..off + 1 + len].contains(&item) {
                return Err(err(
                    ErrorKind::BadValue,
                    span,
                    "the item is already in the list (a list holds each item once)",
                ));
            }
            if len >= cap {
                return Err(err(
                    ErrorKind::BadValue,
                    span,
                    "list is full (a list holds each item at most once)",
                ));
            }
            touch(st, off, off + 1)?;
            touch(st, off + 1 + len, off + 2 + len)?;
            st.words[off + 1 + len] = item;
            st.words[off] = (len + 1) as i64;
        }
        Op::ListRemove(_) => {
            if let Some(pos) = st.words[off + 1..off + 1 + len]
                .iter()
                .position(|w| *w == item)
            {
                // The length and the items after it moving down one place.
                touch(st, off, off + 1)?;
                touch(st, off + 1 + pos, off + len)?;
                st.words
                    .copy_within(off + 2 + pos..off + 1 + len, off + 1 + pos);
                st.words[off] = (len - 1) as i64;
            }
        }
        Op::ListShuffle(_) => {
            touch(st, off + 1, off + 1 + len)?;
            for i in (1..len).rev() {
                let j = (st.rng.next_u64() % (i as u64 + 1)) as usize;
                st.words.swap(off + 1 + i, off + 1 + j);
            }
        }
        Op::ListClear(_) => {
            touch(st, off, off + 1)?;
            st.words[off] = 0;
        }
        _ => {}
    }
    Ok(())
}

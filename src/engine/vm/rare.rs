//! Instructions run seldom, or costly enough that a call is nothing
//! beside them, kept out of the interpreter's loop so that the loop stays
//! small (its frequent instructions keep their values in registers).

use super::builtins::{builtin, missing};
use super::lists::list_op;
use super::sets::{members_cmp, number_range, row};
use super::vars::var_offset;
use super::MAX_OPTIONS;
use super::{err, options_fit, set_options_fit, too_many_options, trail_full, unseated};
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{State, Status, Value};
use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::{Builtin, Op};
use crate::ir::ruleset::{Data, Kind, Ruleset, PLAYER};
use crate::ir::span::Span;

/// `ChooseBegin`: no options collected yet.
#[inline(always)]
pub(super) fn begin_options(st: &mut State) {
    st.vm.options.clear();
    st.vm.screened.clear();
}

/// The steps a list instruction on variable `v` counts beside its own:
/// it may go through every item, one step more per 64 it may hold.
#[inline(always)]
pub(super) fn list_steps(rules: &Ruleset, v: u32) -> u64 {
    ((rules.vars[v as usize].elem_words - 1) / 64) as u64
}

/// Runs a list instruction on variable `v` (at `span`): its item, for
/// those that take one, and the list's indices are popped.
#[inline(never)]
pub(super) fn list_instruction(
    rules: &Ruleset,
    st: &mut State,
    op: &Op,
    v: u32,
    span: Span,
) -> Result<(), RuntimeError> {
    let item = if matches!(op, Op::ListIn(_) | Op::ListPush(_) | Op::ListRemove(_)) {
        st.vm.stack.pop().map_or(0, |x| x.int())
    } else {
        0
    };
    let off = var_offset(rules, st, v).map_err(|e| e.at(span))?;
    let cap = rules.vars[v as usize].elem_words - 1;
    list_op(op, st, off, cap, item, span)
}

/// Runs one of the instructions kept out of the loop; an error is placed
/// by the caller at the instruction.
#[inline(never)]
pub(super) fn instruction(rules: &Ruleset, st: &mut State, op: &Op) -> Result<(), RuntimeError> {
    let pop_i = |st: &mut State| st.vm.stack.pop().map_or(0, |v| v.int());
    match *op {
        Op::StoreVar(v) => store_var(rules, st, v)?,
        Op::VarBit(v, on) => var_bit(rules, st, v, on)?,
        Op::VarMerge(v, on) => var_merge(rules, st, v, on)?,
        Op::AddVar(v) => {
            let x = pop_i(st);
            let off = var_offset(rules, st, v)?;
            if !st.touch(off, off + 1) {
                return Err(trail_full(Span::default()));
            }
            st.words[off] = st.words[off].saturating_add(x);
        }
        Op::FieldIndex(k, f) => {
            let key = pop_i(st);
            let e = pop_i(st);
            let kind = &rules.kinds[k as usize];
            if e < 0 || e as usize >= kind.items.len() {
                return Err(field_of_none(kind, f));
            }
            let v = entry(&kind.data[e as usize][f as usize], key)
                .unwrap_or_else(|| missing(&kind.fields[f as usize].ty));
            st.vm.stack.push(Value::I(v));
        }
        Op::ParamIndex(p) => {
            let key = pop_i(st);
            let pd = &rules.params[p as usize];
            let v = entry(&pd.data, key).unwrap_or_else(|| missing(&pd.ty));
            st.vm.stack.push(Value::I(v));
        }
        Op::SetAll(k) => {
            let n = kind_size(rules, st, k);
            st.vm.stack.push(Value::S(bits::all(n)));
        }
        Op::SetMake(_, n) => {
            let mut bits = bits::empty(0);
            for _ in 0..n {
                let e = pop_i(st);
                bits::set(&mut bits, e, true);
            }
            st.vm.stack.push(Value::S(bits));
        }
        Op::SetCount => {
            let s = st.vm.stack.pop().expect("set");
            st.vm.stack.push(Value::I(bits::count(s.bits())));
        }
        Op::SetRange => {
            let lo = pop_i(st);
            let hi = pop_i(st);
            st.vm.stack.push(Value::S(number_range(lo, hi)));
        }
        Op::MembersCmp(v, cmp) => {
            let x = pop_i(st);
            let set = st.vm.stack.pop().expect("set operand");
            let out = members_cmp(row(rules, st, v), cmp, set.bits(), x);
            st.vm.stack.push(Value::S(out));
        }
        Op::CountEq(v) => {
            let x = pop_i(st);
            let c = row(rules, st, v).iter().filter(|w| **w == x).count();
            st.vm.stack.push(Value::I(c as i64));
        }
        Op::Rotate(v) => rotate(rules, st, v)?,
        Op::ChooseAddSet(arm) => {
            let set = st.vm.stack.pop().expect("set operand");
            set_options_fit(st.vm.option_count(), set.bits())?;
            let options = &mut st.vm.options;
            for (wi, w) in set.bits().iter().enumerate() {
                let mut w = *w;
                while w != 0 {
                    let b = w.trailing_zeros() as i64;
                    options.push((arm, wi as i64 * 64 + b));
                    w &= w - 1;
                }
            }
        }
        Op::ChooseAddRange(arm) => {
            let lo = pop_i(st);
            let hi = pop_i(st);
            let n = if hi > lo { hi.abs_diff(lo) } else { 0 };
            options_fit(st.vm.option_count(), n)?;
            st.vm.options.extend((lo..hi).map(|v| (arm, v)));
        }
        _ => unreachable!("not an instruction kept out of the loop: {op:?}"),
    }
    Ok(())
}

/// `SelectEq(v)` of the value `x`: the indices `i` of the one-dimensional
/// variable `v` whose element `v[i]` is `x`, as a set.
#[inline(never)]
pub(super) fn select_eq(rules: &Ruleset, st: &State, v: u32, x: i64) -> Bits {
    let words = row(rules, st, v);
    // A word of the set from each 64 elements.
    bits::from_fn(words.len().div_ceil(64).max(1), |w| {
        let rest = words.get(w * 64..).unwrap_or_default();
        eq_mask(&rest[..rest.len().min(64)], x)
    })
}

/// The elements of `words` (at most 64) equal to `x`, as a word (bit `i`
/// for `words[i]`): each element's bit read from a table and kept by a
/// mask, with no branch (whether an element matches is as unpredictable
/// as the board: a branch per element ran a board game's random games 12%
/// slower by the clock, though in fewer instructions).
#[inline]
fn eq_mask(words: &[i64], x: i64) -> u64 {
    const BIT: [u64; 64] = {
        let mut b = [0; 64];
        let mut i = 0;
        while i < 64 {
            b[i] = 1 << i;
            i += 1;
        }
        b
    };
    let mut acc = 0;
    for (w, bit) in words.iter().zip(&BIT) {
        // A mask, not a branch: which elements match is unpredictable.
        acc |= bit & u64::from(*w == x).wrapping_neg();
    }
    acc
}

/// `ChooseWait` of choice `c` by player `p` (at `span`): the state waits
/// for the player's decision; an error if no such player is seated.
#[inline(always)]
pub(super) fn wait(st: &mut State, c: u32, p: i64, span: Span) -> Result<(), RuntimeError> {
    if p < 0 || p as usize >= st.nplayers {
        return Err(unseated(p, span));
    }
    st.status = Status::Waiting {
        choice: c,
        player: p as usize,
    };
    Ok(())
}

/// `Builtin(b, argc)` on the `argc` values just below `sp`, which are
/// dropped: its result (an error to be placed by the caller), and the new
/// top of the stack (below them).
///
/// # Safety
/// `argc` values lie just below `sp`, all set, in the running frame's
/// operands; the caller no longer reads them.
#[inline(always)]
pub(super) unsafe fn builtin_at(
    b: Builtin,
    argc: u8,
    sp: *mut Value,
    st: &mut State,
) -> (Result<Value, RuntimeError>, *mut Value) {
    let n = argc as usize;
    // Safety: the arguments lie just below `sp` (the caller's promise),
    // the caller's no longer: they may be written (a set taken out).
    let top = unsafe { sp.sub(n) };
    let args = unsafe { std::slice::from_raw_parts_mut(top, n) };
    let r = builtin(b, args, &mut st.rng, st.nplayers, Span::default());
    // Safety: the arguments are dropped once; the caller's top moves
    // below them and no longer covers them.
    unsafe { std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(top, n)) };
    (r, top)
}

/// `ChooseAdd`: option (arm, value) added; an error past the limit.
#[inline(always)]
pub(super) fn add_option(st: &mut State, arm: u16, v: i64) -> Result<(), RuntimeError> {
    if st.vm.options_full() {
        return Err(too_many_options(MAX_OPTIONS as u64 + 1));
    }
    st.vm.push_option((arm, v));
    Ok(())
}

/// `Field`: field `f` of item `e` of kind `k`; an error if `e` is none.
#[inline(always)]
pub(super) fn field(rules: &Ruleset, k: u16, f: u16, e: i64) -> Result<i64, RuntimeError> {
    let kind = &rules.kinds[k as usize];
    if e < 0 || e as usize >= kind.items.len() {
        return Err(field_of_none(kind, f));
    }
    Ok(kind.data[e as usize][f as usize].int())
}

/// `Nth`: the item of kind `k` at index `i` (none if out of range).
#[inline(always)]
pub(super) fn nth(rules: &Ruleset, st: &State, k: u16, i: i64) -> i64 {
    let n = kind_size(rules, st, k) as i64;
    if (0..n).contains(&i) {
        i
    } else {
        -1
    }
}

/// `FieldIndex` of kind `k`'s field `f` out of line: pops a key, then
/// an item; pushes `item.f[key]` (a missing entry read by its type).
#[inline(never)]
pub(super) fn field_index(
    rules: &Ruleset,
    st: &mut State,
    k: u16,
    f: u16,
) -> Result<(), RuntimeError> {
    instruction(rules, st, &Op::FieldIndex(k, f))
}

/// The number of items of kind `k` (the seated players for the players).
#[inline]
pub(super) fn kind_size(rules: &Ruleset, st: &State, k: u16) -> usize {
    if k == PLAYER {
        st.nplayers
    } else {
        rules.kinds[k as usize].items.len()
    }
}

/// `AddVar` or `StoreVar` of an integer `x` at `off` (the indices and
/// the value taken by the interpreter's loop); false when the trail of
/// the try is full.
#[inline]
pub(super) fn store_int(rules: &Ruleset, st: &mut State, op: &Op, off: usize, x: i64) -> bool {
    let (add, n) = match *op {
        Op::StoreVar(v) => (false, rules.vars[v as usize].elem_words),
        _ => (true, 1),
    };
    if !st.touch(off, off + n) {
        return false;
    }
    st.words[off] = if add {
        st.words[off].saturating_add(x)
    } else {
        x
    };
    true
}

/// `data[key]` when there is one (the value read at a missing key,
/// which takes a look at the type, is only found when needed).
#[inline]
fn entry(data: &Data, key: i64) -> Option<i64> {
    match data {
        Data::Ints(v) if key >= 0 => v.get(key as usize).copied(),
        _ => None,
    }
}

/// `StoreVar`: pops a value, then the indices; stores.
fn store_var(rules: &Ruleset, st: &mut State, v: u32) -> Result<(), RuntimeError> {
    let val = st.vm.stack.pop().expect("value");
    let vd = &rules.vars[v as usize];
    let off = var_offset(rules, st, v)?;
    if !st.touch(off, off + vd.elem_words) {
        return Err(trail_full(Span::default()));
    }
    match val {
        Value::I(x) => st.words[off] = x,
        Value::S(bits) => {
            let (kept, past) = bits.split_at(bits.len().min(vd.elem_words));
            if past.iter().any(|w| *w != 0) {
                return Err(err(
                    ErrorKind::OutOfRange,
                    Span::default(),
                    format!("set too large for `{}`", vd.name),
                ));
            }
            // The set's words, then zeroes for those it does not hold.
            let (held, rest) = st.words[off..off + vd.elem_words].split_at_mut(kept.len());
            held.iter_mut().zip(kept).for_each(|(h, w)| *h = *w as i64);
            rest.fill(0);
        }
    }
    Ok(())
}

/// `VarBit`: pops an item, then the indices; puts the item in the set
/// there or takes it out, as storing the set with it or without it does
/// (an item past the set's words does not fit; `none` changes nothing).
fn var_bit(rules: &Ruleset, st: &mut State, v: u32, on: bool) -> Result<(), RuntimeError> {
    let x = st.vm.stack.pop().map_or(0, |v| v.int());
    let vd = &rules.vars[v as usize];
    let off = var_offset(rules, st, v)?;
    let Ok(x) = usize::try_from(x) else {
        return Ok(());
    };
    let w = x / 64;
    if w >= vd.elem_words {
        if !on {
            return Ok(());
        }
        return Err(err(
            ErrorKind::OutOfRange,
            Span::default(),
            format!("set too large for `{}`", vd.name),
        ));
    }
    if !st.touch(off + w, off + w + 1) {
        return Err(trail_full(Span::default()));
    }
    let bit = 1i64 << (x % 64);
    if on {
        st.words[off + w] |= bit;
    } else {
        st.words[off + w] &= !bit;
    }
    Ok(())
}

/// `VarMerge`: pops a set, then the indices; puts its members in the set
/// there or takes them out, as storing the union or the difference does
/// (a member past the set's words does not fit).
fn var_merge(rules: &Ruleset, st: &mut State, v: u32, on: bool) -> Result<(), RuntimeError> {
    let val = st.vm.stack.pop().expect("set");
    let vd = &rules.vars[v as usize];
    let off = var_offset(rules, st, v)?;
    let n = vd.elem_words;
    let (kept, past) = val.bits().split_at(val.bits().len().min(n));
    if on && past.iter().any(|w| *w != 0) {
        return Err(err(
            ErrorKind::OutOfRange,
            Span::default(),
            format!("set too large for `{}`", vd.name),
        ));
    }
    if !st.touch(off, off + kept.len()) {
        return Err(trail_full(Span::default()));
    }
    let held = &mut st.words[off..off + kept.len()];
    for (h, w) in held.iter_mut().zip(kept) {
        *h = if on {
            *h | *w as i64
        } else {
            *h & !(*w as i64)
        };
    }
    Ok(())
}

/// `Rotate`: pops the last then the first index; turns the elements
/// between them one place.
fn rotate(rules: &Ruleset, st: &mut State, v: u32) -> Result<(), RuntimeError> {
    let last = st.vm.stack.pop().map_or(0, |v| v.int());
    let first = st.vm.stack.pop().map_or(0, |v| v.int());
    let vd = &rules.vars[v as usize];
    let d = &vd.dims[0];
    let (a, b) = (first - d.lo, last - d.lo);
    if a < 0 || b < a || b as usize >= d.size {
        return Err(err(
            ErrorKind::OutOfRange,
            Span::default(),
            format!("rotate: bad range {first}..={last} of `{}`", vd.name),
        ));
    }
    let (a, b) = (vd.offset + a as usize, vd.offset + b as usize);
    if !st.touch(a, b + 1) {
        return Err(trail_full(Span::default()));
    }
    st.words[a..=b].rotate_right(1);
    Ok(())
}

/// The error of a field read of no item.
#[cold]
pub(super) fn field_of_none(kind: &Kind, f: u16) -> RuntimeError {
    err(
        ErrorKind::NoneUsed,
        Span::default(),
        format!(
            "field `{}` of none (no `{}` here)",
            kind.fields[f as usize].name, kind.name
        ),
    )
}

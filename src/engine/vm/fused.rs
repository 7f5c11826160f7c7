//! The set instructions fused with their neighbours (see the fused
//! variants of `Op`): they read or change a set where it lies, in the
//! state's words or in a local, rather than making a copy of it.

use super::vars::{slot, var_offset};
use crate::engine::error::RuntimeError;
use crate::engine::state::{State, Value};
use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::BinaryOp;
use crate::ir::ruleset::{Data, Ruleset, Ty};

/// `VarSetIn`: the indices were taken (the element is at `off`) and the
/// item `e` popped; tells whether it is in the set there. An integer
/// variable (never a set operand) holds no item.
#[inline]
pub(super) fn var_set_in(rules: &Ruleset, st: &State, v: u32, off: usize, e: i64) -> bool {
    let vd = &rules.vars[v as usize];
    let words = match vd.ty {
        Ty::Set(_) => &st.words[off..off + vd.elem_words],
        _ => &[][..],
    };
    e >= 0
        && words
            .get(e as usize / 64)
            .is_some_and(|w| (*w as u64) >> (e % 64) & 1 == 1)
}

/// The element of variable `v` (not a set) at the indices `idx`, as many
/// as it has, when they are all in range.
#[inline]
fn element(rules: &Ruleset, st: &State, v: u32, idx: &[i64]) -> Option<i64> {
    let vd = &rules.vars[v as usize];
    if matches!(vd.ty, Ty::Set(_)) || vd.dims.len() != idx.len() {
        return None;
    }
    let mut flat = 0usize;
    for (d, x) in vd.dims.iter().zip(idx) {
        flat = flat * d.size + slot(d, *x, st.nplayers)?;
    }
    Some(st.words[vd.offset + flat * vd.elem_words])
}

/// `LoadVarAtIn`: when `v[l]` is an element (see [`element`]), pushes
/// whether it is in the set variable `w` (whose indices are taken from
/// the stack; an error there is placed at `w`'s `LoadVar`) and returns
/// 3, the instructions to skip; otherwise pushes local `l`, as `Load`
/// does, and returns 0.
#[inline]
pub(super) fn var_at_in(
    rules: &Ruleset,
    st: &mut State,
    base: usize,
    l: u16,
    v: u32,
    w: u32,
) -> Result<usize, RuntimeError> {
    let local = &st.vm.stack[base + l as usize];
    let Some(e) = element(rules, st, v, &[local.int()]) else {
        let local = local.clone();
        st.vm.stack.push(local);
        return Ok(0);
    };
    st.vm.stack.push(Value::I(e));
    let off = var_offset(rules, st, w)?;
    let e = st.vm.stack.pop().map_or(0, |v| v.int());
    let has = var_set_in(rules, st, w, off, e);
    st.vm.stack.push(Value::I(has as i64));
    Ok(3)
}

/// `VarSetBin`: the indices were taken (the element is at `off`); when
/// both the variable and the operand below (`top`) are sets, the operand
/// becomes the result in place (as long as the longer of the two, like
/// the unfused operation) and nothing is returned. Otherwise the
/// variable's value is returned, to be pushed as `LoadVar` does, and the
/// operation runs unfused.
#[inline]
pub(super) fn var_set_bin(
    rules: &Ruleset,
    st: &State,
    v: u32,
    off: usize,
    op: BinaryOp,
    top: &mut Value,
) -> Option<Value> {
    let vd = &rules.vars[v as usize];
    let words = &st.words[off..off + vd.elem_words];
    let is_set = matches!(vd.ty, Ty::Set(_));
    if let (true, Value::S(a)) = (is_set, top) {
        if a.len() < words.len() {
            a.resize(words.len(), 0);
        }
        // The words of both, pairwise (one loop per operation); the
        // intersection empties the words past the variable's.
        let (a, y): (&mut [u64], _) = (a, bits::as_words(words));
        let pairs = a.iter_mut().zip(y);
        match op {
            BinaryOp::Add => pairs.for_each(|(x, y)| *x |= y),
            BinaryOp::Sub => pairs.for_each(|(x, y)| *x &= !y),
            _ => {
                pairs.for_each(|(x, y)| *x &= y);
                if let Some(rest) = a.get_mut(y.len()..) {
                    rest.fill(0);
                }
            }
        }
        return None;
    }
    Some(if is_set {
        Value::S(bits::from_fn(words.len(), |i| words[i] as u64))
    } else {
        Value::I(words[0])
    })
}

/// `DupSubFieldEq`: the set on top (`top`) loses its members whose
/// field `f` of kind `k` is `x` (found through the field's index of
/// values), in place when it holds its block alone; false, nothing done,
/// for a value the index does not hold (or an integer on top): the
/// sequence then runs unfused.
#[inline]
pub(super) fn sub_field_eq(rules: &Ruleset, k: u16, f: u16, x: i32, top: &mut Value) -> bool {
    let by_value = rules.kinds[k as usize].field_sets.get(f as usize);
    let items = by_value.and_then(|b| b.get(usize::try_from(x).ok()?));
    let (Value::S(set), Some(items)) = (top, items) else {
        return false;
    };
    let keep = |i: usize, w: u64| w & !items.get(i).copied().unwrap_or(0);
    if let Some(words) = set.alone_mut() {
        for (i, w) in words.iter_mut().enumerate() {
            *w = keep(i, *w);
        }
    } else {
        let out = bits::from_fn(set.len(), |i| keep(i, set[i]));
        *set = out;
    }
    true
}

/// `VarCount`: the indices were taken (the element is at `off`); how
/// many members the set variable `v` holds there (0 for a variable not a
/// set: never fused).
#[inline]
pub(super) fn var_count(rules: &Ruleset, st: &State, v: u32, off: usize) -> i64 {
    let vd = &rules.vars[v as usize];
    match vd.ty {
        Ty::Set(_) => st.words[off..off + vd.elem_words]
            .iter()
            .map(|w| i64::from(w.count_ones()))
            .sum(),
        _ => 0,
    }
}

/// `WithLocal`: when local `a` holds a set, item `b` is put in it (`on`)
/// or taken out, in place, and true is returned; otherwise nothing is done.
#[inline]
pub(super) fn with_local(stack: &mut [Value], base: usize, a: u16, b: u16, on: bool) -> bool {
    let x = stack[base + b as usize].int();
    match &mut stack[base + a as usize] {
        Value::S(set) => {
            bits::set(set, x, on);
            true
        }
        Value::I(_) => false,
    }
}

/// The element of variable `v` with one index (not a set) at the index
/// in `at`, when it is in range (`LoadVarAt` and the like).
#[inline(always)]
pub(super) fn var_at(rules: &Ruleset, st: &State, v: u32, at: &Value) -> Option<i64> {
    let vd = &rules.vars[v as usize];
    let ([d], false) = (vd.dims.as_slice(), matches!(vd.ty, Ty::Set(_))) else {
        return None;
    };
    let k = slot(d, at.int(), st.nplayers)?;
    Some(st.words[vd.offset + k * vd.elem_words])
}

/// Whether variable `v` holds sets.
#[inline(always)]
pub(super) fn is_set(rules: &Ruleset, v: u32) -> bool {
    matches!(rules.vars[v as usize].ty, Ty::Set(_))
}

/// The value of variable `v` at offset `off`, as `LoadVar` makes it (a
/// set made out of line: `LoadVar` keeps the one copy in the loop).
#[inline(always)]
pub(super) fn value(rules: &Ruleset, st: &State, v: u32, off: usize) -> Value {
    if is_set(rules, v) {
        set_value(rules, st, v, off)
    } else {
        Value::I(st.words[off])
    }
}

/// The set of set variable `v` at offset `off` (its words copied as
/// they lie, by fixed-size moves for the common sizes).
#[inline(never)]
fn set_value(rules: &Ruleset, st: &State, v: u32, off: usize) -> Value {
    let words = &st.words[off..off + rules.vars[v as usize].elem_words];
    Value::S(Bits::from_slice(bits::as_words(words)))
}

/// Field `f` of item `e` of kind `k`, when `e` is one (`LoadField` and
/// the like).
#[inline(always)]
pub(super) fn field(rules: &Ruleset, k: u16, f: u16, e: i64) -> Option<i64> {
    let row = rules.kinds[k as usize].data.get(usize::try_from(e).ok()?)?;
    Some(row[f as usize].int())
}

/// `item.f[key]` of kind `k` when `item` is one of its items and the key
/// has an entry (`FieldIndex` and the like); otherwise the instruction
/// runs out of line (which reads a missing entry or fails).
#[inline(always)]
pub(super) fn field_at(rules: &Ruleset, k: u16, f: u16, item: i64, key: i64) -> Option<i64> {
    let row = rules.kinds[k as usize]
        .data
        .get(usize::try_from(item).ok()?)?;
    match &row[f as usize] {
        Data::Ints(v) => v.get(usize::try_from(key).ok()?).copied(),
        _ => None,
    }
}

/// `MembersEqFirst`: the first member `i` of `set` whose element `v[i]`
/// (of the one-dimensional variable `v`) is `x`; none (-1) when no member
/// is, as `MembersEq` then `First` tell.
#[inline]
pub(super) fn members_eq_first(rules: &Ruleset, st: &State, v: u32, set: &Value, x: i64) -> i64 {
    let vd = &rules.vars[v as usize];
    let words = &st.words[vd.offset..vd.offset + vd.len()];
    let bits = set.bits().iter().enumerate();
    for (wi, w) in bits.take(words.len().div_ceil(64)) {
        let mut rest = *w;
        while rest != 0 {
            let i = wi * 64 + rest.trailing_zeros() as usize;
            if words.get(i) == Some(&x) {
                return i as i64;
            }
            rest &= rest - 1;
        }
    }
    -1
}

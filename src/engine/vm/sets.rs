//! Set instructions out of the interpreter's loop: loops over a set's
//! members, the native filters (members whose variable or field holds a
//! value), a choice's options collected from a set, adjacency.

use super::rare::kind_size;
use super::set_options_fit;
use super::vars::slots;
use crate::engine::error::RuntimeError;
use crate::engine::state::{State, Value, Vm};
use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::{BinaryOp, Op};
use crate::ir::ruleset::Ruleset;

/// The members of a set, ascending.
#[inline]
pub(super) fn set_elems(bits: &[u64]) -> impl Iterator<Item = i64> + '_ {
    bits.iter().enumerate().flat_map(|(wi, w)| {
        let mut rest = *w;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                (wi * 64 + b) as i64
            })
        })
    })
}

/// The elements of a set value, ascending.
pub fn elements(v: &Value) -> Vec<i64> {
    set_elems(v.bits()).collect()
}

/// Moves a loop over the set in local `set` on: stores the next element at
/// or after the cursor in local `var`, advances the cursor; false when the
/// set is exhausted.
#[inline]
pub(super) fn set_next(stack: &mut [Value], base: usize, set: u16, cur: u16, var: u16) -> bool {
    let c = stack[base + cur as usize].int();
    let bits = stack[base + set as usize].bits();
    let total = bits.len() as i64 * 64;
    let mut i = c.max(0);
    while i < total {
        let w = bits[i as usize / 64] >> (i % 64);
        if w == 0 {
            i = (i / 64 + 1) * 64;
            continue;
        }
        i += w.trailing_zeros() as i64;
        stack[base + var as usize] = Value::I(i);
        stack[base + cur as usize] = Value::I(i + 1);
        return true;
    }
    false
}

/// `MembersEq` and `MembersFieldEq` (the value `x` popped): the set on
/// top (`set`) becomes its members that pass, in place when it holds its
/// block alone; `FieldImage`: it becomes the values of its members' field
/// (kept out of the interpreter's loop).
#[inline(never)]
pub(super) fn members(rules: &Ruleset, words: &[i64], op: &Op, x: i64, set: &mut Value) {
    if let Op::FieldImage(k, f) = *op {
        *set = Value::S(field_image(rules, k, f, set.bits()));
        return;
    }
    // A set held alone (made by the instruction below) is filtered in place.
    if let Value::S(b) = set {
        if let Some(w) = b.alone_mut() {
            if filter_in_place(rules, words, op, x, w) {
                return;
            }
        }
    }
    let bits = set.bits();
    let out = match *op {
        Op::MembersEq(v) => {
            let vd = &rules.vars[v as usize];
            let words = &words[vd.offset..vd.offset + vd.len()];
            bits::from_fn(bits.len(), |wi| {
                bits::members_where(bits[wi], wi, |i| words.get(i) == Some(&x))
            })
        }
        Op::MembersFieldEq(k, f) => {
            let kind = &rules.kinds[k as usize];
            match field_items(rules, k, f, x) {
                Some(items) => bits::from_fn(bits.len(), |wi| {
                    bits[wi] & items.get(wi).copied().unwrap_or(0)
                }),
                None => bits::from_fn(bits.len(), |wi| {
                    bits::members_where(bits[wi], wi, |i| {
                        kind.data
                            .get(i)
                            .is_some_and(|row| row[f as usize].int() == x)
                    })
                }),
            }
        }
        _ => unreachable!("not a members instruction"),
    };
    *set = Value::S(out);
}

/// `MembersEqCount` and `MembersFieldEqCount`: how many members of `set`
/// `MembersEq` or `MembersFieldEq` would keep (for the value `x`), no set
/// made.
#[inline]
pub(super) fn members_count(rules: &Ruleset, words: &[i64], op: &Op, x: i64, set: &[u64]) -> i64 {
    let count = |keep: &dyn Fn(usize, u64) -> u64| -> i64 {
        set.iter()
            .enumerate()
            .map(|(wi, w)| i64::from(keep(wi, *w).count_ones()))
            .sum()
    };
    match *op {
        Op::MembersEqCount(v) => {
            let vd = &rules.vars[v as usize];
            let words = &words[vd.offset..vd.offset + vd.len()];
            count(&|wi, w| bits::members_where(w, wi, |i| words.get(i) == Some(&x)))
        }
        Op::MembersFieldEqCount(k, f) => match field_items(rules, k, f, x) {
            Some(items) => count(&|wi, w| w & items.get(wi).copied().unwrap_or(0)),
            None => {
                let data = &rules.kinds[k as usize].data;
                count(&|wi, w| {
                    bits::members_where(w, wi, |i| {
                        data.get(i).is_some_and(|row| row[f as usize].int() == x)
                    })
                })
            }
        },
        _ => unreachable!("not a members count"),
    }
}

/// The items of kind `k` whose field `f` is `x`, when the field's index
/// of values holds `x`.
#[inline(always)]
fn field_items(rules: &Ruleset, k: u16, f: u16, x: i64) -> Option<&[u64]> {
    let by_value = rules.kinds[k as usize].field_sets.get(f as usize)?;
    by_value.get(usize::try_from(x).ok()?).map(|b| &b[..])
}

/// `FieldImage`: the values of field `f` (of kind `k`) whose items meet
/// the set.
fn field_image(rules: &Ruleset, k: u16, f: u16, set: &[u64]) -> Bits {
    let by_value = rules.kinds[k as usize].field_sets.get(f as usize);
    let by_value = by_value.map_or(&[][..], Vec::as_slice);
    let mut out = bits::empty(by_value.len());
    for (v, items) in by_value.iter().enumerate() {
        if items.iter().zip(set).any(|(a, b)| a & b != 0) {
            out[v / 64] |= 1 << (v % 64);
        }
    }
    out
}

/// `MembersFieldEqFirst`: the first member of `set` whose field `f` (of
/// kind `k`) is `x`, found through the field's index of values when it
/// holds `x`; none (-1) when no member is.
pub(super) fn first_field_eq(rules: &Ruleset, k: u16, f: u16, set: &[u64], x: i64) -> i64 {
    let kind = &rules.kinds[k as usize];
    let by_value = kind.field_sets.get(f as usize);
    let first = match by_value.and_then(|b| b.get(usize::try_from(x).ok()?)) {
        Some(items) => set_elems_where(set, |wi, w| w & items.get(wi).copied().unwrap_or(0)),
        None => set_elems_where(set, |wi, w| {
            bits::members_where(w, wi, |i| {
                kind.data
                    .get(i)
                    .is_some_and(|row| row[f as usize].int() == x)
            })
        }),
    };
    first.unwrap_or(-1)
}

/// The first member of the set made of `set`'s words each passed
/// through `keep` (given its index), the words after it never read.
#[inline(always)]
fn set_elems_where(set: &[u64], keep: impl Fn(usize, u64) -> u64) -> Option<i64> {
    set.iter().enumerate().find_map(|(wi, w)| {
        let w = keep(wi, *w);
        (w != 0).then(|| (wi * 64) as i64 + i64::from(w.trailing_zeros()))
    })
}

/// The set `AllSubVar` (see [`all_sub_var`]) or `VarsSetBin` (see
/// [`vars_set_bin`]) makes from the state's words, without their copies.
#[inline]
pub(super) fn made_set(rules: &Ruleset, st: &State, op: &Op) -> Bits {
    match *op {
        Op::AllSubVar(k, v) => all_sub_var(rules, st, k, v),
        Op::VarsSetBin(a, b, bin) => vars_set_bin(rules, st, a, b, bin),
        _ => unreachable!("not an instruction making a set"),
    }
}

/// `AllSubVar`: the items of kind `k` not in set variable `v` (without
/// indices), as long as the longer of the two sets (as `SetAll`, then
/// `-` in place, make it).
#[inline]
fn all_sub_var(rules: &Ruleset, st: &State, k: u16, v: u32) -> Bits {
    let n = kind_size(rules, st, k);
    let held = plain_set_words(rules, st, v);
    let len = n.div_ceil(64).max(1).max(held.len());
    bits::from_fn(len, |i| {
        bits::all_word(n, i) & !held.get(i).copied().unwrap_or(0)
    })
}

/// The words of set variable `v` (one without indices), where they lie.
#[inline]
fn plain_set_words<'s>(rules: &Ruleset, st: &'s State, v: u32) -> &'s [u64] {
    let vd = &rules.vars[v as usize];
    bits::as_words(&st.words[vd.offset..vd.offset + vd.elem_words])
}

/// `VarsSetBin`: `a op b` of two set variables without indices (`op`
/// `+`, `-` or the intersection), as long as the longer of the two (as
/// `Bin` makes it).
#[inline]
fn vars_set_bin(rules: &Ruleset, st: &State, a: u32, b: u32, op: BinaryOp) -> Bits {
    let (x, y) = (plain_set_words(rules, st, a), plain_set_words(rules, st, b));
    let get = |s: &[u64], i: usize| s.get(i).copied().unwrap_or(0);
    let len = x.len().max(y.len());
    match op {
        BinaryOp::Add => bits::from_fn(len, |i| get(x, i) | get(y, i)),
        BinaryOp::Sub => bits::from_fn(len, |i| get(x, i) & !get(y, i)),
        _ => bits::from_fn(len, |i| get(x, i) & get(y, i)),
    }
}

/// `MembersEq`, or `MembersFieldEq` through the index of its field's
/// values, keeping in `bits` (a set's words written in place: no new set
/// made) the members equal to `x`; false, nothing done, for a value the
/// field's index does not hold (or another instruction).
#[inline]
fn filter_in_place(rules: &Ruleset, words: &[i64], op: &Op, x: i64, bits: &mut [u64]) -> bool {
    match *op {
        Op::MembersEq(v) => {
            let vd = &rules.vars[v as usize];
            let words = &words[vd.offset..vd.offset + vd.len()];
            for (wi, b) in bits.iter_mut().enumerate() {
                *b = bits::members_where(*b, wi, |i| words.get(i) == Some(&x));
            }
            true
        }
        Op::MembersFieldEq(k, f) => {
            let by_value = rules.kinds[k as usize].field_sets.get(f as usize);
            let by_value = by_value.map_or(&[][..], Vec::as_slice);
            let Some(items) = usize::try_from(x).ok().and_then(|v| by_value.get(v)) else {
                return false;
            };
            for (wi, b) in bits.iter_mut().enumerate() {
                *b &= items.get(wi).copied().unwrap_or(0);
            }
            true
        }
        _ => false,
    }
}

/// `MembersCmp`: the members `x` of `set` for which `words[x] cmp x`
/// holds (none past the end of `words`).
pub(super) fn members_cmp(words: &[i64], cmp: BinaryOp, set: &[u64], x: i64) -> Bits {
    match cmp {
        BinaryOp::Lt => members_with(words, set, |w| w < x),
        BinaryOp::Le => members_with(words, set, |w| w <= x),
        BinaryOp::Gt => members_with(words, set, |w| w > x),
        BinaryOp::Ge => members_with(words, set, |w| w >= x),
        BinaryOp::Eq => members_with(words, set, |w| w == x),
        _ => members_with(words, set, |w| w != x),
    }
}

/// The members `x` of `set` for which `keep(words[x])` holds (none past
/// the end of `words`).
#[inline(always)]
fn members_with(words: &[i64], set: &[u64], keep: impl Fn(i64) -> bool) -> Bits {
    bits::from_fn(set.len(), |wi| {
        bits::members_where(set[wi], wi, |i| words.get(i).is_some_and(|w| keep(*w)))
    })
}

/// `SetRange`: the numbers `lo..hi` as a set (those below zero left out).
pub(super) fn number_range(lo: i64, hi: i64) -> Bits {
    let lo = lo.max(0) as u64;
    let hi = (hi.max(0) as u64).max(lo);
    // The members of word `w`: bits `lo..hi` of the numbers it holds.
    bits::from_fn(hi.div_ceil(64).max(1) as usize, |w| {
        let first = (w as u64) * 64;
        let below = |n: u64| match n.saturating_sub(first) {
            k if k >= 64 => u64::MAX,
            k => (1u64 << k) - 1,
        };
        below(hi) & !below(lo)
    })
}

/// `ChooseAddScreened`: the options of an arm, with the sets telling
/// which of them are refused at once (read when asked, see
/// [`crate::engine::state::Screening`]).
#[inline(never)]
pub(super) fn add_screened(
    rules: &Ruleset,
    st: &mut State,
    choice: u32,
    arm: u16,
) -> Result<(), RuntimeError> {
    let n = rules.choices[choice as usize].arms[arm as usize]
        .screen
        .len();
    let keep_unlisted = st.keep_unlisted;
    let vm = &mut st.vm;
    let at = vm.stack.len() - n - 1;
    let start = vm.option_count();
    let members = vm.stack[at].bits();
    set_options_fit(start, members)?;
    if keep_unlisted {
        keep_unlisted_options(vm, at, (choice, arm));
        return Ok(());
    }
    let listed = vm.options.len();
    bits::push_tagged(&mut vm.options, arm, members);
    let end = start + (vm.options.len() - listed);
    // The passing sets moved out in place (cheaper than a drain), their
    // places dropped with the candidates.
    let passing = vm.stack[at + 1..]
        .iter_mut()
        .map(|v| match std::mem::replace(v, Value::I(0)) {
            Value::S(bits) => bits,
            Value::I(_) => Bits::new(),
        });
    vm.screened.add((start, end), (choice, arm), passing);
    vm.stack.truncate(at);
    Ok(())
}

/// The rest of `ChooseAddScreened` when options may be kept unlisted:
/// the members of the set at `at` on the stack (the sets above it being
/// its arm's passing sets) are kept as that set, moved rather than
/// copied, at one entry of the option list (see
/// [`crate::engine::state::Screening::add_unlisted`]).
#[inline(never)]
fn keep_unlisted_options(vm: &mut Vm, at: usize, (choice, arm): (u32, u16)) {
    let start = vm.option_count();
    let members = match std::mem::replace(&mut vm.stack[at], Value::I(0)) {
        Value::S(members) => members,
        Value::I(_) => Bits::new(),
    };
    let count = bits::count(&members) as usize;
    let passing = vm.stack.drain(at + 1..).map(|v| match v {
        Value::S(bits) => bits,
        Value::I(_) => Bits::new(),
    });
    if count == 0 {
        vm.screened.add((start, start), (choice, arm), passing);
    } else {
        let entry = vm.options.len();
        vm.screened.add_unlisted(
            (start, start + count),
            (choice, arm),
            passing,
            (entry, members),
        );
        vm.options.push((arm, 0));
    }
    vm.stack.truncate(at);
}

/// The elements of a one-dimensional variable (over the seated players
/// only, when indexed by player).
#[inline]
pub(super) fn row<'s>(rules: &Ruleset, st: &'s State, v: u32) -> &'s [i64] {
    let vd = &rules.vars[v as usize];
    let n = slots(&vd.dims[0], st.nplayers);
    &st.words[vd.offset..vd.offset + n]
}

//! Bit sets: a set of items is one bit per item index, in words of 64.
//!
//! The one home of the bit handling that the interpreter, the grid
//! geometry, the ruleset's field indexes and the agents share.

pub use crate::ir::pool::Bits;

/// The words of a set variable as the state holds them (signed), read as
/// a set's words in place: no copy.
#[inline(always)]
pub fn as_words(held: &[i64]) -> &[u64] {
    // Safety: `i64` and `u64` have the same size and alignment, and every
    // bit pattern is a valid value of both.
    unsafe { std::slice::from_raw_parts(held.as_ptr().cast::<u64>(), held.len()) }
}

/// A copy of a set.
#[inline]
pub fn copy(b: &Bits) -> Bits {
    b.clone()
}

/// An empty set with room for items `0..n` (at least one word).
#[inline]
pub fn empty(n: usize) -> Bits {
    Bits::from_elem(0, n.div_ceil(64).max(1))
}

/// A set of `n` words, word `i` being `word(i)`.
#[inline]
pub fn from_fn(n: usize, word: impl Fn(usize) -> u64) -> Bits {
    Bits::from_fn(n, word)
}

/// The set of items `0..n`.
pub fn all(n: usize) -> Bits {
    from_fn(n.div_ceil(64).max(1), |w| all_word(n, w))
}

/// Word `w` of the set of the items `0..n`.
#[inline]
pub fn all_word(n: usize, w: usize) -> u64 {
    match n.saturating_sub(w * 64) {
        k if k >= 64 => u64::MAX,
        k => (1 << k) - 1,
    }
}

/// Whether item `i` is in the set (false for a negative or absent index).
#[inline]
pub fn has(bits: &[u64], i: i64) -> bool {
    i >= 0 && (i as usize / 64) < bits.len() && bits[i as usize / 64] >> (i % 64) & 1 == 1
}

/// Whether item `i` is in the set (false past its end).
#[inline]
pub fn has_at(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

/// Puts item `i` in the set, which must be long enough.
#[inline]
pub fn put_at(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// Puts item `i` in the set (`on`) or takes it out, growing the set as
/// needed; a negative index changes nothing.
#[inline]
pub fn set(bits: &mut Bits, i: i64, on: bool) {
    if i < 0 {
        return;
    }
    let w = i as usize / 64;
    if bits.len() <= w {
        bits.resize(w + 1, 0);
    }
    if on {
        bits[w] |= 1 << (i % 64);
    } else {
        bits[w] &= !(1 << (i % 64));
    }
}

/// The number of members.
#[inline]
pub fn count(bits: &[u64]) -> i64 {
    bits.iter().map(|w| w.count_ones() as i64).sum()
}

/// The members of word `wi` of a set (`word`) that pass `keep`, as a word.
#[inline]
pub fn members_where(word: u64, wi: usize, keep: impl Fn(usize) -> bool) -> u64 {
    let (mut w, mut out) = (word, 0);
    while w != 0 {
        let b = w.trailing_zeros() as usize;
        if keep(wi * 64 + b) {
            out |= 1 << b;
        }
        w &= w - 1;
    }
    out
}

/// The first member at or after `from`, if any.
#[inline]
pub fn next_from(bits: &[u64], from: i64) -> Option<i64> {
    let total = bits.len() as i64 * 64;
    let mut i = from.max(0);
    while i < total {
        let w = bits[i as usize / 64] >> (i % 64);
        if w == 0 {
            i = (i / 64 + 1) * 64;
            continue;
        }
        return Some(i + w.trailing_zeros() as i64);
    }
    None
}

/// The members of a set, descending.
#[inline]
pub fn members_down(bits: &[u64]) -> impl Iterator<Item = i64> + '_ {
    bits.iter().enumerate().rev().flat_map(|(wi, w)| {
        let mut rest = *w;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let b = 63 - rest.leading_zeros() as usize;
                rest &= !(1 << b);
                (wi * 64 + b) as i64
            })
        })
    })
}

/// Appends `(tag, m)` for each member `m` of the set, ascending (a
/// choice's options of one arm): room made once, each pair written in
/// place (rather than a push each, which checks the room and stores the
/// length every time).
#[inline]
pub fn push_tagged(out: &mut Vec<(u16, i64)>, tag: u16, members: &[u64]) {
    let n = count(members) as usize;
    out.reserve(n);
    let room = out.spare_capacity_mut()[..n].as_mut_ptr();
    let mut k = 0;
    for (wi, w) in members.iter().enumerate() {
        let mut w = *w;
        let base = wi as i64 * 64;
        while w != 0 {
            let m = base + w.trailing_zeros() as i64;
            // Safety: the loops visit each of the `n` members once, so
            // `k` stays below `n`, within the `n` slots of `room` (spare
            // capacity reserved above).
            unsafe { (*room.add(k)).write((tag, m)) };
            k += 1;
            w &= w - 1;
        }
    }
    debug_assert_eq!(k, n);
    // Safety: `room` is the spare capacity after the pairs, and its
    // first `k` (= `n`) slots were all written above.
    unsafe { out.set_len(out.len() + k) };
}

//! Moving a set of a grid's cells one step: in one direction
//! (`toward`), or in all of them (`adjacent`), by shifting the set's words
//! (the parts of each step are the kind's [`Shift`]s, made at load).

use super::put;
use crate::ir::ruleset::{Kind, Shift, NO_CELL};

/// The parts of one direction's step (see [`Shift`]): the cells grouped by
/// how far their neighbour in that direction is.
pub(super) fn shifts_of(toward: &[u32]) -> Vec<Shift> {
    let words = toward.len().div_ceil(64).max(1);
    let mut parts: Vec<Shift> = Vec::new();
    for (c, t) in toward.iter().enumerate() {
        if *t == NO_CELL {
            continue;
        }
        let by = *t as i64 - c as i64;
        let i = match parts.iter().position(|p| p.by == by) {
            Some(i) => i,
            None => {
                parts.push(Shift {
                    from: vec![0; words],
                    by,
                });
                parts.len() - 1
            }
        };
        put(&mut parts[i].from, c);
    }
    parts
}

/// The cells one step in direction `d` from the cells of `set` (a kind's
/// [`Shift`]s), as a set of `words` words: a few word shifts per part
/// rather than a visit of every cell.
pub fn shift_toward(kind: &Kind, set: &[u64], d: usize, out: &mut [u64]) {
    shift_by(&kind.shifts[d], set, out);
}

/// Adds to `out` the neighbours of the cells of `set` (every cell one
/// step from one of them, in any direction): all the kind's [`Shift`]s
/// in one pass, rather than [`shift_toward`] each direction in turn.
pub fn neighbours_of_set(kind: &Kind, set: &[u64], out: &mut [u64]) {
    if set.len() <= SHIFT_WORDS && out.len() <= SHIFT_WORDS {
        return shift_small(kind.shifts.iter().flatten(), set, out);
    }
    for parts in &kind.shifts {
        shift_by(parts, set, out);
    }
}

/// Adds to `out` the cells of `set` moved by the parts of one direction.
fn shift_by(parts: &[Shift], set: &[u64], out: &mut [u64]) {
    if set.len() <= SHIFT_WORDS && out.len() <= SHIFT_WORDS {
        return shift_small(parts, set, out);
    }
    for part in parts {
        let (whole, bits) = (
            (part.by.unsigned_abs() / 64) as usize,
            (part.by.unsigned_abs() % 64) as u32,
        );
        let src =
            |i: usize| set.get(i).copied().unwrap_or(0) & part.from.get(i).copied().unwrap_or(0);
        for (i, o) in out.iter_mut().enumerate() {
            *o |= if part.by >= 0 {
                // Bits move up: word i takes from words i - whole and i - whole - 1.
                let hi = i.checked_sub(whole).map_or(0, src);
                let lo = i.checked_sub(whole + 1).map_or(0, src);
                if bits == 0 {
                    hi
                } else {
                    hi << bits | lo >> (64 - bits)
                }
            } else {
                let lo = src(i + whole);
                let hi = src(i + whole + 1);
                if bits == 0 {
                    lo
                } else {
                    lo >> bits | hi << (64 - bits)
                }
            };
        }
    }
}

/// The most words of a set [`shift_toward`] shifts through a fixed block
/// of words on the stack (without a check per word read).
const SHIFT_WORDS: usize = 8;

/// [`shift_toward_small`], through [`shift_fixed`] when the set and `out`
/// are as long as each other and as the sets of the smaller grids (the
/// common case: a set of a grid's cells, moved into a set of the grid).
#[inline]
fn shift_small<'p>(parts: impl IntoIterator<Item = &'p Shift>, set: &[u64], out: &mut [u64]) {
    if set.len() == out.len() {
        match set.len() {
            1 => return shift_fixed::<1>(parts, set, out),
            2 => return shift_fixed::<2>(parts, set, out),
            3 => return shift_fixed::<3>(parts, set, out),
            4 => return shift_fixed::<4>(parts, set, out),
            _ => {}
        }
    }
    shift_toward_small(parts, set, out);
}

/// [`shift_toward_small`] for a set and an `out` of `N` words each (at
/// most [`SHIFT_WORDS`]): the loops over the words have a known length,
/// and the words of the parts' masks are read without a check each.
#[inline]
fn shift_fixed<'p, const N: usize>(
    parts: impl IntoIterator<Item = &'p Shift>,
    set: &[u64],
    out: &mut [u64],
) {
    const PAD: usize = SHIFT_WORDS;
    let (Ok(set), Ok(out)) = (<&[u64; N]>::try_from(set), <&mut [u64; N]>::try_from(out)) else {
        unreachable!("sets of N words");
    };
    let mut masked = [0u64; 3 * SHIFT_WORDS];
    let mut acc = *out;
    for part in parts {
        let by = part.by.unsigned_abs() as usize;
        let (whole, bits) = (by / 64, (by % 64) as u32);
        if whole >= N {
            // Every cell moves past the end of the set's words.
            continue;
        }
        let Some(from) = part
            .from
            .get(..N)
            .and_then(|f| <&[u64; N]>::try_from(f).ok())
        else {
            // A mask shorter than the set (cells past it in no part).
            shift_toward_small(std::iter::once(part), set, &mut acc);
            continue;
        };
        for i in 0..N {
            masked[PAD + i] = set[i] & from[i];
        }
        // As in `shift_toward_small`; `whole` < `N` keeps every read
        // within the block.
        if part.by >= 0 {
            for (i, o) in acc.iter_mut().enumerate() {
                let (h, l) = (masked[PAD - whole + i], masked[PAD - whole - 1 + i]);
                *o |= h << bits | l >> 1 >> (63 - bits);
            }
        } else {
            for (i, o) in acc.iter_mut().enumerate() {
                let (l, h) = (masked[PAD + whole + i], masked[PAD + whole + 1 + i]);
                *o |= l >> bits | h << 1 << (63 - bits);
            }
        }
    }
    *out = acc;
}

/// [`shift_toward`] for sets of at most [`SHIFT_WORDS`] words: each part's
/// cells are laid in the middle of a block of zeroes, so that the words a
/// shift reads before and after the set need no check.
#[inline]
fn shift_toward_small<'p>(
    parts: impl IntoIterator<Item = &'p Shift>,
    set: &[u64],
    out: &mut [u64],
) {
    const PAD: usize = SHIFT_WORDS;
    let mut masked = [0u64; 3 * SHIFT_WORDS];
    for part in parts {
        let by = part.by.unsigned_abs() as usize;
        let (whole, bits) = (by / 64, (by % 64) as u32);
        if whole >= SHIFT_WORDS {
            // Every cell moves past the end of a set this short.
            continue;
        }
        for (i, m) in masked[PAD..PAD + set.len()].iter_mut().enumerate() {
            *m = set[i] & part.from.get(i).copied().unwrap_or(0);
        }
        // `x >> 1 >> (63 - bits)` is `x >> (64 - bits)`, and 0 when `bits`
        // is 0 (where a single shift by 64 would overflow).
        if part.by >= 0 {
            // Bits move up: word i takes from words i - whole and i - whole - 1.
            let (hi, lo) = (&masked[PAD - whole..], &masked[PAD - whole - 1..]);
            for ((o, h), l) in out.iter_mut().zip(hi).zip(lo) {
                *o |= h << bits | l >> 1 >> (63 - bits);
            }
        } else {
            let (lo, hi) = (&masked[PAD + whole..], &masked[PAD + whole + 1..]);
            for ((o, l), h) in out.iter_mut().zip(lo).zip(hi) {
                *o |= l >> bits | h << 1 << (63 - bits);
            }
        }
    }
}

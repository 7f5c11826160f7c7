//! The neighbours of a grid's cells as sets of its cells ([`Kind::around`]),
//! and the floods through them: each cell reached adds its neighbours a
//! word at a time.

use super::{around, put};
use crate::ir::ruleset::Kind;

/// The words of each cell's set of neighbours in [`Kind::around`] on a
/// grid of `n` cells (the fewest of 1, 2, 3, 4, 8 and 16 that hold them);
/// `None` past 1024 cells.
pub fn mask_words(n: usize) -> Option<usize> {
    match n.div_ceil(64) {
        0..=4 => Some(n.div_ceil(64).max(1)),
        5..=8 => Some(8),
        9..=16 => Some(16),
        _ => None,
    }
}

/// The neighbours of each cell of `kind` as a set of its cells (see
/// [`Kind::around`]).
pub(super) fn around_masks(kind: &Kind) -> Vec<u64> {
    let n = kind.adjacent.len();
    let Some(w) = mask_words(n) else {
        return Vec::new();
    };
    let mut masks = vec![0; n * w];
    for c in 0..n {
        for a in around(kind, c) {
            // A neighbour is a cell of the grid: below `64 * w`.
            put(&mut masks[c * w..c * w + w], *a as usize);
        }
    }
    masks
}

/// [`flood_masks`] on the words the kind's sets of neighbours have;
/// `false`, nothing done, on a grid without them.
#[inline]
pub(super) fn flood_through(kind: &Kind, from: &[u64], within: &[u64], out: &mut [u64]) -> bool {
    match mask_words(kind.adjacent.len()) {
        Some(1) => flood_masks::<1>(kind, from, within, out),
        Some(2) => flood_masks::<2>(kind, from, within, out),
        Some(3) => flood_masks::<3>(kind, from, within, out),
        Some(4) => flood_masks::<4>(kind, from, within, out),
        Some(8) => flood_masks::<8>(kind, from, within, out),
        Some(16) => flood_masks::<16>(kind, from, within, out),
        _ => false,
    }
}

/// Puts in `out` (empty) the cells of `within` reached from the cells of
/// `from` in it through cells of `within`, by the kind's sets of
/// neighbours ([`Kind::around`], `N` words a cell), in words held in
/// place: each cell reached adds its neighbours a word at a time.
/// `false`, nothing done, unless `within` and the sets of neighbours
/// have `N` words at most.
fn flood_masks<const N: usize>(kind: &Kind, from: &[u64], within: &[u64], out: &mut [u64]) -> bool {
    let (n, masks) = (kind.adjacent.len(), &kind.around);
    if within.len() > N || masks.len() != n * N {
        return false;
    }
    // The cells of `within` not reached, and those reached first.
    let mut left: [u64; N] = std::array::from_fn(|w| within.get(w).copied().unwrap_or(0));
    let todo: [u64; N] = std::array::from_fn(|w| left[w] & from.get(w).copied().unwrap_or(0));
    for (l, t) in left.iter_mut().zip(&todo) {
        *l ^= t;
    }
    flood_group(masks, todo, &mut left);
    for ((o, w), l) in out.iter_mut().zip(within).zip(left) {
        *o = w & !l;
    }
    true
}

/// Floods from the cells `todo` (already taken out of `left`) through the
/// cells of `left`, taking them out as they are reached, a cell's
/// neighbours read from `masks` (`N` words a cell; a cell past them has
/// none); returns the cells next to any cell reached.
#[inline(always)]
pub(super) fn flood_group<const N: usize>(
    masks: &[u64],
    mut todo: [u64; N],
    left: &mut [u64; N],
) -> [u64; N] {
    // `todo`: the cells reached last, not yet looked around.
    let mut next = [0u64; N];
    loop {
        for (t, word) in todo.iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let c = t * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(m) = masks.get(c * N..c * N + N) {
                    for (x, m) in next.iter_mut().zip(m) {
                        *x |= m;
                    }
                }
            }
        }
        let mut more = 0;
        for i in 0..N {
            todo[i] = next[i] & left[i];
            left[i] ^= todo[i];
            more |= todo[i];
        }
        if more == 0 {
            return next;
        }
    }
}

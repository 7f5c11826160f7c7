//! The answers of `groups_around` for every cell of one board at once,
//! for many questions on the same board: the options of one choice, asked
//! one after another, see the same set of cells. After a few questions on
//! one set, each group of it is flooded once and its neighbours counted
//! into a per-cell tally; every later question on the set reads it.

use super::{around, groups_around, has};
use crate::ir::bits::{self, Bits};
use crate::ir::ruleset::Kind;

/// How many questions on one set are answered by a flood each (as
/// [`groups_around`] does) before the whole board is tallied: a set asked
/// about once or twice (a look-ahead's single try) is not worth it.
const TALLY_AFTER: u32 = 3;

/// The groups (connected cells) of the last set of cells asked about,
/// tallied around every cell once the set has been asked about
/// `TALLY_AFTER` (three) times. A new set (or grid, or marked set) forgets the
/// tally. Only ever asked about one ruleset's grid kinds (a state's),
/// whose neighbours do not change.
#[derive(Debug, Default)]
pub struct GroupLabels {
    /// The grid kind asked about.
    kind: usize,
    /// The set of cells asked about.
    cells: Vec<u64>,
    /// The marked set given with it, if one was.
    marked: Option<Vec<u64>>,
    /// Whether a set was asked about (the fields above hold it).
    held: bool,
    /// The questions asked about it so far, up to [`TALLY_AFTER`].
    asked: u32,
    /// Once tallied (`asked` reached [`TALLY_AFTER`]): for each cell, in
    /// three bit planes of `words` words each (bit 0, 1, 2 of the count),
    /// how many counted groups touch it.
    planes: Vec<u64>,
    /// The words of one plane.
    words: usize,
    /// Cells reached and not yet looked around, while a group is flooded.
    todo: Vec<u32>,
}

impl Clone for GroupLabels {
    /// No tally: a copy starts afresh (the tally is only a shortcut).
    fn clone(&self) -> GroupLabels {
        GroupLabels::default()
    }
}

impl GroupLabels {
    /// How many separate groups of `cells` touch `c`, counting only those
    /// sharing a cell with `marked` when given: [`groups_around`] on grid
    /// kind number `k` (`kind`).
    #[inline]
    pub fn groups_around(
        &mut self,
        k: usize,
        kind: &Kind,
        c: usize,
        cells: &[u64],
        marked: Option<&[u64]>,
    ) -> i64 {
        if !self.holds(k, cells, marked) {
            self.start(k, cells, marked);
        }
        if self.asked < TALLY_AFTER {
            self.asked += 1;
            if self.asked < TALLY_AFTER || !self.tally(kind, cells, marked) {
                // (A grid too large to tally asks to again, in vain.)
                self.asked = self.asked.min(TALLY_AFTER - 1);
                return groups_around(kind, c, cells, marked);
            }
        }
        self.read(c)
    }

    /// The cells around which the count [`GroupLabels::groups_around`]
    /// gives passes `keep`, all at once (the board tallied now, however
    /// few questions came before: every cell is asked about); `None` on a
    /// grid too large to tally. Cells past the grid's last word are left
    /// out.
    pub fn cells_where(
        &mut self,
        k: usize,
        kind: &Kind,
        cells: &[u64],
        marked: Option<&[u64]>,
        keep: impl Fn(i64) -> bool,
    ) -> Option<Bits> {
        if !self.holds(k, cells, marked) {
            self.start(k, cells, marked);
        }
        if self.asked < TALLY_AFTER {
            if !self.tally(kind, cells, marked) {
                return None;
            }
            self.asked = TALLY_AFTER;
        }
        // The counts kept, of the eight a cell may have (three planes).
        let kept = (0..8).filter(|n| keep(*n)).fold(0u8, |m, n| m | 1 << n);
        let words = self.words;
        let planes = &self.planes;
        Some(bits::from_fn(words.max(1), |w| {
            let plane = |p: usize| planes.get(p * words + w).copied().unwrap_or(0);
            let (p0, p1, p2) = (plane(0), plane(1), plane(2));
            let is = |on: u64, p: u64| if on != 0 { p } else { !p };
            (0..8u64).filter(|n| kept >> n & 1 != 0).fold(0, |acc, n| {
                acc | is(n & 1, p0) & is(n & 2, p1) & is(n & 4, p2)
            })
        }))
    }

    /// Whether the questions so far were about this grid, set and marked
    /// set.
    #[inline]
    fn holds(&self, k: usize, cells: &[u64], marked: Option<&[u64]>) -> bool {
        self.held
            && self.kind == k
            && same(&self.cells, cells)
            && match (&self.marked, marked) {
                (None, None) => true,
                (Some(held), Some(m)) => same(held, m),
                _ => false,
            }
    }

    /// Forgets the tally, for questions on this grid, set and marked set.
    #[cold]
    fn start(&mut self, k: usize, cells: &[u64], marked: Option<&[u64]>) {
        self.kind = k;
        self.held = true;
        self.asked = 0;
        self.cells.clear();
        self.cells.extend_from_slice(cells);
        match (&mut self.marked, marked) {
            (Some(held), Some(m)) => {
                held.clear();
                held.extend_from_slice(m);
            }
            (held, m) => *held = m.map(<[u64]>::to_vec),
        }
    }

    /// The tally around cell `c` (0 off the grid).
    #[inline]
    fn read(&self, c: usize) -> i64 {
        let (w, b) = (c / 64, c % 64);
        if w >= self.words {
            return 0;
        }
        let bit = |p: usize| (self.planes[p * self.words + w] >> b & 1) as i64;
        bit(0) | bit(1) << 1 | bit(2) << 2
    }

    /// Tallies, for every cell, the counted groups of `cells` next to it
    /// (see [`GroupLabels::tally_in`]); `false` on a grid too large to
    /// tally (over 1024 cells), whose questions are each answered by a
    /// flood.
    #[cold]
    fn tally(&mut self, kind: &Kind, cells: &[u64], marked: Option<&[u64]>) -> bool {
        match kind.adjacent.len().div_ceil(64) {
            0..=4 => self.tally_in::<4>(kind, cells, marked),
            5..=8 => self.tally_in::<8>(kind, cells, marked),
            9..=16 => self.tally_in::<16>(kind, cells, marked),
            _ => return false,
        }
        true
    }

    /// [`GroupLabels::tally`] on a grid of at most `64 * N` cells, in
    /// words held in place: each group flooded once, the cells next to it
    /// added to the planes. A grid's neighbours are mutual, so the groups
    /// next to a cell are the groups its neighbours belong to (at most
    /// six: three planes).
    fn tally_in<const N: usize>(&mut self, kind: &Kind, cells: &[u64], marked: Option<&[u64]>) {
        let n = kind.adjacent.len();
        let words = n.div_ceil(64).max(1);
        // The cells of the set on the grid, not reached yet.
        let mut left: [u64; N] = std::array::from_fn(|w| {
            let on_grid = match n.saturating_sub(w * 64) {
                k if k >= 64 => u64::MAX,
                k => (1u64 << k) - 1,
            };
            cells.get(w).copied().unwrap_or(0) & on_grid
        });
        let mut planes = [[0u64; N]; 3];
        for w in 0..N {
            while left[w] != 0 {
                let start = w * 64 + left[w].trailing_zeros() as usize;
                left[w] &= left[w] - 1;
                let mut counted = marked.is_none_or(|m| has(m, start));
                // The cells next to the group.
                let mut next = [0u64; N];
                self.todo.clear();
                self.todo.push(start as u32);
                while let Some(c) = self.todo.pop() {
                    for a in around(kind, c as usize) {
                        // A neighbour is a cell of the grid: below `64 * N`.
                        let (k, bit) = (*a as usize / 64 % N, 1u64 << (a % 64));
                        next[k] |= bit;
                        if left[k] & bit != 0 {
                            left[k] ^= bit;
                            counted = counted || marked.is_some_and(|m| has(m, *a as usize));
                            self.todo.push(*a);
                        }
                    }
                }
                if counted {
                    add_one(&mut planes, &next);
                }
            }
        }
        self.words = words;
        self.planes.clear();
        for p in &planes {
            self.planes.extend_from_slice(&p[..words]);
        }
    }
}

/// Adds one to the bit-sliced count (three planes) of every cell of `next`.
#[inline]
fn add_one<const N: usize>(planes: &mut [[u64; N]; 3], next: &[u64; N]) {
    let [p0, p1, p2] = planes;
    for w in 0..N {
        let carry0 = p0[w] & next[w];
        p0[w] ^= next[w];
        let carry1 = p1[w] & carry0;
        p1[w] ^= carry0;
        p2[w] ^= carry1;
    }
}

/// Whether two sets hold the same words: their differences gathered
/// without a branch per word (the sets are a few words long, and the
/// same set is asked about again and again).
#[inline]
fn same(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

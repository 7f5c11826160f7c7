//! The answers of `groups_around` for every cell of one board at once,
//! for many questions on the same board: the options of one choice, asked
//! one after another, see the same set of cells. After a few questions on
//! one set, each group of it is flooded once and its neighbours counted
//! into a per-cell tally; every later question on the set reads it.

use super::masks::flood_group;
use super::{groups_around, mask_words};
use crate::ir::bits::{self, Bits};
use crate::ir::ruleset::Kind;

/// How many questions on one set are answered by a flood each (as
/// [`groups_around`] does) before the whole board is tallied: a set asked
/// about once or twice (a look-ahead's single try) is not worth it.
const TALLY_AFTER: u32 = 3;

/// The bits of a tally's counts (see [`GroupLabels::planes`]): a group is
/// added to the count of every cell next to it by a few word operations
/// (a binary adder on whole sets), and the cells whose count passes a test
/// are read a word at a time. Counts up to 15: more than any grid cell
/// has neighbours (a tally that would pass it is given up).
const PLANES: usize = 4;

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
    /// Once tallied (`asked` reached [`TALLY_AFTER`]): how many counted
    /// groups touch each cell, as [`PLANES`] sets of `width` words each,
    /// the `p`-th holding the cells whose count has bit `p` set.
    planes: Vec<u64>,
    /// The words of each of the `planes`.
    width: usize,
    /// The cells of the grid tallied.
    n: usize,
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
        let counts: Vec<usize> = (0..1 << PLANES).filter(|v| keep(*v as i64)).collect();
        let (n, width, planes) = (self.n, self.width, &self.planes);
        Some(bits::from_fn(n.div_ceil(64).max(1), |w| {
            let plane = |p: usize| planes[p * width + w];
            counts.iter().fold(0, |acc, v| {
                let is_v = (0..PLANES).fold(bits::all_word(n, w), |m, p| match v >> p & 1 {
                    1 => m & plane(p),
                    _ => m & !plane(p),
                });
                acc | is_v
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
        if c >= self.n {
            return 0;
        }
        let (w, b) = (c / 64, c % 64);
        (0..PLANES).fold(0, |n, p| {
            n | ((self.planes[p * self.width + w] >> b & 1) << p)
        }) as i64
    }

    /// Tallies, for every cell, the counted groups of `cells` next to it
    /// (see [`GroupLabels::tally_in`]); `false` on a grid too large to
    /// tally (over 1024 cells, or a count over 15), whose questions are
    /// each answered by a flood.
    #[cold]
    fn tally(&mut self, kind: &Kind, cells: &[u64], marked: Option<&[u64]>) -> bool {
        match mask_words(kind.adjacent.len()) {
            Some(1) => self.tally_in::<1>(kind, cells, marked),
            Some(2) => self.tally_in::<2>(kind, cells, marked),
            Some(3) => self.tally_in::<3>(kind, cells, marked),
            Some(4) => self.tally_in::<4>(kind, cells, marked),
            Some(8) => self.tally_in::<8>(kind, cells, marked),
            Some(16) => self.tally_in::<16>(kind, cells, marked),
            _ => false,
        }
    }

    /// [`GroupLabels::tally`] on a grid of at most `64 * N` cells, in
    /// words held in place: each counted group flooded once (from a marked
    /// cell when a marked set is given), a cell's neighbours
    /// reached a word at a time (from [`Kind::around`]), and one
    /// added to the count of each cell next to a counted group. A grid's
    /// neighbours are mutual, so the groups next to a cell are the groups
    /// its neighbours belong to. `false` when a count passes 15 (the
    /// tally is then not used), or when the kind has no neighbours in
    /// sets of `N` words.
    fn tally_in<const N: usize>(
        &mut self,
        kind: &Kind,
        cells: &[u64],
        marked: Option<&[u64]>,
    ) -> bool {
        let n = kind.adjacent.len();
        let masks = &kind.around;
        if masks.len() != n * N {
            return false;
        }
        // The cells of the set on the grid, not reached yet.
        let mut left: [u64; N] =
            std::array::from_fn(|w| cells.get(w).copied().unwrap_or(0) & bits::all_word(n, w));
        let mut planes = [[0u64; N]; PLANES];
        // The cells whose count passed 15.
        let mut over = 0;
        // The cells a counted group is flooded from: the marked cells of
        // the set (a group with none is not counted, so not flooded), or
        // all of them.
        let mut seeds: [u64; N] = match marked {
            Some(m) => std::array::from_fn(|w| left[w] & m.get(w).copied().unwrap_or(0)),
            None => left,
        };
        for w in 0..N {
            while seeds[w] != 0 {
                // The next group, from its first seed left.
                let mut start = [0u64; N];
                start[w] = seeds[w] & seeds[w].wrapping_neg();
                left[w] ^= start[w];
                let next = flood_group(masks, start, &mut left);
                for (s, l) in seeds.iter_mut().zip(&left) {
                    *s &= l;
                }
                over |= add_one(&mut planes, next);
            }
        }
        self.planes.clear();
        self.planes.extend(planes.iter().flatten());
        (self.width, self.n) = (N, n);
        over == 0
    }
}

/// Adds one to the count of every cell of `next` in `planes` (see
/// [`GroupLabels::planes`]), bit by bit as an adder does, on whole words;
/// returns the cells whose count passed the last plane (none unless a
/// count passes 15).
#[inline]
fn add_one<const N: usize>(planes: &mut [[u64; N]; PLANES], next: [u64; N]) -> u64 {
    let mut carry = next;
    for plane in planes.iter_mut() {
        for (p, c) in plane.iter_mut().zip(&mut carry) {
            let was = *p;
            *p ^= *c;
            *c &= was;
        }
    }
    carry.iter().fold(0, |over, c| over | c)
}

/// Whether two sets hold the same words: their differences gathered
/// without a branch per word (the sets are a few words long, and the
/// same set is asked about again and again).
#[inline]
fn same(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

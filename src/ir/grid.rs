//! Grids of cells: a kind declared with `grid: {shape, width, height}` has
//! one item per cell (`<kind>_<x>_<y>`, row by row from the top left),
//! fields `x` and `y`, and a neighbour relation used by `adjacent`,
//! `connected` and `components`.

use crate::ir::bits::Bits;
pub use crate::ir::cells::{Grid, GridShape};
use crate::ir::ruleset::{Data, FieldDef, Kind, Ty, NO_CELL};
pub use labels::GroupLabels;
pub use masks::mask_words;
use masks::{around_masks, flood_through};
pub use memo::GridMemo;
use shift::shifts_of;
pub use shift::{neighbours_of_set, shift_toward};

mod labels;
mod masks;
mod memo;
mod shift;

/// Adds the `x` and `y` fields and the neighbour lists to a grid kind.
pub fn finish_kind(kind: &mut Kind, grid: &Grid) {
    for (name, _) in [("x", 0), ("y", 1)] {
        if !kind.fields.iter().any(|f| f.name == name) {
            kind.fields.push(FieldDef {
                name: name.into(),
                ty: Ty::Int,
                optional: true,
                span: kind.span,
            });
        }
    }
    let xi = kind.fields.iter().position(|f| f.name == "x").unwrap_or(0);
    let yi = kind.fields.iter().position(|f| f.name == "y").unwrap_or(0);
    kind.adjacent = Vec::with_capacity(kind.items.len());
    for (i, row) in kind.data.iter_mut().enumerate() {
        let (x, y) = (i % grid.width, i / grid.width);
        while row.len() < kind.fields.len() {
            row.push(Data::Int(0));
        }
        row[xi] = Data::Int(x as i64);
        row[yi] = Data::Int(y as i64);
        kind.adjacent.push(grid.neighbours(x, y));
    }
    let cells = kind.items.len();
    kind.toward = (0..grid.directions() as i64)
        .map(|d| {
            (0..cells)
                .map(|i| {
                    let (x, y) = (i % grid.width, i / grid.width);
                    grid.toward(x, y, d).unwrap_or(NO_CELL)
                })
                .collect()
        })
        .collect();
    kind.shifts = kind.toward.iter().map(|to| shifts_of(to)).collect();
    kind.around = around_masks(kind);
}

/// Cells a flood over a set too long to hold in place (see [`Flood`]) has
/// reached but not yet looked around, the stack never holding a cell twice.
type Pending = Vec<u32>;

/// Whether item `i` is in the bit set.
#[inline]
fn has(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

/// Puts item `i` in the bit set, which must be long enough.
#[inline]
fn put(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// The neighbours of cell `c` (none when it is not a cell of the kind).
#[inline]
fn around(kind: &Kind, c: usize) -> &[u32] {
    kind.adjacent.get(c).map_or(&[][..], Vec::as_slice)
}

/// Whether none of the cells `cs` is in `left`.
#[inline]
fn all_taken(cs: &[u32], left: &[u64]) -> bool {
    cs.iter().all(|c| !has(left, *c as usize))
}

/// A flood over a set of cells held in place in `N` words: the cells of
/// the set not yet reached, and those reached but not yet looked around.
/// Each cell is a bit in both, so a flood takes no allocation, never
/// reaches a cell twice, and costs per cell a few word operations. Sets of
/// grids of up to 256 cells are held in 4 words, of up to 512 in 8, of
/// up to 1024 in 16 (the fewest words, as each look for the next cell to
/// look around scans them); larger ones are flooded by a stack of cells.
///
/// On grids of small groups (a few cells each) this measured faster than
/// growing the whole set a step at a time by shifting its words: a step
/// costs about as much as looking around a few cells, and the shifts need
/// masks for the edges of the rows made for every call.
struct Flood<'k, const N: usize> {
    /// The grid.
    kind: &'k Kind,
    /// Cells of the set not reached.
    left: [u64; N],
    /// Cells reached and not yet looked around.
    todo: [u64; N],
}

impl<'k, const N: usize> Flood<'k, N> {
    /// A flood over `set`, with nothing reached; `None` unless every cell
    /// of the grid and of the set has an index below `64 * N`.
    #[inline]
    fn new(kind: &'k Kind, set: &[u64]) -> Option<Flood<'k, N>> {
        (set.len() <= N && kind.adjacent.len() <= 64 * N).then(|| Flood {
            kind,
            left: std::array::from_fn(|k| set.get(k).copied().unwrap_or(0)),
            todo: [0; N],
        })
    }

    /// Reaches cell `c` (below `64 * N`) if it is in the set and not
    /// reached yet, saying whether it was.
    #[inline]
    fn reach(&mut self, c: usize) -> bool {
        let (k, bit) = (c / 64 % N, 1 << (c % 64));
        let fresh = self.left[k] & bit != 0;
        if fresh {
            self.left[k] ^= bit;
            self.todo[k] |= bit;
        }
        fresh
    }

    /// Reaches every cell of the set connected to those reached. With
    /// `marks`, says whether a reached cell is marked, and stops at the
    /// first that is if by then no cell of `later` is left in the set (so
    /// the rest of the group matters to no one).
    #[inline]
    fn run(&mut self, marks: Option<&[u64]>, later: &[u32]) -> bool {
        let (mut marks, mut found) = (marks, false);
        while let Some(k) = self.todo.iter().position(|w| *w != 0) {
            let c = k * 64 + self.todo[k].trailing_zeros() as usize;
            self.todo[k] &= self.todo[k] - 1;
            if let Some(m) = marks {
                if has(m, c) {
                    if all_taken(later, &self.left) {
                        self.todo = [0; N];
                        return true;
                    }
                    found = true;
                    marks = None;
                }
            }
            for n in around(self.kind, c) {
                self.reach(*n as usize);
            }
        }
        found
    }

    /// Puts in `out` (empty) the cells of `within` connected to `start`,
    /// which is in it; `within` is the set of the flood, untouched.
    fn connected(mut self, start: usize, within: &[u64], out: &mut [u64]) {
        self.reach(start);
        self.run(None, &[]);
        for ((o, w), l) in out.iter_mut().zip(within).zip(self.left) {
            *o = w & !l;
        }
    }

    /// Puts in `out` (empty) the cells of `within` connected to any cell
    /// of `from` in it; `within` is the set of the flood, untouched.
    fn connected_from(mut self, from: &[u64], within: &[u64], out: &mut [u64]) {
        for (wi, (f, w)) in from.iter().zip(within).enumerate() {
            let mut starts = f & w;
            while starts != 0 {
                // A cell of `within`, so below `64 * N`.
                self.reach(wi * 64 + starts.trailing_zeros() as usize);
                starts &= starts - 1;
            }
        }
        self.run(None, &[]);
        for ((o, w), l) in out.iter_mut().zip(within).zip(self.left) {
            *o = w & !l;
        }
    }

    /// [`groups_around`] a cell whose neighbours are `next`; the flood's
    /// set is the cells, untouched.
    fn groups_around(mut self, next: &[u32], marked: Option<&[u64]>) -> i64 {
        let mut n = 0;
        for (i, a) in next.iter().enumerate() {
            if !self.reach(*a as usize) {
                // Empty, or in a group already counted.
                continue;
            }
            // Neighbours that may yet start groups of their own.
            let later = &next[i + 1..];
            if marked.is_none() && all_taken(later, &self.left) {
                return n + 1;
            }
            if self.run(marked, later) || marked.is_none() {
                n += 1;
            }
        }
        n
    }

    /// [`components`] of the flood's set.
    fn components(mut self) -> i64 {
        let mut groups = 0;
        while let Some(k) = self.left.iter().position(|w| *w != 0) {
            self.reach(k * 64 + self.left[k].trailing_zeros() as usize);
            self.run(None, &[]);
            groups += 1;
        }
        groups
    }
}

/// The cells connected to `start` through cells of `within` (bit sets over
/// item indices); empty when `start` is not in `within`.
pub fn connected(kind: &Kind, start: usize, within: &[u64]) -> Bits {
    let mut out = Bits::from_elem(0, within.len().max(1));
    if !has(within, start) {
        return out;
    }
    let mut from = [0u64; 16];
    if let Some(w) = from.get_mut(start / 64) {
        *w = 1 << (start % 64);
    }
    if flood_through(kind, &from, within, &mut out) {
        return out;
    }
    if let Some(flood) = Flood::<4>::new(kind, within) {
        flood.connected(start, within, &mut out);
    } else if let Some(flood) = Flood::<8>::new(kind, within) {
        flood.connected(start, within, &mut out);
    } else if let Some(flood) = Flood::<16>::new(kind, within) {
        flood.connected(start, within, &mut out);
    } else {
        flood(kind, start, within, &mut out);
    }
    out
}

/// The cells of `within` reached from any cell of `from` through cells of
/// `within` (the cells of `from` outside `within` start nothing): one
/// flood from all of them at once.
pub fn connected_from(kind: &Kind, from: &[u64], within: &[u64]) -> Bits {
    let mut out = Bits::from_elem(0, within.len().max(1));
    if flood_through(kind, from, within, &mut out) {
        return out;
    }
    if let Some(flood) = Flood::<4>::new(kind, within) {
        flood.connected_from(from, within, &mut out);
    } else if let Some(flood) = Flood::<8>::new(kind, within) {
        flood.connected_from(from, within, &mut out);
    } else if let Some(flood) = Flood::<16>::new(kind, within) {
        flood.connected_from(from, within, &mut out);
    } else {
        connected_from_each(kind, from, within, &mut out);
    }
    out
}

/// [`connected_from`] a set too long to flood in place: the cells
/// connected to each start not yet reached, in turn.
fn connected_from_each(kind: &Kind, from: &[u64], within: &[u64], out: &mut [u64]) {
    for (wi, (f, w)) in from.iter().zip(within).enumerate() {
        let mut starts = f & w;
        while starts != 0 {
            let c = wi * 64 + starts.trailing_zeros() as usize;
            starts &= starts - 1;
            if !has(out, c) {
                add_to(out, &connected(kind, c, within));
            }
        }
    }
}

/// Marks in `out` (empty, as long as `within`) `start` and every cell of
/// `within` reached from it through cells of `within`.
fn flood(kind: &Kind, start: usize, within: &[u64], out: &mut [u64]) {
    let mut pending = Pending::new();
    put(out, start);
    pending.push(start as u32);
    while let Some(c) = pending.pop() {
        for n in around(kind, c as usize) {
            let n = *n as usize;
            if has(within, n) && !has(out, n) {
                put(out, n);
                pending.push(n as u32);
            }
        }
    }
}

/// Adds the bits of `group` to `seen`.
fn add_to(seen: &mut [u64], group: &[u64]) {
    for (s, g) in seen.iter_mut().zip(group) {
        *s |= g;
    }
}

/// How many separate groups of `cells` touch `c` (are adjacent to it),
/// counting only groups that share a cell with `marked` when given: what
/// placing a piece on `c` would join.
pub fn groups_around(kind: &Kind, c: usize, cells: &[u64], marked: Option<&[u64]>) -> i64 {
    let next = around(kind, c);
    let Some(first) = next.iter().position(|a| has(cells, *a as usize)) else {
        return 0;
    };
    let next = &next[first..];
    if let Some(flood) = Flood::<4>::new(kind, cells) {
        return flood.groups_around(next, marked);
    }
    if let Some(flood) = Flood::<8>::new(kind, cells) {
        return flood.groups_around(next, marked);
    }
    if let Some(flood) = Flood::<16>::new(kind, cells) {
        return flood.groups_around(next, marked);
    }
    let mut seen = Bits::from_elem(0, cells.len().max(1));
    let mut n = 0;
    for a in next {
        let a = *a as usize;
        if !has(cells, a) || has(&seen, a) {
            continue;
        }
        let group = connected(kind, a, cells);
        add_to(&mut seen, &group);
        let counts = match marked {
            None => true,
            Some(m) => group.iter().zip(m).any(|(g, m)| g & m != 0),
        };
        if counts {
            n += 1;
        }
    }
    n
}

/// The number of connected groups of cells in `cells`.
pub fn components(kind: &Kind, cells: &[u64]) -> i64 {
    if let Some(flood) = Flood::<4>::new(kind, cells) {
        return flood.components();
    }
    if let Some(flood) = Flood::<8>::new(kind, cells) {
        return flood.components();
    }
    if let Some(flood) = Flood::<16>::new(kind, cells) {
        return flood.components();
    }
    let mut seen = Bits::from_elem(0, cells.len().max(1));
    let mut groups = 0;
    for (wi, w) in cells.iter().enumerate() {
        let mut bits = *w & !seen.get(wi).copied().unwrap_or(0);
        while bits != 0 {
            let i = wi * 64 + bits.trailing_zeros() as usize;
            add_to(&mut seen, &connected(kind, i, cells));
            groups += 1;
            bits = *w & !seen[wi];
        }
    }
    groups
}

/// How many cells of `cells` follow cell `c` one after the other, going
/// `step` (columns, rows) at a time: the cells at column `x + i * dx`, row
/// `y + i * dy` for i = 1, 2, ... up to the first not in `cells` or off
/// the grid (`run_length`). 0 for no cell (`c` negative) or no step.
pub fn run_length(kind: &Kind, c: i64, step: (i64, i64), cells: &[u64]) -> i64 {
    let Some(g) = kind.grid.filter(|_| c >= 0 && step != (0, 0)) else {
        return 0;
    };
    let (w, h) = (g.width as i64, g.height as i64);
    let (mut x, mut y) = (c % w, c / w);
    let mut n = 0;
    loop {
        x += step.0;
        y += step.1;
        if !(0..w).contains(&x) || !(0..h).contains(&y) || !has(cells, (y * w + x) as usize) {
            return n;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_and_hex_neighbours() {
        let sq = Grid {
            shape: GridShape::Square,
            width: 3,
            height: 3,
        };
        assert_eq!(sq.neighbours(1, 1), vec![1, 3, 5, 7]);
        assert_eq!(sq.neighbours(0, 0), vec![1, 3]);
        let hex = Grid {
            shape: GridShape::Hex,
            width: 3,
            height: 3,
        };
        assert_eq!(hex.neighbours(1, 1), vec![1, 2, 3, 5, 7, 8]);
        assert_eq!(hex.neighbours(1, 0).len(), 4);
    }

    #[test]
    fn runs_of_cells_in_a_direction() {
        let mut kind = grid_kind(GridShape::Square, 5, 4);
        kind.grid = Some(Grid {
            shape: GridShape::Square,
            width: 5,
            height: 4,
        });
        let mut cells = vec![0u64];
        // Row 1: columns 0 to 3; the diagonal (1, 2), (2, 3).
        for c in [5, 6, 7, 8, 11, 17] {
            put(&mut cells, c);
        }
        let at = |x: i64, y: i64| y * 5 + x;
        assert_eq!(run_length(&kind, at(0, 1), (1, 0), &cells), 3);
        assert_eq!(run_length(&kind, at(4, 1), (-1, 0), &cells), 4);
        assert_eq!(run_length(&kind, at(3, 1), (1, 0), &cells), 0);
        assert_eq!(run_length(&kind, at(0, 0), (1, 1), &cells), 1);
        assert_eq!(run_length(&kind, at(0, 1), (1, 1), &cells), 2);
        assert_eq!(run_length(&kind, at(2, 3), (-1, -1), &cells), 2);
        // Off the grid at once, no cell, no step.
        assert_eq!(run_length(&kind, at(4, 1), (1, 0), &cells), 0);
        assert_eq!(run_length(&kind, -1, (1, 0), &cells), 0);
        assert_eq!(run_length(&kind, at(1, 1), (0, 0), &cells), 0);
        // A short set: the cells past its words are not in it.
        assert_eq!(run_length(&kind, at(0, 1), (1, 0), &[]), 0);
    }

    /// A grid kind of `width` x `height` cells.
    fn grid_kind(shape: GridShape, width: usize, height: usize) -> Kind {
        let n = width * height;
        let mut kind = Kind {
            name: "cell".into(),
            items: (0..n).map(|i| format!("cell_{i}")).collect(),
            fields: Vec::new(),
            data: vec![Vec::new(); n],
            span: Default::default(),
            grid: None,
            adjacent: Vec::new(),
            toward: Vec::new(),
            shifts: Vec::new(),
            around: Vec::new(),
            field_sets: Vec::new(),
        };
        let grid = Grid {
            shape,
            width,
            height,
        };
        finish_kind(&mut kind, &grid);
        kind
    }

    /// The group of every cell of `cells` (its lowest cell), by a plain
    /// flood over booleans: what the bit set versions must agree with.
    fn groups(kind: &Kind, cells: &[bool]) -> Vec<Option<usize>> {
        let mut group = vec![None; cells.len()];
        for s in 0..cells.len() {
            if !cells[s] || group[s].is_some() {
                continue;
            }
            let mut todo = vec![s];
            group[s] = Some(s);
            while let Some(c) = todo.pop() {
                for n in &kind.adjacent[c] {
                    let n = *n as usize;
                    if cells[n] && group[n].is_none() {
                        group[n] = Some(s);
                        todo.push(n);
                    }
                }
            }
        }
        group
    }

    /// The bit set of the cells that are on.
    fn to_bits(cells: &[bool]) -> Vec<u64> {
        let mut bits = vec![0u64; cells.len().div_ceil(64).max(1)];
        for (i, _) in cells.iter().enumerate().filter(|(_, on)| **on) {
            bits[i / 64] |= 1 << (i % 64);
        }
        bits
    }

    /// Checks the three bit set helpers against [`groups`] on one grid.
    fn check(kind: &Kind, cells: &[bool], marked: &[bool]) {
        check_in(kind, cells, marked, cells.len().div_ceil(64).max(1));
    }

    /// [`check`] with sets of `words` words: cut short (the cells beyond
    /// then out of the set) or padded with empty words.
    fn check_in(kind: &Kind, cells: &[bool], marked: &[bool], words: usize) {
        let cells: Vec<bool> = (0..cells.len())
            .map(|i| cells[i] && i < 64 * words)
            .collect();
        let sized = |on: &[bool]| {
            let mut bits = to_bits(on);
            bits.resize(words, 0);
            bits
        };
        let group = groups(kind, &cells);
        let (bits, marks) = (sized(&cells), sized(marked));
        let mut roots: Vec<usize> = group.iter().flatten().copied().collect();
        roots.sort_unstable();
        roots.dedup();
        assert_eq!(components(kind, &bits), roots.len() as i64);
        let (mut labels, mut plain) = (GroupLabels::default(), GroupLabels::default());
        let mut mixed = GroupLabels::default();
        for c in 0..cells.len() {
            let expected: Vec<bool> = (0..cells.len())
                .map(|i| cells[c] && group[i] == group[c])
                .collect();
            let mut expected = sized(&expected);
            // A connected set has a word at least.
            expected.resize(words.max(1), 0);
            assert_eq!(&connected(kind, c, &bits)[..], &expected[..]);
            // From a set: the union of the groups of its cells in the set.
            let from: Vec<bool> = (0..cells.len()).map(|i| i == c || marked[i]).collect();
            let mut union = vec![0u64; words.max(1)];
            for i in (0..cells.len()).filter(|i| from[*i] && cells[*i]) {
                add_to(&mut union, &connected(kind, i, &bits));
            }
            assert_eq!(&connected_from(kind, &sized(&from), &bits)[..], &union[..]);
            let mut around: Vec<usize> = kind.adjacent[c]
                .iter()
                .filter_map(|a| group[*a as usize])
                .collect();
            around.sort_unstable();
            around.dedup();
            let is_marked = |g: &usize| (0..cells.len()).any(|i| group[i] == Some(*g) && marked[i]);
            let with_mark = around.iter().filter(|g| is_marked(g)).count();
            assert_eq!(groups_around(kind, c, &bits, None), around.len() as i64);
            assert_eq!(
                groups_around(kind, c, &bits, Some(&marks)),
                with_mark as i64
            );
            // Tallied once for the whole board: the same answers (and,
            // asked with and without marks in turn, each forgetting the
            // other's tally).
            for _ in 0..2 {
                let found = labels.groups_around(0, kind, c, &bits, Some(&marks));
                assert_eq!(found, with_mark as i64);
                let found = plain.groups_around(0, kind, c, &bits, None);
                assert_eq!(found, around.len() as i64);
                let found = mixed.groups_around(0, kind, c, &bits, Some(&marks));
                assert_eq!(found, with_mark as i64);
                let found = mixed.groups_around(0, kind, c, &bits, None);
                assert_eq!(found, around.len() as i64);
            }
        }
        // The whole board at once: the cells whose count passes a test.
        let mut whole = GroupLabels::default();
        for marked in [None, Some(&marks[..])] {
            for bound in 0..4 {
                let Some(found) = whole.cells_where(0, kind, &bits, marked, |n| n <= bound) else {
                    continue;
                };
                for c in 0..cells.len() {
                    let passes = groups_around(kind, c, &bits, marked) <= bound;
                    assert_eq!(crate::ir::bits::has(&found, c as i64), passes);
                }
            }
        }
    }

    #[test]
    fn groups_agree_with_a_plain_flood_in_place_and_beyond() {
        let mut seed: u64 = 7;
        let mut coin = |in_64: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % 64 < in_64
        };
        // 176 cells fit in 4 words in place, 500 in 16.
        for (width, height) in [(3, 3), (16, 11), (25, 20)] {
            for shape in [GridShape::Square, GridShape::Hex] {
                let kind = grid_kind(shape, width, height);
                for density in [20, 40, 64] {
                    let cells: Vec<bool> = (0..width * height).map(|_| coin(density)).collect();
                    let marked: Vec<bool> = (0..width * height).map(|_| coin(8)).collect();
                    check(&kind, &cells, &marked);
                }
            }
        }
    }

    #[test]
    fn shifted_sets_agree_with_stepping_each_cell() {
        let mut rng = XorShift(11);
        // Sizes crossing word boundaries in both directions, odd and even
        // widths (hex rows alternate), one-row and one-column grids.
        // (40 x 30 is past the words shifted on the stack.)
        for (width, height) in [
            (1, 7),
            (7, 1),
            (4, 3),
            (8, 8),
            (10, 10),
            (16, 11),
            (18, 13),
            (23, 16),
            (64, 3),
            (65, 5),
            (13, 11),
            (40, 30),
        ] {
            for shape in [GridShape::Square, GridShape::Hex] {
                let kind = grid_kind(shape, width, height);
                let n = width * height;
                for density in [8, 32, 64] {
                    let cells: Vec<bool> = (0..n).map(|_| rng.coin(density)).collect();
                    let bits = to_bits(&cells);
                    for (d, toward) in kind.toward.iter().enumerate() {
                        let mut want = vec![0u64; bits.len()];
                        for c in (0..n).filter(|c| cells[*c]) {
                            if toward[c] != NO_CELL {
                                put(&mut want, toward[c] as usize);
                            }
                        }
                        let mut got = vec![0u64; bits.len()];
                        shift_toward(&kind, &bits, d, &mut got);
                        assert_eq!(got, want, "{shape:?} {width}x{height}, direction {d}");
                    }
                    // Every direction together: the neighbours of the set.
                    let mut want = vec![0u64; bits.len()];
                    for c in (0..n).filter(|c| cells[*c]) {
                        for a in &kind.adjacent[c] {
                            put(&mut want, *a as usize);
                        }
                    }
                    let mut got = vec![0u64; bits.len()];
                    for d in 0..kind.shifts.len() {
                        shift_toward(&kind, &bits, d, &mut got);
                    }
                    assert_eq!(got, want, "{shape:?} {width}x{height}, all directions");
                    let mut got = vec![0u64; bits.len()];
                    neighbours_of_set(&kind, &bits, &mut got);
                    assert_eq!(got, want, "{shape:?} {width}x{height}, in one pass");
                }
            }
        }
    }

    /// A small deterministic generator (xorshift).
    struct XorShift(u64);

    impl XorShift {
        /// True `in_64` times in 64.
        fn coin(&mut self, in_64: u64) -> bool {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % 64 < in_64
        }
    }

    #[test]
    fn floods_agree_with_a_plain_flood_on_grids_of_every_size() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        // In place in 4 words (rows crossing words: 17 and 70 cells), in
        // 16 words (350 cells), and beyond (1200 cells).
        let sizes = [
            (1, 1),
            (3, 3),
            (16, 11),
            (17, 5),
            (70, 3),
            (70, 5),
            (40, 30),
        ];
        for (width, height) in sizes {
            for shape in [GridShape::Square, GridShape::Hex] {
                let kind = grid_kind(shape, width, height);
                let n = width * height;
                for density in [0, 8, 24, 36, 48, 64] {
                    let cells: Vec<bool> = (0..n).map(|_| rng.coin(density)).collect();
                    let marked: Vec<bool> = (0..n).map(|_| rng.coin(4)).collect();
                    check(&kind, &cells, &marked);
                }
            }
        }
    }

    #[test]
    fn sets_shorter_or_longer_than_the_grid() {
        let mut rng = XorShift(12345);
        for (width, height) in [(16, 11), (17, 5)] {
            for shape in [GridShape::Square, GridShape::Hex] {
                let kind = grid_kind(shape, width, height);
                let n = width * height;
                for words in [0, 1, 2, 4, 5, 17, 20] {
                    let cells: Vec<bool> = (0..n).map(|_| rng.coin(40)).collect();
                    let marked: Vec<bool> = (0..n).map(|_| rng.coin(6)).collect();
                    check_in(&kind, &cells, &marked, words);
                }
            }
        }
    }

    #[test]
    fn kept_answers_are_the_answers() {
        let mut rng = XorShift(5);
        // 176 cells, 234, and 1200 (past the sets whose answers are kept).
        for (shape, width, height) in [
            (GridShape::Square, 16, 11),
            (GridShape::Hex, 18, 13),
            (GridShape::Square, 40, 30),
        ] {
            let kind = grid_kind(shape, width, height);
            let n = width * height;
            // A few sets asked about again and again, and fresh ones.
            let pool: Vec<Vec<u64>> = (0..3)
                .map(|_| to_bits(&(0..n).map(|_| rng.coin(40)).collect::<Vec<_>>()))
                .collect();
            let mut memo = GridMemo::default();
            for q in 0..600 {
                let fresh;
                let set = match rng.coin(16) || q % 100 > 50 {
                    true => {
                        fresh = to_bits(&(0..n).map(|_| rng.coin(40)).collect::<Vec<_>>());
                        &fresh
                    }
                    false => &pool[q % pool.len()],
                };
                let mut want = vec![0u64; n.div_ceil(64)];
                neighbours_of_set(&kind, set, &mut want);
                assert_eq!(&memo.neighbours(0, &kind, set)[..], &want[..]);
                let start = (q * 37) % n;
                let got = memo.connected(0, &kind, start, set);
                assert_eq!(&got[..], &connected(&kind, start, set)[..]);
            }
        }
    }
}

//! Grids of cells: a kind declared with `grid: {shape, width, height}` has
//! one item per cell (`<kind>_<x>_<y>`, row by row from the top left),
//! fields `x` and `y`, and a neighbour relation used by `adjacent`,
//! `connected` and `components`.

use smallvec::SmallVec;

use crate::engine::state::Bits;
use crate::model::ruleset::{Data, FieldDef, Kind, Ty};

/// The shape of a grid's cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GridShape {
    /// Squares: 4 neighbours (up, down, left, right).
    #[default]
    Square,
    /// Hexagons in rows, odd rows shifted half a cell right: 6 neighbours.
    Hex,
}

/// A grid's shape and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Grid {
    /// Cell shape.
    pub shape: GridShape,
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl Grid {
    /// The neighbours of cell (x, y), as item indices.
    pub fn neighbours(&self, x: usize, y: usize) -> Vec<u32> {
        let (w, h) = (self.width as i64, self.height as i64);
        let (x, y) = (x as i64, y as i64);
        let deltas: &[(i64, i64)] = match (self.shape, y % 2 == 1) {
            (GridShape::Square, _) => &[(0, -1), (-1, 0), (1, 0), (0, 1)],
            (GridShape::Hex, false) => &[(-1, -1), (0, -1), (-1, 0), (1, 0), (-1, 1), (0, 1)],
            (GridShape::Hex, true) => &[(0, -1), (1, -1), (-1, 0), (1, 0), (0, 1), (1, 1)],
        };
        deltas
            .iter()
            .map(|(dx, dy)| (x + dx, y + dy))
            .filter(|(nx, ny)| (0..w).contains(nx) && (0..h).contains(ny))
            .map(|(nx, ny)| (ny * w + nx) as u32)
            .collect()
    }
}

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
}

/// Cells a flood has reached but not yet looked around: in place for
/// grids of up to 256 cells, the stack never holding a cell twice.
type Pending = SmallVec<[u32; 256]>;

/// Whether item `i` is in the bit set.
fn has(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

/// Puts item `i` in the bit set, which must be long enough.
fn put(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// The cells connected to `start` through cells of `within` (bit sets over
/// item indices); empty when `start` is not in `within`.
pub fn connected(kind: &Kind, start: usize, within: &[u64]) -> Bits {
    let mut out = Bits::from_elem(0, within.len().max(1));
    if has(within, start) {
        flood(kind, start, within, &mut out);
    }
    out
}

/// Marks in `out` (empty, as long as `within`) `start` and every cell of
/// `within` reached from it through cells of `within`.
fn flood(kind: &Kind, start: usize, within: &[u64], out: &mut [u64]) {
    let mut pending = Pending::new();
    put(out, start);
    pending.push(start as u32);
    while let Some(c) = pending.pop() {
        for n in kind.adjacent.get(c as usize).map_or(&[][..], Vec::as_slice) {
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
    let mut seen = Bits::from_elem(0, cells.len().max(1));
    let mut n = 0;
    for a in kind.adjacent.get(c).map_or(&[][..], Vec::as_slice) {
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
        let group = groups(kind, cells);
        let (bits, marks) = (to_bits(cells), to_bits(marked));
        let mut roots: Vec<usize> = group.iter().flatten().copied().collect();
        roots.sort_unstable();
        roots.dedup();
        assert_eq!(components(kind, &bits), roots.len() as i64);
        for c in 0..cells.len() {
            let expected: Vec<bool> = (0..cells.len())
                .map(|i| cells[c] && group[i] == group[c])
                .collect();
            assert_eq!(&connected(kind, c, &bits)[..], &to_bits(&expected)[..]);
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
        }
    }

    #[test]
    fn groups_agree_with_a_plain_flood_in_place_and_beyond() {
        let mut seed: u64 = 7;
        let mut coin = |in_64: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % 64 < in_64
        };
        // 176 cells fit in place; 500 spill to the heap.
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
}

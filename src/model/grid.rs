//! Grids of cells: a kind declared with `grid: {shape, width, height}` has
//! one item per cell (`<kind>_<x>_<y>`, row by row from the top left),
//! fields `x` and `y`, and a neighbour relation used by `adjacent`,
//! `connected` and `components`.

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

/// The cells connected to `start` through cells of `within` (bit sets over
/// item indices); empty when `start` is not in `within`.
pub fn connected(kind: &Kind, start: usize, within: &[u64]) -> Vec<u64> {
    let has = |bits: &[u64], i: usize| bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
    let mut out = vec![0u64; within.len().max(1)];
    if !has(within, start) {
        return out;
    }
    let mut stack = vec![start];
    out[start / 64] |= 1 << (start % 64);
    while let Some(c) = stack.pop() {
        for n in kind.adjacent.get(c).map_or(&[][..], |v| v.as_slice()) {
            let n = *n as usize;
            if has(within, n) && !has(&out, n) {
                out[n / 64] |= 1 << (n % 64);
                stack.push(n);
            }
        }
    }
    out
}

/// How many separate groups of `cells` touch `c` (are adjacent to it),
/// counting only groups that share a cell with `marked` when given: what
/// placing a piece on `c` would join.
pub fn groups_around(kind: &Kind, c: usize, cells: &[u64], marked: Option<&[u64]>) -> i64 {
    let has = |bits: &[u64], i: usize| bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1);
    let mut seen = vec![0u64; cells.len().max(1)];
    let mut n = 0;
    for a in kind.adjacent.get(c).map_or(&[][..], |v| v.as_slice()) {
        let a = *a as usize;
        if !has(cells, a) || has(&seen, a) {
            continue;
        }
        let group = connected(kind, a, cells);
        for (s, g) in seen.iter_mut().zip(&group) {
            *s |= g;
        }
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
    let mut seen = vec![0u64; cells.len().max(1)];
    let mut groups = 0;
    for (wi, w) in cells.iter().enumerate() {
        let mut bits = *w & !seen.get(wi).copied().unwrap_or(0);
        while bits != 0 {
            let i = wi * 64 + bits.trailing_zeros() as usize;
            let group = connected(kind, i, cells);
            for (s, g) in seen.iter_mut().zip(&group) {
                *s |= g;
            }
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
}

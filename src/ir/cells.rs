//! The shape and size of a grid of cells, and which cells neighbour
//! which (the algorithms over a grid's cells are in `grid.rs`).

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

/// Directions on a square grid, clockwise from east: east, south, west,
/// north (as `(dx, dy)`, y growing downwards).
const SQUARE_DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
/// Directions on a hex grid from a cell of an even row, clockwise from
/// east: east, south-east, south-west, west, north-west, north-east.
const HEX_EVEN_DIRECTIONS: [(i64, i64); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1)];
/// The same from a cell of an odd row (shifted half a cell right).
const HEX_ODD_DIRECTIONS: [(i64, i64); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1)];

impl Grid {
    /// How many directions a cell has: 4 on squares, 6 on hexagons.
    pub fn directions(&self) -> usize {
        match self.shape {
            GridShape::Square => 4,
            GridShape::Hex => 6,
        }
    }

    /// The cell one step from (x, y) in direction `d` (taken modulo the
    /// number of directions, clockwise from east), as an item index; `None`
    /// off the grid.
    pub fn toward(&self, x: usize, y: usize, d: i64) -> Option<u32> {
        let n = self.directions() as i64;
        let d = d.rem_euclid(n) as usize;
        let (dx, dy) = match (self.shape, y % 2 == 1) {
            (GridShape::Square, _) => SQUARE_DIRECTIONS[d],
            (GridShape::Hex, false) => HEX_EVEN_DIRECTIONS[d],
            (GridShape::Hex, true) => HEX_ODD_DIRECTIONS[d],
        };
        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
        let inside = (0..self.width as i64).contains(&nx) && (0..self.height as i64).contains(&ny);
        inside.then(|| (ny * self.width as i64 + nx) as u32)
    }

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

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

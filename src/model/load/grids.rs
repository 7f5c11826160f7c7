//! Grids: a kind whose items are the cells of a square or hex grid
//! (`grid: {shape, width, height}`), its cells named `<kind>_X_Y`.

use marked_yaml::Node;

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::grid::{Grid, GridShape};
use crate::ir::span::Span;

use super::builder::Builder;
use super::kinds::{RawItem, RawKind};
use super::yaml::{check_keys, node_span};

impl Builder {
    /// Reads a kind's `grid:`; the first grid given to a kind makes its
    /// cells, `<kind>_X_Y` row by row, named at `span`.
    pub(super) fn kind_grid(
        &mut self,
        raw: &mut RawKind,
        file: u32,
        text: &str,
        node: &Node,
        span: Span,
    ) {
        let Some(grid) = self.grid_of(file, text, node) else {
            return;
        };
        if raw.grid.is_none() {
            for y in 0..grid.height {
                for x in 0..grid.width {
                    raw.items.push(RawItem {
                        id: format!("{}_{x}_{y}", raw.name),
                        span,
                        node: None,
                    });
                }
            }
        }
        raw.grid = Some(grid);
    }

    /// `grid: {shape: square, width: 16, height: 11}`.
    fn grid_of(&mut self, file: u32, text: &str, node: &Node) -> Option<Grid> {
        let span = node_span(file, text, node.span());
        let Some(m) = node.as_mapping() else {
            self.diags.push(
                Diagnostic::new(Code::BadValue, span, "`grid:` must be a mapping")
                    .help("write `grid: {shape: square, width: 16, height: 11}`"),
            );
            return None;
        };
        check_keys(
            file,
            text,
            m,
            &["shape", "width", "height"],
            "a grid",
            &mut self.diags,
        );
        let num = |k: &str| {
            m.get_scalar(k)
                .and_then(|s| s.as_str().parse::<usize>().ok())
        };
        let shape = match m.get_scalar("shape").map(|s| s.as_str()) {
            None | Some("square") => GridShape::Square,
            Some("hex") => GridShape::Hex,
            Some(other) => {
                self.diags.push(
                    Diagnostic::new(Code::BadValue, span, format!("unknown grid shape `{other}`")).help(
                        "a grid is `square` (4 neighbours) or `hex` (6 neighbours, odd rows shifted right)",
                    ),
                );
                return None;
            }
        };
        match (num("width"), num("height")) {
            (Some(w), Some(h)) if w > 0 && h > 0 && w * h <= 4096 => Some(Grid {
                shape,
                width: w,
                height: h,
            }),
            _ => {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        span,
                        "a grid needs a positive `width` and `height` (at most 4096 cells)",
                    )
                    .help("write `grid: {shape: square, width: 16, height: 11}`"),
                );
                None
            }
        }
    }

    /// Gives each grid kind its `x` and `y` fields and its neighbour lists
    /// (once its items and fields are final).
    pub(super) fn finish_grids(&mut self) {
        for k in 1..self.kinds.len() {
            if let Some(g) = self.kinds[k].grid {
                crate::ir::grid::finish_kind(&mut self.kinds[k], &g);
            }
        }
    }
}

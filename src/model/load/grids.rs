//! Grids: a kind whose items are the cells of a square or hex grid
//! (`grid: {shape, width, height}`), its cells named `<kind>_X_Y`.

use marked_yaml::Node;

use crate::ir::codes::Code;
use crate::ir::diag::{thousands, Diagnostic};
use crate::ir::grid::{Grid, GridShape};
use crate::ir::span::{SourceFile, Span};
use crate::model::limits::MAX_CELLS;

use super::builder::Builder;
use super::kinds::{RawItem, RawKind};
use super::yaml::{check_keys_in, span_in};

impl Builder {
    /// Reads a kind's `grid:`, which makes its cells, `<kind>_X_Y` row by
    /// row, named at `span`. A variant may give an existing grid again,
    /// but not another size or shape, nor make a grid of a kind that has
    /// items.
    pub(super) fn kind_grid(
        &mut self,
        raw: &mut RawKind,
        src: &SourceFile,
        node: &Node,
        span: Span,
    ) {
        let Some(grid) = self.grid_of(src, node) else {
            return;
        };
        let node_span = span_in(src, node.span());
        match raw.grid {
            Some(old) if old == grid => {}
            Some(old) => self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    node_span,
                    format!(
                        "the grid `{}` is {}x{} already: its size and shape cannot change",
                        raw.name, old.width, old.height
                    ),
                )
                .help("a variant may give the grid's cells fields, not resize it"),
            ),
            None if !raw.items.is_empty() => self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    node_span,
                    format!(
                        "kind `{}` has items already: it cannot become a grid",
                        raw.name
                    ),
                )
                .help("a grid's items are its cells: declare the grid in a kind of its own"),
            ),
            None => {
                for y in 0..grid.height {
                    for x in 0..grid.width {
                        raw.push(RawItem {
                            id: format!("{}_{x}_{y}", raw.name),
                            span,
                            node: None,
                        });
                    }
                }
                raw.grid = Some(grid);
            }
        }
    }

    /// `grid: {shape: square, width: 16, height: 11}`.
    fn grid_of(&mut self, src: &SourceFile, node: &Node) -> Option<Grid> {
        let span = span_in(src, node.span());
        let Some(m) = node.as_mapping() else {
            self.diags.push(
                Diagnostic::new(Code::BadValue, span, "`grid:` must be a mapping")
                    .help("write `grid: {shape: square, width: 16, height: 11}`"),
            );
            return None;
        };
        check_keys_in(
            src,
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
        let cells = |w: usize, h: usize| w.checked_mul(h).filter(|&n| n > 0 && n <= MAX_CELLS);
        match (num("width"), num("height")) {
            (Some(w), Some(h)) if cells(w, h).is_some() => Some(Grid {
                shape,
                width: w,
                height: h,
            }),
            (Some(w), Some(h)) if w > 0 && h > 0 => {
                self.diags.push(
                    Diagnostic::new(
                        Code::TooLarge,
                        span,
                        format!(
                            "a grid of {} by {} cells: more than {}",
                            thousands(w),
                            thousands(h),
                            thousands(MAX_CELLS)
                        ),
                    )
                    .help(format!(
                        "a grid has at most {} cells (docs/LANGUAGE.md, Limits)",
                        thousands(MAX_CELLS)
                    )),
                );
                None
            }
            _ => {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        span,
                        "a grid needs a positive `width` and `height`",
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

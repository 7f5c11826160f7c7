//! The arguments of the grid builtins (`adjacent`, `connected`,
//! `components`, `cell`, `groups_around`) that name their grid: a cell, a
//! set of cells, or the grid kind itself.

use crate::ir::bytecode::KindId;
use crate::ir::codes::Code;
use crate::ir::ruleset::Ty;
use crate::ir::symbols::Global;
use crate::lang::ast::{Expr, ExprKind};

use super::builtins::{BuiltinDef, ParamTy};
use super::call::Bound;
use super::context::FnCtx;
use super::{Compiler, ANY_KIND};

impl Compiler<'_> {
    /// The grid kind named by the argument `a` (`cell(board, x, y)`);
    /// false after reporting that it names none.
    pub(super) fn grid_kind_arg(&mut self, def: &BuiltinDef, a: &Expr, bound: &mut Bound) -> bool {
        let k = match &a.kind {
            ExprKind::Name(id) => match self.symbols.get(&id.name) {
                Some(Global::Kind(k)) if self.kinds[*k as usize].grid.is_some() => Some(*k),
                _ => None,
            },
            _ => None,
        };
        match k {
            Some(k) => {
                bound.kind = Some(k);
                true
            }
            None => {
                self.err(
                    Code::TypeMismatch,
                    a.span,
                    format!("`{}` takes a grid kind first", def.name),
                    def.help,
                );
                false
            }
        }
    }

    /// The first cell or set of cells of a grid builtin, which tells its
    /// grid; false after a mistake (reported unless already reported).
    pub(super) fn grid_arg(
        &mut self,
        f: &mut FnCtx,
        def: &BuiltinDef,
        p: ParamTy,
        a: &Expr,
        bound: &mut Bound,
    ) -> bool {
        let t = self.expr(f, a);
        let fits = match p {
            ParamTy::CellOrCells => true,
            ParamTy::Cells => matches!(t, Ty::Set(_)),
            _ => matches!(t, Ty::Ent(_)),
        };
        let grid = self.grid_of(&t);
        if let Some(k) = grid.filter(|_| fits) {
            bound.kind = Some(k);
            bound.cells = matches!(t, Ty::Set(_));
            return true;
        }
        if t != Ty::Error {
            let help = if grid.is_none() {
                "declare the kind with `grid: {shape, width, height}`"
            } else if p == ParamTy::Cells {
                "pass a set of cells, e.g. `{c}` for one cell `c`"
            } else {
                "pass one cell; to ask about each cell of a set, range over it (`c in S`)"
            };
            let wanted = match p {
                ParamTy::Cells => "a set of cells",
                ParamTy::CellOrCells => "a cell or a set of cells",
                _ => "a cell",
            };
            self.err(
                Code::TypeMismatch,
                a.span,
                format!(
                    "`{}` needs {wanted} of a grid kind, not {}",
                    def.name,
                    self.tn(&t)
                ),
                help,
            );
        }
        false
    }

    /// The grid kind of a cell or of a set of cells.
    fn grid_of(&self, t: &Ty) -> Option<KindId> {
        match t {
            Ty::Ent(k) | Ty::Set(k) if *k != ANY_KIND && self.kinds[*k as usize].grid.is_some() => {
                Some(*k)
            }
            _ => None,
        }
    }
}

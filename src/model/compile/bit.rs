//! Assignments that put one item in a set variable's element or take it
//! out (`v[i] += {x}`, `v[i] -= {x}`, `v[i] = with(v[i], x)`,
//! `v[i] = without(v[i], x)`): compiled to `VarBit`, which writes the
//! one word where the item's bit lies, rather than copying the set,
//! changing the copy and storing it back.

use crate::ir::bytecode::Op;
use crate::ir::ruleset::Ty;
use crate::ir::span::Span;
use crate::lang::ast::*;

use super::context::FnCtx;
use super::Compiler;

impl Compiler<'_> {
    /// Compiles `place op e` as a `VarBit` when it puts one item in the
    /// set variable `var` or takes it out; false, nothing emitted, when
    /// it is another assignment.
    pub(super) fn assign_bit(
        &mut self,
        f: &mut FnCtx,
        (var, place): (u32, &Place),
        op: AssignOp,
        e: &Expr,
        sp: Span,
    ) -> bool {
        let Ty::Set(k) = self.vars[var as usize].ty else {
            return false;
        };
        let Some((item, on)) = bit_change(f, place, op, e) else {
            return false;
        };
        self.indices(f, var, &place.indices, place.span);
        let got = self.expr(f, item);
        self.expect(&Ty::Ent(k), &got, item.span, "the item");
        f.emit(Op::VarBit(var, on), sp);
        true
    }
}

/// The item that `place op e` puts in its set (`true`) or takes out,
/// when it does only that.
fn bit_change<'e>(f: &FnCtx, place: &Place, op: AssignOp, e: &'e Expr) -> Option<(&'e Expr, bool)> {
    match (&e.kind, op) {
        (ExprKind::SetLit(items), AssignOp::Add | AssignOp::Sub) if items.len() == 1 => {
            Some((&items[0], op == AssignOp::Add))
        }
        (ExprKind::Call(name, args), AssignOp::Set) if f.lookup(&name.name).is_none() => {
            let on = match name.name.as_str() {
                "with" => true,
                "without" => false,
                _ => return None,
            };
            match args.as_slice() {
                [set, item] if same_place(place, set) => Some((item, on)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether `e` reads the element `place` names: the same variable at
/// the same indices, each a name or a number (read twice, they give the
/// same value: no call, no draw of chance).
fn same_place(place: &Place, e: &Expr) -> bool {
    let (name, idx) = match &e.kind {
        ExprKind::Name(n) => (n, &[][..]),
        ExprKind::Index(b, idx) => match &b.kind {
            ExprKind::Name(n) => (n, idx.as_slice()),
            _ => return false,
        },
        _ => return false,
    };
    name.name == place.name.name
        && idx.len() == place.indices.len()
        && idx
            .iter()
            .zip(&place.indices)
            .all(|(a, b)| same_index(a, b))
}

/// Whether two indices are the same name or the same number.
fn same_index(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Name(x), ExprKind::Name(y)) => x.name == y.name,
        (ExprKind::Int(x), ExprKind::Int(y)) => x == y,
        _ => false,
    }
}

//! Binders (`x in S where c`): the loops that visit their elements (for
//! `for`, set builders, aggregates and per-element arms), and set
//! builders.

use crate::ir::bytecode::{BinaryOp, Builtin, KindId, Op};
use crate::ir::codes::Code;
use crate::ir::ruleset::{Ty, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::lang::ast::{Binder, Expr, ExprKind, Source};

use super::builtins;
use super::context::FnCtx;
use super::native::{as_eq_true, SelectEq};
use super::{Compiler, ANY_KIND};

/// How the elements of a binder are visited (decided before anything is
/// emitted).
enum Walk<'e> {
    /// `x in kind where v[x] == e`: the matching items are selected
    /// natively, then visited as a set (the filter is done).
    Selected(SelectEq<'e>),
    /// A whole kind: counting through its items (no set is built).
    Kind(KindId),
    /// `lo..hi`, or `lo..=hi`.
    Range(&'e Expr, &'e Expr, bool),
    /// A set: visited member by member, its filter applied to it natively
    /// first when one fits its kind.
    Set(&'e Expr),
}

/// The head of a loop over a binder, emitted.
struct Head {
    /// The elements' type.
    elem: Ty,
    /// Where each step starts.
    top: u32,
    /// The jump out when the elements are exhausted.
    exit: usize,
    /// The local holding the element.
    var: u16,
    /// Whether the filter was applied already.
    filtered: bool,
}

impl Compiler<'_> {
    /// Emits a loop over a binder; `body` is compiled once per element
    /// that passes the filter, with the element in the local given. A
    /// `breakable` loop is one `break` and `continue` may leave (`for`).
    /// Returns the elements' type.
    pub(super) fn binder_loop(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        breakable: bool,
        body: impl FnOnce(&mut Self, &mut FnCtx, u16),
    ) -> Ty {
        let sp = b.span;
        let rewritten = b.filter.as_ref().and_then(as_eq_true).map(|cond| Binder {
            filter: Some(cond),
            ..b.clone()
        });
        let b = rewritten.as_ref().unwrap_or(b);
        let walk = self.walk_plan(f, b);
        let head = self.loop_head(f, b, walk);
        let (top, var) = (head.top, head.var);
        let step = |c: &mut Self, f: &mut FnCtx| {
            if let Some(cond) = b.filter.as_ref().filter(|_| !head.filtered) {
                for j in c.branch(f, cond, false, cond.span) {
                    f.patch(j, top);
                }
            }
            body(c, f, var);
            f.emit(Op::Jump(top), sp);
        };
        if breakable {
            self.breakable(f, top, vec![head.exit], step);
        } else {
            step(self, f);
            f.patch_here(head.exit);
        }
        head.elem
    }

    /// How the binder's elements are visited.
    fn walk_plan<'e>(&self, f: &FnCtx, b: &'e Binder) -> Walk<'e> {
        if let Some(s) = self.select_eq(f, b) {
            return Walk::Selected(s);
        }
        match &b.source {
            Source::Range(lo, hi, incl) => Walk::Range(lo, hi, *incl),
            Source::Expr(e) => match self.kind_source(f, e) {
                Some(k) => Walk::Kind(k),
                None => Walk::Set(e),
            },
        }
    }

    /// Emits the head of the loop `walk` plans.
    fn loop_head(&mut self, f: &mut FnCtx, b: &Binder, walk: Walk) -> Head {
        let (sp, name) = (b.span, b.var.name.as_str());
        let mut filtered = false;
        let (elem, top, exit, var) = match walk {
            Walk::Selected(s) => {
                self.emit_select_eq(f, &s, Op::SelectEq, sp);
                filtered = true;
                self.visit_set(f, name, s.kind, sp)
            }
            Walk::Kind(k) => {
                // The items of a kind are known here (the players' number
                // only when the game starts).
                match self.kinds.get(k as usize).filter(|_| k != PLAYER) {
                    Some(kind) => f.emit(Op::Const(kind.items.len() as i64), sp),
                    None => f.emit(Op::KindSize(k), sp),
                };
                f.emit(Op::Const(0), sp);
                let (top, exit, var) = self.count_up(f, name, Ty::Ent(k), sp);
                (Ty::Ent(k), top, exit, var)
            }
            Walk::Range(lo, hi, incl) => {
                self.range_bounds(f, lo, hi, incl, sp);
                let (top, exit, var) = self.count_up(f, name, Ty::Int, sp);
                (Ty::Int, top, exit, var)
            }
            Walk::Set(e) => {
                let k = self.set_source(f, e);
                let plan = b
                    .filter
                    .as_ref()
                    .and_then(|c| self.filter_plan(f, c, name, k));
                if let Some(plan) = &plan {
                    self.emit_filter(f, plan);
                    filtered = true;
                }
                self.visit_set(f, name, k, sp)
            }
        };
        Head {
            elem,
            top,
            exit,
            var,
            filtered,
        }
    }

    /// A counting loop from the start (on top of the stack) up to the end
    /// (below it), excluded: declares the variable, emits the loop head;
    /// returns the loop top, the exit jump to patch and the variable's slot.
    fn count_up(&mut self, f: &mut FnCtx, name: &str, ty: Ty, sp: Span) -> (u32, usize, u16) {
        let hi_slot = f.temp();
        let var = f.declare(name, ty);
        f.emit_add_const(BinaryOp::Sub, 1, sp);
        // Constant bounds are stored one after the other (each `Const;
        // Store` fuses into one instruction).
        match (f.take_const(), f.take_const()) {
            (Some(start), Some(end)) => {
                f.emit(Op::Const(start), sp);
                f.emit(Op::Store(var), sp);
                f.emit(Op::Const(end), sp);
                f.emit(Op::Store(hi_slot), sp);
            }
            (start, _end) => {
                // `_end` is `None` whenever `start` is (nothing taken).
                if let Some(start) = start {
                    f.emit(Op::Const(start), sp);
                }
                f.emit(Op::Store(var), sp);
                f.emit(Op::Store(hi_slot), sp);
            }
        }
        let top = f.here();
        f.emit(Op::Load(var), sp);
        f.emit(Op::Const(1), sp);
        f.emit(Op::Bin(BinaryOp::Add), sp);
        f.emit(Op::Dup, sp);
        f.emit(Op::Store(var), sp);
        f.emit(Op::Load(hi_slot), sp);
        f.emit(Op::Bin(BinaryOp::Lt), sp);
        let exit_jump = f.emit(Op::JumpIfNot(0), sp);
        (top, exit_jump, var)
    }

    /// Visits the elements of the set on the stack: stores it, declares
    /// the binder variable, emits the loop head; returns the element type,
    /// the loop top, the exit jump to patch and the variable's slot.
    fn visit_set(
        &mut self,
        f: &mut FnCtx,
        name: &str,
        k: KindId,
        sp: Span,
    ) -> (Ty, u32, usize, u16) {
        let set_slot = f.temp();
        let cur = f.temp();
        f.emit(Op::Store(set_slot), sp);
        f.emit(Op::Const(0), sp);
        f.emit(Op::Store(cur), sp);
        let elem_ty = if k == ANY_KIND { Ty::Error } else { Ty::Ent(k) };
        let var = f.declare(name, elem_ty.clone());
        let top = f.here();
        f.emit(
            Op::SetNext {
                set: set_slot,
                cur,
                var,
            },
            sp,
        );
        let exit_jump = f.emit(Op::JumpIfNot(0), sp);
        (elem_ty, top, exit_jump, var)
    }

    /// Pushes the end (excluded) then the start of the range `lo..hi`
    /// (`lo..=hi` when `incl`).
    pub(super) fn range_bounds(
        &mut self,
        f: &mut FnCtx,
        lo: &Expr,
        hi: &Expr,
        incl: bool,
        sp: Span,
    ) {
        let t = self.expr(f, hi);
        self.expect(&Ty::Int, &t, hi.span, "the end of a range");
        if incl {
            f.emit_add_const(BinaryOp::Add, 1, sp);
        }
        let t = self.expr(f, lo);
        self.expect(&Ty::Int, &t, lo.span, "the start of a range");
    }

    /// Pushes the set `e` that a binder ranges over; its items' kind.
    pub(super) fn set_source(&mut self, f: &mut FnCtx, e: &Expr) -> KindId {
        match self.expr(f, e) {
            Ty::Set(k) => k,
            Ty::Error => ANY_KIND,
            other => {
                self.err(
                    Code::TypeMismatch,
                    e.span,
                    format!("cannot range over {}", self.tn(&other)),
                    "range over a kind, a set, a list or `lo..hi`",
                );
                ANY_KIND
            }
        }
    }

    /// The kind a binder ranges over when its source is a bare kind name
    /// (or `players`).
    pub(super) fn kind_source(&self, f: &FnCtx, e: &Expr) -> Option<KindId> {
        let ExprKind::Name(id) = &e.kind else {
            return None;
        };
        if f.lookup(&id.name).is_some() {
            return None;
        }
        if let Some(k) = builtins::whole_kind(&id.name) {
            return Some(k);
        }
        match self.symbols.get(&id.name) {
            Some(Global::Kind(k)) => Some(*k),
            _ => None,
        }
    }

    /// `{x in S where c}`: natively when it can be, else element by element.
    pub(super) fn set_builder(&mut self, f: &mut FnCtx, b: &Binder, sp: Span) -> Ty {
        if let Some(t) = self.native_selection(f, b) {
            return t;
        }
        let acc = f.temp();
        f.emit(Op::SetMake(ANY_KIND, 0), sp);
        f.emit(Op::Store(acc), sp);
        let elem = self.scoped(f, |c, f| {
            c.binder_loop(f, b, false, |_c, f, slot| {
                f.emit(Op::Load(acc), sp);
                f.emit(Op::Load(slot), sp);
                f.emit(Op::Builtin(Builtin::With, 2), sp);
                f.emit(Op::Store(acc), sp);
            })
        });
        f.emit(Op::Load(acc), sp);
        match elem {
            Ty::Ent(k) => Ty::Set(k),
            Ty::Error => Ty::Error,
            other => self.err(
                Code::TypeMismatch,
                sp,
                format!("a set holds items, not {}", self.tn(&other)),
                "range over a kind or a set",
            ),
        }
    }

    /// `{x in set where c}` for a set of kind `k` already on the stack,
    /// member by member.
    pub(super) fn filter_set_on_stack(&mut self, f: &mut FnCtx, b: &Binder, k: KindId) -> Ty {
        let sp = b.span;
        let acc = f.temp();
        f.emit(Op::SetMake(ANY_KIND, 0), sp);
        f.emit(Op::Store(acc), sp);
        let elem = self.scoped(f, |c, f| {
            let (elem, top, exit, var) = c.visit_set(f, &b.var.name, k, sp);
            if let Some(cond) = &b.filter {
                for j in c.branch(f, cond, false, cond.span) {
                    f.patch(j, top);
                }
            }
            f.emit(Op::Load(acc), sp);
            f.emit(Op::Load(var), sp);
            f.emit(Op::Builtin(Builtin::With, 2), sp);
            f.emit(Op::Store(acc), sp);
            f.emit(Op::Jump(top), sp);
            f.patch_here(exit);
            elem
        });
        f.emit(Op::Load(acc), sp);
        match elem {
            Ty::Ent(k) => Ty::Set(k),
            _ => Ty::Error,
        }
    }
}

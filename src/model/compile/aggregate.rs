//! Aggregates over a binder: `sum`, `count`, `min`, `max`, `any`, `all`,
//! `argmax`, `argmin`.

use std::cell::RefCell;

use crate::ir::bytecode::{BinaryOp, Builtin, Op};
use crate::ir::codes::Code;
use crate::ir::ruleset::Ty;
use crate::ir::span::Span;
use crate::lang::ast::{Aggregate, Binder, Expr, ExprKind, Source};

use super::context::FnCtx;
use super::native::{as_eq_true, Selection};
use super::{Compiler, ANY_KIND};

/// The locals an aggregate's loop folds into.
#[derive(Clone, Copy)]
struct Fold {
    /// The result so far (for argmax/argmin: the best elements).
    acc: u16,
    /// The best value so far (argmax/argmin).
    best: u16,
}

impl Compiler<'_> {
    /// An aggregate; returns its type.
    pub(super) fn aggregate(
        &mut self,
        f: &mut FnCtx,
        agg: Aggregate,
        b: &Binder,
        body: Option<&Expr>,
        sp: Span,
    ) -> Ty {
        // Only this aggregate may answer a condition's wish for a branch.
        let wish = f.branch_into.take();
        if let Some(t) = self.counted_natively(f, agg, b, body, sp) {
            return t;
        }
        if let (Some(wish), Aggregate::Any | Aggregate::All, Some(e)) = (wish, agg, body) {
            let is_any = agg == Aggregate::Any;
            if let Some(jumps) = self.decided_unrolled(f, is_any, b, e, wish) {
                f.branched = Some(jumps);
                return Ty::Bool;
            }
        }
        let fold = Fold {
            acc: f.temp(),
            best: f.temp(),
        };
        let (init, needs_body) = match agg {
            Aggregate::Sum => (0, true),
            Aggregate::Count => (0, false),
            Aggregate::Min => (i64::MAX, true),
            Aggregate::Max => (i64::MIN, true),
            Aggregate::Any => (0, true),
            Aggregate::All => (1, true),
            Aggregate::ArgMax => (i64::MIN, true),
            Aggregate::ArgMin => (i64::MAX, true),
        };
        if needs_body && body.is_none() {
            return self.err(
                Code::BadAggregate,
                sp,
                "this aggregate needs a value after `:`",
                "write e.g. sum(x in S: value(x))",
            );
        }
        if !needs_body && body.is_some() {
            self.err(
                Code::BadAggregate,
                sp,
                "`count` takes no value",
                "write count(x in S where condition)",
            );
        }
        let decides = matches!(agg, Aggregate::Any | Aggregate::All);
        if matches!(agg, Aggregate::ArgMax | Aggregate::ArgMin) {
            f.emit(Op::SetMake(ANY_KIND, 0), sp);
            f.emit(Op::Store(fold.acc), sp);
            f.emit(Op::Const(init), sp);
            f.emit(Op::Store(fold.best), sp);
        } else if !decides {
            f.emit(Op::Const(init), sp);
            f.emit(Op::Store(fold.acc), sp);
        }
        let (elem, exits) = self.scoped(f, |c, f| c.aggregate_loop(f, agg, b, body, fold, sp));
        // `any` and `all` leave early with the result when it is decided:
        // past the end it is the initial value (nothing is folded).
        match decides {
            true => f.emit(Op::Const(init), sp),
            false => f.emit(Op::Load(fold.acc), sp),
        };
        // An early exit has pushed the result itself.
        for j in exits {
            f.patch_here(j);
        }
        match agg {
            Aggregate::Any | Aggregate::All => Ty::Bool,
            Aggregate::ArgMax | Aggregate::ArgMin => match elem {
                Ty::Ent(k) => Ty::Set(k),
                Ty::Error => Ty::Error,
                other => self.err(
                    Code::TypeMismatch,
                    sp,
                    format!("argmax/argmin range over items, not {}", self.tn(&other)),
                    "range over a kind or a set",
                ),
            },
            _ => Ty::Int,
        }
    }

    /// The loop folding each element into `fold`; returns the elements'
    /// type and the early exits, which leave with the result pushed.
    fn aggregate_loop(
        &mut self,
        f: &mut FnCtx,
        agg: Aggregate,
        b: &Binder,
        body: Option<&Expr>,
        fold: Fold,
        sp: Span,
    ) -> (Ty, Vec<usize>) {
        // Early exits: `any` at the first true, `all` at the first false,
        // and `min(x in lo..hi: x)` at the first element (ranges ascend).
        let exits = RefCell::new(Vec::new());
        let min_of_var = agg == Aggregate::Min
            && matches!(b.source, Source::Range(..))
            && matches!(body.map(|e| &e.kind), Some(ExprKind::Name(id)) if id.name == b.var.name);
        let mut element = |c: &mut Self, f: &mut FnCtx, var: u16| {
            if min_of_var {
                f.emit(Op::Load(var), sp);
                exits.borrow_mut().push(f.emit(Op::Jump(0), sp));
                return;
            }
            match (agg, body) {
                (Aggregate::Count, _) => {
                    f.emit(Op::Load(fold.acc), sp);
                    f.emit(Op::Const(1), sp);
                    f.emit(Op::Bin(BinaryOp::Add), sp);
                    f.emit(Op::Store(fold.acc), sp);
                }
                (Aggregate::Any | Aggregate::All, Some(e)) => {
                    let exit = c.decide_early(f, agg == Aggregate::Any, e, sp);
                    exits.borrow_mut().push(exit);
                }
                (Aggregate::ArgMax | Aggregate::ArgMin, Some(e)) => {
                    c.keep_best(f, agg == Aggregate::ArgMax, e, var, fold, sp);
                }
                (_, Some(e)) => c.fold_value(f, agg, e, fold, sp),
                (_, None) => {} // reported above
            }
        };
        // Only `any` and `all` are unrolled: they gain the most (no
        // loop, the exits straight to where the value goes); a `sum`
        // unrolled lost more fused instructions than it gained in
        // a shipped ruleset. (argmax/argmin could not be: they read the
        // element's slot, which an unrolled loop never stores.)
        let unroll = matches!(agg, Aggregate::Any | Aggregate::All);
        if let Some(elem) = unroll
            .then(|| self.unrolled_loop(f, b, body, &mut element))
            .flatten()
        {
            return (elem, exits.into_inner());
        }
        exits.borrow_mut().clear(); // the unrolled code was taken back
        let elem = self.binder_loop(f, b, false, element);
        (elem, exits.into_inner())
    }

    /// `sum`, `min`, `max`: folds the value of `e` into the result.
    fn fold_value(&mut self, f: &mut FnCtx, agg: Aggregate, e: &Expr, fold: Fold, sp: Span) {
        f.emit(Op::Load(fold.acc), sp);
        let t = self.expr(f, e);
        self.expect(&Ty::Int, &t, e.span, "the value");
        let op = match agg {
            Aggregate::Sum => Op::Bin(BinaryOp::Add),
            Aggregate::Min => Op::Builtin(Builtin::Min2, 2),
            _ => Op::Builtin(Builtin::Max2, 2),
        };
        f.emit(op, sp);
        f.emit(Op::Store(fold.acc), sp);
    }

    /// `any` (`is_any`) or `all`: when the condition `e` decides, pushes
    /// the result and leaves; returns the jump out, to patch.
    fn decide_early(&mut self, f: &mut FnCtx, is_any: bool, e: &Expr, sp: Span) -> usize {
        let skip = self.branch(f, e, !is_any, sp);
        f.emit(Op::Const(is_any as i64), sp);
        let exit = f.emit(Op::Jump(0), sp);
        for j in skip {
            f.patch_here(j);
        }
        exit
    }

    /// `argmax` (`is_max`) or `argmin`: keeps the elements with the best
    /// value of `e` so far.
    fn keep_best(&mut self, f: &mut FnCtx, is_max: bool, e: &Expr, var: u16, fold: Fold, sp: Span) {
        let v = f.temp();
        let t = self.expr(f, e);
        self.expect(&Ty::Int, &t, e.span, "the value");
        f.emit(Op::Store(v), sp);
        // if v beats best: acc = {}, best = v
        f.emit(Op::Load(v), sp);
        f.emit(Op::Load(fold.best), sp);
        f.emit(
            Op::Bin(if is_max { BinaryOp::Gt } else { BinaryOp::Lt }),
            sp,
        );
        let j = f.emit(Op::JumpIfNot(0), sp);
        f.emit(Op::SetMake(ANY_KIND, 0), sp);
        f.emit(Op::Store(fold.acc), sp);
        f.emit(Op::Load(v), sp);
        f.emit(Op::Store(fold.best), sp);
        f.patch_here(j);
        // if v == best: acc += {x}
        f.emit(Op::Load(v), sp);
        f.emit(Op::Load(fold.best), sp);
        f.emit(Op::Bin(BinaryOp::Eq), sp);
        let j = f.emit(Op::JumpIfNot(0), sp);
        f.emit(Op::Load(fold.acc), sp);
        f.emit(Op::Load(var), sp);
        f.emit(Op::Builtin(Builtin::With, 2), sp);
        f.emit(Op::Store(fold.acc), sp);
        f.patch_here(j);
    }

    /// `count(x in S where c)` and `any(x in S: c)` counted natively: over
    /// a kind with `v[x] == e` (`CountEq`), or by counting a native
    /// selection. `None`, nothing emitted, when neither applies.
    fn counted_natively(
        &mut self,
        f: &mut FnCtx,
        agg: Aggregate,
        b: &Binder,
        body: Option<&Expr>,
        sp: Span,
    ) -> Option<Ty> {
        let cond = match (agg, body, &b.filter) {
            (Aggregate::Count, None, Some(c)) => c,
            (Aggregate::Any, Some(c), None) => c,
            _ => return None,
        };
        // The elements counted: those of `x in S where cond`.
        let probe = Binder {
            filter: Some(cond.clone()),
            ..b.clone()
        };
        let rewritten = as_eq_true(cond).map(|c| Binder {
            filter: Some(c),
            ..b.clone()
        });
        match self.selection_plan(f, &probe, rewritten.as_ref())? {
            Selection::Eq(s) => self.emit_select_eq(f, &s, Op::CountEq, sp),
            plan => {
                self.emit_selection(f, &probe, plan);
                f.emit(Op::SetCount, sp);
            }
        }
        if agg == Aggregate::Any {
            f.emit(Op::Const(0), sp);
            f.emit(Op::Bin(BinaryOp::Gt), sp);
            return Some(Ty::Bool);
        }
        Some(Ty::Int)
    }
}

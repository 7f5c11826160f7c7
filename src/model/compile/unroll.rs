//! Loops unrolled: a binder over a kind of a few items (the rows of a
//! small data table) is compiled as one copy of its body per item, the
//! element a known constant in each, so that its fields fold to constants
//! and no loop counter is kept. `any` and `all` so unrolled also compile
//! as a condition's branch (see [`super::FnCtx::branch_into`]).

use crate::ir::bytecode::{KindId, Op};
use crate::ir::ruleset::{Ty, PLAYER};
use crate::ir::span::Span;
use crate::lang::ast::{Binder, Expr, ExprKind, Source};

use super::context::FnCtx;
use super::Compiler;

/// The most items of a kind that a loop over it is unrolled for.
pub(super) const MAX_UNROLLED_ITEMS: usize = 8;

/// The most instructions one copy of an unrolled loop's body may take.
pub(super) const MAX_UNROLLED_BODY: usize = 48;

impl Compiler<'_> {
    /// The kind a binder ranges over and its number of items, when a loop
    /// over it is unrolled: a bare kind name (not the players: their
    /// number is known when the game starts) of 1 to
    /// [`MAX_UNROLLED_ITEMS`] items.
    fn unrollable(&self, f: &FnCtx, b: &Binder) -> Option<(KindId, usize)> {
        let Source::Expr(e) = &b.source else {
            return None;
        };
        let k = self.kind_source(f, e).filter(|k| *k != PLAYER)?;
        let n = self.kinds.get(k as usize)?.items.len();
        (1..=MAX_UNROLLED_ITEMS).contains(&n).then_some((k, n))
    }

    /// Emits a loop over a binder ranging over a small kind (the players
    /// excepted: their number is known when the game starts) as one copy
    /// of `body` per item, the element a known constant in each (so that
    /// its fields fold to constants). `None`, nothing emitted, when the
    /// binder ranges over anything else, the kind has more than
    /// [`MAX_UNROLLED_ITEMS`] items, or one copy takes more than
    /// [`MAX_UNROLLED_BODY`] instructions or folds no field (then the loop
    /// does as well, in less code). A mistake in the body is reported
    /// once.
    pub(super) fn unrolled_loop(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        value: Option<&Expr>,
        body: &mut impl FnMut(&mut Self, &mut FnCtx, u16),
    ) -> Option<Ty> {
        let (k, n) = self.unrollable(f, b)?;
        let name = b.var.name.as_str();
        let reads = b
            .filter
            .iter()
            .chain(value)
            .any(|e| may_read_field(e, name));
        if f.unrolling || !reads {
            return None;
        }
        f.unrolling = true;
        let kept = self.unroll_copies(f, b, body, (k, n));
        f.unrolling = false;
        kept.then_some(Ty::Ent(k))
    }

    /// The copies of [`Self::unrolled_loop`]; false, nothing emitted, when
    /// the first does not pay.
    fn unroll_copies(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        body: &mut impl FnMut(&mut Self, &mut FnCtx, u16),
        (k, n): (KindId, usize),
    ) -> bool {
        let (mark, reported, inlined) = (f.mark(), self.diags.items.len(), self.inlined);
        let folded = f.folded_fields;
        let slot = f.temp();
        let mut first_reported = reported;
        for item in 0..n {
            let start = f.code.len();
            self.scoped(f, |c, f| {
                f.name_known(&b.var.name, Ty::Ent(k), slot, item as i64);
                let skips = match &b.filter {
                    Some(cond) => c.branch(f, cond, false, cond.span),
                    None => Vec::new(),
                };
                body(c, f, slot);
                for j in skips {
                    f.patch_here(j);
                }
            });
            let pays = f.folded_fields > folded && f.code.len() - start <= MAX_UNROLLED_BODY;
            if item == 0 && !pays {
                f.rewind(mark);
                self.diags.items.truncate(reported);
                self.inlined = inlined;
                return false;
            }
            if item == 0 {
                first_reported = self.diags.items.len();
            }
            self.diags.items.truncate(first_reported);
        }
        true
    }

    /// `any(x in K: e)` (`is_any`) or `all(...)` compiled as a branch
    /// that jumps when the aggregate is `when`, unrolled; returns the
    /// jumps. `None`, nothing emitted, when the loop is not unrolled.
    pub(super) fn decided_unrolled(
        &mut self,
        f: &mut FnCtx,
        is_any: bool,
        b: &Binder,
        e: &Expr,
        (when, sp): (bool, Span),
    ) -> Option<Vec<usize>> {
        let (_, n) = self.unrollable(f, b)?;
        // `any` is decided (true) by an element for which `e` is true,
        // `all` (false) by one for which it is false.
        let decisive = is_any;
        // Past the last element with none deciding, the aggregate is
        // `!is_any`: when that is `when`, the last element's test jumps
        // when it does not decide (unless a filter may skip it).
        let last_jumps = is_any != when && b.filter.is_none();
        let (mut result, mut to_end) = (Vec::new(), Vec::new());
        let mut item = 0;
        let mut element = |c: &mut Self, f: &mut FnCtx, _slot: u16| {
            item += 1;
            if item == n && last_jumps {
                result.extend(c.branch(f, e, !decisive, sp));
            } else if is_any == when {
                result.extend(c.branch(f, e, decisive, sp));
            } else {
                to_end.extend(c.branch(f, e, decisive, sp));
            }
        };
        self.unrolled_loop(f, b, Some(e), &mut element)?;
        if is_any != when && !last_jumps {
            result.push(f.emit(Op::Jump(0), sp));
        }
        for j in to_end {
            f.patch_here(j);
        }
        Some(result)
    }
}

/// Whether `e` may read a field of the item named `name`: it names a
/// field of it, or passes it to a call (whose inlined body may). Checked
/// before a loop is unrolled on trial, to spare compiling its body twice
/// where nothing would fold.
fn may_read_field(e: &Expr, name: &str) -> bool {
    let is_it = |x: &Expr| matches!(&x.kind, ExprKind::Name(id) if id.name == name);
    let any = |xs: &[Expr]| xs.iter().any(|x| may_read_field(x, name));
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Name(_) => false,
        ExprKind::Field(base, _) => is_it(base) || may_read_field(base, name),
        ExprKind::Index(base, idx) => may_read_field(base, name) || any(idx),
        ExprKind::Call(_, args) => args.iter().any(is_it) || any(args),
        ExprKind::Neg(x) | ExprKind::Not(x) => may_read_field(x, name),
        ExprKind::Binary(_, a, b) => may_read_field(a, name) || may_read_field(b, name),
        ExprKind::Cond(c, a, b) => [c, a, b].iter().any(|x| may_read_field(x, name)),
        ExprKind::SetLit(items) => any(items),
        ExprKind::SetBuild(b) => binder_reads(b, None, name),
        ExprKind::Aggregate(_, b, v) => binder_reads(b, v.as_deref(), name),
    }
}

/// [`may_read_field`] in a binder (its source and filter) and the value
/// it folds.
fn binder_reads(b: &Binder, value: Option<&Expr>, name: &str) -> bool {
    let source = match &b.source {
        Source::Range(lo, hi, _) => may_read_field(lo, name) || may_read_field(hi, name),
        Source::Expr(e) => may_read_field(e, name),
    };
    source
        || b.filter
            .iter()
            .chain(value)
            .any(|e| may_read_field(e, name))
}

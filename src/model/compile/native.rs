//! The engine's native instructions for common patterns, chosen by a pure
//! analysis of the syntax (with the symbols and the types of locals and
//! variables) before anything is emitted: each analysis returns a plan,
//! which is then emitted in place of the general form.
//!
//! - `x in kind where v[x] == e` selects natively over the variable
//!   ([`SelectEq`]: `SelectEq`, `CountEq`).
//! - `x in set where c` filters the set's members natively when `c` has a
//!   form [`Filter`] knows (`MembersEq`, `MembersFieldEq`, intersections,
//!   differences).
//! - `{x in K where any(t in s: t.field == x)}` is the image of `s` by an
//!   item field ([`Selection::FieldImage`]: `FieldImage`).

use crate::ir::bytecode::{BinaryOp, KindId, Op, VarId};
use crate::ir::ruleset::Ty;
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::lang::ast::{Aggregate, BinOp, Binder, Expr, ExprKind, Source};

use super::context::FnCtx;
use super::types::is_scalar;
use super::{Compiler, ANY_KIND};

/// `x in kind where v[x] == e`, `v` one-dimensional over that kind, `e`
/// not mentioning `x`: the items whose element equals `e`.
pub(super) struct SelectEq<'e> {
    /// The variable.
    pub(super) var: VarId,
    /// The compared value.
    pub(super) value: &'e Expr,
    /// The kind ranged over.
    pub(super) kind: KindId,
}

/// A filter `c` of `x in set where c` applied natively to a set of items
/// of a known kind on the stack: the set is replaced by its members that
/// pass.
pub(super) enum Filter<'e> {
    /// `v[x] == e` or `x.field == e`, `e` not mentioning `x` (`value`;
    /// none for a boolean `v[x]` or `x.field` alone, compared with true):
    /// `op` is `MembersEq` or `MembersFieldEq`, `ty` the compared type.
    Compare {
        cond: &'e Expr,
        op: Op,
        value: Option<&'e Expr>,
        ty: Ty,
    },
    /// `x in t`, `t` a set named by a local or a variable without indices
    /// (pushed by `load`): the intersection.
    InSet { cond: &'e Expr, load: Op },
    /// `not c`: the set minus its members passing `c`.
    Not {
        cond: &'e Expr,
        inner: Box<Filter<'e>>,
    },
    /// `a and c`, both mentioning `x` and both with a native form: the
    /// set filtered by `a`, then by `c` (each value compared evaluated
    /// once, `a`'s first).
    Both {
        first: Box<Filter<'e>>,
        then: Box<Filter<'e>>,
    },
    /// `a or c`, `a and c`, one side (`once`) not mentioning `x`, evaluated
    /// once: with `or` the set stays whole when it holds, with `and` it
    /// empties when it fails; otherwise the other side (`each`) filters it.
    Either {
        op: BinOp,
        once: &'e Expr,
        each: Box<Filter<'e>>,
    },
}

/// A set builder `{x in S where c}` built natively.
pub(super) enum Selection<'e> {
    /// Selected over a variable.
    Eq(SelectEq<'e>),
    /// `{x in K where any(t in s: t.field == x)}`, `K` a kind and
    /// `t.field` an item of `K`: the values the members of `s` (a set of
    /// `set_kind`) hold.
    FieldImage {
        set: &'e Expr,
        set_kind: KindId,
        field: u16,
        kind: KindId,
    },
    /// Over a set, the filter having a native form's shape: the source is
    /// compiled, then the filter is planned for the set's kind (and
    /// applied member by member if no [`Filter`] fits after all).
    OverSet(&'e Expr),
}

impl Compiler<'_> {
    /// `x in kind where v[x] == e`, if the binder has that form.
    pub(super) fn select_eq<'e>(&self, f: &FnCtx, b: &'e Binder) -> Option<SelectEq<'e>> {
        let Source::Expr(src) = &b.source else {
            return None;
        };
        let kind = self.kind_source(f, src)?;
        let cond = b.filter.as_ref()?;
        let ExprKind::Binary(BinOp::Eq, lhs, rhs) = &cond.kind else {
            return None;
        };
        let ExprKind::Index(base, idx) = &lhs.kind else {
            return None;
        };
        let ExprKind::Name(vname) = &base.kind else {
            return None;
        };
        if idx.len() != 1 || f.lookup(&vname.name).is_some() || !is_name(&idx[0], &b.var.name) {
            return None;
        }
        let Some(Global::Var(v)) = self.symbols.get(&vname.name) else {
            return None;
        };
        let vd = &self.vars[*v as usize];
        if vd.dims.len() != 1
            || vd.dims[0].kind != Some(kind)
            || !is_scalar(&vd.ty)
            || mentions(rhs, &b.var.name)
        {
            return None;
        }
        Some(SelectEq {
            var: *v,
            value: rhs,
            kind,
        })
    }

    /// The native form of the filter `cond` over a set of items of kind
    /// `k` ranged over by `x`, if it has one.
    pub(super) fn filter_plan<'e>(
        &self,
        f: &FnCtx,
        cond: &'e Expr,
        x: &str,
        k: KindId,
    ) -> Option<Filter<'e>> {
        if k == ANY_KIND {
            return None;
        }
        match &cond.kind {
            ExprKind::Binary(op @ (BinOp::Or | BinOp::And), a, c) => {
                let (once, each) = match (mentions(a, x), mentions(c, x)) {
                    (false, true) => (&**a, &**c),
                    (true, false) => (&**c, &**a),
                    (true, true) if *op == BinOp::And => {
                        let first = Box::new(self.filter_plan(f, a, x, k)?);
                        let then = Box::new(self.filter_plan(f, c, x, k)?);
                        return Some(Filter::Both { first, then });
                    }
                    _ => return None,
                };
                let each = Box::new(self.filter_plan(f, each, x, k)?);
                return Some(Filter::Either {
                    op: *op,
                    once,
                    each,
                });
            }
            ExprKind::Not(inner) => {
                let inner = Box::new(self.filter_plan(f, inner, x, k)?);
                return Some(Filter::Not { cond, inner });
            }
            _ => {}
        }
        if let Some(load) = self.member_of_named_set(f, cond, x, k) {
            return Some(Filter::InSet { cond, load });
        }
        let (lhs, value) = match &cond.kind {
            ExprKind::Binary(BinOp::Eq, l, r) => (&**l, Some(&**r)),
            _ => (cond, None),
        };
        if value.is_some_and(|r| mentions(r, x)) {
            return None;
        }
        let (op, ty) = self.member_lhs(f, lhs, x, k)?;
        if value.is_none() && ty != Ty::Bool {
            return None;
        }
        Some(Filter::Compare {
            cond,
            op,
            value,
            ty,
        })
    }

    /// The native form of the requirement `cond` on the numbers `x` of a
    /// range within `0..end`: `v[x] op e`, `op` a comparison, `e` not
    /// mentioning `x`, `v` a one-dimensional variable over numbers from 0
    /// holding every index of the range (integers for `<`, `<=`, `>`,
    /// `>=`), so that no member reads past it.
    pub(super) fn range_filter_plan<'e>(
        &self,
        f: &FnCtx,
        cond: &'e Expr,
        x: &str,
        end: i64,
    ) -> Option<Filter<'e>> {
        let ExprKind::Binary(cmp, lhs, rhs) = &cond.kind else {
            return None;
        };
        let order = matches!(cmp, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
        if !(order || matches!(cmp, BinOp::Eq | BinOp::Ne)) || mentions(rhs, x) {
            return None;
        }
        let ExprKind::Index(base, idx) = &lhs.kind else {
            return None;
        };
        let ExprKind::Name(vname) = &base.kind else {
            return None;
        };
        if idx.len() != 1 || !is_name(&idx[0], x) || f.lookup(&vname.name).is_some() {
            return None;
        }
        let Some(Global::Var(v)) = self.symbols.get(&vname.name) else {
            return None;
        };
        let vd = &self.vars[*v as usize];
        let [d] = vd.dims.as_slice() else {
            return None;
        };
        let holds =
            d.kind.is_none() && d.lo == 0 && usize::try_from(end).is_ok_and(|e| e <= d.size);
        let fits = if order {
            vd.ty == Ty::Int
        } else {
            matches!(vd.ty, Ty::Int | Ty::Bool | Ty::Ent(_))
        };
        if !holds || !fits {
            return None;
        }
        let op = match cmp {
            BinOp::Eq => Op::MembersEq(*v),
            BinOp::Ne => Op::MembersCmp(*v, BinaryOp::Ne),
            BinOp::Lt => Op::MembersCmp(*v, BinaryOp::Lt),
            BinOp::Le => Op::MembersCmp(*v, BinaryOp::Le),
            BinOp::Gt => Op::MembersCmp(*v, BinaryOp::Gt),
            _ => Op::MembersCmp(*v, BinaryOp::Ge),
        };
        Some(Filter::Compare {
            cond,
            op,
            value: Some(rhs),
            ty: vd.ty.clone(),
        })
    }

    /// For a filter `x in t`, `t` a local or a state variable without
    /// indices holding a set of kind `k`: the instruction pushing `t`.
    fn member_of_named_set(&self, f: &FnCtx, cond: &Expr, x: &str, k: KindId) -> Option<Op> {
        let ExprKind::Binary(BinOp::In, l, r) = &cond.kind else {
            return None;
        };
        let (ExprKind::Name(lx), ExprKind::Name(t)) = (&l.kind, &r.kind) else {
            return None;
        };
        if lx.name != x || t.name == x {
            return None;
        }
        if let Some(local) = f.lookup(&t.name) {
            return (local.ty == Ty::Set(k)).then_some(Op::Load(local.slot));
        }
        match self.symbols.get(&t.name) {
            Some(Global::Var(v)) => {
                let vd = &self.vars[*v as usize];
                (vd.dims.is_empty() && vd.ty == Ty::Set(k)).then_some(Op::LoadVar(*v))
            }
            _ => None,
        }
    }

    /// The native test for the left side of a filter (`v[x]` or
    /// `x.field`), with the type of the value compared.
    fn member_lhs(&self, f: &FnCtx, lhs: &Expr, x: &str, k: KindId) -> Option<(Op, Ty)> {
        let plain = |t: &Ty| matches!(t, Ty::Int | Ty::Bool | Ty::Ent(_));
        match &lhs.kind {
            ExprKind::Index(base, idx) if idx.len() == 1 && is_name(&idx[0], x) => {
                let ExprKind::Name(vname) = &base.kind else {
                    return None;
                };
                if f.lookup(&vname.name).is_some() {
                    return None;
                }
                let Some(Global::Var(v)) = self.symbols.get(&vname.name) else {
                    return None;
                };
                let vd = &self.vars[*v as usize];
                let over_k = matches!(vd.dims.as_slice(), [d] if d.kind == Some(k) && d.lo == 0);
                (over_k && plain(&vd.ty)).then(|| (Op::MembersEq(*v), vd.ty.clone()))
            }
            ExprKind::Field(base, field) if is_name(base, x) => {
                if matches!(self.symbols.get(x), Some(Global::Kind(_))) {
                    return None;
                }
                let kind = &self.kinds[k as usize];
                let i = kind.fields.iter().position(|fd| fd.name == field.name)?;
                let ty = &kind.fields[i].ty;
                plain(ty).then(|| (Op::MembersFieldEq(k, i as u16), ty.clone()))
            }
            _ => None,
        }
    }

    /// Whether the filter of `b` has the shape of a native [`Filter`]
    /// (`v[x]...`, `x.field...`, `x in t`), told before its source is
    /// compiled.
    fn member_lhs_shape(&self, b: &Binder) -> bool {
        let Some(cond) = b.filter.as_ref() else {
            return false;
        };
        let x = &b.var.name;
        let lhs = match &cond.kind {
            ExprKind::Binary(BinOp::Eq, l, r) if !mentions(r, x) => &**l,
            ExprKind::Binary(BinOp::In, l, r) => {
                return is_name(l, x) && matches!(r.kind, ExprKind::Name(_)) && !is_name(r, x);
            }
            ExprKind::Binary(..) => return false,
            _ => cond,
        };
        match &lhs.kind {
            ExprKind::Index(base, idx) => {
                idx.len() == 1 && is_name(&idx[0], x) && matches!(base.kind, ExprKind::Name(_))
            }
            ExprKind::Field(base, _) => is_name(base, x),
            _ => false,
        }
    }

    /// How the set builder `b` is built natively, if it can be: over a
    /// kind with `v[x] == e` (tried on `rewritten`, `b` with a boolean
    /// `v[x]` written `v[x] == true`), as a field image, or over a set
    /// with a filter of a native shape.
    pub(super) fn selection_plan<'e>(
        &self,
        f: &FnCtx,
        b: &'e Binder,
        rewritten: Option<&'e Binder>,
    ) -> Option<Selection<'e>> {
        let Source::Expr(src) = &b.source else {
            return None;
        };
        if let Some(s) = self.select_eq(f, rewritten.unwrap_or(b)) {
            return Some(Selection::Eq(s));
        }
        if let Some(k) = self.kind_source(f, src) {
            return self.field_image_plan(f, b, k);
        }
        self.member_lhs_shape(b).then_some(Selection::OverSet(src))
    }

    /// `{x in K where any(t in s: t.field == x)}` over the kind `k`.
    fn field_image_plan<'e>(&self, f: &FnCtx, b: &'e Binder, k: KindId) -> Option<Selection<'e>> {
        let Some(ExprKind::Aggregate(Aggregate::Any, inner, Some(body))) =
            b.filter.as_ref().map(|c| &c.kind)
        else {
            return None;
        };
        let (x, t) = (b.var.name.as_str(), inner.var.name.as_str());
        let ExprKind::Binary(BinOp::Eq, l, r) = &body.kind else {
            return None;
        };
        let field = match (&l.kind, &r.kind) {
            (ExprKind::Field(base, fd), _) if is_name(base, t) && is_name(r, x) => fd,
            (_, ExprKind::Field(base, fd)) if is_name(base, t) && is_name(l, x) => fd,
            _ => return None,
        };
        let Source::Expr(set) = &inner.source else {
            return None;
        };
        if inner.filter.is_some()
            || t == x
            || mentions(set, x)
            || self.kind_source(f, set).is_some()
        {
            return None;
        }
        let set_kind = self.set_kind_of(f, set).filter(|ks| *ks != ANY_KIND)?;
        let fields = &self.kinds[set_kind as usize].fields;
        let i = fields.iter().position(|d| d.name == field.name)?;
        (fields[i].ty == Ty::Ent(k)).then_some(Selection::FieldImage {
            set,
            set_kind,
            field: i as u16,
            kind: k,
        })
    }

    /// The kind of the items of the set `e` denotes, when names alone tell
    /// it: a local, a state variable (indexed or not; a list is read as a
    /// set) or a function's result. `None` for any other expression.
    fn set_kind_of(&self, f: &FnCtx, e: &Expr) -> Option<KindId> {
        let ty = match &e.kind {
            ExprKind::Name(id) => match f.lookup(&id.name) {
                Some(local) => local.ty.clone(),
                None => match self.symbols.get(&id.name)? {
                    Global::Var(v) if self.vars[*v as usize].dims.is_empty() => {
                        self.vars[*v as usize].ty.clone()
                    }
                    _ => return None,
                },
            },
            ExprKind::Index(base, _) => match &base.kind {
                ExprKind::Name(id) if f.lookup(&id.name).is_none() => {
                    match self.symbols.get(&id.name)? {
                        Global::Var(v) => self.vars[*v as usize].ty.clone(),
                        _ => return None,
                    }
                }
                _ => return None,
            },
            ExprKind::Call(name, _) if f.lookup(&name.name).is_none() => {
                match self.symbols.get(&name.name)? {
                    Global::Func(fid) => self.sigs[*fid as usize].ret.clone(),
                    _ => return None,
                }
            }
            _ => return None,
        };
        match ty {
            Ty::Set(k) | Ty::List(k) => Some(k),
            _ => None,
        }
    }

    /// Emits a selection over a variable: the compared value, then `op`
    /// (`SelectEq` or `CountEq`).
    pub(super) fn emit_select_eq(
        &mut self,
        f: &mut FnCtx,
        s: &SelectEq,
        op: fn(VarId) -> Op,
        sp: Span,
    ) {
        let want = self.vars[s.var as usize].ty.clone();
        let got = self.expr(f, s.value);
        self.expect(&want, &got, s.value.span, "the compared value");
        f.emit(op(s.var), sp);
    }

    /// Emits a native filter, the set on the stack.
    pub(super) fn emit_filter(&mut self, f: &mut FnCtx, plan: &Filter) {
        match plan {
            Filter::Compare {
                cond,
                op,
                value,
                ty,
            } => {
                match value {
                    Some(r) => {
                        let got = self.expr(f, r);
                        self.expect(ty, &got, r.span, "the compared value");
                    }
                    None => {
                        f.emit(Op::Const(1), cond.span);
                    }
                }
                f.emit(op.clone(), cond.span);
            }
            Filter::InSet { cond, load } => {
                f.emit(load.clone(), cond.span);
                f.emit(Op::Bin(BinaryOp::And), cond.span);
            }
            Filter::Not { cond, inner } => {
                f.emit(Op::Dup, cond.span);
                self.emit_filter(f, inner);
                f.emit(Op::Bin(BinaryOp::Sub), cond.span);
            }
            Filter::Both { first, then } => {
                self.emit_filter(f, first);
                self.emit_filter(f, then);
            }
            Filter::Either { op, once, each } => {
                self.cond(f, once);
                let sp = once.span;
                let done = if *op == BinOp::Or {
                    f.emit(Op::JumpIf(0), sp)
                } else {
                    let go = f.emit(Op::JumpIf(0), sp);
                    f.emit(Op::Dup, sp);
                    f.emit(Op::Bin(BinaryOp::Sub), sp);
                    let done = f.emit(Op::Jump(0), sp);
                    f.patch_here(go);
                    done
                };
                self.emit_filter(f, each);
                f.patch_here(done);
            }
        }
    }

    /// `{x in S where c}` built natively, when it can be (see
    /// [`Compiler::selection_plan`]); `None`, nothing emitted, otherwise.
    pub(super) fn native_selection(&mut self, f: &mut FnCtx, b: &Binder) -> Option<Ty> {
        let rewritten = b.filter.as_ref().and_then(as_eq_true).map(|c| Binder {
            filter: Some(c),
            ..b.clone()
        });
        let plan = self.selection_plan(f, b, rewritten.as_ref())?;
        Some(self.emit_selection(f, b, plan))
    }

    /// Emits a selection planned for the set builder `b`; returns its type.
    pub(super) fn emit_selection(&mut self, f: &mut FnCtx, b: &Binder, plan: Selection) -> Ty {
        match plan {
            Selection::Eq(s) => {
                self.emit_select_eq(f, &s, Op::SelectEq, b.span);
                Ty::Set(s.kind)
            }
            Selection::FieldImage {
                set,
                set_kind,
                field,
                kind,
            } => {
                self.set_source(f, set);
                f.emit(Op::FieldImage(set_kind, field), b.span);
                Ty::Set(kind)
            }
            Selection::OverSet(src) => {
                let k = self.set_source(f, src);
                let plan = b
                    .filter
                    .as_ref()
                    .and_then(|c| self.filter_plan(f, c, &b.var.name, k));
                match plan {
                    Some(plan) => {
                        self.emit_filter(f, &plan);
                        Ty::Set(k)
                    }
                    // Its kind does not fit a native filter after all.
                    None => self.filter_set_on_stack(f, b, k),
                }
            }
        }
    }
}

/// `v[x]` (a bare indexed variable as a condition) as `v[x] == true`, so
/// that the native selections apply to boolean filters too.
pub(super) fn as_eq_true(cond: &Expr) -> Option<Expr> {
    if !matches!(cond.kind, ExprKind::Index(..)) {
        return None;
    }
    let truth = Expr {
        kind: ExprKind::Bool(true),
        span: cond.span,
    };
    Some(Expr {
        kind: ExprKind::Binary(BinOp::Eq, Box::new(cond.clone()), Box::new(truth)),
        span: cond.span,
    })
}

/// Whether an expression is the bare name `name`.
fn is_name(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Name(n) if n.name == name)
}

/// Whether an expression mentions a name (conservatively: anywhere).
fn mentions(e: &Expr, name: &str) -> bool {
    let m = |x: &Expr| mentions(x, name);
    match &e.kind {
        ExprKind::Name(id) => id.name == name,
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None => false,
        ExprKind::Field(b, _) | ExprKind::Neg(b) | ExprKind::Not(b) => m(b),
        ExprKind::Index(b, idx) => m(b) || idx.iter().any(m),
        ExprKind::Call(_, args) | ExprKind::SetLit(args) => args.iter().any(m),
        ExprKind::Binary(_, a, b) => m(a) || m(b),
        ExprKind::Cond(a, b, c) => m(a) || m(b) || m(c),
        ExprKind::SetBuild(_) | ExprKind::Aggregate(..) => true,
    }
}

//! Expressions: literals, names, fields, indexing, operators, conditional
//! expressions and set literals. Calls, set builders and aggregates have
//! their own files.

use crate::ir::bytecode::{BinaryOp, KindId, Op};
use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, thousands, Diagnostic};
use crate::ir::ruleset::{Ty, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::lang::ast::*;
use crate::model::limits::MAX_LIST;

use super::builtins;
use super::context::FnCtx;
use super::types::{index_hint, is_scalar, op_text, unify};
use super::{Compiler, ANY_KIND};

impl Compiler<'_> {
    /// Compiles an expression, returning its type.
    pub fn expr(&mut self, f: &mut FnCtx, e: &Expr) -> Ty {
        self.depth += 1;
        let t = self.expr_here(f, e);
        self.depth -= 1;
        t
    }

    /// Compiles an expression at the current depth.
    fn expr_here(&mut self, f: &mut FnCtx, e: &Expr) -> Ty {
        let sp = e.span;
        match &e.kind {
            ExprKind::Int(v) => {
                f.emit(Op::Const(*v), sp);
                Ty::Int
            }
            ExprKind::Bool(b) => {
                f.emit(Op::Const(*b as i64), sp);
                Ty::Bool
            }
            ExprKind::None => {
                f.emit(Op::Const(-1), sp);
                Ty::NoneTy
            }
            ExprKind::Name(id) => self.name(f, id),
            ExprKind::Field(base, field) => self.field(f, base, field, sp),
            ExprKind::Index(base, idx) => self.index(f, base, idx, sp),
            ExprKind::Call(name, args) => self.call(f, name, args, sp),
            ExprKind::Neg(x) => {
                let t = self.expr(f, x);
                self.expect(&Ty::Int, &t, x.span, "the operand of `-`");
                f.emit(Op::Neg, sp);
                Ty::Int
            }
            ExprKind::Not(x) => {
                let t = self.expr(f, x);
                self.expect(&Ty::Bool, &t, x.span, "the operand of `not`");
                f.emit(Op::Not, sp);
                Ty::Bool
            }
            ExprKind::Binary(op, a, b) => self.binary(f, *op, a, b, sp),
            ExprKind::Cond(c, a, b) => self.conditional(f, c, a, b, sp),
            ExprKind::SetLit(items) => self.set_literal(f, items, sp),
            ExprKind::SetBuild(b) => self.set_builder(f, b, sp),
            ExprKind::Aggregate(agg, b, body) => self.aggregate(f, *agg, b, body.as_deref(), sp),
        }
    }

    /// `if c then a else b`.
    fn conditional(&mut self, f: &mut FnCtx, c: &Expr, a: &Expr, b: &Expr, sp: Span) -> Ty {
        let skip = self.branch(f, c, false, sp);
        let ta = self.expr(f, a);
        let end = f.emit(Op::Jump(0), sp);
        for j in skip {
            f.patch_here(j);
        }
        let tb = self.expr(f, b);
        f.patch_here(end);
        let t = unify(&ta, &tb);
        if t.is_none() {
            self.err(
                Code::TypeMismatch,
                sp,
                format!(
                    "the two branches differ: {} and {}",
                    self.tn(&ta),
                    self.tn(&tb)
                ),
                "both branches must have the same type",
            );
        }
        t.unwrap_or(Ty::Error)
    }

    /// `{a, b, c}`.
    fn set_literal(&mut self, f: &mut FnCtx, items: &[Expr], sp: Span) -> Ty {
        if items.len() > MAX_LIST {
            return self.err(
                Code::TooLarge,
                sp,
                format!(
                    "a set literal of {} elements: more than {}",
                    thousands(items.len()),
                    thousands(MAX_LIST)
                ),
                "write a set of many items as a kind, a field's value or a set-builder \
                 (docs/LANGUAGE.md, Limits)",
            );
        }
        let mut kind = None;
        for it in items {
            let t = self.expr(f, it);
            match t {
                Ty::Ent(k) => {
                    if kind.is_some_and(|k0| k0 != k) {
                        self.err(
                            Code::TypeMismatch,
                            it.span,
                            "a set holds items of one kind",
                            "split it into two sets",
                        );
                    }
                    kind = Some(k);
                }
                Ty::Error => {}
                other => {
                    self.err(
                        Code::TypeMismatch,
                        it.span,
                        format!("a set holds items, not {}", self.tn(&other)),
                        "use items of a kind",
                    );
                }
            }
        }
        let k = kind.unwrap_or(ANY_KIND);
        f.emit(Op::SetMake(k, items.len() as u16), sp);
        Ty::Set(k)
    }

    /// A name as a value: a local, a builtin value, or a global.
    fn name(&mut self, f: &mut FnCtx, id: &Ident) -> Ty {
        let sp = id.span;
        if let Some(l) = f.lookup(&id.name) {
            let (slot, ty) = (l.slot, l.ty.clone());
            match l.value {
                Some(v) => f.emit(Op::Const(v), sp),
                None => f.emit(Op::Load(slot), sp),
            };
            return ty;
        }
        if let Some(def) = builtins::named(&id.name) {
            return self.builtin_value(f, def, sp);
        }
        match self.symbols.get(&id.name).cloned() {
            Some(Global::Kind(k)) => {
                f.emit(Op::SetAll(k), sp);
                Ty::Set(k)
            }
            Some(Global::Item(k, i)) => {
                f.emit(Op::Const(i), sp);
                Ty::Ent(k)
            }
            Some(Global::Ambiguous(ks)) => {
                let names: Vec<String> = ks
                    .iter()
                    .map(|k| format!("`{}.{}`", self.kinds[*k as usize].name, id.name))
                    .collect();
                self.err(
                    Code::AmbiguousName,
                    sp,
                    format!("`{}` names items of several kinds", id.name),
                    format!("write {}", names.join(" or ")),
                )
            }
            Some(Global::Param(p)) => self.param_value(f, p, id),
            Some(Global::Var(v)) => self.var_value(f, v, id),
            Some(Global::Func(fid)) => self.proc_reference(f, fid, id),
            None => self.unknown(f, id),
        }
    }

    /// A parameter named without a key: its value, when it has one.
    fn param_value(&mut self, f: &mut FnCtx, p: u32, id: &Ident) -> Ty {
        let pd = &self.params[p as usize];
        if is_scalar(&pd.ty) {
            let v = pd.data.int();
            let ty = pd.ty.clone();
            f.emit(Op::Const(v), id.span);
            ty
        } else {
            self.err(
                Code::WrongIndexCount,
                id.span,
                format!("parameter `{}` is a table: index it", id.name),
                format!("write {}[key]", id.name),
            )
        }
    }

    /// A state variable named without indices (a list: the set of its
    /// elements).
    fn var_value(&mut self, f: &mut FnCtx, v: u32, id: &Ident) -> Ty {
        let vd = &self.vars[v as usize];
        if !vd.dims.is_empty() {
            let hint = index_hint(self.kinds, &vd.dims);
            let n = vd.dims.len();
            return self.err(
                Code::WrongIndexCount,
                id.span,
                format!(
                    "`{}` needs {} ind{}",
                    id.name,
                    n,
                    if n == 1 { "ex" } else { "ices" }
                ),
                format!("write {}{hint}", id.name),
            );
        }
        let ty = vd.ty.clone();
        self.load_var(f, v, ty, id.span)
    }

    /// Reads a variable whose indices are pushed (a list is read as the
    /// set of its elements).
    fn load_var(&mut self, f: &mut FnCtx, v: u32, ty: Ty, sp: Span) -> Ty {
        if let Ty::List(k) = ty {
            f.emit(Op::ListSet(v), sp);
            return Ty::Set(k);
        }
        f.emit(Op::LoadVar(v), sp);
        ty
    }

    /// A procedure named as a value (for `call`): one taking a player.
    fn proc_reference(&mut self, f: &mut FnCtx, fid: u32, id: &Ident) -> Ty {
        let sig = &self.sigs[fid as usize];
        if sig.is_proc
            && sig.params.len() == 1
            && sig.params[0].1 == Ty::Ent(PLAYER)
            && sig.ret == Ty::Void
        {
            f.emit(Op::Const(fid as i64), id.span);
            Ty::Proc
        } else {
            self.err(
                Code::MisusedName,
                id.span,
                format!("`{}` is a function: call it", id.name),
                format!("write {}(...)", id.name),
            )
        }
    }

    /// `base.field`, or `kind.item`.
    fn field(&mut self, f: &mut FnCtx, base: &Expr, field: &Ident, sp: Span) -> Ty {
        if let ExprKind::Name(kn) = &base.kind {
            if f.lookup(&kn.name).is_none() {
                if let Some(Global::Kind(k)) = self.symbols.get(&kn.name) {
                    return self.qualified_item(f, *k, field, sp);
                }
            }
        }
        let bt = self.expr(f, base);
        let k = match bt {
            Ty::Ent(k) => k,
            Ty::Error => return Ty::Error,
            other => {
                return self.err(
                    Code::TypeMismatch,
                    base.span,
                    format!("{} has no fields", self.tn(&other)),
                    "fields belong to items of a kind",
                );
            }
        };
        let kind = &self.kinds[k as usize];
        let Some(i) = kind.fields.iter().position(|fd| fd.name == field.name) else {
            return self.unknown_field(k, field);
        };
        let ty = kind.fields[i].ty.clone();
        if is_scalar(&ty) {
            // The field of a constant item (`kind.item.f`, an unrolled
            // loop's element) is the constant of the kind's data.
            let known = |e: i64| {
                let row = usize::try_from(e).ok().filter(|&e| e < kind.items.len())?;
                (k != PLAYER).then(|| kind.data.get(row)?.get(i).map(|d| d.int()))?
            };
            let taken = f.take_const();
            match taken.and_then(known) {
                Some(v) => {
                    f.folded_fields += 1;
                    f.emit(Op::Const(v), sp)
                }
                None => {
                    if let Some(e) = taken {
                        f.emit(Op::Const(e), sp);
                    }
                    f.emit(Op::Field(k, i as u16), sp)
                }
            };
            ty
        } else {
            self.err(
                Code::WrongIndexCount,
                sp,
                format!("field `{}` is a table: index it", field.name),
                format!("write ….{}[key]", field.name),
            )
        }
    }

    /// `kind.item`.
    fn qualified_item(&mut self, f: &mut FnCtx, k: KindId, item: &Ident, sp: Span) -> Ty {
        let kind = &self.kinds[k as usize];
        match kind.items.iter().position(|i| *i == item.name) {
            Some(i) => {
                f.emit(Op::Const(i as i64), sp);
                Ty::Ent(k)
            }
            None => {
                let help = did_you_mean(&item.name, kind.items.iter().map(|s| s.as_str()))
                    .unwrap_or_else(|| {
                        format!("the items of `{}` are listed in its YAML file", kind.name)
                    });
                self.err(
                    Code::UnknownItem,
                    item.span,
                    format!("`{}` has no item `{}`", kind.name, item.name),
                    help,
                )
            }
        }
    }

    fn unknown_field(&mut self, k: KindId, field: &Ident) -> Ty {
        let kind = &self.kinds[k as usize];
        let names: Vec<&str> = kind.fields.iter().map(|fd| fd.name.as_str()).collect();
        let help = did_you_mean(&field.name, names.iter().copied()).unwrap_or_else(|| {
            if names.is_empty() {
                format!("`{}` has no fields", kind.name)
            } else {
                format!("the fields of `{}` are: {}", kind.name, names.join(", "))
            }
        });
        self.diags.push(
            Diagnostic::new(
                Code::UnknownField,
                field.span,
                format!("`{}` has no field `{}`", kind.name, field.name),
            )
            .label("unknown field")
            .help(help),
        );
        Ty::Error
    }

    /// `base[i, ...]`: a state variable, a parameter table or a table field.
    fn index(&mut self, f: &mut FnCtx, base: &Expr, idx: &[Expr], sp: Span) -> Ty {
        match &base.kind {
            ExprKind::Name(id) if f.lookup(&id.name).is_none() => {
                match self.symbols.get(&id.name).cloned() {
                    Some(Global::Var(v)) => {
                        self.indices(f, v, idx, sp);
                        let ty = self.vars[v as usize].ty.clone();
                        return self.load_var(f, v, ty, sp);
                    }
                    Some(Global::Param(p)) => {
                        let ty = self.params[p as usize].ty.clone();
                        return self.table_index(f, &ty, idx, sp, Op::ParamIndex(p));
                    }
                    _ => {}
                }
            }
            ExprKind::Field(inner, field) => return self.field_index(f, inner, field, idx, sp),
            _ => {}
        }
        self.err(
            Code::NotIndexable,
            base.span,
            "only state variables, parameters and table fields can be indexed",
            "index a `var`, a `params:` table or a field like `b.cost[wood]`",
        )
    }

    /// `item.field[key]`.
    fn field_index(
        &mut self,
        f: &mut FnCtx,
        inner: &Expr,
        field: &Ident,
        idx: &[Expr],
        sp: Span,
    ) -> Ty {
        let bt = self.expr(f, inner);
        if let Ty::Ent(k) = bt {
            let kind = &self.kinds[k as usize];
            if let Some(i) = kind.fields.iter().position(|fd| fd.name == field.name) {
                let ty = kind.fields[i].ty.clone();
                return self.table_index(f, &ty, idx, sp, Op::FieldIndex(k, i as u16));
            }
            return self.err(
                Code::UnknownField,
                field.span,
                format!("`{}` has no field `{}`", kind.name, field.name),
                "check the kind's `fields:`",
            );
        }
        if bt != Ty::Error {
            self.err(
                Code::TypeMismatch,
                inner.span,
                format!("{} has no fields", self.tn(&bt)),
                "fields belong to items of a kind",
            );
        }
        Ty::Error
    }

    /// Looks a key up in a table of type `ty` with the instruction `op`.
    fn table_index(&mut self, f: &mut FnCtx, ty: &Ty, idx: &[Expr], sp: Span, op: Op) -> Ty {
        let (key, val) = match ty {
            Ty::Array(v) => (Ty::Int, (**v).clone()),
            Ty::Map(k, v) => ((**k).clone(), (**v).clone()),
            Ty::Error => return Ty::Error,
            other => {
                return self.err(
                    Code::NotIndexable,
                    sp,
                    format!("{} cannot be indexed", self.tn(other)),
                    "only tables and arrays take `[key]`",
                )
            }
        };
        if idx.len() != 1 {
            return self.err(
                Code::WrongIndexCount,
                sp,
                "a table takes one key",
                "write table[key]",
            );
        }
        let got = self.expr(f, &idx[0]);
        self.expect(&key, &got, idx[0].span, "the key");
        f.emit(op, sp);
        val
    }

    /// Pushes and checks the indices of a variable.
    pub(super) fn indices(&mut self, f: &mut FnCtx, var: u32, idx: &[Expr], span: Span) {
        let vd = &self.vars[var as usize];
        let dims = vd.dims.clone();
        let name = vd.name.clone();
        if idx.len() != dims.len() {
            self.err(
                Code::WrongIndexCount,
                span,
                format!(
                    "`{name}` has {} ind{}, but {} given",
                    dims.len(),
                    if dims.len() == 1 { "ex" } else { "ices" },
                    idx.len()
                ),
                format!("write {name}{}", index_hint(self.kinds, &dims)),
            );
            return;
        }
        for (e, d) in idx.iter().zip(&dims) {
            let got = self.expr(f, e);
            if d.kind == Some(ANY_KIND) {
                continue; // its kind is unknown: reported at the declaration
            }
            let want = d.kind.map_or(Ty::Int, Ty::Ent);
            self.expect(&want, &got, e.span, "this index");
        }
    }

    /// The variable id of a list place (`deck` or `deck[age]`), with its
    /// indices pushed, and the kind of its items.
    pub(super) fn list_place(&mut self, f: &mut FnCtx, e: &Expr) -> Option<(u32, KindId)> {
        let not_a_list = |c: &mut Self| {
            c.err(
                Code::TypeMismatch,
                e.span,
                "expected a list variable",
                "lists are state variables declared `var x: list<kind>`",
            );
            None
        };
        let (id, idx): (&Ident, &[Expr]) = match &e.kind {
            ExprKind::Name(id) => (id, &[]),
            ExprKind::Index(b, idx) => match &b.kind {
                ExprKind::Name(id) => (id, idx.as_slice()),
                _ => return not_a_list(self),
            },
            _ => return not_a_list(self),
        };
        match self.symbols.get(&id.name).cloned() {
            Some(Global::Var(v)) if f.lookup(&id.name).is_none() => {
                if let Ty::List(k) = self.vars[v as usize].ty {
                    self.indices(f, v, idx, e.span);
                    Some((v, k))
                } else {
                    self.err(
                        Code::TypeMismatch,
                        e.span,
                        format!("`{}` is not a list", id.name),
                        "declare it `var x: list<kind>`",
                    );
                    None
                }
            }
            None if f.lookup(&id.name).is_none() => {
                self.unknown(f, id);
                None
            }
            _ => {
                self.err(
                    Code::TypeMismatch,
                    e.span,
                    format!("`{}` is not a list variable", id.name),
                    "lists are state variables declared `var x: list<kind>`",
                );
                None
            }
        }
    }

    /// Reports an unknown name, with the closest known one as help.
    pub(super) fn unknown(&mut self, f: &FnCtx, id: &Ident) -> Ty {
        let declare =
            "declare it with `var`, `fn`, `proc`, or under `kinds:`/`params:` in a YAML file";
        let help = if self.wants_help() {
            let locals = f
                .locals
                .iter()
                .filter(|l| !l.name.is_empty())
                .map(|l| l.name.as_str());
            let cands: Vec<&str> = locals
                .chain(self.symbols.names())
                .chain(builtins::value_names().map(|n| -> &str { n }))
                .collect();
            did_you_mean(&id.name, cands).unwrap_or_else(|| declare.into())
        } else {
            declare.into()
        };
        self.diags.push(
            Diagnostic::new(
                Code::UnknownName,
                id.span,
                format!("unknown name `{}`", id.name),
            )
            .label("not defined")
            .help(help),
        );
        Ty::Error
    }

    /// A binary operator.
    fn binary(&mut self, f: &mut FnCtx, op: BinOp, a: &Expr, b: &Expr, sp: Span) -> Ty {
        match op {
            BinOp::And | BinOp::Or => self.short_circuit(f, op, a, b, sp),
            BinOp::In => self.membership(f, a, b, sp),
            BinOp::Eq | BinOp::Ne => self.equality(f, op, a, b, sp),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => self.ordering(f, op, a, b, sp),
            _ => self.arithmetic(f, op, a, b, sp),
        }
    }

    /// `a and b`, `a or b`: `b` is evaluated only when it decides.
    fn short_circuit(&mut self, f: &mut FnCtx, op: BinOp, a: &Expr, b: &Expr, sp: Span) -> Ty {
        self.cond(f, a);
        f.emit(Op::Dup, sp);
        let decided = if op == BinOp::And {
            Op::JumpIfNot(0)
        } else {
            Op::JumpIf(0)
        };
        let j = f.emit(decided, sp);
        f.emit(Op::Pop, sp);
        self.cond(f, b);
        f.patch_here(j);
        Ty::Bool
    }

    /// `item in set`.
    fn membership(&mut self, f: &mut FnCtx, a: &Expr, b: &Expr, sp: Span) -> Ty {
        let ta = self.expr(f, a);
        let tb = self.expr(f, b);
        match (&ta, &tb) {
            (Ty::Ent(k), Ty::Set(k2)) if k == k2 || *k2 == ANY_KIND => {}
            (Ty::Error, _) | (_, Ty::Error) | (Ty::NoneTy, Ty::Set(_)) => {}
            _ => {
                self.err(
                    Code::BadOperands,
                    sp,
                    format!(
                        "`in` needs an item and a set of its kind, not {} and {}",
                        self.tn(&ta),
                        self.tn(&tb)
                    ),
                    "write item in set",
                );
            }
        }
        f.emit(Op::SetIn, sp);
        Ty::Bool
    }

    /// `a == b`, `a != b`.
    fn equality(&mut self, f: &mut FnCtx, op: BinOp, a: &Expr, b: &Expr, sp: Span) -> Ty {
        let (ta, tb, _) = self.operands(f, a, b, true);
        if unify(&ta, &tb).is_none() {
            self.err(
                Code::BadOperands,
                sp,
                format!("cannot compare {} with {}", self.tn(&ta), self.tn(&tb)),
                "compare values of the same type",
            );
        } else if ta == Ty::Text || tb == Ty::Text {
            self.err(
                Code::BadOperands,
                sp,
                "texts are for display and cannot be compared",
                "compare items or numbers instead",
            );
        }
        f.emit(Op::Bin(op.into()), sp);
        Ty::Bool
    }

    /// `<`, `<=`, `>`, `>=`: two ints, or two items of one kind.
    fn ordering(&mut self, f: &mut FnCtx, op: BinOp, a: &Expr, b: &Expr, sp: Span) -> Ty {
        let (ta, tb, swapped) = self.operands(f, a, b, true);
        let ok = matches!(
            (&ta, &tb),
            (Ty::Int, Ty::Int) | (Ty::Error, _) | (_, Ty::Error)
        ) || matches!((&ta, &tb), (Ty::Ent(x), Ty::Ent(y)) if x == y);
        if !ok {
            self.err(
                Code::BadOperands,
                sp,
                format!("cannot order {} and {}", self.tn(&ta), self.tn(&tb)),
                "compare two ints (or two items of one kind)",
            );
        }
        let op: BinaryOp = op.into();
        f.emit(Op::Bin(if swapped { mirrored(op) } else { op }), sp);
        Ty::Bool
    }

    /// Compiles the operands of a binary operator; returns their types.
    /// A constant written on the left of an operator that may take its
    /// operands the other way round (`commutes`) is pushed last, so that
    /// the operation fuses with it (`1 + x` runs as `x + 1`); the third
    /// result tells whether they were swapped. A constant has no effect
    /// and no diagnostic, so the order of what is run and reported is kept.
    fn operands(&mut self, f: &mut FnCtx, a: &Expr, b: &Expr, commutes: bool) -> (Ty, Ty, bool) {
        if commutes && is_literal(a) && !is_literal(b) {
            let tb = self.expr(f, b);
            let ta = self.expr(f, a);
            return (ta, tb, true);
        }
        let ta = self.expr(f, a);
        let tb = self.expr(f, b);
        (ta, tb, false)
    }

    /// `+ - * / %` on ints; `+`, `-` and `*` also join, subtract and
    /// intersect sets.
    fn arithmetic(&mut self, f: &mut FnCtx, op: BinOp, a: &Expr, b: &Expr, sp: Span) -> Ty {
        let (ta, tb, _) = self.operands(f, a, b, matches!(op, BinOp::Add | BinOp::Mul));
        let sets = matches!((&ta, &tb), (Ty::Set(_), Ty::Set(_)));
        let lowered = if sets && op == BinOp::Mul {
            // The interpreter's `and` of two sets is their intersection.
            BinaryOp::And
        } else {
            op.into()
        };
        f.emit(Op::Bin(lowered), sp);
        match (&ta, &tb) {
            (Ty::Int, Ty::Int) => Ty::Int,
            (Ty::Set(x), Ty::Set(y)) if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) => {
                if *x == ANY_KIND {
                    Ty::Set(*y)
                } else {
                    if *y != ANY_KIND && x != y {
                        self.err(
                            Code::BadOperands,
                            sp,
                            "sets of different kinds",
                            "combine sets of one kind",
                        );
                    }
                    Ty::Set(*x)
                }
            }
            (Ty::Error, _) | (_, Ty::Error) => Ty::Error,
            _ => self.err(
                Code::BadOperands,
                sp,
                format!(
                    "cannot apply `{}` to {} and {}",
                    op_text(op),
                    self.tn(&ta),
                    self.tn(&tb)
                ),
                "arithmetic needs ints; `+`, `-` and `*` also join, subtract and intersect sets",
            ),
        }
    }
}

/// Whether an expression is a constant written out (an integer, a
/// boolean, `none`, a negated integer).
fn is_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None => true,
        ExprKind::Neg(x) => matches!(x.kind, ExprKind::Int(_)),
        _ => false,
    }
}

/// The comparison of `b` with `a` that `op` is of `a` with `b`.
fn mirrored(op: BinaryOp) -> BinaryOp {
    use BinaryOp::*;
    match op {
        Lt => Gt,
        Gt => Lt,
        Le => Ge,
        Ge => Le,
        other => other,
    }
}

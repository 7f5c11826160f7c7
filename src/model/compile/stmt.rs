//! Statements: blocks, `let`, assignments, control flow, `require`,
//! `fail`, `legal`, `return` and calls as statements.

use crate::ir::bytecode::{BinaryOp, Op};
use crate::ir::codes::Code;
use crate::ir::ruleset::Ty;
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::lang::ast::*;

use super::context::FnCtx;
use super::types::resolve_type;
use super::{Compiler, ANY_KIND};

impl Compiler<'_> {
    /// A block, in a scope of its own.
    pub(super) fn block(&mut self, f: &mut FnCtx, b: &Block) {
        self.scoped(f, |c, f| {
            for s in &b.stmts {
                c.stmt(f, s);
            }
        });
    }

    /// One statement.
    pub(super) fn stmt(&mut self, f: &mut FnCtx, s: &Stmt) {
        self.depth += 1;
        self.stmt_here(f, s);
        self.depth -= 1;
    }

    /// One statement at the current depth.
    fn stmt_here(&mut self, f: &mut FnCtx, s: &Stmt) {
        let sp = s.span;
        match &s.kind {
            StmtKind::Let(name, ty, e) => self.let_stmt(f, name, ty.as_ref(), e, sp),
            StmtKind::Assign(place, op, e) => self.assign(f, place, *op, e, sp),
            StmtKind::If(c, then, els) => self.if_stmt(f, c, then, els.as_ref(), sp),
            StmtKind::While(c, body) => {
                let top = f.here();
                let exits = self.branch(f, c, false, sp);
                self.loop_body(f, top, exits, body, sp);
            }
            StmtKind::Loop(body) => {
                let top = f.here();
                self.loop_body(f, top, vec![], body, sp);
            }
            StmtKind::For(b, body) => {
                self.scoped(f, |c, f| {
                    c.binder_loop(f, b, true, |c, f, _| c.block(f, body));
                });
            }
            StmtKind::Choose(ch) => self.choose(f, ch, sp),
            StmtKind::Require(c, msg) => {
                let negated = match &c.kind {
                    ExprKind::Not(x) => {
                        // One level deeper, as when `not` is compiled as a value.
                        self.depth += 1;
                        let t = self.expr(f, x);
                        self.depth -= 1;
                        self.expect(&Ty::Bool, &t, x.span, "the operand of `not`");
                        Some(x)
                    }
                    _ => {
                        self.cond(f, c);
                        None
                    }
                };
                let text = msg
                    .clone()
                    .unwrap_or_else(|| format!("requires {}", self.diags.sources.slice(c.span)));
                let id = self.message(&text, c.span);
                match negated {
                    Some(x) => self.require_not(f, x, id, c.span),
                    None => {
                        f.emit(Op::Require(id), c.span);
                    }
                }
            }
            StmtKind::Fail(msg) => {
                let id = self.message(msg, sp);
                f.emit(Op::Fail(id), sp);
            }
            StmtKind::Legal => self.legal(f, sp),
            StmtKind::Return(e) => self.return_stmt(f, e.as_ref(), sp),
            StmtKind::Break => self.break_stmt(f, sp),
            StmtKind::Continue => self.continue_stmt(f, sp),
            StmtKind::Expr(e) => self.expr_stmt(f, e, sp),
        }
    }

    fn let_stmt(&mut self, f: &mut FnCtx, name: &Ident, ty: Option<&TypeExpr>, e: &Expr, sp: Span) {
        let got = self.expr(f, e);
        let ty = match ty {
            Some(t) => {
                let want = resolve_type(self.diags, self.symbols, self.kinds, t);
                self.expect(&want, &got, e.span, "the value");
                want
            }
            None => {
                if got == Ty::NoneTy {
                    self.err(
                        Code::CannotInferType,
                        e.span,
                        "the type of `none` is unknown here",
                        "write `let x: kind = none;`",
                    );
                }
                got
            }
        };
        let slot = f.declare(&name.name, ty);
        f.emit(Op::Store(slot), sp);
    }

    fn if_stmt(&mut self, f: &mut FnCtx, c: &Expr, then: &Block, els: Option<&Block>, sp: Span) {
        let skip = self.branch(f, c, false, sp);
        self.block(f, then);
        let end = els.map(|_| f.emit(Op::Jump(0), sp));
        for j in skip {
            f.patch_here(j);
        }
        if let (Some(els), Some(end)) = (els, end) {
            self.block(f, els);
            f.patch_here(end);
        }
    }

    /// The body of `while` or `loop`, jumping back to `top`.
    fn loop_body(&mut self, f: &mut FnCtx, top: u32, exits: Vec<usize>, body: &Block, sp: Span) {
        self.breakable(f, top, exits, |c, f| {
            c.block(f, body);
            f.emit(Op::Jump(top), sp);
        });
    }

    /// `require not x`, the value of `x` pushed, its message `id`: a
    /// comparison is turned into its opposite, a constant decides now,
    /// and any other value jumps over a `Fail` when it is false (no `not`
    /// is run).
    fn require_not(&mut self, f: &mut FnCtx, x: &Expr, id: u32, sp: Span) {
        if let Some(v) = f.take_const() {
            if v != 0 {
                f.emit(Op::Fail(id), sp);
            }
            return;
        }
        if f.flip_comparison(x) {
            f.emit(Op::Require(id), sp);
            return;
        }
        let ok = f.emit(Op::JumpIfNot(0), sp);
        f.emit(Op::Fail(id), sp);
        f.patch_here(ok);
    }

    fn legal(&mut self, f: &mut FnCtx, sp: Span) {
        if !f.is_proc {
            self.err(
                Code::MisplacedStatement,
                sp,
                "`legal` in a function",
                "`legal;` marks where an option of a `choose` is decided: write it in a `proc`",
            );
        }
        let id = self.message("the option was declared legal here", sp);
        f.emit(Op::Legal(id), sp);
    }

    fn return_stmt(&mut self, f: &mut FnCtx, e: Option<&Expr>, sp: Span) {
        let want = f.ret.clone();
        match e {
            Some(e) => {
                let got = self.expr(f, e);
                if want == Ty::Void {
                    self.err(
                        Code::TypeMismatch,
                        e.span,
                        "this procedure returns nothing",
                        "write `return;` or declare `-> type`",
                    );
                } else {
                    self.expect(&want, &got, e.span, "the returned value");
                }
            }
            None => {
                if want != Ty::Void {
                    self.err(
                        Code::TypeMismatch,
                        sp,
                        "a value must be returned",
                        "write `return value;`",
                    );
                    f.emit(Op::Const(0), sp);
                }
            }
        }
        f.emit(Op::Ret, sp);
    }

    fn break_stmt(&mut self, f: &mut FnCtx, sp: Span) {
        if !f.in_loop() {
            self.err(
                Code::MisplacedStatement,
                sp,
                "`break` outside a loop",
                "use `break` inside `loop`, `while` or `for`",
            );
        } else {
            let j = f.emit(Op::Jump(0), sp);
            f.add_break(j);
        }
    }

    fn continue_stmt(&mut self, f: &mut FnCtx, sp: Span) {
        match f.continue_target() {
            None => {
                self.err(
                    Code::MisplacedStatement,
                    sp,
                    "`continue` outside a loop",
                    "use `continue` inside `loop`, `while` or `for`",
                );
            }
            Some(t) => {
                f.emit(Op::Jump(t), sp);
            }
        }
    }

    fn expr_stmt(&mut self, f: &mut FnCtx, e: &Expr, sp: Span) {
        let t = self.expr(f, e);
        if !matches!(e.kind, ExprKind::Call(..)) {
            self.err(
                Code::UselessExpression,
                e.span,
                "this expression does nothing",
                "a statement is an assignment, a call, or a control statement",
            );
        }
        if t != Ty::Void {
            f.emit(Op::Pop, sp);
        }
    }

    /// A condition: a bool on the stack.
    pub(super) fn cond(&mut self, f: &mut FnCtx, c: &Expr) {
        let t = self.expr(f, c);
        self.expect(&Ty::Bool, &t, c.span, "a condition");
    }

    fn assign(&mut self, f: &mut FnCtx, place: &Place, op: AssignOp, e: &Expr, sp: Span) {
        let name = &place.name.name;
        if f.lookup(name).is_some() {
            return self.assign_local(f, place, op, e, sp);
        }
        let var = match self.symbols.get(name) {
            Some(Global::Var(v)) => *v,
            Some(_) => {
                self.err(
                    Code::MisusedName,
                    place.name.span,
                    format!("`{name}` cannot be assigned"),
                    "only locals and state variables (`var`) can be assigned",
                );
                return;
            }
            None => {
                self.unknown(f, &place.name);
                return;
            }
        };
        if !f.is_proc {
            self.err(
                Code::ImpureFunction,
                sp,
                "a function cannot change the state",
                "use a `proc` to change state variables",
            );
        }
        let ty = self.vars[var as usize].ty.clone();
        if op != AssignOp::Set && ty == Ty::Int {
            self.indices(f, var, &place.indices, place.span);
            let got = self.expr(f, e);
            self.expect(&Ty::Int, &got, e.span, "the added value");
            if op == AssignOp::Sub {
                f.emit(Op::Neg, sp);
            }
            f.emit(Op::AddVar(var), sp);
            return;
        }
        if matches!(ty, Ty::List(_)) {
            self.err(
                Code::BadOperands,
                sp,
                "a list cannot be assigned",
                "use push(list, x), draw(list), remove(list, x) or clear(list)",
            );
            return;
        }
        if self.assign_bit(f, (var, place), op, e, sp) {
            return;
        }
        if op == AssignOp::Set {
            self.indices(f, var, &place.indices, place.span);
            let got = self.expr(f, e);
            self.expect(&ty, &got, e.span, "the assigned value");
            f.emit(Op::StoreVar(var), sp);
            return;
        }
        self.update_set_var(f, var, place, op, e, sp);
    }

    /// `local = e`, `local += e`, `local -= e`.
    fn assign_local(&mut self, f: &mut FnCtx, place: &Place, op: AssignOp, e: &Expr, sp: Span) {
        let name = &place.name.name;
        if !place.indices.is_empty() {
            self.err(
                Code::NotIndexable,
                place.span,
                format!("`{name}` is a local value and cannot be indexed"),
                "only state variables have indices",
            );
            return;
        }
        let local = f.lookup(name).expect("checked by the caller");
        let (slot, ty) = (local.slot, local.ty.clone());
        if op != AssignOp::Set {
            f.emit(Op::Load(slot), sp);
        }
        let got = self.expr(f, e);
        let ty = match (&ty, &got) {
            // `{}` learns its kind from the first typed set assigned.
            (Ty::Set(ANY_KIND), Ty::Set(k)) => {
                let k = *k;
                if let Some(l) = f.locals.iter_mut().rev().find(|l| l.slot == slot) {
                    l.ty = Ty::Set(k);
                }
                Ty::Set(k)
            }
            _ => ty,
        };
        self.expect(&ty, &got, e.span, "the assigned value");
        self.arith_assign(f, op, &ty, sp);
        f.emit(Op::Store(slot), sp);
    }

    /// `v[i] += s` or `v[i] -= s` on a variable not an integer: a set is
    /// changed where it lies (`VarMerge`); another type (a mistake that
    /// `arith_assign` reports) has its indices evaluated once, into
    /// temporaries.
    fn update_set_var(
        &mut self,
        f: &mut FnCtx,
        var: u32,
        place: &Place,
        op: AssignOp,
        e: &Expr,
        sp: Span,
    ) {
        let ty = &self.vars[var as usize].ty.clone();
        if let Ty::Set(_) = ty {
            // The members put in or taken out where the set lies.
            self.indices(f, var, &place.indices, place.span);
            let got = self.expr(f, e);
            self.expect(ty, &got, e.span, "the operand");
            f.emit(Op::VarMerge(var, op == AssignOp::Add), sp);
            return;
        }
        let temps: Vec<u16> = place.indices.iter().map(|_| f.temp()).collect();
        self.indices(f, var, &place.indices, place.span);
        for t in temps.iter().rev() {
            f.emit(Op::Store(*t), sp);
        }
        for t in &temps {
            f.emit(Op::Load(*t), sp);
        }
        for t in &temps {
            f.emit(Op::Load(*t), sp);
        }
        f.emit(Op::LoadVar(var), sp);
        let got = self.expr(f, e);
        self.expect(ty, &got, e.span, "the operand");
        self.arith_assign(f, op, ty, sp);
        f.emit(Op::StoreVar(var), sp);
    }

    fn arith_assign(&mut self, f: &mut FnCtx, op: AssignOp, ty: &Ty, sp: Span) {
        let bin = match op {
            AssignOp::Set => return,
            AssignOp::Add => BinaryOp::Add,
            AssignOp::Sub => BinaryOp::Sub,
        };
        if !matches!(ty, Ty::Int | Ty::Set(_) | Ty::Error) {
            self.err(
                Code::BadOperands,
                sp,
                format!("`+=` and `-=` need an int or a set, not {}", self.tn(ty)),
                "use `=`",
            );
        }
        f.emit(Op::Bin(bin), sp);
    }
}

//! Resolves names, type-checks and compiles function bodies to bytecode.
//!
//! One pass over each body does all three: every expression is resolved
//! and typed as its code is emitted; a mistake is recorded as a diagnostic
//! and compilation goes on with an error type, so one load reports all.

use crate::ir::bytecode::{BinaryOp, Builtin, Func, KindId, Op};
use crate::ir::diag::{did_you_mean, Diagnostic, Diagnostics};
use crate::ir::ruleset::{ArmDef, ChoiceDef, Kind, LightArm, ParamDef, Ty, VarDef, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::{Global, Sig, Symbols, RESERVED};
use crate::lang::ast::*;

/// Marks the element kind of `{}` until it meets a typed set.
pub const ANY_KIND: KindId = u16::MAX;

/// Everything a body may refer to, and where compiled code goes.
pub struct Compiler<'a> {
    /// Diagnostics sink.
    pub diags: &'a mut Diagnostics,
    /// Kinds (index 0: players).
    pub kinds: &'a [Kind],
    /// Parameters.
    pub params: &'a [ParamDef],
    /// State variables.
    pub vars: &'a [VarDef],
    /// Global names.
    pub symbols: &'a Symbols,
    /// Signatures, by function id.
    pub sigs: &'a [Sig],
    /// Decision points found so far.
    pub choices: Vec<ChoiceDef>,
    /// Failure messages found so far.
    pub messages: Vec<(String, Span)>,
    /// The bodies of pure functions, by function id, for inlining calls.
    pub fn_bodies: &'a [Option<&'a Expr>],
    /// Functions being inlined (no recursion into them).
    pub inlining: Vec<u32>,
}

struct Local {
    name: String,
    ty: Ty,
    slot: u16,
}

struct LoopCtx {
    continue_to: u32,
    breaks: Vec<usize>,
}

/// The function being compiled.
pub struct FnCtx {
    code: Vec<Op>,
    spans: Vec<Span>,
    locals: Vec<Local>,
    nlocals: u16,
    loops: Vec<LoopCtx>,
    is_proc: bool,
    ret: Ty,
}

impl FnCtx {
    /// A context for a body with these parameters.
    pub fn new(params: &[(String, Ty)], ret: Ty, is_proc: bool) -> FnCtx {
        let mut f = FnCtx {
            code: Vec::new(),
            spans: Vec::new(),
            locals: Vec::new(),
            nlocals: 0,
            loops: Vec::new(),
            is_proc,
            ret,
        };
        for (n, t) in params {
            f.declare(n, t.clone());
        }
        f
    }

    /// Where the function stands: code, locals.
    fn mark(&self) -> (usize, usize, u16) {
        (self.code.len(), self.locals.len(), self.nlocals)
    }

    /// Drops the code and locals added since `mark` (an attempt given up).
    fn rollback(&mut self, mark: (usize, usize, u16)) {
        self.code.truncate(mark.0);
        self.spans.truncate(mark.0);
        self.locals.truncate(mark.1);
        self.nlocals = mark.2;
    }

    fn emit(&mut self, op: Op, span: Span) -> usize {
        self.code.push(op);
        self.spans.push(span);
        self.code.len() - 1
    }

    fn here(&self) -> u32 {
        self.code.len() as u32
    }

    fn patch(&mut self, at: usize, target: u32) {
        match &mut self.code[at] {
            Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfNot(t) => *t = target,
            _ => {}
        }
    }

    fn declare(&mut self, name: &str, ty: Ty) -> u16 {
        let slot = self.nlocals;
        self.nlocals += 1;
        self.locals.push(Local {
            name: name.to_string(),
            ty,
            slot,
        });
        slot
    }

    fn temp(&mut self) -> u16 {
        self.declare("", Ty::Int)
    }

    fn lookup(&self, name: &str) -> Option<&Local> {
        self.locals.iter().rev().find(|l| l.name == name)
    }

    /// Finishes into a function.
    pub fn finish(mut self, name: &str, arity: usize, span: Span) -> Func {
        let returns = self.ret != Ty::Void;
        if returns {
            self.emit(Op::Const(0), span);
        }
        self.emit(Op::Ret, span);
        crate::ir::bytecode::fuse(&mut self.code);
        Func {
            name: name.to_string(),
            arity,
            nlocals: self.nlocals as usize,
            returns,
            is_proc: self.is_proc,
            code: self.code,
            spans: self.spans,
            span,
        }
    }
}

/// Human name of a type, for messages.
pub fn ty_name(kinds: &[Kind], t: &Ty) -> String {
    let k = |k: &KindId| {
        if *k == ANY_KIND {
            "?".to_string()
        } else {
            kinds[*k as usize].name.clone()
        }
    };
    match t {
        Ty::Int => "int".into(),
        Ty::Bool => "bool".into(),
        Ty::Text => "text".into(),
        Ty::Proc => "proc".into(),
        Ty::Ent(x) => k(x),
        Ty::Set(x) => format!("set<{}>", k(x)),
        Ty::List(x) => format!("list<{}>", k(x)),
        Ty::Array(t) => format!("[{}]", ty_name(kinds, t)),
        Ty::Map(a, b) => format!("{{{}: {}}}", ty_name(kinds, a), ty_name(kinds, b)),
        Ty::NoneTy => "none".into(),
        Ty::Void => "nothing".into(),
        Ty::Error => "?".into(),
    }
}

/// Resolves a written type.
pub fn resolve_type(
    diags: &mut Diagnostics,
    symbols: &Symbols,
    kinds: &[Kind],
    t: &TypeExpr,
) -> Ty {
    let kind_of = |diags: &mut Diagnostics, id: &Ident| -> Option<KindId> {
        match symbols.get(&id.name) {
            Some(Global::Kind(k)) => Some(*k),
            _ => {
                let names = kinds.iter().map(|k| k.name.as_str());
                let mut d = Diagnostic::new(id.span, format!("unknown kind `{}`", id.name))
                    .label("not a kind");
                d = d.help(did_you_mean(&id.name, names).unwrap_or_else(|| {
                    "kinds are declared under `kinds:` in a YAML data file".into()
                }));
                diags.push(d);
                None
            }
        }
    };
    match t {
        TypeExpr::Name(id) => match id.name.as_str() {
            "int" => Ty::Int,
            "bool" => Ty::Bool,
            "text" => Ty::Text,
            "proc" => Ty::Proc,
            _ => {
                if let Some(Global::Kind(k)) = symbols.get(&id.name) {
                    return Ty::Ent(*k);
                }
                let names = kinds
                    .iter()
                    .map(|k| k.name.as_str())
                    .chain(["int", "bool", "text", "proc"]);
                diags.push(
                    Diagnostic::new(id.span, format!("unknown type `{}`", id.name))
                        .label("not a type")
                        .help(did_you_mean(&id.name, names).unwrap_or_else(|| {
                            "a type is int, bool, text, proc, a kind, set<kind>, list<kind>, [T] or {K: T}".into()
                        })),
                );
                Ty::Error
            }
        },
        TypeExpr::Set(id, _) => kind_of(diags, id).map_or(Ty::Error, Ty::Set),
        TypeExpr::List(id, _) => kind_of(diags, id).map_or(Ty::Error, Ty::List),
        TypeExpr::Array(e, _) => Ty::Array(Box::new(resolve_type(diags, symbols, kinds, e))),
        TypeExpr::Map(k, v, _) => Ty::Map(
            Box::new(resolve_type(diags, symbols, kinds, k)),
            Box::new(resolve_type(diags, symbols, kinds, v)),
        ),
    }
}

fn is_scalar(t: &Ty) -> bool {
    matches!(
        t,
        Ty::Int | Ty::Bool | Ty::Ent(_) | Ty::Proc | Ty::NoneTy | Ty::Error | Ty::Text
    )
}

impl<'a> Compiler<'a> {
    fn err(&mut self, span: Span, msg: impl Into<String>, help: impl Into<String>) -> Ty {
        self.diags
            .push(Diagnostic::new(span, msg).help(help.into()));
        Ty::Error
    }

    fn tn(&self, t: &Ty) -> String {
        ty_name(self.kinds, t)
    }

    fn expect(&mut self, want: &Ty, got: &Ty, span: Span, what: &str) {
        if let (Ty::Set(_), Ty::Set(ANY_KIND)) = (want, got) {
            return;
        }
        if !want.accepts(got) {
            let msg = format!(
                "{what} must be {}, but this is {}",
                self.tn(want),
                self.tn(got)
            );
            self.diags.push(
                Diagnostic::new(span, msg)
                    .label(format!("this is {}", self.tn(got)))
                    .help(format!("write a value of type {}", self.tn(want))),
            );
        }
    }

    fn message(&mut self, text: &str, span: Span) -> u32 {
        self.messages.push((text.to_string(), span));
        (self.messages.len() - 1) as u32
    }

    /// Compiles a procedure body.
    pub fn proc_body(&mut self, f: &mut FnCtx, body: &Block) {
        self.block(f, body);
    }

    /// Compiles an expression as a whole function body.
    pub fn fn_body(&mut self, f: &mut FnCtx, body: &Expr) {
        let want = f.ret.clone();
        let got = self.expr(f, body);
        self.expect(&want, &got, body.span, "the result");
        f.emit(Op::Ret, body.span);
    }

    /// Compiles an expression of any type as a whole body; returns its type.
    pub fn value_body(&mut self, f: &mut FnCtx, e: &Expr) -> Ty {
        let t = self.expr(f, e);
        f.emit(Op::Ret, e.span);
        t
    }

    /// Compiles statements as a procedure body.
    pub fn stmts_body(&mut self, f: &mut FnCtx, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(f, s);
        }
    }

    fn block(&mut self, f: &mut FnCtx, b: &Block) {
        let mark = f.locals.len();
        for s in &b.stmts {
            self.stmt(f, s);
        }
        // Scope ends: names go out of scope, slots stay allocated.
        for l in &mut f.locals[mark..] {
            l.name.clear();
        }
    }

    fn stmt(&mut self, f: &mut FnCtx, s: &Stmt) {
        let sp = s.span;
        match &s.kind {
            StmtKind::Let(name, ty, e) => {
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
            StmtKind::Assign(place, op, e) => self.assign(f, place, *op, e, sp),
            StmtKind::If(c, then, els) => {
                self.cond(f, c);
                let j = f.emit(Op::JumpIfNot(0), sp);
                self.block(f, then);
                if let Some(els) = els {
                    let j2 = f.emit(Op::Jump(0), sp);
                    let here = f.here();
                    f.patch(j, here);
                    self.block(f, els);
                    let here = f.here();
                    f.patch(j2, here);
                } else {
                    let here = f.here();
                    f.patch(j, here);
                }
            }
            StmtKind::While(c, body) => {
                let top = f.here();
                self.cond(f, c);
                let j = f.emit(Op::JumpIfNot(0), sp);
                f.loops.push(LoopCtx {
                    continue_to: top,
                    breaks: vec![j],
                });
                self.block(f, body);
                f.emit(Op::Jump(top), sp);
                self.end_loop(f);
            }
            StmtKind::Loop(body) => {
                let top = f.here();
                f.loops.push(LoopCtx {
                    continue_to: top,
                    breaks: vec![],
                });
                self.block(f, body);
                f.emit(Op::Jump(top), sp);
                self.end_loop(f);
            }
            StmtKind::For(b, body) => {
                let mark = f.locals.len();
                self.binder_loop(f, b, true, |c, f, _| c.block(f, body));
                for l in &mut f.locals[mark..] {
                    l.name.clear();
                }
            }
            StmtKind::Choose(ch) => self.choose(f, ch, sp),
            StmtKind::Require(c, msg) => {
                self.cond(f, c);
                let text = msg
                    .clone()
                    .unwrap_or_else(|| format!("requires {}", self.diags.sources.slice(c.span)));
                let id = self.message(&text, c.span);
                f.emit(Op::Require(id), c.span);
            }
            StmtKind::Fail(msg) => {
                let id = self.message(msg, sp);
                f.emit(Op::Fail(id), sp);
            }
            StmtKind::Legal => {
                if !f.is_proc {
                    self.err(
                        sp,
                        "`legal` in a function",
                        "`legal;` marks where an option of a `choose` is decided: write it in a `proc`",
                    );
                }
                let id = self.message("the option was declared legal here", sp);
                f.emit(Op::Legal(id), sp);
            }
            StmtKind::Return(e) => {
                let want = f.ret.clone();
                match e {
                    Some(e) => {
                        let got = self.expr(f, e);
                        if want == Ty::Void {
                            self.err(
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
                            self.err(sp, "a value must be returned", "write `return value;`");
                            f.emit(Op::Const(0), sp);
                        }
                    }
                }
                f.emit(Op::Ret, sp);
            }
            StmtKind::Break => {
                if f.loops.is_empty() {
                    self.err(
                        sp,
                        "`break` outside a loop",
                        "use `break` inside `loop`, `while` or `for`",
                    );
                } else {
                    let j = f.emit(Op::Jump(0), sp);
                    f.loops.last_mut().expect("loop").breaks.push(j);
                }
            }
            StmtKind::Continue => match f.loops.last() {
                None => {
                    self.err(
                        sp,
                        "`continue` outside a loop",
                        "use `continue` inside `loop`, `while` or `for`",
                    );
                }
                Some(l) => {
                    let t = l.continue_to;
                    f.emit(Op::Jump(t), sp);
                }
            },
            StmtKind::Expr(e) => {
                let t = self.expr(f, e);
                if !matches!(e.kind, ExprKind::Call(..)) {
                    self.err(
                        e.span,
                        "this expression does nothing",
                        "a statement is an assignment, a call, or a control statement",
                    );
                }
                if t != Ty::Void {
                    f.emit(Op::Pop, sp);
                }
            }
        }
    }

    fn end_loop(&mut self, f: &mut FnCtx) {
        let l = f.loops.pop().expect("loop");
        let here = f.here();
        for b in l.breaks {
            f.patch(b, here);
        }
    }

    fn cond(&mut self, f: &mut FnCtx, c: &Expr) {
        let t = self.expr(f, c);
        self.expect(&Ty::Bool, &t, c.span, "a condition");
    }

    fn assign(&mut self, f: &mut FnCtx, place: &Place, op: AssignOp, e: &Expr, sp: Span) {
        let name = &place.name.name;
        if let Some(local) = f.lookup(name) {
            if !place.indices.is_empty() {
                self.err(
                    place.span,
                    format!("`{name}` is a local value and cannot be indexed"),
                    "only state variables have indices",
                );
                return;
            }
            let (slot, ty) = (local.slot, local.ty.clone());
            if op != AssignOp::Set {
                f.emit(Op::Load(slot), sp);
            }
            let got = self.expr(f, e);
            let ty = match (&ty, &got) {
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
            return;
        }
        let var = match self.symbols.get(name) {
            Some(Global::Var(v)) => *v,
            Some(_) => {
                self.err(
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
                sp,
                "a function cannot change the state",
                "use a `proc` to change state variables",
            );
        }
        let vd = &self.vars[var as usize];
        let ty = vd.ty.clone();
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
                sp,
                "a list cannot be assigned",
                "use push(list, x), draw(list), remove(list, x) or clear(list)",
            );
            return;
        }
        if op == AssignOp::Set {
            self.indices(f, var, &place.indices, place.span);
            let got = self.expr(f, e);
            self.expect(&ty, &got, e.span, "the assigned value");
            f.emit(Op::StoreVar(var), sp);
            return;
        }
        // Set union/difference: evaluate the indices once into temps.
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
        self.expect(&ty, &got, e.span, "the operand");
        self.arith_assign(f, op, &ty, sp);
        f.emit(Op::StoreVar(var), sp);
    }

    fn arith_assign(&mut self, f: &mut FnCtx, op: AssignOp, ty: &Ty, sp: Span) {
        match op {
            AssignOp::Set => {}
            AssignOp::Add | AssignOp::Sub => {
                if !matches!(ty, Ty::Int | Ty::Set(_) | Ty::Error) {
                    self.err(
                        sp,
                        format!("`+=` and `-=` need an int or a set, not {}", self.tn(ty)),
                        "use `=`",
                    );
                }
                f.emit(
                    Op::Bin(if op == AssignOp::Add {
                        BinaryOp::Add
                    } else {
                        BinaryOp::Sub
                    }),
                    sp,
                );
            }
        }
    }

    /// Pushes and checks the indices of a variable.
    fn indices(&mut self, f: &mut FnCtx, var: u32, idx: &[Expr], span: Span) {
        let vd = &self.vars[var as usize];
        let dims = vd.dims.clone();
        let name = vd.name.clone();
        if idx.len() != dims.len() {
            self.err(
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

    fn unknown(&mut self, f: &FnCtx, id: &Ident) -> Ty {
        let locals = f
            .locals
            .iter()
            .filter(|l| !l.name.is_empty())
            .map(|l| l.name.as_str());
        let cands: Vec<&str> = locals
            .chain(self.symbols.names())
            .chain(["players", "nplayers"])
            .collect();
        let help = did_you_mean(&id.name, cands).unwrap_or_else(|| {
            "declare it with `var`, `fn`, `proc`, or under `kinds:`/`params:` in a YAML file".into()
        });
        self.diags.push(
            Diagnostic::new(id.span, format!("unknown name `{}`", id.name))
                .label("not defined")
                .help(help),
        );
        Ty::Error
    }

    /// Compiles an expression, returning its type.
    pub fn expr(&mut self, f: &mut FnCtx, e: &Expr) -> Ty {
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
            ExprKind::Cond(c, a, b) => {
                self.cond(f, c);
                let j = f.emit(Op::JumpIfNot(0), sp);
                let ta = self.expr(f, a);
                let j2 = f.emit(Op::Jump(0), sp);
                let here = f.here();
                f.patch(j, here);
                let tb = self.expr(f, b);
                let here = f.here();
                f.patch(j2, here);
                let t = unify(&ta, &tb);
                if t.is_none() {
                    self.err(
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
            ExprKind::SetLit(items) => {
                let mut kind = None;
                for it in items {
                    let t = self.expr(f, it);
                    match t {
                        Ty::Ent(k) => {
                            if kind.is_some_and(|k0| k0 != k) {
                                self.err(
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
            ExprKind::SetBuild(b) => {
                if let Some(t) = self.native_selection(f, b) {
                    return t;
                }
                let acc = f.temp();
                f.emit(Op::SetMake(ANY_KIND, 0), sp);
                f.emit(Op::Store(acc), sp);
                let mark = f.locals.len();
                let elem = self.binder_loop(f, b, false, |_c, f, slot| {
                    let var = Some(slot);
                    f.emit(Op::Load(acc), sp);
                    if let Some(v) = var {
                        f.emit(Op::Load(v), sp);
                    }
                    f.emit(Op::Builtin(Builtin::With, 2), sp);
                    f.emit(Op::Store(acc), sp);
                });
                for l in &mut f.locals[mark..] {
                    l.name.clear();
                }
                f.emit(Op::Load(acc), sp);
                match elem {
                    Ty::Ent(k) => Ty::Set(k),
                    Ty::Error => Ty::Error,
                    other => self.err(
                        sp,
                        format!("a set holds items, not {}", self.tn(&other)),
                        "range over a kind or a set",
                    ),
                }
            }
            ExprKind::Aggregate(agg, b, body) => self.aggregate(f, *agg, b, body.as_deref(), sp),
        }
    }

    fn name(&mut self, f: &mut FnCtx, id: &Ident) -> Ty {
        let sp = id.span;
        if let Some(l) = f.lookup(&id.name) {
            let (slot, ty) = (l.slot, l.ty.clone());
            f.emit(Op::Load(slot), sp);
            return ty;
        }
        match id.name.as_str() {
            "players" => {
                f.emit(Op::SetAll(PLAYER), sp);
                return Ty::Set(PLAYER);
            }
            "nplayers" => {
                f.emit(Op::Builtin(Builtin::NumPlayers, 0), sp);
                return Ty::Int;
            }
            _ => {}
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
                    sp,
                    format!("`{}` names items of several kinds", id.name),
                    format!("write {}", names.join(" or ")),
                )
            }
            Some(Global::Param(p)) => {
                let pd = &self.params[p as usize];
                if is_scalar(&pd.ty) {
                    let v = pd.data.int();
                    let ty = pd.ty.clone();
                    f.emit(Op::Const(v), sp);
                    ty
                } else {
                    self.err(
                        sp,
                        format!("parameter `{}` is a table: index it", id.name),
                        format!("write {}[key]", id.name),
                    )
                }
            }
            Some(Global::Var(v)) => {
                let vd = &self.vars[v as usize];
                if !vd.dims.is_empty() {
                    let hint = index_hint(self.kinds, &vd.dims);
                    return self.err(
                        sp,
                        format!(
                            "`{}` needs {} ind{}",
                            id.name,
                            vd.dims.len(),
                            if vd.dims.len() == 1 { "ex" } else { "ices" }
                        ),
                        format!("write {}{hint}", id.name),
                    );
                }
                let ty = vd.ty.clone();
                if let Ty::List(k) = ty {
                    // A list read as a value is the set of its elements.
                    f.emit(Op::ListSet(v), sp);
                    return Ty::Set(k);
                }
                f.emit(Op::LoadVar(v), sp);
                ty
            }
            Some(Global::Func(fid)) => {
                let sig = &self.sigs[fid as usize];
                if sig.is_proc
                    && sig.params.len() == 1
                    && sig.params[0].1 == Ty::Ent(PLAYER)
                    && sig.ret == Ty::Void
                {
                    f.emit(Op::Const(fid as i64), sp);
                    Ty::Proc
                } else {
                    self.err(
                        sp,
                        format!("`{}` is a function: call it", id.name),
                        format!("write {}(...)", id.name),
                    )
                }
            }
            None => self.unknown(f, id),
        }
    }

    fn field(&mut self, f: &mut FnCtx, base: &Expr, field: &Ident, sp: Span) -> Ty {
        // `kind.item` qualification.
        if let ExprKind::Name(kn) = &base.kind {
            if f.lookup(&kn.name).is_none() {
                if let Some(Global::Kind(k)) = self.symbols.get(&kn.name) {
                    let k = *k;
                    let kind = &self.kinds[k as usize];
                    return match kind.items.iter().position(|i| *i == field.name) {
                        Some(i) => {
                            f.emit(Op::Const(i as i64), sp);
                            Ty::Ent(k)
                        }
                        None => {
                            let help =
                                did_you_mean(&field.name, kind.items.iter().map(|s| s.as_str()))
                                    .unwrap_or_else(|| {
                                        format!(
                                            "the items of `{}` are listed in its YAML file",
                                            kind.name
                                        )
                                    });
                            self.err(
                                field.span,
                                format!("`{}` has no item `{}`", kind.name, field.name),
                                help,
                            )
                        }
                    };
                }
            }
        }
        let bt = self.expr(f, base);
        let k = match bt {
            Ty::Ent(k) => k,
            Ty::Error => return Ty::Error,
            other => {
                return self.err(
                    base.span,
                    format!("{} has no fields", self.tn(&other)),
                    "fields belong to items of a kind",
                );
            }
        };
        let kind = &self.kinds[k as usize];
        match kind.fields.iter().position(|fd| fd.name == field.name) {
            Some(i) => {
                let ty = kind.fields[i].ty.clone();
                if is_scalar(&ty) {
                    f.emit(Op::Field(k, i as u16), sp);
                    ty
                } else {
                    self.err(
                        sp,
                        format!("field `{}` is a table: index it", field.name),
                        format!("write ….{}[key]", field.name),
                    )
                }
            }
            None => {
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
                        field.span,
                        format!("`{}` has no field `{}`", kind.name, field.name),
                    )
                    .label("unknown field")
                    .help(help),
                );
                Ty::Error
            }
        }
    }

    fn index(&mut self, f: &mut FnCtx, base: &Expr, idx: &[Expr], sp: Span) -> Ty {
        match &base.kind {
            ExprKind::Name(id) if f.lookup(&id.name).is_none() => {
                match self.symbols.get(&id.name).cloned() {
                    Some(Global::Var(v)) => {
                        self.indices(f, v, idx, sp);
                        let ty = self.vars[v as usize].ty.clone();
                        if let Ty::List(k) = ty {
                            // A list read as a value is the set of its elements.
                            f.emit(Op::ListSet(v), sp);
                            return Ty::Set(k);
                        }
                        f.emit(Op::LoadVar(v), sp);
                        return ty;
                    }
                    Some(Global::Param(p)) => {
                        let ty = self.params[p as usize].ty.clone();
                        return self.table_index(f, &ty, idx, sp, |_| Op::ParamIndex(p));
                    }
                    _ => {}
                }
            }
            ExprKind::Field(inner, field) => {
                let bt = self.expr(f, inner);
                if let Ty::Ent(k) = bt {
                    let kind = &self.kinds[k as usize];
                    if let Some(i) = kind.fields.iter().position(|fd| fd.name == field.name) {
                        let ty = kind.fields[i].ty.clone();
                        return self.table_index(f, &ty, idx, sp, |_| Op::FieldIndex(k, i as u16));
                    }
                    return self.err(
                        field.span,
                        format!("`{}` has no field `{}`", kind.name, field.name),
                        "check the kind's `fields:`",
                    );
                }
                if bt != Ty::Error {
                    self.err(
                        inner.span,
                        format!("{} has no fields", self.tn(&bt)),
                        "fields belong to items of a kind",
                    );
                }
                return Ty::Error;
            }
            _ => {}
        }
        self.err(
            base.span,
            "only state variables, parameters and table fields can be indexed",
            "index a `var`, a `params:` table or a field like `b.cost[wood]`",
        )
    }

    fn table_index(
        &mut self,
        f: &mut FnCtx,
        ty: &Ty,
        idx: &[Expr],
        sp: Span,
        op: impl Fn(()) -> Op,
    ) -> Ty {
        let (key, val) = match ty {
            Ty::Array(v) => (Ty::Int, (**v).clone()),
            Ty::Map(k, v) => ((**k).clone(), (**v).clone()),
            Ty::Error => return Ty::Error,
            other => {
                return self.err(
                    sp,
                    format!("{} cannot be indexed", self.tn(other)),
                    "only tables and arrays take `[key]`",
                )
            }
        };
        if idx.len() != 1 {
            return self.err(sp, "a table takes one key", "write table[key]");
        }
        let got = self.expr(f, &idx[0]);
        self.expect(&key, &got, idx[0].span, "the key");
        f.emit(op(()), sp);
        val
    }

    /// The variable id of a list place (`deck` or `deck[age]`), with its
    /// indices pushed.
    fn list_place(&mut self, f: &mut FnCtx, e: &Expr) -> Option<(u32, KindId)> {
        let (id, idx): (&Ident, &[Expr]) = match &e.kind {
            ExprKind::Name(id) => (id, &[]),
            ExprKind::Index(b, idx) => match &b.kind {
                ExprKind::Name(id) => (id, idx.as_slice()),
                _ => {
                    self.err(
                        e.span,
                        "expected a list variable",
                        "lists are state variables declared `var x: list<kind>`",
                    );
                    return None;
                }
            },
            _ => {
                self.err(
                    e.span,
                    "expected a list variable",
                    "lists are state variables declared `var x: list<kind>`",
                );
                return None;
            }
        };
        match self.symbols.get(&id.name).cloned() {
            Some(Global::Var(v)) if f.lookup(&id.name).is_none() => {
                if let Ty::List(k) = self.vars[v as usize].ty {
                    self.indices(f, v, idx, e.span);
                    Some((v, k))
                } else {
                    self.err(
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
                    e.span,
                    format!("`{}` is not a list variable", id.name),
                    "lists are state variables declared `var x: list<kind>`",
                );
                None
            }
        }
    }

    fn call(&mut self, f: &mut FnCtx, name: &Ident, args: &[Expr], sp: Span) -> Ty {
        let n = name.name.as_str();
        let arity = |c: &mut Self, want: usize| -> bool {
            if args.len() != want {
                c.err(
                    sp,
                    format!(
                        "`{n}` takes {want} argument{}, but {} given",
                        if want == 1 { "" } else { "s" },
                        args.len()
                    ),
                    "see the list of builtins in docs/LANGUAGE.md",
                );
                false
            } else {
                true
            }
        };
        let list_ops: &[&str] = &["shuffle", "draw", "push", "remove", "clear", "len"];
        if list_ops.contains(&n) && f.lookup(n).is_none() {
            let want = if matches!(n, "push" | "remove") { 2 } else { 1 };
            if !arity(self, want) {
                return Ty::Error;
            }
            if n != "len" && !f.is_proc {
                self.err(
                    sp,
                    format!("a function cannot call `{n}`"),
                    "use a `proc` to change lists",
                );
            }
            let Some((v, k)) = self.list_place(f, &args[0]) else {
                return Ty::Error;
            };
            return match n {
                "shuffle" => {
                    f.emit(Op::ListShuffle(v), sp);
                    Ty::Void
                }
                "clear" => {
                    f.emit(Op::ListClear(v), sp);
                    Ty::Void
                }
                "len" => {
                    f.emit(Op::ListLen(v), sp);
                    Ty::Int
                }
                "draw" => {
                    f.emit(Op::ListDraw(v), sp);
                    Ty::Ent(k)
                }
                _ => {
                    let t = self.expr(f, &args[1]);
                    self.expect(&Ty::Ent(k), &t, args[1].span, "the item");
                    f.emit(
                        if n == "push" {
                            Op::ListPush(v)
                        } else {
                            Op::ListRemove(v)
                        },
                        sp,
                    );
                    Ty::Void
                }
            };
        }
        let builtin: Option<(Builtin, Vec<&str>)> = match n {
            "min" => Some((Builtin::Min2, vec!["int", "int"])),
            "max" => Some((Builtin::Max2, vec!["int", "int"])),
            "abs" => Some((Builtin::Abs, vec!["int"])),
            "count" => Some((Builtin::Count, vec!["set"])),
            "next" => Some((Builtin::NextPlayer, vec!["player"])),
            "prev" => Some((Builtin::PrevPlayer, vec!["player"])),
            "random" => Some((Builtin::Random, vec!["set"])),
            "roll" => Some((Builtin::Roll, vec!["int"])),
            "first" => Some((Builtin::First, vec!["set"])),
            "with" => Some((Builtin::With, vec!["set", "item"])),
            "without" => Some((Builtin::Without, vec!["set", "item"])),
            _ => None,
        };
        if let Some((b, sig)) = builtin {
            if f.lookup(n).is_none() {
                if !arity(self, sig.len()) {
                    return Ty::Error;
                }
                if matches!(b, Builtin::Random | Builtin::Roll) && !f.is_proc {
                    self.err(
                        sp,
                        format!("a function cannot call `{n}`"),
                        "randomness changes the state: use a `proc`",
                    );
                }
                let mut set_kind = None;
                for (a, want) in args.iter().zip(&sig) {
                    let t = self.expr(f, a);
                    match *want {
                        "int" => self.expect(&Ty::Int, &t, a.span, "this argument"),
                        "player" => self.expect(&Ty::Ent(PLAYER), &t, a.span, "this argument"),
                        "set" => match t {
                            Ty::Set(k) => set_kind = Some(k),
                            Ty::Error => {}
                            other => {
                                self.err(
                                    a.span,
                                    format!(
                                        "this argument must be a set, but this is {}",
                                        self.tn(&other)
                                    ),
                                    "pass a set, a kind or a list",
                                );
                            }
                        },
                        _ => {
                            if !matches!(t, Ty::Ent(_) | Ty::Error | Ty::NoneTy) {
                                self.err(
                                    a.span,
                                    format!(
                                        "this argument must be an item, but this is {}",
                                        self.tn(&t)
                                    ),
                                    "pass an item of the set's kind",
                                );
                            }
                            if let (Some(k), Ty::Ent(k2)) = (set_kind, &t) {
                                if k != ANY_KIND && k != *k2 {
                                    self.expect(&Ty::Ent(k), &t, a.span, "the item");
                                }
                                set_kind = Some(*k2);
                            }
                        }
                    }
                }
                f.emit(Op::Builtin(b, args.len() as u8), sp);
                return match b {
                    Builtin::Min2
                    | Builtin::Max2
                    | Builtin::Abs
                    | Builtin::Count
                    | Builtin::Roll => Ty::Int,
                    Builtin::NextPlayer | Builtin::PrevPlayer => Ty::Ent(PLAYER),
                    Builtin::Random | Builtin::First => set_kind.map_or(Ty::Error, |k| {
                        if k == ANY_KIND {
                            Ty::NoneTy
                        } else {
                            Ty::Ent(k)
                        }
                    }),
                    Builtin::With | Builtin::Without => set_kind.map_or(Ty::Error, Ty::Set),
                    Builtin::NumPlayers => Ty::Int,
                };
            }
        }
        if n == "rotate" && f.lookup(n).is_none() {
            let var = match args.first().map(|a| &a.kind) {
                Some(ExprKind::Name(id)) => match self.symbols.get(&id.name) {
                    Some(Global::Var(v)) => Some(*v),
                    _ => None,
                },
                _ => None,
            };
            let Some(v) = var.filter(|v| {
                let vd = &self.vars[*v as usize];
                args.len() == 3 && vd.dims.len() == 1 && is_scalar(&vd.ty)
            }) else {
                return self.err(
                    sp,
                    "`rotate` takes a one-dimensional variable and the first and last index of the part that turns",
                    "write rotate(wheel, first, last): each element moves one place up, the last to the first place",
                );
            };
            if !f.is_proc {
                self.err(
                    sp,
                    "a function cannot call `rotate`",
                    "use a `proc` to change the state",
                );
            }
            let want = self.vars[v as usize].dims[0].kind.map_or(Ty::Int, Ty::Ent);
            for a in &args[1..] {
                let t = self.expr(f, a);
                self.expect(&want, &t, a.span, "the index");
            }
            f.emit(Op::Rotate(v), sp);
            return Ty::Void;
        }
        if matches!(
            n,
            "adjacent" | "connected" | "components" | "cell" | "groups_around"
        ) && f.lookup(n).is_none()
        {
            return self.grid_builtin(f, n, args, sp);
        }
        if n == "nth" && f.lookup(n).is_none() {
            let kind = match args.first().map(|a| &a.kind) {
                Some(ExprKind::Name(id)) => match self.symbols.get(&id.name) {
                    Some(Global::Kind(k)) => Some(*k),
                    _ => None,
                },
                _ => None,
            };
            let Some(k) = kind.filter(|_| args.len() == 2) else {
                return self.err(
                    sp,
                    "`nth` takes a kind and an index",
                    "write nth(kind, i): the i-th item of the kind (from 0), or none",
                );
            };
            let t = self.expr(f, &args[1]);
            self.expect(&Ty::Int, &t, args[1].span, "the index");
            f.emit(Op::Nth(k), sp);
            return Ty::Ent(k);
        }
        if n == "ord" && f.lookup(n).is_none() {
            if !arity(self, 1) {
                return Ty::Error;
            }
            let t = self.expr(f, &args[0]);
            if !matches!(t, Ty::Ent(_) | Ty::Error) {
                self.err(
                    args[0].span,
                    format!("`ord` takes an item, not {}", self.tn(&t)),
                    "ord(item) is the item's position in its kind, from 0",
                );
            }
            return Ty::Int;
        }
        if n == "call" && f.lookup(n).is_none() {
            if args.len() != 2 {
                return self.err(
                    sp,
                    "`call` takes a procedure and a player",
                    "write call(item.action, p)",
                );
            }
            if !f.is_proc {
                self.err(sp, "a function cannot call a procedure", "use a `proc`");
            }
            let t = self.expr(f, &args[0]);
            self.expect(&Ty::Proc, &t, args[0].span, "the procedure");
            let t = self.expr(f, &args[1]);
            self.expect(&Ty::Ent(PLAYER), &t, args[1].span, "the player");
            f.emit(Op::CallDyn(1), sp);
            return Ty::Void;
        }
        let fid = match self.symbols.get(n) {
            Some(Global::Func(fid)) => *fid,
            Some(_) => {
                return self.err(
                    name.span,
                    format!("`{n}` is not a function or procedure"),
                    "only `fn` and `proc` can be called",
                )
            }
            None => return self.unknown(f, name),
        };
        let sig = self.sigs[fid as usize].clone();
        if sig.is_proc && !f.is_proc {
            self.err(
                sp,
                format!("a function cannot call the procedure `{n}`"),
                "make the caller a `proc`, or the callee a `fn`",
            );
        }
        if args.len() != sig.params.len() {
            let names: Vec<String> = sig
                .params
                .iter()
                .map(|(p, t)| format!("{p}: {}", self.tn(t)))
                .collect();
            return self.err(
                sp,
                format!(
                    "`{n}` takes {} argument{}, but {} given",
                    sig.params.len(),
                    if sig.params.len() == 1 { "" } else { "s" },
                    args.len()
                ),
                format!("write {n}({})", names.join(", ")),
            );
        }
        let mut locals = Vec::new();
        for (a, (pname, pt)) in args.iter().zip(&sig.params) {
            let start = f.code.len();
            let t = self.expr(f, a);
            self.expect(pt, &t, a.span, &format!("argument `{pname}`"));
            locals.push(match f.code[start..] {
                [Op::Load(l)] => Some(l),
                _ => None,
            });
        }
        if self.try_inline(f, fid, &sig, sp, &locals) {
            return sig.ret;
        }
        f.emit(Op::Call(fid, args.len() as u8), sp);
        sig.ret
    }

    /// `x in kind where v[x] == e` (v one-dimensional over that kind, e not
    /// mentioning x): the variable and `e`, to select natively.
    fn select_eq<'e>(&self, f: &FnCtx, b: &'e Binder) -> Option<(u32, &'e Expr)> {
        let Source::Expr(src) = &b.source else {
            return None;
        };
        let k = self.kind_source(f, src)?;
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
        if idx.len() != 1 || f.lookup(&vname.name).is_some() {
            return None;
        }
        if !matches!(&idx[0].kind, ExprKind::Name(x) if x.name == b.var.name) {
            return None;
        }
        let Some(Global::Var(v)) = self.symbols.get(&vname.name) else {
            return None;
        };
        let vd = &self.vars[*v as usize];
        if vd.dims.len() != 1
            || vd.dims[0].kind != Some(k)
            || !is_scalar(&vd.ty)
            || mentions(rhs, &b.var.name)
        {
            return None;
        }
        Some((*v, rhs))
    }

    /// With a set of items of kind `k` on the stack, applies the filter of
    /// `x in set where ...` natively when it has one of the forms
    /// `v[x] == e` (a one-dimensional state variable over `k`), `v[x]` (a
    /// boolean one), `x.field == e` or `x.field` (a boolean field), `e`
    /// not mentioning `x`: the set is replaced by its members that pass,
    /// and true is returned. Otherwise nothing is emitted.
    fn member_test(&mut self, f: &mut FnCtx, b: &Binder, k: KindId) -> bool {
        let Some(cond) = b.filter.as_ref() else {
            return false;
        };
        let x = b.var.name.as_str();
        if k == ANY_KIND {
            return false;
        }
        if let ExprKind::Binary(op @ (BinOp::Or | BinOp::And), a, c) = &cond.kind {
            return self.member_test_either(f, b, k, *op, a, c);
        }
        if let ExprKind::Not(inner) = &cond.kind {
            // The members failing `inner`: the set minus those passing it.
            let probe = Binder {
                filter: Some((**inner).clone()),
                ..b.clone()
            };
            let m = f.mark();
            f.emit(Op::Dup, cond.span);
            if !self.member_test(f, &probe, k) {
                f.rollback(m);
                return false;
            }
            f.emit(Op::Bin(BinaryOp::Sub), cond.span);
            return true;
        }
        if let Some(t) = self.member_of_named_set(f, cond, x, k) {
            // `x in t`: the intersection.
            f.emit(t, cond.span);
            f.emit(Op::Bin(BinaryOp::And), cond.span);
            return true;
        }
        let (lhs, rhs) = match &cond.kind {
            ExprKind::Binary(BinOp::Eq, l, r) => (&**l, Some(&**r)),
            _ => (cond, None),
        };
        if rhs.is_some_and(|r| mentions(r, x)) {
            return false;
        }
        let (op, want) = match self.member_lhs(f, lhs, x, k) {
            Some(found) => found,
            None => return false,
        };
        match rhs {
            Some(r) => {
                let got = self.expr(f, r);
                self.expect(&want, &got, r.span, "the compared value");
            }
            None if want == Ty::Bool => {
                f.emit(Op::Const(1), cond.span);
            }
            None => return false,
        }
        f.emit(op, cond.span);
        true
    }

    /// `a or c`, `a and c`, one side not mentioning `x` (evaluated once),
    /// the other a native filter: with `or`, the set stays whole when the
    /// first holds; with `and`, it empties when the first fails; else the
    /// other side filters it. Nothing is emitted when this does not apply.
    fn member_test_either(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        k: KindId,
        op: BinOp,
        a: &Expr,
        c: &Expr,
    ) -> bool {
        let x = b.var.name.as_str();
        let (once, each) = match (mentions(a, x), mentions(c, x)) {
            (false, true) => (a, c),
            (true, false) => (c, a),
            _ => return false,
        };
        let (code, diags) = (f.mark(), self.diags.items.len());
        self.cond(f, once);
        let sp = once.span;
        let mut ends = Vec::new();
        if op == BinOp::Or {
            ends.push(f.emit(Op::JumpIf(0), sp));
        } else {
            let go = f.emit(Op::JumpIf(0), sp);
            f.emit(Op::Dup, sp);
            f.emit(Op::Bin(BinaryOp::Sub), sp);
            ends.push(f.emit(Op::Jump(0), sp));
            let here = f.here();
            f.patch(go, here);
        }
        let probe = Binder {
            filter: Some(each.clone()),
            ..b.clone()
        };
        if !self.member_test(f, &probe, k) {
            f.rollback(code);
            self.diags.items.truncate(diags);
            return false;
        }
        let here = f.here();
        for e in ends {
            f.patch(e, here);
        }
        true
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

    /// The native test of [`Compiler::member_test`] for the left side of
    /// its filter (`v[x]` or `x.field`), with the type of the value compared.
    fn member_lhs(&self, f: &FnCtx, lhs: &Expr, x: &str, k: KindId) -> Option<(Op, Ty)> {
        let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Name(n) if n.name == x);
        let plain = |t: &Ty| matches!(t, Ty::Int | Ty::Bool | Ty::Ent(_));
        match &lhs.kind {
            ExprKind::Index(base, idx) if idx.len() == 1 && is_x(&idx[0]) => {
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
            ExprKind::Field(base, field) if is_x(base) => {
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

    /// `{x in S where c}` built natively, when it can be: over a kind
    /// with `v[x] == e` (selected over the variable), or over a set with
    /// a filter [`Compiler::member_test`] knows. `None` (nothing emitted)
    /// otherwise.
    fn native_selection(&mut self, f: &mut FnCtx, b: &Binder) -> Option<Ty> {
        let sp = b.span;
        let rewritten = b.filter.as_ref().and_then(as_eq_true).map(|c| Binder {
            filter: Some(c),
            ..b.clone()
        });
        let probe = rewritten.as_ref().unwrap_or(b);
        let Source::Expr(src) = &b.source else {
            return None;
        };
        if let Some((v, rhs)) = self.select_eq(f, probe) {
            let k = self.kind_source(f, src).expect("a kind");
            let want = self.vars[v as usize].ty.clone();
            let got = self.expr(f, rhs);
            self.expect(&want, &got, rhs.span, "the compared value");
            f.emit(Op::SelectEq(v), sp);
            return Some(Ty::Set(k));
        }
        if let Some(k) = self.kind_source(f, src) {
            return self.field_image(f, b, k);
        }
        if !self.member_lhs_shape(b) {
            return None;
        }
        let k = self.set_source(f, src);
        if self.member_test(f, b, k) {
            return Some(Ty::Set(k));
        }
        // The set is on the stack but its filter is not native after all
        // (its kind does not match): filter it member by member.
        Some(self.filter_set_on_stack(f, b, k))
    }

    /// `{x in K where any(t in s: t.field == x)}`, `K` a kind and
    /// `t.field` an item of `K`: the values the members of `s` hold,
    /// pushed natively. `None` (nothing emitted) for any other filter.
    fn field_image(&mut self, f: &mut FnCtx, b: &Binder, k: KindId) -> Option<Ty> {
        let Some(ExprKind::Aggregate(Aggregate::Any, inner, Some(body))) =
            b.filter.as_ref().map(|c| &c.kind)
        else {
            return None;
        };
        let (x, t) = (b.var.name.as_str(), inner.var.name.as_str());
        let is = |e: &Expr, n: &str| matches!(&e.kind, ExprKind::Name(i) if i.name == n);
        let ExprKind::Binary(BinOp::Eq, l, r) = &body.kind else {
            return None;
        };
        let field = match (&l.kind, &r.kind) {
            (ExprKind::Field(base, fd), _) if is(base, t) && is(r, x) => fd,
            (_, ExprKind::Field(base, fd)) if is(base, t) && is(l, x) => fd,
            _ => return None,
        };
        let Source::Expr(src) = &inner.source else {
            return None;
        };
        if inner.filter.is_some()
            || t == x
            || mentions(src, x)
            || self.kind_source(f, src).is_some()
        {
            return None;
        }
        let (code, diags) = (f.mark(), self.diags.items.len());
        let ks = self.set_source(f, src);
        let fi = (ks != ANY_KIND)
            .then(|| {
                self.kinds[ks as usize]
                    .fields
                    .iter()
                    .position(|d| d.name == field.name)
            })
            .flatten()
            .filter(|fi| self.kinds[ks as usize].fields[*fi].ty == Ty::Ent(k));
        let Some(fi) = fi else {
            f.rollback(code);
            self.diags.items.truncate(diags);
            return None;
        };
        f.emit(Op::FieldImage(ks, fi as u16), b.span);
        Some(Ty::Set(k))
    }

    /// Whether the filter of `b` looks like one [`Compiler::member_test`]
    /// applies (`v[x]...` or `x.field...`), before its source is compiled.
    fn member_lhs_shape(&self, b: &Binder) -> bool {
        let Some(cond) = b.filter.as_ref() else {
            return false;
        };
        let lhs = match &cond.kind {
            ExprKind::Binary(BinOp::Eq, l, r) if !mentions(r, &b.var.name) => &**l,
            ExprKind::Binary(BinOp::In, l, r) => {
                let is = |e: &Expr, n: &str| matches!(&e.kind, ExprKind::Name(i) if i.name == n);
                return is(l, &b.var.name)
                    && matches!(r.kind, ExprKind::Name(_))
                    && !is(r, &b.var.name);
            }
            ExprKind::Binary(..) => return false,
            _ => cond,
        };
        let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Name(n) if n.name == b.var.name);
        match &lhs.kind {
            ExprKind::Index(base, idx) => {
                idx.len() == 1 && is_x(&idx[0]) && matches!(base.kind, ExprKind::Name(_))
            }
            ExprKind::Field(base, _) => is_x(base),
            _ => false,
        }
    }

    /// `{x in set where c}` for a set of kind `k` already on the stack,
    /// member by member.
    fn filter_set_on_stack(&mut self, f: &mut FnCtx, b: &Binder, k: KindId) -> Ty {
        let sp = b.span;
        let acc = f.temp();
        f.emit(Op::SetMake(ANY_KIND, 0), sp);
        f.emit(Op::Store(acc), sp);
        let mark = f.locals.len();
        let (elem, top, exit_jump, var) = self.visit_set(f, &b.var.name, k, sp);
        if let Some(c) = &b.filter {
            self.cond(f, c);
            f.emit(Op::JumpIfNot(top), c.span);
        }
        f.emit(Op::Load(acc), sp);
        f.emit(Op::Load(var), sp);
        f.emit(Op::Builtin(Builtin::With, 2), sp);
        f.emit(Op::Store(acc), sp);
        f.emit(Op::Jump(top), sp);
        let here = f.here();
        f.patch(exit_jump, here);
        for l in &mut f.locals[mark..] {
            l.name.clear();
        }
        f.emit(Op::Load(acc), sp);
        match elem {
            Ty::Ent(k) => Ty::Set(k),
            _ => Ty::Error,
        }
    }

    /// The kind a binder ranges over when its source is a bare kind name
    /// (or `players`).
    fn kind_source(&self, f: &FnCtx, e: &Expr) -> Option<KindId> {
        let ExprKind::Name(id) = &e.kind else {
            return None;
        };
        if f.lookup(&id.name).is_some() {
            return None;
        }
        if id.name == "players" {
            return Some(PLAYER);
        }
        match self.symbols.get(&id.name) {
            Some(Global::Kind(k)) => Some(*k),
            _ => None,
        }
    }

    /// `adjacent(c)`, `connected(c, s)`, `components(s)`, `cell(kind, x, y)`,
    /// `groups_around(c, s [, marked])`.
    fn grid_builtin(&mut self, f: &mut FnCtx, n: &str, args: &[Expr], sp: Span) -> Ty {
        let want = match n {
            "adjacent" => 1,
            "connected" => 2,
            "components" => 1,
            "groups_around" => args.len().clamp(2, 3),
            _ => 3,
        };
        if args.len() != want {
            return self.err(
                sp,
                format!(
                    "`{n}` takes {want} argument{}",
                    if want == 1 { "" } else { "s" }
                ),
                "see Grids in docs/LANGUAGE.md",
            );
        }
        let grid_kind = |c: &Self, t: &Ty| -> Option<KindId> {
            match t {
                Ty::Ent(k) | Ty::Set(k)
                    if *k != ANY_KIND && c.kinds[*k as usize].grid.is_some() =>
                {
                    Some(*k)
                }
                _ => None,
            }
        };
        if n == "cell" {
            let k = match &args[0].kind {
                ExprKind::Name(id) => match self.symbols.get(&id.name) {
                    Some(Global::Kind(k)) if self.kinds[*k as usize].grid.is_some() => Some(*k),
                    _ => None,
                },
                _ => None,
            };
            let Some(k) = k else {
                return self.err(
                    args[0].span,
                    "`cell` takes a grid kind first",
                    "write cell(board, x, y)",
                );
            };
            for a in &args[1..] {
                let t = self.expr(f, a);
                self.expect(&Ty::Int, &t, a.span, "a coordinate");
            }
            f.emit(Op::GridCell(k), sp);
            return Ty::Ent(k);
        }
        let t = self.expr(f, &args[0]);
        // `adjacent` takes a cell or a set of cells, `components` a set,
        // the others a cell.
        let fits = match n {
            "adjacent" => true,
            "components" => matches!(t, Ty::Set(_)),
            _ => matches!(t, Ty::Ent(_)),
        };
        let Some(k) = grid_kind(self, &t).filter(|_| fits) else {
            if t != Ty::Error {
                let help = if grid_kind(self, &t).is_none() {
                    "declare the kind with `grid: {shape, width, height}`"
                } else if n == "components" {
                    "pass a set of cells, e.g. `{c}` for one cell `c`"
                } else {
                    "pass one cell; to ask about each cell of a set, range over it (`c in S`)"
                };
                self.err(
                    args[0].span,
                    format!(
                        "`{n}` needs {} of a grid kind, not {}",
                        match n {
                            "components" => "a set of cells",
                            "adjacent" => "a cell or a set of cells",
                            _ => "a cell",
                        },
                        self.tn(&t)
                    ),
                    help,
                );
            }
            return Ty::Error;
        };
        match n {
            "adjacent" => {
                f.emit(Op::Adjacent(k), sp);
                Ty::Set(k)
            }
            "groups_around" => {
                for a in &args[1..] {
                    let t = self.expr(f, a);
                    self.expect(&Ty::Set(k), &t, a.span, "a set of cells");
                }
                if args.len() == 2 {
                    f.emit(Op::SetMake(ANY_KIND, 0), sp);
                    f.emit(Op::Const(0), sp);
                } else {
                    f.emit(Op::Const(1), sp);
                }
                f.emit(Op::GroupsAround(k), sp);
                Ty::Int
            }
            "components" => {
                f.emit(Op::Components(k), sp);
                Ty::Int
            }
            _ => {
                let t2 = self.expr(f, &args[1]);
                self.expect(&Ty::Set(k), &t2, args[1].span, "the cells to go through");
                f.emit(Op::Connected(k), sp);
                Ty::Set(k)
            }
        }
    }

    /// Compiles a call of a pure function in place of `Call`, its
    /// arguments (already on the stack) bound to fresh locals. The caller's
    /// names are hidden while the body compiles; mistakes in the body were
    /// reported when the function itself was compiled.
    /// When every argument is a local (`locals`), the parameters name
    /// those locals directly (parameters cannot be assigned) instead of
    /// copies.
    fn try_inline(
        &mut self,
        f: &mut FnCtx,
        fid: u32,
        sig: &Sig,
        sp: Span,
        locals: &[Option<u16>],
    ) -> bool {
        let Some(Some(body)) = self.fn_bodies.get(fid as usize).copied() else {
            return false;
        };
        if sig.is_proc || self.inlining.len() >= 4 || self.inlining.contains(&fid) {
            return false;
        }
        let slots: Vec<u16> = match locals.iter().copied().collect::<Option<Vec<u16>>>() {
            // The arguments' loads are the last instructions: dropped.
            Some(slots) if !slots.is_empty() => {
                f.code.truncate(f.code.len() - slots.len());
                f.spans.truncate(f.spans.len() - slots.len());
                slots
            }
            _ => {
                let slots: Vec<u16> = sig.params.iter().map(|_| f.temp()).collect();
                for slot in slots.iter().rev() {
                    f.emit(Op::Store(*slot), sp);
                }
                slots
            }
        };
        let hidden: Vec<String> = f
            .locals
            .iter_mut()
            .map(|l| std::mem::take(&mut l.name))
            .collect();
        let mark = f.locals.len();
        for ((pname, pty), slot) in sig.params.iter().zip(&slots) {
            f.locals.push(Local {
                name: pname.clone(),
                ty: pty.clone(),
                slot: *slot,
            });
        }
        let scratch = Diagnostics {
            sources: self.diags.sources.clone(),
            items: Vec::new(),
        };
        let saved = std::mem::replace(&mut *self.diags, scratch);
        self.inlining.push(fid);
        self.expr(f, body);
        self.inlining.pop();
        *self.diags = saved;
        f.locals.truncate(mark);
        for (l, name) in f.locals.iter_mut().zip(hidden) {
            l.name = name;
        }
        true
    }

    fn binary(&mut self, f: &mut FnCtx, op: BinOp, a: &Expr, b: &Expr, sp: Span) -> Ty {
        match op {
            BinOp::And | BinOp::Or => {
                self.cond(f, a);
                f.emit(Op::Dup, sp);
                let j = f.emit(
                    if op == BinOp::And {
                        Op::JumpIfNot(0)
                    } else {
                        Op::JumpIf(0)
                    },
                    sp,
                );
                f.emit(Op::Pop, sp);
                self.cond(f, b);
                let here = f.here();
                f.patch(j, here);
                Ty::Bool
            }
            BinOp::In => {
                let ta = self.expr(f, a);
                let tb = self.expr(f, b);
                match (&ta, &tb) {
                    (Ty::Ent(k), Ty::Set(k2)) if k == k2 || *k2 == ANY_KIND => {}
                    (Ty::Error, _) | (_, Ty::Error) | (Ty::NoneTy, Ty::Set(_)) => {}
                    _ => {
                        self.err(
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
            BinOp::Eq | BinOp::Ne => {
                let ta = self.expr(f, a);
                let tb = self.expr(f, b);
                if unify(&ta, &tb).is_none() {
                    self.err(
                        sp,
                        format!("cannot compare {} with {}", self.tn(&ta), self.tn(&tb)),
                        "compare values of the same type",
                    );
                } else if ta == Ty::Text || tb == Ty::Text {
                    self.err(
                        sp,
                        "texts are for display and cannot be compared",
                        "compare items or numbers instead",
                    );
                }
                f.emit(Op::Bin(op.into()), sp);
                Ty::Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let ta = self.expr(f, a);
                let tb = self.expr(f, b);
                let ok = matches!(
                    (&ta, &tb),
                    (Ty::Int, Ty::Int) | (Ty::Error, _) | (_, Ty::Error)
                ) || matches!((&ta, &tb), (Ty::Ent(x), Ty::Ent(y)) if x == y);
                if !ok {
                    self.err(
                        sp,
                        format!("cannot order {} and {}", self.tn(&ta), self.tn(&tb)),
                        "compare two ints (or two items of one kind)",
                    );
                }
                f.emit(Op::Bin(op.into()), sp);
                Ty::Bool
            }
            _ => {
                let ta = self.expr(f, a);
                let tb = self.expr(f, b);
                f.emit(Op::Bin(op.into()), sp);
                match (&ta, &tb) {
                    (Ty::Int, Ty::Int) => Ty::Int,
                    (Ty::Set(x), Ty::Set(y)) if matches!(op, BinOp::Add | BinOp::Sub) => {
                        if *x == ANY_KIND {
                            Ty::Set(*y)
                        } else {
                            if *y != ANY_KIND && x != y {
                                self.err(sp, "sets of different kinds", "combine sets of one kind");
                            }
                            Ty::Set(*x)
                        }
                    }
                    (Ty::Error, _) | (_, Ty::Error) => Ty::Error,
                    _ => self.err(
                        sp,
                        format!(
                            "cannot apply `{}` to {} and {}",
                            op_text(op),
                            self.tn(&ta),
                            self.tn(&tb)
                        ),
                        "arithmetic needs ints; `+` and `-` also join and subtract sets",
                    ),
                }
            }
        }
    }

    /// Emits a loop over a binder; `body` is compiled once per element
    /// that passes the filter, with the element in the newest local.
    fn binder_loop(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        is_stmt_loop: bool,
        body: impl FnOnce(&mut Self, &mut FnCtx, u16),
    ) -> Ty {
        let sp = b.span;
        let (elem_ty, top, exit_jump, var_slot): (Ty, u32, usize, u16);
        let mut filter_done = false;
        let rewritten;
        let b = match b.filter.as_ref().and_then(as_eq_true) {
            Some(cond) => {
                rewritten = Binder {
                    filter: Some(cond),
                    ..b.clone()
                };
                &rewritten
            }
            None => b,
        };
        let selected = self.select_eq(f, b);
        let kind_src = match &b.source {
            Source::Expr(e) if selected.is_none() => self.kind_source(f, e),
            _ => None,
        };
        match &b.source {
            // `x in kind where v[x] == e`: the matching items are selected
            // natively, then visited as a set (the filter is done).
            Source::Expr(src) if selected.is_some() => {
                let (v, rhs) = selected.expect("checked");
                let k = self.kind_source(f, src).expect("a kind");
                let want = self.vars[v as usize].ty.clone();
                let got = self.expr(f, rhs);
                self.expect(&want, &got, rhs.span, "the compared value");
                f.emit(Op::SelectEq(v), sp);
                (elem_ty, top, exit_jump, var_slot) = self.visit_set(f, &b.var.name, k, sp);
                filter_done = true;
            }
            // A whole kind: count through its items (no set is built).
            Source::Expr(_) if kind_src.is_some() => {
                let k = kind_src.expect("checked");
                f.emit(Op::KindSize(k), sp);
                f.emit(Op::Const(0), sp);
                elem_ty = Ty::Ent(k);
                (top, exit_jump, var_slot) = self.count_up(f, &b.var.name, elem_ty.clone(), sp);
            }
            Source::Range(lo, hi, incl) => {
                self.range_bounds(f, lo, hi, *incl, sp);
                elem_ty = Ty::Int;
                (top, exit_jump, var_slot) = self.count_up(f, &b.var.name, Ty::Int, sp);
            }
            Source::Expr(e) => {
                let k = self.set_source(f, e);
                filter_done = self.member_test(f, b, k);
                (elem_ty, top, exit_jump, var_slot) = self.visit_set(f, &b.var.name, k, sp);
            }
        }
        if is_stmt_loop {
            f.loops.push(LoopCtx {
                continue_to: top,
                breaks: vec![exit_jump],
            });
        }
        if let Some(c) = b.filter.as_ref().filter(|_| !filter_done) {
            self.cond(f, c);
            f.emit(Op::JumpIfNot(top), c.span);
        }
        body(self, f, var_slot);
        f.emit(Op::Jump(top), sp);
        if is_stmt_loop {
            self.end_loop(f);
        } else {
            let here = f.here();
            f.patch(exit_jump, here);
        }
        elem_ty
    }

    /// A counting loop from the start (on top of the stack) up to the end
    /// (below it), excluded: declares the variable, emits the loop head;
    /// returns the loop top, the exit jump to patch and the variable's slot.
    fn count_up(&mut self, f: &mut FnCtx, name: &str, ty: Ty, sp: Span) -> (u32, usize, u16) {
        let hi_slot = f.temp();
        let var = f.declare(name, ty);
        f.emit(Op::Const(1), sp);
        f.emit(Op::Bin(BinaryOp::Sub), sp);
        f.emit(Op::Store(var), sp);
        f.emit(Op::Store(hi_slot), sp);
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

    fn aggregate(
        &mut self,
        f: &mut FnCtx,
        agg: Aggregate,
        b: &Binder,
        body: Option<&Expr>,
        sp: Span,
    ) -> Ty {
        if let Some(t) = self.count_eq(f, agg, b, body, sp) {
            return t;
        }
        let acc = f.temp();
        let best = f.temp();
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
                sp,
                "this aggregate needs a value after `:`",
                "write e.g. sum(x in S: value(x))",
            );
        }
        if !needs_body && body.is_some() {
            self.err(
                sp,
                "`count` takes no value",
                "write count(x in S where condition)",
            );
        }
        if matches!(agg, Aggregate::ArgMax | Aggregate::ArgMin) {
            f.emit(Op::SetMake(ANY_KIND, 0), sp);
            f.emit(Op::Store(acc), sp);
            f.emit(Op::Const(init), sp);
            f.emit(Op::Store(best), sp);
        } else {
            f.emit(Op::Const(init), sp);
            f.emit(Op::Store(acc), sp);
        }
        let mark = f.locals.len();
        let mut body_ty = Ty::Int;
        // Early exits: `any` at the first true, `all` at the first false,
        // and `min(x in ...: x)` at the first element (sources ascend).
        let mut exits: Vec<usize> = Vec::new();
        let min_of_var = agg == Aggregate::Min
            && matches!(b.source, Source::Range(..))
            && matches!(body.map(|e| &e.kind), Some(ExprKind::Name(id)) if id.name == b.var.name);
        let elem = self.binder_loop(f, b, false, |c, f, var| {
            if min_of_var {
                f.emit(Op::Load(var), sp);
                f.emit(Op::Store(acc), sp);
                exits.push(f.emit(Op::Jump(0), sp));
                return;
            }
            match agg {
                Aggregate::Count => {
                    f.emit(Op::Load(acc), sp);
                    f.emit(Op::Const(1), sp);
                    f.emit(Op::Bin(BinaryOp::Add), sp);
                    f.emit(Op::Store(acc), sp);
                }
                Aggregate::Sum | Aggregate::Min | Aggregate::Max => {
                    f.emit(Op::Load(acc), sp);
                    let e = body.expect("body");
                    body_ty = c.expr(f, e);
                    c.expect(&Ty::Int, &body_ty, e.span, "the value");
                    let op = match agg {
                        Aggregate::Sum => Op::Bin(BinaryOp::Add),
                        Aggregate::Min => Op::Builtin(Builtin::Min2, 2),
                        _ => Op::Builtin(Builtin::Max2, 2),
                    };
                    f.emit(op, sp);
                    f.emit(Op::Store(acc), sp);
                }
                Aggregate::Any | Aggregate::All => {
                    let e = body.expect("body");
                    c.cond(f, e);
                    if agg == Aggregate::Any {
                        // true: acc = true and leave
                        let skip = f.emit(Op::JumpIfNot(0), sp);
                        f.emit(Op::Const(1), sp);
                        f.emit(Op::Store(acc), sp);
                        exits.push(f.emit(Op::Jump(0), sp));
                        let here = f.here();
                        f.patch(skip, here);
                    } else {
                        let skip = f.emit(Op::JumpIf(0), sp);
                        f.emit(Op::Const(0), sp);
                        f.emit(Op::Store(acc), sp);
                        exits.push(f.emit(Op::Jump(0), sp));
                        let here = f.here();
                        f.patch(skip, here);
                    }
                }
                Aggregate::ArgMax | Aggregate::ArgMin => {
                    let e = body.expect("body");
                    let v = f.temp();
                    let t = c.expr(f, e);
                    c.expect(&Ty::Int, &t, e.span, "the value");
                    f.emit(Op::Store(v), sp);
                    // if v beats best: acc = {}, best = v
                    f.emit(Op::Load(v), sp);
                    f.emit(Op::Load(best), sp);
                    f.emit(
                        Op::Bin(if agg == Aggregate::ArgMax {
                            BinaryOp::Gt
                        } else {
                            BinaryOp::Lt
                        }),
                        sp,
                    );
                    let j = f.emit(Op::JumpIfNot(0), sp);
                    f.emit(Op::SetMake(ANY_KIND, 0), sp);
                    f.emit(Op::Store(acc), sp);
                    f.emit(Op::Load(v), sp);
                    f.emit(Op::Store(best), sp);
                    let here = f.here();
                    f.patch(j, here);
                    // if v == best: acc += {x}
                    f.emit(Op::Load(v), sp);
                    f.emit(Op::Load(best), sp);
                    f.emit(Op::Bin(BinaryOp::Eq), sp);
                    let j = f.emit(Op::JumpIfNot(0), sp);
                    f.emit(Op::Load(acc), sp);
                    f.emit(Op::Load(var), sp);
                    f.emit(Op::Builtin(Builtin::With, 2), sp);
                    f.emit(Op::Store(acc), sp);
                    let here = f.here();
                    f.patch(j, here);
                }
            }
        });
        let here = f.here();
        for j in exits {
            f.patch(j, here);
        }
        for l in &mut f.locals[mark..] {
            l.name.clear();
        }
        f.emit(Op::Load(acc), sp);
        match agg {
            Aggregate::Any | Aggregate::All => Ty::Bool,
            Aggregate::ArgMax | Aggregate::ArgMin => match elem {
                Ty::Ent(k) => Ty::Set(k),
                Ty::Error => Ty::Error,
                other => self.err(
                    sp,
                    format!("argmax/argmin range over items, not {}", self.tn(&other)),
                    "range over a kind or a set",
                ),
            },
            _ => Ty::Int,
        }
    }

    /// Fast path for `count(x in kind where v[x] == e)` and
    /// `any(x in kind: v[x] == e)` over a one-dimensional variable indexed
    /// by that kind: counted natively by the engine.
    fn count_eq(
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
        // The same pattern as a selection: `x in kind where v[x] == e`.
        let probe = Binder {
            filter: Some(as_eq_true(cond).unwrap_or_else(|| cond.clone())),
            ..b.clone()
        };
        let Some((v, rhs)) = self.select_eq(f, &probe) else {
            // Over a set: select natively, then count.
            let probe = Binder {
                filter: Some(cond.clone()),
                ..b.clone()
            };
            self.native_selection(f, &probe)?;
            f.emit(Op::SetCount, sp);
            if agg == Aggregate::Any {
                f.emit(Op::Const(0), sp);
                f.emit(Op::Bin(BinaryOp::Gt), sp);
                return Some(Ty::Bool);
            }
            return Some(Ty::Int);
        };
        let rhs = rhs.clone();
        let want = self.vars[v as usize].ty.clone();
        let got = self.expr(f, &rhs);
        self.expect(&want, &got, rhs.span, "the compared value");
        f.emit(Op::CountEq(v), sp);
        if agg == Aggregate::Any {
            f.emit(Op::Const(0), sp);
            f.emit(Op::Bin(BinaryOp::Gt), sp);
            return Some(Ty::Bool);
        }
        Some(Ty::Int)
    }

    /// Pushes the end (excluded) then the start of the range `lo..hi`
    /// (`lo..=hi` when `incl`).
    fn range_bounds(&mut self, f: &mut FnCtx, lo: &Expr, hi: &Expr, incl: bool, sp: Span) {
        let t = self.expr(f, hi);
        self.expect(&Ty::Int, &t, hi.span, "the end of a range");
        if incl {
            f.emit(Op::Const(1), sp);
            f.emit(Op::Bin(BinaryOp::Add), sp);
        }
        let t = self.expr(f, lo);
        self.expect(&Ty::Int, &t, lo.span, "the start of a range");
    }

    /// Pushes the set `e` that a binder ranges over; its items' kind.
    fn set_source(&mut self, f: &mut FnCtx, e: &Expr) -> KindId {
        match self.expr(f, e) {
            Ty::Set(k) => k,
            Ty::Error => ANY_KIND,
            other => {
                self.err(
                    e.span,
                    format!("cannot range over {}", self.tn(&other)),
                    "range over a kind, a set, a list or `lo..hi`",
                );
                ANY_KIND
            }
        }
    }

    /// Offers every element of an unfiltered source (`x in kind`,
    /// `x in set`, `x in lo..hi`) as an option of arm `arm`, in one
    /// instruction; returns the elements' type and the messages of the
    /// arm's leading requirements checked on the whole set (`screen`, see
    /// [`Compiler::screen_sets`]).
    fn add_every_option(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        arm: u16,
        screen: &[(&Expr, String)],
        choice: u32,
    ) -> (Ty, Vec<u32>) {
        let sp = b.span;
        match &b.source {
            Source::Expr(e) => {
                let kind = self.kind_source(f, e);
                if let Some(k) = kind.filter(|_| screen.is_empty()) {
                    f.emit(Op::KindSize(k), sp);
                    f.emit(Op::Const(0), sp);
                    f.emit(Op::ChooseAddRange(arm), sp);
                    return (Ty::Ent(k), Vec::new());
                }
                let k = match kind {
                    Some(k) => {
                        f.emit(Op::SetAll(k), sp);
                        k
                    }
                    None => self.set_source(f, e),
                };
                let msgs = self.screen_sets(f, b, k, screen);
                if msgs.is_empty() {
                    f.emit(Op::ChooseAddSet(arm), sp);
                } else {
                    f.emit(Op::ChooseAddScreened { choice, arm }, sp);
                }
                let ty = if k == ANY_KIND { Ty::Error } else { Ty::Ent(k) };
                (ty, msgs)
            }
            Source::Range(lo, hi, incl) => {
                self.range_bounds(f, lo, hi, *incl, sp);
                f.emit(Op::ChooseAddRange(arm), sp);
                (Ty::Int, Vec::new())
            }
        }
    }

    fn choose(&mut self, f: &mut FnCtx, ch: &Choose, sp: Span) {
        if !f.is_proc {
            self.err(sp, "a function cannot ask for a decision", "use a `proc`");
        }
        let who = f.temp();
        let t = self.expr(f, &ch.by);
        self.expect(&Ty::Ent(PLAYER), &t, ch.by.span, "the deciding player");
        f.emit(Op::Store(who), sp);
        f.emit(Op::ChooseBegin, sp);
        let screens: Vec<Vec<(&Expr, String)>> =
            ch.arms.iter().map(|a| self.leading_requires(a)).collect();
        // The id the choice gets below (collecting options asks nothing).
        let choice_id = self.choices.len() as u32;
        let mut arms = Vec::new();
        let mut seen: Vec<(String, Span)> = Vec::new();
        for (i, arm) in ch.arms.iter().enumerate() {
            match &arm.kind {
                ArmKind::Named(name, cond) => {
                    if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name.name) {
                        let first = *first;
                        self.diags.push(
                            Diagnostic::new(
                                name.span,
                                format!("option `{}` is offered twice", name.name),
                            )
                            .note(first, "first offered here")
                            .help("give each option of a choice its own name"),
                        );
                    }
                    seen.push((name.name.clone(), name.span));
                    let mut skip = None;
                    if let Some(c) = cond {
                        self.cond(f, c);
                        skip = Some(f.emit(Op::JumpIfNot(0), c.span));
                    }
                    f.emit(Op::Const(0), arm.span);
                    f.emit(Op::ChooseAdd(i as u16), arm.span);
                    if let Some(j) = skip {
                        let here = f.here();
                        f.patch(j, here);
                    }
                    arms.push(ArmDef {
                        name: Some(std::sync::Arc::from(name.name.as_str())),
                        ty: Ty::Void,
                        quick: false,
                        light: None,
                        screen: Vec::new(),
                    });
                }
                ArmKind::Each(b) if b.filter.is_none() => {
                    let (ty, screen) =
                        self.add_every_option(f, b, i as u16, &screens[i], choice_id);
                    arms.push(ArmDef {
                        name: None,
                        ty,
                        quick: false,
                        light: None,
                        screen,
                    });
                }
                ArmKind::Each(b) => {
                    let mark = f.locals.len();
                    // A filter the engine applies natively gives the
                    // options as one set (in the same order).
                    let ty = match self.native_selection(f, b) {
                        Some(set) => {
                            f.emit(Op::ChooseAddSet(i as u16), arm.span);
                            match set {
                                Ty::Set(k) => Ty::Ent(k),
                                _ => Ty::Error,
                            }
                        }
                        None => self.binder_loop(f, b, false, |_c, f, var| {
                            f.emit(Op::Load(var), arm.span);
                            f.emit(Op::ChooseAdd(i as u16), arm.span);
                        }),
                    };
                    for l in &mut f.locals[mark..] {
                        l.name.clear();
                    }
                    arms.push(ArmDef {
                        name: None,
                        ty,
                        quick: false,
                        light: None,
                        screen: Vec::new(),
                    });
                }
            }
        }
        self.choices.push(ChoiceDef {
            prompt: ch.prompt.clone().unwrap_or_else(|| "choose".into()),
            arms: Vec::new(),
            span: sp,
            names_may_clash: true,
        });
        f.emit(Op::Load(who), sp);
        f.emit(Op::ChooseWait(choice_id), sp);
        let arm_slot = f.temp();
        let val_slot = f.temp();
        f.emit(Op::Store(arm_slot), sp);
        f.emit(Op::Store(val_slot), sp);
        let mut ends = Vec::new();
        for (i, arm) in ch.arms.iter().enumerate() {
            f.emit(Op::Load(arm_slot), arm.span);
            f.emit(Op::Const(i as i64), arm.span);
            f.emit(Op::Bin(BinaryOp::Eq), arm.span);
            let next = f.emit(Op::JumpIfNot(0), arm.span);
            self.arm_body(f, arm, &mut arms[i], val_slot);
            ends.push(f.emit(Op::Jump(0), arm.span));
            let here = f.here();
            f.patch(next, here);
        }
        let here = f.here();
        for e in ends {
            f.patch(e, here);
        }
        // Known once the bodies are compiled (nested choices come first).
        self.choices[choice_id as usize].names_may_clash = names_may_clash(&arms, self.kinds);
        self.choices[choice_id as usize].arms = arms;
    }
}

impl Compiler<'_> {
    /// Compiles what happens when an option of `arm` is chosen (its value
    /// in local `val_slot`), and learns from the code whether the arm is
    /// light (see [`decided_prefix`]) or quick.
    fn arm_body(&mut self, f: &mut FnCtx, arm: &Arm, def: &mut ArmDef, val_slot: u16) {
        let mark = f.locals.len();
        let first_slot = f.nlocals;
        let mut bind = None;
        if let ArmKind::Each(b) = &arm.kind {
            let slot = f.declare(&b.var.name, def.ty.clone());
            f.emit(Op::Load(val_slot), arm.span);
            f.emit(Op::Store(slot), arm.span);
            bind = Some(slot);
        }
        let body = f.here() as usize;
        // The requirements checked while the options were collected stay
        // in the body (a full run checks them again), but a light try, only
        // made of options that passed them, starts after them.
        let screened = def.screen.len();
        let mut after_screen = body;
        for (k, s) in arm.body.stmts.iter().enumerate() {
            self.stmt(f, s);
            if k + 1 == screened {
                after_screen = f.here() as usize;
            }
        }
        let sigs = self.sigs;
        let is_fn = |fid: u32| sigs.get(fid as usize).is_some_and(|s| !s.is_proc);
        def.light = decided_prefix(&f.code, body, first_slot, is_fn).map(|_| LightArm {
            start: after_screen as u32,
            bind,
        });
        // A named option always offered whose body calls nothing and asks
        // nothing (a `pass`, a `done`).
        def.quick = matches!(&arm.kind, ArmKind::Named(_, None))
            && !f.code[body..]
                .iter()
                .any(|op| matches!(op, Op::Call(..) | Op::CallDyn(_) | Op::ChooseWait(_)));
        // The arm's names (its binding, its `let`s) go out of scope.
        for l in &mut f.locals[mark..] {
            l.name.clear();
        }
    }

    /// The requirements a per-element arm starts with, with their
    /// messages: those that can be checked on whole sets are checked
    /// while the options are collected (see [`Compiler::add_every_option`]).
    /// Conditions that draw random numbers are left to the arm.
    fn leading_requires<'a>(&self, arm: &'a Arm) -> Vec<(&'a Expr, String)> {
        if !matches!(arm.kind, ArmKind::Each(_)) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for s in &arm.body.stmts {
            let StmtKind::Require(c, msg) = &s.kind else {
                break;
            };
            if calls_any(c, &["random", "roll"]) {
                break;
            }
            let text = msg
                .clone()
                .unwrap_or_else(|| format!("requires {}", self.diags.sources.slice(c.span)));
            out.push((c, text));
        }
        out
    }

    /// With the candidate set of a per-element arm on the stack, pushes
    /// for each leading requirement, while it can be checked natively on
    /// a set (see [`Compiler::member_test`]), the members still passing:
    /// returns the messages of the requirements so screened.
    fn screen_sets(
        &mut self,
        f: &mut FnCtx,
        b: &Binder,
        k: KindId,
        screen: &[(&Expr, String)],
    ) -> Vec<u32> {
        let mut msgs = Vec::new();
        // At most eight (what `ChooseAddScreened` follows).
        for (cond, text) in screen.iter().take(8) {
            let probe = Binder {
                filter: Some((*cond).clone()),
                ..b.clone()
            };
            let m = f.mark();
            f.emit(Op::Dup, cond.span);
            if !self.member_test(f, &probe, k) {
                f.rollback(m);
                break;
            }
            msgs.push(self.message(text, cond.span));
        }
        msgs
    }
}

/// Whether an expression calls one of these builtins (anywhere in it).
fn calls_any(e: &Expr, names: &[&str]) -> bool {
    let c = |x: &Expr| calls_any(x, names);
    match &e.kind {
        ExprKind::Call(n, args) => names.contains(&n.name.as_str()) || args.iter().any(c),
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::None | ExprKind::Name(_) => false,
        ExprKind::Field(b, _) | ExprKind::Neg(b) | ExprKind::Not(b) => c(b),
        ExprKind::Index(b, idx) => c(b) || idx.iter().any(c),
        ExprKind::SetLit(args) => args.iter().any(c),
        ExprKind::Binary(_, a, b) => c(a) || c(b),
        ExprKind::Cond(a, b, d) => c(a) || c(b) || c(d),
        ExprKind::SetBuild(b) | ExprKind::Aggregate(_, b, _) => {
            let body = match &e.kind {
                ExprKind::Aggregate(_, _, Some(x)) => c(x),
                _ => false,
            };
            body || b.filter.as_ref().is_some_and(c)
                || match &b.source {
                    Source::Range(lo, hi, _) => c(lo) || c(hi),
                    Source::Expr(x) => c(x),
                }
        }
    }
}

/// Whether two options of a choice with these arms may show the same name
/// (checked when the choice is reached). One arm never offers a value
/// twice (it ranges over a kind, a set or a range), and named arms are
/// distinct identifiers; so a clash needs two per-element arms, or a named
/// arm spelled like an item its per-element arm may offer.
fn names_may_clash(arms: &[ArmDef], kinds: &[Kind]) -> bool {
    let each: Vec<&Ty> = arms
        .iter()
        .filter(|a| a.name.is_none())
        .map(|a| &a.ty)
        .collect();
    let [ty] = each.as_slice() else {
        return each.len() > 1;
    };
    let named = arms.iter().filter_map(|a| a.name.as_deref());
    match ty {
        // Identifiers are never numbers, `true` or `false`.
        Ty::Int | Ty::Bool => false,
        Ty::Ent(k) => {
            let items = &kinds[*k as usize].items;
            named.into_iter().any(|n| {
                n == "none" || items.iter().any(|i| i == n) || (*k == PLAYER && n.starts_with('p'))
            })
        }
        _ => named.count() > 0,
    }
}

/// Whether the code of an arm, from `body`, is decided by a pure prefix:
/// it reaches a `legal;` (whose index is returned) along every path that
/// does not fail, reading the state but writing only locals of the arm
/// (slots from `first_slot` on), calling no procedure (functions cannot
/// change the state) and drawing no random number. Such an arm can be
/// tried without preparing an undo.
fn decided_prefix(
    code: &[Op],
    body: usize,
    first_slot: u16,
    is_fn: impl Fn(u32) -> bool,
) -> Option<usize> {
    let end = body
        + code[body..]
            .iter()
            .position(|op| matches!(op, Op::Legal(_)))?;
    let inside = |t: &u32| (body..=end).contains(&(*t as usize));
    let local = |l: &u16| *l >= first_slot;
    code[body..end]
        .iter()
        .all(|op| match op {
            Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfNot(t) => inside(t),
            Op::Store(l) => local(l),
            Op::SetNext { set, cur, var } => local(set) && local(cur) && local(var),
            Op::Builtin(b, _) => !matches!(b, Builtin::Random | Builtin::Roll),
            Op::Call(fid, _) => is_fn(*fid),
            Op::Const(_)
            | Op::Load(_)
            | Op::LoadVar(_)
            | Op::Field(..)
            | Op::FieldIndex(..)
            | Op::ParamIndex(_)
            | Op::Bin(_)
            | Op::Neg
            | Op::Not
            | Op::Pop
            | Op::Dup
            | Op::KindSize(_)
            | Op::Nth(_)
            | Op::SetAll(_)
            | Op::SetMake(..)
            | Op::SetIn
            | Op::SetCount
            | Op::ListLen(_)
            | Op::ListIn(_)
            | Op::Adjacent(_)
            | Op::Connected(_)
            | Op::Components(_)
            | Op::GroupsAround(_)
            | Op::GridCell(_)
            | Op::SelectEq(_)
            | Op::CountEq(_)
            | Op::MembersEq(_)
            | Op::MembersFieldEq(..)
            | Op::FieldImage(..)
            | Op::Require(_)
            | Op::Fail(_) => true,
            _ => false,
        })
        .then_some(end)
}

/// `v[x]` (a bare indexed variable as a condition) as `v[x] == true`, so
/// that the native selections apply to boolean filters too.
fn as_eq_true(cond: &Expr) -> Option<Expr> {
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

fn unify(a: &Ty, b: &Ty) -> Option<Ty> {
    match (a, b) {
        (Ty::Error, t) | (t, Ty::Error) => Some(t.clone()),
        (Ty::NoneTy, Ty::Ent(k)) | (Ty::Ent(k), Ty::NoneTy) => Some(Ty::Ent(*k)),
        (Ty::NoneTy, Ty::Proc) | (Ty::Proc, Ty::NoneTy) => Some(Ty::Proc),
        (Ty::Set(ANY_KIND), Ty::Set(k)) | (Ty::Set(k), Ty::Set(ANY_KIND)) => Some(Ty::Set(*k)),
        (a, b) if a == b => Some(a.clone()),
        _ => None,
    }
}

fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        _ => "operator",
    }
}

fn index_hint(kinds: &[Kind], dims: &[crate::ir::ruleset::DimDef]) -> String {
    let parts: Vec<String> = dims
        .iter()
        .map(|d| match d.kind {
            Some(k) => kinds[k as usize].name.clone(),
            None => format!("{}..{}", d.lo, d.lo + d.size as i64),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Checks a global name against reserved words.
pub fn check_reserved(diags: &mut Diagnostics, name: &Ident) {
    if RESERVED.contains(&name.name.as_str()) && name.name != "main" {
        diags.push(
            Diagnostic::new(name.span, format!("`{}` is a builtin name", name.name))
                .help("choose another name"),
        );
    }
}

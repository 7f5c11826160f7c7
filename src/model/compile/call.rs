//! Calls: of builtins (checked and compiled as their row in
//! [`super::builtins`] says) and of functions and procedures, pure
//! functions being inlined.

use crate::ir::bytecode::{KindId, Op, VarId};
use crate::ir::codes::Code;
use crate::ir::diag::Diagnostics;
use crate::ir::ruleset::{Ty, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::{Global, Sig};
use crate::lang::ast::{Expr, ExprKind, Ident};
use crate::lang::parser::MAX_DEPTH;

use super::builtins::{self, BuiltinDef, Doc, Form, Mistake, Param, ParamTy, Returns};
use super::context::FnCtx;
use super::types::is_scalar;
use super::{Compiler, ANY_KIND, MAX_INLINED};

/// What the arguments of a builtin call have bound so far (see
/// [`ParamTy`]).
#[derive(Debug, Default)]
pub(super) struct Bound {
    /// The bound kind (of a set, a list, a grid, or named).
    pub(super) kind: Option<KindId>,
    /// The bound variable (a list, or a named one).
    pub(super) var: Option<VarId>,
    /// Whether the grid argument was a set of cells (not a cell).
    pub(super) cells: bool,
}

impl Compiler<'_> {
    /// A call: of a builtin unless a local hides its name, else of a
    /// function or procedure.
    pub(super) fn call(&mut self, f: &mut FnCtx, name: &Ident, args: &[Expr], sp: Span) -> Ty {
        // Only this call may answer a condition's wish for a branch (not
        // a call among its arguments).
        let branch = f.branch_into.take();
        if f.lookup(&name.name).is_none() {
            if let Some(def) = builtins::called(&name.name) {
                return self.builtin_call(f, def, args, sp);
            }
        }
        self.call_function(f, name, args, sp, branch)
    }

    /// A builtin named as a value (`nplayers`).
    pub(super) fn builtin_value(&mut self, f: &mut FnCtx, def: &BuiltinDef, sp: Span) -> Ty {
        let bound = Bound::default();
        self.emit_builtin(f, def, 0, &bound, sp);
        self.builtin_result(def, &bound)
    }

    /// A call of a builtin: its shape, its arguments as its parameters
    /// type them, then its instructions.
    fn builtin_call(&mut self, f: &mut FnCtx, def: &BuiltinDef, args: &[Expr], sp: Span) -> Ty {
        let Some(mut bound) = self.builtin_shape(def, args, sp) else {
            return Ty::Error;
        };
        if !f.is_proc {
            if let Some((msg, help)) = def.effect.in_function(def.name) {
                self.err(Code::ImpureFunction, sp, msg, help);
            }
        }
        let back = negated_steps(def, args);
        for (i, (a, p)) in args.iter().zip(def.params).enumerate() {
            let a = match (&a.kind, back && (i == 1 || i == 2)) {
                (ExprKind::Neg(x), true) => &**x,
                _ => a,
            };
            if !self.builtin_arg(f, def, p, a, &mut bound) {
                return Ty::Error;
            }
        }
        self.emit_builtin(f, def, args.len(), &bound, sp);
        if let (true, Some(Op::RunLength(_, b))) = (back, f.code.last_mut()) {
            *b = true;
        }
        self.builtin_result(def, &bound)
    }

    /// Checks the number of arguments and the named ones whose mistake is
    /// one of shape (a kind, a variable); returns what they bind, `None`
    /// after reporting a mistake.
    fn builtin_shape(&mut self, def: &BuiltinDef, args: &[Expr], sp: Span) -> Option<Bound> {
        let (most, least) = (def.params.len(), def.params.len() - def.optional);
        if args.len() < least || args.len() > most {
            let want = args.len().clamp(least, most);
            self.shape_mistake(Code::WrongArgumentCount, def, want, args.len(), sp);
            return None;
        }
        let mut bound = Bound::default();
        for (a, p) in args.iter().zip(def.params) {
            let ok = match p.ty {
                ParamTy::Kind => match self.named_global(a) {
                    Some(Global::Kind(k)) => {
                        bound.kind = Some(*k);
                        true
                    }
                    _ => false,
                },
                ParamTy::Var1 => match self.named_global(a) {
                    Some(Global::Var(v)) => {
                        bound.var = Some(*v);
                        let vd = &self.vars[*v as usize];
                        vd.dims.len() == 1 && is_scalar(&vd.ty)
                    }
                    _ => false,
                },
                _ => true,
            };
            if !ok {
                self.shape_mistake(Code::TypeMismatch, def, most, args.len(), sp);
                return None;
            }
        }
        Some(bound)
    }

    /// Reports a call of the wrong shape (`want` arguments expected): a
    /// mistake of class `code`, of the count or of a named argument.
    fn shape_mistake(&mut self, code: Code, def: &BuiltinDef, want: usize, given: usize, sp: Span) {
        let n = def.name;
        let s = if want == 1 { "" } else { "s" };
        match (def.mistake, def.doc) {
            (Mistake::Usage(msg), _) => self.err(code, sp, msg, def.help),
            (Mistake::Count, Doc::Builtins) => self.err(
                code,
                sp,
                format!("`{n}` takes {want} argument{s}, but {given} given"),
                "see the list of builtins in docs/LANGUAGE.md",
            ),
            (Mistake::Count, Doc::Grids) => self.err(
                code,
                sp,
                format!("`{n}` takes {want} argument{s}"),
                "see Grids in docs/LANGUAGE.md",
            ),
        };
    }

    /// The global an argument names (a bare name).
    fn named_global(&self, a: &Expr) -> Option<&Global> {
        match &a.kind {
            ExprKind::Name(id) => self.symbols.get(&id.name),
            _ => None,
        }
    }

    /// Compiles and checks one argument; false after a mistake that stops
    /// the call's compilation.
    fn builtin_arg(
        &mut self,
        f: &mut FnCtx,
        def: &BuiltinDef,
        p: &Param,
        a: &Expr,
        bound: &mut Bound,
    ) -> bool {
        match p.ty {
            ParamTy::Kind | ParamTy::Var1 => true, // bound with the shape
            ParamTy::GridKind => self.grid_kind_arg(def, a, bound),
            ParamTy::List => match self.list_place(f, a) {
                Some((v, k)) => {
                    bound.var = Some(v);
                    bound.kind = Some(k);
                    true
                }
                None => false,
            },
            ParamTy::Cell | ParamTy::Cells | ParamTy::CellOrCells if bound.kind.is_none() => {
                self.grid_arg(f, def, p.ty, a, bound)
            }
            _ => {
                let t = self.expr(f, a);
                self.check_arg(def, p, a, &t, bound);
                true
            }
        }
    }

    /// Checks the type `t` of a value argument.
    fn check_arg(&mut self, def: &BuiltinDef, p: &Param, a: &Expr, t: &Ty, bound: &mut Bound) {
        let bound_kind = bound.kind.unwrap_or(ANY_KIND);
        match p.ty {
            ParamTy::Int => self.expect(&Ty::Int, t, a.span, p.what),
            ParamTy::Player => self.expect(&Ty::Ent(PLAYER), t, a.span, p.what),
            ParamTy::Proc => self.expect(&Ty::Proc, t, a.span, p.what),
            ParamTy::ListItem | ParamTy::Cell => {
                self.expect(&Ty::Ent(bound_kind), t, a.span, p.what)
            }
            ParamTy::Cells | ParamTy::CellOrCells => {
                self.expect(&Ty::Set(bound_kind), t, a.span, p.what)
            }
            ParamTy::VarIndex => {
                let v = bound.var.expect("bound by a variable parameter");
                let want = self.vars[v as usize].dims[0].kind.map_or(Ty::Int, Ty::Ent);
                self.expect(&want, t, a.span, p.what);
            }
            ParamTy::Set => match t {
                Ty::Set(k) => bound.kind = Some(*k),
                Ty::Error => {}
                other => {
                    self.err(
                        Code::TypeMismatch,
                        a.span,
                        format!(
                            "this argument must be a set, but this is {}",
                            self.tn(other)
                        ),
                        "pass a set, a kind or a list",
                    );
                }
            },
            ParamTy::Item => self.check_item(p, a, t, bound),
            ParamTy::AnyItem => {
                if !matches!(t, Ty::Ent(_) | Ty::Error) {
                    self.err(
                        Code::TypeMismatch,
                        a.span,
                        format!("`{}` takes an item, not {}", def.name, self.tn(t)),
                        def.help,
                    );
                }
            }
            ParamTy::Kind | ParamTy::Var1 | ParamTy::GridKind | ParamTy::List => {}
        }
    }

    /// An item for the bound set (`with(s, x)`): of its kind; the result
    /// takes the item's kind.
    fn check_item(&mut self, p: &Param, a: &Expr, t: &Ty, bound: &mut Bound) {
        if !matches!(t, Ty::Ent(_) | Ty::Error | Ty::NoneTy) {
            self.err(
                Code::TypeMismatch,
                a.span,
                format!("this argument must be an item, but this is {}", self.tn(t)),
                "pass an item of the set's kind",
            );
        }
        if let (Some(k), Ty::Ent(k2)) = (bound.kind, t) {
            if k != ANY_KIND && k != *k2 {
                self.expect(&Ty::Ent(k), t, a.span, p.what);
            }
            bound.kind = Some(*k2);
        }
    }

    /// Emits a builtin's instructions, its `argc` arguments pushed.
    fn emit_builtin(
        &mut self,
        f: &mut FnCtx,
        def: &BuiltinDef,
        argc: usize,
        bound: &Bound,
        sp: Span,
    ) {
        let missing = def.params.len() - argc;
        for _ in 0..missing {
            f.emit(Op::SetMake(ANY_KIND, 0), sp);
        }
        let mut op = match &def.form {
            Form::Builtin(b) => Op::Builtin(*b, argc as u8),
            Form::Emit(op) => op.clone(),
            Form::OnVar(op) => op(bound.var.expect("bound by a variable parameter")),
            Form::OnKind(op) => op(bound.kind.expect("bound by a kind parameter")),
            Form::Identity => return,
        };
        if let Op::GroupsAround(_, given) = &mut op {
            *given = missing == 0;
        }
        f.emit(op, sp);
    }

    /// The type of a builtin's value.
    fn builtin_result(&self, def: &BuiltinDef, bound: &Bound) -> Ty {
        match def.returns {
            Returns::Nothing => Ty::Void,
            Returns::Int => Ty::Int,
            Returns::Player => Ty::Ent(PLAYER),
            Returns::Players => Ty::Set(PLAYER),
            Returns::Element => bound.kind.map_or(Ty::Error, |k| {
                if k == ANY_KIND {
                    Ty::NoneTy
                } else {
                    Ty::Ent(k)
                }
            }),
            Returns::Item => bound.kind.map_or(Ty::Error, Ty::Ent),
            Returns::Set => bound.kind.map_or(Ty::Error, Ty::Set),
            Returns::LikeCells if bound.cells => bound.kind.map_or(Ty::Error, Ty::Set),
            Returns::LikeCells => bound.kind.map_or(Ty::Error, Ty::Ent),
        }
    }

    /// A call of a function or procedure of the rules.
    /// `branch`: the condition's wish, see [`FnCtx::branch_into`].
    fn call_function(
        &mut self,
        f: &mut FnCtx,
        name: &Ident,
        args: &[Expr],
        sp: Span,
        branch: Option<(bool, Span)>,
    ) -> Ty {
        let n = name.name.as_str();
        let fid = match self.symbols.get(n) {
            Some(Global::Func(fid)) => *fid,
            Some(_) => {
                return self.err(
                    Code::MisusedName,
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
                Code::ImpureFunction,
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
                Code::WrongArgumentCount,
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
        let body = self.inlinable(fid, &sig);
        // When the body is inlined, a parameter whose argument names a
        // local names that local (nothing is pushed for it).
        let aliases: Vec<Option<u16>> = args.iter().map(|a| body.and(local_slot(f, a))).collect();
        for ((a, (pname, pt)), alias) in args.iter().zip(&sig.params).zip(&aliases) {
            let t = match alias {
                Some(_) => f.lookup(local_name(a)).expect("a local").ty.clone(),
                None => self.expr(f, a),
            };
            self.expect(pt, &t, a.span, &format!("argument `{pname}`"));
        }
        match body {
            Some(body) => {
                let branch = branch.filter(|_| sig.ret == Ty::Bool);
                self.inline(f, fid, body, &sig, (aliases, branch), sp)
            }
            None => {
                f.emit(Op::Call(fid, args.len() as u8), sp);
            }
        }
        sig.ret
    }

    /// Compiles a pure function's body in place of a call, its parameters
    /// bound to the arguments. The caller's names are hidden while the body
    /// compiles; mistakes in the body were reported when the function
    /// itself was compiled.
    fn inline(
        &mut self,
        f: &mut FnCtx,
        fid: u32,
        body: &Expr,
        sig: &Sig,
        (aliases, branch): (Vec<Option<u16>>, Option<(bool, Span)>),
        sp: Span,
    ) {
        // The arguments pushed are stored into fresh locals, the last first.
        let slots: Vec<u16> = aliases
            .iter()
            .map(|a| a.unwrap_or_else(|| f.temp()))
            .collect();
        for (slot, alias) in slots.iter().zip(&aliases).rev() {
            if alias.is_none() {
                f.emit(Op::Store(*slot), sp);
            }
        }
        let scratch = Diagnostics {
            sources: self.diags.sources.clone(),
            items: Vec::new(),
        };
        let saved = std::mem::replace(&mut *self.diags, scratch);
        self.inlining.push(fid);
        let before = f.code.len();
        self.isolated(f, &sig.params, &slots, |c, f| match branch {
            Some((when, jump_sp)) => {
                let jumps = c.branch(f, body, when, jump_sp);
                f.branched = Some(jumps);
            }
            None => {
                c.expr(f, body);
            }
        });
        self.inlined += f.code.len().saturating_sub(before);
        self.inlining.pop();
        *self.diags = saved;
    }
}

impl<'a> Compiler<'a> {
    /// The body of a function whose call may be inlined here: a pure
    /// function, not being inlined already, not too deep (in nested
    /// inlinings, nor in the expression holding the call).
    fn inlinable(&self, fid: u32, sig: &Sig) -> Option<&'a Expr> {
        let body = self.fn_bodies.get(fid as usize).copied().flatten()?;
        let ok = !sig.is_proc
            && self.inlining.len() < 4
            && !self.inlining.contains(&fid)
            && self.inlined < MAX_INLINED
            && self.depth < MAX_DEPTH;
        ok.then_some(body)
    }
}

/// The slot of the local an argument names, if it is a bare local name.
fn local_slot(f: &FnCtx, a: &Expr) -> Option<u16> {
    match &a.kind {
        ExprKind::Name(id) => f.lookup(&id.name).map(|l| l.slot),
        _ => None,
    }
}

/// The name an argument known to be a bare name is.
fn local_name(a: &Expr) -> &str {
    match &a.kind {
        ExprKind::Name(id) => &id.name,
        _ => "",
    }
}

/// Whether a call is `run_length(c, -dx, -dy, cells)`: both steps are
/// negations, compiled as their operands and one flag of the instruction
/// (`Op::RunLength`) rather than two `Neg`s.
fn negated_steps(def: &BuiltinDef, args: &[Expr]) -> bool {
    def.name == "run_length"
        && args.len() == 4
        && args[1..3]
            .iter()
            .all(|a| matches!(a.kind, ExprKind::Neg(_)))
}

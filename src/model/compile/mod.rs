//! Resolves names, type-checks and compiles function bodies to bytecode.
//!
//! One pass over each body does all three: every expression is resolved
//! and typed as its code is emitted; a mistake is recorded as a diagnostic
//! and compilation goes on with an error type, so one load reports all.
//!
//! Where the engine has a native instruction for a pattern (a selection
//! over a variable, a filter over a set's members), an analysis of the
//! syntax (`native.rs`) decides before anything is emitted, and the plan
//! it returns is emitted in place of the general form.
//!
//! The parts: `context.rs` (the function being compiled, its scopes and
//! loops), `stmt.rs`, `expr.rs`, `call.rs` (calls of functions, and of the
//! builtins of the table in [`builtins`]; the grid ones' arguments in
//! `grid.rs`), `binder.rs` (loops over binders, set builders),
//! `aggregate.rs`, `branch.rs` (conditions compiled as jumps),
//! `native.rs`, `choice.rs` (`choose`, and what the engine
//! learns about its arms), `types.rs`, `peephole.rs` (clean-ups of the
//! finished code before its instructions are fused). The instructions
//! are fused once every function is compiled ([`fuse_code`]), knowing
//! the shape of each state variable.

mod aggregate;
mod binder;
mod bit;
mod branch;
pub mod builtins;
mod call;
mod choice;
mod context;
mod expr;
mod grid;
mod native;
mod peephole;
mod stmt;
mod types;
mod unroll;
mod whole;

pub use builtins::{check_reserved, is_reserved};
pub use context::FnCtx;
pub use types::{resolve_type, ty_name};

use crate::ir::bytecode::{KindId, Op, VarId, VarShape};
use crate::ir::codes::Code;
use crate::ir::diag::{thousands, Diagnostic, Diagnostics};
use crate::ir::ruleset::{ChoiceDef, Kind, ParamDef, Ty, VarDef};
use crate::ir::span::Span;
use crate::ir::symbols::{Sig, Symbols};
use crate::lang::ast::{Block, Expr, Stmt};
use crate::model::limits::MAX_LOCALS;

/// Fuses a finished function's instructions (see [`crate::ir::bytecode::fuse`])
/// knowing the state variables `vars`: a fused instruction whose fast path
/// never applies to its variable is left out, for one that does.
pub fn fuse_code(vars: &[VarDef], code: &mut [Op]) {
    let shape = |v: VarId| {
        vars.get(v as usize).map_or(
            VarShape {
                dims: usize::MAX,
                is_set: false,
            },
            |vd| VarShape {
                dims: vd.dims.len(),
                is_set: matches!(vd.ty, Ty::Set(_)),
            },
        )
    };
    crate::ir::bytecode::fuse(code, &shape);
}

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
    /// Instructions emitted by inlining so far: past [`MAX_INLINED`],
    /// calls are compiled as calls (the code of nested calls would
    /// otherwise grow as a power of their number).
    pub inlined: usize,
    /// The expressions and statements being compiled inside one another:
    /// a call is inlined only above [`crate::lang::parser::MAX_DEPTH`], so that inlining at
    /// most doubles how deep the compiler descends.
    pub depth: usize,
}

/// The most instructions inlining adds to a ruleset's code.
pub const MAX_INLINED: usize = 1 << 20;

impl Compiler<'_> {
    /// Compiles a procedure body.
    pub fn proc_body(&mut self, f: &mut FnCtx, body: &Block) {
        self.block(f, body);
        self.check_locals(f, body.span);
    }

    /// Compiles an expression as a whole function body.
    pub fn fn_body(&mut self, f: &mut FnCtx, body: &Expr) {
        let want = f.ret.clone();
        let got = self.expr(f, body);
        self.expect(&want, &got, body.span, "the result");
        f.emit(Op::Ret, body.span);
        self.check_locals(f, body.span);
    }

    /// Compiles an expression of any type as a whole body; returns its type.
    pub fn value_body(&mut self, f: &mut FnCtx, e: &Expr) -> Ty {
        let t = self.expr(f, e);
        f.emit(Op::Ret, e.span);
        self.check_locals(f, e.span);
        t
    }

    /// Compiles statements as a procedure body.
    pub fn stmts_body(&mut self, f: &mut FnCtx, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(f, s);
        }
        if let (Some(first), Some(last)) = (stmts.first(), stmts.last()) {
            self.check_locals(f, first.span.to(last.span));
        }
    }

    /// Reports a body that declared more locals than [`MAX_LOCALS`].
    fn check_locals(&mut self, f: &FnCtx, span: Span) {
        if f.too_many_locals {
            self.err(
                Code::TooLarge,
                span,
                format!("more than {} locals in one body", thousands(MAX_LOCALS)),
                format!(
                    "a function or procedure holds at most {} locals (`let`s, loop variables \
                     and parameters; docs/LANGUAGE.md, Limits): split it into procedures",
                    thousands(MAX_LOCALS)
                ),
            );
        }
    }

    /// Reports a mistake of class `code`; returns the error type.
    fn err(
        &mut self,
        code: Code,
        span: Span,
        msg: impl Into<String>,
        help: impl Into<String>,
    ) -> Ty {
        self.diags
            .push(Diagnostic::new(code, span, msg).help(help.into()));
        Ty::Error
    }

    /// Whether a help line worth computing (a "did you mean" among every
    /// name) may be shown: not for a mistake in a body being inlined
    /// (already reported), nor past the diagnostics a report shows.
    fn wants_help(&self) -> bool {
        self.inlining.is_empty() && !self.diags.is_full()
    }

    /// The name of a type, for messages.
    fn tn(&self, t: &Ty) -> String {
        ty_name(self.kinds, t)
    }

    /// Reports a value of type `got` where `want` is expected (`what`
    /// names the value).
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
                Diagnostic::new(Code::TypeMismatch, span, msg)
                    .label(format!("this is {}", self.tn(got)))
                    .help(format!("write a value of type {}", self.tn(want))),
            );
        }
    }

    /// Registers a failure message; returns its id.
    fn message(&mut self, text: &str, span: Span) -> u32 {
        self.messages.push((text.to_string(), span));
        (self.messages.len() - 1) as u32
    }
}

//! The function being compiled: its code, its locals and the scopes that
//! name them, and the loops that `break` and `continue` leave.

use crate::ir::bytecode::{BinaryOp, Func, Op};
use crate::ir::ruleset::Ty;
use crate::ir::span::Span;

use super::Compiler;
use crate::model::limits::MAX_LOCALS;

/// A local slot and the name it goes by while in scope (empty once out
/// of scope, and for temporaries).
pub(super) struct Local {
    pub(super) name: String,
    pub(super) ty: Ty,
    pub(super) slot: u16,
}

/// A loop being compiled: where `continue` goes, and the jumps that leave
/// it (patched to its end).
struct LoopCtx {
    continue_to: u32,
    breaks: Vec<usize>,
}

/// The function being compiled.
pub struct FnCtx {
    pub(super) code: Vec<Op>,
    spans: Vec<Span>,
    pub(super) locals: Vec<Local>,
    pub(super) nlocals: u16,
    /// Whether more locals were declared than a slot can number (the
    /// extra ones share the last slot; the body is reported).
    pub(super) too_many_locals: bool,
    loops: Vec<LoopCtx>,
    pub(super) is_proc: bool,
    pub(super) ret: Ty,
    /// Set while a call is compiled as a condition's branch (jump when
    /// the value is the flag, with the span): an inlined boolean function
    /// then compiles its body as the branch.
    pub(super) branch_into: Option<(bool, Span)>,
    /// The jumps of a call's body compiled as a branch, for the condition
    /// that asked.
    pub(super) branched: Option<Vec<usize>>,
}

impl FnCtx {
    /// A context for a body with these parameters.
    pub fn new(params: &[(String, Ty)], ret: Ty, is_proc: bool) -> FnCtx {
        let mut f = FnCtx {
            code: Vec::new(),
            spans: Vec::new(),
            locals: Vec::new(),
            nlocals: 0,
            too_many_locals: false,
            loops: Vec::new(),
            is_proc,
            ret,
            branch_into: None,
            branched: None,
        };
        for (n, t) in params {
            f.declare(n, t.clone());
        }
        f
    }

    /// Appends an instruction; returns its index.
    pub(super) fn emit(&mut self, op: Op, span: Span) -> usize {
        self.code.push(op);
        self.spans.push(span);
        self.code.len() - 1
    }

    /// Emits `Const(k); Bin(op)` for `+` or `-`, or, when the last
    /// instruction pushes a constant that no jump skips, folds the
    /// operation into it (saturating, as the interpreter computes).
    pub(super) fn emit_add_const(&mut self, op: BinaryOp, k: i64, span: Span) {
        let here = self.here();
        let landed_on = self
            .code
            .iter()
            .any(|op| matches!(op, Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfNot(t) if *t == here));
        if let (Some(Op::Const(a)), false) = (self.code.last_mut(), landed_on) {
            match op {
                BinaryOp::Add => *a = a.saturating_add(k),
                BinaryOp::Sub => *a = a.saturating_sub(k),
                _ => unreachable!("only `+` and `-` fold"),
            }
            return;
        }
        self.emit(Op::Const(k), span);
        self.emit(Op::Bin(op), span);
    }

    /// The index the next instruction will have.
    pub(super) fn here(&self) -> u32 {
        self.code.len() as u32
    }

    /// Points the jump at `at` to `target`.
    pub(super) fn patch(&mut self, at: usize, target: u32) {
        match &mut self.code[at] {
            Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfNot(t) => *t = target,
            _ => {}
        }
    }

    /// Points the jump at `at` to the next instruction.
    pub(super) fn patch_here(&mut self, at: usize) {
        let here = self.here();
        self.patch(at, here);
    }

    /// Declares a local in the current scope; returns its slot. Past
    /// [`MAX_LOCALS`], the last slot again (see `too_many_locals`).
    pub(super) fn declare(&mut self, name: &str, ty: Ty) -> u16 {
        let slot = if usize::from(self.nlocals) < MAX_LOCALS {
            self.nlocals += 1;
            self.nlocals - 1
        } else {
            self.too_many_locals = true;
            self.nlocals - 1
        };
        self.locals.push(Local {
            name: name.to_string(),
            ty,
            slot,
        });
        slot
    }

    /// A nameless local.
    pub(super) fn temp(&mut self) -> u16 {
        self.declare("", Ty::Int)
    }

    /// The local a name denotes here, if any.
    pub(super) fn lookup(&self, name: &str) -> Option<&Local> {
        self.locals.iter().rev().find(|l| l.name == name)
    }

    /// Whether the loop being compiled is one `break` may leave.
    pub(super) fn in_loop(&self) -> bool {
        !self.loops.is_empty()
    }

    /// Adds a jump to the end of the innermost loop.
    pub(super) fn add_break(&mut self, jump: usize) {
        if let Some(l) = self.loops.last_mut() {
            l.breaks.push(jump);
        }
    }

    /// Where `continue` goes in the innermost loop.
    pub(super) fn continue_target(&self) -> Option<u32> {
        self.loops.last().map(|l| l.continue_to)
    }

    /// Finishes into a function.
    pub fn finish(mut self, name: &str, arity: usize, span: Span) -> Func {
        let returns = self.ret != Ty::Void;
        if returns {
            self.emit(Op::Const(0), span);
        }
        self.emit(Op::Ret, span);
        super::peephole::thread_jumps(&mut self.code);
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
            heights: Vec::new(),
            max_stack: 0,
        }
    }
}

impl Compiler<'_> {
    /// Compiles `body` in a scope of its own: the names it declares go out
    /// of scope when it returns (their slots stay allocated).
    pub(super) fn scoped<T>(
        &mut self,
        f: &mut FnCtx,
        body: impl FnOnce(&mut Self, &mut FnCtx) -> T,
    ) -> T {
        let mark = f.locals.len();
        let out = body(self, f);
        for l in &mut f.locals[mark..] {
            l.name.clear();
        }
        out
    }

    /// Compiles `body` where only `params` are named, each bound to its
    /// slot (an inlined function body): the names in scope are hidden
    /// meanwhile and restored afterwards.
    pub(super) fn isolated<T>(
        &mut self,
        f: &mut FnCtx,
        params: &[(String, Ty)],
        slots: &[u16],
        body: impl FnOnce(&mut Self, &mut FnCtx) -> T,
    ) -> T {
        let hidden: Vec<String> = f
            .locals
            .iter_mut()
            .map(|l| std::mem::take(&mut l.name))
            .collect();
        let mark = f.locals.len();
        for ((name, ty), slot) in params.iter().zip(slots) {
            f.locals.push(Local {
                name: name.clone(),
                ty: ty.clone(),
                slot: *slot,
            });
        }
        let out = body(self, f);
        f.locals.truncate(mark);
        for (l, name) in f.locals.iter_mut().zip(hidden) {
            l.name = name;
        }
        out
    }

    /// Compiles the body of a loop that `break` and `continue` may leave:
    /// `continue` goes to `top`; the jumps in `exits` and every `break`
    /// go to the instruction after the body.
    pub(super) fn breakable(
        &mut self,
        f: &mut FnCtx,
        top: u32,
        exits: Vec<usize>,
        body: impl FnOnce(&mut Self, &mut FnCtx),
    ) {
        f.loops.push(LoopCtx {
            continue_to: top,
            breaks: exits,
        });
        body(self, f);
        let l = f.loops.pop().expect("the loop pushed above");
        for b in l.breaks {
            f.patch_here(b);
        }
    }
}

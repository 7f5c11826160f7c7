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
    /// The value the local is known to hold wherever its name is in
    /// scope (an element of an unrolled loop): read as that constant, the
    /// slot itself is never stored.
    pub(super) value: Option<i64>,
}

/// A point of the compilation of a body, to come back to.
pub(super) struct Mark {
    code: usize,
    locals: usize,
    nlocals: u16,
    too_many_locals: bool,
    pinned: u32,
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
    /// How many fields of constant items were read as constants so far
    /// (an unrolled loop is kept only where it folds some).
    pub(super) folded_fields: usize,
    /// Whether a loop is being unrolled: loops inside it are not (each
    /// body is then compiled at most twice, by a try and by the loop that
    /// replaces it, however deep loops nest).
    pub(super) unrolling: bool,
    /// The greatest index code may be entered at other than from the
    /// instruction before (a jump's target, a loop's top, where a light
    /// try starts): the code before it is never rewritten (see
    /// [`FnCtx::emit`]).
    pinned: u32,
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
            pinned: 0,
            folded_fields: 0,
            unrolling: false,
        };
        for (n, t) in params {
            f.declare(n, t.clone());
        }
        f
    }

    /// Appends an instruction; returns its index. An operation on
    /// constants pushed just before, which no jump skips, is done here:
    /// `not`, `-` and the integer operators become the constant they
    /// compute (as the interpreter does), and a requirement of a true
    /// constant disappears with it.
    pub(super) fn emit(&mut self, op: Op, span: Span) -> usize {
        let n = self.code.len();
        let unpinned = |k: usize| n >= k && self.pinned as usize <= n - k;
        let last = |k: usize| match self.code.get(n.wrapping_sub(k)) {
            Some(Op::Const(v)) if unpinned(k) => Some(*v),
            _ => None,
        };
        let folded = match (&op, last(1), last(2)) {
            (Op::Not, Some(a), _) => Some((1, Some((a == 0) as i64))),
            (Op::Neg, Some(a), _) => Some((1, Some(a.saturating_neg()))),
            (Op::Require(_), Some(a), _) if a != 0 => Some((1, None)),
            (Op::Bin(op), Some(b), Some(a)) => fold_binary(*op, a, b).map(|r| (2, Some(r))),
            _ => None,
        };
        if let Some((used, value)) = folded {
            self.code.truncate(n - used);
            self.spans.truncate(n - used);
            return match value {
                Some(v) => self.emit(Op::Const(v), span),
                None => self.code.len(),
            };
        }
        if matches!(
            op,
            Op::Jump(_) | Op::JumpIf(_) | Op::JumpIfNot(_) | Op::ChooseWait(_)
        ) {
            self.pinned = n as u32 + 1;
        }
        self.code.push(op);
        self.spans.push(span);
        n
    }

    /// Emits `Const(k); Bin(op)` for `+` or `-`, or, when the last
    /// instruction pushes a constant that no jump skips, folds the
    /// operation into it (saturating, as the interpreter computes).
    pub(super) fn emit_add_const(&mut self, op: BinaryOp, k: i64, span: Span) {
        let here = self.code.len() as u32;
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

    /// Removes the constant the code just pushed, if it did and no jump
    /// goes past it; returns its value.
    pub(super) fn take_const(&mut self) -> Option<i64> {
        let n = self.code.len();
        match self.code.last() {
            Some(Op::Const(v)) if (self.pinned as usize) < n => {
                let v = *v;
                self.code.pop();
                self.spans.pop();
                Some(v)
            }
            _ => None,
        }
    }

    /// The index the next instruction will have, where code may now be
    /// entered (a jump may go there).
    pub(super) fn here(&mut self) -> u32 {
        self.pinned = self.code.len() as u32;
        self.pinned
    }

    /// Points the jump at `at` to `target`.
    pub(super) fn patch(&mut self, at: usize, target: u32) {
        self.pinned = self.pinned.max(target);
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
            value: None,
        });
        slot
    }

    /// Names the slot `slot` (allocated, never stored) as the constant
    /// `value` in the current scope: the name is read as `Const(value)`
    /// (see [`Local::value`]).
    pub(super) fn name_known(&mut self, name: &str, ty: Ty, slot: u16, value: i64) {
        let value = (!self.too_many_locals).then_some(value);
        self.locals.push(Local {
            name: name.to_string(),
            ty,
            slot,
            value,
        });
    }

    /// Where the code stands now, to come back to ([`FnCtx::rewind`]).
    pub(super) fn mark(&self) -> Mark {
        Mark {
            code: self.code.len(),
            locals: self.locals.len(),
            nlocals: self.nlocals,
            too_many_locals: self.too_many_locals,
            pinned: self.pinned,
        }
    }

    /// Forgets the code emitted and the locals declared since `m`.
    pub(super) fn rewind(&mut self, m: Mark) {
        self.code.truncate(m.code);
        self.spans.truncate(m.code);
        self.locals.truncate(m.locals);
        self.nlocals = m.nlocals;
        self.too_many_locals = m.too_many_locals;
        self.pinned = m.pinned;
    }

    /// Names the existing local `slot` in the current scope (a value
    /// already stored there is given its name without a copy).
    pub(super) fn alias(&mut self, name: &str, ty: Ty, slot: u16) {
        let value = self.known(slot);
        self.locals.push(Local {
            name: name.to_string(),
            ty,
            slot,
            value,
        });
    }

    /// The constant the local `slot` is known to hold, if any (the last
    /// declaration of the slot tells: a slot is never given to two
    /// locals, but an alias names it again).
    fn known(&self, slot: u16) -> Option<i64> {
        self.locals
            .iter()
            .rev()
            .find(|l| l.slot == slot)
            .and_then(|l| l.value)
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

/// The value of `a op b` on two integers as the interpreter computes it,
/// for the operators that cannot fail (and that are not the intersection
/// of sets, nor membership).
fn fold_binary(op: BinaryOp, a: i64, b: i64) -> Option<i64> {
    match op {
        BinaryOp::Or | BinaryOp::And => None,
        _ => op.on_ints(a, b),
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
            // An argument naming a known constant local keeps it known.
            let value = f.known(*slot);
            f.locals.push(Local {
                name: name.clone(),
                ty: ty.clone(),
                slot: *slot,
                value,
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

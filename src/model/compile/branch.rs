//! Conditions compiled as jumps: `if`, `while`, a binder's filter, an
//! arm's condition and the early exits of `any`/`all` need no boolean
//! value, only where to go. `and`, `or` and `not` become jumps of their
//! own (no value is pushed, duplicated and popped), and a comparison that
//! decides by being true is turned into its opposite, so that every test
//! ends in a `JumpIfNot` the fused instructions cover.

use crate::ir::bytecode::{BinaryOp, Op};
use crate::ir::ruleset::Ty;
use crate::ir::span::Span;
use crate::lang::ast::{BinOp, Expr, ExprKind};

use super::context::FnCtx;
use super::Compiler;

impl Compiler<'_> {
    /// Compiles the condition `c` as a branch: the code jumps when `c` is
    /// `when` and goes on when it is not. Returns the jumps, to patch to
    /// where they go. The jumps carry the span `sp` (where a runaway loop
    /// is reported).
    pub(super) fn branch(&mut self, f: &mut FnCtx, c: &Expr, when: bool, sp: Span) -> Vec<usize> {
        self.branch_checked(f, c, when, "a condition", sp)
    }

    /// [`Self::branch`], with what the condition is for the error when it
    /// is not a boolean.
    fn branch_checked(
        &mut self,
        f: &mut FnCtx,
        c: &Expr,
        when: bool,
        what: &str,
        sp: Span,
    ) -> Vec<usize> {
        // One level deeper for `not`, `and` and `or`, as when they are
        // compiled as values.
        match &c.kind {
            ExprKind::Not(x) => {
                self.depth += 1;
                let jumps = self.branch_checked(f, x, !when, "the operand of `not`", sp);
                self.depth -= 1;
                jumps
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                self.depth += 1;
                // `a and b` is false as soon as `a` is; `a or b` is true.
                let decides = *op == BinOp::Or;
                let mut early = self.branch(f, a, decides, sp);
                let jumps = if when == decides {
                    early.extend(self.branch(f, b, when, sp));
                    early
                } else {
                    let jumps = self.branch(f, b, when, sp);
                    for j in early {
                        f.patch_here(j);
                    }
                    jumps
                };
                self.depth -= 1;
                jumps
            }
            _ => {
                // A call of a boolean function that is inlined compiles
                // its body as this branch, and so does an unrolled `any`
                // or `all`.
                let answers = matches!(c.kind, ExprKind::Call(..) | ExprKind::Aggregate(..));
                f.branch_into = answers.then_some((when, sp));
                let t = self.expr(f, c);
                f.branch_into = None;
                self.expect(&Ty::Bool, &t, c.span, what);
                if let Some(jumps) = f.branched.take() {
                    return jumps;
                }
                let mut jump_if = when;
                if when && f.flip_comparison(c) {
                    jump_if = false;
                }
                let jump = if jump_if {
                    Op::JumpIf(0)
                } else {
                    Op::JumpIfNot(0)
                };
                vec![f.emit(jump, sp)]
            }
        }
    }
}

impl FnCtx {
    /// When `c` is a comparison whose code was just emitted, turns its
    /// comparing `Bin` into the opposite one (true exactly when `c` is
    /// false); returns whether it did.
    pub(super) fn flip_comparison(&mut self, c: &Expr) -> bool {
        if !is_comparison(c) {
            return false;
        }
        match self.code.last_mut() {
            Some(Op::Bin(op)) => match opposite(*op) {
                Some(o) => {
                    *op = o;
                    true
                }
                None => false,
            },
            _ => false,
        }
    }
}

/// Whether `c` is a comparison (its code ends with the comparing `Bin`).
fn is_comparison(c: &Expr) -> bool {
    matches!(
        c.kind,
        ExprKind::Binary(
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
            ..
        )
    )
}

/// The comparison true exactly when `op` is false (on two integers, and
/// for `==`/`!=` on two sets).
fn opposite(op: BinaryOp) -> Option<BinaryOp> {
    use BinaryOp::*;
    Some(match op {
        Eq => Ne,
        Ne => Eq,
        Lt => Ge,
        Ge => Lt,
        Le => Gt,
        Gt => Le,
        _ => return None,
    })
}

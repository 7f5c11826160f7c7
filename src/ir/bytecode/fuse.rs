//! Fusing: common instruction sequences written over by one fused
//! instruction (the fused variants of [`Op`]), each instruction keeping
//! its index.

use super::{BinaryOp, Builtin, Op, VarId};

/// What fusing needs to know of a state variable: fused instructions
/// whose fast path never applies to it are left out.
#[derive(Debug, Clone, Copy)]
pub struct VarShape {
    /// How many indices it takes.
    pub dims: usize,
    /// Whether its elements are sets.
    pub is_set: bool,
}

impl VarShape {
    /// One index, an element that is not a set (`LoadVarAt`'s fast path).
    fn one_index_scalar(self) -> bool {
        self.dims == 1 && !self.is_set
    }
}

/// Fuses common instruction sequences (see the fused variants of [`Op`]).
/// Every instruction keeps its index, so jumps need no change. `var`
/// tells the shape of each state variable.
///
/// A fusion is left out where it would hide a longer one just after it:
/// each index gets its fusion or its own instruction, whichever runs the
/// fewer instructions from there on, going straight (a fused instruction
/// skips its sequence); the fusion when they run as many.
pub fn fuse(code: &mut [Op], var: &dyn Fn(VarId) -> VarShape) {
    let orig = code.to_vec();
    let n = orig.len();
    // `runs[i]`: instructions run from `i` to the next jump or the end.
    let mut runs = vec![0u32; n + 1];
    for i in (0..n).rev() {
        let cost = |op: &Op, len: usize| {
            1 + if ends_path(op) {
                0
            } else {
                runs[(i + len).min(n)]
            }
        };
        let fused = fusion(&orig[i..], var).map(|op| {
            let c = cost(&op, fused_len(&op));
            (op, c)
        });
        let plain = cost(&orig[i], 1);
        runs[i] = match fused {
            Some((op, c)) if c <= plain => {
                code[i] = op;
                c
            }
            _ => plain,
        };
    }
}

/// How many instructions a fused instruction does the work of (1 for
/// one not fused).
fn fused_len(op: &Op) -> usize {
    match op {
        Op::StepCmpJump { .. } => 8,
        Op::VarStoreCmpJump(..) => 6,
        Op::LoadBinKJumpIfNot(..) => 4,
        Op::LoadJump(..) => 2,
        Op::LoadFieldBinNth(..) | Op::LocalRun(..) => 5,
        Op::InJump(..) | Op::LocalGroups(..) | Op::DupSubFieldEq(..) => 4,
        Op::StoreCmpJump(..) => 5,
        Op::WithLocal(..)
        | Op::LoadVarAtIn(..)
        | Op::BinKRequireLegal(..)
        | Op::LocalsRequire(..)
        | Op::LoadRequireIn(..)
        | Op::LoadVarAtBinK(..) => 4,
        Op::LoadLoadField(..) | Op::LoadLoadVarAt(..) => 3,
        Op::LoadBinNth(..)
        | Op::StoreLoadVarAt(..)
        | Op::LoadsFieldIndex(..)
        | Op::LoadVarSetIn(..)
        | Op::SetLocalStore(..) => 3,
        Op::LoadBinK(..)
        | Op::BinKJumpIfNot(..)
        | Op::AndJump(_)
        | Op::OrJump(_)
        | Op::RequireIn(..) => 3,
        Op::AllSubVar(..) | Op::VarsSetBin(..) => 3,
        Op::BinK(..)
        | Op::BinJumpIfNot(..)
        | Op::Load2(..)
        | Op::StoreLoad(..)
        | Op::LoadField(..)
        | Op::LoadVarAt(..)
        | Op::SetNextOrJump { .. }
        | Op::VarSetIn(_)
        | Op::VarSetBin(..)
        | Op::VarCount(_)
        | Op::MembersEqFirst(_)
        | Op::MembersFieldEqFirst(..)
        | Op::MembersEqCount(_)
        | Op::MembersFieldEqCount(..)
        | Op::RequireLegal(..)
        | Op::Store2(..)
        | Op::Move(..)
        | Op::SetLocal(..)
        | Op::StoreJump(..)
        | Op::BinRequire(..)
        | Op::LoadBin(..) => 2,
        _ => 1,
    }
}

/// Whether the code after an instruction is never run straight after it.
fn ends_path(op: &Op) -> bool {
    matches!(
        op,
        Op::Jump(_) | Op::StoreJump(..) | Op::Ret | Op::Halt | Op::Fail(_)
    )
}

/// The fused instruction that can be written over the first of `code`,
/// if any (the longest sequences first).
fn fusion(code: &[Op], var: &dyn Fn(VarId) -> VarShape) -> Option<Op> {
    if let Some(op) = fuse_long(code, var) {
        return Some(op);
    }
    let next = code.get(1);
    match (&code[0], next, code.get(2)) {
        (Op::LoadVar(v), Some(Op::SetIn), _) => Some(Op::VarSetIn(*v)),
        (
            Op::LoadVar(v),
            Some(Op::Bin(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::And))),
            _,
        ) if var(*v).is_set => Some(Op::VarSetBin(*v, *op)),
        (Op::LoadVar(v), Some(Op::Builtin(Builtin::Count, 1)), _) if var(*v).is_set => {
            Some(Op::VarCount(*v))
        }
        (Op::MembersEq(v), Some(Op::Builtin(Builtin::First, 1)), _) => Some(Op::MembersEqFirst(*v)),
        (Op::MembersFieldEq(k, f), Some(Op::Builtin(Builtin::First, 1)), _) => {
            Some(Op::MembersFieldEqFirst(*k, *f))
        }
        (Op::MembersEq(v), Some(Op::SetCount), _) => Some(Op::MembersEqCount(*v)),
        (Op::MembersFieldEq(k, f), Some(Op::SetCount), _) => Some(Op::MembersFieldEqCount(*k, *f)),
        (Op::Const(k), Some(Op::Bin(op)), Some(Op::JumpIfNot(t))) if fusable(*op) => {
            Some(Op::BinKJumpIfNot(*op, *k, *t))
        }
        (Op::Dup, Some(Op::JumpIfNot(t)), Some(Op::Pop)) => Some(Op::AndJump(*t)),
        (Op::Dup, Some(Op::JumpIf(t)), Some(Op::Pop)) => Some(Op::OrJump(*t)),
        (Op::Load(l), Some(Op::LoadVar(v)), _) if var(*v).one_index_scalar() => {
            Some(Op::LoadVarAt(*l, *v))
        }
        (Op::SetNext { set, cur, var }, Some(Op::JumpIfNot(t)), _) => Some(Op::SetNextOrJump {
            set: *set,
            cur: *cur,
            var: *var,
            done: *t,
        }),
        (Op::Load(l), Some(Op::Const(k)), Some(Op::Bin(op))) if fusable(*op) => {
            Some(Op::LoadBinK(*l, *op, *k))
        }
        (Op::Const(k), Some(Op::Bin(op)), _) if fusable(*op) => Some(Op::BinK(*op, *k)),
        (Op::Bin(op), Some(Op::JumpIfNot(t)), _) if fusable(*op) => Some(Op::BinJumpIfNot(*op, *t)),
        (Op::Load(l), Some(Op::Bin(op)), _) if fusable(*op) => Some(Op::LoadBin(*l, *op)),
        (Op::Load(a), Some(Op::Load(b)), _) => Some(Op::Load2(*a, *b)),
        (Op::Store(a), Some(Op::Load(b)), _) => Some(Op::StoreLoad(*a, *b)),
        (Op::Load(l), Some(Op::Field(k, f)), _) => Some(Op::LoadField(*l, *k, *f)),
        (Op::Store(a), Some(Op::Store(b)), _) => Some(Op::Store2(*a, *b)),
        (Op::Load(a), Some(Op::Store(b)), _) => Some(Op::Move(*a, *b)),
        (Op::Const(k), Some(Op::Store(a)), _) => Some(Op::SetLocal(*a, *k)),
        (Op::Store(a), Some(Op::Jump(t)), _) => Some(Op::StoreJump(*a, *t)),
        _ => None,
    }
}

/// The fusions of three or more instructions starting `code` that the
/// shorter ones would hide.
fn fuse_long(code: &[Op], var: &dyn Fn(VarId) -> VarShape) -> Option<Op> {
    match code {
        [Op::Load(a), Op::Load(b), Op::Builtin(w @ (Builtin::With | Builtin::Without), 2), Op::Store(c), ..]
            if a == c =>
        {
            Some(Op::WithLocal(*a, *b, *w == Builtin::With))
        }
        [Op::Load(a), Op::Const(k), Op::Bin(BinaryOp::Add), Op::Dup, Op::Store(c), Op::Load(b), Op::Bin(op), Op::JumpIfNot(t), ..]
            if a == c && fusable(*op) && i32::try_from(*k).is_ok() =>
        {
            Some(Op::StepCmpJump {
                var: *a,
                bound: *b,
                step: *k as i32,
                op: *op,
                exit: *t,
            })
        }
        [Op::Load(c), Op::Const(dx), Op::Const(dy), Op::Load(s), Op::RunLength(k, back), ..] => {
            let step = |d: i64| i8::try_from(if *back { d.saturating_neg() } else { d }).ok();
            Some(Op::LocalRun(*c, *s, step(*dx)?, step(*dy)?, *k))
        }
        [Op::Require(m), Op::Legal(l), ..] => Some(Op::RequireLegal(*m, *l)),
        [Op::LoadVar(a), Op::LoadVar(b), Op::Bin(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::And)), ..]
            if [a, b].iter().all(|v| var(**v).is_set && var(**v).dims == 0) =>
        {
            Some(Op::VarsSetBin(*a, *b, *op))
        }
        [Op::SetAll(k), Op::LoadVar(v), Op::Bin(BinaryOp::Sub), ..]
            if var(*v).is_set && var(*v).dims == 0 =>
        {
            Some(Op::AllSubVar(*k, *v))
        }
        [Op::Dup, Op::Const(x), Op::MembersFieldEq(k, f), Op::Bin(BinaryOp::Sub), ..] => {
            Some(Op::DupSubFieldEq(*k, *f, i32::try_from(*x).ok()?))
        }
        [Op::Const(k), Op::Bin(op), Op::Require(m), Op::Legal(l), ..]
            if fusable(*op) && i32::try_from(*k).is_ok() =>
        {
            Some(Op::BinKRequireLegal(*op, *k as i32, *m, *l))
        }
        [Op::Load(a), Op::Load(b), Op::Bin(op), Op::Require(m), ..] if fusable(*op) => {
            Some(Op::LocalsRequire(*a, *b, *op, *m))
        }
        [Op::Load(a), Op::Field(k, f), Op::Load(l), Op::Bin(op), Op::Nth(n), ..]
            if fusable(*op) =>
        {
            Some(Op::LoadFieldBinNth(*a, *k, *f, *l, *op, *n))
        }
        [Op::Load(l), Op::LoadVar(v), Op::SetIn, Op::JumpIf(t) | Op::JumpIfNot(t), ..]
            if var(*v).is_set =>
        {
            Some(Op::InJump(*l, *v, *t, matches!(code[3], Op::JumpIf(_))))
        }
        [Op::Load(l), Op::LoadVar(v), Op::SetIn, Op::Require(m), ..] => {
            Some(Op::LoadRequireIn(*l, *v, *m))
        }
        [Op::Load(a), Op::Load(b), Op::Field(k, f), ..] => Some(Op::LoadLoadField(*a, *b, *k, *f)),
        [Op::Load(l), Op::LoadVar(v), Op::Const(k), Op::Bin(op), ..]
            if fusable(*op) && i32::try_from(*k).is_ok() && var(*v).one_index_scalar() =>
        {
            Some(Op::LoadVarAtBinK(*l, *v, *op, *k as i32))
        }
        [Op::Load(c), Op::Load(s), Op::LoadVar(m), Op::GroupsAround(k, true), ..]
            if var(*m).is_set && var(*m).dims == 0 =>
        {
            Some(Op::LocalGroups(*c, *s, *m, *k))
        }
        [Op::Load(a), Op::Load(b), Op::LoadVar(v), ..] => Some(Op::LoadLoadVarAt(*a, *b, *v)),
        [Op::LoadVar(v), Op::SetIn, Op::Require(m), ..] => Some(Op::RequireIn(*v, *m)),
        [Op::Load(l), Op::LoadVar(v), Op::LoadVar(w), Op::SetIn, ..]
            if var(*v).one_index_scalar() && var(*w).is_set =>
        {
            Some(Op::LoadVarAtIn(*l, *v, *w))
        }
        [Op::Bin(op), Op::Require(m), ..] if fusable(*op) => Some(Op::BinRequire(*op, *m)),
        [Op::Load(l), Op::Bin(op), Op::Nth(k), ..] if fusable(*op) => {
            Some(Op::LoadBinNth(*l, *op, *k))
        }
        [Op::Store(a), Op::Load(b), Op::LoadVar(v), ..] if var(*v).one_index_scalar() => {
            Some(Op::StoreLoadVarAt(*a, *b, *v))
        }
        [Op::Load(a), Op::Load(b), Op::FieldIndex(k, f), ..] => {
            Some(Op::LoadsFieldIndex(*a, *b, *k, *f))
        }
        [Op::Load(l), Op::LoadVar(v), Op::SetIn, ..] if var(*v).is_set => {
            Some(Op::LoadVarSetIn(*l, *v))
        }
        [Op::Const(k), Op::Store(a), Op::Store(b), ..] if i32::try_from(*k).is_ok() => {
            Some(Op::SetLocalStore(*a, *b, *k as i32))
        }
        [Op::Load(l), Op::Const(k), Op::Bin(op), Op::JumpIfNot(t), ..]
            if fusable(*op) && i32::try_from(*k).is_ok() =>
        {
            Some(Op::LoadBinKJumpIfNot(*l, *op, *k as i32, *t))
        }
        [Op::Load(l), Op::JumpIf(t) | Op::JumpIfNot(t), ..] => {
            Some(Op::LoadJump(*l, *t, matches!(code[1], Op::JumpIf(_))))
        }
        [Op::LoadVar(v), Op::Store(a), Op::Load(b), Op::Const(k), Op::Bin(op), Op::JumpIfNot(t), ..]
            if a == b && !var(*v).is_set && fusable(*op) && i16::try_from(*k).is_ok() =>
        {
            Some(Op::VarStoreCmpJump(*v, *a, *op, *k as i16, *t))
        }
        [Op::Dup, Op::Store(a), Op::Load(b), Op::Bin(op), Op::JumpIfNot(t), ..] if fusable(*op) => {
            Some(Op::StoreCmpJump(*a, *b, *op, *t))
        }
        _ => None,
    }
}

/// Operators with a fast path on two integers.
fn fusable(op: BinaryOp) -> bool {
    !matches!(op, BinaryOp::Div | BinaryOp::Rem | BinaryOp::In)
}

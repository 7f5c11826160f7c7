//! The load-time proof of a function's bytecode that the interpreter
//! relies on to push, pop and reach locals without checks.
//!
//! Every instruction is given the height of the stack before it (its
//! frame's locals included), the same on every path that reaches it; no
//! instruction pops what its frame does not hold above its locals, every
//! local named is below the frame's count of locals, every jump lands in
//! the function, no path runs past its end, and every call passes its
//! callee's parameters. The greatest height reached is the room the
//! interpreter reserves when the function is entered or resumed.
//!
//! A fused instruction (see `bytecode::fuse`) is walked as the sequence
//! it stands for, and may stop after any part of it (its fast path does
//! the whole sequence, its slow paths a prefix): the walk covers every
//! way the interpreter may run it.

use crate::ir::bytecode::{self, BinaryOp, Func, Op};
use crate::ir::ruleset::Ruleset;
use smallvec::{smallvec, SmallVec};

/// The height recorded for an instruction no path reaches.
pub const UNREACHED: u32 = u32::MAX;

/// What the walk proved of one function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// The stack's height (locals included) before each instruction,
    /// [`UNREACHED`] for the unreachable ones.
    pub heights: Vec<u32>,
    /// The greatest height the function reaches (at least its locals).
    pub max_stack: u32,
}

/// Walks `func` of `rules`; the error names the instruction's index and
/// what is wrong with it (a mistake of the compiler, never of the rules).
pub fn check(rules: &Ruleset, func: &Func) -> Result<Shape, (usize, String)> {
    let nlocals = u32::try_from(func.nlocals).map_err(|_| (0, "too many locals".to_string()))?;
    if func.arity > func.nlocals {
        return Err((0, "more parameters than locals".into()));
    }
    let mut walk = Walk {
        rules,
        func,
        nlocals,
        heights: vec![UNREACHED; func.code.len()],
        work: Vec::new(),
        max: nlocals,
    };
    walk.reach(0, 0, nlocals)?;
    while let Some(pc) = walk.work.pop() {
        walk.instruction(pc).map_err(|m| (pc, m))?;
    }
    Ok(Shape {
        heights: walk.heights,
        max_stack: walk.max,
    })
}

/// Checks every function of `rules` and records what was proved in each;
/// the error names the function, the instruction and the mistake.
pub fn check_all(rules: &mut Ruleset) -> Result<(), (usize, usize, String)> {
    let mut shapes = Vec::with_capacity(rules.funcs.len());
    for (fi, f) in rules.funcs.iter().enumerate() {
        shapes.push(check(rules, f).map_err(|(pc, m)| (fi, pc, m))?);
    }
    for (f, s) in rules.funcs.iter_mut().zip(shapes) {
        f.heights = s.heights;
        f.max_stack = s.max_stack;
    }
    Ok(())
}

/// The walk over one function: the heights found so far and the
/// instructions still to visit.
struct Walk<'a> {
    rules: &'a Ruleset,
    func: &'a Func,
    nlocals: u32,
    heights: Vec<u32>,
    work: Vec<usize>,
    max: u32,
}

/// What one plain (unfused) instruction does to the stack and where it
/// may go next.
struct Effect {
    pops: u32,
    pushes: u32,
    jump: Option<u32>,
    falls_through: bool,
}

impl Effect {
    fn of(pops: u32, pushes: u32) -> Effect {
        Effect {
            pops,
            pushes,
            jump: None,
            falls_through: true,
        }
    }
}

impl Walk<'_> {
    /// Records that `to` is reached (from instruction `from`) with the
    /// stack at height `h`.
    fn reach(&mut self, from: usize, to: usize, h: u32) -> Result<(), (usize, String)> {
        let Some(seen) = self.heights.get_mut(to) else {
            return Err((from, format!("goes to {to}, past the end of the function")));
        };
        if *seen == UNREACHED {
            *seen = h;
            self.work.push(to);
        } else if *seen != h {
            return Err((
                from,
                format!("reaches {to} at height {h}, elsewhere {seen}"),
            ));
        }
        Ok(())
    }

    /// Walks the instruction at `pc` (its height is known).
    fn instruction(&mut self, pc: usize) -> Result<(), String> {
        let mut h = self.heights[pc];
        let seq = unfused(&self.func.code[pc]);
        for (k, op) in seq.iter().enumerate() {
            if k > 0 {
                // A slow path may stop here, the rest left to the
                // instructions that follow.
                self.reach(pc, pc + k, h).map_err(|e| e.1)?;
            }
            let e = self.effect(op)?;
            if h < self.nlocals + e.pops {
                return Err(format!("{op:?} pops below the locals (height {h})"));
            }
            // The pushes come after the pops except for `Dup` and
            // `ChooseWait`, whose peak is the height after them.
            h = h - e.pops + e.pushes;
            self.max = self.max.max(h);
            if self.max >= UNREACHED / 2 {
                return Err("the stack grows without bound".into());
            }
            if let Some(t) = e.jump {
                self.reach(pc, t as usize, h).map_err(|e| e.1)?;
            }
            if !e.falls_through {
                return Ok(());
            }
        }
        self.reach(pc, pc + seq.len(), h).map_err(|e| e.1)
    }

    /// A local's index, checked.
    fn local(&self, l: u16) -> Result<(), String> {
        if u32::from(l) < self.nlocals {
            Ok(())
        } else {
            Err(format!("local {l} of {} locals", self.nlocals))
        }
    }

    /// The number of indices of variable `v`.
    fn dims(&self, v: u32) -> Result<u32, String> {
        let vd = self.rules.vars.get(v as usize);
        vd.map(|vd| vd.dims.len() as u32)
            .ok_or_else(|| format!("no variable {v}"))
    }

    /// What a plain instruction does (its operands checked).
    fn effect(&self, op: &Op) -> Result<Effect, String> {
        let jump = |pops: u32, t: u32, falls_through: bool| Effect {
            pops,
            pushes: 0,
            jump: Some(t),
            falls_through,
        };
        Ok(match *op {
            Op::Const(_) | Op::KindSize(_) | Op::SetAll(_) => Effect::of(0, 1),
            Op::Load(l) => {
                self.local(l)?;
                Effect::of(0, 1)
            }
            Op::Store(l) => {
                self.local(l)?;
                Effect::of(1, 0)
            }
            Op::LoadVar(v) | Op::ListLen(v) | Op::ListSet(v) | Op::ListDraw(v) => {
                Effect::of(self.dims(v)?, 1)
            }
            Op::StoreVar(v)
            | Op::AddVar(v)
            | Op::VarBit(v, _)
            | Op::VarMerge(v, _)
            | Op::ListPush(v)
            | Op::ListRemove(v) => Effect::of(1 + self.dims(v)?, 0),
            Op::ListIn(v) => Effect::of(1 + self.dims(v)?, 1),
            Op::ListShuffle(v) | Op::ListClear(v) => Effect::of(self.dims(v)?, 0),
            Op::Field(..)
            | Op::ParamIndex(_)
            | Op::Neg
            | Op::Not
            | Op::Nth(_)
            | Op::SetCount
            | Op::Adjacent(_)
            | Op::Components(_)
            | Op::SelectEq(_)
            | Op::CountEq(_)
            | Op::FieldImage(..) => Effect::of(1, 1),
            Op::FieldIndex(..)
            | Op::Bin(_)
            | Op::SetIn
            | Op::Connected(_)
            | Op::Toward(_)
            | Op::GridCell(_)
            | Op::MembersEq(_)
            | Op::MembersCmp(..)
            | Op::SetRange
            | Op::MembersFieldEq(..) => Effect::of(2, 1),
            Op::GroupsAround(..) => Effect::of(3, 1),
            Op::RunLength(..) => Effect::of(4, 1),
            Op::Rotate(_) | Op::ChooseAddRange(_) => Effect::of(2, 0),
            Op::SetMake(_, n) => Effect::of(u32::from(n), 1),
            Op::Builtin(_, argc) => Effect::of(u32::from(argc), 1),
            Op::Jump(t) => jump(0, t, false),
            Op::JumpIf(t) | Op::JumpIfNot(t) => jump(1, t, true),
            Op::Pop | Op::ChooseAdd(_) | Op::ChooseAddSet(_) | Op::Require(_) => Effect::of(1, 0),
            Op::Dup => Effect::of(1, 2),
            Op::Call(f, argc) => {
                let Some(callee) = self.rules.funcs.get(f as usize) else {
                    return Err(format!("call of no function {f}"));
                };
                if callee.arity != argc as usize {
                    return Err(format!("{argc} arguments for {} parameters", callee.arity));
                }
                Effect::of(u32::from(argc), callee.returns as u32)
            }
            // The callee is a procedure of `argc` parameters returning
            // nothing: checked by the interpreter when it calls.
            Op::CallDyn(argc) => Effect::of(u32::from(argc) + 1, 0),
            Op::Ret => Effect {
                pops: self.func.returns as u32,
                pushes: 0,
                jump: None,
                falls_through: false,
            },
            Op::SetNext { set, cur, var } => {
                self.local(set)?;
                self.local(cur)?;
                self.local(var)?;
                Effect::of(0, 1)
            }
            Op::ChooseBegin | Op::Legal(_) => Effect::of(0, 0),
            Op::ChooseAddScreened { choice, arm } => {
                let arm = self
                    .rules
                    .choices
                    .get(choice as usize)
                    .and_then(|c| c.arms.get(arm as usize))
                    .ok_or_else(|| format!("no arm {arm} of choice {choice}"))?;
                Effect::of(1 + arm.screen.len() as u32, 0)
            }
            // Pops the deciding player; the run resumes with the chosen
            // value and arm pushed (`vm::resume`).
            Op::ChooseWait(_) => Effect::of(1, 2),
            Op::Fail(_) | Op::Halt => Effect {
                pops: 0,
                pushes: 0,
                jump: None,
                falls_through: false,
            },
            _ => return Err(format!("{op:?} is fused, not plain")),
        })
    }
}

/// The plain instructions a fused one stands for (a plain one alone),
/// held inline (no allocation).
pub fn unfused(op: &Op) -> SmallVec<[Op; 8]> {
    use Op::*;
    match *op {
        BinK(op, k) => smallvec![Const(k), Bin(op)],
        LoadBinK(l, op, k) => smallvec![Load(l), Const(k), Bin(op)],
        BinJumpIfNot(op, t) => smallvec![Bin(op), JumpIfNot(t)],
        Load2(a, b) => smallvec![Load(a), Load(b)],
        StoreLoad(a, b) => smallvec![Store(a), Load(b)],
        LoadField(l, k, f) => smallvec![Load(l), Field(k, f)],
        BinKJumpIfNot(op, k, t) => smallvec![Const(k), Bin(op), JumpIfNot(t)],
        AndJump(t) => smallvec![Dup, JumpIfNot(t), Pop],
        OrJump(t) => smallvec![Dup, JumpIf(t), Pop],
        LoadVarAt(l, v) => smallvec![Load(l), LoadVar(v)],
        SetNextOrJump {
            set,
            cur,
            var,
            done,
        } => smallvec![SetNext { set, cur, var }, JumpIfNot(done)],
        VarSetIn(v) => smallvec![LoadVar(v), SetIn],
        VarSetBin(v, op) => smallvec![LoadVar(v), Bin(op)],
        VarCount(v) => smallvec![LoadVar(v), Builtin(bytecode::Builtin::Count, 1)],
        MembersEqFirst(v) => smallvec![MembersEq(v), Builtin(bytecode::Builtin::First, 1)],
        MembersFieldEqFirst(k, f) => {
            smallvec![MembersFieldEq(k, f), Builtin(bytecode::Builtin::First, 1)]
        }
        MembersEqCount(v) => smallvec![MembersEq(v), SetCount],
        MembersFieldEqCount(k, f) => smallvec![MembersFieldEq(k, f), SetCount],
        WithLocal(a, b, on) => {
            let b2 = if on {
                bytecode::Builtin::With
            } else {
                bytecode::Builtin::Without
            };
            smallvec![Load(a), Load(b), Op::Builtin(b2, 2), Store(a)]
        }
        StoreCmpJump(a, b, op, t) => smallvec![Dup, Store(a), Load(b), Bin(op), JumpIfNot(t)],
        LoadBinKJumpIfNot(l, op, k, t) => {
            smallvec![Load(l), Const(k.into()), Bin(op), JumpIfNot(t)]
        }
        LoadJump(l, t, true) => smallvec![Load(l), JumpIf(t)],
        LoadJump(l, t, false) => smallvec![Load(l), JumpIfNot(t)],
        VarStoreCmpJump(v, a, op, k, t) => {
            smallvec![
                LoadVar(v),
                Store(a),
                Load(a),
                Const(k.into()),
                Bin(op),
                JumpIfNot(t)
            ]
        }
        StepCmpJump {
            var,
            bound,
            step,
            op,
            exit,
        } => smallvec![
            Load(var),
            Const(step.into()),
            Bin(BinaryOp::Add),
            Dup,
            Store(var),
            Load(bound),
            Bin(op),
            JumpIfNot(exit),
        ],
        RequireLegal(m, l) => smallvec![Require(m), Legal(l)],
        Store2(a, b) => smallvec![Store(a), Store(b)],
        Move(a, b) => smallvec![Load(a), Store(b)],
        SetLocal(a, k) => smallvec![Const(k), Store(a)],
        StoreJump(a, t) => smallvec![Store(a), Jump(t)],
        BinRequire(op, m) => smallvec![Bin(op), Require(m)],
        RequireIn(v, m) => smallvec![LoadVar(v), SetIn, Require(m)],
        LoadVarAtIn(l, v, w) => smallvec![Load(l), LoadVar(v), LoadVar(w), SetIn],
        BinKRequireLegal(op, k, m, l) => smallvec![Const(k.into()), Bin(op), Require(m), Legal(l)],
        LocalsRequire(a, b, op, m) => smallvec![Load(a), Load(b), Bin(op), Require(m)],
        LoadRequireIn(l, v, m) => smallvec![Load(l), LoadVar(v), SetIn, Require(m)],
        LoadLoadField(a, b, k, f) => smallvec![Load(a), Load(b), Field(k, f)],
        AllSubVar(k, v) => smallvec![SetAll(k), LoadVar(v), Bin(BinaryOp::Sub)],
        VarsSetBin(a, b, op) => smallvec![LoadVar(a), LoadVar(b), Bin(op)],
        DupSubFieldEq(k, f, x) => {
            smallvec![
                Dup,
                Const(x.into()),
                MembersFieldEq(k, f),
                Bin(BinaryOp::Sub)
            ]
        }
        LoadVarAtBinK(l, v, op, k) => smallvec![Load(l), LoadVar(v), Const(k.into()), Bin(op)],
        LoadLoadVarAt(a, b, v) => smallvec![Load(a), Load(b), LoadVar(v)],
        LoadBin(l, op) => smallvec![Load(l), Bin(op)],
        LoadBinNth(l, op, k) => smallvec![Load(l), Bin(op), Nth(k)],
        StoreLoadVarAt(a, b, v) => smallvec![Store(a), Load(b), LoadVar(v)],
        LoadsFieldIndex(a, b, k, f) => smallvec![Load(a), Load(b), FieldIndex(k, f)],
        LoadVarSetIn(l, v) => smallvec![Load(l), LoadVar(v), SetIn],
        SetLocalStore(a, b, k) => smallvec![Const(k.into()), Store(a), Store(b)],
        InJump(l, v, t, when) => {
            let jump = if when { JumpIf(t) } else { JumpIfNot(t) };
            smallvec![Load(l), LoadVar(v), SetIn, jump]
        }
        LoadFieldBinNth(a, k, f, l, op, n) => {
            smallvec![Load(a), Field(k, f), Load(l), Bin(op), Nth(n)]
        }
        LocalGroups(c, s, m, k) => smallvec![Load(c), Load(s), LoadVar(m), GroupsAround(k, true)],
        // The steps as run (a `back` folded into them).
        LocalRun(c, s, dx, dy, k) => {
            smallvec![
                Load(c),
                Const(dx.into()),
                Const(dy.into()),
                Load(s),
                RunLength(k, false)
            ]
        }
        _ => smallvec![op.clone()],
    }
}

//! The instructions the model compiles rules into and the engine runs.
//!
//! A function is a flat list of [`Op`]s over a value stack; locals live at
//! the bottom of each frame. Every op has a span (kept beside the code) so
//! that a runtime error points into the rules file that caused it.

use crate::ir::span::Span;

mod fuse;
pub use fuse::{fuse, VarShape};

/// Index of a function (a `fn`, a `proc`, or generated code) in the ruleset.
pub type FuncId = u32;
/// Index of a state variable.
pub type VarId = u32;
/// Index of a kind.
pub type KindId = u16;

/// An operator on two values: the rules' binary operators as the
/// interpreter runs them (`In` with an integer on the right is false).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (rounds toward negative infinity)
    Div,
    /// `%`
    Rem,
}

impl BinaryOp {
    /// The operation on two integers as the interpreter computes it
    /// (arithmetic saturates), or `None` where it may fail (division,
    /// remainder) or needs a set (`in`). The compiler folds constants
    /// with it, so that folding and running agree.
    #[inline(always)]
    pub fn on_ints(self, x: i64, y: i64) -> Option<i64> {
        use BinaryOp::*;
        Some(match self {
            Or => ((x != 0) || (y != 0)) as i64,
            And => ((x != 0) && (y != 0)) as i64,
            Eq => (x == y) as i64,
            Ne => (x != y) as i64,
            Lt => (x < y) as i64,
            Le => (x <= y) as i64,
            Gt => (x > y) as i64,
            Ge => (x >= y) as i64,
            Add => x.saturating_add(y),
            Sub => x.saturating_sub(y),
            Mul => x.saturating_mul(y),
            Div | Rem | In => return None,
        })
    }
}

/// Builtin operations that take their arguments from the stack. The
/// rules' builtins that compile to them (with their names, parameters and
/// results) are rows of the model's builtin table
/// (`model::compile::builtins`); the interpreter has an arm for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    /// `min(a, b)`
    Min2,
    /// `max(a, b)`
    Max2,
    /// `abs(a)`
    Abs,
    /// `count(set)`
    Count,
    /// `next(p)`: the player after `p`, clockwise.
    NextPlayer,
    /// `prev(p)`: the player before `p`.
    PrevPlayer,
    /// `nplayers`: the number of seated players.
    NumPlayers,
    /// `random(set)`: a uniformly drawn element (or none).
    Random,
    /// `roll(n)`: a uniform integer in `0..n`.
    Roll,
    /// `first(set)`: the lowest element (or none).
    First,
    /// `with(set, x)`: the set plus `x`.
    With,
    /// `without(set, x)`: the set minus `x`.
    Without,
}

/// One instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Push an integer (also booleans, items and players).
    Const(i64),
    /// Push a local.
    Load(u16),
    /// Pop into a local.
    Store(u16),
    /// Pop the indices of a variable, push its value.
    LoadVar(VarId),
    /// Pop a value, then the indices; store.
    StoreVar(VarId),
    /// Pop a value, then the indices; add to the integer there.
    AddVar(VarId),
    /// Pop an item, push the value of its scalar field.
    Field(KindId, u16),
    /// Pop a key, then an item; push `item.field[key]`.
    FieldIndex(KindId, u16),
    /// Pop a key; push `param[key]`.
    ParamIndex(u32),
    /// Pop two, push the result.
    Bin(BinaryOp),
    /// Negate the top.
    Neg,
    /// Boolean not of the top.
    Not,
    /// Jump.
    Jump(u32),
    /// Pop; jump if true.
    JumpIf(u32),
    /// Pop; jump if false.
    JumpIfNot(u32),
    /// Drop the top.
    Pop,
    /// Duplicate the top.
    Dup,
    /// Call a function with `argc` arguments from the stack.
    Call(FuncId, u8),
    /// Pop a procedure reference pushed below its arguments and call it.
    CallDyn(u8),
    /// Return (with the top of stack as result when the function has one).
    Ret,
    /// Push the number of items of a kind (players: the seated count).
    KindSize(KindId),
    /// Pop an index, push the item of a kind at that position (none if out of range).
    Nth(KindId),
    /// Push the set of all items of a kind.
    SetAll(KindId),
    /// Pop `n` items, push the set of them.
    SetMake(KindId, u16),
    /// Pop the start, then the end (excluded) of a range of numbers not
    /// below zero: push the set of them (a set of numbers as of items).
    SetRange,
    /// Pop a set, then an item: push membership.
    SetIn,
    /// Pop a set, push its size.
    SetCount,
    /// Iterate: find the next element of the set in local `set` at or after
    /// the cursor in local `cur`; store it in local `var`, push whether found.
    SetNext {
        /// Local holding the set.
        set: u16,
        /// Local holding the cursor.
        cur: u16,
        /// Local receiving the element.
        var: u16,
    },
    /// Pop the indices of a list variable; push its length.
    ListLen(VarId),
    /// Pop an item then the indices of a list variable; push membership.
    ListIn(VarId),
    /// Pop the indices of a list; push its elements as a set.
    ListSet(VarId),
    /// Pop the indices; remove and push the first element (none if empty).
    ListDraw(VarId),
    /// Pop an item then the indices; append it.
    ListPush(VarId),
    /// Pop an item then the indices; remove it if present.
    ListRemove(VarId),
    /// Pop the indices; shuffle the list with the game's random generator.
    ListShuffle(VarId),
    /// Pop the indices; empty the list.
    ListClear(VarId),
    /// Pop a cell of a grid kind; push the set of its neighbours.
    Adjacent(KindId),
    /// Pop a set then a cell; push the cells connected to it through the set.
    Connected(KindId),
    /// Pop a direction then a cell or a set of cells; push the cell one
    /// step in that direction (none off the grid), or the set of such cells.
    Toward(KindId),
    /// Pop a set of cells; push the number of connected groups in it.
    Components(KindId),
    /// Pop a set `marked`, a set `cells`, then a cell; push how many
    /// groups of `cells` touch the cell (only those meeting `marked` when
    /// the flag is set: the rules gave `marked`).
    GroupsAround(KindId, bool),
    /// Pop y then x; push the cell of a grid kind there (none outside).
    GridCell(KindId),
    /// Pop a set of cells, a row step, a column step, then a cell; push
    /// how many cells of the set follow the cell one after the other,
    /// going by those steps (by their negations when the flag is set:
    /// `run_length(c, -dx, -dy, s)` without two `Neg`s).
    RunLength(KindId, bool),
    /// Pop a value; push the set of indices of a one-dimensional variable
    /// (over a kind) whose element equals it.
    SelectEq(VarId),
    /// Pop a value; push how many elements of a one-dimensional variable equal it.
    CountEq(VarId),
    /// Pop a value, then a set: push the members `x` of the set whose
    /// element `v[x]` of a one-dimensional variable equals the value.
    /// Only the members are visited.
    MembersEq(VarId),
    /// Pop a value, then a set: push the members `x` of the set for which
    /// `v[x] op value` holds, `v` a one-dimensional integer variable
    /// indexed from 0 and `op` a comparison. Only the members are visited.
    MembersCmp(VarId, BinaryOp),
    /// Pop a value, then a set of items of a kind: push the members whose
    /// scalar field equals the value.
    MembersFieldEq(KindId, u16),
    /// Pop a set of items of a kind: push the set of the values its
    /// members hold in an item field (`{x in K where any(t in s: t.f == x)}`).
    FieldImage(KindId, u16),
    /// Pop the last then the first index of a one-dimensional variable;
    /// shift the elements between them (inclusive) one place up, the last
    /// moving to the first place (a wheel turning one step).
    Rotate(VarId),
    /// Pop the arguments, push the result.
    Builtin(Builtin, u8),
    /// Start collecting options for a decision.
    ChooseBegin,
    /// Pop a value; add option (arm, value).
    ChooseAdd(u16),
    /// Pop a set; add an option of the arm for each member, in order.
    ChooseAddSet(u16),
    /// Pop the sets `s1..sn`, then a set `s0`: add an option of the arm
    /// for each member of `s0`, in order; a member missing from some `sj`
    /// is refused at once with the message of the arm's `j`-th screened
    /// requirement (the first such `j`; see `ArmDef::screen`).
    ChooseAddScreened {
        /// The choice (for its arm's messages).
        choice: u32,
        /// The arm.
        arm: u16,
    },
    /// Pop the start, then the end (excluded) of a range; add an option
    /// of the arm for each value.
    ChooseAddRange(u16),
    /// Pop the deciding player; suspend until a decision is applied. On
    /// resume the chosen value and then the arm index are pushed.
    ChooseWait(u32),
    /// Pop a boolean; if false, the current option is illegal.
    Require(u32),
    /// The current option is illegal.
    Fail(u32),
    /// The option being tried is legal from here on (`legal;`): while the
    /// look-ahead tries options, stop here; otherwise nothing.
    Legal(u32),
    /// End of the game program.
    Halt,

    // Fused instructions. The peephole pass ([`fuse`]) writes one over the
    // first instruction of a common sequence and leaves the rest of the
    // sequence in place, so jumps into the middle of it still work. A fused
    // instruction does the work of the whole sequence and skips it; when
    // its fast path does not apply (a set operand, a division by zero) it
    // does only the first instruction's work and the sequence goes on.
    /// `Const(k); Bin(op)`.
    BinK(BinaryOp, i64),
    /// `Load(l); Const(k); Bin(op)`.
    LoadBinK(u16, BinaryOp, i64),
    /// `Bin(op); JumpIfNot(t)`.
    BinJumpIfNot(BinaryOp, u32),
    /// `Load(a); Load(b)`.
    Load2(u16, u16),
    /// `Store(a); Load(b)`.
    StoreLoad(u16, u16),
    /// `Load(l); Field(k, f)`.
    LoadField(u16, KindId, u16),
    /// `Const(k); Bin(op); JumpIfNot(t)`.
    BinKJumpIfNot(BinaryOp, i64, u32),
    /// `Dup; JumpIfNot(t); Pop` (the left side of `and`).
    AndJump(u32),
    /// `Dup; JumpIf(t); Pop` (the left side of `or`).
    OrJump(u32),
    /// `Load(l); LoadVar(v)`.
    LoadVarAt(u16, VarId),
    /// `SetNext { .. }; JumpIfNot(t)` (the head of a loop over a set).
    SetNextOrJump {
        /// Local holding the set.
        set: u16,
        /// Local holding the cursor.
        cur: u16,
        /// Local receiving the element.
        var: u16,
        /// Where to go when the set is exhausted.
        done: u32,
    },
    /// `LoadVar(v); SetIn`: whether an item is in a set variable, read in
    /// the state's words without making the set.
    VarSetIn(VarId),
    /// `LoadVar(v); Bin(op)` for a set variable and `+`, `-` or the
    /// intersection: the set below the indices is changed in place.
    VarSetBin(VarId, BinaryOp),
    /// `LoadVar(v); Builtin(Count, 1)` for a set variable: how many
    /// members it holds at the indices below, counted in the state's
    /// words without making the set.
    VarCount(VarId),
    /// `Load(a); Load(b); Builtin(With or Without, 2); Store(a)`: the set in
    /// local `a` gains (`true`) or loses item `b`, in place.
    WithLocal(u16, u16, bool),
    /// `Dup; Store(a); Load(b); Bin(op); JumpIfNot(t)` (the test of a
    /// counted loop): the top is stored and compared with local `b`.
    StoreCmpJump(u16, u16, BinaryOp, u32),
    /// `Load(a); Const(k); Bin(Add); Dup; Store(a); Load(b); Bin(op);
    /// JumpIfNot(t)` (the step and test of a counted loop): local `a`
    /// moves on by `k` and is compared with local `b`.
    StepCmpJump {
        /// The loop's variable.
        var: u16,
        /// The local it is compared with.
        bound: u16,
        /// The step.
        step: i32,
        /// The comparison.
        op: BinaryOp,
        /// Where to go when the comparison fails.
        exit: u32,
    },
    /// `Require(m); Legal(l)`.
    RequireLegal(u32, u32),
    /// `Store(a); Store(b)`.
    Store2(u16, u16),
    /// `Load(a); Store(b)`: local `a` copied into local `b`.
    Move(u16, u16),
    /// `Const(k); Store(a)`.
    SetLocal(u16, i64),
    /// `Store(a); Jump(t)`.
    StoreJump(u16, u32),
    /// `Bin(op); Require(m)`.
    BinRequire(BinaryOp, u32),
    /// `LoadVar(v); SetIn; Require(m)`: an item required to be in a set
    /// variable.
    RequireIn(VarId, u32),
    /// `Load(l); LoadVar(v); LoadVar(w); SetIn`: whether `v[l]` (one
    /// index) is in the set variable `w`.
    LoadVarAtIn(u16, VarId, VarId),
    // Fused instructions of stop 26 (the sequences run most often in the
    // example games, each saving one dispatch or more).
    /// `Const(k); Bin(op); Require(m); Legal(l)` (a bound required of a
    /// value, the option legal from there).
    BinKRequireLegal(BinaryOp, i32, u32, u32),
    /// `Load(a); Load(b); Bin(op); Require(m)`: two locals compared.
    LocalsRequire(u16, u16, BinaryOp, u32),
    /// `Load(l); LoadVar(v); SetIn; Require(m)`: a local required to be
    /// in a set variable.
    LoadRequireIn(u16, VarId, u32),
    /// `Load(a); Load(b); Field(k, f)`: local `a`, then a field of the
    /// item in local `b`.
    LoadLoadField(u16, u16, KindId, u16),
    /// `Load(l); LoadVar(v); Const(k); Bin(op)`: an element of a variable
    /// compared with a constant.
    LoadVarAtBinK(u16, VarId, BinaryOp, i32),
    /// `Load(a); Load(b); LoadVar(v)`.
    LoadLoadVarAt(u16, u16, VarId),
    /// `Load(l); Bin(op)`: the top and local `l`.
    LoadBin(u16, BinaryOp),
    // Fused instructions of stop 27 (from a census of the pairs and
    // triples run most in the shipped rulesets).
    /// `Load(l); Bin(op); Nth(k)`: the item of a kind at an index
    /// reckoned from the top and local `l`.
    LoadBinNth(u16, BinaryOp, KindId),
    /// `Store(a); Load(b); LoadVar(v)`: a store, then the element of a
    /// one-index variable at local `b`.
    StoreLoadVarAt(u16, u16, VarId),
    /// `Load(a); Load(b); FieldIndex(k, f)`: `a.f[b]` of two locals.
    LoadsFieldIndex(u16, u16, KindId, u16),
    /// `Dup; Const(x); MembersFieldEq(k, f); Bin(Sub)`: the set on top
    /// loses its members whose field `f` of kind `k` is `x` (read in the
    /// field's index of values; no set made for the members taken out).
    DupSubFieldEq(KindId, u16, i32),
    /// `SetAll(k); LoadVar(v); Bin(Sub)`, `v` a set variable without
    /// indices: the items of kind `k` not in `v`, made at once.
    AllSubVar(KindId, VarId),
    /// `LoadVar(a); LoadVar(b); Bin(op)`, `a` and `b` set variables
    /// without indices and `op` `+`, `-` or the intersection: the result
    /// made at once from the state's words (no copy of `a` first).
    VarsSetBin(VarId, VarId, BinaryOp),
    /// `Load(l); LoadVar(v); SetIn`: whether an item is in a set variable,
    /// local `l` the item or the variable's index.
    LoadVarSetIn(u16, VarId),
    /// `Const(k); Store(a); Store(b)`: a constant into local `a`, the top
    /// into local `b`.
    SetLocalStore(u16, u16, i32),
    /// `Load(l); LoadVar(v); SetIn; JumpIf(t)` (`true`) or `JumpIfNot(t)`
    /// (`false`): a jump on whether an item is in a set variable.
    InJump(u16, VarId, u32, bool),
    /// `Load(a); Field(k, f); Load(l); Bin(op); Nth(n)`: the item of kind
    /// `n` at an index reckoned from a field of an item and local `l`.
    LoadFieldBinNth(u16, KindId, u16, u16, BinaryOp, KindId),
    /// `Load c; Const dx; Const dy; Load s; RunLength k` (the steps
    /// negated for `RunLength k back`): the run length from the cell in
    /// local `c` through the set in local `s` by those steps, pushed.
    LocalRun(u16, u16, i8, i8, KindId),
    /// `Load c; Load s; LoadVar m; GroupsAround k marked`, `m` a set
    /// variable without indices: how many groups of the set in local `s`
    /// touch the cell in local `c`, counting those meeting `m`, read where
    /// it lies in the state (no copy of it), pushed.
    LocalGroups(u16, u16, VarId, KindId),
    /// Pop an item then the indices: put the item in the set variable's
    /// element there (`true`) or take it out, where it lies (`v[i] +=
    /// {x}`, `v[i] = without(v[i], x)` and the like, one word written).
    VarBit(VarId, bool),
    /// Pop a set then the indices: put its members in the set variable's
    /// element there (`true`) or take them out, where it lies (`v[i] +=
    /// s`, `v[i] -= s`: no copy of the element made and stored back).
    VarMerge(VarId, bool),
    /// `MembersEq(v); Builtin(First, 1)`: pops a value then a set; pushes
    /// the first member `x` of the set whose element `v[x]` equals the
    /// value (none when no member does), no set made.
    MembersEqFirst(VarId),
    /// `MembersFieldEq(k, f); Builtin(First, 1)`: pops a value then a set
    /// of items of kind `k`; pushes the first member whose field `f`
    /// equals the value (none when no member does), no set made.
    MembersFieldEqFirst(KindId, u16),
    /// `MembersEq(v); SetCount`: pops a value then a set; pushes how many
    /// members `x` of the set have `v[x]` equal to the value, no set made.
    MembersEqCount(VarId),
    /// `MembersFieldEq(k, f); SetCount`: pops a value then a set of items
    /// of kind `k`; pushes how many members have field `f` equal to the
    /// value, no set made.
    MembersFieldEqCount(KindId, u16),
    /// `LoadVar(v); Store(a); Load(a); Const(k); Bin(op); JumpIfNot(t)`,
    /// `v` not a set (`x = v[i]; if x op k`): its element at the indices
    /// popped is stored in local `a`, compared with `k`, and the jump taken
    /// when the comparison fails.
    VarStoreCmpJump(VarId, u16, BinaryOp, i16, u32),
    /// `Load(l); Const(k); Bin(op); JumpIfNot(t)` (`if x op k`): local
    /// `l` compared with `k`, the jump taken when the comparison fails.
    LoadBinKJumpIfNot(u16, BinaryOp, i32, u32),
    /// `Load(l); JumpIf(t)` (`true`) or `Load(l); JumpIfNot(t)`
    /// (`false`): a jump on local `l`.
    LoadJump(u16, u32, bool),
}

impl Op {
    /// Where this instruction may jump, besides on to the next one (a
    /// plain or fused jump), the one table of jumps.
    pub fn jump_target(&self) -> Option<u32> {
        match *self {
            Op::Jump(t)
            | Op::JumpIf(t)
            | Op::JumpIfNot(t)
            | Op::BinJumpIfNot(_, t)
            | Op::BinKJumpIfNot(_, _, t)
            | Op::AndJump(t)
            | Op::OrJump(t)
            | Op::SetNextOrJump { done: t, .. }
            | Op::StoreCmpJump(.., t)
            | Op::VarStoreCmpJump(.., t)
            | Op::LoadBinKJumpIfNot(.., t)
            | Op::LoadJump(_, t, _)
            | Op::StoreJump(_, t)
            | Op::StepCmpJump { exit: t, .. }
            | Op::InJump(_, _, t, _) => Some(t),
            _ => None,
        }
    }
}

// A fused instruction must not make every instruction longer.
const _: () = assert!(std::mem::size_of::<Op>() == 16);

/// A compiled function or procedure.
#[derive(Debug, Clone)]
pub struct Func {
    /// Its name (generated code has a descriptive one).
    pub name: String,
    /// Number of parameters (the first locals).
    pub arity: usize,
    /// Number of locals including parameters.
    pub nlocals: usize,
    /// Whether it leaves a value on return.
    pub returns: bool,
    /// Whether it may change the state or ask for decisions.
    pub is_proc: bool,
    /// The code.
    pub code: Vec<Op>,
    /// The span of each op.
    pub spans: Vec<Span>,
    /// The declaration.
    pub span: Span,
    /// The stack's height (locals included) before each instruction, as
    /// proven at load by [`crate::ir::verify`] (`verify::UNREACHED` where
    /// no path goes); empty until then, and a function not proven is not
    /// run.
    pub heights: Vec<u32>,
    /// The greatest stack height (locals included) the function reaches,
    /// as proven at load by [`crate::ir::verify`]; 0 until then.
    pub max_stack: u32,
}

//! The interpreter: runs compiled rules on a state until the next decision,
//! a failed requirement, or the end of the game program.

mod builtins;
mod errors;
mod frame;
mod fused;
mod grid;
mod lists;
mod operators;
mod rare;
mod sets;
mod vars;

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{Frame, State, Status, Value};
use crate::ir::bits;
use crate::ir::bytecode::{Func, Op};
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};

use builtins::builtin;
use errors::{err, options_fit, runaway, set_options_fit, too_many_options, trail_full};
use lists::list_op;
use operators::{binary, int_binary};
pub use sets::elements;
use sets::{add_screened, members, set_next};
use vars::{slot, var_offset};

/// Why the interpreter stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// A decision is pending (see the state's status and options).
    Decide,
    /// The game program ended.
    Over,
    /// A requirement failed: the option being tried is illegal.
    Failed(u32),
    /// The option being tried reached `legal;` (message id of its span):
    /// it is legal, and the rest of it was not run.
    Legal(u32),
}

/// Instructions one run may execute before it is declared runaway.
pub const STEP_LIMIT: u64 = 50_000_000;

/// The most options one decision may offer: collecting more is an error
/// in the rules, reported at the arm that offers them (each option is
/// kept, named and tried while the options are listed). One figure with
/// the loader, which refuses a range written out past it.
pub use crate::ir::ruleset::MAX_OPTIONS;

/// Starts a function with no arguments (the game program, an initialiser,
/// or a scenario entry point) on the state.
pub fn start(state: &mut State, func: u32, rules: &Ruleset, args: Vec<Value>) {
    let base = state.vm.stack.len() as u32;
    let f = &rules.funcs[func as usize];
    state.vm.stack.extend(args);
    let locals = base as usize + f.nlocals;
    if state.vm.stack.len() < locals {
        state.vm.stack.resize(locals, Value::I(0));
    }
    state.vm.frames.push(Frame { func, pc: 0, base });
    state.status = Status::Running;
}

/// Resumes after a decision with the chosen option.
pub fn resume(state: &mut State, arm: u16, value: i64) {
    state.vm.stack.push(Value::I(value));
    state.vm.stack.push(Value::I(arm as i64));
    state.status = Status::Running;
}

/// Evaluates a function to a value, on a scratch program whose buffers
/// are the state's spare ones (an evaluation allocates nothing once they
/// have grown: search bots evaluate positions by the thousand).
pub fn eval(
    rules: &Ruleset,
    state: &mut State,
    func: u32,
    args: Vec<Value>,
) -> Result<Value, RuntimeError> {
    let scratch = state.spare.vm();
    let saved = std::mem::replace(&mut state.vm, scratch);
    let saved_status = state.status.clone();
    // An evaluation runs to its end: a `legal;` on the way stops nothing.
    let saved_cut = std::mem::replace(&mut state.cut_at_legal, false);
    start(state, func, rules, args);
    let r = run(rules, state);
    let out = state.vm.stack.pop().unwrap_or(Value::I(0));
    let used = std::mem::replace(&mut state.vm, saved);
    state.spare.give_vm(used);
    state.status = saved_status;
    state.cut_at_legal = saved_cut;
    match r? {
        Exit::Over => Ok(out),
        Exit::Legal(_) => unreachable!("`legal;` does not stop an evaluation"),
        Exit::Decide => Err(err(
            ErrorKind::DecisionInValue,
            rules.funcs[func as usize].span,
            "a value was asked for a decision",
        )),
        Exit::Failed(m) => Err(err(
            ErrorKind::RequirementFailed,
            rules.messages[m as usize].1,
            format!("requirement failed: {}", rules.messages[m as usize].0),
        )),
    }
}

/// Runs until a decision, the end, or a failed requirement; more than
/// [`STEP_LIMIT`] instructions is an error (an endless loop). The
/// instructions run are left in the state's `steps_run` (callers that run
/// many times add them up to bound their work). The limit is checked at
/// taken jumps and calls, which every endless loop goes through.
pub fn run(rules: &Ruleset, st: &mut State) -> Result<Exit, RuntimeError> {
    let mut steps: u64 = 0;
    // Every way out but an error: the instructions run are told.
    macro_rules! leave {
        ($exit:expr) => {{
            st.steps_run = steps;
            return Ok($exit);
        }};
    }
    let Some(frame) = st.vm.frames.last() else {
        st.status = Status::Over;
        leave!(Exit::Over);
    };
    // The running frame is kept in locals; it is written back to the frame
    // stack only when control leaves it (calls, decisions, failures).
    // The next instruction is kept as a pointer into the running
    // function's code (`ip`), its index found from it when needed.
    let (pc, mut base) = (frame.pc as usize, frame.base as usize);
    let mut func: &Func = &rules.funcs[frame.func as usize];
    if !frame::fits(&mut st.vm.stack, func, pc, base) {
        return Err(frame::unfit(func));
    }
    let mut ip: *const Op = func.code.as_ptr().wrapping_add(pc);
    // The index of the next instruction.
    macro_rules! pc {
        () => {
            (ip as usize - func.code.as_ptr() as usize) / std::mem::size_of::<Op>()
        };
    }
    // Moves on past `k` instructions of a fused sequence.
    macro_rules! skip {
        ($k:expr) => {
            // Safety: `verify` proved that a fused instruction goes on
            // to an instruction of its function after any part of it.
            ip = unsafe { ip.add($k) }
        };
    }
    macro_rules! save_pc {
        () => {
            if let Some(f) = st.vm.frames.last_mut() {
                f.pc = pc!() as u32;
            }
        };
    }
    // The span of the running instruction, only looked up on errors.
    macro_rules! span {
        () => {
            func.spans[pc!() - 1]
        };
    }
    // An error once the limit is passed.
    macro_rules! check_steps {
        () => {
            if steps > STEP_LIMIT {
                return Err(runaway(span!()));
            }
        };
    }
    // A taken jump (the jump is the running instruction).
    macro_rules! goto {
        ($t:expr) => {{
            check_steps!();
            debug_assert!(($t as usize) < func.code.len());
            // Safety: `verify` proved every jump lands in the function.
            ip = unsafe { func.code.as_ptr().add($t as usize) };
        }};
    }
    macro_rules! reload {
        () => {
            match st.vm.frames.last() {
                Some(f) => {
                    base = f.base as usize;
                    func = &rules.funcs[f.func as usize];
                    // Read only once the frame is known to fit (checked
                    // by `call` for a callee, after `Ret` for a caller).
                    ip = func.code.as_ptr().wrapping_add(f.pc as usize);
                }
                None => {
                    st.status = Status::Over;
                    leave!(Exit::Over);
                }
            }
        };
    }
    loop {
        debug_assert!(pc!() < func.code.len());
        // Safety: the running frame was checked to stand at an instruction
        // of its function when entered or resumed, and `verify` proved
        // that every instruction goes on to one of the function's.
        let op = unsafe { &*ip };
        ip = ip.wrapping_add(1);
        steps += 1;
        let stack = &mut st.vm.stack;
        // The stack without checks. Safety, for every macro below: `verify`
        // proved the height of the stack before each instruction of the
        // running function (never below its locals) and its greatest
        // height; when the frame was entered or resumed, `frame::fits`
        // checked that the stack stands at that height and has room for the
        // greatest; each instruction moves the stack as proved. So a push
        // has room, a pop or a read of the top has an operand above the
        // locals, and a local's index is below the height.
        debug_assert_eq!(stack.len(), base + func.heights[pc!() - 1] as usize);
        macro_rules! push {
            ($v:expr) => {{
                let v = $v;
                debug_assert!(stack.len() < stack.capacity());
                // Safety: room for the proven greatest height (see above).
                unsafe {
                    let n = stack.len();
                    stack.as_mut_ptr().add(n).write(v);
                    stack.set_len(n + 1);
                }
            }};
        }
        macro_rules! pop {
            () => {{
                debug_assert!(stack.len() > base);
                // Safety: an operand lies above the locals (see above); it
                // is moved out and the length no longer covers it.
                unsafe {
                    let n = stack.len() - 1;
                    stack.set_len(n);
                    stack.as_ptr().add(n).read()
                }
            }};
        }
        // The value `k` places below the top (0: the top).
        macro_rules! top {
            ($k:expr) => {{
                debug_assert!(stack.len() > base + $k);
                // Safety: the operands lie above the locals (see above).
                unsafe { stack.get_unchecked(stack.len() - 1 - $k) }
            }};
        }
        macro_rules! top_mut {
            () => {{
                debug_assert!(stack.len() > base);
                // Safety: the operand lies above the locals (see above).
                let n = stack.len() - 1;
                unsafe { stack.get_unchecked_mut(n) }
            }};
        }
        macro_rules! local {
            ($l:expr) => {{
                debug_assert!((base + $l as usize) < stack.len());
                // Safety: a local's index is below the height (see above).
                unsafe { stack.get_unchecked(base + $l as usize) }
            }};
        }
        macro_rules! set_local {
            ($l:expr, $v:expr) => {{
                let v = $v;
                debug_assert!((base + $l as usize) < stack.len());
                // Safety: a local's index is below the height (see above).
                unsafe { *stack.get_unchecked_mut(base + $l as usize) = v }
            }};
        }
        macro_rules! pop_i {
            () => {
                pop!().int()
            };
        }
        match op {
            Op::Const(v) => push!(Value::I(*v)),
            Op::Load(l) => {
                let v = local!(*l).clone();
                push!(v);
            }
            Op::Store(l) => {
                let v = pop!();
                set_local!(*l, v);
            }
            Op::LoadVar(v) => {
                let vd = &rules.vars[*v as usize];
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                // Pushed with the vector's checks: `stack` was given up to
                // find the offset.
                let stack = &mut st.vm.stack;
                match vd.ty {
                    Ty::Set(_) => {
                        let words = &st.words[off..off + vd.elem_words];
                        stack.push(Value::S(bits::from_fn(words.len(), |i| words[i] as u64)));
                    }
                    _ => stack.push(Value::I(st.words[off])),
                }
            }
            Op::Field(k, f) => {
                let e = pop_i!();
                let kind = &rules.kinds[*k as usize];
                if e < 0 || e as usize >= kind.items.len() {
                    return Err(rare::field_of_none(kind, *f).at(span!()));
                }
                push!(Value::I(kind.data[e as usize][*f as usize].int()));
            }
            Op::Bin(op) => {
                if let (Value::I(a), Value::I(b)) = (top!(1), top!(0)) {
                    if let Some(r) = int_binary(*op, *a, *b) {
                        drop(pop!());
                        *top_mut!() = Value::I(r);
                        continue;
                    }
                }
                let b = pop!();
                let a = pop!();
                push!(binary(*op, a, b, span!())?);
            }
            Op::Neg => {
                let a = pop_i!();
                push!(Value::I(a.saturating_neg()));
            }
            Op::Not => {
                let a = pop_i!();
                push!(Value::I((a == 0) as i64));
            }
            Op::Jump(t) => goto!(*t),
            Op::JumpIf(t) => {
                if pop_i!() != 0 {
                    goto!(*t);
                }
            }
            Op::JumpIfNot(t) => {
                if pop_i!() == 0 {
                    goto!(*t);
                }
            }
            Op::Pop => drop(pop!()),
            Op::Dup => {
                let v = top!(0).clone();
                push!(v);
            }
            Op::Call(f, argc) => {
                check_steps!();
                save_pc!();
                frame::call(rules, st, *f, *argc as usize, span!())?;
                reload!();
            }
            Op::CallDyn(argc) => {
                let at = stack.len() - *argc as usize - 1;
                let f = stack.remove(at).int();
                if f < 0 || f as usize >= rules.funcs.len() {
                    return Err(err(
                        ErrorKind::NoneUsed,
                        span!(),
                        "call of `none`: no procedure here",
                    ));
                }
                check_steps!();
                save_pc!();
                frame::call(rules, st, f as u32, *argc as usize, span!())?;
                reload!();
            }
            Op::Ret => {
                let result = if func.returns { Some(pop!()) } else { None };
                stack.truncate(base);
                st.vm.frames.pop();
                if let Some(r) = result {
                    st.vm.stack.push(r);
                }
                reload!();
                if !frame::fits(&mut st.vm.stack, func, pc!(), base) {
                    return Err(frame::unfit(func));
                }
            }
            Op::KindSize(k) => {
                let n = if *k == PLAYER {
                    st.nplayers
                } else {
                    rules.kinds[*k as usize].items.len()
                };
                push!(Value::I(n as i64));
            }
            Op::Nth(k) => {
                let i = pop_i!();
                let n = if *k == PLAYER {
                    st.nplayers
                } else {
                    rules.kinds[*k as usize].items.len()
                } as i64;
                push!(Value::I(if (0..n).contains(&i) { i } else { -1 }));
            }
            Op::SetIn => {
                let s = pop!();
                let e = pop_i!();
                push!(Value::I(bits::has(s.bits(), e) as i64));
            }
            Op::SetNext { set, cur, var } => {
                let found = set_next(stack, base, *set, *cur, *var);
                push!(Value::I(found as i64));
            }
            Op::ListLen(v)
            | Op::ListIn(v)
            | Op::ListSet(v)
            | Op::ListDraw(v)
            | Op::ListPush(v)
            | Op::ListRemove(v)
            | Op::ListShuffle(v)
            | Op::ListClear(v) => {
                let item = if matches!(op, Op::ListIn(_) | Op::ListPush(_) | Op::ListRemove(_)) {
                    st.vm.stack.pop().map_or(0, |v| v.int())
                } else {
                    0
                };
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                let cap = rules.vars[*v as usize].elem_words - 1;
                // A list instruction may go through every item: one step
                // more per 64 it may hold.
                steps += (cap / 64) as u64;
                list_op(op, st, off, cap, item, span!())?;
            }
            Op::Adjacent(_)
            | Op::Toward(_)
            | Op::Connected(_)
            | Op::Components(_)
            | Op::GroupsAround(_)
            | Op::GridCell(_)
            | Op::RunLength(_) => grid::instruction(rules, &mut st.vm.stack, op),
            Op::MembersEq(_) | Op::MembersFieldEq(..) | Op::FieldImage(..) => {
                members(rules, st, op)
            }
            Op::Builtin(b, argc) => {
                let at = stack.len() - *argc as usize;
                let r = builtin(*b, &stack[at..], &mut st.rng, st.nplayers, span!());
                stack.truncate(at);
                push!(r?);
            }
            Op::ChooseBegin => {
                st.vm.options.clear();
                st.vm.screened.clear();
            }
            Op::ChooseAddScreened { choice, arm } => {
                add_screened(rules, st, *choice, *arm).map_err(|e| e.at(span!()))?
            }
            Op::ChooseAdd(arm) => {
                let v = pop_i!();
                if st.vm.options.len() >= MAX_OPTIONS {
                    return Err(too_many_options(MAX_OPTIONS as u64 + 1).at(span!()));
                }
                st.vm.options.push((*arm, v));
            }
            Op::ChooseWait(c) => {
                let p = pop_i!();
                if p < 0 || p as usize >= st.nplayers {
                    return Err(err(
                        ErrorKind::OutOfRange,
                        span!(),
                        format!("decision asked of a player who is not seated ({p})"),
                    ));
                }
                save_pc!();
                st.status = Status::Waiting {
                    choice: *c,
                    player: p as usize,
                };
                leave!(Exit::Decide);
            }
            Op::Require(m) => {
                if pop_i!() == 0 {
                    save_pc!();
                    leave!(Exit::Failed(*m));
                }
            }
            Op::Fail(m) => {
                save_pc!();
                leave!(Exit::Failed(*m));
            }
            Op::Legal(m) => {
                if st.recording && st.cut_at_legal {
                    save_pc!();
                    leave!(Exit::Legal(*m));
                }
            }
            Op::BinK(op, k) => {
                if let Value::I(a) = top!(0) {
                    if let Some(r) = int_binary(*op, *a, *k) {
                        *top_mut!() = Value::I(r);
                        skip!(1);
                        continue;
                    }
                }
                push!(Value::I(*k));
            }
            Op::LoadBinK(l, op, k) => {
                let v = local!(*l);
                if let Value::I(a) = v {
                    if let Some(r) = int_binary(*op, *a, *k) {
                        push!(Value::I(r));
                        skip!(2);
                        continue;
                    }
                }
                let v = v.clone();
                push!(v);
            }
            Op::BinJumpIfNot(op, t) => {
                let b = pop!();
                let a = pop!();
                if let (Value::I(x), Value::I(y)) = (&a, &b) {
                    if let Some(r) = int_binary(*op, *x, *y) {
                        if r == 0 {
                            goto!(*t)
                        } else {
                            skip!(1)
                        }
                        continue;
                    }
                }
                push!(binary(*op, a, b, span!())?);
            }
            Op::Load2(a, b) => {
                let x = local!(*a).clone();
                let y = local!(*b).clone();
                push!(x);
                push!(y);
                skip!(1);
            }
            Op::StoreLoad(a, b) => {
                let v = pop!();
                set_local!(*a, v);
                let v = local!(*b).clone();
                push!(v);
                skip!(1);
            }
            Op::LoadField(l, k, f) => {
                let e = local!(*l).int();
                let kind = &rules.kinds[*k as usize];
                match kind.data.get(e as usize) {
                    Some(row) if e >= 0 => {
                        push!(Value::I(row[*f as usize].int()));
                        skip!(1);
                    }
                    _ => push!(Value::I(e)),
                }
            }
            Op::BinKJumpIfNot(op, k, t) => {
                if let Value::I(a) = top!(0) {
                    if let Some(r) = int_binary(*op, *a, *k) {
                        drop(pop!());
                        if r == 0 {
                            goto!(*t)
                        } else {
                            skip!(2)
                        }
                        continue;
                    }
                }
                push!(Value::I(*k));
            }
            Op::AndJump(t) | Op::OrJump(t) => {
                let top = top!(0).int() != 0;
                if top == matches!(op, Op::OrJump(_)) {
                    goto!(*t);
                } else {
                    drop(pop!());
                    skip!(2);
                }
            }
            Op::LoadVarAt(l, v) => {
                let vd = &rules.vars[*v as usize];
                if let ([d], false) = (vd.dims.as_slice(), matches!(vd.ty, Ty::Set(_))) {
                    if let Some(k) = slot(d, local!(*l).int(), st.nplayers) {
                        push!(Value::I(st.words[vd.offset + k * vd.elem_words]));
                        skip!(1);
                        continue;
                    }
                }
                let v = local!(*l).clone();
                push!(v);
            }
            Op::SetNextOrJump {
                set,
                cur,
                var,
                done,
            } => {
                if !set_next(stack, base, *set, *cur, *var) {
                    goto!(*done);
                } else {
                    skip!(1);
                }
            }
            Op::VarSetIn(v) => {
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                let has = fused::var_set_in(rules, st, *v, off);
                st.vm.stack.push(Value::I(has as i64));
                skip!(1);
            }
            Op::VarSetBin(v, op) => {
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                if fused::var_set_bin(rules, st, *v, off, *op) {
                    skip!(1);
                }
            }
            Op::WithLocal(a, b, on) => {
                if fused::with_local(stack, base, *a, *b, *on) {
                    skip!(3);
                } else {
                    let x = local!(*a).clone();
                    let y = local!(*b).clone();
                    push!(x);
                    push!(y);
                    skip!(1);
                }
            }
            Op::StoreCmpJump(a, b, op, t) => {
                if let Value::I(x) = top!(0) {
                    let x = *x;
                    if let Value::I(y) = *local!(*b) {
                        let y = if a == b { x } else { y };
                        if let Some(r) = int_binary(*op, x, y) {
                            drop(pop!());
                            set_local!(*a, Value::I(x));
                            if r == 0 {
                                goto!(*t)
                            } else {
                                skip!(4)
                            }
                            continue;
                        }
                    }
                }
                let v = top!(0).clone();
                push!(v);
            }
            Op::StepCmpJump {
                var,
                bound,
                step,
                op,
                exit,
            } => {
                if let Value::I(x) = *local!(*var) {
                    let x = x.saturating_add(*step as i64);
                    set_local!(*var, Value::I(x));
                    if let Value::I(y) = *local!(*bound) {
                        if let Some(r) = int_binary(*op, x, y) {
                            if r == 0 {
                                goto!(*exit)
                            } else {
                                skip!(7)
                            }
                            continue;
                        }
                    }
                    // Stepped and stored: the sequence goes on from its
                    // `Load(b)`, with the stepped value left by `Dup`.
                    push!(Value::I(x));
                    skip!(4);
                    continue;
                }
                let v = local!(*var).clone();
                push!(v);
            }
            Op::RequireLegal(m, l) => {
                if pop_i!() == 0 {
                    save_pc!();
                    leave!(Exit::Failed(*m));
                }
                skip!(1);
                if st.recording && st.cut_at_legal {
                    save_pc!();
                    leave!(Exit::Legal(*l));
                }
            }
            Op::Store2(a, b) => {
                let v = pop!();
                set_local!(*a, v);
                let v = pop!();
                set_local!(*b, v);
                skip!(1);
            }
            Op::Move(a, b) => {
                let v = local!(*a).clone();
                set_local!(*b, v);
                skip!(1);
            }
            Op::SetLocal(a, k) => {
                set_local!(*a, Value::I(*k));
                skip!(1);
            }
            Op::StoreJump(a, t) => {
                let v = pop!();
                set_local!(*a, v);
                skip!(1);
                goto!(*t);
            }
            Op::BinRequire(op, m) => {
                if let (Value::I(a), Value::I(b)) = (top!(1), top!(0)) {
                    if let Some(r) = int_binary(*op, *a, *b) {
                        drop(pop!());
                        drop(pop!());
                        skip!(1);
                        if r == 0 {
                            save_pc!();
                            leave!(Exit::Failed(*m));
                        }
                        continue;
                    }
                }
                let b = pop!();
                let a = pop!();
                push!(binary(*op, a, b, span!())?);
            }
            Op::RequireIn(v, m) => {
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                skip!(2);
                if !fused::var_set_in(rules, st, *v, off) {
                    save_pc!();
                    leave!(Exit::Failed(*m));
                }
            }
            Op::LoadVarAtIn(l, v, w) => {
                // An error is in `w`'s indices: its `LoadVar` is two on.
                let at = func.spans[pc!() + 1];
                if fused::var_at_in(rules, st, base, *l, *v, *w).map_err(|e| e.at(at))? {
                    skip!(3);
                }
            }
            Op::StoreVar(_)
            | Op::AddVar(_)
            | Op::FieldIndex(..)
            | Op::ParamIndex(_)
            | Op::SetAll(_)
            | Op::SetMake(..)
            | Op::SetCount
            | Op::SelectEq(_)
            | Op::CountEq(_)
            | Op::Rotate(_)
            | Op::ChooseAddSet(_)
            | Op::ChooseAddRange(_) => {
                rare::instruction(rules, st, op).map_err(|e| e.at(span!()))?
            }
            Op::Halt => {
                st.vm.frames.clear();
                st.status = Status::Over;
                leave!(Exit::Over);
            }
        }
    }
}

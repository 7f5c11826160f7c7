//! The interpreter: runs compiled rules on a state until the next decision,
//! a failed requirement, or the end of the game program.

mod builtins;
mod fused;
mod grid;
mod lists;
mod operators;
mod rare;
mod sets;
mod vars;

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{Frame, State, Status, Value, MAX_TRAIL};
use crate::ir::bits;
use crate::ir::bytecode::Op;
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};
use crate::ir::span::Span;

use builtins::builtin;
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

/// A runtime error (kept out of line: errors are rare).
#[cold]
fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> RuntimeError {
    RuntimeError::new(kind, span, msg)
}

/// Whether `more` options can join the `have` ones of a decision (see
/// [`MAX_OPTIONS`]); the error is placed by the caller.
#[inline]
fn options_fit(have: usize, more: u64) -> Result<(), RuntimeError> {
    if more > (MAX_OPTIONS - have.min(MAX_OPTIONS)) as u64 {
        return Err(too_many_options(more.saturating_add(have as u64)));
    }
    Ok(())
}

/// Whether the members of a set can join the `have` options of a
/// decision: counted only when the set's words could hold too many.
#[inline]
fn set_options_fit(have: usize, set: &[u64]) -> Result<(), RuntimeError> {
    if have + set.len() * 64 <= MAX_OPTIONS {
        return Ok(());
    }
    options_fit(have, bits::count(set) as u64)
}

/// The error of a decision offered at least `total` options, more than
/// [`MAX_OPTIONS`].
#[cold]
fn too_many_options(total: u64) -> RuntimeError {
    err(
        ErrorKind::LimitReached,
        Span::default(),
        format!(
            "this choice offers at least {total} options: a decision may offer at most \
             {MAX_OPTIONS}"
        ),
    )
}

/// The error of a run that passed [`STEP_LIMIT`].
#[cold]
fn runaway(span: Span) -> RuntimeError {
    err(
        ErrorKind::LimitReached,
        span,
        "the rules ran 50 million steps without a decision: an endless loop?",
    )
}

/// The error of a try that wrote more words than its trail may keep.
#[cold]
fn trail_full(span: Span) -> RuntimeError {
    err(
        ErrorKind::LimitReached,
        span,
        format!(
            "an option being tried wrote more than {MAX_TRAIL} words of the state (each kept \
             to be undone): an endless loop that writes?"
        ),
    )
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
    let (mut fi, mut pc, mut base) = (frame.func as usize, frame.pc as usize, frame.base as usize);
    // The running function's code, looked up again only when it changes.
    let mut code: &[Op] = &rules.funcs[fi].code;
    macro_rules! save_pc {
        () => {
            if let Some(f) = st.vm.frames.last_mut() {
                f.pc = pc as u32;
            }
        };
    }
    // The span of the running instruction, only looked up on errors.
    macro_rules! span {
        () => {
            rules.funcs[fi].spans[pc - 1]
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
            pc = $t as usize;
        }};
    }
    macro_rules! reload {
        () => {
            match st.vm.frames.last() {
                Some(f) => {
                    fi = f.func as usize;
                    pc = f.pc as usize;
                    base = f.base as usize;
                    code = &rules.funcs[fi].code;
                }
                None => {
                    st.status = Status::Over;
                    leave!(Exit::Over);
                }
            }
        };
    }
    loop {
        let Some(op) = code.get(pc) else {
            return Err(err(
                ErrorKind::Internal,
                rules.funcs[fi].span,
                "ran past the end of a function",
            ));
        };
        pc += 1;
        steps += 1;
        let stack = &mut st.vm.stack;
        macro_rules! pop_i {
            () => {
                stack.pop().map_or(0, |v| v.int())
            };
        }
        match op {
            Op::Const(v) => stack.push(Value::I(*v)),
            Op::Load(l) => {
                let v = stack[base + *l as usize].clone();
                stack.push(v);
            }
            Op::Store(l) => {
                let v = stack.pop().expect("store operand");
                stack[base + *l as usize] = v;
            }
            Op::LoadVar(v) => {
                let vd = &rules.vars[*v as usize];
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                let stack = &mut st.vm.stack;
                match vd.ty {
                    crate::ir::ruleset::Ty::Set(_) => {
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
                stack.push(Value::I(kind.data[e as usize][*f as usize].int()));
            }
            Op::Bin(op) => {
                let n = stack.len();
                if let [.., Value::I(a), Value::I(b)] = stack.as_slice() {
                    if let Some(r) = int_binary(*op, *a, *b) {
                        stack.pop();
                        stack[n - 2] = Value::I(r);
                        continue;
                    }
                }
                let b = stack.pop().expect("operand");
                let a = stack.pop().expect("operand");
                stack.push(binary(*op, a, b, span!())?);
            }
            Op::Neg => {
                let a = pop_i!();
                stack.push(Value::I(a.saturating_neg()));
            }
            Op::Not => {
                let a = pop_i!();
                stack.push(Value::I((a == 0) as i64));
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
            Op::Pop => {
                stack.pop();
            }
            Op::Dup => {
                let v = stack.last().cloned().expect("dup operand");
                stack.push(v);
            }
            Op::Call(f, argc) => {
                check_steps!();
                save_pc!();
                call(rules, st, *f, *argc as usize, span!())?;
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
                call(rules, st, f as u32, *argc as usize, span!())?;
                reload!();
            }
            Op::Ret => {
                let result = if rules.funcs[fi].returns {
                    stack.pop()
                } else {
                    None
                };
                stack.truncate(base);
                st.vm.frames.pop();
                if let Some(r) = result {
                    st.vm.stack.push(r);
                }
                reload!();
            }
            Op::KindSize(k) => {
                let n = if *k == PLAYER {
                    st.nplayers
                } else {
                    rules.kinds[*k as usize].items.len()
                };
                stack.push(Value::I(n as i64));
            }
            Op::Nth(k) => {
                let i = pop_i!();
                let n = if *k == PLAYER {
                    st.nplayers
                } else {
                    rules.kinds[*k as usize].items.len()
                } as i64;
                stack.push(Value::I(if (0..n).contains(&i) { i } else { -1 }));
            }
            Op::SetIn => {
                let s = stack.pop().expect("set");
                let e = pop_i!();
                stack.push(Value::I(bits::has(s.bits(), e) as i64));
            }
            Op::SetNext { set, cur, var } => {
                let found = set_next(stack, base, *set, *cur, *var);
                stack.push(Value::I(found as i64));
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
                stack.push(r?);
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
                if let Some(Value::I(a)) = stack.last() {
                    if let Some(r) = int_binary(*op, *a, *k) {
                        *stack.last_mut().expect("operand") = Value::I(r);
                        pc += 1;
                        continue;
                    }
                }
                stack.push(Value::I(*k));
            }
            Op::LoadBinK(l, op, k) => {
                let v = &stack[base + *l as usize];
                if let Value::I(a) = v {
                    if let Some(r) = int_binary(*op, *a, *k) {
                        stack.push(Value::I(r));
                        pc += 2;
                        continue;
                    }
                }
                let v = v.clone();
                stack.push(v);
            }
            Op::BinJumpIfNot(op, t) => {
                let n = stack.len();
                let b = stack.pop().expect("operand");
                let a = stack.pop().expect("operand");
                if let (Value::I(x), Value::I(y)) = (&a, &b) {
                    if let Some(r) = int_binary(*op, *x, *y) {
                        if r == 0 {
                            goto!(*t)
                        } else {
                            pc += 1
                        }
                        continue;
                    }
                }
                let _ = n;
                stack.push(binary(*op, a, b, span!())?);
            }
            Op::Load2(a, b) => {
                let x = stack[base + *a as usize].clone();
                let y = stack[base + *b as usize].clone();
                stack.push(x);
                stack.push(y);
                pc += 1;
            }
            Op::StoreLoad(a, b) => {
                let v = stack.pop().expect("store operand");
                stack[base + *a as usize] = v;
                let v = stack[base + *b as usize].clone();
                stack.push(v);
                pc += 1;
            }
            Op::LoadField(l, k, f) => {
                let e = stack[base + *l as usize].int();
                let kind = &rules.kinds[*k as usize];
                match kind.data.get(e as usize) {
                    Some(row) if e >= 0 => {
                        stack.push(Value::I(row[*f as usize].int()));
                        pc += 1;
                    }
                    _ => stack.push(Value::I(e)),
                }
            }
            Op::BinKJumpIfNot(op, k, t) => {
                if let Some(Value::I(a)) = stack.last() {
                    if let Some(r) = int_binary(*op, *a, *k) {
                        stack.pop();
                        if r == 0 {
                            goto!(*t)
                        } else {
                            pc += 2
                        }
                        continue;
                    }
                }
                stack.push(Value::I(*k));
            }
            Op::AndJump(t) | Op::OrJump(t) => {
                let top = stack.last().map_or(0, Value::int) != 0;
                if top == matches!(op, Op::OrJump(_)) {
                    goto!(*t);
                } else {
                    stack.pop();
                    pc += 2;
                }
            }
            Op::LoadVarAt(l, v) => {
                let vd = &rules.vars[*v as usize];
                if let ([d], false) = (vd.dims.as_slice(), matches!(vd.ty, Ty::Set(_))) {
                    if let Some(k) = slot(d, stack[base + *l as usize].int(), st.nplayers) {
                        stack.push(Value::I(st.words[vd.offset + k * vd.elem_words]));
                        pc += 1;
                        continue;
                    }
                }
                let v = stack[base + *l as usize].clone();
                stack.push(v);
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
                    pc += 1;
                }
            }
            Op::VarSetIn(v) => {
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                let has = fused::var_set_in(rules, st, *v, off);
                st.vm.stack.push(Value::I(has as i64));
                pc += 1;
            }
            Op::VarSetBin(v, op) => {
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                if fused::var_set_bin(rules, st, *v, off, *op) {
                    pc += 1;
                }
            }
            Op::WithLocal(a, b, on) => {
                if fused::with_local(stack, base, *a, *b, *on) {
                    pc += 3;
                } else {
                    let x = stack[base + *a as usize].clone();
                    let y = stack[base + *b as usize].clone();
                    stack.push(x);
                    stack.push(y);
                    pc += 1;
                }
            }
            Op::StoreCmpJump(a, b, op, t) => {
                if let Some(Value::I(x)) = stack.last() {
                    let x = *x;
                    if let Value::I(y) = stack[base + *b as usize] {
                        let y = if a == b { x } else { y };
                        if let Some(r) = int_binary(*op, x, y) {
                            stack.pop();
                            stack[base + *a as usize] = Value::I(x);
                            if r == 0 {
                                goto!(*t)
                            } else {
                                pc += 4
                            }
                            continue;
                        }
                    }
                }
                let v = stack.last().cloned().expect("dup operand");
                stack.push(v);
            }
            Op::StepCmpJump {
                var,
                bound,
                step,
                op,
                exit,
            } => {
                if let Value::I(x) = stack[base + *var as usize] {
                    let x = x.saturating_add(*step as i64);
                    stack[base + *var as usize] = Value::I(x);
                    if let Value::I(y) = stack[base + *bound as usize] {
                        if let Some(r) = int_binary(*op, x, y) {
                            if r == 0 {
                                goto!(*exit)
                            } else {
                                pc += 7
                            }
                            continue;
                        }
                    }
                    // Stepped and stored: the sequence goes on from its
                    // `Load(b)`, with the stepped value left by `Dup`.
                    stack.push(Value::I(x));
                    pc += 4;
                    continue;
                }
                let v = stack[base + *var as usize].clone();
                stack.push(v);
            }
            Op::RequireLegal(m, l) => {
                if pop_i!() == 0 {
                    save_pc!();
                    leave!(Exit::Failed(*m));
                }
                pc += 1;
                if st.recording && st.cut_at_legal {
                    save_pc!();
                    leave!(Exit::Legal(*l));
                }
            }
            Op::Store2(a, b) => {
                let v = stack.pop().expect("store operand");
                stack[base + *a as usize] = v;
                let v = stack.pop().expect("store operand");
                stack[base + *b as usize] = v;
                pc += 1;
            }
            Op::Move(a, b) => {
                let v = stack[base + *a as usize].clone();
                stack[base + *b as usize] = v;
                pc += 1;
            }
            Op::SetLocal(a, k) => {
                stack[base + *a as usize] = Value::I(*k);
                pc += 1;
            }
            Op::StoreJump(a, t) => {
                let v = stack.pop().expect("store operand");
                stack[base + *a as usize] = v;
                pc += 1;
                goto!(*t);
            }
            Op::BinRequire(op, m) => {
                if let [.., Value::I(a), Value::I(b)] = stack.as_slice() {
                    if let Some(r) = int_binary(*op, *a, *b) {
                        stack.truncate(stack.len() - 2);
                        pc += 1;
                        if r == 0 {
                            save_pc!();
                            leave!(Exit::Failed(*m));
                        }
                        continue;
                    }
                }
                let b = stack.pop().expect("operand");
                let a = stack.pop().expect("operand");
                stack.push(binary(*op, a, b, span!())?);
            }
            Op::RequireIn(v, m) => {
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                pc += 2;
                if !fused::var_set_in(rules, st, *v, off) {
                    save_pc!();
                    leave!(Exit::Failed(*m));
                }
            }
            Op::LoadVarAtIn(l, v, w) => {
                // An error is in `w`'s indices: its `LoadVar` is two on.
                let at = rules.funcs[fi].spans[pc + 1];
                if fused::var_at_in(rules, st, base, *l, *v, *w).map_err(|e| e.at(at))? {
                    pc += 3;
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

fn call(
    rules: &Ruleset,
    st: &mut State,
    f: u32,
    argc: usize,
    span: Span,
) -> Result<(), RuntimeError> {
    if st.vm.frames.len() > 2000 {
        return Err(err(
            ErrorKind::LimitReached,
            span,
            "calls nested 2000 deep: endless recursion?",
        ));
    }
    let callee = &rules.funcs[f as usize];
    let base = st.vm.stack.len() - argc;
    while st.vm.stack.len() < base + callee.nlocals {
        st.vm.stack.push(Value::I(0));
    }
    st.vm.frames.push(Frame {
        func: f,
        pc: 0,
        base: base as u32,
    });
    Ok(())
}

//! The interpreter: runs compiled rules on a state until the next decision,
//! a failed requirement, or the end of the game program.

use rand_core::RngCore;
use rand_pcg::Pcg64;

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{Frame, State, Status, Value};
use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::{BinaryOp, Builtin, Op};
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};
use crate::ir::span::Span;

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
const STEP_LIMIT: u64 = 50_000_000;

/// Starts a function with no arguments (the game program, an initialiser,
/// or a scenario entry point) on the state.
pub fn start(state: &mut State, func: u32, rules: &Ruleset, args: Vec<Value>) {
    let base = state.vm.stack.len() as u32;
    let f = &rules.funcs[func as usize];
    state.vm.stack.extend(args);
    while state.vm.stack.len() < base as usize + f.nlocals {
        state.vm.stack.push(Value::I(0));
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

/// Evaluates a function to a value, on a scratch copy of the program.
pub fn eval(
    rules: &Ruleset,
    state: &mut State,
    func: u32,
    args: Vec<Value>,
) -> Result<Value, RuntimeError> {
    let saved = std::mem::take(&mut state.vm);
    let saved_status = state.status.clone();
    // An evaluation runs to its end: a `legal;` on the way stops nothing.
    let saved_cut = std::mem::replace(&mut state.cut_at_legal, false);
    start(state, func, rules, args);
    let r = run(rules, state);
    let out = state.vm.stack.pop().unwrap_or(Value::I(0));
    state.vm = saved;
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

fn set_elems(bits: &[u64]) -> impl Iterator<Item = i64> + '_ {
    bits.iter().enumerate().flat_map(|(wi, w)| {
        (0..64)
            .filter(move |b| w >> b & 1 == 1)
            .map(move |b| (wi * 64 + b) as i64)
    })
}

/// Runs until a decision, the end, or a failed requirement.
pub fn run(rules: &Ruleset, st: &mut State) -> Result<Exit, RuntimeError> {
    let mut steps: u64 = 0;
    let Some(frame) = st.vm.frames.last() else {
        st.status = Status::Over;
        return Ok(Exit::Over);
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
                    return Ok(Exit::Over);
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
        if steps > STEP_LIMIT {
            return Err(err(
                ErrorKind::LimitReached,
                span!(),
                "the rules ran 50 million steps without a decision: an endless loop?",
            ));
        }
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
            Op::StoreVar(v) => {
                let val = st.vm.stack.pop().expect("value");
                let vd = &rules.vars[*v as usize];
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                st.touch(off, off + vd.elem_words);
                match val {
                    Value::I(x) => st.words[off] = x,
                    Value::S(bits) => {
                        if bits.iter().skip(vd.elem_words).any(|w| *w != 0) {
                            return Err(err(
                                ErrorKind::OutOfRange,
                                span!(),
                                format!("set too large for `{}`", vd.name),
                            ));
                        }
                        for i in 0..vd.elem_words {
                            st.words[off + i] = bits.get(i).copied().unwrap_or(0) as i64;
                        }
                    }
                }
            }
            Op::AddVar(v) => {
                let x = st.vm.stack.pop().map_or(0, |v| v.int());
                let off = var_offset(rules, st, *v).map_err(|e| e.at(span!()))?;
                st.touch(off, off + 1);
                st.words[off] = st.words[off].saturating_add(x);
            }
            Op::Field(k, f) => {
                let e = pop_i!();
                let kind = &rules.kinds[*k as usize];
                if e < 0 || e as usize >= kind.items.len() {
                    return Err(err(
                        ErrorKind::NoneUsed,
                        span!(),
                        format!(
                            "field `{}` of none (no `{}` here)",
                            kind.fields[*f as usize].name, kind.name
                        ),
                    ));
                }
                stack.push(Value::I(kind.data[e as usize][*f as usize].int()));
            }
            Op::FieldIndex(k, f) => {
                let key = pop_i!();
                let e = pop_i!();
                let kind = &rules.kinds[*k as usize];
                if e < 0 || e as usize >= kind.items.len() {
                    return Err(err(
                        ErrorKind::NoneUsed,
                        span!(),
                        format!(
                            "field `{}` of none (no `{}` here)",
                            kind.fields[*f as usize].name, kind.name
                        ),
                    ));
                }
                let fd = &kind.fields[*f as usize];
                let v = kind.data[e as usize][*f as usize].at_or(key, missing(&fd.ty));
                stack.push(Value::I(v));
            }
            Op::ParamIndex(p) => {
                let key = pop_i!();
                let pd = &rules.params[*p as usize];
                stack.push(Value::I(pd.data.at_or(key, missing(&pd.ty))));
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
            Op::Jump(t) => pc = *t as usize,
            Op::JumpIf(t) => {
                if pop_i!() != 0 {
                    pc = *t as usize;
                }
            }
            Op::JumpIfNot(t) => {
                if pop_i!() == 0 {
                    pc = *t as usize;
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
            Op::SetAll(k) => {
                let n = if *k == PLAYER {
                    st.nplayers
                } else {
                    rules.kinds[*k as usize].items.len()
                };
                stack.push(Value::S(bits::all(n)));
            }
            Op::SetMake(_, n) => {
                let mut bits = bits::empty(0);
                for _ in 0..*n {
                    let e = pop_i!();
                    bits::set(&mut bits, e, true);
                }
                stack.push(Value::S(bits));
            }
            Op::SetIn => {
                let s = stack.pop().expect("set");
                let e = pop_i!();
                stack.push(Value::I(bits::has(s.bits(), e) as i64));
            }
            Op::SetCount => {
                let s = stack.pop().expect("set");
                stack.push(Value::I(bits::count(s.bits())));
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
                list_op(op, st, off, cap, item, span!())?;
            }
            Op::Adjacent(k) => {
                let of = stack.pop().expect("cell or set");
                let bits = neighbours(&rules.kinds[*k as usize], &of);
                st.vm.stack.push(Value::S(bits));
            }
            Op::Connected(k) => {
                let within = stack.pop().expect("set");
                let c = pop_i!();
                let kind = &rules.kinds[*k as usize];
                let bits = if c < 0 {
                    bits::empty(0)
                } else {
                    crate::ir::grid::connected(kind, c as usize, within.bits())
                };
                st.vm.stack.push(Value::S(bits));
            }
            Op::Components(k) => {
                let cells = stack.pop().expect("set");
                let kind = &rules.kinds[*k as usize];
                let n = crate::ir::grid::components(kind, cells.bits());
                st.vm.stack.push(Value::I(n));
            }
            Op::GroupsAround(k) => {
                let use_marked = pop_i!() != 0;
                let marked = stack.pop().expect("set");
                let cells = stack.pop().expect("set");
                let c = pop_i!();
                let kind = &rules.kinds[*k as usize];
                let n = if c < 0 {
                    0
                } else {
                    let m = use_marked.then(|| marked.bits());
                    crate::ir::grid::groups_around(kind, c as usize, cells.bits(), m)
                };
                st.vm.stack.push(Value::I(n));
            }
            Op::GridCell(k) => {
                let y = pop_i!();
                let x = pop_i!();
                let g = rules.kinds[*k as usize].grid.unwrap_or_default();
                let inside = (0..g.width as i64).contains(&x) && (0..g.height as i64).contains(&y);
                stack.push(Value::I(if inside { y * g.width as i64 + x } else { -1 }));
            }
            Op::SelectEq(v) => {
                let x = pop_i!();
                let words = row(rules, st, *v);
                let mut bits = bits::empty(words.len());
                for (i, w) in words.iter().enumerate() {
                    if *w == x {
                        bits[i / 64] |= 1 << (i % 64);
                    }
                }
                st.vm.stack.push(Value::S(bits));
            }
            Op::MembersEq(_) | Op::MembersFieldEq(..) | Op::FieldImage(..) => {
                members(rules, st, op)
            }
            Op::CountEq(v) => {
                let x = pop_i!();
                let c = row(rules, st, *v).iter().filter(|w| **w == x).count();
                st.vm.stack.push(Value::I(c as i64));
            }
            Op::Rotate(v) => {
                let last = pop_i!();
                let first = pop_i!();
                let vd = &rules.vars[*v as usize];
                let d = &vd.dims[0];
                let (a, b) = (first - d.lo, last - d.lo);
                if a < 0 || b < a || b as usize >= d.size {
                    return Err(err(
                        ErrorKind::OutOfRange,
                        span!(),
                        format!("rotate: bad range {first}..={last} of `{}`", vd.name),
                    ));
                }
                let (a, b) = (vd.offset + a as usize, vd.offset + b as usize);
                st.touch(a, b + 1);
                st.words[a..=b].rotate_right(1);
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
            Op::ChooseAddScreened { choice, arm } => add_screened(rules, st, *choice, *arm),
            Op::ChooseAdd(arm) => {
                let v = pop_i!();
                st.vm.options.push((*arm, v));
            }
            Op::ChooseAddSet(arm) => {
                let set = stack.pop().expect("set operand");
                let options = &mut st.vm.options;
                for (wi, w) in set.bits().iter().enumerate() {
                    let mut w = *w;
                    while w != 0 {
                        let b = w.trailing_zeros() as i64;
                        options.push((*arm, wi as i64 * 64 + b));
                        w &= w - 1;
                    }
                }
            }
            Op::ChooseAddRange(arm) => {
                let lo = pop_i!();
                let hi = pop_i!();
                st.vm.options.extend((lo..hi).map(|v| (*arm, v)));
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
                return Ok(Exit::Decide);
            }
            Op::Require(m) => {
                if pop_i!() == 0 {
                    save_pc!();
                    return Ok(Exit::Failed(*m));
                }
            }
            Op::Fail(m) => {
                save_pc!();
                return Ok(Exit::Failed(*m));
            }
            Op::Legal(m) => {
                if st.recording && st.cut_at_legal {
                    save_pc!();
                    return Ok(Exit::Legal(*m));
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
                        pc = if r == 0 { *t as usize } else { pc + 1 };
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
                        pc = if r == 0 { *t as usize } else { pc + 2 };
                        continue;
                    }
                }
                stack.push(Value::I(*k));
            }
            Op::AndJump(t) | Op::OrJump(t) => {
                let top = stack.last().map_or(0, Value::int) != 0;
                if top == matches!(op, Op::OrJump(_)) {
                    pc = *t as usize;
                } else {
                    stack.pop();
                    pc += 2;
                }
            }
            Op::LoadVarAt(l, v) => {
                let vd = &rules.vars[*v as usize];
                if let ([d], false) = (vd.dims.as_slice(), matches!(vd.ty, Ty::Set(_))) {
                    let k = stack[base + *l as usize].int() - d.lo;
                    let limit = if d.kind == Some(PLAYER) {
                        st.nplayers
                    } else {
                        d.size
                    };
                    if k >= 0 && (k as usize) < limit {
                        stack.push(Value::I(st.words[vd.offset + k as usize * vd.elem_words]));
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
                    pc = *done as usize;
                } else {
                    pc += 1;
                }
            }
            Op::Halt => {
                st.vm.frames.clear();
                st.status = Status::Over;
                return Ok(Exit::Over);
            }
        }
    }
}

/// The neighbours of a cell, or of any cell of a set (`adjacent`).
#[inline(never)]
fn neighbours(kind: &crate::ir::ruleset::Kind, of: &Value) -> Bits {
    let mut bits = bits::empty(kind.items.len());
    let words: &mut [u64] = &mut bits;
    let mut add = |c: i64| {
        for n in kind.adjacent.get(c as usize).map_or(&[][..], Vec::as_slice) {
            // A neighbour is an item of the kind: within the set.
            words[*n as usize / 64] |= 1 << (n % 64);
        }
    };
    match of {
        Value::I(c) if *c >= 0 => add(*c),
        Value::I(_) => {}
        Value::S(cells) => set_elems(cells).for_each(add),
    }
    bits
}

/// `MembersEq` and `MembersFieldEq`: pops a value and a set, pushes the
/// members that pass; `FieldImage`: pops a set, pushes the values of its
/// members' field (kept out of the interpreter's loop).
#[inline(never)]
fn members(rules: &Ruleset, st: &mut State, op: &Op) {
    if let Op::FieldImage(k, f) = *op {
        // The values whose items meet the set.
        let set = st.vm.stack.pop().expect("set");
        let by_value = rules.kinds[k as usize].field_sets.get(f as usize);
        let by_value = by_value.map_or(&[][..], Vec::as_slice);
        let mut out = bits::empty(by_value.len());
        for (v, items) in by_value.iter().enumerate() {
            if items.iter().zip(set.bits()).any(|(a, b)| a & b != 0) {
                out[v / 64] |= 1 << (v % 64);
            }
        }
        st.vm.stack.push(Value::S(out));
        return;
    }
    let x = st.vm.stack.pop().map_or(0, |v| v.int());
    let set = st.vm.stack.pop().expect("set");
    let bits = set.bits();
    let out = match *op {
        Op::MembersEq(v) => {
            let vd = &rules.vars[v as usize];
            let words = &st.words[vd.offset..vd.offset + vd.len()];
            bits::from_fn(bits.len(), |wi| {
                bits::members_where(bits[wi], wi, |i| words.get(i) == Some(&x))
            })
        }
        Op::MembersFieldEq(k, f) => {
            let kind = &rules.kinds[k as usize];
            let by_value = kind
                .field_sets
                .get(f as usize)
                .map_or(&[][..], Vec::as_slice);
            if let Some(items) = usize::try_from(x).ok().and_then(|v| by_value.get(v)) {
                let out = bits::from_fn(bits.len(), |wi| {
                    bits[wi] & items.get(wi).copied().unwrap_or(0)
                });
                st.vm.stack.push(Value::S(out));
                return;
            }
            let data = &kind.data;
            bits::from_fn(bits.len(), |wi| {
                bits::members_where(bits[wi], wi, |i| {
                    data.get(i).is_some_and(|row| row[f as usize].int() == x)
                })
            })
        }
        _ => unreachable!("not a members instruction"),
    };
    st.vm.stack.push(Value::S(out));
}

/// `ChooseAddScreened`: the options of an arm, with the sets telling
/// which of them are refused at once (read when asked, see
/// [`crate::engine::state::Screening`]).
#[inline(never)]
fn add_screened(rules: &Ruleset, st: &mut State, choice: u32, arm: u16) {
    let n = rules.choices[choice as usize].arms[arm as usize]
        .screen
        .len();
    let vm = &mut st.vm;
    let at = vm.stack.len() - n - 1;
    let start = vm.options.len();
    for (wi, w) in vm.stack[at].bits().iter().enumerate() {
        let mut w = *w;
        while w != 0 {
            let b = w.trailing_zeros() as i64;
            vm.options.push((arm, wi as i64 * 64 + b));
            w &= w - 1;
        }
    }
    let end = vm.options.len();
    let passing = vm.stack.drain(at + 1..).map(|v| match v {
        Value::S(bits) => bits,
        Value::I(_) => Bits::new(),
    });
    vm.screened.add((start, end), (choice, arm), passing);
    vm.stack.truncate(at);
}

/// Moves a loop over the set in local `set` on: stores the next element at
/// or after the cursor in local `var`, advances the cursor; false when the
/// set is exhausted.
fn set_next(stack: &mut [Value], base: usize, set: u16, cur: u16, var: u16) -> bool {
    let c = stack[base + cur as usize].int();
    let bits = stack[base + set as usize].bits();
    let total = bits.len() as i64 * 64;
    let mut i = c.max(0);
    while i < total {
        let w = bits[i as usize / 64] >> (i % 64);
        if w == 0 {
            i = (i / 64 + 1) * 64;
            continue;
        }
        i += w.trailing_zeros() as i64;
        stack[base + var as usize] = Value::I(i);
        stack[base + cur as usize] = Value::I(i + 1);
        return true;
    }
    false
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

/// Pops the indices of variable `v` and returns the offset of that element
/// (or why the indices are out of range, an error the caller places at
/// its instruction).
#[inline]
fn var_offset(rules: &Ruleset, st: &mut State, v: u32) -> Result<usize, RuntimeError> {
    let vd = &rules.vars[v as usize];
    match vd.dims.as_slice() {
        [] => return Ok(vd.offset),
        [d] => {
            let x = st.vm.stack.last().map_or(0, Value::int);
            let k = x - d.lo;
            let limit = if d.kind == Some(PLAYER) {
                st.nplayers
            } else {
                d.size
            };
            if k >= 0 && (k as usize) < limit {
                st.vm.stack.pop();
                return Ok(vd.offset + k as usize * vd.elem_words);
            }
        }
        _ => {}
    }
    var_offset_slow(rules, st, v)
}

fn var_offset_slow(rules: &Ruleset, st: &mut State, v: u32) -> Result<usize, RuntimeError> {
    let vd = &rules.vars[v as usize];
    let n = vd.dims.len();
    let at = st.vm.stack.len() - n;
    let mut flat = 0usize;
    for (i, d) in vd.dims.iter().enumerate() {
        let x = st.vm.stack[at + i].int();
        let k = x - d.lo;
        let limit = if d.kind == Some(PLAYER) {
            st.nplayers
        } else {
            d.size
        };
        if k < 0 || k as usize >= limit {
            let what = match d.kind {
                Some(k) if x < 0 => format!("none (no `{}`)", rules.kinds[k as usize].name),
                _ => x.to_string(),
            };
            st.vm.stack.truncate(at);
            return Err(err(
                ErrorKind::OutOfRange,
                Span::default(),
                format!("index {what} out of range for `{}`", vd.name),
            ));
        }
        flat = flat * d.size + k as usize;
    }
    st.vm.stack.truncate(at);
    Ok(vd.offset + flat * vd.elem_words)
}

fn list_op(
    op: &Op,
    st: &mut State,
    off: usize,
    cap: usize,
    item: i64,
    span: Span,
) -> Result<(), RuntimeError> {
    let len = st.words[off] as usize;
    if !matches!(op, Op::ListLen(_) | Op::ListIn(_) | Op::ListSet(_)) {
        st.touch(off, off + 1 + cap);
    }
    match op {
        Op::ListLen(_) => st.vm.stack.push(Value::I(len as i64)),
        Op::ListIn(_) => {
            let has = st.words[off + 1..off + 1 + len].contains(&item);
            st.vm.stack.push(Value::I(has as i64));
        }
        Op::ListSet(_) => {
            let mut bits = bits::empty(0);
            for w in &st.words[off + 1..off + 1 + len] {
                bits::set(&mut bits, *w, true);
            }
            st.vm.stack.push(Value::S(bits));
        }
        Op::ListDraw(_) => {
            if len == 0 {
                st.vm.stack.push(Value::I(-1));
            } else {
                let first = st.words[off + 1];
                st.words.copy_within(off + 2..off + 1 + len, off + 1);
                st.words[off] = (len - 1) as i64;
                st.vm.stack.push(Value::I(first));
            }
        }
        Op::ListPush(_) => {
            if item < 0 {
                return Err(err(
                    ErrorKind::NoneUsed,
                    span,
                    "cannot push none onto a list",
                ));
            }
            if st.words[off + 1..off + 1 + len].contains(&item) {
                return Err(err(
                    ErrorKind::BadValue,
                    span,
                    "the item is already in the list (a list holds each item once)",
                ));
            }
            if len >= cap {
                return Err(err(
                    ErrorKind::BadValue,
                    span,
                    "list is full (a list holds each item at most once)",
                ));
            }
            st.words[off + 1 + len] = item;
            st.words[off] = (len + 1) as i64;
        }
        Op::ListRemove(_) => {
            if let Some(pos) = st.words[off + 1..off + 1 + len]
                .iter()
                .position(|w| *w == item)
            {
                st.words
                    .copy_within(off + 2 + pos..off + 1 + len, off + 1 + pos);
                st.words[off] = (len - 1) as i64;
            }
        }
        Op::ListShuffle(_) => {
            for i in (1..len).rev() {
                let j = (st.rng.next_u64() % (i as u64 + 1)) as usize;
                st.words.swap(off + 1 + i, off + 1 + j);
            }
        }
        Op::ListClear(_) => st.words[off] = 0,
        _ => {}
    }
    Ok(())
}

/// An operation on two integers, when it cannot fail.
#[inline]
fn int_binary(op: BinaryOp, x: i64, y: i64) -> Option<i64> {
    use BinaryOp::*;
    Some(match op {
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

fn binary(op: BinaryOp, a: Value, b: Value, span: Span) -> Result<Value, RuntimeError> {
    use BinaryOp::*;
    if let (Value::S(x), Value::S(y)) = (&a, &b) {
        let n = x.len().max(y.len());
        let get = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
        return Ok(match op {
            Add => Value::S(bits::from_fn(n, |i| get(x, i) | get(y, i))),
            Sub => Value::S(bits::from_fn(n, |i| get(x, i) & !get(y, i))),
            // Not written in the rules: the compiler's intersection.
            And => Value::S(bits::from_fn(n, |i| get(x, i) & get(y, i))),
            Eq => Value::I((0..n).all(|i| get(x, i) == get(y, i)) as i64),
            Ne => Value::I((0..n).any(|i| get(x, i) != get(y, i)) as i64),
            _ => {
                return Err(err(
                    ErrorKind::Internal,
                    span,
                    "unsupported operation on sets",
                ))
            }
        });
    }
    let (x, y) = (a.int(), b.int());
    if let Some(r) = int_binary(op, x, y) {
        return Ok(Value::I(r));
    }
    let r = match op {
        Div => {
            if y == 0 {
                return Err(err(ErrorKind::DivisionByZero, span, "division by zero"));
            }
            floor_div(x, y)
        }
        Rem => {
            if y == 0 {
                return Err(err(ErrorKind::DivisionByZero, span, "remainder by zero"));
            }
            x.wrapping_sub(floor_div(x, y).wrapping_mul(y))
        }
        // `in` with an integer on the right (int_binary did the rest).
        _ => 0,
    };
    Ok(Value::I(r))
}

/// The elements of a one-dimensional variable (over the seated players
/// only, when indexed by player).
fn row<'s>(rules: &Ruleset, st: &'s State, v: u32) -> &'s [i64] {
    let vd = &rules.vars[v as usize];
    let n = if vd.dims[0].kind == Some(PLAYER) {
        st.nplayers
    } else {
        vd.dims[0].size
    };
    &st.words[vd.offset..vd.offset + n]
}

/// The value read at a missing key of a table of this type: `none` for
/// items and procedures, 0 otherwise.
fn missing(ty: &crate::ir::ruleset::Ty) -> i64 {
    use crate::ir::ruleset::Ty;
    match ty {
        Ty::Array(inner) | Ty::Map(_, inner) => match **inner {
            Ty::Ent(_) | Ty::Proc => -1,
            _ => 0,
        },
        _ => 0,
    }
}

/// Integer division rounding down (toward negative infinity), saturating.
fn floor_div(x: i64, y: i64) -> i64 {
    if y == -1 {
        return x.saturating_neg();
    }
    let q = x / y;
    if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    }
}

/// Runs a builtin on its arguments (the top of the stack, left in place).
fn builtin(
    b: Builtin,
    args: &[Value],
    rng: &mut Pcg64,
    nplayers: usize,
    span: Span,
) -> Result<Value, RuntimeError> {
    let i = |k: usize| args.get(k).map_or(0, |v| v.int());
    let n = nplayers as i64;
    Ok(match b {
        Builtin::Min2 => Value::I(i(0).min(i(1))),
        Builtin::Max2 => Value::I(i(0).max(i(1))),
        Builtin::Abs => Value::I(i(0).saturating_abs()),
        Builtin::Count => Value::I(bits::count(args[0].bits())),
        Builtin::NextPlayer => {
            if i(0) < 0 {
                return Err(err(ErrorKind::NoneUsed, span, "next(none)"));
            }
            Value::I((i(0) + 1).rem_euclid(n))
        }
        Builtin::PrevPlayer => {
            if i(0) < 0 {
                return Err(err(ErrorKind::NoneUsed, span, "prev(none)"));
            }
            Value::I((i(0) - 1).rem_euclid(n))
        }
        Builtin::NumPlayers => Value::I(n),
        Builtin::Random => Value::I(random_elem(args[0].bits(), rng)),
        Builtin::Roll => {
            if i(0) <= 0 {
                return Err(err(ErrorKind::BadValue, span, "roll(n) needs n > 0"));
            }
            Value::I((rng.next_u64() % i(0) as u64) as i64)
        }
        Builtin::First => Value::I(set_elems(args[0].bits()).next().unwrap_or(-1)),
        Builtin::With | Builtin::Without => {
            let mut bits = Bits::from_slice(args[0].bits());
            bits::set(&mut bits, i(1), b == Builtin::With);
            Value::S(bits)
        }
    })
}

/// An element of a set drawn at random (`none` from an empty set, which
/// draws nothing).
fn random_elem(bits: &[u64], rng: &mut Pcg64) -> i64 {
    let n = bits::count(bits);
    if n == 0 {
        return -1;
    }
    let k = rng.next_u64() % n as u64;
    set_elems(bits).nth(k as usize).unwrap_or(-1)
}

/// The elements of a set value, ascending.
pub fn elements(v: &Value) -> Vec<i64> {
    set_elems(v.bits()).collect()
}

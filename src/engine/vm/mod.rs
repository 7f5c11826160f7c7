//! The interpreter: runs compiled rules on a state until the next decision,
//! a failed requirement, or the end of the game program.

mod builtins;
mod errors;
mod frame;
mod fused;
mod grid;
mod held;
mod lists;
mod operators;
mod rare;
mod sets;
mod vars;

use crate::engine::error::RuntimeError;
use crate::engine::state::{State, Status, Value};
use crate::ir::bytecode::{Func, Op};
use crate::ir::{bits, ruleset::Ruleset, span::Span};

use errors::{err, options_fit, runaway, set_options_fit, too_many_options, trail_full, unseated};
pub use frame::{eval, resume, start, Exit};
use operators::{as_int, binary, int_binary, set_op_into};
pub use sets::elements;
use sets::{add_screened, members, set_next};
use vars::{slot, var_offset};

pub use errors::{MAX_OPTIONS, STEP_LIMIT};

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
    // The running frame is kept in locals, written back to the frame stack
    // only when control leaves it (calls, decisions, failures); the next
    // instruction as a pointer into the function's code (`ip`), whose start
    // is kept in the state (`st.vm.code`: one value fewer held in the loop),
    // the function itself nowhere (`frame::running` finds it).
    let (pc, mut base) = (frame.pc as usize, frame.base as usize);
    let func: &Func = &rules.funcs[frame.func as usize];
    if !frame::fits(&mut st.vm.stack, func, pc, base) {
        return Err(frame::unfit(func));
    }
    st.vm.code = func.code.as_ptr() as usize;
    let mut ip: *const Op = func.code.as_ptr().wrapping_add(pc);
    // The stack, while the loop holds it: `lp` at the frame's locals, `sp`
    // past the top (`hold!`, `release!`; `frame` tells why they stay valid).
    let mut lp: *mut Value;
    let mut sp: *mut Value;
    held::held_stack!($ st ip sp lp);
    hold!(base);
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
            frame::running(rules, st).spans[pc!() - 1]
        };
    }
    // Leaves with an error, the stack released.
    macro_rules! fail {
        ($e:expr) => {{
            let e = $e;
            release!();
            return Err(e);
        }};
    }
    // Leaves with an exit, the running instruction's index saved.
    macro_rules! stop {
        ($exit:expr) => {{
            save_pc!();
            release!();
            leave!($exit);
        }};
    }
    // A value, or leaves with the error placed at the running instruction.
    macro_rules! or_fail {
        ($r:expr) => {
            match $r {
                Ok(v) => v,
                Err(e) => fail!(e.at(span!())),
            }
        };
    }
    // Runs `$e` (which reaches the stack through `st`) released.
    macro_rules! released {
        ($e:expr) => {{
            let base = frame_base!();
            release!();
            let r = $e;
            hold!(base);
            r
        }};
    }
    // An error once the limit is passed.
    macro_rules! check_steps {
        () => {
            if steps > STEP_LIMIT {
                fail!(runaway(span!()));
            }
        };
    }
    // A taken jump (the jump is the running instruction).
    macro_rules! goto {
        ($t:expr) => {{
            check_steps!();
            debug_assert!(($t as usize) < frame::running(rules, st).code.len());
            // Safety: `verify` proved every jump lands in the function (at `st.vm.code`).
            ip = unsafe { (st.vm.code as *const Op).add($t as usize) };
        }};
    }
    // Enters the top frame (the stack released); gives its function.
    macro_rules! reload {
        () => {
            match st.vm.frames.last() {
                Some(f) => {
                    base = f.base as usize;
                    let func = &rules.funcs[f.func as usize];
                    // Read once the frame is known to fit (`call`, or after `Ret`).
                    ip = func.code.as_ptr().wrapping_add(f.pc as usize);
                    st.vm.code = func.code.as_ptr() as usize;
                    func
                }
                None => {
                    st.status = Status::Over;
                    leave!(Exit::Over);
                }
            }
        };
    }
    // `vars::short_element`, in place, for two indices or fewer.
    macro_rules! offset {
        ($v:expr) => {{
            let vd = &rules.vars[$v as usize];
            let np = st.nplayers;
            // How many indices, and the element they name.
            let (n, at) = match vd.dims.as_slice() {
                [] => (0, Some(0)),
                [d] => (1, slot(d, top!(0).int(), np)),
                [d, e] => match (slot(d, top!(1).int(), np), slot(e, top!(0).int(), np)) {
                    (Some(i), Some(j)) => (2, Some(i * e.size + j)),
                    _ => (2, None),
                },
                _ => (3, None),
            };
            match at {
                Some(k) => {
                    for _ in 0..n {
                        drop(pop!());
                    }
                    vd.offset + k * vd.elem_words
                }
                None => or_fail!(released!(var_offset(rules, st, $v))),
            }
        }};
    }
    loop {
        debug_assert!(pc!() < frame::running(rules, st).code.len());
        // Safety: the running frame was checked to stand at an instruction
        // of its function when entered or resumed, and `verify` proved
        // that every instruction goes on to one of the function's.
        let op = unsafe { &*ip };
        ip = ip.wrapping_add(1);
        steps += 1;
        debug_assert_eq!(
            unsafe { sp.offset_from(lp) } as u32,
            frame::running(rules, st).heights[pc!() - 1]
        );
        match op {
            Op::Const(v) => push!(Value::I(*v)),
            Op::Load(l) => push!(local!(*l).clone()),
            Op::Store(l) => set_local!(*l, pop!()),
            Op::LoadVar(v) => {
                let off = offset!(*v);
                push!(fused::value(rules, st, *v, off));
            }
            Op::Field(k, f) => push!(Value::I(or_fail!(rare::field(rules, *k, *f, pop_i!())))),
            Op::Bin(op) => {
                if let (Value::I(a), Value::I(b)) = (top!(1), top!(0)) {
                    if let Some(r) = int_binary(*op, *a, *b) {
                        drop(pop!());
                        *top_mut!() = Value::I(r);
                        continue;
                    }
                }
                if let (Value::S(_), Value::S(_)) = (top!(1), top!(0)) {
                    let b = pop!();
                    if set_op_into(*op, top_mut!(), b.bits()) {
                        continue;
                    }
                    push!(b);
                }
                let b = pop!();
                let a = pop!();
                push!(or_fail!(binary(*op, a, b)));
            }
            Op::Neg => push!(Value::I(pop_i!().saturating_neg())),
            Op::Not => push!(Value::I((pop_i!() == 0) as i64)),
            Op::Jump(t) => goto!(*t),
            Op::JumpIf(t) | Op::JumpIfNot(t) => {
                if (pop_i!() != 0) == matches!(op, Op::JumpIf(_)) {
                    goto!(*t);
                }
            }
            Op::Pop => drop(pop!()),
            Op::Dup => push!(top!(0).clone()),
            Op::Call(..) | Op::CallDyn(_) => {
                save_pc!();
                release!();
                frame::call_op(rules, st, op, steps)?;
                reload!();
                hold!(base);
            }
            Op::Ret => {
                let ended = frame_base!(); // Not kept across the loop.
                let returns = frame::running(rules, st).returns;
                release!();
                frame::ret(st, returns, ended);
                let func = reload!();
                if !frame::fits(&mut st.vm.stack, func, pc!(), base) {
                    return Err(frame::unfit(func));
                }
                hold!(base);
            }
            Op::KindSize(k) => push!(Value::I(rare::kind_size(rules, st, *k) as i64)),
            Op::Nth(k) => {
                let i = pop_i!();
                push!(Value::I(rare::nth(rules, st, *k, i)));
            }
            Op::SelectEq(v) => {
                let x = pop_i!();
                push!(Value::S(rare::select_eq(rules, st, *v, x)));
            }
            Op::SetIn => {
                let s = pop!();
                *top_mut!() = Value::I(bits::has(s.bits(), top!(0).int()) as i64);
            }
            Op::SetNext { set, cur, var } => {
                let found = set_next(frame_values!(), 0, *set, *cur, *var);
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
                steps += rare::list_steps(rules, *v);
                let at = Span::default(); // Placed at the instruction on an error.
                or_fail!(released!(rare::list_instruction(rules, st, op, *v, at)))
            }
            Op::Adjacent(_) | Op::Toward(_) | Op::Connected(_) | Op::Components(_) => {
                released!(grid::instruction(rules, st, op))
            }
            // Safety, all three: their operands lie above the locals (see above).
            Op::GroupsAround(k, m) => {
                sp = unsafe { grid::groups_at(rules, &mut st.groups, *k, *m, sp) }
            }
            Op::GridCell(k) => sp = unsafe { grid::grid_cell_at(rules, *k, sp) },
            Op::RunLength(k, back) => sp = unsafe { grid::run_length_at(rules, *k, *back, sp) },
            Op::LocalRun(..) | Op::LocalGroups(..) => {
                (sp, ip) = unsafe { grid::local_op(rules, st, op, lp, sp, ip) }
            }
            Op::MembersEq(_) | Op::MembersFieldEq(..) | Op::FieldImage(..) => {
                let x = if let Op::FieldImage(..) = op {
                    0
                } else {
                    pop_i!()
                };
                members(rules, &st.words, op, x, top_mut!());
            }
            Op::MembersEqCount(_) | Op::MembersFieldEqCount(..) => {
                let x = pop_i!();
                let n = sets::members_count(rules, &st.words, op, x, top!(0).bits());
                *top_mut!() = Value::I(n);
                skip!(1);
            }
            Op::MembersFieldEqFirst(k, f) => {
                let x = pop_i!();
                let first = sets::first_field_eq(rules, *k, *f, top!(0).bits(), x);
                *top_mut!() = Value::I(first);
                skip!(1);
            }
            Op::DupSubFieldEq(k, f, x) => {
                if fused::sub_field_eq(rules, *k, *f, *x, top_mut!()) {
                    skip!(3);
                } else {
                    push!(top!(0).clone());
                }
            }
            Op::AllSubVar(..) | Op::VarsSetBin(..) => {
                push!(Value::S(sets::made_set(rules, st, op)));
                skip!(2);
            }
            Op::Builtin(b, argc) => {
                // Safety: the arguments lie above the locals (see above).
                let (r, top) = unsafe { rare::builtin_at(*b, *argc, sp, st) };
                sp = top;
                push!(or_fail!(r));
            }
            Op::ChooseAddScreened { choice, arm } => {
                or_fail!(released!(add_screened(rules, st, *choice, *arm)))
            }
            Op::ChooseBegin => rare::begin_options(st),
            Op::ChooseAdd(arm) => or_fail!(rare::add_option(st, *arm, pop_i!())),
            Op::ChooseWait(c) => {
                or_fail!(rare::wait(st, *c, pop_i!(), Span::default()));
                stop!(Exit::Decide);
            }
            Op::Require(m) => {
                if pop_i!() == 0 {
                    stop!(Exit::Failed(*m));
                }
            }
            Op::Fail(m) => stop!(Exit::Failed(*m)),
            Op::Legal(m) if st.recording && st.cut_at_legal => stop!(Exit::Legal(*m)),
            Op::Legal(_) => {}
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
                push!(or_fail!(binary(*op, a, b)));
            }
            Op::Load2(a, b) => {
                push!(local!(*a).clone());
                push!(local!(*b).clone());
                skip!(1);
            }
            Op::StoreLoad(a, b) => {
                set_local!(*a, pop!());
                push!(local!(*b).clone());
                skip!(1);
            }
            Op::LoadField(l, k, f) => {
                let e = local!(*l).int();
                match fused::field(rules, *k, *f, e) {
                    Some(x) => {
                        push!(Value::I(x));
                        skip!(1);
                    }
                    None => push!(Value::I(e)),
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
            Op::LoadVarAt(l, v) | Op::StoreLoadVarAt(_, l, v) => {
                if let Op::StoreLoadVarAt(a, ..) = op {
                    set_local!(*a, pop!());
                    skip!(1);
                }
                match fused::var_at(rules, st, *v, local!(*l)) {
                    Some(x) => {
                        push!(Value::I(x));
                        skip!(1);
                    }
                    None => push!(local!(*l).clone()),
                }
            }
            Op::SetNextOrJump {
                set,
                cur,
                var,
                done,
            } => match set_next(frame_values!(), 0, *set, *cur, *var) {
                true => skip!(1),
                false => goto!(*done),
            },
            Op::VarSetIn(v) | Op::LoadVarSetIn(_, v) | Op::InJump(_, v, ..) => {
                if let Op::LoadVarSetIn(l, _) | Op::InJump(l, ..) = op {
                    push!(local!(*l).clone());
                    skip!(1); // An error in the indices is placed at `LoadVar`.
                }
                let off = offset!(*v);
                let e = pop_i!();
                let has = fused::var_set_in(rules, st, *v, off, e);
                if let Op::InJump(.., t, when) = op {
                    skip!(2); // A runaway is placed at the jump.
                    if has == *when {
                        goto!(*t);
                    }
                    continue;
                }
                push!(Value::I(has as i64));
                skip!(1);
            }
            Op::MembersEqFirst(v) => {
                let x = pop_i!();
                *top_mut!() = Value::I(fused::members_eq_first(rules, st, *v, top!(0), x));
                skip!(1);
            }
            Op::VarCount(v) => {
                let off = offset!(*v);
                push!(Value::I(fused::var_count(rules, st, *v, off)));
                skip!(1);
            }
            Op::VarSetBin(v, op) => {
                let off = offset!(*v);
                match fused::var_set_bin(rules, st, *v, off, *op, top_mut!()) {
                    None => skip!(1),
                    Some(v) => push!(v),
                }
            }
            Op::WithLocal(a, b, on) => {
                if fused::with_local(frame_values!(), 0, *a, *b, *on) {
                    skip!(3);
                } else {
                    push!(local!(*a).clone());
                    push!(local!(*b).clone());
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
                push!(top!(0).clone());
            }
            Op::LoadBinKJumpIfNot(l, op, k, t) => {
                if let Value::I(x) = *local!(*l) {
                    if let Some(r) = int_binary(*op, x, i64::from(*k)) {
                        skip!(3); // A runaway is placed at the jump.
                        if r == 0 {
                            goto!(*t);
                        }
                        continue;
                    }
                }
                push!(local!(*l).clone());
            }
            Op::LoadJump(l, t, when) => {
                let x = local!(*l).int();
                skip!(1); // A runaway is placed at the jump.
                if (x != 0) == *when {
                    goto!(*t);
                }
            }
            Op::VarStoreCmpJump(v, a, op, k, t) => {
                let off = offset!(*v);
                let x = st.words[off];
                set_local!(*a, Value::I(x));
                match int_binary(*op, x, i64::from(*k)) {
                    Some(r) => {
                        skip!(5); // A runaway is placed at the jump.
                        if r == 0 {
                            goto!(*t);
                        }
                    }
                    None => {
                        push!(Value::I(x));
                        skip!(2);
                    }
                }
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
                    // Stepped and stored: on from `Load(b)`, the value left by `Dup`.
                    push!(Value::I(x));
                    skip!(4);
                    continue;
                }
                push!(local!(*var).clone());
            }
            Op::RequireLegal(m, l) => {
                if pop_i!() == 0 {
                    stop!(Exit::Failed(*m));
                }
                skip!(1);
                if st.recording && st.cut_at_legal {
                    stop!(Exit::Legal(*l));
                }
            }
            Op::Store2(a, b) => {
                set_local!(*a, pop!());
                set_local!(*b, pop!());
                skip!(1);
            }
            Op::Move(a, b) => {
                set_local!(*b, local!(*a).clone());
                skip!(1);
            }
            Op::SetLocal(a, k) => {
                set_local!(*a, Value::I(*k));
                skip!(1);
            }
            Op::StoreJump(a, t) => {
                set_local!(*a, pop!());
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
                            stop!(Exit::Failed(*m));
                        }
                        continue;
                    }
                }
                let b = pop!();
                let a = pop!();
                push!(or_fail!(binary(*op, a, b)));
            }
            Op::RequireIn(v, m) | Op::LoadRequireIn(_, v, m) => {
                if let Op::LoadRequireIn(l, ..) = op {
                    push!(local!(*l).clone());
                    skip!(1); // An error in the indices is placed at `LoadVar`.
                }
                let off = offset!(*v);
                let e = pop_i!();
                skip!(2);
                if !fused::var_set_in(rules, st, *v, off, e) {
                    stop!(Exit::Failed(*m));
                }
            }
            Op::LoadVarAtIn(l, v, w) => {
                let base = frame_base!();
                match released!(fused::var_at_in(rules, st, base, *l, *v, *w)) {
                    Ok(k) => skip!(k),
                    // An error is in `w`'s indices: its `LoadVar` is two on.
                    Err(e) => fail!(e.at(frame::running(rules, st).spans[pc!() + 1])),
                }
            }
            Op::BinKRequireLegal(op, k, m, l) => {
                if let Some(r) = as_int(top!(0)).and_then(|a| int_binary(*op, a, *k as i64)) {
                    drop(pop!());
                    skip!(2);
                    if r == 0 {
                        stop!(Exit::Failed(*m));
                    }
                    skip!(1);
                    if st.recording && st.cut_at_legal {
                        stop!(Exit::Legal(*l));
                    }
                    continue;
                }
                push!(Value::I(*k as i64));
            }
            Op::LocalsRequire(a, b, op, m) => {
                let (x, y) = (as_int(local!(*a)), as_int(local!(*b)));
                if let Some(r) = x.zip(y).and_then(|(x, y)| int_binary(*op, x, y)) {
                    skip!(3);
                    if r == 0 {
                        stop!(Exit::Failed(*m));
                    }
                    continue;
                }
                push!(local!(*a).clone());
            }
            Op::LoadLoadField(a, b, k, f) => {
                push!(local!(*a).clone());
                if let Some(x) = fused::field(rules, *k, *f, local!(*b).int()) {
                    push!(Value::I(x));
                    skip!(2);
                }
            }
            Op::LoadVarAtBinK(l, v, op, k) => {
                let x = fused::var_at(rules, st, *v, local!(*l));
                match x.and_then(|x| int_binary(*op, x, *k as i64)) {
                    Some(r) => {
                        push!(Value::I(r));
                        skip!(3);
                    }
                    None => push!(local!(*l).clone()),
                }
            }
            Op::LoadLoadVarAt(a, b, v) => {
                push!(local!(*a).clone());
                push!(local!(*b).clone());
                skip!(2); // An error in the indices is placed at `LoadVar`.
                let off = offset!(*v);
                push!(fused::value(rules, st, *v, off));
            }
            Op::LoadBin(l, b) | Op::LoadBinNth(l, b, _) | Op::LoadFieldBinNth(.., l, b, _) => {
                if let Op::LoadFieldBinNth(a, k, f, ..) = op {
                    // As `LoadField`, then on from the `Load(l)`.
                    let e = local!(*a).int();
                    let Some(x) = fused::field(rules, *k, *f, e) else {
                        push!(Value::I(e));
                        continue;
                    };
                    push!(Value::I(x));
                    skip!(2);
                }
                let (x, y) = (as_int(top!(0)), as_int(local!(*l)));
                match x.zip(y).and_then(|(x, y)| int_binary(*b, x, y)) {
                    Some(r) => {
                        *top_mut!() = Value::I(match op {
                            Op::LoadBinNth(.., k) | Op::LoadFieldBinNth(.., k) => {
                                rare::nth(rules, st, *k, r)
                            }
                            _ => r,
                        });
                        skip!(if let Op::LoadBin(..) = op { 1 } else { 2 });
                    }
                    // Two sets: the local's words read where they lie.
                    None if matches!((op, local!(*l)), (Op::LoadBin(..), Value::S(_)))
                        && set_op_into(*b, top_mut!(), local!(*l).bits()) =>
                    {
                        skip!(1)
                    }
                    None => push!(local!(*l).clone()),
                }
            }
            Op::FieldIndex(k, f) | Op::LoadsFieldIndex(_, _, k, f) => {
                if let Op::LoadsFieldIndex(a, b, ..) = op {
                    push!(local!(*a).clone());
                    push!(local!(*b).clone());
                    skip!(2);
                }
                match fused::field_at(rules, *k, *f, top!(1).int(), top!(0).int()) {
                    Some(x) => {
                        drop(pop!());
                        *top_mut!() = Value::I(x);
                    }
                    None => or_fail!(released!(rare::field_index(rules, st, *k, *f))),
                }
            }
            Op::SetLocalStore(a, b, k) => {
                set_local!(*a, Value::I(*k as i64));
                set_local!(*b, pop!());
                skip!(2);
            }
            Op::AddVar(v) | Op::StoreVar(v) if matches!(top!(0), Value::I(_)) => {
                let x = pop_i!();
                let off = offset!(*v);
                if !rare::store_int(rules, st, op, off, x) {
                    fail!(trail_full(span!()));
                }
            }
            Op::StoreVar(_)
            | Op::VarBit(..)
            | Op::VarMerge(..)
            | Op::AddVar(_)
            | Op::ParamIndex(_)
            | Op::SetAll(_)
            | Op::SetMake(..)
            | Op::SetRange
            | Op::SetCount
            | Op::MembersCmp(..)
            | Op::CountEq(_)
            | Op::Rotate(_)
            | Op::ChooseAddSet(_)
            | Op::ChooseAddRange(_) => {
                or_fail!(released!(rare::instruction(rules, st, op)))
            }
            Op::Halt => {
                release!();
                frame::halt(st);
                leave!(Exit::Over);
            }
        }
    }
}

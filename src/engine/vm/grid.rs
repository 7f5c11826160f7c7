//! Grid instructions: neighbours, connected regions, groups, cells by
//! coordinates (the geometry is `ir::grid`'s).

use super::sets::set_elems;
use crate::engine::state::{State, Value};
use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::{KindId, Op};
use crate::ir::grid::{self, GridMemo, GroupLabels};
use crate::ir::ruleset::{Kind, Ruleset, NO_CELL};

/// Runs a grid instruction on the operands on top of the stack.
#[inline(never)]
pub(super) fn instruction(rules: &Ruleset, st: &mut State, op: &Op) {
    let stack = &mut st.vm.stack;
    let pop_i = |stack: &mut Vec<Value>| stack.pop().map_or(0, |v| v.int());
    let out = match *op {
        Op::Adjacent(k) => {
            let of = stack.pop().expect("cell or set");
            Value::S(neighbours(
                &mut st.grid,
                k as usize,
                &rules.kinds[k as usize],
                &of,
            ))
        }
        Op::Connected(k) => {
            let within = stack.pop().expect("set");
            let from = stack.pop().expect("cell or set");
            let kind = &rules.kinds[k as usize];
            Value::S(match from {
                Value::I(c) if c >= 0 => {
                    st.grid
                        .connected(k as usize, kind, c as usize, within.bits())
                }
                Value::I(_) => bits::empty(0),
                Value::S(cells) => grid::connected_from(kind, &cells, within.bits()),
            })
        }
        Op::Toward(k) => {
            let d = pop_i(stack);
            let of = stack.pop().expect("cell or set");
            step(&rules.kinds[k as usize], &of, d)
        }
        Op::Components(k) => {
            let cells = stack.pop().expect("set");
            Value::I(grid::components(&rules.kinds[k as usize], cells.bits()))
        }
        _ => unreachable!("not a grid instruction"),
    };
    st.vm.stack.push(out);
}

/// `GridCell` (`cell`) on the two operands below `sp` (column, row), in
/// place: they are replaced by the cell (none off the grid), and the new
/// top is returned.
///
/// # Safety
///
/// The two values below `sp` are set and belong to the running frame's
/// operands: `verify` proved the instruction's stack effect (two operands
/// in, one out), so they lie above the frame's locals.
#[inline]
pub(super) unsafe fn grid_cell_at(rules: &Ruleset, k: KindId, sp: *mut Value) -> *mut Value {
    // Safety: the two operands are set (see above).
    let (x, y) = unsafe { ((*sp.sub(2)).int(), (*sp.sub(1)).int()) };
    let g = rules.kinds.get(k as usize).and_then(|kind| kind.grid);
    let g = g.unwrap_or_default();
    let inside = (0..g.width as i64).contains(&x) && (0..g.height as i64).contains(&y);
    // Safety: each operand is dropped once, in place; the first takes the
    // result, and the top is then past it.
    unsafe {
        std::ptr::drop_in_place(sp.sub(1));
        *sp.sub(2) = Value::I(if inside { y * g.width as i64 + x } else { -1 });
        sp.sub(1)
    }
}

/// `GroupsAround` (`groups_around`) on the three operands below `sp`
/// (cell, set, marked set), in place: they are replaced by the count
/// (read through `groups`), and the new top is returned. The sets are read
/// where they lie and dropped after.
///
/// # Safety
///
/// The three values below `sp` are set and belong to the running frame's
/// operands: `verify` proved the instruction's stack effect (three
/// operands in, one out), so they lie above the frame's locals.
#[inline]
pub(super) unsafe fn groups_at(
    rules: &Ruleset,
    groups: &mut GroupLabels,
    k: KindId,
    use_marked: bool,
    sp: *mut Value,
) -> *mut Value {
    // Safety: the three operands are set (see above).
    let (c, cells, marked) = unsafe { (&*sp.sub(3), &*sp.sub(2), &*sp.sub(1)) };
    let m = use_marked.then(|| marked.bits());
    let n = count_groups(rules, groups, k, c, cells, m);
    // Safety: each operand is dropped once, in place; the first takes the
    // result (its old value dropped by the assignment), and the top is
    // then past it.
    unsafe {
        std::ptr::drop_in_place(sp.sub(1));
        std::ptr::drop_in_place(sp.sub(2));
        *sp.sub(3) = Value::I(n);
        sp.sub(2)
    }
}

/// `LocalGroups`: the groups of the set in local `s` around the cell in
/// local `c` (`locals`), counting those meeting the state's words `held`
/// (a set variable's, read in place rather than copied as `LoadVar` does),
/// pushed above `sp`; returns the new top and the instruction after the
/// fused sequence (`ip` being the one after the instruction).
///
/// # Safety
///
/// `lp` points at the running frame's locals, whose indices `c` and `s`
/// are below the height, `sp` has room for one value, and the three
/// instructions from `ip` on are the function's: as `verify` proved for
/// the sequence the instruction stands for (see `ir::verify::unfused`).
#[inline]
#[allow(clippy::too_many_arguments)]
unsafe fn local_groups(
    rules: &Ruleset,
    groups: &mut GroupLabels,
    k: KindId,
    held: &[i64],
    (c, s): (u16, u16),
    lp: *mut Value,
    sp: *mut Value,
    ip: *const Op,
) -> (*mut Value, *const Op) {
    // Safety: both locals are set (see above).
    let (c, cells) = unsafe { (&*lp.add(c as usize), &*lp.add(s as usize)) };
    let n = count_groups(rules, groups, k, c, cells, Some(bits::as_words(held)));
    // Safety: room for one value, and the sequence's three other parts
    // are the function's instructions (see above).
    unsafe {
        sp.write(Value::I(n));
        (sp.add(1), ip.add(3))
    }
}

/// How many groups of `cells` of grid kind `k` touch the cell `c`
/// (meeting `marked` when given), through `groups`; 0 for none or a kind
/// that is not a grid's.
#[inline(always)]
fn count_groups(
    rules: &Ruleset,
    groups: &mut GroupLabels,
    k: KindId,
    c: &Value,
    cells: &Value,
    marked: Option<&[u64]>,
) -> i64 {
    match (usize::try_from(c.int()), rules.kinds.get(k as usize)) {
        (Ok(c), Some(kind)) => groups.groups_around(k as usize, kind, c, cells.bits(), marked),
        _ => 0,
    }
}

/// `RunLength` (`run_length`) on the four operands below `sp` (cell,
/// step across, step down, set), in place: they are replaced by the length,
/// and the new top is returned. The set is read where it lies and dropped
/// after; no trip through the stack's vector.
///
/// # Safety
///
/// The four values below `sp` are set and belong to the running frame's
/// operands, as the interpreter's stack is for a `RunLength`: `verify`
/// proved its stack effect (four operands in, one out), so they lie above
/// the frame's locals.
#[inline]
pub(super) unsafe fn run_length_at(
    rules: &Ruleset,
    k: KindId,
    back: bool,
    sp: *mut Value,
) -> *mut Value {
    // Safety: the four operands are set (see above).
    let (c, dx, dy, cells) = unsafe { (&*sp.sub(4), &*sp.sub(3), &*sp.sub(2), &*sp.sub(1)) };
    let step = match back {
        // As `Neg` on each step.
        true => (dx.int().saturating_neg(), dy.int().saturating_neg()),
        false => (dx.int(), dy.int()),
    };
    let n = match rules.kinds.get(k as usize) {
        Some(kind) => grid::run_length(kind, c.int(), step, cells.bits()),
        None => 0,
    };
    // Safety: each operand is dropped once, in place; the first takes the
    // result (its old value dropped by the assignment), and the top is
    // then past it.
    unsafe {
        std::ptr::drop_in_place(sp.sub(1));
        std::ptr::drop_in_place(sp.sub(2));
        std::ptr::drop_in_place(sp.sub(3));
        *sp.sub(4) = Value::I(n);
        sp.sub(3)
    }
}

/// `LocalRun` or `LocalGroups` (`op`), as [`local_run`] or
/// [`local_groups`] do; returns the new top and the instruction after
/// the fused sequence, `ip` being the one after `op`.
///
/// # Safety
///
/// As [`local_run`] asks for a `LocalRun`, as [`local_groups`] asks for
/// a `LocalGroups`.
#[inline]
pub(super) unsafe fn local_op(
    rules: &Ruleset,
    st: &mut State,
    op: &Op,
    lp: *mut Value,
    sp: *mut Value,
    ip: *const Op,
) -> (*mut Value, *const Op) {
    match *op {
        // Safety: as the caller promised (see above).
        Op::LocalRun(..) => unsafe { local_run(rules, op, lp, sp, ip) },
        Op::LocalGroups(c, s, m, k) => {
            let m = &rules.vars[m as usize];
            let held = &st.words[m.offset..m.offset + m.elem_words];
            // Safety: as the caller promised (see above).
            unsafe { local_groups(rules, &mut st.groups, k, held, (c, s), lp, sp, ip) }
        }
        _ => (sp, ip),
    }
}

/// `LocalRun` (`op`): the run length from the cell in one local through
/// the set in another, pushed above `sp`; returns the new top and the
/// instruction after the fused sequence (`ip` being the one after `op`).
///
/// # Safety
///
/// `lp` points at the running frame's locals, whose indices in `op` are
/// below the height, `sp` has room for one value, and the four
/// instructions from `ip` on are the function's: as `verify` proved for
/// the sequence the instruction stands for (see `ir::verify::unfused`).
#[inline]
unsafe fn local_run(
    rules: &Ruleset,
    op: &Op,
    lp: *mut Value,
    sp: *mut Value,
    ip: *const Op,
) -> (*mut Value, *const Op) {
    let Op::LocalRun(c, s, dx, dy, k) = *op else {
        return (sp, ip);
    };
    // Safety: both locals are set (see above).
    let (c, cells) = unsafe { (&*lp.add(c as usize), &*lp.add(s as usize)) };
    let n = match rules.kinds.get(k as usize) {
        Some(kind) => grid::run_length(kind, c.int(), (dx.into(), dy.into()), cells.bits()),
        None => 0,
    };
    // Safety: room for one value, and the sequence's four other parts
    // are the function's instructions (see above).
    unsafe {
        sp.write(Value::I(n));
        (sp.add(1), ip.add(4))
    }
}

/// The cell one step from a cell in direction `d` (none off the grid or
/// for none), or the set of the cells one step from those of a set (`toward`).
fn step(kind: &Kind, of: &Value, d: i64) -> Value {
    let n = kind.toward.len() as i64;
    let Some(toward) = (n > 0).then(|| &kind.toward[d.rem_euclid(n) as usize]) else {
        return Value::I(-1);
    };
    let at = |c: i64| match toward.get(c as usize) {
        Some(t) if c >= 0 && *t != NO_CELL => Some(*t),
        _ => None,
    };
    match of {
        Value::I(c) => Value::I(at(*c).map_or(-1, i64::from)),
        Value::S(cells) => {
            let mut bits = bits::empty(kind.items.len());
            grid::shift_toward(kind, cells, d.rem_euclid(n) as usize, &mut bits);
            Value::S(bits)
        }
    }
}

/// The neighbours of a cell, or of any cell of a set (`adjacent`), on
/// grid kind number `k` (`kind`); those of a set through `memo`.
#[inline(never)]
fn neighbours(memo: &mut GridMemo, k: usize, kind: &Kind, of: &Value) -> Bits {
    if let Value::S(cells) = of {
        if !kind.shifts.is_empty() {
            return memo.neighbours(k, kind, cells);
        }
    }
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

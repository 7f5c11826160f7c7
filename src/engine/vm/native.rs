//! EXPERIMENT, not for landing: the Rust a bytecode translator would emit
//! for one ruleset's procedure that never reaches a decision (`drop`,
//! with its inlined helpers), written by hand to measure the ceiling of
//! native code. Switched on by the environment variable `TABULA_NATIVE`;
//! the ids it needs are found by name once, as a generated table would
//! carry them (checked against a fingerprint of the bytecode).

use super::errors::{options_fit, runaway, trail_full, unseated, STEP_LIMIT};
use super::frame::Exit;
use super::rare::begin_options;
use super::vars::slot;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::{State, Status, Value};
use crate::ir::bytecode::Op;
use crate::ir::grid;
use crate::ir::ruleset::Ruleset;
use crate::ir::span::Span;
use std::sync::OnceLock;

/// The ids and layout the native code was generated against (a
/// translator bakes them in as constants; here they are found once).
pub(super) struct Ids {
    /// The procedure replaced.
    pub func: u32,
    /// The game program, when it is run natively too (`all`).
    pub main: Option<u32>,
    /// Whether `drop` is the specialised version.
    pub fast: bool,
    height: usize,
    disc: usize,
    discs: usize,
    winner: usize,
    board: usize,
    // Offsets and sizes (checked: indices from 0, one word each).
    hoff: usize,
    doff: usize,
    soff: usize,
    woff: usize,
    choice: u32,
    full: u32,
    legal: u32,
    /// The generated functions by id (`gen`), where their fingerprints
    /// match the loaded code.
    pub gen: Vec<Option<GenFn>>,
}

/// The code `ir::rust` generated (an experiment: included by hand).
mod generated {
    use super::abi;
    use super::{Gen, GenFn};
    use crate::engine::state::{State, Value};
    use crate::ir::bytecode::BinaryOp;
    use crate::ir::ruleset::Ruleset;
    include!("native_gen.rs");
}

static IDS: OnceLock<Option<Ids>> = OnceLock::new();

/// The native table: the procedure's ids, when switched on and found.
#[inline(always)]
pub(super) fn table(rules: &Ruleset) -> Option<&'static Ids> {
    IDS.get_or_init(|| find(rules)).as_ref()
}

#[cold]
fn find(rules: &Ruleset) -> Option<Ids> {
    let mode = std::env::var("TABULA_NATIVE").ok()?;
    let func = rules.funcs.iter().position(|f| f.name == "drop")? as u32;
    let var = |n: &str| rules.vars.iter().position(|v| v.name == n);
    let board = rules.kinds.iter().position(|k| k.name == "board")?;
    let g = rules.kinds[board].grid?;
    if (g.width, g.height) != (7, 6) {
        return None;
    }
    let main = rules.funcs.iter().position(|f| f.name == "main")? as u32;
    let code = &rules.funcs[main as usize].code;
    let (&Op::ChooseWait(choice), &Op::RequireLegal(full, legal)) = (&code[12], &code[19]) else {
        return None;
    };
    let (height, disc) = (var("height")?, var("disc")?);
    let ok = |v: usize, n: usize| {
        let vd = &rules.vars[v];
        vd.elem_words == 1 && vd.dims.len() == n && vd.dims.iter().all(|d| d.lo == 0)
    };
    let (discs, winner) = (var("discs")?, var("winner")?);
    if !(ok(height, 1) && ok(disc, 1) && ok(discs, 0) && ok(winner, 0)) {
        return None;
    }
    if rules.vars[disc].dims[0].size != 42 || rules.vars[height].dims[0].size != 7 {
        return None;
    }
    let gen = (0..rules.funcs.len())
        .map(|f| match generated::TABLE.get(f) {
            Some(Some((h, g)))
                if mode == "gen" && *h == crate::ir::rust::fingerprint(&rules.funcs[f]) =>
            {
                Some(*g)
            }
            _ => None,
        })
        .collect();
    Some(Ids {
        gen,
        func: if mode == "gen" { u32::MAX } else { func },
        main: (mode == "all").then_some(main),
        fast: mode != "naive",
        height,
        disc,
        discs,
        winner,
        board,
        hoff: rules.vars[height].offset,
        doff: rules.vars[disc].offset,
        soff: rules.vars[discs].offset,
        woff: rules.vars[winner].offset,
        choice,
        full,
        legal,
    })
}

/// An index out of range, placed at instruction `pc` of the procedure.
#[cold]
fn oob(rules: &Ruleset, ids: &Ids, v: usize, x: i64, pc: usize) -> RuntimeError {
    let name = &rules.vars[v].name;
    RuntimeError::new(
        ErrorKind::OutOfRange,
        Span::default(),
        format!("index {x} out of range for `{name}`"),
    )
    .at(rules.funcs[ids.func as usize].spans[pc])
}

/// The steps from instruction 0 to the first line's test; each line's.
const HEAD_STEPS: u64 = 16;
const FIRST_LINE_STEPS: u64 = 12;
const LINE_STEPS: u64 = 13;
/// The steps the unrolled `any` tests, in its order.
const LINES: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The procedure `drop(p, x)` natively: the same writes (through the
/// undo trail), the same errors at the same spans; returns the steps the
/// interpreter would have counted.
pub(super) fn drop_native(
    rules: &Ruleset,
    st: &mut State,
    ids: &Ids,
    p: i64,
    x: i64,
) -> Result<u64, RuntimeError> {
    let np = st.nplayers;
    let span = |pc: usize| rules.funcs[ids.func as usize].spans[pc];
    // let c = cell(board, x, 5 - height[x]);
    let hv = &rules.vars[ids.height];
    let Some(hk) = slot(&hv.dims[0], x, np) else {
        return Err(oob(rules, ids, ids.height, x, 3));
    };
    let hoff = hv.offset + hk * hv.elem_words;
    let y = 5i64.saturating_sub(st.words[hoff]);
    let g = rules.kinds[ids.board].grid.unwrap_or_default();
    let (w, h) = (g.width as i64, g.height as i64);
    let c = if (0..w).contains(&x) && (0..h).contains(&y) {
        y * w + x
    } else {
        -1
    };
    // disc[c] = p;
    let dv = &rules.vars[ids.disc];
    let Some(dk) = slot(&dv.dims[0], c, np) else {
        return Err(oob(rules, ids, ids.disc, c, 9));
    };
    let doff = dv.offset + dk * dv.elem_words;
    if !st.touch(doff, doff + dv.elem_words) {
        return Err(trail_full(span(9)));
    }
    st.words[doff] = p;
    // height[x] += 1; discs += 1;
    if !st.touch(hoff, hoff + 1) {
        return Err(trail_full(span(12)));
    }
    st.words[hoff] = st.words[hoff].saturating_add(1);
    let soff = rules.vars[ids.discs].offset;
    if !st.touch(soff, soff + 1) {
        return Err(trail_full(span(14)));
    }
    st.words[soff] = st.words[soff].saturating_add(1);
    // let mine = discs_of(p);
    let n = super::vars::slots(&dv.dims[0], np);
    let row = &st.words[dv.offset..dv.offset + n];
    let mut mine = [0u64; 1];
    for (i, v) in row.iter().enumerate() {
        mine[i / 64] |= ((*v == p) as u64) << (i % 64);
    }
    // if any(l in line: line_length(mine, c, l) >= 4) { winner = p; }
    let kind = &rules.kinds[ids.board];
    let mut steps = HEAD_STEPS;
    let mut won = false;
    for (i, (dx, dy)) in LINES.iter().enumerate() {
        steps += if i == 0 { FIRST_LINE_STEPS } else { LINE_STEPS };
        let a = grid::run_length(kind, c, (*dx, *dy), &mine);
        let b = grid::run_length(kind, c, (dx.saturating_neg(), dy.saturating_neg()), &mine);
        if 1i64.saturating_add(a).saturating_add(b) >= 4 {
            won = true;
            break;
        }
    }
    if won {
        let woff = rules.vars[ids.winner].offset;
        if !st.touch(woff, woff + 1) {
            return Err(trail_full(span(83)));
        }
        st.words[woff] = p;
        steps += 2;
    }
    Ok(steps + 1)
}

/// A word written through the undo trail; false when the trail is full.
#[inline(always)]
fn put(st: &mut State, off: usize, v: i64) -> bool {
    if !st.touch(off, off + 1) {
        return false;
    }
    st.words[off] = v;
    true
}

/// `drop(p, x)` as a translator knowing the layout and the grid would
/// emit it: constants for offsets and sizes, the set a word.
pub(super) fn drop_fast(
    rules: &Ruleset,
    st: &mut State,
    ids: &Ids,
    p: i64,
    x: i64,
) -> Result<u64, RuntimeError> {
    let span = |pc: usize| rules.funcs[ids.func as usize].spans[pc];
    if !(0..7).contains(&x) {
        return Err(oob(rules, ids, ids.height, x, 3));
    }
    let hoff = ids.hoff + x as usize;
    let y = 5i64.saturating_sub(st.words[hoff]);
    let c = if (0..6).contains(&y) { y * 7 + x } else { -1 };
    if c < 0 {
        return Err(oob(rules, ids, ids.disc, c, 9));
    }
    if !put(st, ids.doff + c as usize, p) {
        return Err(trail_full(span(9)));
    }
    if !put(st, hoff, st.words[hoff].saturating_add(1)) {
        return Err(trail_full(span(12)));
    }
    if !put(st, ids.soff, st.words[ids.soff].saturating_add(1)) {
        return Err(trail_full(span(14)));
    }
    // `mine` is read only by `run_length`: its members are tested on
    // `disc` where they lie, the set never made.
    let row: &[i64; 42] = st.words[ids.doff..ids.doff + 42].try_into().expect("42");
    let run = |dx: i64, dy: i64| {
        let (mut cx, mut cy, mut n) = (x, y, 0i64);
        loop {
            cx += dx;
            cy += dy;
            if !(0..7).contains(&cx) || !(0..6).contains(&cy) || row[(cy * 7 + cx) as usize] != p {
                return n;
            }
            n += 1;
        }
    };
    let mut steps = HEAD_STEPS;
    let mut won = false;
    for (i, (dx, dy)) in LINES.iter().enumerate() {
        steps += if i == 0 { FIRST_LINE_STEPS } else { LINE_STEPS };
        if 1 + run(*dx, *dy) + run(-dx, -dy) >= 4 {
            won = true;
            break;
        }
    }
    if won {
        if !put(st, ids.woff, p) {
            return Err(trail_full(span(83)));
        }
        steps += 2;
    }
    Ok(steps + 1)
}

/// A local set to an integer (an integer before: nothing dropped).
#[inline(always)]
fn set_int(v: &mut Value, x: i64) {
    match v {
        Value::I(old) => *old = x,
        _ => *v = Value::I(x),
    }
}

/// Where the native game program goes on from.
enum At {
    Top,
    Resume,
    AfterLegal,
}

/// The game program natively, from where its frame stands: its start,
/// after its decision (the option pushed), after its `legal;`. `None`
/// anywhere else: the interpreter runs it. Leaves the frame, its locals
/// and `steps_run` as the interpreter would.
pub(super) fn main_native(
    rules: &Ruleset,
    st: &mut State,
    ids: &Ids,
    main: u32,
) -> Option<Result<Exit, RuntimeError>> {
    if st.vm.frames.len() != 1 {
        return None;
    }
    let f = *st.vm.frames.last()?;
    let base = f.base as usize;
    let h = st.vm.stack.len().checked_sub(base)?;
    let np = st.nplayers as i64;
    let span = |pc: usize| rules.funcs[main as usize].spans[pc];
    let local = |st: &State, k: usize| st.vm.stack[base + k].int();
    let mut steps = 0u64;
    let (mut p, mut arm, mut x) = (local(st, 0), local(st, 1), local(st, 2));
    let mut at = match (f.pc, h) {
        (0, 3) => {
            steps += 3;
            p = if np > 0 { 0 } else { -1 };
            At::Top
        }
        (13, 5) => {
            arm = st.vm.stack.pop().map_or(0, |v| v.int());
            x = st.vm.stack.pop().map_or(0, |v| v.int());
            At::Resume
        }
        (15, 3) => {
            steps = steps.wrapping_sub(1); // No `Store2`: a light prefix.
            At::Resume
        }
        (21, 3) => At::AfterLegal,
        _ => return None,
    };
    // Leaves at `pc` with the locals written back.
    macro_rules! leave {
        ($pc:expr, $exit:expr) => {{
            if let [a, b, c, ..] = &mut st.vm.stack[base..] {
                set_int(a, p);
                set_int(b, arm);
                set_int(c, x);
            }
            if let Some(f) = st.vm.frames.last_mut() {
                f.pc = $pc;
            }
            st.steps_run = steps;
            return Some(Ok($exit));
        }};
    }
    macro_rules! over {
        () => {{
            st.vm.stack.truncate(base);
            st.vm.frames.pop();
            st.status = Status::Over;
            st.steps_run = steps;
            return Some(Ok(Exit::Over));
        }};
    }
    macro_rules! fail {
        ($e:expr) => {
            return Some(Err($e))
        };
    }
    loop {
        match at {
            At::Top => {
                steps += 2;
                if st.words[ids.soff] >= 42 {
                    steps += 1;
                    over!();
                }
                steps += 6;
                begin_options(st);
                if let Err(e) = options_fit(st.vm.option_count(), 7) {
                    fail!(e.at(span(10)));
                }
                st.vm.options.extend((0..7).map(|v| (0u16, v)));
                if p < 0 || p >= np {
                    fail!(unseated(p, span(12)));
                }
                st.status = Status::Waiting {
                    choice: ids.choice,
                    player: p as usize,
                };
                leave!(13, Exit::Decide);
            }
            At::Resume => {
                steps += 3;
                if !(0..7).contains(&x) {
                    fail!(oob(rules, ids, ids.height, x, 0).at(span(16)));
                }
                if st.words[ids.hoff + x as usize] >= 6 {
                    leave!(20, Exit::Failed(ids.full));
                }
                if st.recording && st.cut_at_legal {
                    leave!(21, Exit::Legal(ids.legal));
                }
                at = At::AfterLegal;
            }
            At::AfterLegal => {
                steps += 2;
                if steps > STEP_LIMIT {
                    fail!(runaway(span(23)));
                }
                match drop_fast(rules, st, ids, p, x) {
                    Ok(n) => steps += n,
                    Err(e) => fail!(e),
                }
                steps += 2;
                if st.words[ids.woff] != -1 {
                    steps += 1;
                    over!();
                }
                steps += 3;
                if p < 0 {
                    fail!(RuntimeError::new(
                        ErrorKind::NoneUsed,
                        span(30),
                        "next(none)"
                    ));
                }
                p = (p + 1).rem_euclid(np);
                if steps > STEP_LIMIT {
                    fail!(runaway(span(31)));
                }
                at = At::Top;
            }
        }
    }
}

/// What a generated function returns: its result, and the steps the
/// interpreter would have counted.
pub(super) type Gen = Result<(Option<Value>, u64), RuntimeError>;
/// A generated function.
pub(super) type GenFn = fn(&Ruleset, &mut State, &[Value]) -> Gen;

/// The helpers generated code calls (`ir::rust`).
pub(super) mod abi {
    use super::super::errors::trail_full;
    pub(in super::super) use super::super::errors::{runaway, STEP_LIMIT};
    use super::super::vars::slot;
    use crate::engine::error::{ErrorKind, RuntimeError};
    use crate::engine::state::{State, Value};
    use crate::ir::bits;
    use crate::ir::bytecode::BinaryOp;
    use crate::ir::grid;
    use crate::ir::ruleset::Ruleset;
    use crate::ir::span::Span;

    /// The span of instruction `pc` of function `f`.
    #[cold]
    pub(in super::super) fn span(rules: &Ruleset, f: usize, pc: usize) -> Span {
        rules.funcs[f].spans[pc]
    }

    /// The offset of variable `v`'s element at `idx`.
    #[inline(always)]
    pub(in super::super) fn offset(
        rules: &Ruleset,
        st: &State,
        v: u32,
        idx: &[i64],
    ) -> Result<usize, RuntimeError> {
        let vd = &rules.vars[v as usize];
        let mut flat = 0usize;
        for (d, x) in vd.dims.iter().zip(idx) {
            let Some(k) = slot(d, *x, st.nplayers) else {
                return Err(out_of_range(rules, v, *x));
            };
            flat = flat * d.size + k;
        }
        Ok(vd.offset + flat * vd.elem_words)
    }

    #[cold]
    fn out_of_range(rules: &Ruleset, v: u32, x: i64) -> RuntimeError {
        let name = &rules.vars[v as usize].name;
        RuntimeError::new(
            ErrorKind::OutOfRange,
            Span::default(),
            format!("index {x} out of range for `{name}`"),
        )
    }

    /// The value of variable `v` at `off`.
    #[inline(always)]
    pub(in super::super) fn value(rules: &Ruleset, st: &State, v: u32, off: usize) -> Value {
        super::super::fused::value(rules, st, v, off)
    }

    /// `StoreVar` at `off`, through the trail.
    #[inline(always)]
    pub(in super::super) fn store(
        rules: &Ruleset,
        st: &mut State,
        v: u32,
        off: usize,
        val: Value,
    ) -> Result<(), RuntimeError> {
        let n = rules.vars[v as usize].elem_words;
        if !st.touch(off, off + n) {
            return Err(trail_full(Span::default()));
        }
        match val {
            Value::I(x) => st.words[off] = x,
            Value::S(b) => {
                if b.iter().skip(n).any(|w| *w != 0) {
                    return Err(RuntimeError::new(
                        ErrorKind::OutOfRange,
                        Span::default(),
                        "set too large",
                    ));
                }
                for i in 0..n {
                    st.words[off + i] = b.get(i).copied().unwrap_or(0) as i64;
                }
            }
        }
        Ok(())
    }

    /// `AddVar` at `off`, through the trail.
    #[inline(always)]
    pub(in super::super) fn add(st: &mut State, off: usize, x: i64) -> Result<(), RuntimeError> {
        if !st.touch(off, off + 1) {
            return Err(trail_full(Span::default()));
        }
        st.words[off] = st.words[off].saturating_add(x);
        Ok(())
    }

    /// `Field`.
    #[inline(always)]
    pub(in super::super) fn field(
        rules: &Ruleset,
        k: u16,
        f: u16,
        e: i64,
    ) -> Result<i64, RuntimeError> {
        super::super::rare::field(rules, k, f, e)
    }

    /// `GridCell`.
    #[inline(always)]
    pub(in super::super) fn grid_cell(rules: &Ruleset, k: u16, x: i64, y: i64) -> i64 {
        let g = rules.kinds[k as usize].grid.unwrap_or_default();
        let inside = (0..g.width as i64).contains(&x) && (0..g.height as i64).contains(&y);
        if inside {
            y * g.width as i64 + x
        } else {
            -1
        }
    }

    /// `RunLength`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(in super::super) fn run_length(
        rules: &Ruleset,
        k: u16,
        back: bool,
        c: i64,
        dx: i64,
        dy: i64,
        set: &[u64],
    ) -> i64 {
        let step = match back {
            true => (dx.saturating_neg(), dy.saturating_neg()),
            false => (dx, dy),
        };
        grid::run_length(&rules.kinds[k as usize], c, step, set)
    }

    /// `SelectEq`.
    #[inline(always)]
    pub(in super::super) fn select_eq(rules: &Ruleset, st: &State, v: u32, x: i64) -> Value {
        let words = super::super::sets::row(rules, st, v);
        let mut b = bits::empty(words.len());
        for (w, chunk) in b.iter_mut().zip(words.chunks(64)) {
            *w = chunk
                .iter()
                .enumerate()
                .fold(0, |acc, (i, x2)| acc | (((*x2 == x) as u64) << i));
        }
        Value::S(b)
    }

    /// `CountEq`.
    #[inline(always)]
    pub(in super::super) fn count_eq(rules: &Ruleset, st: &State, v: u32, x: i64) -> i64 {
        let words = super::super::sets::row(rules, st, v);
        words.iter().filter(|w| **w == x).count() as i64
    }

    /// `SetIn`.
    #[inline(always)]
    pub(in super::super) fn has(set: &[u64], e: i64) -> i64 {
        bits::has(set, e) as i64
    }

    /// `Bin` on values.
    #[inline(always)]
    pub(in super::super) fn binary(
        op: BinaryOp,
        a: Value,
        b: Value,
    ) -> Result<Value, RuntimeError> {
        super::super::operators::binary(op, a, b)
    }
}

//! Native code for a ruleset's functions (`ir::rust` translates them to
//! Rust; a crate compiling that output attaches it here). Hidden: the
//! generated code's interface, not an API.
//!
//! A table gives, by function id, the fingerprint of the code an entry
//! was made from and the entry. [`attach`] keeps the entries whose
//! fingerprints match the loaded code (and whose callees' all do), and
//! rewrites each call of such a function to `CallNative`, which runs the
//! entry. A ruleset with nothing attached runs no code of this module.

use std::sync::Arc;

use super::errors::runaway;
use crate::engine::error::RuntimeError;
use crate::engine::state::{State, Value};
use crate::ir::bytecode::{Func, Op};
use crate::ir::ruleset::Ruleset;
use crate::ir::span::Span;
use smallvec::SmallVec;

/// What a native function returns: its result, and the step count after
/// it (it is given the count before).
pub type Gen = Result<(Option<Value>, u64), RuntimeError>;
/// A native function: the ruleset, the state, the arguments, the steps
/// counted so far.
pub type GenFn = fn(&Ruleset, &mut State, &[Value], u64) -> Gen;
/// A table of native functions by function id, each with the fingerprint
/// (`ir::rust::fingerprint`) of the code it was made from.
pub type Table = [Option<(u64, GenFn)>];

/// Attaches the entries of `table` whose fingerprints match `rules` (and
/// whose callees are attached too), rewriting the calls of those
/// functions; returns how many were attached.
pub fn attach(rules: &mut Ruleset, table: &Table) -> usize {
    let n = rules.funcs.len();
    let mut ok: Vec<bool> = (0..n)
        .map(|f| match table.get(f) {
            Some(Some((h, _))) => *h == crate::ir::rust::fingerprint(rules, f),
            _ => false,
        })
        .collect();
    // An entry calls its callees' entries directly: all must match.
    while let Some(f) = (0..n).find(|f| ok[*f] && calls(rules, *f).any(|g| !ok[g])) {
        ok[f] = false;
    }
    let count = ok.iter().filter(|k| **k).count();
    if count == 0 {
        return 0;
    }
    rules.natives = (0..n)
        .map(|f| match (ok[f], table.get(f)) {
            (true, Some(Some((_, g)))) => Some(Arc::new(*g) as crate::ir::ruleset::Native),
            _ => None,
        })
        .collect();
    for func in &mut rules.funcs {
        for op in &mut func.code {
            if let Op::Call(g, argc) = *op {
                if ok[g as usize] {
                    *op = Op::CallNative(g, argc);
                }
            }
        }
    }
    count
}

/// The functions function `f` calls.
fn calls(rules: &Ruleset, f: usize) -> impl Iterator<Item = usize> + '_ {
    rules.funcs[f].code.iter().filter_map(|op| match op {
        Op::Call(g, _) | Op::CallNative(g, _) => Some(*g as usize),
        _ => None,
    })
}

/// Runs `op`, a `CallNative` in the code of `func`, on the released
/// stack: the arguments popped, the entry run (adding to `steps`), its
/// result pushed.
#[inline(never)]
pub(super) fn run(
    rules: &Ruleset,
    st: &mut State,
    op: &Op,
    steps: &mut u64,
    func: &Func,
) -> Result<(), RuntimeError> {
    let Op::CallNative(f, argc) = *op else {
        unreachable!("a native call")
    };
    if *steps > super::STEP_LIMIT {
        return Err(runaway(call_span(func, op)));
    }
    let Some(g) = rules.natives[f as usize]
        .as_ref()
        .and_then(|g| g.downcast_ref::<GenFn>())
    else {
        unreachable!("CallNative of a function with no native code")
    };
    let at = st.vm.stack.len() - argc as usize;
    let args: SmallVec<[Value; 4]> = st.vm.stack.drain(at..).collect();
    let (r, n) = g(rules, st, &args, *steps)?;
    *steps = n;
    st.vm.stack.extend(r);
    Ok(())
}

/// The span of `op`, an instruction of `func`.
#[cold]
fn call_span(func: &Func, op: &Op) -> Span {
    let at = (op as *const Op as usize - func.code.as_ptr() as usize) / std::mem::size_of::<Op>();
    func.spans[at]
}

/// The helpers generated code calls (`ir::rust`).
pub mod abi {
    use super::super::errors::trail_full;
    pub use super::super::STEP_LIMIT;

    /// The error of a run past the step limit.
    #[cold]
    pub fn runaway(span: Span) -> RuntimeError {
        super::super::errors::runaway(span)
    }
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
    pub fn span(rules: &Ruleset, f: usize, pc: usize) -> Span {
        rules.funcs[f].spans[pc]
    }

    /// The offset of variable `v`'s element at `idx`.
    #[inline(always)]
    pub fn offset(rules: &Ruleset, st: &State, v: u32, idx: &[i64]) -> Result<usize, RuntimeError> {
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
    pub fn value(rules: &Ruleset, st: &State, v: u32, off: usize) -> Value {
        super::super::fused::value(rules, st, v, off)
    }

    /// `StoreVar` at `off`, through the trail.
    #[inline(always)]
    pub fn store(
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
    pub fn add(st: &mut State, off: usize, x: i64) -> Result<(), RuntimeError> {
        if !st.touch(off, off + 1) {
            return Err(trail_full(Span::default()));
        }
        st.words[off] = st.words[off].saturating_add(x);
        Ok(())
    }

    /// `Field`.
    #[inline(always)]
    pub fn field(rules: &Ruleset, k: u16, f: u16, e: i64) -> Result<i64, RuntimeError> {
        super::super::rare::field(rules, k, f, e)
    }

    /// `GridCell`.
    #[inline(always)]
    pub fn grid_cell(rules: &Ruleset, k: u16, x: i64, y: i64) -> i64 {
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
    pub fn run_length(
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
    pub fn select_eq(rules: &Ruleset, st: &State, v: u32, x: i64) -> Value {
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
    pub fn count_eq(rules: &Ruleset, st: &State, v: u32, x: i64) -> i64 {
        let words = super::super::sets::row(rules, st, v);
        words.iter().filter(|w| **w == x).count() as i64
    }

    /// `SetIn`.
    #[inline(always)]
    pub fn has(set: &[u64], e: i64) -> i64 {
        bits::has(set, e) as i64
    }

    /// `Bin` on values.
    #[inline(always)]
    pub fn binary(op: BinaryOp, a: Value, b: Value) -> Result<Value, RuntimeError> {
        super::super::operators::binary(op, a, b)
    }
}

//! Binary operators on integers and sets.

use super::err;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::Value;
use crate::ir::bits::Bits;
use crate::ir::bytecode::BinaryOp;
use crate::ir::span::Span;

/// An operation on two integers, when it cannot fail (see
/// [`BinaryOp::on_ints`]).
#[inline(always)]
pub(super) fn int_binary(op: BinaryOp, x: i64, y: i64) -> Option<i64> {
    op.on_ints(x, y)
}

/// The integer in a value (`None` for a set).
#[inline(always)]
pub(super) fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::I(x) => Some(*x),
        Value::S(_) => None,
    }
}

/// A binary operation on any two values (sets, or integers that may
/// fail: division and remainder by zero); an error is placed by the
/// caller. A set result is made in the left operand's words.
#[inline(never)]
pub(super) fn binary(op: BinaryOp, a: Value, b: Value) -> Result<Value, RuntimeError> {
    use BinaryOp::*;
    let (x, y) = match (a, b) {
        (Value::S(x), Value::S(y)) => return sets(op, x, y),
        (a, b) => (a.int(), b.int()),
    };
    if let Some(r) = int_binary(op, x, y) {
        return Ok(Value::I(r));
    }
    let r = match op {
        Div => {
            if y == 0 {
                return Err(err(
                    ErrorKind::DivisionByZero,
                    Span::default(),
                    "division by zero",
                ));
            }
            floor_div(x, y)
        }
        Rem => {
            if y == 0 {
                return Err(err(
                    ErrorKind::DivisionByZero,
                    Span::default(),
                    "remainder by zero",
                ));
            }
            // Never negative, whatever the signs (`7 % -2` is 1); the one
            // overflow, `i64::MIN % -1`, is 0 (every integer is a multiple
            // of -1).
            x.checked_rem_euclid(y).unwrap_or(0)
        }
        // `in` with an integer on the right (int_binary did the rest).
        _ => 0,
    };
    Ok(Value::I(r))
}

/// A binary operation on two sets; a set result is `x` changed in place,
/// as long as the longer of the two.
#[inline]
fn sets(op: BinaryOp, mut x: Bits, mut y: Bits) -> Result<Value, RuntimeError> {
    use BinaryOp::*;
    let n = x.len().max(y.len());
    let get = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    match op {
        Eq => return Ok(Value::I((0..n).all(|i| get(&x, i) == get(&y, i)) as i64)),
        Ne => return Ok(Value::I((0..n).any(|i| get(&x, i) != get(&y, i)) as i64)),
        Add | Sub | And => {}
        _ => {
            return Err(err(
                ErrorKind::Internal,
                Span::default(),
                "unsupported operation on sets",
            ))
        }
    }
    // Not written in the rules: the compiler's intersection (`_`).
    let word = |a: u64, b: u64| match op {
        Add => a | b,
        Sub => a & !b,
        _ => a & b,
    };
    if !x.is_alone() {
        // The left operand's block is shared: the result goes in the right
        // one's when it is held alone and long enough, otherwise in a new
        // set made at once (rather than a copy of the left, then written).
        if y.is_alone() && y.len() == n {
            y.iter_mut()
                .enumerate()
                .for_each(|(i, w)| *w = word(get(&x, i), *w));
            return Ok(Value::S(y));
        }
        return Ok(Value::S(Bits::from_fn(n, |i| word(get(&x, i), get(&y, i)))));
    }
    if x.len() < n {
        x.resize(n, 0);
    }
    let words = x.iter_mut().enumerate();
    match op {
        Add => words.for_each(|(i, w)| *w |= get(&y, i)),
        Sub => words.for_each(|(i, w)| *w &= !get(&y, i)),
        _ => words.for_each(|(i, w)| *w &= get(&y, i)),
    }
    Ok(Value::S(x))
}

/// `x op y` for two sets, `op` being `+`, `-` or the intersection,
/// written into `x` (in place when it holds its block alone), as long as
/// the longer of the two, as [`binary`] makes it; false, nothing done,
/// for another operation or an integer `x`.
#[inline(never)]
pub(super) fn set_op_into(op: BinaryOp, x: &mut Value, y: &[u64]) -> bool {
    use BinaryOp::*;
    let (Value::S(a), Add | Sub | And) = (x, op) else {
        return false;
    };
    let get = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    let word = |a: u64, b: u64| match op {
        Add => a | b,
        Sub => a & !b,
        _ => a & b,
    };
    let n = a.len().max(y.len());
    if !a.is_alone() {
        *a = Bits::from_fn(n, |i| word(get(a, i), get(y, i)));
        return true;
    }
    if a.len() < n {
        a.resize(n, 0);
    }
    let words = a.iter_mut().enumerate();
    match op {
        Add => words.for_each(|(i, w)| *w |= get(y, i)),
        Sub => words.for_each(|(i, w)| *w &= !get(y, i)),
        _ => words.for_each(|(i, w)| *w &= get(y, i)),
    }
    true
}

/// Integer division rounding down (toward negative infinity), saturating.
#[inline]
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

//! Binary operators on integers and sets.

use super::err;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::Value;
use crate::ir::bits;
use crate::ir::bytecode::BinaryOp;
use crate::ir::span::Span;

/// An operation on two integers, when it cannot fail.
#[inline]
pub(super) fn int_binary(op: BinaryOp, x: i64, y: i64) -> Option<i64> {
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

/// A binary operation on any two values (sets, or integers that may
/// fail: division and remainder by zero).
#[inline]
pub(super) fn binary(op: BinaryOp, a: Value, b: Value, span: Span) -> Result<Value, RuntimeError> {
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

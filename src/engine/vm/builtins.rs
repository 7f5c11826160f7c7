//! Builtin functions, and the value read at a missing key of a table.

use rand_core::RngCore;
use rand_pcg::Pcg64;

use super::err;
use super::sets::set_elems;
use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::Value;
use crate::ir::bits::{self, Bits};
use crate::ir::bytecode::Builtin;
use crate::ir::ruleset::Ty;
use crate::ir::span::Span;

/// Runs a builtin on its arguments (the top of the stack, left in place
/// to be dropped; a set argument may be taken out of them, to be changed
/// in place when it holds its block alone).
#[inline]
pub(super) fn builtin(
    b: Builtin,
    args: &mut [Value],
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
            let x = i(1);
            // The set moved out: written in place when held alone (a
            // shared one is copied first, by the write).
            let mut bits = match std::mem::replace(&mut args[0], Value::I(0)) {
                Value::S(bits) => bits,
                Value::I(_) => Bits::new(),
            };
            bits::set(&mut bits, x, b == Builtin::With);
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

/// The value read at a missing key of a table of this type: `none` for
/// items and procedures, 0 otherwise.
#[inline]
pub(super) fn missing(ty: &Ty) -> i64 {
    match ty {
        Ty::Array(inner) | Ty::Map(_, inner) => match **inner {
            Ty::Ent(_) | Ty::Proc => -1,
            _ => 0,
        },
        _ => 0,
    }
}

//! The interpreter's errors: how one is made, and the limits a run or a
//! decision may reach (steps, options, the trail of a try).

use crate::engine::error::{ErrorKind, RuntimeError};
use crate::engine::state::MAX_TRAIL;
use crate::ir::bits;
use crate::ir::span::Span;

/// Instructions one run may execute before it is declared runaway.
pub const STEP_LIMIT: u64 = 50_000_000;

/// The most options one decision may offer: collecting more is an error
/// in the rules, reported at the arm that offers them (each option is
/// kept, named and tried while the options are listed). One figure with
/// the loader, which refuses a range written out past it.
pub use crate::ir::ruleset::MAX_OPTIONS;

/// A runtime error (kept out of line: errors are rare).
#[cold]
pub(super) fn err(kind: ErrorKind, span: Span, msg: impl Into<String>) -> RuntimeError {
    RuntimeError::new(kind, span, msg)
}

/// Whether `more` options can join the `have` ones of a decision (see
/// [`MAX_OPTIONS`]); the error is placed by the caller.
#[inline]
pub(super) fn options_fit(have: usize, more: u64) -> Result<(), RuntimeError> {
    if more > (MAX_OPTIONS - have.min(MAX_OPTIONS)) as u64 {
        return Err(too_many_options(more.saturating_add(have as u64)));
    }
    Ok(())
}

/// Whether the members of a set can join the `have` options of a
/// decision: counted only when the set's words could hold too many.
#[inline]
pub(super) fn set_options_fit(have: usize, set: &[u64]) -> Result<(), RuntimeError> {
    if have + set.len() * 64 <= MAX_OPTIONS {
        return Ok(());
    }
    options_fit(have, bits::count(set) as u64)
}

/// The error of a decision offered at least `total` options, more than
/// [`MAX_OPTIONS`].
#[cold]
pub(super) fn too_many_options(total: u64) -> RuntimeError {
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
pub(super) fn runaway(span: Span) -> RuntimeError {
    err(
        ErrorKind::LimitReached,
        span,
        "the rules ran 50 million steps without a decision: an endless loop?",
    )
}

/// The error of a try that wrote more words than its trail may keep.
#[cold]
pub(super) fn trail_full(span: Span) -> RuntimeError {
    err(
        ErrorKind::LimitReached,
        span,
        format!(
            "an option being tried wrote more than {MAX_TRAIL} words of the state (each kept \
             to be undone): an endless loop that writes?"
        ),
    )
}

/// The error of a dynamic call of no procedure.
#[cold]
pub(super) fn call_of_none(span: Span) -> RuntimeError {
    err(
        ErrorKind::NoneUsed,
        span,
        "call of `none`: no procedure here",
    )
}

/// The error of a decision asked of player `p`, who is not seated.
#[cold]
pub(super) fn unseated(p: i64, span: Span) -> RuntimeError {
    err(
        ErrorKind::OutOfRange,
        span,
        format!("decision asked of a player who is not seated ({p})"),
    )
}

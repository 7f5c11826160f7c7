//! The static types of the rules language's values.

use crate::ir::bytecode::KindId;

/// The static type of a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// An integer.
    Int,
    /// A boolean.
    Bool,
    /// Display text (data only).
    Text,
    /// A reference to a procedure taking one player (data only).
    Proc,
    /// An item of a kind (or `none`).
    Ent(KindId),
    /// A set of items of a kind.
    Set(KindId),
    /// An ordered list of distinct items of a kind (state only).
    List(KindId),
    /// A fixed array (data only, indexed by integers).
    Array(Box<Ty>),
    /// A table (data only) keyed by a kind or by integers.
    Map(Box<Ty>, Box<Ty>),
    /// The type of `none` before it meets a kind.
    NoneTy,
    /// No value.
    Void,
    /// A mistake already reported.
    Error,
}

impl Ty {
    /// Whether a value of type `other` may be used where `self` is expected.
    pub fn accepts(&self, other: &Ty) -> bool {
        match (self, other) {
            (Ty::Error, _) | (_, Ty::Error) => true,
            (Ty::Ent(_), Ty::NoneTy) | (Ty::Proc, Ty::NoneTy) => true,
            (a, b) => a == b,
        }
    }
}

/// The kind whose items are the seated players.
pub const PLAYER: KindId = 0;

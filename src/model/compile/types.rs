//! Types: resolving a written type, naming a type in messages, and the
//! small rules the checker shares (scalars, unifying two branches).

use crate::ir::bytecode::KindId;
use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic, Diagnostics};
use crate::ir::ruleset::{DimDef, Kind, Ty};
use crate::ir::symbols::{Global, Symbols};
use crate::lang::ast::{BinOp, Ident, TypeExpr};

use super::ANY_KIND;

/// Human name of a type, for messages.
pub fn ty_name(kinds: &[Kind], t: &Ty) -> String {
    let k = |k: &KindId| {
        if *k == ANY_KIND {
            "?".to_string()
        } else {
            kinds[*k as usize].name.clone()
        }
    };
    match t {
        Ty::Int => "int".into(),
        Ty::Bool => "bool".into(),
        Ty::Text => "text".into(),
        Ty::Proc => "proc".into(),
        Ty::Ent(x) => k(x),
        Ty::Set(x) => format!("set<{}>", k(x)),
        Ty::List(x) => format!("list<{}>", k(x)),
        Ty::Array(t) => format!("[{}]", ty_name(kinds, t)),
        Ty::Map(a, b) => format!("{{{}: {}}}", ty_name(kinds, a), ty_name(kinds, b)),
        Ty::NoneTy => "none".into(),
        Ty::Void => "nothing".into(),
        Ty::Error => "?".into(),
    }
}

/// Resolves a written type.
pub fn resolve_type(
    diags: &mut Diagnostics,
    symbols: &Symbols,
    kinds: &[Kind],
    t: &TypeExpr,
) -> Ty {
    match t {
        TypeExpr::Name(id) => named_type(diags, symbols, kinds, id),
        TypeExpr::Set(id, _) => kind_named(diags, symbols, kinds, id).map_or(Ty::Error, Ty::Set),
        TypeExpr::List(id, _) => kind_named(diags, symbols, kinds, id).map_or(Ty::Error, Ty::List),
        TypeExpr::Array(e, _) => Ty::Array(Box::new(resolve_type(diags, symbols, kinds, e))),
        TypeExpr::Map(k, v, _) => Ty::Map(
            Box::new(resolve_type(diags, symbols, kinds, k)),
            Box::new(resolve_type(diags, symbols, kinds, v)),
        ),
    }
}

/// A type written as one name: a keyword or a kind.
fn named_type(diags: &mut Diagnostics, symbols: &Symbols, kinds: &[Kind], id: &Ident) -> Ty {
    match id.name.as_str() {
        "int" => Ty::Int,
        "bool" => Ty::Bool,
        "text" => Ty::Text,
        "proc" => Ty::Proc,
        _ => {
            if let Some(Global::Kind(k)) = symbols.get(&id.name) {
                return Ty::Ent(*k);
            }
            let names = kinds
                .iter()
                .map(|k| k.name.as_str())
                .chain(["int", "bool", "text", "proc"]);
            diags.push(
                Diagnostic::new(Code::UnknownType, id.span, format!("unknown type `{}`", id.name))
                    .label("not a type")
                    .help(did_you_mean(&id.name, names).unwrap_or_else(|| {
                        "a type is int, bool, text, proc, a kind, set<kind>, list<kind>, [T] or {K: T}".into()
                    })),
            );
            Ty::Error
        }
    }
}

/// The kind a name in `set<...>` or `list<...>` denotes.
fn kind_named(
    diags: &mut Diagnostics,
    symbols: &Symbols,
    kinds: &[Kind],
    id: &Ident,
) -> Option<KindId> {
    match symbols.get(&id.name) {
        Some(Global::Kind(k)) => Some(*k),
        _ => {
            let names = kinds.iter().map(|k| k.name.as_str());
            let mut d = Diagnostic::new(
                Code::UnknownKind,
                id.span,
                format!("unknown kind `{}`", id.name),
            )
            .label("not a kind");
            d =
                d.help(did_you_mean(&id.name, names).unwrap_or_else(|| {
                    "kinds are declared under `kinds:` in a YAML data file".into()
                }));
            diags.push(d);
            None
        }
    }
}

/// Whether a value of this type fits in one word (tables and sets do not).
pub(super) fn is_scalar(t: &Ty) -> bool {
    matches!(
        t,
        Ty::Int | Ty::Bool | Ty::Ent(_) | Ty::Proc | Ty::NoneTy | Ty::Error | Ty::Text
    )
}

/// The type two values of these types share (the branches of `if`, the
/// sides of `==`), if any.
pub(super) fn unify(a: &Ty, b: &Ty) -> Option<Ty> {
    match (a, b) {
        (Ty::Error, t) | (t, Ty::Error) => Some(t.clone()),
        (Ty::NoneTy, Ty::Ent(k)) | (Ty::Ent(k), Ty::NoneTy) => Some(Ty::Ent(*k)),
        (Ty::NoneTy, Ty::Proc) | (Ty::Proc, Ty::NoneTy) => Some(Ty::Proc),
        (Ty::Set(ANY_KIND), Ty::Set(k)) | (Ty::Set(k), Ty::Set(ANY_KIND)) => Some(Ty::Set(*k)),
        (a, b) if a == b => Some(a.clone()),
        _ => None,
    }
}

/// An arithmetic operator as written, for messages.
pub(super) fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        _ => "operator",
    }
}

/// The indices a variable takes, as a hint: `[player, resource]`.
pub(super) fn index_hint(kinds: &[Kind], dims: &[DimDef]) -> String {
    let parts: Vec<String> = dims
        .iter()
        .map(|d| match d.kind {
            Some(k) => kinds[k as usize].name.clone(),
            None => format!("{}..{}", d.lo, d.lo + d.size as i64),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

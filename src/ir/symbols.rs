//! The global names of a ruleset: kinds, items, parameters, state
//! variables, functions and procedures, all in one namespace.

use std::collections::HashMap;

use crate::ir::bytecode::{FuncId, KindId, VarId};
use crate::ir::span::Span;
use crate::ir::types::Ty;

/// What a global name denotes.
#[derive(Debug, Clone)]
pub enum Global {
    /// A kind: as a value, the set of its items.
    Kind(KindId),
    /// An item of a kind.
    Item(KindId, i64),
    /// The same id names items of several kinds: qualify it (`kind.item`).
    Ambiguous(Vec<KindId>),
    /// A parameter.
    Param(u32),
    /// A state variable.
    Var(VarId),
    /// A function or procedure.
    Func(FuncId),
}

/// The signature of a function or procedure.
#[derive(Debug, Clone)]
pub struct Sig {
    /// Parameter names and types.
    pub params: Vec<(String, Ty)>,
    /// Result type (`Void` for none).
    pub ret: Ty,
    /// Whether it is a procedure.
    pub is_proc: bool,
}

/// The words of the language that may not name a global: the type
/// keywords and `main` (the game program). The builtins' names are
/// reserved too; they are listed with the builtins, in the model.
pub const RESERVED: &[&str] = &["int", "bool", "text", "proc", "set", "list", "main"];

/// The global symbol table.
#[derive(Debug, Default, Clone)]
pub struct Symbols {
    map: HashMap<String, (Global, Span)>,
}

impl Symbols {
    /// Looks a name up.
    pub fn get(&self, name: &str) -> Option<&Global> {
        self.map.get(name).map(|(g, _)| g)
    }

    /// Where a name was defined.
    pub fn span_of(&self, name: &str) -> Option<Span> {
        self.map.get(name).map(|(_, s)| *s)
    }

    /// Defines a name; returns the span of an earlier definition on conflict.
    pub fn define(&mut self, name: &str, g: Global, span: Span) -> Result<(), Span> {
        if let Some((old, old_span)) = self.map.get_mut(name) {
            if let (Global::Item(k1, _), Global::Item(k2, _)) = (&*old, &g) {
                if k1 != k2 {
                    *old = Global::Ambiguous(vec![*k1, *k2]);
                    return Ok(());
                }
            }
            if let (Global::Ambiguous(ks), Global::Item(k2, _)) = (&mut *old, &g) {
                if !ks.contains(k2) {
                    ks.push(*k2);
                    return Ok(());
                }
            }
            return Err(*old_span);
        }
        self.map.insert(name.to_string(), (g, span));
        Ok(())
    }

    /// Replaces a definition (variants).
    pub fn redefine(&mut self, name: &str, g: Global, span: Span) {
        self.map.insert(name.to_string(), (g, span));
    }

    /// Forgets a name (scenarios renaming seats).
    pub fn remove(&mut self, name: &str) {
        self.map.remove(name);
    }

    /// Every defined name, for "did you mean" help.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(|s| s.as_str())
    }
}

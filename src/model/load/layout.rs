//! The state's layout: every state variable (a variant's replacing the
//! base's of its name) gets its type, its dimensions and its offset in the
//! flat array of words that holds a game's state.

use std::collections::HashMap;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic};
use crate::ir::ruleset::{DimDef, Ty, VarDef, PLAYER};
use crate::ir::symbols::Global;
use crate::lang::ast;
use crate::model::compile::{resolve_type, ANY_KIND};

use super::builder::Builder;
use super::files::RulesFile;

impl Builder {
    /// Lays out the state variables of every rules file, in order.
    pub(super) fn layout_vars(&mut self, rules: &[RulesFile]) {
        let mut offset = 0;
        for d in var_decls(rules) {
            offset = self.lay_out_var(d, offset);
        }
    }

    /// Lays out one variable at `offset`; returns the offset after it.
    fn lay_out_var(&mut self, d: &ast::VarDecl, offset: usize) -> usize {
        let ty = resolve_type(&mut self.diags, &self.symbols, &self.kinds, &d.ty);
        if matches!(ty, Ty::Array(_) | Ty::Map(..) | Ty::Text) {
            self.diags.push(
                Diagnostic::new(
                    Code::UnsupportedType,
                    d.ty.span(),
                    "state variables hold int, bool, items, proc, sets or lists",
                )
                .help("use dimensions (`var x[kind]: int`) instead of tables"),
            );
        }
        let mut dims = Vec::new();
        for dim in &d.dims {
            if let Some(def) = self.dim(dim) {
                dims.push(def);
            }
        }
        let elem_words = match &ty {
            Ty::Set(k) => self.kinds[*k as usize].items.len().div_ceil(64).max(1),
            Ty::List(k) => 1 + self.kinds[*k as usize].items.len(),
            _ => 1,
        };
        if d.visibility == ast::Visibility::Private
            && dims.first().and_then(|x| x.kind) != Some(PLAYER)
        {
            self.diags.push(
                Diagnostic::new(
                    Code::BadPrivate,
                    d.name.span,
                    "a private variable's first index must be `player`",
                )
                .help("write `private var x[player, ...]: ...`, or use `hidden`"),
            );
        }
        let len: usize = dims.iter().map(|x| x.size).product();
        self.vars.push(VarDef {
            name: d.name.name.clone(),
            dims,
            ty,
            visibility: d.visibility,
            offset,
            elem_words,
            init: None,
            span: d.span,
        });
        // Keep the symbol pointing at the (possibly replaced) variable.
        let vid = (self.vars.len() - 1) as u32;
        self.symbols
            .redefine(&d.name.name, Global::Var(vid), d.name.span);
        offset + len * elem_words
    }

    /// A dimension: a kind (its items) or a range `lo..hi`. `None` for a
    /// bad range (reported); an unknown kind (reported) is kept as a
    /// dimension of one, so that uses of the variable are not reported too.
    fn dim(&mut self, dim: &ast::Dim) -> Option<DimDef> {
        match dim {
            ast::Dim::Kind(id) => match self.symbols.get(&id.name) {
                Some(Global::Kind(k)) => Some(DimDef {
                    kind: Some(*k),
                    lo: 0,
                    size: self.kinds[*k as usize].items.len(),
                }),
                _ => {
                    let help = did_you_mean(&id.name, self.kinds.iter().map(|k| k.name.as_str()))
                        .unwrap_or_else(|| "a dimension is a kind or a range `lo..hi`".into());
                    self.diags.push(
                        Diagnostic::new(
                            Code::UnknownKind,
                            id.span,
                            format!("unknown kind `{}`", id.name),
                        )
                        .label("not a kind")
                        .help(help),
                    );
                    Some(DimDef {
                        kind: Some(ANY_KIND),
                        lo: 0,
                        size: 1,
                    })
                }
            },
            ast::Dim::Range(lo, hi, span) => {
                if hi <= lo || hi - lo > 100_000 {
                    self.diags.push(
                        Diagnostic::new(
                            Code::BadRange,
                            *span,
                            format!("empty or huge range {lo}..{hi}"),
                        )
                        .help("write lo..hi with lo < hi"),
                    );
                    None
                } else {
                    Some(DimDef {
                        kind: None,
                        lo: *lo,
                        size: (hi - lo) as usize,
                    })
                }
            }
        }
    }
}

/// The variable declarations in layout order: each name once, where it
/// was first declared, with a variant's declaration in place of the base's.
fn var_decls(rules: &[RulesFile]) -> Vec<&ast::VarDecl> {
    let mut decls: Vec<&ast::VarDecl> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for rf in rules {
        for item in &rf.ast.items {
            let ast::Item::Var(v) = item else {
                continue;
            };
            match at.get(v.name.name.as_str()) {
                Some(&pos) if rf.is_variant => decls[pos] = v,
                Some(_) => {} // reported as a duplicate already
                None => {
                    at.insert(&v.name.name, decls.len());
                    decls.push(v);
                }
            }
        }
    }
    decls
}

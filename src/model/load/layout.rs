//! The state's layout: every state variable (a variant's replacing the
//! base's of its name) gets its type, its dimensions and its offset in the
//! flat array of words that holds a game's state.

use std::collections::HashMap;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, thousands, Diagnostic};
use crate::ir::ruleset::{DimDef, Ty, VarDef, PLAYER};
use crate::ir::symbols::Global;
use crate::lang::ast;
use crate::model::compile::{resolve_type, ANY_KIND};
use crate::model::limits::MAX_STATE_WORDS;

use super::builder::Builder;
use super::files::RulesFile;

impl Builder {
    /// Lays out the state variables of every rules file, in order.
    pub(super) fn layout_vars(&mut self, rules: &[RulesFile]) {
        let mut offset = 0;
        let mut reported = false;
        for d in var_decls(rules) {
            offset = self.lay_out_var(d, offset, &mut reported);
        }
    }

    /// Lays out one variable at `offset`; returns the offset after it. A
    /// variable that would take the state past [`MAX_STATE_WORDS`] is
    /// reported (the first one only: `reported`) and kept with one entry
    /// per dimension, taking no room.
    fn lay_out_var(&mut self, d: &ast::VarDecl, offset: usize, reported: &mut bool) -> usize {
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
        let end = match state_end(offset, elem_words, &dims) {
            Ok(end) => end,
            Err(size) => {
                if !*reported {
                    *reported = true;
                    self.diags.push(state_too_large(d, offset, size));
                }
                // Keep the variable, one entry per dimension, so that its
                // uses are checked.
                for x in &mut dims {
                    x.size = 1;
                }
                offset
            }
        };
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
        end
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
                let size = hi.checked_sub(*lo).filter(|&n| n > 0 && n <= 100_000);
                if size.is_none() {
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
                        size: size.unwrap_or(1) as usize,
                    })
                }
            }
        }
    }
}

/// Where a variable of `elem_words` words per entry and dimensions `dims`
/// laid out at `offset` ends, or, past [`MAX_STATE_WORDS`], its own size
/// in words (`None` beyond `u128`).
fn state_end(offset: usize, elem_words: usize, dims: &[DimDef]) -> Result<usize, Option<u128>> {
    let size = dims
        .iter()
        .try_fold(elem_words as u128, |n, x| n.checked_mul(x.size as u128));
    match size {
        Some(n) if offset as u128 + n <= MAX_STATE_WORDS as u128 => Ok(offset + n as usize),
        _ => Err(size),
    }
}

/// The report of a variable taking the state past [`MAX_STATE_WORDS`]:
/// alone (`size` words), or after `offset` words of the variables before.
fn state_too_large(d: &ast::VarDecl, offset: usize, size: Option<u128>) -> Diagnostic {
    let max = thousands(MAX_STATE_WORDS);
    let name = &d.name.name;
    let message = match size {
        Some(n) if n <= MAX_STATE_WORDS as u128 => format!(
            "the state passes {max} words with `{name}`: {} words after the {} of the \
             variables before it",
            thousands(n),
            thousands(offset)
        ),
        Some(n) => format!(
            "`{name}` takes {} words of state, more than {max}",
            thousands(n)
        ),
        None => format!(
            "`{name}` takes more than {} words of state",
            thousands(u128::MAX)
        ),
    };
    Diagnostic::new(Code::TooLarge, d.name.span, message)
        .label("too large")
        .help(format!(
            "a game's state holds at most {max} words (docs/LANGUAGE.md, Limits): each entry \
             of a variable takes one, a set of N items N / 64, a list N + 1; use smaller \
             dimensions"
        ))
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

//! What the loader builds up, phase by phase (kinds, parameters,
//! signatures, state variables), and how a name gets defined.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::{Kind, ParamDef, VarDef};
use crate::ir::span::{SourceFile, Span};
use crate::ir::symbols::{Global, Sig, Symbols};
use crate::lang::ast;
use crate::model::compile::check_reserved;
use crate::model::limits::MAX_DATA_WORDS;

/// The ruleset under construction.
pub(super) struct Builder {
    /// Mistakes found so far, with the source map.
    pub diags: Diagnostics,
    /// Every global name.
    pub symbols: Symbols,
    /// Kinds (index 0: players).
    pub kinds: Vec<Kind>,
    /// The index of each item id, by kind.
    pub item_ids: Vec<HashMap<String, i64>>,
    /// Values of item and parameter data read so far (bounded by
    /// [`MAX_DATA_WORDS`]).
    pub data_words: usize,
    /// Parameters.
    pub params: Vec<ParamDef>,
    /// State variables, laid out.
    pub vars: Vec<VarDef>,
    /// Signatures, by function id.
    pub sigs: Vec<Sig>,
    /// Where each function's body is, by function id.
    pub bodies: Vec<Body>,
}

/// Where a function's body is: (rules file, item) indices.
#[derive(Clone, Copy)]
pub(super) enum Body {
    /// A pure function.
    Fn(usize, usize),
    /// A procedure.
    Proc(usize, usize),
}

impl Body {
    /// The (rules file, item) indices of the body.
    pub fn place(self) -> (usize, usize) {
        match self {
            Body::Fn(file, item) | Body::Proc(file, item) => (file, item),
        }
    }
}

impl Builder {
    /// An empty ruleset, reporting into `diags`.
    pub fn new(diags: Diagnostics) -> Builder {
        Builder {
            diags,
            symbols: Symbols::default(),
            kinds: Vec::new(),
            item_ids: Vec::new(),
            data_words: 0,
            params: Vec::new(),
            vars: Vec::new(),
            sigs: Vec::new(),
            bodies: Vec::new(),
        }
    }

    /// Defines a global name (checking it is not reserved). Reports a
    /// name defined twice and returns false.
    pub fn define(&mut self, name: &ast::Ident, g: Global) -> bool {
        check_reserved(&mut self.diags, name);
        if let Err(first) = self.symbols.define(&name.name, g, name.span) {
            self.diags.push(
                Diagnostic::new(Code::DuplicateName, name.span, format!("`{}` is defined twice", name.name))
                    .label("defined again here")
                    .note(first, "first defined here")
                    .help("every kind, item, parameter, variable, function and procedure needs its own name"),
            );
            return false;
        }
        true
    }

    /// Counts `words` more values of data, read at `span`: false (and
    /// reported, once) when the data would pass [`MAX_DATA_WORDS`].
    pub fn spend(&mut self, words: usize, span: Span) -> bool {
        let before = self.data_words;
        self.data_words = before.saturating_add(words);
        if self.data_words <= MAX_DATA_WORDS {
            return true;
        }
        if before <= MAX_DATA_WORDS {
            self.diags.push(
                Diagnostic::new(
                    Code::TooLarge,
                    span,
                    format!("the items' and parameters' data pass {MAX_DATA_WORDS} values here"),
                )
                .help(format!(
                    "the data of a ruleset (fields, parameters, tables keyed by a kind: one \
                     value per item) holds at most {MAX_DATA_WORDS} values (docs/LANGUAGE.md, Limits)"
                )),
            );
        }
        false
    }

    /// A loaded file (shared: it may be read while diagnostics are added).
    pub fn source(&self, file: u32) -> Arc<SourceFile> {
        self.diags.sources.shared(file)
    }
}

//! Declaring the rules' items: every `var`, `fn` and `proc` gets its name
//! (and a function its signature) before any body is compiled, so that
//! bodies may use names declared later. A variant's item of an existing
//! name replaces it.

use crate::ir::bytecode::FuncId;
use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::Ty;
use crate::ir::symbols::{Global, Sig};
use crate::lang::ast;
use crate::model::compile::resolve_type;
use crate::model::limits::MAX_PARAMS;

use super::builder::{Body, Builder};
use super::files::RulesFile;

impl Builder {
    /// Declares the variables, functions and procedures of every rules file.
    pub(super) fn declare_rules(&mut self, rules: &[RulesFile]) {
        let mut var_count = 0u32;
        for (fi, rf) in rules.iter().enumerate() {
            for (ii, item) in rf.ast.items.iter().enumerate() {
                match item {
                    ast::Item::Var(v) => {
                        if rf.is_variant {
                            if let Some(Global::Var(_)) = self.symbols.get(&v.name.name) {
                                continue; // replaced in layout_vars
                            }
                        }
                        if self.define(&v.name, Global::Var(var_count)) {
                            var_count += 1;
                        }
                    }
                    ast::Item::Fn(d) => self.declare_func(
                        &d.name,
                        &d.params,
                        Some(&d.ret),
                        false,
                        Body::Fn(fi, ii),
                        rf.is_variant,
                    ),
                    ast::Item::Proc(d) => self.declare_func(
                        &d.name,
                        &d.params,
                        d.ret.as_ref(),
                        true,
                        Body::Proc(fi, ii),
                        rf.is_variant,
                    ),
                    ast::Item::Score(_) | ast::Item::Metric(_) | ast::Item::Ending(_) => {}
                }
            }
        }
    }

    /// Declares a function or procedure with its signature.
    fn declare_func(
        &mut self,
        name: &ast::Ident,
        params: &[ast::Param],
        ret: Option<&ast::TypeExpr>,
        is_proc: bool,
        body: Body,
        is_variant: bool,
    ) {
        let ps: Vec<(String, Ty)> = params
            .iter()
            .map(|p| {
                (
                    p.name.name.clone(),
                    resolve_type(&mut self.diags, &self.symbols, &self.kinds, &p.ty),
                )
            })
            .collect();
        if let Some(p) = params.get(MAX_PARAMS) {
            self.diags.push(
                Diagnostic::new(
                    Code::TooLarge,
                    p.name.span,
                    format!("`{}` has more than {MAX_PARAMS} parameters", name.name),
                )
                .label("one too many")
                .help(format!(
                    "a function or procedure takes at most {MAX_PARAMS} parameters \
                     (docs/LANGUAGE.md, Limits): pass a table or an item instead"
                )),
            );
        }
        let checked = &params[..params.len().min(MAX_PARAMS)];
        for (i, p) in checked.iter().enumerate() {
            if checked[..i].iter().any(|q| q.name.name == p.name.name) {
                self.diags.push(
                    Diagnostic::new(
                        Code::DuplicateName,
                        p.name.span,
                        format!("parameter `{}` appears twice", p.name.name),
                    )
                    .help("rename one of them"),
                );
            }
        }
        let ret = ret.map_or(Ty::Void, |t| {
            resolve_type(&mut self.diags, &self.symbols, &self.kinds, t)
        });
        let sig = Sig {
            params: ps,
            ret,
            is_proc,
        };
        if is_variant {
            if let Some(Global::Func(old)) = self.symbols.get(&name.name).cloned() {
                self.sigs[old as usize] = sig;
                self.bodies[old as usize] = body;
                return;
            }
        }
        let fid = self.sigs.len() as FuncId;
        if self.define(name, Global::Func(fid)) {
            self.sigs.push(sig);
            self.bodies.push(body);
        }
    }
}

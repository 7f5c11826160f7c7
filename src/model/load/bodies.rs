//! Compiling every body: each function and procedure, each state
//! variable's initialiser and each key of the score, with the decision
//! points and failure messages the compiler finds on the way.

use std::collections::HashMap;

use crate::ir::bytecode::{Func, FuncId};
use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::{ChoiceDef, EndingDef, MetricDef, Ty, VarDef, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::Sig;
use crate::lang::ast;
use crate::model::compile::{Compiler, FnCtx};

use super::builder::{Body, Builder};
use super::files::{GameSource, RulesFile};

/// Every body, compiled.
pub(super) struct Compiled {
    /// The declared functions and procedures, by function id (`None` for
    /// one whose body could not be found).
    pub funcs: Vec<Option<Func>>,
    /// The initialisers and score keys, numbered after the declared ones.
    pub extra: Vec<Func>,
    /// Which variable each initialiser sets: (variable, function).
    pub var_inits: Vec<(usize, FuncId)>,
    /// The score's keys, most significant first.
    pub score: Vec<FuncId>,
    /// The metrics, in declaration order.
    pub metrics: Vec<MetricDef>,
    /// The named endings, in declaration order.
    pub endings: Vec<EndingDef>,
    /// Decision points.
    pub choices: Vec<ChoiceDef>,
    /// Failure messages.
    pub messages: Vec<(String, Span)>,
}

impl Builder {
    /// Compiles every body of the rules files.
    pub(super) fn compile_bodies(&mut self, rules: &[RulesFile], game: &GameSource) -> Compiled {
        let fn_bodies = pure_bodies(&self.bodies, rules);
        let mut c = Compiler {
            diags: &mut self.diags,
            kinds: &self.kinds,
            params: &self.params,
            vars: &self.vars,
            symbols: &self.symbols,
            sigs: &self.sigs,
            choices: Vec::new(),
            messages: Vec::new(),
            fn_bodies: &fn_bodies,
            inlining: Vec::new(),
            inlined: 0,
            depth: 0,
        };
        let funcs = compile_funcs(&mut c, &self.bodies, &self.sigs, rules);
        let mut extra = Extra {
            first_id: self.sigs.len(),
            funcs: Vec::new(),
        };
        let var_inits = compile_var_inits(&mut c, &mut extra, rules, &self.vars);
        let score = compile_score(&mut c, &mut extra, rules, game);
        let metrics = super::measures::compile_metrics(&mut c, &mut extra, rules);
        let endings = super::measures::compile_endings(&mut c, &mut extra, rules);
        Compiled {
            funcs,
            extra: extra.funcs,
            var_inits,
            score,
            metrics,
            endings,
            choices: std::mem::take(&mut c.choices),
            messages: std::mem::take(&mut c.messages),
        }
    }
}

/// Functions compiled beyond the declared ones, numbered from `first_id`.
pub(super) struct Extra {
    first_id: usize,
    funcs: Vec<Func>,
}

impl Extra {
    /// Adds a function; returns its id.
    pub(super) fn push(&mut self, f: Func) -> FuncId {
        self.funcs.push(f);
        (self.first_id + self.funcs.len() - 1) as FuncId
    }
}

/// The bodies of pure functions, by function id, for inlining calls.
fn pure_bodies<'r>(bodies: &[Body], rules: &'r [RulesFile]) -> Vec<Option<&'r ast::Expr>> {
    bodies
        .iter()
        .map(|b| match b {
            Body::Fn(fi, ii) => match &rules[*fi].ast.items[*ii] {
                ast::Item::Fn(d) => Some(&d.body),
                _ => None,
            },
            Body::Proc(..) => None,
        })
        .collect()
}

/// Compiles the declared functions and procedures, by function id.
fn compile_funcs(
    c: &mut Compiler,
    bodies: &[Body],
    sigs: &[Sig],
    rules: &[RulesFile],
) -> Vec<Option<Func>> {
    let mut funcs = vec![None; sigs.len()];
    for (fid, body) in bodies.iter().enumerate() {
        let sig = &sigs[fid];
        let (fi, ii) = body.place();
        let mut f = FnCtx::new(&sig.params, sig.ret.clone(), sig.is_proc);
        let (name, span) = match &rules[fi].ast.items[ii] {
            ast::Item::Fn(d) => {
                c.fn_body(&mut f, &d.body);
                (&d.name.name, d.span)
            }
            ast::Item::Proc(d) => {
                c.proc_body(&mut f, &d.body);
                (&d.name.name, d.span)
            }
            _ => continue,
        };
        funcs[fid] = Some(f.finish(name, sig.params.len(), span));
    }
    funcs
}

/// Compiles the state variables' initialisers: (variable, function).
fn compile_var_inits(
    c: &mut Compiler,
    extra: &mut Extra,
    rules: &[RulesFile],
    vars: &[VarDef],
) -> Vec<(usize, FuncId)> {
    let mut decl_of = HashMap::new();
    for rf in rules {
        for item in &rf.ast.items {
            if let ast::Item::Var(v) = item {
                decl_of.insert(v.name.name.clone(), v);
            }
        }
    }
    let mut var_inits = Vec::new();
    for (vi, vd) in vars.iter().enumerate() {
        let Some(decl) = decl_of.get(&vd.name) else {
            continue;
        };
        let Some(init) = &decl.init else { continue };
        let mut f = FnCtx::new(&[], vd.ty.clone(), false);
        c.fn_body(&mut f, init);
        let id = extra.push(f.finish(&format!("init {}", vd.name), 0, decl.span));
        var_inits.push((vi, id));
    }
    var_inits
}

/// Compiles the score's keys. A ruleset has one score declaration; a
/// variant's (the last) replaces it.
fn compile_score(
    c: &mut Compiler,
    extra: &mut Extra,
    rules: &[RulesFile],
    game: &GameSource,
) -> Vec<FuncId> {
    let mut score_decls = Vec::new();
    for rf in rules {
        for item in &rf.ast.items {
            if let ast::Item::Score(s) = item {
                score_decls.push((s, rf.is_variant));
            }
        }
    }
    let chosen = score_decls
        .iter()
        .rev()
        .find(|(_, v)| *v)
        .or(score_decls.first())
        .map(|(s, _)| *s);
    let base_scores: Vec<_> = score_decls.iter().filter(|(_, v)| !v).collect();
    for (s, _) in base_scores.iter().skip(1) {
        let first = base_scores[0].0.span;
        c.diags.push(
            Diagnostic::new(
                Code::DuplicateScore,
                s.span,
                "a ruleset has one score declaration",
            )
            .note(first, "the first one")
            .help("merge them into one `score(p) = ...;`"),
        );
    }
    let Some(s) = chosen else {
        c.diags.push(
            Diagnostic::new(
                Code::MissingScore,
                game.span(game.manifest.name.span()),
                "the ruleset has no score declaration",
            )
            .label("this ruleset")
            .help("add `score(p) = points[p];` to a .rules file"),
        );
        return Vec::new();
    };
    let mut score = Vec::new();
    for key in &s.keys {
        let mut f = FnCtx::new(&[(s.player.name.clone(), Ty::Ent(PLAYER))], Ty::Int, false);
        c.fn_body(&mut f, key);
        score.push(extra.push(f.finish("score", 1, s.span)));
    }
    score
}

//! Compiling code written outside a ruleset (scenario programs and
//! assertions) against a loaded ruleset.

use crate::ir::bytecode::FuncId;
use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::{Ruleset, Ty};
use crate::ir::span::Span;
use crate::lang::ast::{Expr, Stmt};
use crate::model::compile::{Compiler, FnCtx};

fn compiler_run<T>(
    rules: &mut Ruleset,
    name: &str,
    params: &[(String, Ty)],
    body: impl FnOnce(&mut Compiler, &mut FnCtx) -> T,
    returns: bool,
    is_proc: bool,
    span: Span,
) -> Result<(FuncId, T), Vec<Diagnostic>> {
    let mut diags = Diagnostics {
        sources: rules.sources.clone(),
        items: Vec::new(),
    };
    let vars = rules.vars.clone();
    let (func, out, choices, messages) = {
        let mut c = Compiler {
            diags: &mut diags,
            kinds: &rules.kinds,
            params: &rules.params,
            vars: &vars,
            symbols: &rules.symbols,
            sigs: &rules.sigs,
            choices: std::mem::take(&mut rules.choices),
            messages: std::mem::take(&mut rules.messages),
            fn_bodies: &[],
            inlining: Vec::new(),
            inlined: 0,
            depth: 0,
        };
        let mut f = FnCtx::new(params, if returns { Ty::Error } else { Ty::Void }, is_proc);
        let out = body(&mut c, &mut f);
        let func = f.finish(name, params.len(), span);
        (func, out, c.choices, c.messages)
    };
    rules.choices = choices;
    rules.messages = messages;
    if !diags.items.is_empty() {
        return Err(diags.items);
    }
    let mut func = func;
    crate::model::compile::fuse_code(&rules.vars, &mut func.code);
    let shape = crate::ir::verify::check(rules, &func).map_err(|(pc, why)| {
        let span = func.spans.get(pc).copied().unwrap_or(span);
        vec![Diagnostic::new(
            Code::Internal,
            span,
            format!("the compiled code of `{name}` is unsound at instruction {pc}: {why}"),
        )
        .help("this is a bug of tabula, not of the rules: please report it")]
    })?;
    func.heights = shape.heights;
    func.max_stack = shape.max_stack;
    rules.funcs.push(func);
    Ok(((rules.funcs.len() - 1) as FuncId, out))
}

/// Adds a procedure made of `stmts`; returns its id.
pub fn add_proc(
    rules: &mut Ruleset,
    stmts: &[Stmt],
    span: Span,
) -> Result<FuncId, Vec<Diagnostic>> {
    compiler_run(
        rules,
        "scenario",
        &[],
        |c, f| c.stmts_body(f, stmts),
        false,
        true,
        span,
    )
    .map(|(id, _)| id)
}

/// Adds a function computing `e`; returns its id and type.
pub fn add_expr(rules: &mut Ruleset, e: &Expr) -> Result<(FuncId, Ty), Vec<Diagnostic>> {
    add_function(rules, "scenario", &[], e)
}

/// Adds a function `name` of `params` computing `e`; returns its id and
/// type.
pub fn add_function(
    rules: &mut Ruleset,
    name: &str,
    params: &[(String, Ty)],
    e: &Expr,
) -> Result<(FuncId, Ty), Vec<Diagnostic>> {
    compiler_run(
        rules,
        name,
        params,
        |c, f| c.value_body(f, e),
        true,
        false,
        e.span,
    )
}

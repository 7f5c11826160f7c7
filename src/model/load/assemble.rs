//! Assembling the ruleset: compile every body, find `proc main()` and the
//! variables `game.yaml` names, and put the parts together.

use crate::ir::bytecode::{Func, FuncId, Op, VarId};
use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::{Labels, Ruleset, Ty, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::ir::verify;
use crate::model::compile::ty_name;

use super::builder::Builder;
use super::files::{GameSource, RulesFile};

impl Builder {
    /// Compiles every body and assembles the ruleset (without what
    /// `load` adds: id, name, variants, player counts, sources).
    /// `None` when the ruleset has no `proc main()`.
    pub(super) fn assemble(&mut self, rules: &[RulesFile], game: &GameSource) -> Option<Ruleset> {
        let compiled = self.compile_bodies(rules, game);
        let main = self.main_proc(game);
        let round_var = self.scalar_var(
            game,
            game.manifest.rounds.as_ref(),
            &Ty::Int,
            "rounds",
            "declare `var round: int = 0;` and count rounds in it",
        );
        let first_player_var = self.scalar_var(
            game,
            game.manifest.first_player.as_ref(),
            &Ty::Ent(PLAYER),
            "first_player",
            "declare `var start_player: player;` and set it in the setup",
        );
        for (vi, f) in compiled.var_inits {
            self.vars[vi].init = Some(f);
        }
        let state_words = self.vars.iter().map(|v| v.len() * v.elem_words).sum();
        let funcs = compiled
            .funcs
            .into_iter()
            .map(|f| f.unwrap_or_else(empty_proc))
            .chain(compiled.extra)
            .collect();
        let sizes: Vec<usize> = self.kinds.iter().map(|k| k.items.len()).collect();
        let mut kinds = self.kinds.clone();
        for k in &mut kinds {
            k.index_fields(&sizes);
        }
        let mut rules = Ruleset {
            id: String::new(),
            name: String::new(),
            variants: Vec::new(),
            variant_hashes: Vec::new(),
            overrides: Vec::new(),
            min_players: 0,
            max_players: 0,
            variants_by_players: Vec::new(),
            kinds,
            params: self.params.clone(),
            vars: self.vars.clone(),
            funcs,
            choices: compiled.choices,
            messages: compiled.messages,
            legal_sure: Vec::new(),
            natives: Vec::new(),
            main: main?,
            score: compiled.score,
            metrics: compiled.metrics,
            endings: compiled.endings,
            state_words,
            round_var,
            first_player_var,
            sources: Default::default(),
            proc_names: self.func_names(),
            symbols: self.symbols.clone(),
            sigs: self.sigs.clone(),
            check_legal: false,
            labels: Labels::new(&self.kinds),
            view: None,
        };
        // Code compiled past a mistake is incomplete: proven only when
        // there is none.
        if self.diags.is_empty() {
            if let Err(d) = prove_code(&mut rules) {
                self.diags.push(d);
            }
            super::untried::mark_choices(&mut rules);
            super::sure::mark_legals(&mut rules);
        }
        Some(rules)
    }

    /// `proc main()`, the game program (reported when missing).
    fn main_proc(&mut self, game: &GameSource) -> Option<FuncId> {
        match self.symbols.get("main") {
            Some(Global::Func(f))
                if self.sigs[*f as usize].is_proc && self.sigs[*f as usize].params.is_empty() =>
            {
                Some(*f)
            }
            _ => {
                self.diags.push(
                    Diagnostic::new(
                        Code::MissingMain,
                        game.span(game.manifest.name.span()),
                        "the ruleset has no `proc main()`",
                    )
                    .label("this ruleset")
                    .help("add `proc main() { ... }`: the game program, from setup to the end"),
                );
                None
            }
        }
    }

    /// The variable a `game.yaml` key names (`rounds: round`): it must be
    /// a state variable of type `ty` without indices.
    fn scalar_var(
        &mut self,
        game: &GameSource,
        name: Option<&marked_yaml::Spanned<String>>,
        ty: &Ty,
        key: &str,
        help: &str,
    ) -> Option<VarId> {
        let r = name?;
        match self.symbols.get(r.as_str()) {
            Some(Global::Var(v))
                if self.vars[*v as usize].dims.is_empty() && self.vars[*v as usize].ty == *ty =>
            {
                Some(*v)
            }
            found => {
                let code = match found {
                    None => Code::UnknownName,
                    Some(_) => Code::TypeMismatch,
                };
                let what = ty_name(&self.kinds, ty);
                self.diags.push(
                    Diagnostic::new(
                        code,
                        game.span(r.span()),
                        format!(
                            "`{key}: {}` must name a {what} variable without indices",
                            r.as_str()
                        ),
                    )
                    .help(help),
                );
                None
            }
        }
    }

    /// Every function and procedure by name.
    fn func_names(&self) -> Vec<(String, FuncId)> {
        let mut names: Vec<(String, FuncId)> = self
            .symbols
            .names()
            .filter_map(|n| match self.symbols.get(n) {
                Some(Global::Func(f)) => Some((n.to_string(), *f)),
                _ => None,
            })
            .collect();
        // In declaration order, whatever the order of the hash map.
        names.sort_by_key(|(_, f)| *f);
        names
    }
}

/// Fuses every function's instructions, then proves its code sound to
/// run (see [`crate::ir::verify`]):
/// a function that is not is a mistake of the compiler, reported as an
/// internal error at the function.
pub(crate) fn prove_code(rules: &mut Ruleset) -> Result<(), Diagnostic> {
    for f in &mut rules.funcs {
        crate::model::compile::fuse_code(&rules.vars, &mut f.code);
    }
    verify::check_all(rules).map_err(|(fi, pc, why)| {
        let f = &rules.funcs[fi];
        let span = f.spans.get(pc).copied().unwrap_or(f.span);
        Diagnostic::new(
            Code::Internal,
            span,
            format!(
                "the compiled code of `{}` is unsound at instruction {pc}: {why}",
                f.name
            ),
        )
        .help("this is a bug of tabula, not of the rules: please report it")
    })
}

/// Stands in for a function whose body was not compiled.
fn empty_proc() -> Func {
    Func {
        name: "?".into(),
        arity: 0,
        nlocals: 0,
        returns: false,
        is_proc: true,
        code: vec![Op::Ret],
        spans: vec![Span::default()],
        span: Span::default(),
        heights: Vec::new(),
        max_stack: 0,
    }
}

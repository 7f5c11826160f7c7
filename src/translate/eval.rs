//! Evaluating references: expressions of the rules language, on the
//! initial state of a ruleset with a given number of players.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::engine::state::State;
use crate::engine::Game;
use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::{Ruleset, Ty};
use crate::ir::span::Span;
use crate::lang::parser;
use crate::model::snippet;
use crate::translate::scenario::{FileProblem, Scenario, ScenarioError};

/// Evaluates references (expressions of the rules language) on the
/// initial state of a ruleset.
pub struct Evaluator {
    rules: Ruleset,
    states: HashMap<usize, State>,
    /// Values by reference and player count; `None` for a reference
    /// found invalid (reported the first time only).
    cache: HashMap<(String, usize), Option<i64>>,
    dir: Option<PathBuf>,
    scenarios: HashMap<String, Result<Scenario, FileProblem>>,
}

impl Evaluator {
    /// An evaluator over a loaded ruleset.
    pub fn new(rules: Ruleset) -> Evaluator {
        Evaluator {
            rules,
            states: HashMap::new(),
            cache: HashMap::new(),
            dir: None,
            scenarios: HashMap::new(),
        }
    }

    /// The ruleset's directory: scenario claims read its `examples/`.
    pub fn with_dir(mut self, dir: &Path) -> Evaluator {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Replaces `setup(x)` and `expected(x)` in a reference by the values
    /// the scenario `name` states for `x`.
    pub fn in_scenario(&mut self, name: &str, expr: &str) -> Result<String, ScenarioError> {
        let dir = self.dir.as_deref();
        let sc = self
            .scenarios
            .entry(name.to_string())
            .or_insert_with(|| Scenario::find(dir, name));
        match sc {
            Ok(sc) => sc.substitute(name, expr),
            Err(problem) => Err(ScenarioError::File {
                name: name.to_string(),
                problem: problem.clone(),
            }),
        }
    }

    /// The ruleset's maximum player count.
    pub fn max_players(&self) -> usize {
        self.rules.max_players
    }

    /// Registers a source file (a language file) for spans in diagnostics.
    pub fn add_source(&mut self, name: &str, text: &str) -> u32 {
        self.rules.sources.add(name.to_string(), text)
    }

    /// The sources known to the ruleset (its files and those added).
    pub fn sources(&self) -> &crate::ir::span::SourceMap {
        &self.rules.sources
    }

    /// The value of `expr` with `players` seated. `at` is where the
    /// expression's text starts in source `file` (for diagnostics).
    pub fn value(
        &mut self,
        expr: &str,
        players: usize,
        file: u32,
        at: usize,
    ) -> Result<i64, Vec<Diagnostic>> {
        let key = (expr.to_string(), players);
        if let Some(&r) = self.cache.get(&key) {
            return r.ok_or_else(Vec::new);
        }
        let map = move |o: usize| at + o;
        let parsed = parser::parse_expr(file, expr, &map).map_err(|e| {
            let message = match e.code {
                Code::SyntaxError => format!("invalid reference: expected {}, found {}", e.expected.join(" or "), e.found),
                _ => format!("invalid reference: {}", e.message()),
            };
            vec![Diagnostic::new(e.code, e.span, message)
                .help("a reference is an expression of the rules language (docs/LANGUAGE.md), e.g. `feed_cost` or `farm_all.cost[wood]`")]
        });
        let r = parsed.and_then(|e| self.eval_parsed(&e, players, file, at, expr));
        self.cache.insert(key, r.as_ref().ok().copied());
        r
    }

    fn eval_parsed(
        &mut self,
        e: &crate::lang::ast::Expr,
        players: usize,
        file: u32,
        at: usize,
        expr: &str,
    ) -> Result<i64, Vec<Diagnostic>> {
        let span = Span::new(file, at, at + expr.len());
        let (f, ty) = snippet::add_expr(&mut self.rules, e)?;
        if !matches!(ty, Ty::Int | Ty::Bool) {
            return Err(vec![Diagnostic::new(
                Code::TypeMismatch,
                span,
                "a reference must be a number",
            )
            .help(
                "refer to an integer: a parameter, a field, a table entry, a count",
            )]);
        }
        if !(self.rules.min_players..=self.rules.max_players).contains(&players) {
            return Err(vec![Diagnostic::new(
                Code::BadPlayerCount,
                span,
                format!("the ruleset is not for {players} players"),
            )
            .help(format!(
                "use `players:` between {} and {}",
                self.rules.min_players, self.rules.max_players
            ))]);
        }
        if !self.states.contains_key(&players) {
            let st = Game::initial_state(&self.rules, players, 1).map_err(|e| {
                vec![Diagnostic::new(
                    e.kind().map_or(Code::Internal, |k| k.code()),
                    span,
                    format!("cannot set up the game: {e}"),
                )]
            })?;
            self.states.insert(players, st);
        }
        let st = self.states.get_mut(&players).expect("inserted");
        crate::engine::vm::eval(&self.rules, st, f, Vec::new())
            .map(|v| v.int())
            .map_err(|e| {
                vec![Diagnostic::new(
                    e.kind.code(),
                    span,
                    format!("cannot evaluate: {}", e.message),
                )
                .help("the reference is evaluated on the initial state of the game")]
            })
    }
}

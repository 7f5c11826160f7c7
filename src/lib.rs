//! tabula: board games written as data.
//!
//! A game is a directory of rules (`*.rules`, a small declarative
//! language) and data (`*.yaml`). This library loads and checks such a
//! ruleset, plays it as a decision machine (the legal decisions at the
//! next choice point, then apply one, then again), and drives it with bots,
//! simulations and scenarios. The `tabula` binary is built on the same
//! surface.
//!
//! What a program needs is re-exported here:
//!
//! - loading: [`load()`], [`load_with`] (variants by name or path, parameters
//!   set from outside), [`load_for_players`] (with the variants a player
//!   count needs), [`find_ruleset`], [`Ruleset`], and the mistakes a
//!   load reports ([`LoadError`], [`Diagnostics`], each [`Diagnostic`]
//!   with its [`Code`]);
//! - playing: [`Game`] (its [`Game::legal`] decisions, [`Game::refused`]
//!   options with their reasons, [`Game::apply`], [`Game::view`] for a
//!   seat, [`Game::outcome`]), the errors of play ([`ApplyError`],
//!   [`RuntimeError`] with its [`ErrorKind`]), saved games ([`GameLog`]),
//!   and [`determinize`] for bots that guess what a seat cannot see;
//! - bots: the [`Agent`] trait and the shipped [`RandomAgent`],
//!   [`GreedyAgent`] and [`MctsAgent`], named by an [`AgentSpec`];
//! - many games: the [`sim`] module (parallel, reproducible simulations,
//!   statistics, reports);
//! - scenarios: [`run_scenario`].
//!
//! ```
//! use std::sync::Arc;
//! use tabula::{Agent, Game, RandomAgent};
//!
//! let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
//! let rules = Arc::new(tabula::load(&dir, &[]).expect("the ruleset loads"));
//! let mut game = Game::new(rules, 2, 7).expect("two players, seed 7");
//! let mut bot = RandomAgent::new(1);
//! while !game.is_over() {
//!     let legal = game.legal().expect("no rules error");
//!     let pick = bot.choose(&mut game, &legal);
//!     game.apply(pick).expect("a legal decision applies");
//! }
//! let outcome = game.outcome().unwrap().expect("the game is over");
//! assert!(!outcome.winners.is_empty());
//! ```
//!
//! The modules below the surface (the rules language's parser, the model
//! that loads and compiles, the interpreter, the translation checker, the
//! command line) are hidden from this documentation: they change with the
//! implementation. docs/ARCHITECTURE.md describes them.

pub mod agents;
#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod engine;
#[doc(hidden)]
pub mod ir;
#[doc(hidden)]
pub mod lang;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod scenario;
pub mod sim;
#[doc(hidden)]
pub mod translate;

pub use agents::{parse_agents, Agent, AgentSpec, GreedyAgent, MctsAgent, RandomAgent};
pub use engine::legality::Refused;
pub use engine::sample::determinize;
pub use engine::state::Value;
pub use engine::{ApplyError, Decision, ErrorKind, Game, GameLog, Outcome, RuntimeError};
pub use ir::{Code, Diagnostic, Diagnostics, Ruleset};
pub use model::{
    find_ruleset, load, load_for_players, load_for_players_with, load_with, LoadError,
};
pub use scenario::{run_file as run_scenario, Outcome as ScenarioOutcome, ScenarioError};

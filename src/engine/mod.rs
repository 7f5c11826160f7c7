//! Engine: state, decisions, apply, views, random generator, logs,
//! hidden-information sampling for bots.

pub mod game;
pub mod log;
pub mod sample;
pub mod state;
pub mod view;
pub mod vm;

pub use game::{ApplyError, Decision, Game, Outcome};
pub use log::GameLog;

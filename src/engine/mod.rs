//! Engine: state, decisions, apply, views, random generator, logs,
//! hidden-information sampling for bots.

pub mod error;
pub mod game;
pub mod legality;
pub mod log;
pub mod picture;
pub mod sample;
pub mod state;
pub mod view;
pub mod vm;
#[doc(hidden)]
pub use vm::native;

pub use error::{ApplyError, ErrorKind, RuntimeError};
pub use game::{Decision, Game, Outcome};
pub use log::GameLog;

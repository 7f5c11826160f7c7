//! Errors of a game being played: the mistakes in the rules that only
//! show when played, and why a decision was not applied.

use crate::ir::codes::Code;
use crate::ir::span::Span;

/// What kind of mistake a runtime error is: callers and tests match on
/// it, not on the wording of the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// An index, a range or a set beyond what a variable holds, or a
    /// decision asked of a player who is not seated.
    OutOfRange,
    /// `none` where an item, a player or a procedure is needed.
    NoneUsed,
    /// A division or a remainder by zero.
    DivisionByZero,
    /// A value an operation refuses: `roll(n)` with `n <= 0`, an item
    /// pushed onto a list that holds it already, or onto a full list.
    BadValue,
    /// A run went on too long: too many steps without a decision, calls
    /// nested too deep; or another bound of the engine was passed (the
    /// options of one decision, the steps to list them, the words an
    /// option being tried writes, the size of the state).
    LimitReached,
    /// A requirement failed where no decision can be undone (while
    /// evaluating a value, or before the first decision).
    RequirementFailed,
    /// A value was asked of code that stops for a decision.
    DecisionInValue,
    /// No option of a choice is legal.
    DeadEnd,
    /// Two options of one choice have the same name.
    NameClash,
    /// A shortcut of the legality check (a `legal;`, a requirement
    /// checked on a whole set) answered otherwise than the full run.
    BrokenLegal,
    /// An option legal when checked was refused when run again: the
    /// rules do not replay the same way.
    NotReplayable,
    /// The engine met code the compiler should not have produced.
    Internal,
}

impl ErrorKind {
    /// The diagnostic code a report of this kind of error shows.
    pub fn code(self) -> Code {
        match self {
            ErrorKind::OutOfRange => Code::OutOfRange,
            ErrorKind::NoneUsed => Code::NoneUsed,
            ErrorKind::DivisionByZero => Code::DivisionByZero,
            ErrorKind::BadValue => Code::RefusedValue,
            ErrorKind::LimitReached => Code::LimitReached,
            ErrorKind::RequirementFailed => Code::RequirementFailed,
            ErrorKind::DecisionInValue => Code::DecisionInValue,
            ErrorKind::DeadEnd => Code::DeadEnd,
            // The same mistake as two named arms offering one option,
            // found while playing.
            ErrorKind::NameClash => Code::DuplicateOption,
            ErrorKind::BrokenLegal => Code::BrokenLegal,
            ErrorKind::NotReplayable => Code::NotReplayable,
            ErrorKind::Internal => Code::Internal,
        }
    }
}

/// A runtime error: a mistake in the rules that only shows when played.
#[derive(Debug, Clone)]
pub struct RuntimeError {
    /// What kind of mistake it is.
    pub kind: ErrorKind,
    /// What went wrong, in words.
    pub message: String,
    /// The rules code that was running.
    pub span: Span,
}

impl RuntimeError {
    /// An error of this kind at this place in the rules.
    pub fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> RuntimeError {
        RuntimeError {
            kind,
            message: message.into(),
            span,
        }
    }

    /// The same error, placed at `span`.
    pub fn at(self, span: Span) -> RuntimeError {
        RuntimeError { span, ..self }
    }
}

/// Why a decision was not applied.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApplyError {
    /// The option exists but is illegal now.
    #[error("`{name}` is refused: {reason}")]
    Refused {
        /// The option.
        name: String,
        /// Why.
        reason: String,
    },
    /// No such option at this choice point.
    #[error("`{name}` is not an option here; the legal decisions are: {legal}")]
    Unknown {
        /// What was asked.
        name: String,
        /// The legal decisions.
        legal: String,
    },
    /// No legal decision has this index.
    #[error("there is no legal decision #{index} (there are {count})")]
    NoIndex {
        /// The index asked for.
        index: usize,
        /// How many legal decisions there are.
        count: usize,
    },
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// A game started with a number of players its ruleset does not allow
    /// (`players:` in `game.yaml`).
    #[error("{game} is played by {} players, not {players}", player_range(*.min, *.max))]
    PlayerCount {
        /// The ruleset's name.
        game: String,
        /// The players asked for.
        players: usize,
        /// The fewest the ruleset allows.
        min: usize,
        /// The most the ruleset allows.
        max: usize,
    },
    /// A game of a player count its ruleset plays only with some variants
    /// (`variants_by_players:` in `game.yaml`), started without them.
    #[error(
        "{game} with {players} players is played with {}; load it with them \
         (`load_for_players`)",
        .variants.join(" + ")
    )]
    MissingVariants {
        /// The ruleset's name.
        game: String,
        /// The players asked for.
        players: usize,
        /// The variants that count needs and the ruleset was loaded without.
        variants: Vec<String>,
    },
    /// The rules failed while playing.
    #[error("rules error: {}", .0.message)]
    Runtime(RuntimeError),
}

/// `2 to 4`, or `3` when the range holds one count.
fn player_range(min: usize, max: usize) -> String {
    if min == max {
        min.to_string()
    } else {
        format!("{min} to {max}")
    }
}

impl ApplyError {
    /// The kind of the rules' mistake, when the rules failed.
    pub fn kind(&self) -> Option<ErrorKind> {
        match self {
            ApplyError::Runtime(e) => Some(e.kind),
            _ => None,
        }
    }
}

impl From<RuntimeError> for ApplyError {
    fn from(e: RuntimeError) -> ApplyError {
        ApplyError::Runtime(e)
    }
}

//! A game in progress: the decision machine every driver uses.
//!
//! At each choice point the engine lists the legal decisions: every option
//! the rules offer whose consequences, run up to the next choice point, do
//! not break a `require` (judged by [`crate::engine::legality`]). Applying
//! a decision runs it again from the choice point.

use std::sync::Arc;

use rand_core::RngCore;

use crate::engine::error::{ApplyError, ErrorKind, RuntimeError};
use crate::engine::legality::{self, Looks, Pending, Taken};
use crate::engine::sample::uniform_below;
use crate::engine::state::{State, Status, Value};
use crate::engine::vm::{self, Exit};
use crate::ir::bytecode::Op;
use crate::ir::ruleset::{Ruleset, Ty, VarDef};
use crate::ir::span::Span;

pub use crate::engine::legality::{Decision, Refused};

/// The final result.
#[derive(Debug, Clone, serde::Serialize, PartialEq)]
pub struct Outcome {
    /// Each seat's score keys (the first is the score).
    pub keys: Vec<Vec<i64>>,
    /// The winning seats (several on a shared win).
    pub winners: Vec<usize>,
}

impl Outcome {
    /// Each seat's score (the first key).
    pub fn scores(&self) -> Vec<i64> {
        self.keys
            .iter()
            .map(|k| k.first().copied().unwrap_or(0))
            .collect()
    }
}

/// The most words a game's state may hold (8 bytes each: 128 MiB). A
/// ruleset whose variables need more cannot be played: the engine copies
/// the state for every search bot's sample, and keeps it whole in memory.
/// One figure with the loader, which refuses such a ruleset first.
pub use crate::ir::ruleset::MAX_STATE_WORDS;

/// The words variable `v` takes (`None` past `usize`).
fn var_words(v: &VarDef) -> Option<usize> {
    v.dims
        .iter()
        .try_fold(v.elem_words, |n, d| n.checked_mul(d.size))
}

/// Whether the state fits in [`MAX_STATE_WORDS`], every variable inside it.
fn state_fits(rules: &Ruleset) -> bool {
    rules.state_words <= MAX_STATE_WORDS
        && rules.vars.iter().all(|v| {
            var_words(v)
                .and_then(|n| n.checked_add(v.offset))
                .is_some_and(|end| end <= rules.state_words)
        })
}

/// The error for a ruleset whose state does not fit in
/// [`MAX_STATE_WORDS`], at the declaration of its largest variable.
#[cold]
fn state_too_large(rules: &Ruleset) -> RuntimeError {
    let largest = rules
        .vars
        .iter()
        .max_by_key(|v| var_words(v).unwrap_or(usize::MAX));
    let (span, name) = largest.map_or((Span::default(), String::new()), |v| {
        (
            v.span,
            format!(" (the largest, `{}`, is declared here)", v.name),
        )
    });
    RuntimeError::new(
        ErrorKind::LimitReached,
        span,
        format!(
            "the state's variables need more than the engine's limit of \
             {MAX_STATE_WORDS} words{name}"
        ),
    )
}

/// The value of a variable's initialiser `f`: read off its code when it
/// is a constant (`Const`, then `Ret`: most are), else evaluated.
fn init_value(rules: &Ruleset, state: &mut State, f: u32) -> Result<Value, ApplyError> {
    let func = &rules.funcs[f as usize];
    if let (true, [Op::Const(k), Op::Ret, ..]) = (func.returns, func.code.as_slice()) {
        return Ok(Value::I(*k));
    }
    vm::eval(rules, state, f, Vec::new()).map_err(ApplyError::Runtime)
}

/// A game being played. Cloning copies the whole position and its
/// history; [`Game::fork`] copies the position alone (search bots).
///
/// A game stays in the thread that made it (it is not `Send`): its sets
/// share their words with their copies, counted without atomics for
/// speed. To carry a game to another thread, send its
/// [`GameLog`](crate::engine::GameLog) and replay it there.
#[derive(Clone)]
pub struct Game {
    rules: Arc<Ruleset>,
    state: State,
    seed: u64,
    /// The decisions applied, named when asked for (see [`Taken`]).
    log: Vec<Taken>,
    /// Whether the decisions applied are written to `log` (not in the
    /// copies a search bot plays on: see [`Game::unrecorded`]).
    record: bool,
    pending: Option<Pending>,
    /// An emptied listing whose buffers the next one fills.
    recycled: Pending,
    /// What the look-aheads of the listing found, for the next one.
    looks: Looks,
    check_legal: bool,
}

impl Game {
    /// Starts a game: initialises the state and runs the program up to the
    /// first decision. Fails as [`Game::initial_state`] does, and when the
    /// ruleset was loaded without the variants `players` needs.
    pub fn new(rules: Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, ApplyError> {
        let state = Self::initial_state(&rules, players, seed)?;
        let variants = rules.missing_variants(players);
        if !variants.is_empty() {
            return Err(ApplyError::MissingVariants {
                game: rules.name.clone(),
                players,
                variants,
            });
        }
        let mut g = Game {
            state,
            rules: rules.clone(),
            seed,
            // Room for a short game's names, grown once or not at all.
            log: Vec::with_capacity(64),
            record: true,
            pending: None,
            recycled: Pending::default(),
            looks: Looks::default(),
            check_legal: rules.check_legal,
        };
        vm::start(&mut g.state, rules.main, &rules, Vec::new());
        g.advance_fresh()?;
        Ok(g)
    }

    /// A state with variables initialised but no program started. Fails
    /// when `players` is outside the ruleset's range (`players:` in
    /// `game.yaml`), and when the state would be larger than
    /// [`MAX_STATE_WORDS`].
    pub fn initial_state(rules: &Ruleset, players: usize, seed: u64) -> Result<State, ApplyError> {
        if players < rules.min_players.max(1) || players > rules.max_players {
            return Err(ApplyError::PlayerCount {
                game: rules.name.clone(),
                players,
                min: rules.min_players,
                max: rules.max_players,
            });
        }
        if !state_fits(rules) {
            return Err(ApplyError::Runtime(state_too_large(rules)));
        }
        let mut state = State::new(rules, players, seed);
        for v in &rules.vars {
            if let Some(f) = v.init {
                let val = init_value(rules, &mut state, f)?;
                for flat in 0..v.len() {
                    let o = v.offset + flat * v.elem_words;
                    match &val {
                        Value::I(x) => state.words[o] = *x,
                        Value::S(bits) => {
                            for i in 0..v.elem_words {
                                state.words[o + i] = bits.get(i).copied().unwrap_or(0) as i64;
                            }
                        }
                    }
                }
            }
        }
        Ok(state)
    }

    /// Wraps a prepared state (scenarios) whose program has been started.
    pub fn from_state(rules: Arc<Ruleset>, state: State, seed: u64) -> Result<Game, ApplyError> {
        let mut g = Game {
            state,
            check_legal: rules.check_legal,
            rules,
            seed,
            log: Vec::new(),
            record: true,
            pending: None,
            recycled: Pending::default(),
            looks: Looks::default(),
        };
        g.advance_fresh()?;
        Ok(g)
    }

    fn advance_fresh(&mut self) -> Result<(), ApplyError> {
        match vm::run(&self.rules, &mut self.state).map_err(ApplyError::Runtime)? {
            Exit::Failed(m) => {
                let (msg, span) = self.rules.messages[m as usize].clone();
                Err(ApplyError::Runtime(RuntimeError::new(
                    ErrorKind::RequirementFailed,
                    span,
                    format!("requirement failed with no decision to undo: {msg}"),
                )))
            }
            _ => Ok(()),
        }
    }

    /// A copy of the position without its history: what search bots play
    /// on. It costs the size of the state, never the length of the game
    /// (a clone copies every decision taken so far), and it tells nothing
    /// of the decisions taken, secret ones included. Its `history()`
    /// starts empty.
    pub fn fork(&self) -> Game {
        Game {
            rules: self.rules.clone(),
            state: self.state.clone(),
            seed: self.seed,
            log: Vec::new(),
            record: self.record,
            pending: self.pending.clone(),
            recycled: Pending::default(),
            looks: Looks::default(),
            check_legal: self.check_legal,
        }
    }

    /// The game as it is, its history left as it stands from now on: the
    /// decisions applied are no longer written to it. What a search bot
    /// plays its iterations on, which never reads the history, so that a
    /// decision costs no copy of its name; forks of it are unrecorded too.
    pub fn unrecorded(mut self) -> Game {
        self.record = false;
        self
    }

    /// The ruleset.
    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Mutable access for tools that set up positions (scenarios).
    pub fn state_mut(&mut self) -> &mut State {
        self.pending = None;
        self.looks.forget_known();
        &mut self.state
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Number of seated players.
    pub fn players(&self) -> usize {
        self.state.nplayers
    }

    /// Decisions applied so far, by name.
    pub fn history(&self) -> Vec<Arc<str>> {
        let players = self.state.nplayers;
        self.log
            .iter()
            .map(|t| t.name(&self.rules, players))
            .collect()
    }

    /// How many decisions have been applied so far ([`Game::history`]'s
    /// length, without naming them).
    pub fn decisions_taken(&self) -> usize {
        self.log.len()
    }

    /// Whether the game program has ended.
    pub fn is_over(&self) -> bool {
        self.state.status == Status::Over
    }

    /// The seat that must decide next.
    pub fn to_move(&self) -> Option<usize> {
        match self.state.status {
            Status::Waiting { player, .. } => Some(player),
            _ => None,
        }
    }

    /// The prompt of the pending decision.
    pub fn prompt(&self) -> Option<&str> {
        match self.state.status {
            Status::Waiting { choice, .. } => {
                Some(self.rules.choices[choice as usize].prompt.as_str())
            }
            _ => None,
        }
    }

    /// Where the pending decision is written in the rules.
    pub fn prompt_span(&self) -> Option<Span> {
        match self.state.status {
            Status::Waiting { .. } => Some(legality::choice_span(&self.rules, &self.state)),
            _ => None,
        }
    }

    /// Checks, at every decision from now on, that each `legal;` the rules
    /// reach tells the truth: the options are also run in full, and any
    /// option legal only because its run stopped at `legal;` is an error
    /// (slow: for tests and `--check-legal`).
    pub fn set_check_legal(&mut self, on: bool) {
        self.check_legal = on;
        self.pending = None;
    }

    /// Judges the options of the pending choice (once per choice).
    fn judge(&mut self) -> Result<(), ApplyError> {
        if self.pending.is_none() {
            let into = std::mem::take(&mut self.recycled);
            let (st, looks) = (&mut self.state, &mut self.looks);
            let judged = legality::judge(&self.rules, st, self.check_legal, into, looks)?;
            self.pending = Some(judged);
        }
        Ok(())
    }

    /// The legal decisions at the current choice point (empty when over).
    pub fn legal(&mut self) -> Result<Vec<Decision>, ApplyError> {
        if self.is_over() {
            return Ok(Vec::new());
        }
        self.judge()?;
        let p = self.pending.as_ref().expect("judged");
        if let Some(e) = p.no_legal_option(&self.rules, &self.state) {
            return Err(e.into());
        }
        Ok(p.decisions(&self.rules, &self.state).collect())
    }

    /// How many decisions are legal at the current choice point (0 when
    /// over): [`Game::legal`]'s length, with its errors, without naming
    /// them.
    pub fn legal_count(&mut self) -> Result<usize, ApplyError> {
        if self.is_over() {
            return Ok(0);
        }
        self.judge()?;
        let p = self.pending.as_ref().expect("judged");
        if let Some(e) = p.no_legal_option(&self.rules, &self.state) {
            return Err(e.into());
        }
        Ok(p.count())
    }

    /// The options offered but refused, with their reasons.
    pub fn refused(&mut self) -> Result<Vec<Refused>, ApplyError> {
        if self.is_over() {
            return Ok(Vec::new());
        }
        self.judge()?;
        let p = self.pending.as_ref().expect("judged");
        Ok(p.refused(&self.rules, &self.state))
    }

    /// Applies the `index`-th legal decision.
    pub fn apply(&mut self, index: usize) -> Result<(), ApplyError> {
        if self.is_over() {
            return Err(ApplyError::Over);
        }
        self.judge()?;
        let mut p = self.pending.take().expect("judged");
        let Some((d, next)) = p.take(&self.state, index) else {
            let count = p.count();
            self.pending = Some(p);
            return Err(ApplyError::NoIndex { index, count });
        };
        let on = (&mut self.state, &mut self.looks);
        p.apply(&self.rules, on, index, &d, next)?;
        p.clear();
        self.recycled = p;
        if self.record {
            self.log.push(d);
        }
        Ok(())
    }

    /// Applies one legal decision drawn at random from `rng`, without
    /// judging every option: the options are tried in a random order and
    /// the first legal one is applied (uniform among the legal ones, as a
    /// uniform pick from [`Game::legal`] is, though not the same draws).
    /// What search bots' rollouts play. Returns `false`, the game as it
    /// was, when no option is legal. With `--check-legal` on, or when the
    /// options are already judged, it picks from the full listing.
    pub fn apply_random(&mut self, rng: &mut impl RngCore) -> Result<bool, ApplyError> {
        if self.is_over() {
            return Err(ApplyError::Over);
        }
        if self.check_legal || self.pending.is_some() {
            let n = self.legal()?.len();
            self.apply(uniform_below(rng, n))?;
            return Ok(true);
        }
        self.looks.forget_known();
        match legality::apply_first_legal(&self.rules, &mut self.state, rng)? {
            Some(taken) => {
                if self.record {
                    self.log.push(taken);
                }
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Applies a decision by name.
    pub fn apply_named(&mut self, name: &str) -> Result<(), ApplyError> {
        if self.is_over() {
            return Err(ApplyError::Over);
        }
        let legal = self.legal()?;
        if let Some(i) = legal.iter().position(|d| &*d.name == name) {
            return self.apply(i);
        }
        let p = self.pending.as_ref().expect("judged");
        if let Some(reason) = p.refusal(&self.rules, &self.state, name) {
            return Err(ApplyError::Refused {
                name: name.into(),
                reason,
            });
        }
        Err(ApplyError::Unknown {
            name: name.into(),
            legal: legal
                .iter()
                .map(|d| &*d.name)
                .collect::<Vec<_>>()
                .join(", "),
        })
    }

    /// Forgets the options' tries kept for applying them: code is about to
    /// run on the state (which may draw from its random generator), and
    /// the decisions are then applied by running them again, as they
    /// always were.
    fn forget_tries(&mut self) {
        if let Some(p) = &mut self.pending {
            p.forget_tries();
        }
        self.looks.forget_tries();
        self.looks.forget_known();
    }

    /// The result, once the game is over.
    pub fn outcome(&mut self) -> Result<Option<Outcome>, ApplyError> {
        if !self.is_over() {
            return Ok(None);
        }
        self.forget_tries();
        let rules = self.rules.clone();
        let mut keys = Vec::new();
        for p in 0..self.state.nplayers {
            let mut k = Vec::new();
            for f in &rules.score {
                let v = vm::eval(&rules, &mut self.state, *f, [Value::I(p as i64)])
                    .map_err(ApplyError::Runtime)?;
                k.push(v.int());
            }
            keys.push(k);
        }
        let best = keys.iter().max().cloned().unwrap_or_default();
        let winners = (0..keys.len()).filter(|p| keys[*p] == best).collect();
        Ok(Some(Outcome { keys, winners }))
    }

    /// The ruleset's metrics on the current state (read once the game is
    /// over), in declaration order: one value per seat for a per-seat
    /// metric, else one value. Reading them changes nothing.
    pub fn metrics(&mut self) -> Result<Vec<Vec<i64>>, ApplyError> {
        self.forget_tries();
        let rules = self.rules.clone();
        let mut out = Vec::with_capacity(rules.metrics.len());
        for m in &rules.metrics {
            let args: Vec<Vec<Value>> = if m.per_seat {
                (0..self.state.nplayers)
                    .map(|p| vec![Value::I(p as i64)])
                    .collect()
            } else {
                vec![Vec::new()]
            };
            let mut values = Vec::with_capacity(args.len());
            for a in args {
                let v =
                    vm::eval(&rules, &mut self.state, m.func, a).map_err(ApplyError::Runtime)?;
                values.push(v.int());
            }
            out.push(values);
        }
        Ok(out)
    }

    /// Why the game ended: the first of the ruleset's named endings whose
    /// condition holds (`None` when it names none, or none holds).
    pub fn ending(&mut self) -> Result<Option<String>, ApplyError> {
        self.forget_tries();
        let rules = self.rules.clone();
        for e in &rules.endings {
            let holds = match e.when {
                Some(f) => {
                    vm::eval(&rules, &mut self.state, f, Vec::new())
                        .map_err(ApplyError::Runtime)?
                        .int()
                        != 0
                }
                None => true,
            };
            if holds {
                return Ok(Some(e.reason.clone()));
            }
        }
        Ok(None)
    }

    /// The round counter, if the ruleset declares one.
    pub fn rounds(&self) -> Option<i64> {
        self.rules
            .round_var
            .map(|v| self.state.words[self.rules.vars[v as usize].offset])
    }

    /// Evaluates a compiled function (scenario assertions) on the state.
    pub fn eval(&mut self, func: u32) -> Result<Value, RuntimeError> {
        self.forget_tries();
        let rules = self.rules.clone();
        vm::eval(&rules, &mut self.state, func, Vec::new())
    }

    /// The state as `seat` may see it: one line per variable element.
    pub fn view(&self, seat: Option<usize>) -> Vec<String> {
        crate::engine::view::render(&self.rules, &self.state, seat)
    }

    /// The picture of the state for `seat` drawn from the ruleset's
    /// declared view (`None` when it declares none).
    pub fn picture(
        &self,
        seat: Option<usize>,
    ) -> Result<Option<crate::engine::picture::Picture>, RuntimeError> {
        crate::engine::picture::picture(&self.rules, &self.state, seat)
    }

    /// Renders a runtime error as a miette report into the rules.
    pub fn report(&self, e: &RuntimeError) -> String {
        crate::engine::view::report(&self.rules, e)
    }

    /// The display name of a value of a type.
    pub fn display(&self, ty: &Ty, v: i64) -> String {
        self.rules.display(ty, v, self.state.nplayers)
    }
}

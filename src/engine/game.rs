//! A game in progress: the decision machine every driver uses.
//!
//! At each choice point the engine lists the legal decisions: every option
//! the rules offer whose consequences, run up to the next choice point, do
//! not break a `require`. Applying a decision moves to the state that was
//! computed while checking it.

use std::sync::Arc;

use crate::engine::state::{RuntimeError, State, Status, Value};
use crate::engine::vm::{self, Exit};
use crate::ir::ruleset::{Ruleset, Ty};
use crate::ir::span::Span;

/// How many of the same player's decisions are looked through to find
/// whether an option can be completed without breaking a requirement.
const LOOKAHEAD: usize = 8;

/// One legal decision at the current choice point.
#[derive(Debug, Clone)]
pub struct Decision {
    /// Its name, as written in logs and scenarios (`quarry`, `3`, `done`),
    /// shared with the ruleset's names (copying it allocates nothing).
    pub name: Arc<str>,
    /// The arm of the `choose`.
    pub arm: u16,
    /// The chosen value for per-element arms.
    pub value: i64,
}

/// An option the rules offer but that breaks a requirement.
#[derive(Debug, Clone)]
pub struct Refused {
    /// The option's name.
    pub name: String,
    /// The requirement's message.
    pub reason: String,
    /// Where the requirement is written.
    pub span: Span,
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
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The rules failed while playing.
    #[error("rules error: {}", .0.message)]
    Runtime(RuntimeError),
}

#[derive(Clone)]
struct Pending {
    legal: Vec<(Decision, Next)>,
    /// Refused options as `(arm, value)`: named only when asked.
    refused: Vec<(u16, i64, Why)>,
}

/// Why an option is refused, kept cheap until somebody asks.
#[derive(Debug, Clone, Copy)]
enum Why {
    /// The message of the `require` or `fail` it broke.
    Message(u32),
    /// It leads to a choice, written here, with no option at all.
    NoOption(Span),
}

impl Why {
    /// The reason as shown, and where it is written.
    fn text(self, rules: &Ruleset) -> (String, Span) {
        match self {
            Why::Message(m) => rules.messages[m as usize].clone(),
            Why::NoOption(span) => ("it leads to a choice with no option".into(), span),
        }
    }
}

/// What applying a legal decision takes: it is run again from the
/// pending choice (one run costs less than keeping a copy of the state
/// for every legal option, of which one is chosen).
#[derive(Clone, Copy)]
enum Next {
    /// Its run went to the next decision or the end: run again, the same
    /// run (same state, same random draws) cannot fail.
    Run,
    /// Its run stopped at a `legal;` (this message's span): run in full.
    Rerun(u32),
}

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

/// A game being played. Cloning copies the whole position (search bots).
#[derive(Clone)]
pub struct Game {
    rules: Arc<Ruleset>,
    state: State,
    seed: u64,
    log: Vec<String>,
    pending: Option<Pending>,
    check_legal: bool,
}

impl Game {
    /// Starts a game: initialises the state and runs the program up to the
    /// first decision.
    pub fn new(rules: Arc<Ruleset>, players: usize, seed: u64) -> Result<Game, ApplyError> {
        let state = Self::initial_state(&rules, players, seed)?;
        let mut g = Game {
            state,
            rules: rules.clone(),
            seed,
            log: Vec::new(),
            pending: None,
            check_legal: rules.check_legal,
        };
        vm::start(&mut g.state, rules.main, &rules, Vec::new());
        g.advance_fresh()?;
        Ok(g)
    }

    /// A state with variables initialised but no program started.
    pub fn initial_state(rules: &Ruleset, players: usize, seed: u64) -> Result<State, ApplyError> {
        let mut state = State::new(rules, players, seed);
        for v in &rules.vars {
            if let Some(f) = v.init {
                let val =
                    vm::eval(rules, &mut state, f, Vec::new()).map_err(ApplyError::Runtime)?;
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
            pending: None,
        };
        g.advance_fresh()?;
        Ok(g)
    }

    fn advance_fresh(&mut self) -> Result<(), ApplyError> {
        match vm::run(&self.rules, &mut self.state).map_err(ApplyError::Runtime)? {
            Exit::Failed(m) => {
                let (msg, span) = self.rules.messages[m as usize].clone();
                Err(ApplyError::Runtime(RuntimeError {
                    message: format!("requirement failed with no decision to undo: {msg}"),
                    span,
                }))
            }
            _ => Ok(()),
        }
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
    pub fn history(&self) -> &[String] {
        &self.log
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
            Status::Waiting { choice, .. } => Some(self.rules.choices[choice as usize].span),
            _ => None,
        }
    }

    fn option_name(&self, arm: u16, value: i64) -> Arc<str> {
        let Status::Waiting { choice, .. } = self.state.status else {
            return Arc::from("");
        };
        let def = &self.rules.choices[choice as usize].arms[arm as usize];
        match &def.name {
            Some(n) => n.clone(),
            None => self.rules.label(&def.ty, value, self.state.nplayers),
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

    fn compute(&mut self) -> Result<(), ApplyError> {
        if self.pending.is_some() {
            return Ok(());
        }
        self.check_names()?;
        let full = if self.check_legal {
            Some(self.try_options(false)?)
        } else {
            None
        };
        let pending = self.try_options(true)?;
        if let Some(full) = full {
            self.compare_full(&pending, &full)?;
        }
        self.pending = Some(pending);
        Ok(())
    }

    /// Two options of one choice must not share a name (checked only where
    /// the arms allow it, see [`crate::ir::ruleset::ChoiceDef`]).
    fn check_names(&self) -> Result<(), ApplyError> {
        let Status::Waiting { choice, .. } = self.state.status else {
            return Ok(());
        };
        if !self.rules.choices[choice as usize].names_may_clash {
            return Ok(());
        }
        let options = &self.state.vm.options;
        let names: Vec<Arc<str>> = options
            .iter()
            .map(|(a, v)| self.option_name(*a, *v))
            .collect();
        let mut seen = std::collections::HashSet::with_capacity(names.len());
        if let Some(n) = names.iter().find(|n| !seen.insert(&***n)) {
            return Err(ApplyError::Runtime(RuntimeError {
                message: format!("two options of this choice are both named `{n}`"),
                span: self.prompt_span().unwrap_or_default(),
            }));
        }
        Ok(())
    }

    /// Tries every option in place (undone after): legal ones with what
    /// applying them takes, refused ones with their reasons. With `cut`,
    /// an option's run stops at a `legal;`.
    fn try_options(&mut self, cut: bool) -> Result<Pending, ApplyError> {
        let n = self.state.vm.options.len();
        let mut legal = Vec::with_capacity(n);
        let mut refused = Vec::new();
        let saved_cut = std::mem::replace(&mut self.state.cut_at_legal, cut);
        // A try leaves the pending options as they were (see `begin_try`).
        for i in 0..n {
            let (arm, value) = self.state.vm.options[i];
            // Refused while collected (tried in full when checking).
            let screened = self.state.vm.screened.refusal(&self.rules, i, value);
            if let Some(m) = screened.filter(|_| cut) {
                refused.push((arm, value, Why::Message(m)));
                continue;
            }
            match self.try_option(arm, value) {
                Ok(Ok(next)) => {
                    let name = self.option_name(arm, value);
                    legal.push((Decision { name, arm, value }, next));
                }
                Ok(Err(why)) => refused.push((arm, value, why)),
                Err(e) => {
                    self.state.cut_at_legal = saved_cut;
                    return Err(e);
                }
            }
        }
        self.state.cut_at_legal = saved_cut;
        Ok(Pending { legal, refused })
    }

    /// Tries one option in place and undoes it: what applying it takes, or
    /// why it is refused.
    fn try_option(&mut self, arm: u16, value: i64) -> Result<Result<Next, Why>, ApplyError> {
        if let Some(exit) = light_try(&self.rules, &mut self.state, arm, value) {
            return exit.map(|r| r.map(Next::Rerun));
        }
        let mark = self.state.begin_try();
        vm::resume(&mut self.state, arm, value);
        let verdict = match vm::run(&self.rules, &mut self.state) {
            Ok(Exit::Failed(m)) => Ok(Err(Why::Message(m))),
            Ok(Exit::Decide) => {
                dead_end(&self.rules, &mut self.state, LOOKAHEAD).map(|r| r.map_or(Ok(None), Err))
            }
            Ok(Exit::Legal(m)) => Ok(Ok(Some(Next::Rerun(m)))),
            Ok(Exit::Over) => Ok(Ok(None)),
            Err(e) => Err(ApplyError::Runtime(e)),
        };
        let verdict = verdict.map(|v| v.map(|next| next.unwrap_or(Next::Run)));
        self.state.end_try(mark);
        verdict
    }

    /// The check of `legal;`: an option legal when runs stop at `legal;`
    /// must also be legal when run in full; and the options refused, by
    /// requirements checked on whole sets or by their runs, must be those
    /// refused in full, for the same reasons.
    fn compare_full(&self, cut: &Pending, full: &Pending) -> Result<(), ApplyError> {
        let reasons = |p: &Pending| -> Vec<(u16, i64, (String, Span))> {
            p.refused
                .iter()
                .map(|(arm, value, why)| (*arm, *value, why.text(&self.rules)))
                .collect()
        };
        let (a, b) = (reasons(cut), reasons(full));
        if let Some((arm, value, (why, span))) = a.iter().find(|r| !b.contains(r)) {
            return Err(ApplyError::Runtime(RuntimeError {
                message: format!(
                    "the option `{}` is refused ({why}) but not so when run in full",
                    self.option_name(*arm, *value)
                ),
                span: *span,
            }));
        }
        for (d, next) in &cut.legal {
            if full
                .legal
                .iter()
                .any(|(f, _)| (f.arm, f.value) == (d.arm, d.value))
            {
                continue;
            }
            let why = full
                .refused
                .iter()
                .find(|(arm, value, _)| (*arm, *value) == (d.arm, d.value))
                .map_or(String::new(), |(_, _, why)| {
                    format!(": {}", why.text(&self.rules).0)
                });
            let span = match next {
                Next::Rerun(m) => self.rules.messages[*m as usize].1,
                Next::Run => self.prompt_span().unwrap_or_default(),
            };
            return Err(ApplyError::Runtime(RuntimeError {
                message: format!(
                    "`legal;` declared the option `{}` legal, but run in full it is refused{why}",
                    d.name
                ),
                span,
            }));
        }
        Ok(())
    }

    /// The legal decisions at the current choice point (empty when over).
    pub fn legal(&mut self) -> Result<Vec<Decision>, ApplyError> {
        if self.is_over() {
            return Ok(Vec::new());
        }
        self.compute()?;
        let p = self.pending.as_ref().expect("computed");
        if p.legal.is_empty() {
            let span = self.prompt_span().unwrap_or_default();
            let why: Vec<String> = p
                .refused
                .iter()
                .map(|(arm, value, why)| {
                    let name = self.option_name(*arm, *value);
                    format!("{name}: {}", why.text(&self.rules).0)
                })
                .collect();
            return Err(ApplyError::Runtime(RuntimeError {
                message: format!(
                    "dead end: no legal option at this choice{}",
                    if why.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", why.join("; "))
                    }
                ),
                span,
            }));
        }
        Ok(p.legal.iter().map(|(d, _)| d.clone()).collect())
    }

    /// The options offered but refused, with their reasons.
    pub fn refused(&mut self) -> Result<Vec<Refused>, ApplyError> {
        if self.is_over() {
            return Ok(Vec::new());
        }
        self.compute()?;
        let p = self.pending.as_ref().expect("computed");
        Ok(p.refused
            .iter()
            .map(|(arm, value, why)| {
                let (reason, span) = why.text(&self.rules);
                Refused {
                    name: self.option_name(*arm, *value).to_string(),
                    reason,
                    span,
                }
            })
            .collect())
    }

    /// Applies the `index`-th legal decision.
    pub fn apply(&mut self, index: usize) -> Result<(), ApplyError> {
        if self.is_over() {
            return Err(ApplyError::Over);
        }
        self.compute()?;
        let p = self.pending.take().expect("computed");
        let Some((d, next)) = p.legal.into_iter().nth(index) else {
            return Err(ApplyError::Unknown {
                name: format!("#{index}"),
                legal: String::new(),
            });
        };
        match next {
            Next::Run => self.run_again(&d)?,
            Next::Rerun(m) => self.rerun(&d, m)?,
        }
        self.log.push(d.name.to_string());
        Ok(())
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
        let p = self.pending.as_ref().expect("computed");
        let refused = p
            .refused
            .iter()
            .find(|(arm, value, _)| &*self.option_name(*arm, *value) == name);
        if let Some((_, _, why)) = refused {
            return Err(ApplyError::Refused {
                name: name.into(),
                reason: why.text(&self.rules).0,
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

    /// Applies a decision whose check ran to the next decision: the same
    /// run again, kept as it goes (no undo is prepared).
    fn run_again(&mut self, d: &Decision) -> Result<(), ApplyError> {
        let saved_cut = std::mem::replace(&mut self.state.cut_at_legal, false);
        vm::resume(&mut self.state, d.arm, d.value);
        let exit = vm::run(&self.rules, &mut self.state);
        self.state.cut_at_legal = saved_cut;
        match exit.map_err(ApplyError::Runtime)? {
            Exit::Failed(m) => {
                let (msg, span) = self.rules.messages[m as usize].clone();
                Err(ApplyError::Runtime(RuntimeError {
                    message: format!(
                        "the option `{}` was legal when checked but its run again is refused \
                         ({msg}): the rules do not replay the same way",
                        d.name
                    ),
                    span,
                }))
            }
            _ => Ok(()),
        }
    }

    /// Applies a decision whose check stopped at the `legal;` of message
    /// `m`: runs it in full. The rules promised it is legal; if it is not,
    /// the state stays as it was and the broken promise is reported.
    fn rerun(&mut self, d: &Decision, m: u32) -> Result<(), ApplyError> {
        let mark = self.state.begin_try();
        let saved_cut = std::mem::replace(&mut self.state.cut_at_legal, false);
        vm::resume(&mut self.state, d.arm, d.value);
        let exit = vm::run(&self.rules, &mut self.state);
        self.state.cut_at_legal = saved_cut;
        let broken = match exit {
            Ok(Exit::Failed(f)) => Some(self.rules.messages[f as usize].0.clone()),
            Ok(Exit::Decide) if self.state.vm.options.is_empty() => {
                Some("it leads to a choice with no option".into())
            }
            Ok(_) => None,
            Err(e) => {
                self.state.end_try(mark);
                return Err(ApplyError::Runtime(e));
            }
        };
        if let Some(why) = broken {
            self.state.end_try(mark);
            return Err(ApplyError::Runtime(RuntimeError {
                message: format!(
                    "`legal;` declared the option `{}` legal, but it is refused: {why}",
                    d.name
                ),
                span: self.rules.messages[m as usize].1,
            }));
        }
        self.state.keep_try(mark);
        Ok(())
    }

    /// The result, once the game is over.
    pub fn outcome(&mut self) -> Result<Option<Outcome>, ApplyError> {
        if !self.is_over() {
            return Ok(None);
        }
        let rules = self.rules.clone();
        let mut keys = Vec::new();
        for p in 0..self.state.nplayers {
            let mut k = Vec::new();
            for f in &rules.score {
                let v = vm::eval(&rules, &mut self.state, *f, vec![Value::I(p as i64)])
                    .map_err(ApplyError::Runtime)?;
                k.push(v.int());
            }
            keys.push(k);
        }
        let best = keys.iter().max().cloned().unwrap_or_default();
        let winners = (0..keys.len()).filter(|p| keys[*p] == best).collect();
        Ok(Some(Outcome { keys, winners }))
    }

    /// The round counter, if the ruleset declares one.
    pub fn rounds(&self) -> Option<i64> {
        self.rules
            .round_var
            .map(|v| self.state.words[self.rules.vars[v as usize].offset])
    }

    /// Evaluates a compiled function (scenario assertions) on the state.
    pub fn eval(&mut self, func: u32) -> Result<Value, RuntimeError> {
        let rules = self.rules.clone();
        vm::eval(&rules, &mut self.state, func, Vec::new())
    }

    /// The state as `seat` may see it: one line per variable element.
    pub fn view(&self, seat: Option<usize>) -> Vec<String> {
        crate::engine::view::render(&self.rules, &self.state, seat)
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

/// Why every way on from `st` (a state waiting for a decision) breaks a
/// requirement, or `None` if one way on is sound. Looks ahead through the
/// same player's decisions, `depth` levels at most. Each way is tried in
/// place and undone: `st` is as it was when this returns.
fn dead_end(rules: &Ruleset, st: &mut State, depth: usize) -> Result<Option<Why>, ApplyError> {
    let me = st.status_player();
    // The reason of the refused option with the highest index, whatever
    // order the search took.
    let mut last: Option<(usize, Why)> = None;
    let mut note = |i: usize, why: Option<Why>| {
        if let Some(w) = why {
            if last.is_none_or(|(j, _)| j < i) {
                last = Some((i, w));
            }
        }
    };
    let n = st.vm.options.len();
    let has_quick = choice_arms(rules, st).iter().any(|a| a.quick);
    // The quick options first (when there are any), then the others.
    let passes: &[bool] = if has_quick { &[true, false] } else { &[false] };
    for (pass, i) in passes
        .iter()
        .flat_map(|p| (0..n).rev().map(move |i| (*p, i)))
    {
        if has_quick && is_quick(rules, st, i) != pass {
            continue;
        }
        let (arm, value) = st.vm.options[i];
        let screened = st.vm.screened.refusal(rules, i, value);
        if let Some(m) = screened.filter(|_| st.cut_at_legal) {
            note(i, Some(Why::Message(m)));
            continue;
        }
        if let Some(exit) = light_try(rules, st, arm, value) {
            match exit? {
                Ok(_) => return Ok(None),
                Err(r) => note(i, Some(r)),
            }
            continue;
        }
        let mark = st.begin_try();
        vm::resume(st, arm, value);
        let found = try_way(rules, st, me, depth);
        st.end_try(mark);
        match found? {
            None => return Ok(None),
            Some(r) => note(i, r),
        }
    }
    // Every way on fails: the reason given is the one of the last option,
    // whatever order the search took.
    let first_reason = last.map(|(_, w)| w);
    let span = match st.status {
        Status::Waiting { choice, .. } => rules.choices[choice as usize].span,
        _ => Span::default(),
    };
    Ok(Some(first_reason.unwrap_or(Why::NoOption(span))))
}

/// Tries an option of a light arm (see [`crate::ir::ruleset::ArmDef::light`])
/// by running only its pure prefix, in place, in the frame of the
/// `choose`: `Ok(message of the legal;)` when it reaches `legal;`,
/// `Err(reason)` when it is refused. `None` for any other arm, or when
/// runs are not cut at `legal;` (the full check).
#[allow(clippy::type_complexity)]
fn light_try(
    rules: &Ruleset,
    st: &mut State,
    arm: u16,
    value: i64,
) -> Option<Result<Result<u32, Why>, ApplyError>> {
    if !st.cut_at_legal {
        return None;
    }
    let Status::Waiting { choice, .. } = st.status else {
        return None;
    };
    let light = rules.choices[choice as usize]
        .arms
        .get(arm as usize)?
        .light?;
    let frame = st.vm.frames.last()?.clone();
    let height = st.vm.stack.len();
    if let Some(slot) = light.bind {
        st.vm.stack[frame.base as usize + slot as usize] = Value::I(value);
    }
    set_pc(st, light.start);
    let status = std::mem::replace(&mut st.status, Status::Running);
    let recording = std::mem::replace(&mut st.recording, true);
    let exit = vm::run(rules, st);
    st.recording = recording;
    st.status = status;
    st.vm.stack.truncate(height);
    set_pc(st, frame.pc);
    Some(match exit {
        Ok(Exit::Legal(m)) => Ok(Ok(m)),
        Ok(Exit::Failed(m)) => Ok(Err(Why::Message(m))),
        Ok(_) => Err(ApplyError::Runtime(RuntimeError {
            message: "an option's prefix ended before its `legal;`".into(),
            span: rules.choices[choice as usize].span,
        })),
        Err(e) => Err(ApplyError::Runtime(e)),
    })
}

fn set_pc(st: &mut State, pc: u32) {
    if let Some(f) = st.vm.frames.last_mut() {
        f.pc = pc;
    }
}

/// Runs one way on (an option just resumed in `st`): `None` when it is
/// sound, else the refusal it met, if any.
#[allow(clippy::type_complexity)]
fn try_way(
    rules: &Ruleset,
    st: &mut State,
    me: Option<usize>,
    depth: usize,
) -> Result<Option<Option<Why>>, ApplyError> {
    match vm::run(rules, st).map_err(ApplyError::Runtime)? {
        Exit::Failed(m) => Ok(Some(Some(Why::Message(m)))),
        Exit::Decide if st.vm.options.is_empty() => Ok(Some(None)),
        Exit::Decide if depth > 0 && st.status_player() == me => {
            Ok(dead_end(rules, st, depth - 1)?.map(Some))
        }
        Exit::Decide | Exit::Over | Exit::Legal(_) => Ok(None),
    }
}

/// The arms of the choice `st` waits at (none when it waits for nothing).
fn choice_arms<'r>(rules: &'r Ruleset, st: &State) -> &'r [crate::ir::ruleset::ArmDef] {
    match st.status {
        Status::Waiting { choice, .. } => &rules.choices[choice as usize].arms,
        _ => &[],
    }
}

/// Whether the `i`-th option of the choice `st` waits at is quick (a
/// `pass`, a `done`): the look-ahead tries those first, as they usually
/// end a player's sequence at once; then the others, later arms first
/// (often the ones that end a sequence). Only the time the look-ahead
/// takes depends on this order, never its answer.
fn is_quick(rules: &Ruleset, st: &State, i: usize) -> bool {
    let arm = st.vm.options[i].0 as usize;
    choice_arms(rules, st).get(arm).is_some_and(|a| a.quick)
}

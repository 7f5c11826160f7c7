//! The checked, resolved form of a ruleset: what the engine runs.

use std::sync::Arc;

use crate::ir::bytecode::{BinaryOp, Func, FuncId, KindId, VarId};
use crate::ir::cells::Grid;
use crate::ir::span::{SourceMap, Span};
pub use crate::ir::types::{Ty, PLAYER};

/// Who may see a state variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Visibility {
    /// Everyone.
    Public,
    /// Only the player of its first index.
    Private,
    /// No player.
    Hidden,
}

/// Cells of a grid that one step in a direction moves by the same number
/// of item indices (all of them on squares; on hexes, the odd rows and the
/// even rows apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shift {
    /// The cells that move by `by` (and have a cell there).
    pub from: Vec<u64>,
    /// How many item indices they move (negative: towards lower indices).
    pub by: i64,
}

/// In [`Kind::toward`], no cell (off the grid).
pub const NO_CELL: u32 = u32::MAX;

/// A kind of component, with its items and their data.
#[derive(Debug, Clone)]
pub struct Kind {
    /// Its name.
    pub name: String,
    /// Its items' ids, in declaration order (players: seat names).
    pub items: Vec<String>,
    /// Its fields.
    pub fields: Vec<FieldDef>,
    /// `data[item][field]`.
    pub data: Vec<Vec<Data>>,
    /// Where it was declared.
    pub span: Span,
    /// For a grid of cells: its shape and size.
    pub grid: Option<Grid>,
    /// For a grid: the neighbours of each cell.
    pub adjacent: Vec<Vec<u32>>,
    /// For a grid: `toward[d][c]` is the cell one step from cell `c` in
    /// direction `d` ([`NO_CELL`] off the grid).
    pub toward: Vec<Vec<u32>>,
    /// For a grid: moving a set of cells one step in direction `d` is
    /// shifting, for each part of `shifts[d]`, the set's cells in that
    /// part's mask by its distance (see `ir::grid::shift_toward`).
    pub shifts: Vec<Vec<Shift>>,
    /// For a grid of at most 1024 cells: the neighbours of each cell as a
    /// set of the grid's cells, `ir::grid::mask_words` words a cell (see
    /// `ir::grid::finish_kind`); empty otherwise.
    pub around: Vec<u64>,
    /// For each boolean or item field, the items by the field's value:
    /// `field_sets[f][v]` is the set of items whose field `f` is `v` (for
    /// other fields, no sets). Filled by [`Kind::index_fields`]. Plain
    /// words: a ruleset is shared between threads, which sets are not.
    pub field_sets: Vec<Vec<Vec<u64>>>,
}

impl Kind {
    /// Fills [`Kind::field_sets`] from the data (`kinds` gives the sizes
    /// of the kinds item fields refer to).
    pub fn index_fields(&mut self, sizes: &[usize]) {
        let words = self.items.len().div_ceil(64).max(1);
        self.field_sets = self
            .fields
            .iter()
            .enumerate()
            .map(|(f, fd)| {
                let values = match fd.ty {
                    Ty::Bool => 2,
                    Ty::Ent(k) => sizes.get(k as usize).copied().unwrap_or(0),
                    _ => 0,
                };
                let mut sets = vec![vec![0u64; words]; values];
                for (i, row) in self.data.iter().enumerate() {
                    if let Some(set) = usize::try_from(row[f].int())
                        .ok()
                        .and_then(|v| sets.get_mut(v))
                    {
                        set[i / 64] |= 1 << (i % 64);
                    }
                }
                sets
            })
            .collect();
    }
}

/// A field of a kind.
#[derive(Debug, Clone)]
pub struct FieldDef {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Whether items may omit it (it then defaults to zero, false, none or empty).
    pub optional: bool,
    /// Where it was declared.
    pub span: Span,
}

/// A data value from YAML.
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    /// An integer, boolean, item, or procedure reference.
    Int(i64),
    /// An array or table: dense, indexed by integer or item index.
    Ints(Vec<i64>),
    /// Text.
    Text(String),
}

impl Data {
    /// The scalar value (0 for compound data).
    pub fn int(&self) -> i64 {
        match self {
            Data::Int(v) => *v,
            _ => 0,
        }
    }

    /// `self[key]`, 0 when out of range.
    pub fn at(&self, key: i64) -> i64 {
        self.at_or(key, 0)
    }

    /// `self[key]`, `default` when out of range.
    pub fn at_or(&self, key: i64, default: i64) -> i64 {
        match self {
            Data::Ints(v) if key >= 0 => v.get(key as usize).copied().unwrap_or(default),
            _ => default,
        }
    }
}

/// A named parameter from YAML `params:`.
#[derive(Debug, Clone)]
pub struct ParamDef {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Its value.
    pub data: Data,
    /// Where it was declared.
    pub span: Span,
}

/// One dimension of a state variable.
#[derive(Debug, Clone)]
pub struct DimDef {
    /// The kind indexing it, or `None` for an integer range.
    pub kind: Option<KindId>,
    /// The lowest index.
    pub lo: i64,
    /// The number of slots.
    pub size: usize,
}

/// A state variable.
#[derive(Debug, Clone)]
pub struct VarDef {
    /// Its name.
    pub name: String,
    /// Its dimensions.
    pub dims: Vec<DimDef>,
    /// The type of each element.
    pub ty: Ty,
    /// Who may see it.
    pub visibility: Visibility,
    /// First word in the state.
    pub offset: usize,
    /// Words per element.
    pub elem_words: usize,
    /// The function computing its initial value, if any.
    pub init: Option<FuncId>,
    /// Where it was declared.
    pub span: Span,
}

impl VarDef {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.dims.iter().map(|d| d.size).product()
    }

    /// Whether it has no element (a dimension of size 0).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One arm of a decision point, as the engine names its options.
#[derive(Debug, Clone)]
pub struct ArmDef {
    /// The option name for a named arm.
    pub name: Option<Arc<str>>,
    /// The type of the bound value for a per-element arm.
    pub ty: Ty,
    /// A named option always offered whose body calls no procedure and
    /// asks for no decision (a `pass`, a `done`): the look-ahead tries
    /// such options first, as they usually end a player's sequence at once.
    pub quick: bool,
    /// Set when the arm is decided by a pure prefix ending at `legal;`: the
    /// look-ahead then runs only that prefix, without preparing an undo.
    pub light: Option<LightArm>,
    /// The messages of the requirements the arm starts with that are
    /// checked on whole sets while its options are collected: an option
    /// breaking one is refused without being tried. The light try of the
    /// others starts after them.
    pub screen: Vec<u32>,
    /// Set when the light try (after the screened requirements) is only
    /// requirements with a native form on the whole set of the arm's
    /// options, then `legal;`: a full listing judges the options with one
    /// pass over the board instead of a try each, and the look-ahead
    /// judges one without running its prefix.
    pub whole: Option<Box<WholeArm>>,
}

/// The light try of an arm written as requirements on the whole set of
/// its options (see [`ArmDef::whole`]).
#[derive(Debug, Clone)]
pub struct WholeArm {
    /// The requirements, in the order written.
    pub reqs: Vec<GroupsReq>,
    /// The message of the `legal;` they lead to.
    pub legal: u32,
}

/// The requirement `groups_around(x, cells, marked) cmp bound` on the
/// option `x`, its sets read from the choosing frame or the state.
#[derive(Debug, Clone, Copy)]
pub struct GroupsReq {
    /// The grid kind.
    pub kind: KindId,
    /// The set of cells whose groups are counted.
    pub cells: SetAt,
    /// The marked set, when given.
    pub marked: Option<SetAt>,
    /// The comparison of the count with `bound`.
    pub cmp: BinaryOp,
    /// The number the count is compared with.
    pub bound: i64,
    /// The requirement's message.
    pub msg: u32,
}

/// Where a set operand of a [`GroupsReq`] is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetAt {
    /// A local of the frame waiting at the choice.
    Local(u16),
    /// A set variable of the state without indices.
    Var(VarId),
}

/// Where the pure prefix of an arm starts (see [`ArmDef::light`]).
#[derive(Debug, Clone, Copy)]
pub struct LightArm {
    /// Its first instruction, in the function holding the `choose`.
    pub start: u32,
    /// The local that receives the option's value (per-element arms).
    pub bind: Option<u16>,
}

/// Words of a game's state (8 bytes each: 128 MiB): every variable's
/// entries (a set of a kind of N items takes N / 64 words, a list N + 1).
/// The loader refuses a ruleset whose variables need more; the engine,
/// a ruleset made otherwise.
pub const MAX_STATE_WORDS: usize = 1 << 24;

/// Options one decision may offer: a `choose` over a range of a billion
/// numbers is refused (at load time when its bounds are written out, else
/// while playing), not a billion options in memory.
pub const MAX_OPTIONS: usize = 100_000;

/// A decision point (`choose`).
#[derive(Debug, Clone)]
pub struct ChoiceDef {
    /// The prompt.
    pub prompt: String,
    /// Its arms.
    pub arms: Vec<ArmDef>,
    /// Where it was written.
    pub span: Span,
    /// Whether two of its options may show the same name, which is then
    /// checked each time the choice is reached (see `names_may_clash` in
    /// the compiler).
    pub names_may_clash: bool,
    /// Whether every option it offers is legal without being run: each
    /// arm is light, screens no requirement and its pure prefix starts
    /// with `legal;` (found once the code is final, see
    /// `model::load::untried`). The look-ahead takes such a choice, when
    /// it offers an option, as a way on at once: what trying its first
    /// option would find, for the same one way and no step.
    pub legal_untried: bool,
}

/// A loaded, checked ruleset.
#[derive(Debug, Clone)]
pub struct Ruleset {
    /// Short id (the directory name).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Variants applied, in order (names, or paths as given).
    pub variants: Vec<String>,
    /// A hash of each variant file's text (16 hex digits), in the order
    /// of `variants`.
    pub variant_hashes: Vec<String>,
    /// Parameters set from outside (`--set NAME=VALUE`), in order.
    pub overrides: Vec<(String, String)>,
    /// Fewest players.
    pub min_players: usize,
    /// Most players.
    pub max_players: usize,
    /// Variants a game of a given player count is played with
    /// (`variants_by_players:` in `game.yaml`), by player count.
    pub variants_by_players: Vec<(usize, Vec<String>)>,
    /// Kinds; index 0 is `player`.
    pub kinds: Vec<Kind>,
    /// Parameters.
    pub params: Vec<ParamDef>,
    /// State variables.
    pub vars: Vec<VarDef>,
    /// Compiled functions and procedures. Not writable outside the crate:
    /// the interpreter runs them unchecked on the stack heights the loader
    /// proved (`ir::verify`), which a change made after the proof would
    /// falsify; read them through [`Ruleset::funcs`].
    pub(crate) funcs: Vec<Func>,
    /// Decision points.
    pub choices: Vec<ChoiceDef>,
    /// Texts of `require ... else "..."` and `fail "..."`, with their spans.
    pub messages: Vec<(String, Span)>,
    /// By message: whether the run on from every `legal;` of it can never
    /// be refused (set by the loader once the code is final; see
    /// [`Ruleset::legal_is_sure`]).
    pub(crate) legal_sure: Vec<bool>,
    /// The game program.
    pub main: FuncId,
    /// Score keys, compared left to right.
    pub score: Vec<FuncId>,
    /// Metrics (`metric name[(p)] = e;`), read once a game is over.
    pub metrics: Vec<MetricDef>,
    /// Named endings (`ending "reason" [when c];`), in declaration order.
    pub endings: Vec<EndingDef>,
    /// State size in words.
    pub state_words: usize,
    /// The round counter reported by simulations, if declared.
    pub round_var: Option<VarId>,
    /// The variable naming the start player, if the ruleset declares one.
    pub first_player_var: Option<VarId>,
    /// Every file read.
    pub sources: SourceMap,
    /// Names of procedures, for looking up entry points.
    pub proc_names: Vec<(String, FuncId)>,
    /// Every global name, for compiling snippets (scenarios) later.
    pub symbols: crate::ir::symbols::Symbols,
    /// Signatures of the functions and procedures declared in rules files.
    pub sigs: Vec<crate::ir::symbols::Sig>,
    /// Whether games check every `legal;` they reach by also running the
    /// options in full (set by tools before play; off after loading).
    pub check_legal: bool,
    /// Display names shared by every decision that shows them.
    pub labels: Labels,
    /// The declared view (`view.yaml`), if any.
    pub view: Option<crate::ir::view::ViewDecl>,
}

/// The display names of items and small integers, made once so that
/// naming the options of a decision allocates nothing.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    items: Vec<Vec<Arc<str>>>,
    ints: Vec<Arc<str>>,
}

/// Small integers with a shared display name.
const SHARED_INTS: i64 = 256;

impl Labels {
    /// The names of every item of `kinds`, and of the integers 0 to 255.
    pub fn new(kinds: &[Kind]) -> Labels {
        Labels {
            items: kinds
                .iter()
                .map(|k| k.items.iter().map(|i| Arc::from(i.as_str())).collect())
                .collect(),
            ints: (0..SHARED_INTS).map(|i| Arc::from(i.to_string())).collect(),
        }
    }
}

impl Ruleset {
    /// The compiled functions and procedures, as the loader proved them.
    pub fn funcs(&self) -> &[Func] {
        &self.funcs
    }

    /// Whether the run on from the `legal;` of message `m` can never be
    /// refused: it reaches no requirement, no `fail`, and no choice but
    /// one that surely offers an option (the loader proved it, see
    /// `model::load::sure`). Applying an option declared legal there
    /// prepares no undo.
    pub fn legal_is_sure(&self, m: u32) -> bool {
        self.legal_sure.get(m as usize).copied().unwrap_or(false)
    }

    /// The variants a game of `players` needs that this ruleset was not
    /// loaded with (`variants_by_players:` in `game.yaml`), in order.
    pub fn missing_variants(&self, players: usize) -> Vec<String> {
        self.variants_by_players
            .iter()
            .filter(|(n, _)| *n == players)
            .flat_map(|(_, names)| names)
            .filter(|v| !self.variants.contains(v))
            .cloned()
            .collect()
    }

    /// The index of a variable by name.
    pub fn var_named(&self, name: &str) -> Option<VarId> {
        self.vars
            .iter()
            .position(|v| v.name == name)
            .map(|i| i as VarId)
    }

    /// The display name of a value of a type, shared when it can be.
    /// Inlined where options are named: the shared names are looked up in
    /// place, the others made out of line.
    #[inline]
    pub fn label(&self, ty: &Ty, value: i64, players: usize) -> Arc<str> {
        let shared = match ty {
            Ty::Ent(k) if *k != PLAYER || (0..players as i64).contains(&value) => {
                usize::try_from(value)
                    .ok()
                    .and_then(|v| self.labels.items.get(*k as usize)?.get(v))
            }
            Ty::Int => usize::try_from(value)
                .ok()
                .and_then(|v| self.labels.ints.get(v)),
            _ => None,
        };
        match shared {
            Some(l) => l.clone(),
            None => self.label_made(ty, value, players),
        }
    }

    /// The display name of a value without a shared one, made.
    #[inline(never)]
    fn label_made(&self, ty: &Ty, value: i64, players: usize) -> Arc<str> {
        Arc::from(self.display(ty, value, players))
    }

    /// The display name of a value of a type.
    pub fn display(&self, ty: &Ty, value: i64, players: usize) -> String {
        match ty {
            Ty::Bool => (value != 0).to_string(),
            Ty::Ent(k) => {
                if value < 0 {
                    return "none".into();
                }
                let kind = &self.kinds[*k as usize];
                if *k == crate::ir::ruleset::PLAYER && value as usize >= players {
                    return format!("p{}", value + 1);
                }
                kind.items
                    .get(value as usize)
                    .cloned()
                    .unwrap_or_else(|| format!("#{value}"))
            }
            Ty::Proc => self
                .funcs
                .get(value as usize)
                .map_or("none".into(), |f| f.name.clone()),
            _ => value.to_string(),
        }
    }
}

/// A metric: a measure of a finished game that simulations report. Its
/// function reads the state and changes nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricDef {
    /// Its name.
    pub name: String,
    /// One value per seat (`metric name(p) = ...`), else one per game.
    pub per_seat: bool,
    /// The function computing it: one player argument when per seat.
    pub func: FuncId,
}

/// A named ending: the first whose condition holds once the game is over
/// names why it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct EndingDef {
    /// The reason, as reports show it.
    pub reason: String,
    /// Its condition (`None`: always), a function of no argument.
    pub when: Option<FuncId>,
}

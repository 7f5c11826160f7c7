//! The builtins, one row each: what name resolution, type checking, code
//! generation, the reserved names and docs/LANGUAGE.md (checked by
//! tests/docs.rs) know of them.
//!
//! Adding a builtin is one row here (with, for a new instruction, its
//! [`Builtin`] and the interpreter's arm for it) and one row in the
//! documentation.

use crate::ir::bytecode::{Builtin, KindId, Op, VarId};
use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::PLAYER;
use crate::ir::symbols::RESERVED;
use crate::lang::ast::Ident;

/// What an argument of a builtin must be. Some bind a kind or a variable
/// that later parameters and the result refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamTy {
    /// An int.
    Int,
    /// A player.
    Player,
    /// A procedure reference (`proc`).
    Proc,
    /// A set of any kind (a kind or a list read as a set too); binds its kind.
    Set,
    /// An item of the bound set's kind, or `none`; binds its own kind.
    Item,
    /// An item of any kind.
    AnyItem,
    /// A list variable with its indices (a place, not a value); binds the
    /// variable and its items' kind.
    List,
    /// An item of the bound list's kind.
    ListItem,
    /// The name of a kind (not a value); binds it.
    Kind,
    /// The name of a grid kind (not a value); binds it.
    GridKind,
    /// The name of a one-dimensional state variable of scalars (not a
    /// value); binds it.
    Var1,
    /// An index of the bound variable.
    VarIndex,
    /// A cell of a grid kind; binds the grid kind.
    Cell,
    /// A set of cells: of the bound grid kind, or binds it.
    Cells,
    /// A cell or a set of cells of a grid kind; binds the grid kind.
    CellOrCells,
}

/// A parameter: its type, and how a type mistake names the argument.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// What the argument must be.
    pub ty: ParamTy,
    /// The argument in messages ("this argument", "the index").
    pub what: &'static str,
}

/// The type of a builtin's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returns {
    /// No value (a statement).
    Nothing,
    /// An int.
    Int,
    /// A player.
    Player,
    /// The set of the seated players.
    Players,
    /// An element of the bound set, or `none`.
    Element,
    /// An item of the bound kind.
    Item,
    /// A set of the bound kind.
    Set,
    /// What the grid argument was: a cell of the bound grid kind (or
    /// `none`), or a set of its cells.
    LikeCells,
}

/// What a builtin may do besides computing its value: anything but
/// `Pure` is for procedures only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Nothing.
    Pure,
    /// Draws from the game's random generator.
    Random,
    /// Changes a list variable.
    Lists,
    /// Changes a state variable.
    State,
    /// Runs a procedure.
    Procedure,
}

impl Effect {
    /// The mistake of a function calling a builtin with this effect:
    /// message and help (`None` for a pure one).
    pub fn in_function(self, name: &str) -> Option<(String, &'static str)> {
        let cannot = || format!("a function cannot call `{name}`");
        match self {
            Effect::Pure => None,
            Effect::Random => Some((cannot(), "randomness changes the state: use a `proc`")),
            Effect::Lists => Some((cannot(), "use a `proc` to change lists")),
            Effect::State => Some((cannot(), "use a `proc` to change the state")),
            Effect::Procedure => {
                Some(("a function cannot call a procedure".into(), "use a `proc`"))
            }
        }
    }
}

/// Where docs/LANGUAGE.md lists a builtin (and where an arity mistake
/// points).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doc {
    /// The table of the section Builtins.
    Builtins,
    /// The table of the section Grids.
    Grids,
}

/// How a call of the wrong shape is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mistake {
    /// By counting its arguments.
    Count,
    /// By this message at the call (with the row's help), whatever is
    /// wrong: the count or a named argument.
    Usage(&'static str),
}

/// How a builtin is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// Called with arguments: `min(a, b)`.
    Call,
    /// Named as a value: `nplayers`.
    Name,
}

/// The instructions a builtin compiles to, after its arguments.
#[derive(Debug, Clone)]
pub enum Form {
    /// [`Op::Builtin`] with the number of arguments.
    Builtin(Builtin),
    /// This instruction.
    Emit(Op),
    /// The instruction for the bound variable.
    OnVar(fn(VarId) -> Op),
    /// The instruction for the bound kind. Optional parameters left out
    /// are pushed as empty sets; whether all were given is the
    /// instruction's flag (`Op::GroupsAround`).
    OnKind(fn(KindId) -> Op),
    /// None: the argument is the value.
    Identity,
}

/// One builtin.
#[derive(Debug, Clone)]
pub struct BuiltinDef {
    /// Its name.
    pub name: &'static str,
    /// Called or named.
    pub used: Use,
    /// Its parameters.
    pub params: &'static [Param],
    /// How many of the last parameters may be left out.
    pub optional: usize,
    /// The type of its value.
    pub returns: Returns,
    /// What it may do besides (procedures only unless pure).
    pub effect: Effect,
    /// What it compiles to.
    pub form: Form,
    /// Where the documentation lists it.
    pub doc: Doc,
    /// How a call of the wrong shape is reported.
    pub mistake: Mistake,
    /// The help shown with a mistake of shape or of a named argument.
    pub help: &'static str,
}

const fn p(ty: ParamTy, what: &'static str) -> Param {
    Param { ty, what }
}

const INT: Param = p(ParamTy::Int, "this argument");
const PLAYER_ARG: Param = p(ParamTy::Player, "this argument");
const SET: Param = p(ParamTy::Set, "this argument");
const ITEM: Param = p(ParamTy::Item, "the item");
const LIST: Param = p(ParamTy::List, "the list");
const LIST_ITEM: Param = p(ParamTy::ListItem, "the item");

/// A pure builtin of the section Builtins, counted when miscalled.
const fn plain(
    name: &'static str,
    params: &'static [Param],
    returns: Returns,
    form: Form,
) -> BuiltinDef {
    BuiltinDef {
        name,
        used: Use::Call,
        params,
        optional: 0,
        returns,
        effect: Effect::Pure,
        form,
        doc: Doc::Builtins,
        mistake: Mistake::Count,
        help: "",
    }
}

/// A list builtin (all but `len` change the list).
const fn list(
    name: &'static str,
    params: &'static [Param],
    returns: Returns,
    effect: Effect,
    op: fn(VarId) -> Op,
) -> BuiltinDef {
    BuiltinDef {
        effect,
        ..plain(name, params, returns, Form::OnVar(op))
    }
}

/// A grid builtin.
const fn grid(
    name: &'static str,
    params: &'static [Param],
    returns: Returns,
    op: fn(KindId) -> Op,
) -> BuiltinDef {
    BuiltinDef {
        doc: Doc::Grids,
        ..plain(name, params, returns, Form::OnKind(op))
    }
}

/// Every builtin.
pub static BUILTINS: &[BuiltinDef] = &[
    plain("min", &[INT, INT], Returns::Int, Form::Builtin(Builtin::Min2)),
    plain("max", &[INT, INT], Returns::Int, Form::Builtin(Builtin::Max2)),
    plain("abs", &[INT], Returns::Int, Form::Builtin(Builtin::Abs)),
    plain("count", &[SET], Returns::Int, Form::Builtin(Builtin::Count)),
    plain("next", &[PLAYER_ARG], Returns::Player, Form::Builtin(Builtin::NextPlayer)),
    plain("prev", &[PLAYER_ARG], Returns::Player, Form::Builtin(Builtin::PrevPlayer)),
    BuiltinDef {
        effect: Effect::Random,
        ..plain("random", &[SET], Returns::Element, Form::Builtin(Builtin::Random))
    },
    BuiltinDef {
        effect: Effect::Random,
        ..plain("roll", &[INT], Returns::Int, Form::Builtin(Builtin::Roll))
    },
    plain("first", &[SET], Returns::Element, Form::Builtin(Builtin::First)),
    plain("with", &[SET, ITEM], Returns::Set, Form::Builtin(Builtin::With)),
    plain("without", &[SET, ITEM], Returns::Set, Form::Builtin(Builtin::Without)),
    BuiltinDef {
        mistake: Mistake::Usage("`nth` takes a kind and an index"),
        help: "write nth(kind, i): the i-th item of the kind (from 0), or none",
        ..plain(
            "nth",
            &[p(ParamTy::Kind, "the kind"), p(ParamTy::Int, "the index")],
            Returns::Item,
            Form::OnKind(Op::Nth),
        )
    },
    BuiltinDef {
        help: "ord(item) is the item's position in its kind, from 0",
        ..plain(
            "ord",
            &[p(ParamTy::AnyItem, "the item")],
            Returns::Int,
            Form::Identity,
        )
    },
    list("len", &[LIST], Returns::Int, Effect::Pure, Op::ListLen),
    list("shuffle", &[LIST], Returns::Nothing, Effect::Lists, Op::ListShuffle),
    list("draw", &[LIST], Returns::Item, Effect::Lists, Op::ListDraw),
    list("push", &[LIST, LIST_ITEM], Returns::Nothing, Effect::Lists, Op::ListPush),
    list("remove", &[LIST, LIST_ITEM], Returns::Nothing, Effect::Lists, Op::ListRemove),
    list("clear", &[LIST], Returns::Nothing, Effect::Lists, Op::ListClear),
    BuiltinDef {
        effect: Effect::Procedure,
        mistake: Mistake::Usage("`call` takes a procedure and a player"),
        help: "write call(item.action, p)",
        ..plain(
            "call",
            &[p(ParamTy::Proc, "the procedure"), p(ParamTy::Player, "the player")],
            Returns::Nothing,
            Form::Emit(Op::CallDyn(1)),
        )
    },
    BuiltinDef {
        effect: Effect::State,
        mistake: Mistake::Usage(
            "`rotate` takes a one-dimensional variable and the first and last index of the part that turns",
        ),
        help: "write rotate(wheel, first, last): each element moves one place up, the last to the first place",
        ..plain(
            "rotate",
            &[
                p(ParamTy::Var1, "the variable"),
                p(ParamTy::VarIndex, "the index"),
                p(ParamTy::VarIndex, "the index"),
            ],
            Returns::Nothing,
            Form::OnVar(Op::Rotate),
        )
    },
    BuiltinDef {
        used: Use::Name,
        ..plain("players", &[], Returns::Players, Form::Emit(Op::SetAll(PLAYER)))
    },
    BuiltinDef {
        used: Use::Name,
        ..plain("nplayers", &[], Returns::Int, Form::Builtin(Builtin::NumPlayers))
    },
    grid(
        "adjacent",
        &[p(ParamTy::CellOrCells, "the cells")],
        Returns::Set,
        Op::Adjacent,
    ),
    grid(
        "toward",
        &[
            p(ParamTy::CellOrCells, "the cells"),
            p(ParamTy::Int, "the direction"),
        ],
        Returns::LikeCells,
        Op::Toward,
    ),
    grid(
        "connected",
        &[
            p(ParamTy::CellOrCells, "the cells to start from"),
            p(ParamTy::Cells, "the cells to go through"),
        ],
        Returns::Set,
        Op::Connected,
    ),
    grid(
        "components",
        &[p(ParamTy::Cells, "the cells")],
        Returns::Int,
        Op::Components,
    ),
    BuiltinDef {
        help: "write cell(board, x, y)",
        ..grid(
            "cell",
            &[
                p(ParamTy::GridKind, "the grid"),
                p(ParamTy::Int, "a coordinate"),
                p(ParamTy::Int, "a coordinate"),
            ],
            Returns::Item,
            Op::GridCell,
        )
    },
    BuiltinDef {
        help: "write run_length(c, dx, dy, cells): the cells of `cells` after c, dx columns and dy rows at a time",
        ..grid(
            "run_length",
            &[
                p(ParamTy::Cell, "the cell"),
                p(ParamTy::Int, "a step"),
                p(ParamTy::Int, "a step"),
                p(ParamTy::Cells, "the cells"),
            ],
            Returns::Int,
            |k| Op::RunLength(k, false),
        )
    },
    BuiltinDef {
        optional: 1,
        ..grid(
            "groups_around",
            &[
                p(ParamTy::Cell, "the cell"),
                p(ParamTy::Cells, "a set of cells"),
                p(ParamTy::Cells, "a set of cells"),
            ],
            Returns::Int,
            |k| Op::GroupsAround(k, false),
        )
    },
];

/// The builtin of this name, however it is written.
pub fn find(name: &str) -> Option<&'static BuiltinDef> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// The builtin called by this name (`min(a, b)`).
pub fn called(name: &str) -> Option<&'static BuiltinDef> {
    find(name).filter(|b| b.used == Use::Call)
}

/// The builtin named as a value (`nplayers`).
pub fn named(name: &str) -> Option<&'static BuiltinDef> {
    find(name).filter(|b| b.used == Use::Name)
}

/// The kind a builtin value holds every seated item of (`players`), for
/// loops that count through the kind instead of building the set.
pub fn whole_kind(name: &str) -> Option<KindId> {
    named(name)
        .filter(|b| b.returns == Returns::Players)
        .map(|_| PLAYER)
}

/// The names of the builtins used as values, for "did you mean" help.
pub fn value_names() -> impl Iterator<Item = &'static str> {
    BUILTINS
        .iter()
        .filter(|b| b.used == Use::Name)
        .map(|b| b.name)
}

/// Whether calling the builtin of this name draws random numbers.
pub fn is_random(name: &str) -> bool {
    called(name).is_some_and(|b| b.effect == Effect::Random)
}

/// Whether this instruction's builtin draws random numbers.
pub fn draws_random(op: Builtin) -> bool {
    BUILTINS
        .iter()
        .any(|b| b.effect == Effect::Random && matches!(b.form, Form::Builtin(x) if x == op))
}

/// Whether the language keeps this name: one of its words or a builtin.
pub fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name) || find(name).is_some()
}

/// Checks a global name against the names the language defines (its
/// words and its builtins).
pub fn check_reserved(diags: &mut Diagnostics, name: &Ident) {
    let n = name.name.as_str();
    if is_reserved(n) && n != "main" {
        diags.push(
            Diagnostic::new(
                Code::ReservedName,
                name.span,
                format!("`{}` is a builtin name", name.name),
            )
            .help("choose another name"),
        );
    }
}

//! The abstract syntax tree of the rules language, every node with its span.

use crate::ir::bytecode::BinaryOp;
use crate::ir::span::Span;

/// A name with the place it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A whole `.rules` file.
#[derive(Debug, Clone, Default)]
pub struct File {
    /// Its items, in source order.
    pub items: Vec<Item>,
}

/// A top-level declaration.
#[derive(Debug, Clone)]
pub enum Item {
    /// `var name[dims]: type = init;`
    Var(VarDecl),
    /// `fn name(params) -> type = expr;`
    Fn(FnDecl),
    /// `proc name(params) [-> type] { ... }`
    Proc(ProcDecl),
    /// `score(p) = e1, e2;`
    Score(ScoreDecl),
    /// `metric name(p) = e;` or `metric name = e;`
    Metric(MetricDecl),
    /// `ending "reason" [when cond];`
    Ending(EndingDecl),
}

pub use crate::ir::ruleset::Visibility;

/// A state variable declaration.
#[derive(Debug, Clone)]
pub struct VarDecl {
    /// Who may see it.
    pub visibility: Visibility,
    /// Its name.
    pub name: Ident,
    /// Its dimensions, outermost first.
    pub dims: Vec<Dim>,
    /// Its element type.
    pub ty: TypeExpr,
    /// Its initial value (default: zero, false, none or empty).
    pub init: Option<Expr>,
    /// The whole declaration.
    pub span: Span,
}

/// One dimension of an array variable.
#[derive(Debug, Clone)]
pub enum Dim {
    /// A kind: one slot per item.
    Kind(Ident),
    /// An integer range `lo..hi` (half-open).
    Range(i64, i64, Span),
}

/// A pure function.
#[derive(Debug, Clone)]
pub struct FnDecl {
    /// Its name.
    pub name: Ident,
    /// Its parameters.
    pub params: Vec<Param>,
    /// Its result type.
    pub ret: TypeExpr,
    /// Its body.
    pub body: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// A procedure.
#[derive(Debug, Clone)]
pub struct ProcDecl {
    /// Its name.
    pub name: Ident,
    /// Its parameters.
    pub params: Vec<Param>,
    /// Its result type, if it returns a value.
    pub ret: Option<TypeExpr>,
    /// Its body.
    pub body: Block,
    /// The whole declaration.
    pub span: Span,
}

/// A parameter of a function or procedure.
#[derive(Debug, Clone)]
pub struct Param {
    /// Its name.
    pub name: Ident,
    /// Its type.
    pub ty: TypeExpr,
}

/// The score declaration.
#[derive(Debug, Clone)]
pub struct ScoreDecl {
    /// The player parameter.
    pub player: Ident,
    /// The components, compared left to right.
    pub keys: Vec<Expr>,
    /// The whole declaration.
    pub span: Span,
}

/// A metric: a measure read once the game is over, for simulations.
#[derive(Debug, Clone)]
pub struct MetricDecl {
    /// Its name.
    pub name: Ident,
    /// The player parameter of a per-seat metric (`None`: one per game).
    pub player: Option<Ident>,
    /// Its value (an integer or a condition, counted 1 or 0).
    pub value: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// A named way for the game to end.
#[derive(Debug, Clone)]
pub struct EndingDecl {
    /// The reason, as reports show it.
    pub reason: String,
    /// The condition that names this ending (`None`: always).
    pub when: Option<Expr>,
    /// The whole declaration.
    pub span: Span,
}

/// A written type.
#[derive(Debug, Clone)]
pub enum TypeExpr {
    /// `int`, `bool`, `text`, `proc` or a kind name.
    Name(Ident),
    /// `set<kind>`
    Set(Ident, Span),
    /// `list<kind>`
    List(Ident, Span),
    /// `[T]`, a fixed array (data only).
    Array(Box<TypeExpr>, Span),
    /// `{K: T}`, a table (data only).
    Map(Box<TypeExpr>, Box<TypeExpr>, Span),
}

impl TypeExpr {
    /// Where the type was written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Name(i) => i.span,
            TypeExpr::Set(_, s) | TypeExpr::List(_, s) | TypeExpr::Array(_, s) => *s,
            TypeExpr::Map(_, _, s) => *s,
        }
    }
}

/// A block of statements.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// The braces and everything between.
    pub span: Span,
}

/// A statement, with its span.
#[derive(Debug, Clone)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Debug, Clone)]
pub enum StmtKind {
    /// `let x[: T] = e;`
    Let(Ident, Option<TypeExpr>, Expr),
    /// `place op e;`
    Assign(Place, AssignOp, Expr),
    /// `if c { } else { }` (an `else if` is an `If` inside the else block).
    If(Expr, Block, Option<Block>),
    /// `while c { }`
    While(Expr, Block),
    /// `loop { }`
    Loop(Block),
    /// `for x in s [where c] { }`
    For(Binder, Block),
    /// `choose "prompt" by p { arms }`
    Choose(Choose),
    /// `require c [else "reason"];`
    Require(Expr, Option<String>),
    /// `fail "reason";`
    Fail(String),
    /// `legal;`: the option being tried is legal from here on.
    Legal,
    /// `return [e];`
    Return(Option<Expr>),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `e;`
    Expr(Expr),
}

/// An assignment operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssignOp {
    /// `=`
    Set,
    /// `+=`
    Add,
    /// `-=`
    Sub,
}

/// An assignable place.
#[derive(Debug, Clone)]
pub struct Place {
    /// The local or state variable.
    pub name: Ident,
    /// Its indices, if any.
    pub indices: Vec<Expr>,
    /// The whole place.
    pub span: Span,
}

/// `x in source [where cond]`.
#[derive(Debug, Clone)]
pub struct Binder {
    /// The bound name.
    pub var: Ident,
    /// What it ranges over.
    pub source: Source,
    /// The filter.
    pub filter: Option<Expr>,
    /// The whole binder.
    pub span: Span,
}

/// What a binder ranges over.
#[derive(Debug, Clone)]
pub enum Source {
    /// `lo..hi` or `lo..=hi`.
    Range(Expr, Expr, bool),
    /// A set, list or kind.
    Expr(Expr),
}

/// A decision point.
#[derive(Debug, Clone)]
pub struct Choose {
    /// The prompt shown to the player.
    pub prompt: Option<String>,
    /// Who decides.
    pub by: Expr,
    /// The options.
    pub arms: Vec<Arm>,
}

/// One arm of a `choose`.
#[derive(Debug, Clone)]
pub struct Arm {
    /// How the arm offers options.
    pub kind: ArmKind,
    /// What happens when one of its options is chosen.
    pub body: Block,
    /// The arm's head.
    pub span: Span,
}

/// How an arm offers options.
#[derive(Debug, Clone)]
pub enum ArmKind {
    /// One option, named, offered when the condition holds.
    Named(Ident, Option<Expr>),
    /// One option per element.
    Each(Binder),
}

/// An expression with its span.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `in`
    In,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (rounds toward negative infinity)
    Div,
    /// `%`
    Rem,
}

impl From<BinOp> for BinaryOp {
    fn from(op: BinOp) -> BinaryOp {
        match op {
            BinOp::Or => BinaryOp::Or,
            BinOp::And => BinaryOp::And,
            BinOp::Eq => BinaryOp::Eq,
            BinOp::Ne => BinaryOp::Ne,
            BinOp::Lt => BinaryOp::Lt,
            BinOp::Le => BinaryOp::Le,
            BinOp::Gt => BinaryOp::Gt,
            BinOp::Ge => BinaryOp::Ge,
            BinOp::In => BinaryOp::In,
            BinOp::Add => BinaryOp::Add,
            BinOp::Sub => BinaryOp::Sub,
            BinOp::Mul => BinaryOp::Mul,
            BinOp::Div => BinaryOp::Div,
            BinOp::Rem => BinaryOp::Rem,
        }
    }
}

/// An aggregate over a binder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregate {
    /// `sum(x in S: e)`
    Sum,
    /// `count(x in S where c)`
    Count,
    /// `min(x in S: e)`
    Min,
    /// `max(x in S: e)`
    Max,
    /// `any(x in S: c)`
    Any,
    /// `all(x in S: c)`
    All,
    /// `argmax(x in S: e)`: the set of elements with the greatest value.
    ArgMax,
    /// `argmin(x in S: e)`: the set of elements with the least value.
    ArgMin,
}

/// The kinds of expression.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// `none`: no item.
    None,
    /// A name: local, parameter, state variable, item, kind or parameter.
    Name(Ident),
    /// `e.field`
    Field(Box<Expr>, Ident),
    /// `e[i, j]`
    Index(Box<Expr>, Vec<Expr>),
    /// `f(args)`
    Call(Ident, Vec<Expr>),
    /// `-e`
    Neg(Box<Expr>),
    /// `not e`
    Not(Box<Expr>),
    /// `a op b`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `{a, b, c}`
    SetLit(Vec<Expr>),
    /// `{x in S where c}`
    SetBuild(Box<Binder>),
    /// `agg(x in S where c: e)`
    Aggregate(Aggregate, Box<Binder>, Option<Box<Expr>>),
}

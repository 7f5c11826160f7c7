//! pest → AST: parses rules files, expressions, statement lists and types.

use pest::iterators::Pair;
use pest::Parser as _;
use pest_derive::Parser;

use crate::ir::span::Span;
use crate::lang::ast::*;

/// The pest parser generated from `grammar/rules.pest`.
#[derive(Parser)]
#[grammar = "../grammar/rules.pest"]
pub struct RulesParser;

/// A syntax error: where, and what was expected there.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    /// Where parsing stopped.
    pub span: Span,
    /// Human names of what would have been accepted there.
    pub expected: Vec<String>,
    /// What was found instead.
    pub found: String,
    /// A more precise caret label, help line or note, when known.
    pub detail: Option<Box<SyntaxDetail>>,
}

/// What a syntax error can say beyond "expected X, found Y".
#[derive(Debug, Clone, Default)]
pub struct SyntaxDetail {
    /// The caret label, when more precise than "unexpected here".
    pub label: Option<String>,
    /// The help line, when more precise than "write <expected> here".
    pub help: Option<String>,
    /// Another place worth showing (e.g. the `{` left open).
    pub note: Option<(Span, String)>,
}

/// Parses `text` as `rule`; on failure, parses again collecting the literal
/// tokens (`;`, `}`...) that would have been accepted, for a better message.
fn parse_rule(rule: Rule, text: &str) -> Result<pest::iterators::Pairs<'_, Rule>, Error> {
    RulesParser::parse(rule, text).map_err(|e| {
        // Set once and never cleared: tests parse on several threads.
        pest::set_error_detail(true);
        RulesParser::parse(rule, text).err().unwrap_or(e)
    })
}

type Error = pest::error::Error<Rule>;

/// Maps byte offsets of the parsed text to offsets of the source file
/// (identity for whole files, a shift or a line map for text inside YAML).
pub type OffsetMap<'a> = &'a dyn Fn(usize) -> usize;

struct Ctx<'a> {
    file: u32,
    map: OffsetMap<'a>,
}

impl Ctx<'_> {
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, (self.map)(s.start()), (self.map)(s.end()))
    }
    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }
}

/// Parses a whole `.rules` file.
pub fn parse_file(file: u32, text: &str) -> Result<File, SyntaxError> {
    let map = |o| o;
    let ctx = Ctx { file, map: &map };
    let pairs = parse_rule(Rule::file, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let mut items = Vec::new();
    for pair in pairs.flatten().take(1) {
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::var_decl => items.push(Item::Var(var_decl(&ctx, item))),
                Rule::fn_decl => items.push(Item::Fn(fn_decl(&ctx, item))),
                Rule::proc_decl => items.push(Item::Proc(proc_decl(&ctx, item))),
                Rule::score_decl => items.push(Item::Score(score_decl(&ctx, item))),
                _ => {}
            }
        }
    }
    Ok(File { items })
}

/// Parses one expression (text embedded elsewhere, e.g. in YAML).
pub fn parse_expr(file: u32, text: &str, map: OffsetMap) -> Result<Expr, SyntaxError> {
    let ctx = Ctx { file, map };
    let mut pairs = parse_rule(Rule::expr_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("expr_only has one pair");
    let inner = top.into_inner().next().expect("expr_only holds an expr");
    Ok(expr(&ctx, inner))
}

/// Parses a list of statements (scenario programs).
pub fn parse_stmts(file: u32, text: &str, map: OffsetMap) -> Result<Vec<Stmt>, SyntaxError> {
    let ctx = Ctx { file, map };
    let mut pairs = parse_rule(Rule::stmts_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("stmts_only has one pair");
    Ok(top
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(|p| stmt(&ctx, p))
        .collect())
}

/// Parses a type (field types written in YAML).
pub fn parse_type(file: u32, text: &str, map: OffsetMap) -> Result<TypeExpr, SyntaxError> {
    let ctx = Ctx { file, map };
    let mut pairs = parse_rule(Rule::type_only, text).map_err(|e| syntax_error(&ctx, text, e))?;
    let top = pairs.next().expect("type_only has one pair");
    Ok(type_expr(&ctx, top.into_inner().next().expect("a type")))
}

/// Punctuation worth naming in a syntax error.
const PUNCT: &[&str] = &[";", "}", ")", "]", ",", "{", "=", ":", "=>", "->", "("];

fn syntax_error(ctx: &Ctx, text: &str, e: Error) -> SyntaxError {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let found = token_at(&text[pos..]);
    let end = pos + found.len().max(1).min(text.len().saturating_sub(pos));
    let mut expected: Vec<String> = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .map(|r| rule_name(*r).to_string())
            .collect(),
        pest::error::ErrorVariant::CustomError { message } => vec![message.clone()],
    };
    let punct: Vec<String> = e
        .parse_attempts()
        .filter(|a| a.max_position == pos)
        .map(|a| {
            a.expected_tokens()
                .iter()
                .map(|t| t.to_string())
                .filter(|t| PUNCT.contains(&t.as_str()))
                .collect()
        })
        .unwrap_or_default();
    expected.extend(punct.iter().map(|t| format!("`{t}`")));
    expected.sort();
    expected.dedup();
    let span = |a: usize, b: usize| Span::new(ctx.file, (ctx.map)(a), (ctx.map)(b));
    let found_text = found.clone();
    let found = if found.is_empty() {
        "the end of the text".to_string()
    } else {
        format!("`{found}`")
    };
    let mut err = SyntaxError {
        span: span(pos, end),
        expected,
        found,
        detail: None,
    };
    let before = text[..pos].trim_end();
    let has = |t: &str| punct.iter().any(|p| p == t);
    let starts_item = ["var", "private", "hidden", "fn", "proc", "score"]
        .iter()
        .any(|k| text[pos..].starts_with(k))
        || pos >= text.len();
    let open = if starts_item {
        unclosed_brace(&text[..pos])
    } else {
        None
    };
    let found = found_text;
    let unterminated = found.starts_with('"') && !found[1..].contains('"');
    let is_keyword = RulesParser::parse(Rule::keyword, &found)
        .is_ok_and(|p| p.as_str() == found && !found.is_empty());
    if let Some(open) = open {
        // A block left open: the next item (or the end) comes first.
        err.expected = vec!["`}`".into()];
        err.detail = Some(Box::new(SyntaxDetail {
            label: Some("expected `}` before this".into()),
            help: Some("close the block with `}`".into()),
            note: Some((span(open, open + 1), "this `{` is never closed".into())),
        }));
    } else if unterminated {
        err.detail = Some(Box::new(SyntaxDetail {
            label: Some("this string is never closed".into()),
            help: Some("end the string with `\"`".into()),
            note: None,
        }));
    } else if is_keyword && err.expected.iter().any(|e| e == "a name") {
        err.detail = Some(Box::new(SyntaxDetail {
            label: Some(format!("`{found}` is a keyword")),
            help: Some(format!(
                "keywords cannot be used as names: rename it (e.g. `{found}_`)"
            )),
            note: None,
        }));
    } else if has(";") && text[before.len()..pos].contains('\n') && !before.is_empty() {
        // A statement or declaration ends without `;` at the end of a line.
        let at = before.len();
        err.span = span(at, at);
        err.expected = vec!["`;`".into()];
        err.detail = Some(Box::new(SyntaxDetail {
            label: Some("`;` missing here".into()),
            help: Some("end the statement with `;`".into()),
            note: None,
        }));
    }
    err
}

/// The token at the start of `text`: a word, a string (to the end of its
/// line), a two-character operator or one character.
fn token_at(text: &str) -> String {
    let line = text.split('\n').next().unwrap_or("");
    let word = |c: char| c.is_alphanumeric() || c == '_';
    match line.chars().next() {
        None => String::new(),
        Some(c) if word(c) => line.chars().take_while(|&c| word(c)).take(30).collect(),
        Some('"') => match line[1..].find('"') {
            Some(i) => line[..i + 2].chars().take(30).collect(),
            None => line.trim_end().chars().take(30).collect(),
        },
        Some(c) => {
            const OPS: &[&str] = &["=>", "->", "==", "!=", "<=", ">=", "+=", "-=", "..", "//"];
            match OPS.iter().find(|op| line.starts_with(**op)) {
                Some(op) => op.to_string(),
                None => c.to_string(),
            }
        }
    }
}

/// The offset of the last `{` left open in `text` (skipping comments and strings).
fn unclosed_brace(text: &str) -> Option<usize> {
    let mut open = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
            }
            b'{' => open.push(i),
            b'}' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open.pop()
}

/// The human name of a grammar rule, used in syntax errors.
pub fn rule_name(rule: Rule) -> &'static str {
    use Rule::*;
    match rule {
        EOI => "end of input",
        file | item => "a declaration (`var`, `fn`, `proc` or `score`)",
        var_decl => "a variable declaration",
        fn_decl => "a function declaration",
        proc_decl => "a procedure declaration",
        score_decl => "a score declaration",
        visibility => "`private` or `hidden`",
        dims => "dimensions `[...]`",
        dim | range_dim => "a dimension (a kind or `0..N`)",
        params | param => "parameters",
        type_expr | set_type | list_type | array_type | map_type | proc_type | type_only => {
            "a type"
        }
        block => "a block `{ ... }`",
        stmt | stmts_only => "a statement",
        let_stmt => "`let`",
        assign_stmt => "an assignment",
        assign_op => "`=`, `+=` or `-=`",
        place => "a variable",
        if_stmt => "`if`",
        while_stmt => "`while`",
        loop_stmt => "`loop`",
        for_stmt => "`for`",
        binder => "`name in ...`",
        source | range_src => "a set, a list, a kind or a range",
        range_incl | range_excl => "`..` or `..=`",
        choose_stmt => "`choose`",
        choose_arm | named_arm | set_arm => "a choice arm",
        require_stmt => "`require`",
        fail_stmt => "`fail`",
        return_stmt => "`return`",
        legal_stmt => "`legal`",
        break_stmt => "`break`",
        continue_stmt => "`continue`",
        expr_stmt => "an expression",
        expr | expr_only | cond_expr | or_expr | and_expr | not_expr | cmp_expr | additive
        | multiplicative | unary | postfix => "an expression",
        cmp_op => "a comparison",
        add_op => "`+` or `-`",
        mul_op => "`*`, `/` or `%`",
        neg => "`-`",
        field_access | field_name => "`.field`",
        index => "`[index]`",
        aggregate | agg_name => "an aggregate such as `sum(x in S: e)`",
        call => "a call",
        set_lit => "a set `{...}`",
        ident => "a name",
        int => "a number",
        string | string_inner => "a string",
        op_or => "`or`",
        op_and => "`and`",
        op_not => "`not`",
        keyword => "a keyword",
        kw_var => "`var`",
        kw_private => "`private`",
        kw_hidden => "`hidden`",
        kw_fn => "`fn`",
        kw_proc => "`proc`",
        kw_score => "`score`",
        kw_let => "`let`",
        kw_if => "`if`",
        kw_then => "`then`",
        kw_else => "`else`",
        kw_while => "`while`",
        kw_loop => "`loop`",
        kw_for => "`for`",
        kw_in => "`in`",
        kw_where => "`where`",
        kw_choose => "`choose`",
        kw_by => "`by`",
        kw_when => "`when`",
        kw_require => "`require`",
        kw_fail => "`fail`",
        kw_legal => "`legal`",
        kw_return => "`return`",
        kw_break => "`break`",
        kw_continue => "`continue`",
        kw_true | kw_false => "`true` or `false`",
        kw_none => "`none`",
        WHITESPACE | COMMENT | ident_char => "a space",
        primary => "a value",
    }
}

fn var_decl(ctx: &Ctx, pair: Pair<Rule>) -> VarDecl {
    let span = ctx.span(&pair);
    let mut visibility = Visibility::Public;
    let mut name = None;
    let mut dims = Vec::new();
    let mut ty = None;
    let mut init = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::visibility => {
                visibility = if p.as_str() == "private" {
                    Visibility::Private
                } else {
                    Visibility::Hidden
                }
            }
            Rule::ident => name = Some(ctx.ident(p)),
            Rule::dims => {
                for d in p.into_inner() {
                    let inner = d.into_inner().next().expect("dim content");
                    dims.push(match inner.as_rule() {
                        Rule::range_dim => {
                            let s = ctx.span(&inner);
                            let mut it = inner.into_inner();
                            let lo = int_value(it.next());
                            let hi = int_value(it.next());
                            Dim::Range(lo, hi, s)
                        }
                        _ => Dim::Kind(ctx.ident(inner)),
                    });
                }
            }
            Rule::type_expr => ty = Some(type_expr(ctx, p)),
            Rule::expr => init = Some(expr(ctx, p)),
            _ => {}
        }
    }
    VarDecl {
        visibility,
        name: name.expect("var name"),
        dims,
        ty: ty.expect("var type"),
        init,
        span,
    }
}

fn int_value(p: Option<Pair<Rule>>) -> i64 {
    p.and_then(|p| p.as_str().parse().ok()).unwrap_or(i64::MAX)
}

fn params(ctx: &Ctx, pair: Pair<Rule>) -> Vec<Param> {
    pair.into_inner()
        .map(|p| {
            let mut it = p.into_inner();
            Param {
                name: ctx.ident(it.next().expect("param name")),
                ty: type_expr(ctx, it.next().expect("param type")),
            }
        })
        .collect()
}

fn fn_decl(ctx: &Ctx, pair: Pair<Rule>) -> FnDecl {
    let span = ctx.span(&pair);
    let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_fn);
    let name = ctx.ident(it.next().expect("fn name"));
    let params = params(ctx, it.next().expect("fn params"));
    let ret = type_expr(ctx, it.next().expect("fn type"));
    let body = expr(ctx, it.next().expect("fn body"));
    FnDecl {
        name,
        params,
        ret,
        body,
        span,
    }
}

fn proc_decl(ctx: &Ctx, pair: Pair<Rule>) -> ProcDecl {
    let span = ctx.span(&pair);
    let mut name = None;
    let mut ps = Vec::new();
    let mut ret = None;
    let mut body = Block::default();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::ident => name = Some(ctx.ident(p)),
            Rule::params => ps = params(ctx, p),
            Rule::type_expr => ret = Some(type_expr(ctx, p)),
            Rule::block => body = block(ctx, p),
            _ => {}
        }
    }
    ProcDecl {
        name: name.expect("proc name"),
        params: ps,
        ret,
        body,
        span,
    }
}

fn score_decl(ctx: &Ctx, pair: Pair<Rule>) -> ScoreDecl {
    let span = ctx.span(&pair);
    let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_score);
    let player = ctx.ident(it.next().expect("score player"));
    let keys = it.map(|p| expr(ctx, p)).collect();
    ScoreDecl { player, keys, span }
}

fn type_expr(ctx: &Ctx, pair: Pair<Rule>) -> TypeExpr {
    let inner = if pair.as_rule() == Rule::type_expr {
        pair.into_inner().next().expect("type content")
    } else {
        pair
    };
    let span = ctx.span(&inner);
    match inner.as_rule() {
        Rule::ident => TypeExpr::Name(ctx.ident(inner)),
        Rule::proc_type => TypeExpr::Name(Ident {
            name: "proc".into(),
            span,
        }),
        Rule::set_type => TypeExpr::Set(ctx.ident(inner.into_inner().next().expect("kind")), span),
        Rule::list_type => {
            TypeExpr::List(ctx.ident(inner.into_inner().next().expect("kind")), span)
        }
        Rule::array_type => TypeExpr::Array(
            Box::new(type_expr(ctx, inner.into_inner().next().expect("elem"))),
            span,
        ),
        Rule::map_type => {
            let mut it = inner.into_inner();
            let k = type_expr(ctx, it.next().expect("key"));
            let v = type_expr(ctx, it.next().expect("value"));
            TypeExpr::Map(Box::new(k), Box::new(v), span)
        }
        r => unreachable!("type rule {r:?}"),
    }
}

fn block(ctx: &Ctx, pair: Pair<Rule>) -> Block {
    let span = ctx.span(&pair);
    Block {
        stmts: pair.into_inner().map(|p| stmt(ctx, p)).collect(),
        span,
    }
}

fn string_of(p: Pair<Rule>) -> String {
    p.into_inner()
        .next()
        .map_or(String::new(), |s| s.as_str().to_string())
}

fn stmt(ctx: &Ctx, pair: Pair<Rule>) -> Stmt {
    let span = ctx.span(&pair);
    let rule = pair.as_rule();
    let mut it = pair.into_inner().filter(|p| !is_keyword(p.as_rule()));
    let kind = match rule {
        Rule::let_stmt => {
            let name = ctx.ident(it.next().expect("let name"));
            let next = it.next().expect("let value");
            if next.as_rule() == Rule::type_expr {
                let ty = type_expr(ctx, next);
                StmtKind::Let(name, Some(ty), expr(ctx, it.next().expect("let value")))
            } else {
                StmtKind::Let(name, None, expr(ctx, next))
            }
        }
        Rule::assign_stmt => {
            let place = place(ctx, it.next().expect("place"));
            let op = match it.next().expect("op").as_str() {
                "+=" => AssignOp::Add,
                "-=" => AssignOp::Sub,
                _ => AssignOp::Set,
            };
            StmtKind::Assign(place, op, expr(ctx, it.next().expect("value")))
        }
        Rule::if_stmt => {
            let cond = expr(ctx, it.next().expect("cond"));
            let then = block(ctx, it.next().expect("then"));
            let els = it.next().map(|p| {
                if p.as_rule() == Rule::if_stmt {
                    let s = stmt(ctx, p);
                    Block {
                        span: s.span,
                        stmts: vec![s],
                    }
                } else {
                    block(ctx, p)
                }
            });
            StmtKind::If(cond, then, els)
        }
        Rule::while_stmt => {
            let cond = expr(ctx, it.next().expect("cond"));
            StmtKind::While(cond, block(ctx, it.next().expect("body")))
        }
        Rule::loop_stmt => StmtKind::Loop(block(ctx, it.next().expect("body"))),
        Rule::for_stmt => {
            let b = binder(ctx, it.next().expect("binder"));
            StmtKind::For(b, block(ctx, it.next().expect("body")))
        }
        Rule::choose_stmt => StmtKind::Choose(choose(ctx, it)),
        Rule::require_stmt => {
            let cond = expr(ctx, it.next().expect("cond"));
            StmtKind::Require(cond, it.next().map(string_of))
        }
        Rule::fail_stmt => StmtKind::Fail(string_of(it.next().expect("reason"))),
        Rule::return_stmt => StmtKind::Return(it.next().map(|p| expr(ctx, p))),
        Rule::legal_stmt => StmtKind::Legal,
        Rule::break_stmt => StmtKind::Break,
        Rule::continue_stmt => StmtKind::Continue,
        Rule::expr_stmt => StmtKind::Expr(expr(ctx, it.next().expect("expr"))),
        r => unreachable!("statement rule {r:?}"),
    };
    Stmt { kind, span }
}

fn is_keyword(r: Rule) -> bool {
    use Rule::*;
    matches!(
        r,
        kw_let
            | kw_if
            | kw_else
            | kw_while
            | kw_loop
            | kw_for
            | kw_choose
            | kw_by
            | kw_require
            | kw_fail
            | kw_legal
            | kw_return
            | kw_break
            | kw_continue
            | kw_in
            | kw_where
            | kw_when
            | kw_then
    )
}

fn place(ctx: &Ctx, pair: Pair<Rule>) -> Place {
    let span = ctx.span(&pair);
    let mut it = pair.into_inner();
    let name = ctx.ident(it.next().expect("place name"));
    Place {
        name,
        indices: it.map(|p| expr(ctx, p)).collect(),
        span,
    }
}

fn choose<'i>(ctx: &Ctx, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> Choose {
    let mut prompt = None;
    let mut first = it.next().expect("choose content");
    if first.as_rule() == Rule::string {
        prompt = Some(string_of(first));
        first = it.next().expect("choose by");
    }
    let by = expr(ctx, first);
    let arms = it.map(|a| arm(ctx, a)).collect();
    Choose { prompt, by, arms }
}

fn arm(ctx: &Ctx, pair: Pair<Rule>) -> Arm {
    let mut it = pair.into_inner();
    let head = it.next().expect("arm head");
    let span = ctx.span(&head);
    let kind = match head.as_rule() {
        Rule::set_arm => ArmKind::Each(binder(ctx, head.into_inner().next().expect("binder"))),
        _ => {
            let mut h = head.into_inner().filter(|p| p.as_rule() != Rule::kw_when);
            let name = ctx.ident(h.next().expect("arm name"));
            ArmKind::Named(name, h.next().map(|p| expr(ctx, p)))
        }
    };
    Arm {
        kind,
        body: block(ctx, it.next().expect("arm body")),
        span,
    }
}

fn binder(ctx: &Ctx, pair: Pair<Rule>) -> Binder {
    let span = ctx.span(&pair);
    let mut it = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::kw_in | Rule::kw_where));
    let var = ctx.ident(it.next().expect("binder name"));
    let src = it
        .next()
        .expect("binder source")
        .into_inner()
        .next()
        .expect("source");
    let source = if src.as_rule() == Rule::range_src {
        let mut r = src.into_inner();
        let lo = additive(ctx, r.next().expect("lo"));
        let incl = r.next().expect("range op").as_rule() == Rule::range_incl;
        let hi = additive(ctx, r.next().expect("hi"));
        Source::Range(lo, hi, incl)
    } else {
        Source::Expr(expr(ctx, src))
    };
    let filter = it.next().map(|p| expr(ctx, p));
    Binder {
        var,
        source,
        filter,
        span,
    }
}

fn expr(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    match pair.as_rule() {
        Rule::expr => expr(ctx, pair.into_inner().next().expect("expr content")),
        Rule::cond_expr => {
            let span = ctx.span(&pair);
            let mut it = pair
                .into_inner()
                .filter(|p| !matches!(p.as_rule(), Rule::kw_if | Rule::kw_then | Rule::kw_else));
            let c = expr(ctx, it.next().expect("cond"));
            let a = expr(ctx, it.next().expect("then"));
            let b = expr(ctx, it.next().expect("else"));
            Expr {
                kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                span,
            }
        }
        Rule::or_expr | Rule::and_expr | Rule::additive | Rule::multiplicative => {
            binary_chain(ctx, pair)
        }
        Rule::not_expr => {
            let span = ctx.span(&pair);
            let mut nots = 0;
            let mut inner = None;
            for p in pair.into_inner() {
                if p.as_rule() == Rule::op_not {
                    nots += 1;
                } else {
                    inner = Some(expr(ctx, p));
                }
            }
            let mut e = inner.expect("not operand");
            for _ in 0..nots {
                e = Expr {
                    kind: ExprKind::Not(Box::new(e)),
                    span,
                };
            }
            e
        }
        Rule::cmp_expr => {
            let span = ctx.span(&pair);
            let mut it = pair.into_inner();
            let left = expr(ctx, it.next().expect("left"));
            match it.next() {
                None => left,
                Some(op) => {
                    let op = match op.as_str() {
                        "==" => BinOp::Eq,
                        "!=" => BinOp::Ne,
                        "<=" => BinOp::Le,
                        ">=" => BinOp::Ge,
                        "<" => BinOp::Lt,
                        ">" => BinOp::Gt,
                        _ => BinOp::In,
                    };
                    let right = expr(ctx, it.next().expect("right"));
                    Expr {
                        kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
                        span,
                    }
                }
            }
        }
        Rule::unary => {
            let span = ctx.span(&pair);
            let mut negs = 0;
            let mut inner = None;
            for p in pair.into_inner() {
                if p.as_rule() == Rule::neg {
                    negs += 1;
                } else {
                    inner = Some(expr(ctx, p));
                }
            }
            let mut e = inner.expect("unary operand");
            for _ in 0..negs {
                e = Expr {
                    kind: ExprKind::Neg(Box::new(e)),
                    span,
                };
            }
            e
        }
        Rule::postfix => postfix(ctx, pair),
        _ => primary(ctx, pair),
    }
}

fn additive(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    expr(ctx, pair)
}

fn binary_chain(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let mut it = pair.into_inner();
    let mut left = expr(ctx, it.next().expect("operand"));
    while let Some(op) = it.next() {
        let op = match op.as_str() {
            "or" => BinOp::Or,
            "and" => BinOp::And,
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            _ => BinOp::Rem,
        };
        let right = expr(ctx, it.next().expect("operand"));
        let span = left.span.to(right.span);
        left = Expr {
            kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
            span,
        };
    }
    left
}

fn postfix(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let mut it = pair.into_inner();
    let mut e = primary(ctx, it.next().expect("primary"));
    for p in it {
        let span = e.span.to(ctx.span(&p));
        e = match p.as_rule() {
            Rule::field_access => Expr {
                kind: ExprKind::Field(
                    Box::new(e),
                    ctx.ident(p.into_inner().next().expect("field")),
                ),
                span,
            },
            _ => Expr {
                kind: ExprKind::Index(Box::new(e), p.into_inner().map(|i| expr(ctx, i)).collect()),
                span,
            },
        };
    }
    e
}

fn primary(ctx: &Ctx, pair: Pair<Rule>) -> Expr {
    let span = ctx.span(&pair);
    let kind = match pair.as_rule() {
        Rule::int => ExprKind::Int(pair.as_str().parse().unwrap_or(i64::MAX)),
        Rule::kw_true => ExprKind::Bool(true),
        Rule::kw_false => ExprKind::Bool(false),
        Rule::kw_none => ExprKind::None,
        Rule::ident => ExprKind::Name(ctx.ident(pair)),
        Rule::call => {
            let mut it = pair.into_inner();
            let name = ctx.ident(it.next().expect("callee"));
            ExprKind::Call(name, it.map(|p| expr(ctx, p)).collect())
        }
        Rule::set_lit => {
            let mut it = pair.into_inner().peekable();
            match it.peek().map(|p| p.as_rule()) {
                Some(Rule::binder) => {
                    ExprKind::SetBuild(Box::new(binder(ctx, it.next().expect("binder"))))
                }
                _ => ExprKind::SetLit(it.map(|p| expr(ctx, p)).collect()),
            }
        }
        Rule::aggregate => {
            let mut it = pair.into_inner();
            let agg = match it.next().expect("aggregate name").as_str() {
                "sum" => Aggregate::Sum,
                "count" => Aggregate::Count,
                "min" => Aggregate::Min,
                "max" => Aggregate::Max,
                "any" => Aggregate::Any,
                "all" => Aggregate::All,
                "argmax" => Aggregate::ArgMax,
                _ => Aggregate::ArgMin,
            };
            let b = binder(ctx, it.next().expect("binder"));
            let body = it.next().map(|p| Box::new(expr(ctx, p)));
            ExprKind::Aggregate(agg, Box::new(b), body)
        }
        _ => return expr(ctx, pair),
    };
    Expr { kind, span }
}

//! Syntax errors: where parsing stopped, what was expected there, and a
//! more precise message for the usual slips (a `;` or `}` missing, a
//! string left open, a keyword used as a name).

use pest::Parser as _;

use super::{Ctx, Error, Rule, RulesParser};
use crate::ir::codes::Code;
use crate::ir::span::Span;

/// A syntax error: where, and what was expected there. Also a text that
/// cannot be read for another reason: nested too deep, a number too large.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    /// The class of the mistake: [`Code::SyntaxError`], or
    /// [`Code::TooDeep`] and [`Code::NumberOutOfRange`] (whose message is
    /// the detail's).
    pub code: Code,
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
    /// The message, when not "syntax error: expected X, found Y".
    pub message: Option<String>,
    /// The caret label, when more precise than "unexpected here".
    pub label: Option<String>,
    /// The help line, when more precise than "write `<expected>` here".
    pub help: Option<String>,
    /// Another place worth showing (e.g. the `{` left open).
    pub note: Option<(Span, String)>,
}
/// Punctuation worth naming in a syntax error.
const PUNCT: &[&str] = &[";", "}", ")", "]", ",", "{", "=", ":", "=>", "->", "("];

pub(super) fn syntax_error(ctx: &Ctx, text: &str, e: Error) -> SyntaxError {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let found = token_at(&text[pos..]);
    let end = pos + found.len().max(1).min(text.len().saturating_sub(pos));
    if let pest::error::ErrorVariant::CustomError { message } = &e.variant {
        if message.ends_with("limit reached") {
            // pest stopped short of the end of its stack (the text nests
            // within the limits, but the caller's stack is small).
            return SyntaxError::other(
                Code::TooDeep,
                Span::new(ctx.file, (ctx.map)(pos), (ctx.map)(end)),
                "nested too deep to be read here".into(),
                "too deep from here",
                "the parser ran out of stack: nest less (docs/LANGUAGE.md, Limits), or load \
                 the rules on a thread with a larger stack"
                    .into(),
            );
        }
    }
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
        code: Code::SyntaxError,
        span: span(pos, end),
        expected,
        found,
        detail: None,
    };
    let before = text[..pos].trim_end();
    let has = |t: &str| punct.iter().any(|p| p == t);
    let starts_item = [
        "var", "private", "hidden", "fn", "proc", "score", "metric", "ending",
    ]
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
            ..SyntaxDetail::default()
        }));
    } else if unterminated {
        err.detail = Some(Box::new(SyntaxDetail {
            label: Some("this string is never closed".into()),
            help: Some("end the string with `\"`".into()),
            ..SyntaxDetail::default()
        }));
    } else if is_keyword && err.expected.iter().any(|e| e == "a name") {
        err.detail = Some(Box::new(SyntaxDetail {
            label: Some(format!("`{found}` is a keyword")),
            help: Some(format!(
                "keywords cannot be used as names: rename it (e.g. `{found}_`)"
            )),
            ..SyntaxDetail::default()
        }));
    } else if has(";") && text[before.len()..pos].contains('\n') && !before.is_empty() {
        // A statement or declaration ends without `;` at the end of a line.
        let at = before.len();
        err.span = span(at, at);
        err.expected = vec!["`;`".into()];
        err.detail = Some(Box::new(SyntaxDetail {
            label: Some("`;` missing here".into()),
            help: Some("end the statement with `;`".into()),
            ..SyntaxDetail::default()
        }));
    }
    err
}

impl SyntaxError {
    /// A mistake other than a syntax error (`code`), with its message,
    /// caret label and help line.
    pub fn other(code: Code, span: Span, message: String, label: &str, help: String) -> Self {
        SyntaxError {
            code,
            span,
            expected: Vec::new(),
            found: String::new(),
            detail: Some(Box::new(SyntaxDetail {
                message: Some(message),
                label: Some(label.into()),
                help: Some(help),
                note: None,
            })),
        }
    }

    /// The message: the detail's, or "syntax error: expected X, found Y".
    pub fn message(&self) -> String {
        if let Some(m) = self.detail.as_ref().and_then(|d| d.message.clone()) {
            return m;
        }
        format!(
            "syntax error: expected {}, found {}",
            self.expected_text(),
            self.found
        )
    }

    /// What was expected, as text: "`;`", "a name, `(` or `{`".
    pub fn expected_text(&self) -> String {
        match self.expected.len() {
            0 => "something else".to_string(),
            1 => self.expected[0].clone(),
            n => format!(
                "{} or {}",
                self.expected[..n - 1].join(", "),
                self.expected[n - 1]
            ),
        }
    }
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
        metric_decl => "a metric declaration",
        ending_decl => "an ending declaration",
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
        source | range_end => "a set, a list, a kind or a range",
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
        kw_metric => "`metric`",
        kw_ending => "`ending`",
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

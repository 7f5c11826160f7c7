//! Checking a rulebook against a ruleset: find each claim's passage, read
//! its numbers, compare them with the values of the rule facts, and list
//! the numeric statements near glossary terms that no claim covers.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::engine::state::State;
use crate::engine::Game;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::{Ruleset, Ty};
use crate::ir::span::Span;
use crate::lang::parser;
use crate::model::snippet;
use crate::translate::claims::{Claim, I18n};
use crate::translate::matcher::{self, Pat};
use crate::translate::text::{line_of, read_ocr_words, stray_numbers, tokenize, Token};

/// Evaluates references (expressions of the rules language) on the
/// initial state of a ruleset.
pub struct Evaluator {
    rules: Ruleset,
    states: HashMap<usize, State>,
    cache: HashMap<(String, usize), Result<i64, String>>,
    dir: Option<PathBuf>,
    scenarios: HashMap<String, Result<Scenario, String>>,
}

/// What a scenario file states: the values its setup assigns and the
/// values its steps assert (keys without spaces).
#[derive(Debug, Clone, Default)]
pub struct Scenario {
    setup: HashMap<String, i64>,
    expected: HashMap<String, Vec<i64>>,
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect()
}

fn int_of(s: &str) -> Option<i64> {
    match s.trim() {
        "true" => Some(1),
        "false" => Some(0),
        t => t.parse().ok(),
    }
}

impl Scenario {
    fn read(path: &Path) -> Result<Scenario, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
        let root = marked_yaml::parse_yaml(0, &text).map_err(|e| format!("invalid YAML: {e}"))?;
        let map = root.as_mapping().ok_or("not a scenario (a YAML mapping)")?;
        let mut sc = Scenario::default();
        if let Some(setup) = map.get_scalar("setup") {
            for stmt in setup.as_str().split(';') {
                if let Some((lhs, rhs)) = stmt.split_once('=') {
                    let lhs = squeeze(
                        lhs.lines()
                            .filter(|l| !l.trim_start().starts_with("//"))
                            .collect::<Vec<_>>()
                            .join(" ")
                            .as_str(),
                    );
                    if let Some(v) = int_of(rhs) {
                        sc.setup.insert(lhs, v);
                    }
                }
            }
        }
        if let Some(steps) = map.get_sequence("steps") {
            for step in steps.iter() {
                let Some(exp) = step.as_mapping().and_then(|m| m.get_mapping("expect")) else {
                    continue;
                };
                for (k, v) in exp.iter() {
                    if let Some(n) = v.as_scalar().and_then(|v| int_of(v.as_str())) {
                        sc.expected.entry(squeeze(k.as_str())).or_default().push(n);
                    }
                }
            }
        }
        Ok(sc)
    }
}

impl Evaluator {
    /// An evaluator over a loaded ruleset.
    pub fn new(rules: Ruleset) -> Evaluator {
        Evaluator {
            rules,
            states: HashMap::new(),
            cache: HashMap::new(),
            dir: None,
            scenarios: HashMap::new(),
        }
    }

    /// The ruleset's directory: scenario claims read its `examples/`.
    pub fn with_dir(mut self, dir: &Path) -> Evaluator {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Replaces `setup(x)` and `expected(x)` in a reference by the values
    /// the scenario `name` states for `x`.
    pub fn in_scenario(&mut self, name: &str, expr: &str) -> Result<String, String> {
        if !self.scenarios.contains_key(name) {
            let r = match &self.dir {
                None => Err("no ruleset directory to find its examples in".to_string()),
                Some(d) => {
                    let path = d.join("examples").join(format!("{name}.yaml"));
                    if path.exists() {
                        Scenario::read(&path)
                    } else {
                        Err("no such file in the ruleset's examples/".to_string())
                    }
                }
            };
            self.scenarios.insert(name.to_string(), r);
        }
        let sc = match &self.scenarios[name] {
            Ok(sc) => sc,
            Err(e) => return Err(format!("scenario `{name}`: {e}")),
        };
        let mut out = String::new();
        let mut rest = expr;
        loop {
            let hit = ["setup(", "expected("]
                .iter()
                .filter_map(|f| rest.find(f).map(|p| (p, *f)))
                .filter(|(p, _)| {
                    *p == 0
                        || !rest[..*p]
                            .chars()
                            .next_back()
                            .is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
                .min();
            let Some((p, f)) = hit else {
                out.push_str(rest);
                break;
            };
            out.push_str(&rest[..p]);
            let after = &rest[p + f.len()..];
            let mut depth = 1;
            let mut end = None;
            for (i, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(end) = end else {
                return Err(format!("unclosed `{f}`"));
            };
            let mut key = squeeze(&after[..end]);
            // `expected(x, k)`: the k-th assertion of x (1-based); the
            // last by default.
            let mut nth = None;
            if let Some((k, n)) = key.rsplit_once(',') {
                if let Ok(n) = n.parse::<usize>() {
                    nth = Some(n);
                    key = k.to_string();
                }
            }
            let v = if f == "setup(" {
                sc.setup.get(&key).copied()
            } else {
                sc.expected.get(&key).and_then(|vs| match nth {
                    Some(n) => n.checked_sub(1).and_then(|i| vs.get(i)).copied(),
                    None => vs.last().copied(),
                })
            };
            let Some(v) = v else {
                let what = if f == "setup(" {
                    "assigns no number to"
                } else {
                    "asserts no such number for"
                };
                return Err(format!("scenario `{name}` {what} `{key}`"));
            };
            out.push_str(&format!("({v})"));
            rest = &after[end + 1..];
        }
        Ok(out)
    }

    /// The ruleset's maximum player count.
    pub fn max_players(&self) -> usize {
        self.rules.max_players
    }

    /// Registers a source file (a language file) for spans in diagnostics.
    pub fn add_source(&mut self, name: &str, text: &str) -> u32 {
        self.rules.sources.add(name.to_string(), text)
    }

    /// The sources known to the ruleset (its files and those added).
    pub fn sources(&self) -> &crate::ir::span::SourceMap {
        &self.rules.sources
    }

    /// The value of `expr` with `players` seated. `at` is where the
    /// expression's text starts in source `file` (for diagnostics).
    pub fn value(
        &mut self,
        expr: &str,
        players: usize,
        file: u32,
        at: usize,
    ) -> Result<i64, Vec<Diagnostic>> {
        let key = (expr.to_string(), players);
        if let Some(r) = self.cache.get(&key) {
            return r.clone().map_err(|_| Vec::new());
        }
        let map = move |o: usize| at + o;
        let parsed = parser::parse_expr(file, expr, &map).map_err(|e| {
            vec![Diagnostic::new(e.span, format!("invalid reference: expected {}, found {}", e.expected.join(" or "), e.found))
                .help("a reference is an expression of the rules language (docs/LANGUAGE.md), e.g. `feed_cost` or `farm_all.cost[wood]`")]
        });
        let r = parsed.and_then(|e| self.eval_parsed(&e, players, file, at, expr));
        self.cache
            .insert(key, r.as_ref().map(|v| *v).map_err(|_| String::new()));
        r
    }

    fn eval_parsed(
        &mut self,
        e: &crate::lang::ast::Expr,
        players: usize,
        file: u32,
        at: usize,
        expr: &str,
    ) -> Result<i64, Vec<Diagnostic>> {
        let span = Span::new(file, at, at + expr.len());
        let (f, ty) = snippet::add_expr(&mut self.rules, e)?;
        if !matches!(ty, Ty::Int | Ty::Bool) {
            return Err(vec![Diagnostic::new(span, "a reference must be a number")
                .help(
                    "refer to an integer: a parameter, a field, a table entry, a count",
                )]);
        }
        if !(self.rules.min_players..=self.rules.max_players).contains(&players) {
            return Err(vec![Diagnostic::new(
                span,
                format!("the ruleset is not for {players} players"),
            )
            .help(format!(
                "use `players:` between {} and {}",
                self.rules.min_players, self.rules.max_players
            ))]);
        }
        if !self.states.contains_key(&players) {
            let st = Game::initial_state(&self.rules, players, 1).map_err(|e| {
                vec![Diagnostic::new(
                    span,
                    format!("cannot set up the game: {e}"),
                )]
            })?;
            self.states.insert(players, st);
        }
        let st = self.states.get_mut(&players).expect("inserted");
        crate::engine::vm::eval(&self.rules, st, f, Vec::new())
            .map(|v| v.int())
            .map_err(|e| {
                vec![
                    Diagnostic::new(span, format!("cannot evaluate: {}", e.message))
                        .help("the reference is evaluated on the initial state of the game"),
                ]
            })
    }
}

/// The outcome of one claim, or one uncovered statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The text states the rules' value.
    Confirmed,
    /// The text states another value.
    Contradicted,
    /// The passage was not found.
    NotFound,
    /// A finding the language file expects, with a reason.
    Expected,
    /// An expected finding that no longer occurs (the claim now confirms).
    Stale,
    /// A number that states no rule fact, still as the language file
    /// records it (`note:` with `values:`).
    Recorded,
    /// Numbers acknowledged as stating no rule fact, with no recorded value.
    Noted,
    /// A numeric statement near a glossary term that no claim covers.
    Uncovered,
}

/// One line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// What happened.
    pub status: Status,
    /// 1-based line in the rulebook (0 for a passage not found).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The passage (the anchor's words as the rulebook has them).
    pub passage: String,
    /// The anchor of the claim.
    pub anchor: Option<String>,
    /// The rule fact.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// Players the fact was evaluated for.
    pub players: Option<usize>,
    /// The number the rulebook states.
    pub text_value: Option<i64>,
    /// The ruleset's value.
    pub rule_value: Option<i64>,
    /// The base ruleset's value, when variants are applied and it differs.
    pub base_value: Option<i64>,
    /// Whether the variants make this passage false (it agrees with the base).
    pub changed_by_variant: bool,
    /// The reason of an expected finding or a note.
    pub reason: Option<String>,
    /// One sentence.
    pub message: String,
    /// Byte range of the number (or passage) in the rulebook.
    #[serde(skip)]
    pub span: Option<(usize, usize)>,
}

/// Counts of the report.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    /// Facts confirmed.
    pub confirmed: usize,
    /// Facts contradicted.
    pub contradicted: usize,
    /// Claims whose passage was not found.
    pub not_found: usize,
    /// Expected findings.
    pub expected: usize,
    /// Expected findings that no longer occur.
    pub stale: usize,
    /// Numbers checked against a value recorded in the language file.
    pub recorded: usize,
    /// Literal numbers of anchors (labels) found as written.
    pub labels: usize,
    /// Numbers noted as no rule fact, with no recorded value (unchecked).
    pub noted: usize,
    /// Passages the variants make false.
    pub changed_by_variant: usize,
    /// Numeric statements found (near glossary terms, or claimed).
    pub statements: usize,
    /// Of those, covered by a claim.
    pub covered: usize,
    /// Numeric statements no claim covers.
    pub uncovered: usize,
    /// covered / statements, in percent.
    pub coverage: f64,
    /// Numbers (digits) in the rules sections: outside `skip` passages and
    /// cross-references.
    pub numbers: usize,
    /// Of those, checked: against the rules, a recorded value or as a label.
    pub numbers_checked: usize,
}

/// A number written in digits in the rules sections of the book.
#[derive(Debug, Clone, Serialize)]
pub struct Site {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The digits as written.
    pub text: String,
    /// Whether a claim checks it (a change would be reported).
    pub checked: bool,
    /// Byte range in the rulebook.
    #[serde(skip)]
    pub span: (usize, usize),
}

/// The result of checking one rulebook.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The rulebook's name.
    pub rulebook: String,
    /// Its language.
    pub lang: String,
    /// The variants applied.
    pub variants: Vec<String>,
    /// Claims' outcomes, in rulebook order, then the uncovered statements.
    pub findings: Vec<Finding>,
    /// The counts.
    pub summary: Summary,
    /// Every number written in digits in the rules sections.
    pub numbers: Vec<Site>,
    /// The least coverage the language file requires (`min_coverage:`).
    pub min_coverage: Option<f64>,
    /// The miette diagnostics (contradictions, passages not found,
    /// variant changes, mistakes in the language file).
    #[serde(skip)]
    pub diagnostics: Diagnostics,
    /// Mistakes in the language file (references that do not resolve).
    #[serde(skip)]
    pub invalid: usize,
}

impl Report {
    /// Whether anything is contradicted, missing or invalid.
    pub fn failed(&self) -> bool {
        self.summary.contradicted > 0
            || self.summary.not_found > 0
            || self.invalid > 0
            || self.below_coverage()
    }

    /// Whether coverage is below the language file's `min_coverage:`.
    pub fn below_coverage(&self) -> bool {
        self.min_coverage
            .is_some_and(|m| self.summary.coverage + 1e-9 < m)
    }
}

/// The rulebook to check.
pub struct Book<'a> {
    /// Display name (file:line:col uses it).
    pub name: &'a str,
    /// Its text.
    pub text: &'a str,
}

/// A finding for the number token `i`, with the words around it as the
/// passage (no claim reads it).
fn token_finding(
    src: &str,
    tokens: &[Token],
    i: usize,
    status: Status,
    message: String,
) -> Finding {
    let t = &tokens[i];
    let lo = i.saturating_sub(NEAR);
    let hi = (i + NEAR).min(tokens.len() - 1);
    Finding {
        status,
        line: line_of(src, t.start),
        column: col_of(src, t.start),
        passage: excerpt(src, tokens[lo].start, tokens[hi].end),
        anchor: None,
        reference: None,
        players: None,
        text_value: t.num.map(|n| n.value),
        rule_value: None,
        base_value: None,
        changed_by_variant: false,
        reason: None,
        message,
        span: Some((t.start, t.end)),
    }
}

/// A contradicted finding for the number `n` the text states at
/// `start..end` where the claim anchored at `anchor` reads no such number.
fn stray_number(
    src: &str,
    (start, end): (usize, usize),
    anchor: &str,
    n: i64,
    message: String,
) -> Finding {
    Finding {
        status: Status::Contradicted,
        line: line_of(src, start),
        column: col_of(src, start),
        passage: excerpt(src, start, end),
        anchor: Some(anchor.to_string()),
        reference: None,
        players: None,
        text_value: Some(n),
        rule_value: None,
        base_value: None,
        changed_by_variant: false,
        reason: None,
        message,
        span: Some((start, end)),
    }
}

fn excerpt(src: &str, a: usize, b: usize) -> String {
    let s: String = src[a..b].split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 80 {
        let t: String = s.chars().take(77).collect();
        format!("{t}...")
    } else {
        s
    }
}

fn col_of(src: &str, offset: usize) -> usize {
    let before = &src[..offset.min(src.len())];
    before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1
}

struct Glossary {
    exact: HashSet<String>,
    prefixes: Vec<String>,
    phrases: Vec<Vec<Pat>>,
}

impl Glossary {
    fn new(i18n: &I18n) -> Glossary {
        let mut g = Glossary {
            exact: HashSet::new(),
            prefixes: Vec::new(),
            phrases: Vec::new(),
        };
        for words in i18n.file.glossary.values() {
            for w in words {
                let pats = matcher::compile(w);
                match pats.as_slice() {
                    [Pat::Word {
                        text,
                        prefix: false,
                    }] => {
                        g.exact.insert(text.clone());
                    }
                    [Pat::Word { text, prefix: true }] => g.prefixes.push(text.clone()),
                    [] => {}
                    _ => g.phrases.push(pats),
                }
            }
        }
        g
    }

    /// Marks the tokens that are glossary words.
    fn mark(&self, tokens: &[Token]) -> Vec<bool> {
        let mut m: Vec<bool> = tokens
            .iter()
            .map(|t| {
                t.num.is_none()
                    && (self.exact.contains(&t.norm)
                        || self.prefixes.iter().any(|p| t.norm.starts_with(p.as_str())))
            })
            .collect();
        for p in &self.phrases {
            for hit in matcher::find_all(tokens, p, 0, tokens.len()) {
                for x in m.iter_mut().take(hit.last + 1).skip(hit.first) {
                    *x = true;
                }
            }
        }
        m
    }
}

/// How far (in tokens) a number may be from a glossary word to count as a
/// numeric statement.
pub const NEAR: usize = 3;

/// Checks a rulebook. `rules` is the ruleset with the variants applied;
/// `base`, when variants are applied, the ruleset without them.
pub fn check(
    rules: &mut Evaluator,
    mut base: Option<&mut Evaluator>,
    i18n: &I18n,
    book: &Book,
    variants: &[String],
) -> Report {
    let i18n_file = rules.add_source(&i18n.name, &i18n.text);
    let base_file = base.as_mut().map(|b| b.add_source(&i18n.name, &i18n.text));
    let mut diags = Diagnostics {
        sources: rules.sources().clone(),
        items: Vec::new(),
    };
    let book_file = diags.sources.add(book.name.to_string(), book.text);
    let src = book.text;
    let mut tokens = tokenize(src, &i18n.numbers);
    let digits: Vec<bool> = tokens
        .iter()
        .map(|t| t.num.is_some_and(|n| !n.word))
        .collect();
    let raw_tokens = tokens.clone();
    read_ocr_words(src, &mut tokens, &i18n.file.ocr_words);
    let tokens = tokens;
    let players_default = i18n.file.players.unwrap_or(rules.max_players());
    let mut findings = Vec::new();
    let mut invalid = 0;
    let mut used: HashSet<usize> = HashSet::new();
    let mut covered: HashSet<usize> = HashSet::new();
    let mut checked: HashSet<usize> = HashSet::new();
    let mut summary = Summary::default();
    let bspan = |a: usize, b: usize| Span::new(book_file, a, b);

    // Passages that are not rules.
    let mut skipped = vec![false; tokens.len()];
    for s in &i18n.file.skip {
        let from = matcher::find_all(&tokens, &matcher::compile(&s.from), 0, tokens.len());
        let Some(f) = from.first() else {
            invalid += 1;
            diags.push(
                Diagnostic::new(i18n.span(i18n_file, &s.from), "skipped passage not found")
                    .help("anchor the start of the passage with a few of its words"),
            );
            continue;
        };
        let to = matcher::find_all(&tokens, &matcher::compile(&s.to), f.first, tokens.len());
        let Some(t) = to.iter().min_by_key(|m| m.first) else {
            invalid += 1;
            diags.push(
                Diagnostic::new(
                    i18n.span(i18n_file, &s.to),
                    "end of skipped passage not found",
                )
                .help("anchor the end of the passage with a few of its words"),
            );
            continue;
        };
        for x in skipped.iter_mut().take(t.last + 1).skip(f.first) {
            *x = true;
        }
    }

    for claim in &i18n.file.claims {
        let at_span = i18n.span(i18n_file, &claim.at);
        let pats = matcher::compile(&claim.at);
        let from = match &claim.after {
            Some(a) => {
                let m = matcher::find_all(&tokens, &matcher::compile(a), 0, tokens.len());
                match m.iter().map(|m| m.last + 1).min() {
                    Some(x) => x,
                    None => tokens.len(),
                }
            }
            None => 0,
        };
        let found = pick(
            &matcher::find_all(&tokens, &pats, from, tokens.len()),
            &used,
        );
        let facts = claim.facts();
        let players = claim.players.unwrap_or(players_default);
        let expect = claim.expect.as_ref().map(|e| e.as_str().to_string());
        let Some(m) = found else {
            if let Some((ti, lit)) = label_changed(&raw_tokens, &tokens, &pats, from, &used) {
                // The passage is there, with another number where the
                // anchor has a literal (a label), or with a number the
                // OCR rules read as a word where the claim reads a number:
                // report it at the number.
                let t = &raw_tokens[ti];
                let n = t.num.expect("a number token").value;
                summary.contradicted += 1;
                let (message, label, help) = match lit {
                    Some(lit) => (
                        format!("rulebook says {n} where the claim reads {lit}"),
                        format!("the claim's anchor has {lit} here"),
                        "correct the rulebook, or the literal number in the claim's anchor",
                    ),
                    None => (
                        format!("rulebook has {n} where the claim reads a number, and the text reads the word `{}`", tokens[ti].norm),
                        format!("read as `{}`", tokens[ti].norm),
                        "correct the rulebook; the `ocr_words:` of the language file read these digits as a word here",
                    ),
                };
                diags.push(
                    Diagnostic::new(bspan(t.start, t.end), message.clone())
                        .label(label)
                        .help(help),
                );
                findings.push(stray_number(
                    src,
                    (t.start, t.end),
                    claim.at.as_str(),
                    n,
                    message,
                ));
                continue;
            }
            let (status, message) = if expect.as_deref() == Some("not_found") {
                summary.expected += 1;
                (Status::Expected, "passage not found (expected)".to_string())
            } else {
                summary.not_found += 1;
                diags.push(
                    Diagnostic::new(at_span, format!("passage not found in {}", book.name))
                        .label("this anchor")
                        .help("anchors match word by word, whatever the accents; check the words against the rulebook, or add `after:` to search later"),
                );
                (Status::NotFound, "passage not found".to_string())
            };
            findings.push(Finding {
                status,
                line: 0,
                column: 0,
                passage: String::new(),
                anchor: Some(claim.at.as_str().to_string()),
                reference: facts.first().map(|f| f.as_str().to_string()),
                players: Some(players),
                text_value: None,
                rule_value: None,
                base_value: None,
                changed_by_variant: false,
                reason: claim.reason.clone(),
                message,
                span: None,
            });
            continue;
        };
        if let Some(ti) = earlier_read_back(&raw_tokens, &tokens, &pats, from, &used, &m) {
            // The same words earlier in the text, with digits the OCR rules
            // read as a word where the claim reads a number: the claim took
            // a later passage, this one has changed.
            let t = &raw_tokens[ti];
            let n = t.num.expect("a number token").value;
            summary.contradicted += 1;
            let message = format!(
                "rulebook has {n} where the claim reads a number, and the text reads the word `{}`",
                tokens[ti].norm
            );
            diags.push(
                Diagnostic::new(bspan(t.start, t.end), message.clone())
                    .label(format!("read as `{}`", tokens[ti].norm))
                    .help("correct the rulebook; the `ocr_words:` of the language file read these digits as a word here"),
            );
            findings.push(stray_number(
                src,
                (t.start, t.end),
                claim.at.as_str(),
                n,
                message,
            ));
        }
        let pstart = tokens[m.first].start;
        let pend = tokens[m.last].end;
        let passage = excerpt(src, pstart, pend);
        // The numbers a claim reads are taken (each is read by one claim);
        // a passage without `#` is taken at its first word.
        used.insert(m.nums.first().copied().unwrap_or(m.first));
        used.extend(m.nums.iter().copied());
        covered.extend(m.nums.iter().copied());
        covered.extend(m.lits.iter().copied());
        checked.extend(m.lits.iter().copied());
        summary.labels += m.lits.len();
        // Numbers read: the #s, then the numbers after the passage.
        let mut read: Vec<usize> = m.nums.clone();
        let mut k = m.last + 1;
        while read.len() < facts.len() && k < tokens.len() && k <= m.last + 12 {
            if tokens[k].num.is_some() {
                read.push(k);
                covered.insert(k);
            }
            k += 1;
        }
        let recorded = claim.recorded();
        if claim.note.is_some() && facts.is_empty() && !recorded.is_empty() {
            for (k, &ti) in m.nums.iter().enumerate() {
                let Some(&want) = recorded.get(k) else {
                    continue;
                };
                checked.insert(ti);
                let t = &tokens[ti];
                let n = t.num.expect("a number token");
                let ok = n.value == want || (!n.signed && n.value == -want);
                let (status, message) = if ok {
                    summary.recorded += 1;
                    (Status::Recorded, "as recorded".to_string())
                } else {
                    summary.contradicted += 1;
                    diags.push(
                        Diagnostic::new(
                            bspan(t.start, t.end),
                            format!(
                                "rulebook says {}, the language file records {want}",
                                n.value
                            ),
                        )
                        .label(format!("recorded: {want}"))
                        .note(bspan(pstart, pend), "passage")
                        .help(format!(
                            "no rule fact backs this number ({}); if the text is right, change `values:` in the claim",
                            claim.note.as_deref().unwrap_or("")
                        )),
                    );
                    (
                        Status::Contradicted,
                        format!("differs from the recorded {want}"),
                    )
                };
                findings.push(Finding {
                    status,
                    line: line_of(src, t.start),
                    column: col_of(src, t.start),
                    passage: passage.clone(),
                    anchor: Some(claim.at.as_str().to_string()),
                    reference: None,
                    players: None,
                    text_value: Some(n.value),
                    rule_value: None,
                    base_value: None,
                    changed_by_variant: false,
                    reason: claim.note.clone(),
                    message,
                    span: Some((t.start, t.end)),
                });
            }
            continue;
        }
        if claim.note.is_some() && facts.is_empty() {
            summary.noted += m.nums.len().max(1);
            let (a, b) = m
                .nums
                .first()
                .map_or((pstart, pend), |i| (tokens[*i].start, tokens[*i].end));
            findings.push(Finding {
                status: Status::Noted,
                line: line_of(src, a),
                column: col_of(src, a),
                passage,
                anchor: Some(claim.at.as_str().to_string()),
                reference: None,
                players: None,
                text_value: m.nums.first().and_then(|i| tokens[*i].num).map(|n| n.value),
                rule_value: None,
                base_value: None,
                changed_by_variant: false,
                reason: claim.note.clone(),
                message: "no rule fact".into(),
                span: Some((a, b)),
            });
            continue;
        }
        for (fi, fact) in facts.iter().enumerate() {
            let at = i18n.content_start(fact);
            let expr = match &claim.scenario {
                None => fact.as_str().to_string(),
                Some(sc) => match rules.in_scenario(sc.as_str(), fact.as_str()) {
                    Ok(e) => e,
                    Err(msg) => {
                        invalid += 1;
                        diags.push(
                            Diagnostic::new(i18n.span(i18n_file, fact), msg)
                                .help("`setup(x)` reads `x = N;` in the scenario's setup, `expected(x)` reads `x: N` in its `expect:` steps"),
                        );
                        continue;
                    }
                },
            };
            let substituted = expr != fact.as_str();
            let value = match rules.value(&expr, players, i18n_file, at) {
                Ok(v) => v,
                Err(ds) => {
                    invalid += 1;
                    if substituted {
                        let msg = ds
                            .first()
                            .map_or("invalid reference".to_string(), |d| d.message.clone());
                        diags.push(Diagnostic::new(i18n.span(i18n_file, fact), msg));
                    } else {
                        for d in ds {
                            diags.push(d);
                        }
                    }
                    continue;
                }
            };
            let base_value = match (&mut base, base_file) {
                (Some(b), Some(bf)) => b.value(&expr, players, bf, at).ok(),
                _ => None,
            };
            let fact_name = match &claim.scenario {
                Some(sc) => format!("{}: {}", sc.as_str(), fact.as_str()),
                None => fact.as_str().to_string(),
            };
            let Some(&ti) = read.get(fi) else {
                summary.not_found += 1;
                diags.push(
                    Diagnostic::new(
                        bspan(pstart, pend),
                        format!("no number for `{}` in this passage", fact_name.as_str()),
                    )
                    .label("passage")
                    .help("put a `#` in the anchor where the number stands"),
                );
                findings.push(finding(
                    Status::NotFound,
                    src,
                    &tokens,
                    (pstart, pend),
                    &passage,
                    claim,
                    fact_name.as_str(),
                    players,
                    None,
                    value,
                    base_value,
                    "no number read",
                ));
                continue;
            };
            let tok = &tokens[ti];
            checked.insert(ti);
            let n = tok.num.expect("a number token");
            let sign_lost = !n.signed && n.value == -value;
            let agrees = n.value == value || sign_lost;
            let base_agrees =
                base_value.is_some_and(|b| n.value == b || (!n.signed && n.value == -b));
            let changed = base.is_some() && !agrees && base_agrees && base_value != Some(value);
            let span = (tok.start, tok.end);
            let (status, message) = match (agrees, expect.as_deref()) {
                (true, Some(_)) => {
                    summary.stale += 1;
                    (
                        Status::Stale,
                        format!(
                            "expected a finding, but the rulebook now states {}, as the rules do",
                            n.value
                        ),
                    )
                }
                (true, None) => {
                    summary.confirmed += 1;
                    (
                        Status::Confirmed,
                        if sign_lost {
                            "confirmed (the minus sign is lost in the text)".into()
                        } else {
                            "confirmed".into()
                        },
                    )
                }
                (false, Some("contradicted"))
                    if !changed && claim.stated.is_none_or(|st| st == n.value) =>
                {
                    summary.expected += 1;
                    (
                        Status::Expected,
                        format!("rulebook says {}, rules say {value} (expected)", n.value),
                    )
                }
                (false, _) => {
                    summary.contradicted += 1;
                    let mut d = Diagnostic::new(
                        bspan(tok.start, tok.end),
                        format!(
                            "rulebook says {}, rules say {value} (`{}`)",
                            n.value,
                            fact_name.as_str()
                        ),
                    )
                    .label(format!("the rules say {value}"))
                    .note(bspan(pstart, pend), "passage");
                    if changed {
                        summary.changed_by_variant += 1;
                        d = d.help(format!(
                            "the variant {} changes `{}` from {} to {value}: its rulebook addendum must change this passage",
                            variants.join(", "),
                            fact_name.as_str(),
                            base_value.unwrap_or_default()
                        ));
                    } else {
                        d = d.help(format!(
                            "correct the rulebook, or the ruleset's `{}`; if the difference is known, add `expect: contradicted` and a `reason:` to the claim",
                            fact_name.as_str()
                        ));
                    }
                    diags.push(d);
                    (
                        Status::Contradicted,
                        if changed {
                            "made false by the variant".into()
                        } else {
                            "contradicted".into()
                        },
                    )
                }
            };
            let mut f = finding(
                status,
                src,
                &tokens,
                span,
                &passage,
                claim,
                fact_name.as_str(),
                players,
                Some(n.value),
                value,
                base_value,
                &message,
            );
            f.changed_by_variant = changed;
            findings.push(f);
        }
    }

    // Numeric statements near glossary terms (not list markers, not
    // cross-references).
    let refs: Vec<String> = i18n
        .file
        .references
        .iter()
        .flat_map(|w| crate::translate::text::normalise(w))
        .collect();
    let gloss = Glossary::new(i18n).mark(&tokens);
    let mut statements: Vec<usize> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let Some(n) = t.num else { continue };
        if covered.contains(&i) {
            statements.push(i);
            continue;
        }
        if skipped[i] || (n.word && n.value < 2) {
            continue;
        }
        let lo = i.saturating_sub(NEAR);
        let hi = (i + NEAR).min(tokens.len() - 1);
        if (lo..=hi).any(|j| gloss[j]) {
            statements.push(i);
        }
    }
    statements.retain(|&i| {
        covered.contains(&i)
            || !(is_list_marker(src, &tokens[i]) || after_reference(&tokens, i, &refs))
    });
    summary.statements = statements.len();
    for &i in &statements {
        if covered.contains(&i) {
            summary.covered += 1;
            continue;
        }
        summary.uncovered += 1;
        findings.push(token_finding(
            src,
            &tokens,
            i,
            Status::Uncovered,
            "numeric statement no claim covers".into(),
        ));
    }
    summary.coverage = if summary.statements == 0 {
        100.0
    } else {
        100.0 * summary.covered as f64 / summary.statements as f64
    };
    // Numbers no claim reads that break what the text around them says:
    // a digit where the grammar wants a word the OCR writes with digits,
    // a list item out of sequence.
    let mut odd: Vec<(usize, String, String)> = Vec::new();
    let complete = i18n.file.min_coverage.is_some_and(|m| m >= 100.0);
    for (i, word) in stray_numbers(src, &tokens, &i18n.file.ocr_words, complete) {
        if !covered.contains(&i) && !skipped[i] {
            let n = tokens[i].num.expect("a number").value;
            odd.push((
                i,
                format!("rulebook has {n} where the text reads the word `{word}`"),
                format!("the OCR writes `{word}` with other digits here; a changed number?"),
            ));
        }
    }
    let markers: Vec<usize> = (0..tokens.len())
        .filter(|&i| {
            digits[i]
                && !skipped[i]
                && tokens[i].num.is_some()
                && is_list_marker(src, &tokens[i])
                && !after_reference(&tokens, i, &refs)
        })
        .collect();
    // Words the OCR wrote with digits, and list items, are checked by
    // their context.
    checked.extend((0..tokens.len()).filter(|&i| digits[i] && tokens[i].num.is_none()));
    checked.extend(markers.iter().copied());
    for (k, &i) in markers.iter().enumerate() {
        if covered.contains(&i) {
            continue;
        }
        let v = tokens[i].num.expect("a number").value;
        let prev = k
            .checked_sub(1)
            .map(|p| tokens[markers[p]].num.expect("a number").value);
        let next = markers
            .get(k + 1)
            .map(|&j| tokens[j].num.expect("a number").value);
        let back_ok = v == 1 || prev == Some(v - 1);
        let fwd_ok = next.is_none_or(|n| n == 1 || n == v + 1);
        if !(back_ok && fwd_ok) {
            odd.push((
                i,
                format!("list item {v} out of sequence"),
                "items of a list count 1, 2, 3...; if the text is right, claim this number with `note:` and `values:`".to_string(),
            ));
        }
    }
    for (i, message, help) in odd {
        let t = &tokens[i];
        checked.insert(i);
        summary.contradicted += 1;
        diags.push(
            Diagnostic::new(bspan(t.start, t.end), message.clone())
                .label("this number")
                .help(help),
        );
        findings.push(token_finding(
            src,
            &tokens,
            i,
            Status::Contradicted,
            message,
        ));
    }

    // Every number written in digits in the rules sections.
    let mut numbers = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if !digits[i] || skipped[i] || after_reference(&tokens, i, &refs) {
            continue;
        }
        numbers.push(Site {
            line: line_of(src, t.start),
            column: col_of(src, t.start),
            text: src[t.start..t.end].to_string(),
            checked: checked.contains(&i),
            span: (t.start, t.end),
        });
    }
    summary.numbers = numbers.len();
    summary.numbers_checked = numbers.iter().filter(|n| n.checked).count();
    if let Some(min) = i18n.file.min_coverage {
        if summary.coverage + 1e-9 < min {
            for f in findings.iter().filter(|f| f.status == Status::Uncovered) {
                let (a, b) = f.span.unwrap_or((0, 0));
                diags.push(
                    Diagnostic::new(
                        bspan(a, b),
                        format!("numeric statement no claim covers ({} required)", fmt_pct(min)),
                    )
                    .label("unclaimed number")
                    .help("the language file requires this coverage: add a claim for this number, or correct the text"),
                );
            }
        }
    }
    findings.sort_by_key(|f| (f.status == Status::Uncovered, f.line, f.column));
    Report {
        rulebook: book.name.to_string(),
        lang: i18n.file.lang.clone(),
        variants: variants.to_vec(),
        findings,
        summary,
        numbers,
        min_coverage: i18n.file.min_coverage,
        diagnostics: diags,
        invalid,
    }
}

#[allow(clippy::too_many_arguments)]
fn finding(
    status: Status,
    src: &str,
    _tokens: &[Token],
    span: (usize, usize),
    passage: &str,
    claim: &Claim,
    fact: &str,
    players: usize,
    text_value: Option<i64>,
    rule_value: i64,
    base_value: Option<i64>,
    message: &str,
) -> Finding {
    Finding {
        status,
        line: line_of(src, span.0),
        column: col_of(src, span.0),
        passage: passage.to_string(),
        anchor: Some(claim.at.as_str().to_string()),
        reference: Some(fact.to_string()),
        players: Some(players),
        text_value,
        rule_value: Some(rule_value),
        base_value: base_value.filter(|b| *b != rule_value),
        changed_by_variant: false,
        reason: claim.reason.clone(),
        message: message.to_string(),
        span: Some(span),
    }
}

fn fmt_pct(p: f64) -> String {
    format!("{p}%")
}

/// When an anchor is not found: the passage with every literal read as
/// `#` and the digits the OCR rules read back as words kept as numbers
/// (not taken by an earlier claim), and the first token where the text has
/// another number than a literal (`Some(literal)`), or digits read as a
/// word where the claim reads a number (`None`).
fn label_changed(
    raw: &[Token],
    tokens: &[Token],
    pats: &[Pat],
    from: usize,
    used: &HashSet<usize>,
) -> Option<(usize, Option<i64>)> {
    let loose: Vec<Pat> = pats
        .iter()
        .map(|p| match p {
            Pat::Lit(_) => Pat::Num,
            p => p.clone(),
        })
        .collect();
    let found = matcher::find_all(raw, &loose, from, raw.len());
    let m = pick(&found, used)?;
    for (k, p) in pats
        .iter()
        .filter(|p| !matches!(p, Pat::Word { .. }))
        .enumerate()
    {
        let ti = *m.nums.get(k)?;
        if tokens[ti].num.is_none() {
            return Some((ti, None));
        }
        if let Pat::Lit(v) = p {
            if raw[ti].num.is_some_and(|n| n.value.abs() != *v) {
                return Some((ti, Some(*v)));
            }
        }
    }
    None
}

/// A passage before `m` with the claim's words, not taken by an earlier
/// claim, that scores as well as `m` once the digits the OCR rules read as
/// words are numbers again, with such digits where the claim reads a
/// number: returns that token.
fn earlier_read_back(
    raw: &[Token],
    tokens: &[Token],
    pats: &[Pat],
    from: usize,
    used: &HashSet<usize>,
    m: &matcher::Match,
) -> Option<usize> {
    if !pats.iter().any(|p| matches!(p, Pat::Num)) || from >= m.first {
        return None;
    }
    let found = matcher::find_all(raw, pats, from, m.first);
    found
        .iter()
        .filter(|r| r.score >= m.score - 0.03 && r.last < m.first)
        .filter(|r| !r.nums.first().is_some_and(|k| used.contains(k)))
        .find_map(|r| r.nums.iter().copied().find(|&i| tokens[i].num.is_none()))
}

/// `1.` or `2)` opening a line: an item number of a list.
fn is_list_marker(src: &str, t: &Token) -> bool {
    let line_start = src[..t.start].rfind('\n').map_or(0, |p| p + 1);
    crate::translate::text::strip_marks(&src[line_start..t.start])
        .trim()
        .is_empty()
        && matches!(src[t.end..].chars().next(), Some('.') | Some(')'))
}

/// A number right after a cross-reference word (`página 10`).
fn after_reference(tokens: &[Token], i: usize, refs: &[String]) -> bool {
    i > 0 && refs.iter().any(|r| tokens[i - 1].norm == *r)
}

/// Chooses among an anchor's matches: the best one not yet used by an
/// earlier claim (among near-equal scores, the first in the text), so that
/// claims listed in rulebook order with the same words take successive
/// passages. A passage whose number an earlier claim read is never taken
/// again: each number is read by one claim.
fn pick(found: &[matcher::Match], used: &HashSet<usize>) -> Option<matcher::Match> {
    let best = found.first()?.score;
    let mut near: Vec<&matcher::Match> = found.iter().filter(|m| m.score >= best - 0.03).collect();
    near.sort_by_key(|m| m.first);
    let free = |m: &&matcher::Match| {
        let key = m.nums.first().copied().unwrap_or(m.first);
        !used.contains(&key)
    };
    near.iter()
        .find(|m| free(m))
        .map(|m| (*m).clone())
        .or_else(|| found.iter().find(|m| free(m)).cloned())
}

//! Reading a ruleset's `view.yaml`: the board and panels a picture of the
//! game shows, each value an expression of the rules language compiled
//! into a function of the cell or row it describes (see `ir::view`).

use std::path::Path;

use marked_yaml::types::MarkedMappingNode;
use marked_yaml::Node;

use super::files::syntax_diag;
use super::read::MAX_FILE_BYTES;
use super::yaml::{check_keys_in, parse_yaml_in, span_in};
use crate::ir::bytecode::{FuncId, KindId, Op};
use crate::ir::codes::Code;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::{Ruleset, Visibility};
use crate::ir::span::{SourceFile, Span};
use crate::ir::types::Ty;
use crate::ir::view::{GridDecl, LayerDecl, PanelDecl, Secrecy, Shown, TerrainDecl, ViewDecl};
use crate::lang::parser;
use crate::model::compile::ty_name;
use crate::model::snippet;

/// The file a ruleset declares its view in.
pub const VIEW_FILE: &str = "view.yaml";

/// The name of the functions a view compiles (not counted as the rules').
pub const VIEW_FUNCTION: &str = "view";

/// The name a grid's cell is bound to in its expressions.
pub const CELL: &str = "cell";

/// Reads `dir/view.yaml` when present and stores the compiled view in
/// `rules.view`; the mistakes found otherwise. Loading a ruleset does not
/// read its view (parsing its expressions is a cost simulations do not
/// need): the tools that draw, and `check`, attach it.
pub fn attach(dir: &Path, rules: &mut Ruleset) -> Result<(), Diagnostics> {
    let path = dir.join(VIEW_FILE);
    if !path.is_file() {
        return Ok(());
    }
    let mut diags = Diagnostics {
        sources: rules.sources.clone(),
        items: Vec::new(),
    };
    let text = match std::fs::metadata(&path).map(|m| m.len()) {
        Ok(n) if n > MAX_FILE_BYTES => {
            diags.push(Diagnostic::new(
                Code::TooLarge,
                Span::default(),
                format!("`{VIEW_FILE}` is larger than {MAX_FILE_BYTES} bytes"),
            ));
            return Err(diags);
        }
        _ => std::fs::read_to_string(&path).unwrap_or_default(),
    };
    let file = diags.sources.add(path.display().to_string(), text);
    rules.sources = diags.sources.clone();
    let src = rules.sources.shared(file);
    let Some(root) = parse_yaml_in(&*src, &mut diags) else {
        return Err(diags);
    };
    let mut r = Reader {
        rules,
        src: &src,
        diags: &mut diags,
    };
    let view = r.view(&root);
    if !diags.items.is_empty() {
        return Err(diags);
    }
    rules.view = view;
    Ok(())
}

struct Reader<'a> {
    rules: &'a mut Ruleset,
    src: &'a SourceFile,
    diags: &'a mut Diagnostics,
}

impl Reader<'_> {
    fn span(&self, n: &Node) -> Span {
        span_in(self.src, n.span())
    }

    fn bad(&mut self, n: &Node, msg: impl Into<String>, help: &str) {
        let d = Diagnostic::new(Code::BadValue, self.span(n), msg).help(help.to_string());
        self.diags.push(d);
    }

    fn mapping<'n>(&mut self, n: &'n Node, what: &str) -> Option<&'n MarkedMappingNode> {
        let m = n.as_mapping();
        if m.is_none() {
            self.bad(
                n,
                format!("{what} must be a mapping"),
                "see docs/LANGUAGE.md, Views",
            );
        }
        m
    }

    fn text(&mut self, n: &Node, what: &str) -> Option<String> {
        match n.as_scalar() {
            Some(s) => Some(s.as_str().to_string()),
            None => {
                self.bad(
                    n,
                    format!("{what} must be a text"),
                    "see docs/LANGUAGE.md, Views",
                );
                None
            }
        }
    }

    fn view(&mut self, root: &Node) -> Option<ViewDecl> {
        let m = self.mapping(root, "a view")?;
        check_keys_in(
            self.src,
            m,
            &["colours", "grid", "panels"],
            "a view",
            self.diags,
        );
        let mut view = ViewDecl::default();
        if let Some(c) = m.get_node("colours") {
            if let Some(cm) = self.mapping(c, "`colours:`") {
                for (k, v) in cm.iter() {
                    if let Some(t) = self.text(v, "a colour") {
                        view.colours.push((k.as_str().to_string(), t));
                    }
                }
            }
        }
        if let Some(g) = m.get_node("grid") {
            view.grid = self.grid(g);
        }
        if let Some(p) = m.get_node("panels") {
            match p.as_sequence() {
                Some(seq) => {
                    for item in seq.iter() {
                        if let Some(panel) = self.panel(item) {
                            view.panels.push(panel);
                        }
                    }
                }
                None => self.bad(
                    p,
                    "`panels:` must be a list",
                    "write `panels: [{title: ..., columns: {...}}]`",
                ),
            }
        }
        Some(view)
    }

    fn kind(&mut self, n: &Node) -> Option<KindId> {
        let name = self.text(n, "a kind")?;
        let k = self.rules.kinds.iter().position(|k| k.name == name);
        if k.is_none() {
            let d = Diagnostic::new(Code::UnknownKind, self.span(n), format!("no kind `{name}`"))
                .help("name a kind declared by a data file");
            self.diags.push(d);
        }
        k.map(|k| k as KindId)
    }

    fn grid(&mut self, n: &Node) -> Option<GridDecl> {
        let m = self.mapping(n, "`grid:`")?;
        check_keys_in(
            self.src,
            m,
            &["kind", "cells", "terrain", "show", "height"],
            "a view's grid",
            self.diags,
        );
        let Some(kn) = m.get_node("kind") else {
            self.bad(
                n,
                "a view's grid needs `kind:`",
                "name the grid kind: `kind: square`",
            );
            return None;
        };
        let kind = self.kind(kn)?;
        if self.rules.kinds[kind as usize].grid.is_none() {
            self.bad(
                kn,
                "this kind is not a grid",
                "name a kind declared with `grid:`",
            );
            return None;
        }
        let cell = [(CELL.to_string(), Ty::Ent(kind))];
        let mut g = GridDecl {
            kind,
            cells: None,
            terrain: Vec::new(),
            layers: Vec::new(),
            height: None,
        };
        g.cells = m
            .get_node("cells")
            .and_then(|c| self.expr(c, &cell, Some(&Ty::Bool)));
        g.height = m
            .get_node("height")
            .and_then(|c| self.expr(c, &cell, Some(&Ty::Int)));
        if let Some(t) = m.get_node("terrain") {
            if let Some(tm) = self.mapping(t, "`terrain:`") {
                for (name, body) in tm.iter() {
                    if let Some(t) = self.terrain(name.as_str(), body, &cell) {
                        g.terrain.push(t);
                    }
                }
            }
        }
        if let Some(s) = m.get_node("show") {
            match s.as_sequence() {
                Some(seq) => {
                    for item in seq.iter() {
                        if let Some(l) = self.layer(item, &cell) {
                            g.layers.push(l);
                        }
                    }
                }
                None => self.bad(
                    s,
                    "`show:` must be a list",
                    "write `show: [{name: ..., if: ..., glyph: ...}]`",
                ),
            }
        }
        Some(g)
    }

    fn terrain(&mut self, name: &str, n: &Node, cell: &[(String, Ty)]) -> Option<TerrainDecl> {
        let m = self.mapping(n, "a terrain")?;
        check_keys_in(
            self.src,
            m,
            &["if", "glyph", "colour"],
            "a terrain",
            self.diags,
        );
        let when = self.required(n, m, "if", cell, Some(&Ty::Bool))?;
        let glyph = match m.get_node("glyph") {
            Some(g) => self.text(g, "a glyph")?,
            None => ".".into(),
        };
        let colour = match m.get_node("colour") {
            Some(c) => Some(self.text(c, "a colour")?),
            None => None,
        };
        Some(TerrainDecl {
            name: name.to_string(),
            when,
            glyph,
            colour,
        })
    }

    fn layer(&mut self, n: &Node, cell: &[(String, Ty)]) -> Option<LayerDecl> {
        let m = self.mapping(n, "an entry of `show:`")?;
        check_keys_in(
            self.src,
            m,
            &["name", "if", "glyph", "colour", "label"],
            "an entry of `show:`",
            self.diags,
        );
        let when = self.required(n, m, "if", cell, Some(&Ty::Bool))?;
        let name = match m.get_node("name") {
            Some(g) => self.text(g, "a name")?,
            None => String::new(),
        };
        let glyph = match m.get_node("glyph") {
            Some(g) => self.text(g, "a glyph")?,
            None => name.chars().next().map(String::from).unwrap_or("*".into()),
        };
        let colour = m.get_node("colour").and_then(|c| self.expr(c, cell, None));
        let label = m.get_node("label").and_then(|c| self.expr(c, cell, None));
        Some(LayerDecl {
            name,
            when,
            glyph,
            colour,
            label,
        })
    }

    fn panel(&mut self, n: &Node) -> Option<PanelDecl> {
        let m = self.mapping(n, "a panel")?;
        check_keys_in(
            self.src,
            m,
            &["title", "rows", "where", "columns"],
            "a panel",
            self.diags,
        );
        let title = match m.get_node("title") {
            Some(t) => self.text(t, "a title")?,
            None => String::new(),
        };
        let mut rows = None;
        if let Some(r) = m.get_node("rows") {
            let rm = self.mapping(r, "`rows:`")?;
            let mut it = rm.iter();
            match (it.next(), it.next()) {
                (Some((name, kind)), None) => {
                    rows = Some((name.as_str().to_string(), self.kind(kind)?));
                }
                _ => {
                    self.bad(
                        r,
                        "`rows:` names one variable and its kind",
                        "write `rows: {p: player}`",
                    );
                    return None;
                }
            }
        }
        let params: Vec<(String, Ty)> =
            rows.iter().map(|(n, k)| (n.clone(), Ty::Ent(*k))).collect();
        let filter = m
            .get_node("where")
            .and_then(|w| self.expr(w, &params, Some(&Ty::Bool)));
        let mut columns = Vec::new();
        match m.get_node("columns").map(|c| (c, c.as_mapping())) {
            Some((_, Some(cm))) => {
                for (k, v) in cm.iter() {
                    if let Some(s) = self.expr(v, &params, None) {
                        columns.push((k.as_str().to_string(), s));
                    }
                }
            }
            Some((c, None)) => self.bad(
                c,
                "`columns:` must be a mapping",
                "write `columns: {score: \"vp[p]\"}`",
            ),
            None => self.bad(
                n,
                "a panel needs `columns:`",
                "write `columns: {score: \"vp[p]\"}`",
            ),
        }
        Some(PanelDecl {
            title,
            rows,
            filter,
            columns,
        })
    }

    fn required(
        &mut self,
        n: &Node,
        m: &MarkedMappingNode,
        key: &str,
        params: &[(String, Ty)],
        want: Option<&Ty>,
    ) -> Option<Shown> {
        match m.get_node(key) {
            Some(e) => self.expr(e, params, want),
            None => {
                let d = Diagnostic::new(
                    Code::MissingField,
                    self.span(n),
                    format!("`{key}:` is missing"),
                )
                .help("see docs/LANGUAGE.md, Views");
                self.diags.push(d);
                None
            }
        }
    }

    /// Compiles an expression written in a YAML scalar, as a function of
    /// `params`; checks its type when `want` says one.
    fn expr(&mut self, n: &Node, params: &[(String, Ty)], want: Option<&Ty>) -> Option<Shown> {
        let text = self.text(n, "an expression")?;
        let span = self.span(n);
        // The expression's place in the file: its first line, searched
        // from the node on (a quoted scalar starts after its quote).
        let base = self.src.text[span.start as usize..]
            .find(text.lines().next().unwrap_or(""))
            .map_or(span.start as usize, |p| p + span.start as usize);
        let map = move |o: usize| base + o;
        let e = match parser::parse_expr(self.src.id, &text, &map) {
            Ok(e) => e,
            Err(e) => {
                self.diags.push(syntax_diag(e));
                return None;
            }
        };
        let (func, ty) = match snippet::add_function(self.rules, VIEW_FUNCTION, params, &e) {
            Ok(x) => x,
            Err(ds) => {
                self.diags.items.extend(ds);
                return None;
            }
        };
        if let Some(w) = want {
            if &ty != w {
                let d = Diagnostic::new(
                    Code::TypeMismatch,
                    span,
                    format!(
                        "this expression is {}: {} is needed here",
                        ty_name(&self.rules.kinds, &ty),
                        ty_name(&self.rules.kinds, w)
                    ),
                );
                self.diags.push(d);
                return None;
            }
        }
        if matches!(ty, Ty::Void | Ty::Error) {
            return None;
        }
        Some(Shown {
            func,
            secrecy: secrecy(self.rules, func),
            ty,
        })
    }
}

/// The most secret variable a function reads, directly or through the
/// functions it calls (a dynamic call counts as hidden).
fn secrecy(rules: &Ruleset, func: FuncId) -> Secrecy {
    let mut seen = vec![false; rules.funcs.len()];
    let mut todo = vec![func];
    let mut out = Secrecy::Public;
    while let Some(f) = todo.pop() {
        if std::mem::replace(&mut seen[f as usize], true) {
            continue;
        }
        // A fused instruction reads what the sequence it stands for reads.
        let code = &rules.funcs[f as usize].code;
        for op in code.iter().flat_map(crate::ir::verify::unfused) {
            let var = match op {
                Op::Call(g, _) => {
                    todo.push(g);
                    None
                }
                Op::CallDyn(_) => return Secrecy::Hidden,
                Op::LoadVar(v)
                | Op::ListLen(v)
                | Op::ListIn(v)
                | Op::ListSet(v)
                | Op::ListDraw(v)
                | Op::SelectEq(v)
                | Op::CountEq(v)
                | Op::MembersEq(v)
                | Op::MembersCmp(v, _) => Some(v),
                _ => None,
            };
            match var.map(|v| rules.vars[v as usize].visibility) {
                Some(Visibility::Hidden) => return Secrecy::Hidden,
                Some(Visibility::Private) => out = Secrecy::Private,
                _ => {}
            }
        }
    }
    out
}

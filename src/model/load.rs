//! Loading a ruleset: read every file, build kinds and parameters from
//! YAML, declare the rules' items, lay out the state, compile the bodies.

use std::path::{Path, PathBuf};

use marked_yaml::Node;

use crate::ir::bytecode::{FuncId, VarId};
use crate::ir::diag::{did_you_mean, Diagnostic, Diagnostics};
use crate::ir::grid::{Grid, GridShape};
use crate::ir::ruleset::*;
use crate::ir::span::Span;
use crate::ir::symbols::{Global, Sig, Symbols};
use crate::lang::ast;
use crate::lang::parser;
use crate::model::compile::{check_reserved, resolve_type, ty_name, Compiler, FnCtx};
use crate::model::data::{self, check_keys, node_span, GameFile, VariantFile};

/// Why a ruleset could not be loaded.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum LoadError {
    /// A path given on the command line does not exist or is not a ruleset.
    #[error("{message}")]
    #[diagnostic(code(tabula::load))]
    NotFound {
        /// What is missing.
        message: String,
        /// What to do.
        #[help]
        help: String,
    },
    /// The files were read but contain mistakes.
    #[error("the ruleset has {} error(s)", .0.items.len())]
    Invalid(Diagnostics),
}

struct DataFile {
    file: u32,
    node: Node,
    is_variant: bool,
}

struct RulesFile {
    ast: ast::File,
    is_variant: bool,
}

#[derive(Default)]
struct RawKind {
    name: String,
    span: Span,
    file: u32,
    fields: Vec<(String, Span, String, Span)>,
    items: Vec<(String, Span, Option<Node>)>,
    grid: Option<Grid>,
}

/// Loads and checks the ruleset in `dir`, applying `variants` in order.
pub fn load(dir: &Path, variants: &[String]) -> Result<Ruleset, LoadError> {
    let game_path = dir.join("game.yaml");
    let game_text = std::fs::read_to_string(&game_path).map_err(|_| LoadError::NotFound {
        message: format!(
            "no ruleset at `{}`: `{}` cannot be read",
            dir.display(),
            game_path.display()
        ),
        help: "a ruleset is a directory holding game.yaml (e.g. rules/<game>)".into(),
    })?;
    let mut diags = Diagnostics::default();
    let base = dir.parent().unwrap_or(Path::new("."));
    let display = |p: &Path| -> String { p.strip_prefix(base).unwrap_or(p).display().to_string() };
    let game_file = diags.sources.add(display(&game_path), game_text.as_str());
    let Some(game_node) = data::parse_yaml(game_file, &game_text, &mut diags) else {
        return Err(LoadError::Invalid(diags));
    };
    let Some(game) =
        data::from_node::<GameFile>(game_file, &game_text, &game_node, "game.yaml", &mut diags)
    else {
        return Err(LoadError::Invalid(diags));
    };
    let mut files = data::ruleset_files(dir, &game, game_file, &game_text, &mut diags);
    let mut variant_from = files.len();
    let mut removals: Vec<(String, String, Span)> = Vec::new();
    for v in variants {
        let vpath = dir.join("variants").join(format!("{v}.yaml"));
        let Ok(vtext) = std::fs::read_to_string(&vpath) else {
            let known = list_variants(dir);
            let help = did_you_mean(v, known.iter().map(|s| s.as_str()))
                .map(|h| format!("{h} (variants of this ruleset: {})", known.join(", ")))
                .unwrap_or_else(|| {
                    if known.is_empty() {
                        "this ruleset has no variants".into()
                    } else {
                        format!("variants of this ruleset: {}", known.join(", "))
                    }
                });
            return Err(LoadError::NotFound {
                message: format!("unknown variant `{v}`"),
                help,
            });
        };
        let vfile = diags.sources.add(display(&vpath), vtext.as_str());
        let Some(vnode) = data::parse_yaml(vfile, &vtext, &mut diags) else {
            continue;
        };
        let Some(vf) =
            data::from_node::<VariantFile>(vfile, &vtext, &vnode, "a variant", &mut diags)
        else {
            continue;
        };
        let vdir = vpath.parent().unwrap_or(dir).to_path_buf();
        if variant_from > files.len() {
            variant_from = files.len();
        }
        for f in &vf.files {
            files.push((vdir.join(f.as_str()), node_span(vfile, &vtext, f.span())));
        }
        for (kind, ids) in &vf.remove {
            for id in ids {
                removals.push((
                    kind.clone(),
                    id.to_string(),
                    node_span(vfile, &vtext, id.span()),
                ));
            }
        }
    }
    let mut datas = Vec::new();
    let mut rules = Vec::new();
    for (i, (path, span)) in files.iter().enumerate() {
        let is_variant = i >= variant_from;
        let Ok(text) = std::fs::read_to_string(path) else {
            diags.push(
                Diagnostic::new(*span, format!("cannot read `{}`", display(path)))
                    .label("this file is missing")
                    .help("check the file name, or create the file"),
            );
            continue;
        };
        let fid = diags.sources.add(display(path), text.as_str());
        match path.extension().and_then(|e| e.to_str()) {
            Some("rules") => match parser::parse_file(fid, &text) {
                Ok(ast) => rules.push(RulesFile { ast, is_variant }),
                Err(e) => diags.push(syntax_diag(e)),
            },
            Some("yaml") | Some("yml") => {
                if let Some(node) = data::parse_yaml(fid, &text, &mut diags) {
                    datas.push(DataFile {
                        file: fid,
                        node,
                        is_variant,
                    });
                }
            }
            _ => diags.push(
                Diagnostic::new(
                    *span,
                    format!("`{}` is neither a .yaml nor a .rules file", display(path)),
                )
                .help("list data files (.yaml) and rules files (.rules)"),
            ),
        }
    }
    // A file that is missing or cannot be parsed makes every later check
    // report names it would have defined: stop at its own diagnostics.
    if !diags.is_empty() {
        return Err(LoadError::Invalid(diags));
    }
    let mut b = Builder {
        diags,
        symbols: Symbols::default(),
        kinds: Vec::new(),
        params: Vec::new(),
        vars: Vec::new(),
        sigs: Vec::new(),
        bodies: Vec::new(),
    };
    b.player_kind(&game, game_file, &game_text);
    let raw = b.collect_kinds(&datas, &removals);
    b.collect_params(&datas);
    b.declare_rules(&rules);
    b.kind_fields(&raw);
    b.layout_vars(&rules);
    let out = b.compile_all(&rules, &game, game_file, &game_text);
    let id = dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
        .unwrap_or_else(|| "ruleset".into());
    match out {
        Some(mut r) if b.diags.is_empty() => {
            r.id = id;
            r.variants = variants.to_vec();
            r.name = game.name.to_string();
            r.min_players = game.players.min;
            r.max_players = game.players.max;
            r.sources = b.diags.sources;
            Ok(r)
        }
        _ => Err(LoadError::Invalid(b.diags)),
    }
}

/// The variants a ruleset offers.
pub fn list_variants(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("variants"))
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let p = e.path();
                    (p.extension().and_then(|x| x.to_str()) == Some("yaml"))
                        .then(|| p.file_stem().map(|s| s.to_string_lossy().to_string()))
                        .flatten()
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Turns a syntax error into a diagnostic.
pub fn syntax_diag(e: parser::SyntaxError) -> Diagnostic {
    let expected = match e.expected.len() {
        0 => "something else".to_string(),
        1 => e.expected[0].clone(),
        n => format!(
            "{} or {}",
            e.expected[..n - 1].join(", "),
            e.expected[n - 1]
        ),
    };
    let detail = e.detail.map(|d| *d).unwrap_or_default();
    let mut d = Diagnostic::new(
        e.span,
        format!("syntax error: expected {expected}, found {}", e.found),
    )
    .label(detail.label.unwrap_or_else(|| "unexpected here".into()))
    .help(
        detail
            .help
            .unwrap_or_else(|| format!("write {expected} here")),
    );
    if let Some((span, text)) = detail.note {
        d = d.note(span, text);
    }
    d
}

struct Builder {
    diags: Diagnostics,
    symbols: Symbols,
    kinds: Vec<Kind>,
    params: Vec<ParamDef>,
    vars: Vec<VarDef>,
    sigs: Vec<Sig>,
    bodies: Vec<Body>,
}

enum Body {
    Fn(usize, usize),
    Proc(usize, usize),
}

impl Builder {
    fn define(&mut self, name: &ast::Ident, g: Global, is_variant: bool) -> bool {
        check_reserved(&mut self.diags, name);
        if is_variant && self.symbols.get(&name.name).is_some() {
            self.symbols.redefine(&name.name, g, name.span);
            return true;
        }
        if let Err(first) = self.symbols.define(&name.name, g, name.span) {
            self.diags.push(
                Diagnostic::new(name.span, format!("`{}` is defined twice", name.name))
                    .label("defined again here")
                    .note(first, "first defined here")
                    .help("every kind, item, parameter, variable, function and procedure needs its own name"),
            );
            return false;
        }
        true
    }

    fn player_kind(&mut self, game: &GameFile, file: u32, text: &str) {
        let pspan = node_span(file, text, game.players.span());
        let (min, max) = (game.players.min, game.players.max);
        if min == 0 || min > max || max > 16 {
            self.diags.push(
                Diagnostic::new(pspan, format!("bad player count: min {min}, max {max}"))
                    .label("player range")
                    .help("write players: {min: N, max: M} with 1 <= N <= M <= 16"),
            );
        }
        let mut items: Vec<String> = game.seats.iter().map(|s| s.to_string()).collect();
        if !items.is_empty() && items.len() < max {
            let span = node_span(file, text, game.seats[0].span());
            self.diags.push(
                Diagnostic::new(
                    span,
                    format!("{} seat names for up to {max} players", items.len()),
                )
                .help("name one seat per possible player"),
            );
        }
        let n = max.clamp(1, 16);
        while items.len() < n {
            items.push(format!("p{}", items.len() + 1));
        }
        items.truncate(n);
        self.kinds.push(Kind {
            name: "player".into(),
            items,
            fields: Vec::new(),
            data: vec![Vec::new(); n],
            span: pspan,
            grid: None,
            adjacent: Vec::new(),
            field_sets: Vec::new(),
        });
        let id = ast::Ident {
            name: "player".into(),
            span: pspan,
        };
        self.define(&id, Global::Kind(PLAYER), false);
        let seat_names = self.kinds[PLAYER as usize].items.clone();
        for (i, seat) in seat_names.iter().enumerate() {
            let span = game
                .seats
                .get(i)
                .map_or(pspan, |s| node_span(file, text, s.span()));
            let id = ast::Ident {
                name: seat.clone(),
                span,
            };
            self.define(&id, Global::Item(PLAYER, i as i64), false);
        }
    }

    fn text(&self, file: u32) -> std::sync::Arc<str> {
        self.diags.sources.file(file).text.clone()
    }

    fn collect_kinds(
        &mut self,
        datas: &[DataFile],
        removals: &[(String, String, Span)],
    ) -> Vec<RawKind> {
        let mut raws: Vec<RawKind> = Vec::new();
        for d in datas {
            let text = self.text(d.file);
            let Some(map) = d.node.as_mapping() else {
                self.diags.push(
                    Diagnostic::new(
                        node_span(d.file, &text, d.node.span()),
                        "a data file must be a mapping",
                    )
                    .help("write `kinds:` and `params:` sections"),
                );
                continue;
            };
            check_keys(
                d.file,
                &text,
                map,
                &["kinds", "params", "doc"],
                "a data file",
                &mut self.diags,
            );
            let Some(kinds) = map.get_node("kinds") else {
                continue;
            };
            let Some(kinds) = kinds.as_mapping() else {
                self.diags.push(
                    Diagnostic::new(
                        node_span(d.file, &text, kinds.span()),
                        "`kinds:` must map kind names to definitions",
                    )
                    .help("write `kinds:` then `name: {fields: ..., items: ...}`"),
                );
                continue;
            };
            for (kname, kdef) in kinds.iter() {
                let kspan = node_span(d.file, &text, kname.span());
                let existing = raws.iter().position(|r| r.name == kname.as_str());
                let idx = match existing {
                    Some(i) if d.is_variant => i,
                    _ => {
                        raws.push(RawKind {
                            name: kname.as_str().to_string(),
                            span: kspan,
                            file: d.file,
                            ..Default::default()
                        });
                        raws.len() - 1
                    }
                };
                let Some(kmap) = kdef.as_mapping() else {
                    self.diags.push(
                        Diagnostic::new(
                            node_span(d.file, &text, kdef.span()),
                            format!("kind `{}` must be a mapping", kname.as_str()),
                        )
                        .help("give it `items:` and, optionally, `fields:` and `doc:`"),
                    );
                    continue;
                };
                check_keys(
                    d.file,
                    &text,
                    kmap,
                    &["doc", "fields", "items", "grid"],
                    "a kind",
                    &mut self.diags,
                );
                if let Some(g) = kmap.get_node("grid") {
                    if let Some(grid) = self.grid_of(d.file, &text, g) {
                        if raws[idx].grid.is_none() {
                            for y in 0..grid.height {
                                for x in 0..grid.width {
                                    let id = format!("{}_{x}_{y}", kname.as_str());
                                    raws[idx].items.push((id, kspan, None));
                                }
                            }
                        }
                        raws[idx].grid = Some(grid);
                    }
                }
                let grid_cells = raws[idx].items.len();
                if let Some(fields) = kmap.get_mapping("fields") {
                    for (fname, fty) in fields.iter() {
                        let ty_text = fty
                            .as_scalar()
                            .map(|s| s.as_str().to_string())
                            .unwrap_or_default();
                        raws[idx].fields.push((
                            fname.as_str().to_string(),
                            node_span(d.file, &text, fname.span()),
                            ty_text,
                            node_span(d.file, &text, fty.span()),
                        ));
                    }
                }
                match kmap.get_node("items") {
                    Some(Node::Mapping(items)) => {
                        for (iname, idef) in items.iter() {
                            let ispan = node_span(d.file, &text, iname.span());
                            let entry = (iname.as_str().to_string(), ispan, Some(idef.clone()));
                            if let Some(pos) = raws[idx].items.iter().position(|x| x.0 == entry.0) {
                                let span = raws[idx].items[pos].1;
                                raws[idx].items[pos] = entry;
                                if raws[idx].grid.is_some() {
                                    raws[idx].items[pos].1 = span;
                                }
                            } else if raws[idx].grid.is_some() {
                                self.diags.push(
                                    Diagnostic::new(
                                        ispan,
                                        format!(
                                            "`{}` is not a cell of the grid `{}`",
                                            entry.0,
                                            kname.as_str()
                                        ),
                                    )
                                    .label("no such cell")
                                    .help(format!(
                                        "cells of a grid are named {}_X_Y, from 0",
                                        kname.as_str()
                                    )),
                                );
                            } else {
                                raws[idx].items.push(entry);
                            }
                        }
                    }
                    Some(Node::Sequence(items)) => {
                        for it in items.iter() {
                            match it.as_scalar() {
                                Some(s) => raws[idx].items.push((
                                    s.as_str().to_string(),
                                    node_span(d.file, &text, it.span()),
                                    None,
                                )),
                                None => self.diags.push(
                                    Diagnostic::new(
                                        node_span(d.file, &text, it.span()),
                                        "an item in a list must be a plain id",
                                    )
                                    .help(
                                        "use `items: {id: {field: value}}` for items with fields",
                                    ),
                                ),
                            }
                        }
                    }
                    Some(other) => self.diags.push(
                        Diagnostic::new(
                            node_span(d.file, &text, other.span()),
                            "`items:` must be a mapping or a list",
                        )
                        .help("write `items: {id: {...}}` or `items: [a, b, c]`"),
                    ),
                    None if grid_cells > 0 && raws[idx].grid.is_some() => {}
                    None => self.diags.push(
                        Diagnostic::new(
                            kspan,
                            format!("kind `{}` has no `items:`", kname.as_str()),
                        )
                        .label("missing items")
                        .help("add `items:` listing its components"),
                    ),
                }
            }
        }
        for (kind, id, span) in removals {
            match raws.iter_mut().find(|r| r.name == *kind) {
                Some(r) => {
                    let before = r.items.len();
                    r.items.retain(|(i, _, _)| i != id);
                    if r.items.len() == before {
                        let help = did_you_mean(id, r.items.iter().map(|x| x.0.as_str()))
                            .unwrap_or_else(|| format!("`remove:` names items of `{kind}` by id"));
                        self.diags.push(
                            Diagnostic::new(
                                *span,
                                format!("`{kind}` has no item `{id}` to remove"),
                            )
                            .label("no such item")
                            .help(help),
                        );
                    }
                }
                None => {
                    let help = did_you_mean(kind, raws.iter().map(|r| r.name.as_str()))
                        .unwrap_or_else(|| "`remove:` maps a kind to the ids to take out".into());
                    self.diags.push(
                        Diagnostic::new(*span, format!("unknown kind `{kind}` in `remove:`"))
                            .help(help),
                    );
                }
            }
        }
        for r in &mut raws {
            // Expand `copies: N`.
            let mut expanded = Vec::new();
            for (id, span, node) in r.items.drain(..) {
                let copies = node
                    .as_ref()
                    .and_then(|n| n.as_mapping())
                    .and_then(|m| m.get_scalar("copies"))
                    .and_then(|s| s.as_str().parse::<usize>().ok())
                    .unwrap_or(1);
                if copies <= 1 {
                    expanded.push((id, span, node));
                } else {
                    for c in 1..=copies {
                        expanded.push((format!("{id}_{c}"), span, node.clone()));
                    }
                }
            }
            r.items = expanded;
        }
        for r in &raws {
            let k = self.kinds.len() as u16;
            let id = ast::Ident {
                name: r.name.clone(),
                span: r.span,
            };
            self.define(&id, Global::Kind(k), false);
            for (i, (item, span, _)) in r.items.iter().enumerate() {
                let id = ast::Ident {
                    name: item.clone(),
                    span: *span,
                };
                if r.items[..i].iter().any(|x| x.0 == *item) {
                    let first = r.items.iter().find(|x| x.0 == *item).map_or(*span, |x| x.1);
                    self.diags.push(
                        Diagnostic::new(
                            *span,
                            format!("duplicate id `{item}` in kind `{}`", r.name),
                        )
                        .note(first, "first used here")
                        .help("give each item its own id"),
                    );
                    continue;
                }
                self.define(&id, Global::Item(k, i as i64), false);
            }
            self.kinds.push(Kind {
                name: r.name.clone(),
                items: r.items.iter().map(|x| x.0.clone()).collect(),
                fields: Vec::new(),
                data: vec![Vec::new(); r.items.len()],
                span: r.span,
                grid: None,
                adjacent: Vec::new(),
                field_sets: Vec::new(),
            });
        }
        raws
    }

    fn grid_of(&mut self, file: u32, text: &str, node: &Node) -> Option<Grid> {
        let span = node_span(file, text, node.span());
        let Some(m) = node.as_mapping() else {
            self.diags.push(
                Diagnostic::new(span, "`grid:` must be a mapping")
                    .help("write `grid: {shape: square, width: 16, height: 11}`"),
            );
            return None;
        };
        check_keys(
            file,
            text,
            m,
            &["shape", "width", "height"],
            "a grid",
            &mut self.diags,
        );
        let num = |k: &str| {
            m.get_scalar(k)
                .and_then(|s| s.as_str().parse::<usize>().ok())
        };
        let shape = match m.get_scalar("shape").map(|s| s.as_str()) {
            None | Some("square") => GridShape::Square,
            Some("hex") => GridShape::Hex,
            Some(other) => {
                self.diags.push(Diagnostic::new(span, format!("unknown grid shape `{other}`")).help("a grid is `square` (4 neighbours) or `hex` (6 neighbours, odd rows shifted right)"));
                return None;
            }
        };
        match (num("width"), num("height")) {
            (Some(w), Some(h)) if w > 0 && h > 0 && w * h <= 4096 => Some(Grid {
                shape,
                width: w,
                height: h,
            }),
            _ => {
                self.diags.push(
                    Diagnostic::new(
                        span,
                        "a grid needs a positive `width` and `height` (at most 4096 cells)",
                    )
                    .help("write `grid: {shape: square, width: 16, height: 11}`"),
                );
                None
            }
        }
    }

    fn collect_params(&mut self, datas: &[DataFile]) {
        for d in datas {
            let text = self.text(d.file);
            let Some(params) = d.node.as_mapping().and_then(|m| m.get_node("params")) else {
                continue;
            };
            let Some(params) = params.as_mapping() else {
                self.diags.push(
                    Diagnostic::new(
                        node_span(d.file, &text, params.span()),
                        "`params:` must be a mapping",
                    )
                    .help("write `params: {name: value}`"),
                );
                continue;
            };
            for (name, value) in params.iter() {
                let span = node_span(d.file, &text, name.span());
                let (ty, data) = self.infer_param(d.file, &text, value);
                if ty == Ty::Error {
                    continue;
                }
                let id = ast::Ident {
                    name: name.as_str().to_string(),
                    span,
                };
                if d.is_variant {
                    if let Some(p) = self.params.iter_mut().find(|p| p.name == id.name) {
                        p.ty = ty;
                        p.data = data;
                        p.span = span;
                        continue;
                    }
                }
                let pid = self.params.len() as u32;
                if self.define(&id, Global::Param(pid), false) {
                    self.params.push(ParamDef {
                        name: id.name,
                        ty,
                        data,
                        span,
                    });
                }
            }
        }
    }

    fn infer_param(&mut self, file: u32, text: &str, node: &Node) -> (Ty, Data) {
        let span = node_span(file, text, node.span());
        match node {
            Node::Scalar(s) => {
                let v = s.as_str();
                if let Ok(i) = v.parse::<i64>() {
                    return (Ty::Int, Data::Int(i));
                }
                if v == "true" || v == "false" {
                    return (Ty::Bool, Data::Int((v == "true") as i64));
                }
                if let Some(Global::Item(k, i)) = self.symbols.get(v) {
                    return (Ty::Ent(*k), Data::Int(*i));
                }
                self.diags.push(
                    Diagnostic::new(
                        span,
                        format!("cannot tell the type of parameter value `{v}`"),
                    )
                    .help("a parameter is an int, a bool, an item, a list of ints or a table"),
                );
                (Ty::Error, Data::Int(0))
            }
            Node::Sequence(seq) => {
                let mut out = Vec::new();
                for n in seq.iter() {
                    out.push(self.scalar_int(file, text, n));
                }
                (Ty::Array(Box::new(Ty::Int)), Data::Ints(out))
            }
            Node::Mapping(map) => {
                let first = map
                    .keys()
                    .next()
                    .map(|k| k.as_str().to_string())
                    .unwrap_or_default();
                let key_ty = if first.parse::<i64>().is_ok() {
                    Ty::Int
                } else if let Some(Global::Item(k, _)) = self.symbols.get(&first) {
                    Ty::Ent(*k)
                } else {
                    self.diags.push(
                        Diagnostic::new(
                            span,
                            format!("table key `{first}` is neither a number nor an item"),
                        )
                        .help("key a table by numbers or by the items of one kind"),
                    );
                    return (Ty::Error, Data::Int(0));
                };
                let data = self.table(file, text, map, &key_ty, &Ty::Int);
                (Ty::Map(Box::new(key_ty), Box::new(Ty::Int)), data)
            }
        }
    }

    fn scalar_int(&mut self, file: u32, text: &str, n: &Node) -> i64 {
        let span = node_span(file, text, n.span());
        match n.as_scalar().map(|s| s.as_str()) {
            Some(v) => match v.parse::<i64>() {
                Ok(i) => i,
                Err(_) => {
                    self.diags.push(
                        Diagnostic::new(span, format!("expected a number, found `{v}`"))
                            .label("not a number")
                            .help("write an integer"),
                    );
                    0
                }
            },
            None => {
                self.diags
                    .push(Diagnostic::new(span, "expected a number").help("write an integer"));
                0
            }
        }
    }

    fn table(
        &mut self,
        file: u32,
        text: &str,
        map: &marked_yaml::types::MarkedMappingNode,
        key: &Ty,
        val: &Ty,
    ) -> Data {
        // Missing keys read as none for items and procedures, else 0.
        let fill = if matches!(val, Ty::Ent(_) | Ty::Proc) {
            -1
        } else {
            0
        };
        let mut out: Vec<i64> = match key {
            Ty::Ent(k) => vec![fill; self.kinds[*k as usize].items.len()],
            _ => Vec::new(),
        };
        for (k, v) in map.iter() {
            let kspan = node_span(file, text, k.span());
            let idx = match key {
                Ty::Int => match k.as_str().parse::<usize>() {
                    Ok(i) if i < 4096 => i,
                    _ => {
                        self.diags.push(
                            Diagnostic::new(
                                kspan,
                                format!(
                                    "table key `{}` must be a number from 0 to 4095",
                                    k.as_str()
                                ),
                            )
                            .help("use small non-negative numbers as keys"),
                        );
                        continue;
                    }
                },
                Ty::Ent(kind) => match self.item_index(*kind, k.as_str(), kspan) {
                    Some(i) => i as usize,
                    None => continue,
                },
                _ => continue,
            };
            if out.len() <= idx {
                out.resize(idx + 1, fill);
            }
            out[idx] = self.value(file, text, v, val).int();
        }
        Data::Ints(out)
    }

    fn item_index(&mut self, kind: u16, name: &str, span: Span) -> Option<i64> {
        let k = &self.kinds[kind as usize];
        if let Some(i) = k.items.iter().position(|x| x == name) {
            return Some(i as i64);
        }
        let help = did_you_mean(name, k.items.iter().map(|s| s.as_str()))
            .unwrap_or_else(|| format!("the items of `{}` are: {}", k.name, preview(&k.items)));
        self.diags.push(
            Diagnostic::new(span, format!("`{name}` is not an item of `{}`", k.name))
                .label("unknown item")
                .help(help),
        );
        None
    }

    fn value(&mut self, file: u32, text: &str, node: &Node, ty: &Ty) -> Data {
        let span = node_span(file, text, node.span());
        match ty {
            Ty::Int => Data::Int(self.scalar_int(file, text, node)),
            Ty::Bool => match node.as_scalar().map(|s| s.as_str()) {
                Some("true") => Data::Int(1),
                Some("false") => Data::Int(0),
                _ => {
                    self.diags.push(
                        Diagnostic::new(span, "expected `true` or `false`").help("write a boolean"),
                    );
                    Data::Int(0)
                }
            },
            Ty::Text => Data::Text(
                node.as_scalar()
                    .map(|s| s.as_str().to_string())
                    .unwrap_or_default(),
            ),
            Ty::Ent(k) => match node.as_scalar().map(|s| s.as_str()) {
                Some("none") => Data::Int(-1),
                Some(v) => Data::Int(self.item_index(*k, v, span).unwrap_or(-1)),
                None => {
                    self.diags.push(
                        Diagnostic::new(
                            span,
                            format!("expected an item of `{}`", self.kinds[*k as usize].name),
                        )
                        .help("write the item's id"),
                    );
                    Data::Int(-1)
                }
            },
            Ty::Proc => {
                match node.as_scalar().map(|s| s.as_str()) {
                    Some("none") => Data::Int(-1),
                    Some(v) => match self.symbols.get(v) {
                        Some(Global::Func(f)) if self.sigs[*f as usize].is_proc => {
                            let sig = &self.sigs[*f as usize];
                            if sig.params.len() != 1
                                || sig.params[0].1 != Ty::Ent(PLAYER)
                                || sig.ret != Ty::Void
                            {
                                self.diags.push(Diagnostic::new(span, format!("procedure `{v}` cannot be stored in data")).help("a procedure in data takes exactly one player: `proc name(p: player)`"));
                            }
                            Data::Int(*f as i64)
                        }
                        _ => {
                            let procs: Vec<String> = self.symbols.names().filter(|n| matches!(self.symbols.get(n), Some(Global::Func(f)) if self.sigs[*f as usize].is_proc)).map(|s| s.to_string()).collect();
                            let help = did_you_mean(v, procs.iter().map(|s| s.as_str())).unwrap_or_else(|| "declare it with `proc name(p: player) { ... }` in a .rules file".into());
                            self.diags.push(
                                Diagnostic::new(span, format!("unknown procedure `{v}`"))
                                    .label("not a procedure")
                                    .help(help),
                            );
                            Data::Int(-1)
                        }
                    },
                    None => {
                        self.diags.push(
                            Diagnostic::new(span, "expected a procedure name")
                                .help("write the name of a `proc`"),
                        );
                        Data::Int(-1)
                    }
                }
            }
            Ty::Array(inner) => match node.as_sequence() {
                Some(seq) => Data::Ints(
                    seq.iter()
                        .map(|n| self.value(file, text, n, inner).int())
                        .collect(),
                ),
                None => {
                    self.diags.push(
                        Diagnostic::new(span, "expected a list `[a, b, ...]`")
                            .help("write a YAML list"),
                    );
                    Data::Ints(Vec::new())
                }
            },
            Ty::Map(k, v) => match node.as_mapping() {
                Some(m) => self.table(file, text, m, k, v),
                None => {
                    self.diags.push(
                        Diagnostic::new(span, "expected a table `{key: value}`")
                            .help("write a YAML mapping"),
                    );
                    Data::Ints(Vec::new())
                }
            },
            _ => Data::Int(0),
        }
    }

    fn kind_fields(&mut self, raws: &[RawKind]) {
        for (ri, r) in raws.iter().enumerate() {
            let k = ri + 1;
            let text = self.text(r.file);
            let mut fields = Vec::new();
            for (fname, fspan, tytext, tyspan) in &r.fields {
                let (body, optional) = match tytext.trim().strip_suffix('?') {
                    Some(b) => (b.to_string(), true),
                    None => (tytext.trim().to_string(), false),
                };
                let start = tyspan.start as usize;
                let map = move |o: usize| start + o;
                let ty = match parser::parse_type(tyspan.file, &body, &map) {
                    Ok(t) => resolve_type(&mut self.diags, &self.symbols, &self.kinds, &t),
                    Err(e) => {
                        self.diags.push(syntax_diag(e));
                        Ty::Error
                    }
                };
                if matches!(ty, Ty::Set(_) | Ty::List(_)) {
                    self.diags.push(
                        Diagnostic::new(*tyspan, "a field cannot be a set or a list")
                            .help("use a table {kind: int} or an array [kind]"),
                    );
                }
                if fname == "copies" || fname == "id" {
                    self.diags.push(
                        Diagnostic::new(*fspan, format!("`{fname}` is reserved in items"))
                            .help("choose another field name"),
                    );
                }
                fields.push(FieldDef {
                    name: fname.clone(),
                    ty,
                    optional,
                    span: *fspan,
                });
            }
            self.kinds[k].fields = fields.clone();
            self.kinds[k].grid = r.grid;
            for (ii, (iname, ispan, node)) in r.items.iter().enumerate() {
                let map = node.as_ref().and_then(|n| n.as_mapping());
                if let Some(n) = node {
                    if map.is_none() && !matches!(n, Node::Scalar(s) if s.as_str().is_empty()) {
                        self.diags.push(
                            Diagnostic::new(
                                node_span(r.file, &text, n.span()),
                                format!("item `{iname}` must be a mapping of fields"),
                            )
                            .help("write `id: {field: value, ...}`"),
                        );
                    }
                }
                if let Some(m) = map {
                    let mut known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
                    known.push("copies");
                    check_keys(
                        r.file,
                        &text,
                        m,
                        &known,
                        &format!("an item of `{}`", r.name),
                        &mut self.diags,
                    );
                }
                let mut row = Vec::new();
                for f in &fields {
                    match map.and_then(|m| m.get_node(&f.name)) {
                        Some(v) => row.push(self.value(r.file, &text, v, &f.ty)),
                        None => {
                            if !f.optional {
                                self.diags.push(
                                    Diagnostic::new(
                                        *ispan,
                                        format!(
                                            "item `{iname}` lacks the required field `{}`",
                                            f.name
                                        ),
                                    )
                                    .label("missing field")
                                    .note(f.span, "the field is declared here")
                                    .help(format!(
                                        "add `{}: ...`, or declare the field optional with `?`",
                                        f.name
                                    )),
                                );
                            }
                            row.push(default_data(&f.ty, &self.kinds));
                        }
                    }
                }
                self.kinds[k].data[ii] = row;
            }
        }
        for k in 1..self.kinds.len() {
            if let Some(g) = self.kinds[k].grid {
                crate::ir::grid::finish_kind(&mut self.kinds[k], &g);
            }
        }
    }

    fn declare_rules(&mut self, rules: &[RulesFile]) {
        let mut var_count = 0u32;
        for (fi, rf) in rules.iter().enumerate() {
            for (ii, item) in rf.ast.items.iter().enumerate() {
                match item {
                    ast::Item::Var(v) => {
                        if rf.is_variant {
                            if let Some(Global::Var(_)) = self.symbols.get(&v.name.name) {
                                continue; // replaced in layout_vars
                            }
                        }
                        if self.define(&v.name, Global::Var(var_count), false) {
                            var_count += 1;
                        }
                    }
                    ast::Item::Fn(d) => self.declare_func(
                        &d.name,
                        d.params.clone(),
                        Some(d.ret.clone()),
                        false,
                        Body::Fn(fi, ii),
                        rf.is_variant,
                    ),
                    ast::Item::Proc(d) => self.declare_func(
                        &d.name,
                        d.params.clone(),
                        d.ret.clone(),
                        true,
                        Body::Proc(fi, ii),
                        rf.is_variant,
                    ),
                    ast::Item::Score(_) => {}
                }
            }
        }
    }

    fn declare_func(
        &mut self,
        name: &ast::Ident,
        params: Vec<ast::Param>,
        ret: Option<ast::TypeExpr>,
        is_proc: bool,
        body: Body,
        is_variant: bool,
    ) {
        let ps: Vec<(String, Ty)> = params
            .iter()
            .map(|p| {
                (
                    p.name.name.clone(),
                    resolve_type(&mut self.diags, &self.symbols, &self.kinds, &p.ty),
                )
            })
            .collect();
        for (i, p) in params.iter().enumerate() {
            if params[..i].iter().any(|q| q.name.name == p.name.name) {
                self.diags.push(
                    Diagnostic::new(
                        p.name.span,
                        format!("parameter `{}` appears twice", p.name.name),
                    )
                    .help("rename one of them"),
                );
            }
        }
        let ret = ret.map_or(Ty::Void, |t| {
            resolve_type(&mut self.diags, &self.symbols, &self.kinds, &t)
        });
        let sig = Sig {
            params: ps,
            ret,
            is_proc,
        };
        if is_variant {
            if let Some(Global::Func(old)) = self.symbols.get(&name.name).cloned() {
                self.sigs[old as usize] = sig;
                self.bodies[old as usize] = body;
                return;
            }
        }
        let fid = self.sigs.len() as FuncId;
        if self.define(name, Global::Func(fid), false) {
            self.sigs.push(sig);
            self.bodies.push(body);
        }
    }

    fn layout_vars(&mut self, rules: &[RulesFile]) {
        let mut decls: Vec<(&ast::VarDecl, bool)> = Vec::new();
        for rf in rules {
            for item in &rf.ast.items {
                if let ast::Item::Var(v) = item {
                    if rf.is_variant {
                        if let Some(pos) =
                            decls.iter().position(|(d, _)| d.name.name == v.name.name)
                        {
                            decls[pos] = (v, true);
                            continue;
                        }
                    }
                    if decls.iter().any(|(d, _)| d.name.name == v.name.name) {
                        continue; // reported as a duplicate already
                    }
                    decls.push((v, rf.is_variant));
                }
            }
        }
        let mut offset = 0;
        for (d, _) in decls {
            let ty = resolve_type(&mut self.diags, &self.symbols, &self.kinds, &d.ty);
            if matches!(ty, Ty::Array(_) | Ty::Map(..) | Ty::Text) {
                self.diags.push(
                    Diagnostic::new(
                        d.ty.span(),
                        "state variables hold int, bool, items, proc, sets or lists",
                    )
                    .help("use dimensions (`var x[kind]: int`) instead of tables"),
                );
            }
            let mut dims = Vec::new();
            for dim in &d.dims {
                match dim {
                    ast::Dim::Kind(id) => match self.symbols.get(&id.name) {
                        Some(Global::Kind(k)) => dims.push(DimDef {
                            kind: Some(*k),
                            lo: 0,
                            size: self.kinds[*k as usize].items.len(),
                        }),
                        _ => {
                            let help =
                                did_you_mean(&id.name, self.kinds.iter().map(|k| k.name.as_str()))
                                    .unwrap_or_else(|| {
                                        "a dimension is a kind or a range `lo..hi`".into()
                                    });
                            self.diags.push(
                                Diagnostic::new(id.span, format!("unknown kind `{}`", id.name))
                                    .label("not a kind")
                                    .help(help),
                            );
                            // Keep the dimension (of unknown kind) so that
                            // uses of the variable are not reported too.
                            dims.push(DimDef {
                                kind: Some(crate::model::compile::ANY_KIND),
                                lo: 0,
                                size: 1,
                            });
                        }
                    },
                    ast::Dim::Range(lo, hi, span) => {
                        if hi <= lo || hi - lo > 100_000 {
                            self.diags.push(
                                Diagnostic::new(*span, format!("empty or huge range {lo}..{hi}"))
                                    .help("write lo..hi with lo < hi"),
                            );
                        } else {
                            dims.push(DimDef {
                                kind: None,
                                lo: *lo,
                                size: (hi - lo) as usize,
                            });
                        }
                    }
                }
            }
            let elem_words = match &ty {
                Ty::Set(k) => self.kinds[*k as usize].items.len().div_ceil(64).max(1),
                Ty::List(k) => 1 + self.kinds[*k as usize].items.len(),
                _ => 1,
            };
            if d.visibility == ast::Visibility::Private
                && dims.first().and_then(|x| x.kind) != Some(PLAYER)
            {
                self.diags.push(
                    Diagnostic::new(
                        d.name.span,
                        "a private variable's first index must be `player`",
                    )
                    .help("write `private var x[player, ...]: ...`, or use `hidden`"),
                );
            }
            let len: usize = dims.iter().map(|x| x.size).product();
            self.vars.push(VarDef {
                name: d.name.name.clone(),
                dims,
                ty,
                visibility: d.visibility,
                offset,
                elem_words,
                init: None,
                span: d.span,
            });
            offset += len * elem_words;
            // Keep the symbol pointing at the (possibly replaced) variable.
            let vid = (self.vars.len() - 1) as u32;
            self.symbols
                .redefine(&d.name.name, Global::Var(vid), d.name.span);
        }
    }

    /// The variable a `game.yaml` key names (`rounds: round`): it must be
    /// a state variable of type `ty` without indices.
    fn scalar_var(
        &mut self,
        name: Option<&marked_yaml::Spanned<String>>,
        ty: &Ty,
        key: &str,
        help: &str,
        (file, text): (u32, &str),
    ) -> Option<VarId> {
        let r = name?;
        match self.symbols.get(r.as_str()) {
            Some(Global::Var(v))
                if self.vars[*v as usize].dims.is_empty() && self.vars[*v as usize].ty == *ty =>
            {
                Some(*v)
            }
            _ => {
                let what = ty_name(&self.kinds, ty);
                self.diags.push(
                    Diagnostic::new(
                        node_span(file, text, r.span()),
                        format!(
                            "`{key}: {}` must name a {what} variable without indices",
                            r.as_str()
                        ),
                    )
                    .help(help),
                );
                None
            }
        }
    }

    fn compile_all(
        &mut self,
        rules: &[RulesFile],
        game: &GameFile,
        game_file: u32,
        game_text: &str,
    ) -> Option<Ruleset> {
        let mut funcs: Vec<Option<crate::ir::bytecode::Func>> = vec![None; self.sigs.len()];
        let mut extra = Vec::new();
        let vars = self.vars.clone();
        let mut var_inits: Vec<(usize, FuncId)> = Vec::new();
        let mut score = Vec::new();
        let mut choices;
        let mut messages;
        {
            let fn_bodies: Vec<Option<&ast::Expr>> = self
                .bodies
                .iter()
                .map(|b| match b {
                    Body::Fn(fi, ii) => match &rules[*fi].ast.items[*ii] {
                        ast::Item::Fn(d) => Some(&d.body),
                        _ => None,
                    },
                    Body::Proc(..) => None,
                })
                .collect();
            let mut c = Compiler {
                diags: &mut self.diags,
                kinds: &self.kinds,
                params: &self.params,
                vars: &vars,
                symbols: &self.symbols,
                sigs: &self.sigs,
                choices: Vec::new(),
                messages: Vec::new(),
                fn_bodies: &fn_bodies,
                inlining: Vec::new(),
            };
            for (fid, body) in self.bodies.iter().enumerate() {
                let sig = self.sigs[fid].clone();
                let (fi, ii) = match body {
                    Body::Fn(a, b) | Body::Proc(a, b) => (*a, *b),
                };
                let item = &rules[fi].ast.items[ii];
                let mut f = FnCtx::new(&sig.params, sig.ret.clone(), sig.is_proc);
                let (name, span) = match item {
                    ast::Item::Fn(d) => {
                        c.fn_body(&mut f, &d.body);
                        (d.name.name.clone(), d.span)
                    }
                    ast::Item::Proc(d) => {
                        c.proc_body(&mut f, &d.body);
                        (d.name.name.clone(), d.span)
                    }
                    _ => continue,
                };
                funcs[fid] = Some(f.finish(&name, sig.params.len(), span));
            }
            let n_sigs = self.sigs.len();
            // Variable initialisers.
            let mut decl_of = std::collections::HashMap::new();
            for rf in rules {
                for item in &rf.ast.items {
                    if let ast::Item::Var(v) = item {
                        decl_of.insert(v.name.name.clone(), v);
                    }
                }
            }
            for (vi, vd) in vars.iter().enumerate() {
                let Some(decl) = decl_of.get(&vd.name) else {
                    continue;
                };
                let Some(init) = &decl.init else { continue };
                let mut f = FnCtx::new(&[], vd.ty.clone(), false);
                c.fn_body(&mut f, init);
                extra.push(f.finish(&format!("init {}", vd.name), 0, decl.span));
                var_inits.push((vi, (n_sigs + extra.len() - 1) as FuncId));
            }
            // Score.
            let mut score_decls = Vec::new();
            for rf in rules {
                for item in &rf.ast.items {
                    if let ast::Item::Score(s) = item {
                        score_decls.push((s, rf.is_variant));
                    }
                }
            }
            let chosen = score_decls
                .iter()
                .rev()
                .find(|(_, v)| *v)
                .or(score_decls.first())
                .map(|(s, _)| *s);
            let base_scores: Vec<_> = score_decls.iter().filter(|(_, v)| !v).collect();
            for (s, _) in base_scores.iter().skip(1) {
                let first = base_scores[0].0.span;
                c.diags.push(
                    Diagnostic::new(s.span, "a ruleset has one score declaration")
                        .note(first, "the first one")
                        .help("merge them into one `score(p) = ...;`"),
                );
            }
            match chosen {
                Some(s) => {
                    for key in &s.keys {
                        let mut f =
                            FnCtx::new(&[(s.player.name.clone(), Ty::Ent(PLAYER))], Ty::Int, false);
                        c.fn_body(&mut f, key);
                        extra.push(f.finish("score", 1, s.span));
                        score.push((n_sigs + extra.len() - 1) as FuncId);
                    }
                }
                None => {
                    c.diags.push(
                        Diagnostic::new(
                            node_span(game_file, game_text, game.name.span()),
                            "the ruleset has no score declaration",
                        )
                        .label("this ruleset")
                        .help("add `score(p) = points[p];` to a .rules file"),
                    );
                }
            }
            choices = std::mem::take(&mut c.choices);
            messages = std::mem::take(&mut c.messages);
        }
        let main = match self.symbols.get("main") {
            Some(Global::Func(f))
                if self.sigs[*f as usize].is_proc && self.sigs[*f as usize].params.is_empty() =>
            {
                Some(*f)
            }
            _ => {
                self.diags.push(
                    Diagnostic::new(
                        node_span(game_file, game_text, game.name.span()),
                        "the ruleset has no `proc main()`",
                    )
                    .label("this ruleset")
                    .help("add `proc main() { ... }`: the game program, from setup to the end"),
                );
                None
            }
        };
        let round_var = self.scalar_var(
            game.rounds.as_ref(),
            &Ty::Int,
            "rounds",
            "declare `var round: int = 0;` and count rounds in it",
            (game_file, game_text),
        );
        let first_player_var = self.scalar_var(
            game.first_player.as_ref(),
            &Ty::Ent(PLAYER),
            "first_player",
            "declare `var start_player: player;` and set it in the setup",
            (game_file, game_text),
        );
        for (vi, f) in var_inits {
            self.vars[vi].init = Some(f);
        }
        let state_words = self.vars.iter().map(|v| v.len() * v.elem_words).sum();
        let funcs: Vec<_> = funcs
            .into_iter()
            .map(|f| {
                f.unwrap_or_else(|| crate::ir::bytecode::Func {
                    name: "?".into(),
                    arity: 0,
                    nlocals: 0,
                    returns: false,
                    is_proc: true,
                    code: vec![crate::ir::bytecode::Op::Ret],
                    spans: vec![Span::default()],
                    span: Span::default(),
                })
            })
            .chain(extra)
            .collect();
        let proc_names = self
            .symbols
            .names()
            .filter_map(|n| match self.symbols.get(n) {
                Some(Global::Func(f)) => Some((n.to_string(), *f)),
                _ => None,
            })
            .collect();
        let _ = (&mut choices, &mut messages);
        let sizes: Vec<usize> = self.kinds.iter().map(|k| k.items.len()).collect();
        let mut kinds = self.kinds.clone();
        for k in &mut kinds {
            k.index_fields(&sizes);
        }
        Some(Ruleset {
            id: String::new(),
            name: String::new(),
            variants: Vec::new(),
            min_players: 0,
            max_players: 0,
            kinds,
            params: self.params.clone(),
            vars: self.vars.clone(),
            funcs,
            choices,
            messages,
            main: main?,
            score,
            state_words,
            round_var,
            first_player_var,
            sources: Default::default(),
            proc_names,
            symbols: self.symbols.clone(),
            sigs: self.sigs.clone(),
            check_legal: false,
            labels: crate::ir::ruleset::Labels::new(&self.kinds),
        })
    }
}

fn default_data(ty: &Ty, kinds: &[Kind]) -> Data {
    match ty {
        Ty::Ent(_) | Ty::Proc => Data::Int(-1),
        Ty::Array(_) => Data::Ints(Vec::new()),
        Ty::Map(k, _) => match **k {
            Ty::Ent(k) => Data::Ints(vec![0; kinds[k as usize].items.len()]),
            _ => Data::Ints(Vec::new()),
        },
        Ty::Text => Data::Text(String::new()),
        _ => Data::Int(0),
    }
}

fn preview(items: &[String]) -> String {
    if items.len() <= 12 {
        items.join(", ")
    } else {
        format!("{}, ... ({} in all)", items[..12].join(", "), items.len())
    }
}

/// Resolves a ruleset argument: a directory, or a name under `rules/`.
pub fn find_ruleset(arg: &str) -> PathBuf {
    let p = PathBuf::from(arg);
    if p.join("game.yaml").exists() {
        return p;
    }
    for base in ["rules", "../rules"] {
        let q = Path::new(base).join(arg);
        if q.join("game.yaml").exists() {
            return q;
        }
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules")
        .join(arg);
    if manifest.join("game.yaml").exists() {
        return manifest;
    }
    p
}

//! Kinds and their items: the `player` kind from `game.yaml`, then every
//! `kinds:` section of the data files (a variant's may add to a kind or
//! replace its items), the variants' removals, `copies: N`, and each kind
//! and item defined as a name.

use marked_yaml::types::{MarkedMappingNode, MarkedScalarNode};
use marked_yaml::Node;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic};
use crate::ir::grid::Grid;
use crate::ir::ruleset::{Kind, PLAYER};
use crate::ir::span::Span;
use crate::ir::symbols::Global;
use crate::lang::ast;

use super::builder::Builder;
use super::files::{DataFile, GameSource, Removal};
use super::yaml::{check_keys, node_span};

/// A kind as the data files give it, before its fields are typed.
#[derive(Default)]
pub(super) struct RawKind {
    /// Its name.
    pub name: String,
    /// Where it is first named.
    pub span: Span,
    /// The file that first names it.
    pub file: u32,
    /// Its fields, in order.
    pub fields: Vec<RawField>,
    /// Its items, in order.
    pub items: Vec<RawItem>,
    /// Its grid, if its items are the cells of one.
    pub grid: Option<Grid>,
}

/// A field of a kind: `name: type`.
pub(super) struct RawField {
    /// The field's name.
    pub name: String,
    /// Where the name is.
    pub name_span: Span,
    /// The type, as written.
    pub ty_text: String,
    /// Where the type is.
    pub ty_span: Span,
}

/// An item of a kind, with its field values if it has any.
#[derive(Clone)]
pub(super) struct RawItem {
    /// Its id.
    pub id: String,
    /// Where the id is.
    pub span: Span,
    /// `{field: value, ...}`, when given as a mapping entry.
    pub node: Option<Node>,
}

impl Builder {
    /// Kind 0: the players, with the seat names of `game.yaml`.
    pub(super) fn player_kind(&mut self, game: &GameSource) {
        let manifest = &game.manifest;
        let pspan = game.span(manifest.players.span());
        let (min, max) = (manifest.players.min, manifest.players.max);
        if min == 0 || min > max || max > 16 {
            self.diags.push(
                Diagnostic::new(
                    Code::BadPlayerCount,
                    pspan,
                    format!("bad player count: min {min}, max {max}"),
                )
                .label("player range")
                .help("write players: {min: N, max: M} with 1 <= N <= M <= 16"),
            );
        }
        let mut items: Vec<String> = manifest.seats.iter().map(|s| s.to_string()).collect();
        if !items.is_empty() && items.len() < max {
            self.diags.push(
                Diagnostic::new(
                    Code::BadPlayerCount,
                    game.span(manifest.seats[0].span()),
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
            toward: Vec::new(),
            shifts: Vec::new(),
            field_sets: Vec::new(),
        });
        let id = ast::Ident {
            name: "player".into(),
            span: pspan,
        };
        self.define(&id, Global::Kind(PLAYER), false);
        let seat_names = self.kinds[PLAYER as usize].items.clone();
        for (i, seat) in seat_names.iter().enumerate() {
            let span = manifest.seats.get(i).map_or(pspan, |s| game.span(s.span()));
            let id = ast::Ident {
                name: seat.clone(),
                span,
            };
            self.define(&id, Global::Item(PLAYER, i as i64), false);
        }
    }

    /// The kinds of the data files, with their items, defined as names
    /// (kinds 1.. in the order returned).
    pub(super) fn collect_kinds(
        &mut self,
        datas: &[DataFile],
        removals: &[Removal],
    ) -> Vec<RawKind> {
        let mut raws: Vec<RawKind> = Vec::new();
        for d in datas {
            let text = self.text(d.file);
            let Some(kinds) = self.kinds_section(d, &text) else {
                continue;
            };
            for (name, def) in kinds.iter() {
                self.collect_kind(&mut raws, d, &text, name, def);
            }
        }
        self.apply_removals(&mut raws, removals);
        for r in &mut raws {
            expand_copies(r);
        }
        for r in &raws {
            self.register_kind(r);
        }
        raws
    }

    /// The `kinds:` mapping of a data file, if any (checking the file's
    /// top-level keys on the way).
    fn kinds_section<'d>(&mut self, d: &'d DataFile, text: &str) -> Option<&'d MarkedMappingNode> {
        let Some(map) = d.node.as_mapping() else {
            self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    node_span(d.file, text, d.node.span()),
                    "a data file must be a mapping",
                )
                .help("write `kinds:` and `params:` sections"),
            );
            return None;
        };
        check_keys(
            d.file,
            text,
            map,
            &["kinds", "params", "doc"],
            "a data file",
            &mut self.diags,
        );
        let kinds = map.get_node("kinds")?;
        let Some(kinds) = kinds.as_mapping() else {
            self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    node_span(d.file, text, kinds.span()),
                    "`kinds:` must map kind names to definitions",
                )
                .help("write `kinds:` then `name: {fields: ..., items: ...}`"),
            );
            return None;
        };
        Some(kinds)
    }

    /// One entry of `kinds:`: a new kind, or (in a variant) more of an
    /// existing one.
    fn collect_kind(
        &mut self,
        raws: &mut Vec<RawKind>,
        d: &DataFile,
        text: &str,
        name: &MarkedScalarNode,
        def: &Node,
    ) {
        let kspan = node_span(d.file, text, name.span());
        let raw = raw_kind(raws, d, name.as_str(), kspan);
        let Some(kmap) = def.as_mapping() else {
            self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    node_span(d.file, text, def.span()),
                    format!("kind `{}` must be a mapping", name.as_str()),
                )
                .help("give it `items:` and, optionally, `fields:` and `doc:`"),
            );
            return;
        };
        check_keys(
            d.file,
            text,
            kmap,
            &["doc", "fields", "items", "grid"],
            "a kind",
            &mut self.diags,
        );
        if let Some(g) = kmap.get_node("grid") {
            self.kind_grid(raw, d.file, text, g, kspan);
        }
        if let Some(fields) = kmap.get_mapping("fields") {
            raw_fields(raw, d.file, text, fields);
        }
        self.kind_items(raw, d.file, text, kmap.get_node("items"), kspan);
    }

    /// A kind's `items:`, as a mapping or a list; a grid's kind may leave
    /// it out (its cells are its items). `kspan`: the kind's name here.
    fn kind_items(
        &mut self,
        raw: &mut RawKind,
        file: u32,
        text: &str,
        items: Option<&Node>,
        kspan: Span,
    ) {
        match items {
            Some(Node::Mapping(items)) => self.item_mapping(raw, file, text, items),
            Some(Node::Sequence(items)) => {
                for it in items.iter() {
                    self.item_in_list(raw, file, text, it);
                }
            }
            Some(other) => self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    node_span(file, text, other.span()),
                    "`items:` must be a mapping or a list",
                )
                .help("write `items: {id: {...}}` or `items: [a, b, c]`"),
            ),
            None if raw.grid.is_some() => {}
            None => self.diags.push(
                Diagnostic::new(
                    Code::MissingField,
                    kspan,
                    format!("kind `{}` has no `items:`", raw.name),
                )
                .label("missing items")
                .help("add `items:` listing its components"),
            ),
        }
    }

    /// `items: {id: {field: value}}`: each entry adds an item or replaces
    /// one of the same id (on a grid, only a cell, keeping the cell's span).
    fn item_mapping(
        &mut self,
        raw: &mut RawKind,
        file: u32,
        text: &str,
        items: &MarkedMappingNode,
    ) {
        for (iname, idef) in items.iter() {
            let entry = RawItem {
                id: iname.as_str().to_string(),
                span: node_span(file, text, iname.span()),
                node: Some(idef.clone()),
            };
            if let Some(pos) = raw.items.iter().position(|x| x.id == entry.id) {
                let span = raw.items[pos].span;
                raw.items[pos] = entry;
                if raw.grid.is_some() {
                    raw.items[pos].span = span;
                }
            } else if raw.grid.is_some() {
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownItem,
                        entry.span,
                        format!("`{}` is not a cell of the grid `{}`", entry.id, raw.name),
                    )
                    .label("no such cell")
                    .help(format!(
                        "cells of a grid are named {}_X_Y, from 0",
                        raw.name
                    )),
                );
            } else {
                raw.items.push(entry);
            }
        }
    }

    /// One entry of `items: [a, b, c]`: a plain id.
    fn item_in_list(&mut self, raw: &mut RawKind, file: u32, text: &str, it: &Node) {
        match it.as_scalar() {
            Some(s) => raw.items.push(RawItem {
                id: s.as_str().to_string(),
                span: node_span(file, text, it.span()),
                node: None,
            }),
            None => self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    node_span(file, text, it.span()),
                    "an item in a list must be a plain id",
                )
                .help("use `items: {id: {field: value}}` for items with fields"),
            ),
        }
    }

    /// Takes out the items the variants remove.
    fn apply_removals(&mut self, raws: &mut [RawKind], removals: &[Removal]) {
        for Removal { kind, id, span } in removals {
            let Some(r) = raws.iter_mut().find(|r| r.name == *kind) else {
                let help = did_you_mean(kind, raws.iter().map(|r| r.name.as_str()))
                    .unwrap_or_else(|| "`remove:` maps a kind to the ids to take out".into());
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownKind,
                        *span,
                        format!("unknown kind `{kind}` in `remove:`"),
                    )
                    .help(help),
                );
                continue;
            };
            let before = r.items.len();
            r.items.retain(|item| item.id != *id);
            if r.items.len() == before {
                let help = did_you_mean(id, r.items.iter().map(|x| x.id.as_str()))
                    .unwrap_or_else(|| format!("`remove:` names items of `{kind}` by id"));
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownItem,
                        *span,
                        format!("`{kind}` has no item `{id}` to remove"),
                    )
                    .label("no such item")
                    .help(help),
                );
            }
        }
    }

    /// Defines a kind and its items as names and adds the kind (without
    /// fields yet). Reports an id used twice in the kind.
    fn register_kind(&mut self, r: &RawKind) {
        let k = self.kinds.len() as u16;
        let id = ast::Ident {
            name: r.name.clone(),
            span: r.span,
        };
        self.define(&id, Global::Kind(k), false);
        for (i, item) in r.items.iter().enumerate() {
            if r.items[..i].iter().any(|x| x.id == item.id) {
                let first = r
                    .items
                    .iter()
                    .find(|x| x.id == item.id)
                    .map_or(item.span, |x| x.span);
                self.diags.push(
                    Diagnostic::new(
                        Code::DuplicateName,
                        item.span,
                        format!("duplicate id `{}` in kind `{}`", item.id, r.name),
                    )
                    .note(first, "first used here")
                    .help("give each item its own id"),
                );
                continue;
            }
            let id = ast::Ident {
                name: item.id.clone(),
                span: item.span,
            };
            self.define(&id, Global::Item(k, i as i64), false);
        }
        self.kinds.push(Kind {
            name: r.name.clone(),
            items: r.items.iter().map(|x| x.id.clone()).collect(),
            fields: Vec::new(),
            data: vec![Vec::new(); r.items.len()],
            span: r.span,
            grid: None,
            adjacent: Vec::new(),
            toward: Vec::new(),
            shifts: Vec::new(),
            field_sets: Vec::new(),
        });
    }
}

/// The kind a `kinds:` entry adds to: a variant's entry adds to the kind
/// of its name; any other entry starts a kind (a name used twice is
/// reported when the kinds are defined).
fn raw_kind<'r>(
    raws: &'r mut Vec<RawKind>,
    d: &DataFile,
    name: &str,
    span: Span,
) -> &'r mut RawKind {
    let existing = raws.iter().position(|r| r.name == name);
    match existing {
        Some(i) if d.is_variant => &mut raws[i],
        _ => {
            raws.push(RawKind {
                name: name.to_string(),
                span,
                file: d.file,
                ..Default::default()
            });
            raws.last_mut().expect("just pushed")
        }
    }
}

/// A kind's `fields: {name: type}`, types kept as text for now.
fn raw_fields(raw: &mut RawKind, file: u32, text: &str, fields: &MarkedMappingNode) {
    for (fname, fty) in fields.iter() {
        raw.fields.push(RawField {
            name: fname.as_str().to_string(),
            name_span: node_span(file, text, fname.span()),
            ty_text: fty
                .as_scalar()
                .map(|s| s.as_str().to_string())
                .unwrap_or_default(),
            ty_span: node_span(file, text, fty.span()),
        });
    }
}

/// Expands `copies: N` into N items `id_1` .. `id_N`.
fn expand_copies(r: &mut RawKind) {
    let mut expanded = Vec::new();
    for item in r.items.drain(..) {
        let copies = item
            .node
            .as_ref()
            .and_then(|n| n.as_mapping())
            .and_then(|m| m.get_scalar("copies"))
            .and_then(|s| s.as_str().parse::<usize>().ok())
            .unwrap_or(1);
        if copies <= 1 {
            expanded.push(item);
        } else {
            for c in 1..=copies {
                expanded.push(RawItem {
                    id: format!("{}_{c}", item.id),
                    span: item.span,
                    node: item.node.clone(),
                });
            }
        }
    }
    r.items = expanded;
}

//! Kinds: the `player` kind from `game.yaml`, then every `kinds:` section
//! of the data files (a variant's may add to a kind, replace its items or
//! retype its fields). Their items, the variants' removals and `copies:`
//! are read in `items.rs`.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use marked_yaml::types::{MarkedMappingNode, MarkedScalarNode};
use marked_yaml::Node;

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::grid::Grid;
use crate::ir::ruleset::{Kind, PLAYER};
use crate::ir::span::{SourceFile, Span};
use crate::ir::symbols::Global;
use crate::lang::ast;
use crate::model::limits::MAX_KINDS;

use super::builder::Builder;
use super::files::{DataFile, GameSource, Removal};
use super::yaml::{check_keys_in, span_in};

/// A kind as the data files give it, before its fields are typed.
#[derive(Default)]
pub(super) struct RawKind {
    /// Its name.
    pub name: String,
    /// Where it is first named.
    pub span: Span,
    /// Its fields, in order.
    pub fields: Vec<RawField>,
    /// Its items, in order.
    pub items: Vec<RawItem>,
    /// The position of each item id in `items` (its first, if given twice).
    pub ids: HashMap<String, usize>,
    /// Its grid, if its items are the cells of one.
    pub grid: Option<Grid>,
    /// Copies a variant removes (`id_2` of an item with `copies: 3`),
    /// left out when the copies are made.
    pub removed_copies: HashSet<String>,
}

impl RawKind {
    /// Adds an item (an id given twice is reported when the kind is defined).
    pub fn push(&mut self, item: RawItem) {
        self.ids.entry(item.id.clone()).or_insert(self.items.len());
        self.items.push(item);
    }

    /// Replaces the items, indexing them again.
    pub fn set_items(&mut self, items: Vec<RawItem>) {
        self.items.clear();
        self.ids.clear();
        for item in items {
            self.push(item);
        }
    }
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
    /// `{field: value, ...}`, when given as a mapping entry (shared by the
    /// copies of an item).
    pub node: Option<Rc<Node>>,
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
        if items.len() > n && (1..=16).contains(&max) {
            self.diags.push(
                Diagnostic::new(
                    Code::BadPlayerCount,
                    game.span(manifest.seats[n].span()),
                    format!(
                        "{} seat names for at most {max} players: `{}` is never seated",
                        items.len(),
                        items[n]
                    ),
                )
                .label("one seat too many")
                .help("name one seat per possible player: remove the extra names, or raise `max`"),
            );
        }
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
            around: Vec::new(),
            field_sets: Vec::new(),
        });
        let id = ast::Ident {
            name: "player".into(),
            span: pspan,
        };
        self.define(&id, Global::Kind(PLAYER));
        let seat_names = self.kinds[PLAYER as usize].items.clone();
        self.item_ids.push(
            seat_names
                .iter()
                .enumerate()
                .rev()
                .map(|(i, s)| (s.clone(), i as i64))
                .collect(),
        );
        for (i, seat) in seat_names.iter().enumerate() {
            let span = manifest.seats.get(i).map_or(pspan, |s| game.span(s.span()));
            let id = ast::Ident {
                name: seat.clone(),
                span,
            };
            self.define(&id, Global::Item(PLAYER, i as i64));
        }
    }

    /// The kinds of the data files, with their items, defined as names
    /// (kinds 1.. in the order returned).
    pub(super) fn collect_kinds(
        &mut self,
        datas: &[DataFile],
        removals: &[Removal],
    ) -> Vec<RawKind> {
        let mut raws = RawKinds::default();
        for d in datas {
            let src = self.source(d.file);
            let Some(kinds) = self.kinds_section(d, &src) else {
                continue;
            };
            for (name, def) in kinds.iter() {
                self.collect_kind(&mut raws, d, &src, name, def);
            }
        }
        self.apply_removals(&mut raws, removals);
        let mut raws = raws.list;
        if raws.len() >= MAX_KINDS {
            self.diags.push(
                Diagnostic::new(
                    Code::TooLarge,
                    raws[MAX_KINDS - 1].span,
                    format!("more than {MAX_KINDS} kinds"),
                )
                .help(format!(
                    "a ruleset declares at most {MAX_KINDS} kinds, `player` included \
                     (docs/LANGUAGE.md, Limits)"
                )),
            );
            raws.truncate(MAX_KINDS - 1);
        }
        for r in &mut raws {
            self.expand_copies(r);
        }
        for r in &raws {
            self.register_kind(r);
        }
        raws
    }

    /// The `kinds:` mapping of a data file, if any (checking the file's
    /// top-level keys on the way).
    fn kinds_section<'d>(
        &mut self,
        d: &'d DataFile,
        src: &SourceFile,
    ) -> Option<&'d MarkedMappingNode> {
        let Some(map) = d.node.as_mapping() else {
            self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    span_in(src, d.node.span()),
                    "a data file must be a mapping",
                )
                .help("write `kinds:` and `params:` sections"),
            );
            return None;
        };
        if d.is_variant_file {
            check_keys_in(
                src,
                map,
                &["kinds", "params", "doc", "description", "files", "remove"],
                "a variant",
                &mut self.diags,
            );
        } else {
            check_keys_in(
                src,
                map,
                &["kinds", "params", "doc"],
                "a data file",
                &mut self.diags,
            );
        }
        let kinds = map.get_node("kinds")?;
        let Some(kinds) = kinds.as_mapping() else {
            self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    span_in(src, kinds.span()),
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
        raws: &mut RawKinds,
        d: &DataFile,
        src: &SourceFile,
        name: &MarkedScalarNode,
        def: &Node,
    ) {
        let kspan = span_in(src, name.span());
        let raw = raws.entry(d, name.as_str(), kspan);
        let Some(kmap) = def.as_mapping() else {
            self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    span_in(src, def.span()),
                    format!("kind `{}` must be a mapping", name.as_str()),
                )
                .help("give it `items:` and, optionally, `fields:` and `doc:`"),
            );
            return;
        };
        check_keys_in(
            src,
            kmap,
            &["doc", "fields", "items", "grid"],
            "a kind",
            &mut self.diags,
        );
        if let Some(g) = kmap.get_node("grid") {
            self.kind_grid(raw, src, g, kspan);
        }
        match kmap.get_node("fields") {
            Some(Node::Mapping(fields)) => raw_fields(raw, src, fields),
            Some(other) => self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    span_in(src, other.span()),
                    "`fields:` must map field names to types",
                )
                .help("write `fields: {cost: int, colour: colour}`"),
            ),
            None => {}
        }
        let items = kmap.get_node("items");
        // A grid refused (reported) needs no `items:` either.
        if items.is_some() || !kmap.contains_key("grid") {
            self.kind_items(raw, src, items, kspan);
        }
    }

    /// A kind's `items:`, as a mapping or a list; a grid's kind may leave
    /// it out (its cells are its items). `kspan`: the kind's name here.
    fn kind_items(
        &mut self,
        raw: &mut RawKind,
        src: &SourceFile,
        items: Option<&Node>,
        kspan: Span,
    ) {
        match items {
            Some(Node::Mapping(items)) => self.item_mapping(raw, src, items),
            Some(Node::Sequence(items)) => {
                for it in items.iter() {
                    self.item_in_list(raw, src, it);
                }
            }
            Some(other) => self.diags.push(
                Diagnostic::new(
                    Code::BadValue,
                    span_in(src, other.span()),
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
}

/// The kinds met so far, in order, with the first of each name.
#[derive(Default)]
pub(super) struct RawKinds {
    /// Every `kinds:` entry that starts a kind, in order.
    pub list: Vec<RawKind>,
    /// The first kind of each name.
    pub by_name: HashMap<String, usize>,
}

impl RawKinds {
    /// The kind a `kinds:` entry adds to: a variant's entry adds to the
    /// kind of its name; any other entry starts a kind (a name used twice
    /// is reported when the kinds are defined).
    fn entry(&mut self, d: &DataFile, name: &str, span: Span) -> &mut RawKind {
        match self.by_name.get(name) {
            Some(&i) if d.is_variant => &mut self.list[i],
            _ => {
                self.by_name
                    .entry(name.to_string())
                    .or_insert(self.list.len());
                self.list.push(RawKind {
                    name: name.to_string(),
                    span,
                    ..Default::default()
                });
                self.list.last_mut().expect("just pushed")
            }
        }
    }
}

/// A kind's `fields: {name: type}`, types kept as text for now; a field
/// declared again (by a variant) takes the new type in its place.
fn raw_fields(raw: &mut RawKind, src: &SourceFile, fields: &MarkedMappingNode) {
    for (fname, fty) in fields.iter() {
        let field = RawField {
            name: fname.as_str().to_string(),
            name_span: span_in(src, fname.span()),
            ty_text: fty
                .as_scalar()
                .map(|s| s.as_str().to_string())
                .unwrap_or_default(),
            ty_span: span_in(src, fty.span()),
        };
        match raw.fields.iter_mut().find(|f| f.name == field.name) {
            Some(old) => *old = field,
            None => raw.fields.push(field),
        }
    }
}

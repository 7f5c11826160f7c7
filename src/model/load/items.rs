//! The items of a kind: given as a mapping (`id: {field: value}`) or a
//! list of ids, taken out by a variant's `remove:`, multiplied by
//! `copies: N`, and defined as names. A grid's items are its cells: they
//! may be given fields, but not added, removed or copied.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use marked_yaml::types::MarkedMappingNode;
use marked_yaml::Node;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic};
use crate::ir::ruleset::Kind;
use crate::ir::span::{SourceFile, Span};
use crate::ir::symbols::Global;
use crate::lang::ast;
use crate::model::limits::MAX_ITEMS;

use super::builder::Builder;
use super::files::Removal;
use super::kinds::{RawItem, RawKind, RawKinds};
use super::yaml::span_in;

impl Builder {
    /// `items: {id: {field: value}}`: each entry adds an item or replaces
    /// one of the same id (on a grid, only a cell, keeping the cell's span).
    pub(super) fn item_mapping(
        &mut self,
        raw: &mut RawKind,
        src: &SourceFile,
        items: &MarkedMappingNode,
    ) {
        for (iname, idef) in items.iter() {
            let entry = RawItem {
                id: iname.as_str().to_string(),
                span: span_in(src, iname.span()),
                node: Some(Rc::new(idef.clone())),
            };
            if let Some(&pos) = raw.ids.get(&entry.id) {
                let span = raw.items[pos].span;
                raw.items[pos] = entry;
                if raw.grid.is_some() {
                    raw.items[pos].span = span;
                }
            } else if raw.grid.is_some() {
                self.not_a_cell(raw, &entry.id, entry.span);
            } else {
                raw.push(entry);
            }
        }
    }

    /// One entry of `items: [a, b, c]`: a plain id (on a grid, a cell's).
    pub(super) fn item_in_list(&mut self, raw: &mut RawKind, src: &SourceFile, it: &Node) {
        let span = span_in(src, it.span());
        match it.as_scalar() {
            Some(s) if raw.grid.is_some() => {
                if !raw.ids.contains_key(s.as_str()) {
                    self.not_a_cell(raw, s.as_str(), span);
                }
            }
            Some(s) => raw.push(RawItem {
                id: s.as_str().to_string(),
                span,
                node: None,
            }),
            None => self.diags.push(
                Diagnostic::new(Code::BadValue, span, "an item in a list must be a plain id")
                    .help("use `items: {id: {field: value}}` for items with fields"),
            ),
        }
    }

    /// Reports an id given to a grid that is none of its cells.
    fn not_a_cell(&mut self, raw: &RawKind, id: &str, span: Span) {
        self.diags.push(
            Diagnostic::new(
                Code::UnknownItem,
                span,
                format!("`{id}` is not a cell of the grid `{}`", raw.name),
            )
            .label("no such cell")
            .help(format!(
                "cells of a grid are named {}_X_Y, from 0; a grid's cells are its only items",
                raw.name
            )),
        );
    }

    /// Takes out the items the variants remove (not a grid's cells).
    pub(super) fn apply_removals(&mut self, raws: &mut RawKinds, removals: &[Removal]) {
        let mut removed: HashMap<usize, HashSet<&str>> = HashMap::new();
        for Removal { kind, id, span } in removals {
            let Some(&k) = raws.by_name.get(kind) else {
                let help = did_you_mean(kind, raws.list.iter().map(|r| r.name.as_str()))
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
            let r = &raws.list[k];
            if r.grid.is_some() {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        *span,
                        format!("the cells of the grid `{kind}` cannot be removed"),
                    )
                    .label("a cell")
                    .help("a grid keeps all its cells: mark the cells out of play with a field or a variable"),
                );
                continue;
            }
            if !r.ids.contains_key(id.as_str())
                && is_copy(r, id)
                && raws.list[k].removed_copies.insert(id.clone())
            {
                continue;
            }
            let r = &raws.list[k];
            let gone = removed.entry(k).or_default();
            if !r.ids.contains_key(id.as_str()) || !gone.insert(id.as_str()) {
                let help = if self.diags.is_full() {
                    String::new()
                } else {
                    did_you_mean(id, r.items.iter().map(|x| x.id.as_str()))
                        .unwrap_or_else(|| format!("`remove:` names items of `{kind}` by id"))
                };
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
        for (k, gone) in removed {
            let r = &mut raws.list[k];
            let kept = std::mem::take(&mut r.items)
                .into_iter()
                .filter(|item| !gone.contains(item.id.as_str()))
                .collect();
            r.set_items(kept);
        }
    }

    /// Expands `copies: N` into N items `id_1` .. `id_N` (but those a
    /// variant removes) sharing the
    /// item's fields; `copies` must be a whole number from 1 (an item
    /// alone) and the kind may hold at most [`MAX_ITEMS`] items.
    pub(super) fn expand_copies(&mut self, r: &mut RawKind) {
        let mut expanded = Vec::new();
        let mut too_many = false;
        for item in std::mem::take(&mut r.items) {
            let copies = self.copies_of(r, &item);
            if expanded.len() + copies > MAX_ITEMS {
                too_many = true;
                break;
            }
            if copies <= 1 {
                expanded.push(item);
                continue;
            }
            for c in 1..=copies {
                let id = format!("{}_{c}", item.id);
                if !r.removed_copies.contains(&id) {
                    expanded.push(RawItem {
                        id,
                        span: item.span,
                        node: item.node.clone(),
                    });
                }
            }
        }
        if too_many {
            self.diags.push(
                Diagnostic::new(
                    Code::TooLarge,
                    r.span,
                    format!("kind `{}` has more than {MAX_ITEMS} items", r.name),
                )
                .help(format!(
                    "a kind holds at most {MAX_ITEMS} items, its copies and a grid's cells \
                     included (docs/LANGUAGE.md, Limits)"
                )),
            );
        }
        r.set_items(expanded);
    }

    /// An item's `copies:` (1 when it has none; reported and 1 when it is
    /// not a whole number from 1 to [`MAX_ITEMS`], or on a grid's cell).
    fn copies_of(&mut self, r: &RawKind, item: &RawItem) -> usize {
        let Some(node) = item
            .node
            .as_deref()
            .and_then(|n| n.as_mapping())
            .and_then(|m| m.get_node("copies"))
        else {
            return 1;
        };
        let src = self.source(item.span.file);
        let span = span_in(&*src, node.span());
        if r.grid.is_some() {
            self.diags.push(
                Diagnostic::new(Code::BadValue, span, "a grid's cell cannot have copies")
                    .help("a grid has one item per cell: remove `copies:`"),
            );
            return 1;
        }
        let text = node.as_scalar().map(|s| s.as_str());
        match text.map(|t| t.parse::<u64>()) {
            Some(Ok(n)) if (1..=MAX_ITEMS as u64).contains(&n) => n as usize,
            parsed => {
                // A whole number past the limit (or past 64 bits).
                let too_many = match parsed {
                    Some(Ok(n)) => n > 0,
                    _ => {
                        text.is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                    }
                };
                self.diags.push(
                    Diagnostic::new(
                        if too_many {
                            Code::TooLarge
                        } else {
                            Code::BadValue
                        },
                        span,
                        format!(
                            "`copies:` must be a whole number from 1 to {MAX_ITEMS}, not `{}`",
                            text.unwrap_or("a list or a mapping")
                        ),
                    )
                    .label("not a number of copies")
                    .help("write `copies: 3` for three items `id_1`, `id_2`, `id_3`"),
                );
                1
            }
        }
    }

    /// Defines a kind and its items as names and adds the kind (without
    /// fields yet). Reports an id used twice in the kind.
    pub(super) fn register_kind(&mut self, r: &RawKind) {
        let k = self.kinds.len() as u16;
        let id = ast::Ident {
            name: r.name.clone(),
            span: r.span,
        };
        self.define(&id, Global::Kind(k));
        let mut ids: HashMap<String, i64> = HashMap::with_capacity(r.items.len());
        for (i, item) in r.items.iter().enumerate() {
            if let Some(&first) = ids.get(&item.id) {
                let first = r.items[first as usize].span;
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
            ids.insert(item.id.clone(), i as i64);
            let id = ast::Ident {
                name: item.id.clone(),
                span: item.span,
            };
            self.define(&id, Global::Item(k, i as i64));
        }
        let mut kind = empty_kind(r);
        kind.items = r.items.iter().map(|x| x.id.clone()).collect();
        kind.data = vec![Vec::new(); r.items.len()];
        self.kinds.push(kind);
        self.item_ids.push(ids);
    }
}

/// A kind without items or fields.
fn empty_kind(r: &RawKind) -> Kind {
    Kind {
        name: r.name.clone(),
        items: Vec::new(),
        fields: Vec::new(),
        data: Vec::new(),
        span: r.span,
        grid: None,
        adjacent: Vec::new(),
        toward: Vec::new(),
        shifts: Vec::new(),
        around: Vec::new(),
        field_sets: Vec::new(),
    }
}

/// Whether `id` names a copy of an item of `r` (`red_2` of `red` with
/// `copies: 3`), which a variant may remove alone.
fn is_copy(r: &RawKind, id: &str) -> bool {
    let Some((base, n)) = id.rsplit_once('_') else {
        return false;
    };
    let Ok(n) = n.parse::<usize>() else {
        return false;
    };
    let copies = r
        .ids
        .get(base)
        .and_then(|&i| r.items[i].node.as_deref())
        .and_then(|node| node.as_mapping())
        .and_then(|m| m.get_scalar("copies"))
        .and_then(|c| c.as_str().parse::<usize>().ok());
    copies.is_some_and(|c| (1..=c).contains(&n) && c > 1)
}

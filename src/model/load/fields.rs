//! Fields and item data: each kind's field types (parsed in the rules
//! language once every name is declared) and each item's row of values.

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::{Data, FieldDef, Ty};
use crate::ir::span::SourceFile;
use crate::lang::parser;
use crate::model::compile::resolve_type;
use crate::model::limits::MAX_FIELDS;

use super::builder::Builder;
use super::files::syntax_diag;
use super::kinds::{RawField, RawItem, RawKind};
use super::values::{data_words, default_data, default_words};
use super::yaml::{check_keys_in, span_in};

impl Builder {
    /// Types the fields of every kind and reads its items' values, then
    /// finishes the grids.
    pub(super) fn kind_fields(&mut self, raws: &[RawKind]) {
        for (ri, r) in raws.iter().enumerate() {
            let k = ri + 1;
            if r.fields.len() > MAX_FIELDS {
                self.diags.push(
                    Diagnostic::new(
                        Code::TooLarge,
                        r.fields[MAX_FIELDS].name_span,
                        format!("kind `{}` has more than {MAX_FIELDS} fields", r.name),
                    )
                    .help(format!(
                        "a kind has at most {MAX_FIELDS} fields (docs/LANGUAGE.md, Limits)"
                    )),
                );
                continue;
            }
            let mut fields = Vec::new();
            for f in &r.fields {
                let def = self.field_def(f);
                fields.push(def);
            }
            if !self.spend(self.selection_words(k, &fields), r.span) {
                continue;
            }
            self.kinds[k].fields = fields.clone();
            self.kinds[k].grid = r.grid;
            let mut last: Option<(&RawItem, Vec<Data>)> = None;
            for (ii, item) in r.items.iter().enumerate() {
                // The copies of an item share its node: read it once.
                let row = match &last {
                    Some((prev, row)) if same_node(prev, item) => {
                        let words = row.iter().map(data_words).sum();
                        if self.spend(words, item.span) {
                            row.clone()
                        } else {
                            vec![Data::Int(0); fields.len()]
                        }
                    }
                    _ => {
                        let src = self.source(item.span.file);
                        self.item_row(r, &src, item, &fields)
                    }
                };
                self.kinds[k].data[ii] = row.clone();
                last = Some((item, row));
            }
        }
        self.finish_grids();
    }

    /// The words of the sets the engine keeps to select the items of kind
    /// `k` by the value of a bool or item field (one set per value).
    fn selection_words(&self, k: usize, fields: &[FieldDef]) -> usize {
        let words = self.kinds[k].items.len().div_ceil(64).max(1);
        fields
            .iter()
            .map(|f| match f.ty {
                Ty::Bool => 2 * words,
                Ty::Ent(e) => self.kinds.get(e as usize).map_or(0, |x| x.items.len()) * words,
                _ => 0,
            })
            .sum()
    }

    /// A field's declaration: `name: type`, optional when the type ends
    /// with `?`.
    fn field_def(&mut self, f: &RawField) -> FieldDef {
        let (body, optional) = match f.ty_text.trim().strip_suffix('?') {
            Some(b) => (b.to_string(), true),
            None => (f.ty_text.trim().to_string(), false),
        };
        let start = f.ty_span.start as usize;
        let map = move |o: usize| start + o;
        let ty = match parser::parse_type(f.ty_span.file, &body, &map) {
            Ok(t) => resolve_type(&mut self.diags, &self.symbols, &self.kinds, &t),
            Err(e) => {
                self.diags.push(syntax_diag(e));
                Ty::Error
            }
        };
        if matches!(ty, Ty::Set(_) | Ty::List(_)) {
            self.diags.push(
                Diagnostic::new(
                    Code::UnsupportedType,
                    f.ty_span,
                    "a field cannot be a set or a list",
                )
                .help("use a table {kind: int} or an array [kind]"),
            );
        }
        let nested = match &ty {
            Ty::Array(inner) | Ty::Map(_, inner) => matches!(**inner, Ty::Array(_) | Ty::Map(..)),
            _ => false,
        };
        if nested {
            self.diags.push(
                Diagnostic::new(
                    Code::UnsupportedType,
                    f.ty_span,
                    "a field cannot hold arrays or tables of arrays or tables",
                )
                .help("split the field: one array or table field per inner array or table"),
            );
        }
        if f.name == "copies" || f.name == "id" {
            self.diags.push(
                Diagnostic::new(
                    Code::ReservedName,
                    f.name_span,
                    format!("`{}` is reserved in items", f.name),
                )
                .help("choose another field name"),
            );
        }
        FieldDef {
            name: f.name.clone(),
            ty,
            optional,
            span: f.name_span,
        }
    }

    /// An item's values, one per field (an optional field left out takes
    /// its default).
    fn item_row(
        &mut self,
        r: &RawKind,
        src: &SourceFile,
        item: &RawItem,
        fields: &[FieldDef],
    ) -> Vec<Data> {
        let map = item.node.as_deref().and_then(|n| n.as_mapping());
        if let Some(n) = item.node.as_deref() {
            if map.is_none() && !matches!(n, marked_yaml::Node::Scalar(s) if s.as_str().is_empty())
            {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        span_in(src, n.span()),
                        format!("item `{}` must be a mapping of fields", item.id),
                    )
                    .help("write `id: {field: value, ...}`"),
                );
            }
        }
        if let Some(m) = map {
            let mut known: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            known.push("copies");
            check_keys_in(
                src,
                m,
                &known,
                &format!("an item of `{}`", r.name),
                &mut self.diags,
            );
        }
        let mut row = Vec::new();
        for f in fields {
            match map.and_then(|m| m.get_node(&f.name)) {
                Some(v) => row.push(self.value(src, v, &f.ty)),
                None => {
                    if !f.optional {
                        self.diags.push(
                            Diagnostic::new(
                                Code::MissingField,
                                item.span,
                                format!("item `{}` lacks the required field `{}`", item.id, f.name),
                            )
                            .label("missing field")
                            .note(f.span, "the field is declared here")
                            .help(format!(
                                "add `{}: ...`, or declare the field optional with `?`",
                                f.name
                            )),
                        );
                    }
                    let words = default_words(&f.ty, &self.kinds);
                    row.push(if self.spend(words, item.span) {
                        default_data(&f.ty, &self.kinds)
                    } else {
                        Data::Int(0)
                    });
                }
            }
        }
        row
    }
}

/// Whether two items are copies of one (sharing its node).
fn same_node(a: &RawItem, b: &RawItem) -> bool {
    match (&a.node, &b.node) {
        (Some(x), Some(y)) => std::rc::Rc::ptr_eq(x, y),
        _ => false,
    }
}

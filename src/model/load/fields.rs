//! Fields and item data: each kind's field types (parsed in the rules
//! language once every name is declared) and each item's row of values.

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::{Data, FieldDef, Ty};
use crate::lang::parser;
use crate::model::compile::resolve_type;

use super::builder::Builder;
use super::files::syntax_diag;
use super::kinds::{RawField, RawItem, RawKind};
use super::values::default_data;
use super::yaml::{check_keys, node_span};

impl Builder {
    /// Types the fields of every kind and reads its items' values, then
    /// finishes the grids.
    pub(super) fn kind_fields(&mut self, raws: &[RawKind]) {
        for (ri, r) in raws.iter().enumerate() {
            let k = ri + 1;
            let mut fields = Vec::new();
            for f in &r.fields {
                let def = self.field_def(f);
                fields.push(def);
            }
            self.kinds[k].fields = fields.clone();
            self.kinds[k].grid = r.grid;
            let text = self.text(r.file);
            for (ii, item) in r.items.iter().enumerate() {
                let row = self.item_row(r, &text, item, &fields);
                self.kinds[k].data[ii] = row;
            }
        }
        self.finish_grids();
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
        text: &str,
        item: &RawItem,
        fields: &[FieldDef],
    ) -> Vec<Data> {
        let map = item.node.as_ref().and_then(|n| n.as_mapping());
        if let Some(n) = &item.node {
            if map.is_none() && !matches!(n, marked_yaml::Node::Scalar(s) if s.as_str().is_empty())
            {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        node_span(r.file, text, n.span()),
                        format!("item `{}` must be a mapping of fields", item.id),
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
                text,
                m,
                &known,
                &format!("an item of `{}`", r.name),
                &mut self.diags,
            );
        }
        let mut row = Vec::new();
        for f in fields {
            match map.and_then(|m| m.get_node(&f.name)) {
                Some(v) => row.push(self.value(r.file, text, v, &f.ty)),
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
                    row.push(default_data(&f.ty, &self.kinds));
                }
            }
        }
        row
    }
}

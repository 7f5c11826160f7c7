//! Parameters: the `params:` sections of the data files, each value's type
//! told from the value itself (int, bool, item, list of ints, table). A
//! variant's parameter of an existing name replaces it.

use marked_yaml::types::MarkedMappingNode;
use marked_yaml::Node;

use crate::ir::codes::Code;
use crate::ir::diag::Diagnostic;
use crate::ir::ruleset::{Data, ParamDef, Ty};
use crate::ir::span::{SourceFile, Span};
use crate::ir::symbols::Global;
use crate::lang::ast;

use super::builder::Builder;
use super::files::DataFile;
use super::yaml::{beyond_64_bits, number_out_of_range, span_in};

impl Builder {
    /// Reads and defines the parameters of every data file.
    pub(super) fn collect_params(&mut self, datas: &[DataFile]) {
        for d in datas {
            let src = self.source(d.file);
            let Some(params) = d.node.as_mapping().and_then(|m| m.get_node("params")) else {
                continue;
            };
            let Some(params) = params.as_mapping() else {
                self.diags.push(
                    Diagnostic::new(
                        Code::BadValue,
                        span_in(&*src, params.span()),
                        "`params:` must be a mapping",
                    )
                    .help("write `params: {name: value}`"),
                );
                continue;
            };
            for (name, value) in params.iter() {
                let span = span_in(&*src, name.span());
                let (ty, data) = self.infer_param(&src, value);
                if ty == Ty::Error {
                    continue;
                }
                let id = ast::Ident {
                    name: name.as_str().to_string(),
                    span,
                };
                if d.is_variant {
                    let existing = match self.symbols.get(&id.name) {
                        Some(Global::Param(p)) => self.params.get_mut(*p as usize),
                        _ => None,
                    };
                    if let Some(p) = existing {
                        p.ty = ty;
                        p.data = data;
                        p.span = span;
                        continue;
                    }
                }
                let pid = self.params.len() as u32;
                if self.define(&id, Global::Param(pid)) {
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

    /// A parameter's type and value, told from the value.
    pub(super) fn infer_param(&mut self, src: &SourceFile, node: &Node) -> (Ty, Data) {
        let span = span_in(src, node.span());
        match node {
            Node::Scalar(s) => {
                let v = s.as_str();
                if let Ok(i) = v.parse::<i64>() {
                    return (Ty::Int, Data::Int(i));
                }
                if beyond_64_bits(v) {
                    self.diags.push(number_out_of_range(span, v));
                    return (Ty::Int, Data::Int(0));
                }
                if v == "true" || v == "false" {
                    return (Ty::Bool, Data::Int((v == "true") as i64));
                }
                if let Some(Global::Item(k, i)) = self.symbols.get(v) {
                    return (Ty::Ent(*k), Data::Int(*i));
                }
                self.diags.push(
                    Diagnostic::new(
                        Code::CannotInferType,
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
                    out.push(self.scalar_int(src, n));
                }
                (Ty::Array(Box::new(Ty::Int)), Data::Ints(out))
            }
            Node::Mapping(map) => self.table_param(src, map, span),
        }
    }

    /// A table parameter: keyed by numbers or by the items of the kind its
    /// first key belongs to; its values are ints.
    fn table_param(&mut self, src: &SourceFile, map: &MarkedMappingNode, span: Span) -> (Ty, Data) {
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
                    Code::BadValue,
                    span,
                    format!("table key `{first}` is neither a number nor an item"),
                )
                .help("key a table by numbers or by the items of one kind"),
            );
            return (Ty::Error, Data::Int(0));
        };
        let data = self.table(src, map, &key_ty, &Ty::Int);
        (Ty::Map(Box::new(key_ty), Box::new(Ty::Int)), data)
    }
}

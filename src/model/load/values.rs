//! Typed values in YAML: an item's field value or a parameter's entries,
//! read as the type expects (numbers, booleans, text, items, procedures,
//! lists and tables), each mistake reported where it is.

use marked_yaml::types::MarkedMappingNode;
use marked_yaml::Node;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic};
use crate::ir::ruleset::{Data, Kind, Ty, PLAYER};
use crate::ir::span::{SourceFile, Span};
use crate::ir::symbols::Global;

use super::builder::Builder;
use super::yaml::{beyond_64_bits, number_out_of_range, span_in};

impl Builder {
    /// A node as a value of type `ty`.
    pub(super) fn value(&mut self, src: &SourceFile, node: &Node, ty: &Ty) -> Data {
        let span = span_in(src, node.span());
        match ty {
            Ty::Int => Data::Int(self.scalar_int(src, node)),
            Ty::Bool => match node.as_scalar().map(|s| s.as_str()) {
                Some("true") => Data::Int(1),
                Some("false") => Data::Int(0),
                _ => {
                    self.diags.push(
                        Diagnostic::new(Code::BadValue, span, "expected `true` or `false`")
                            .help("write a boolean"),
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
                            Code::BadValue,
                            span,
                            format!("expected an item of `{}`", self.kinds[*k as usize].name),
                        )
                        .help("write the item's id"),
                    );
                    Data::Int(-1)
                }
            },
            Ty::Proc => self.proc_value(node, span),
            Ty::Array(inner) => match node.as_sequence() {
                Some(seq) if !self.spend(seq.len(), span) => Data::Ints(Vec::new()),
                Some(seq) => Data::Ints(
                    seq.iter()
                        .map(|n| self.value(src, n, inner).int())
                        .collect(),
                ),
                None => {
                    self.diags.push(
                        Diagnostic::new(Code::BadValue, span, "expected a list `[a, b, ...]`")
                            .help("write a YAML list"),
                    );
                    Data::Ints(Vec::new())
                }
            },
            Ty::Map(k, v) => match node.as_mapping() {
                Some(m) => self.table(src, m, k, v),
                None => {
                    self.diags.push(
                        Diagnostic::new(Code::BadValue, span, "expected a table `{key: value}`")
                            .help("write a YAML mapping"),
                    );
                    Data::Ints(Vec::new())
                }
            },
            _ => Data::Int(0),
        }
    }

    /// A procedure named in data (`none` for none): it must take exactly
    /// one player.
    fn proc_value(&mut self, node: &Node, span: Span) -> Data {
        let Some(v) = node.as_scalar().map(|s| s.as_str()) else {
            self.diags.push(
                Diagnostic::new(Code::BadValue, span, "expected a procedure name")
                    .help("write the name of a `proc`"),
            );
            return Data::Int(-1);
        };
        if v == "none" {
            return Data::Int(-1);
        }
        match self.symbols.get(v) {
            Some(Global::Func(f)) if self.sigs[*f as usize].is_proc => {
                let sig = &self.sigs[*f as usize];
                if sig.params.len() != 1
                    || sig.params[0].1 != Ty::Ent(PLAYER)
                    || sig.ret != Ty::Void
                {
                    self.diags.push(
                        Diagnostic::new(
                            Code::TypeMismatch,
                            span,
                            format!("procedure `{v}` cannot be stored in data"),
                        )
                        .help(
                            "a procedure in data takes exactly one player: `proc name(p: player)`",
                        ),
                    );
                }
                Data::Int(*f as i64)
            }
            _ => {
                let declare = "declare it with `proc name(p: player) { ... }` in a .rules file";
                let help = if self.diags.is_full() {
                    declare.into()
                } else {
                    let procs: Vec<&str> = self
                        .symbols
                        .names()
                        .filter(|n| matches!(self.symbols.get(n), Some(Global::Func(f)) if self.sigs[*f as usize].is_proc))
                        .collect();
                    did_you_mean(v, procs).unwrap_or_else(|| declare.into())
                };
                self.diags.push(
                    Diagnostic::new(Code::UnknownName, span, format!("unknown procedure `{v}`"))
                        .label("not a procedure")
                        .help(help),
                );
                Data::Int(-1)
            }
        }
    }

    /// A scalar node as an integer (0, reported, when it is not one).
    pub(super) fn scalar_int(&mut self, src: &SourceFile, n: &Node) -> i64 {
        let span = span_in(src, n.span());
        match n.as_scalar().map(|s| s.as_str()) {
            Some(v) => match v.parse::<i64>() {
                Ok(i) => i,
                Err(_) if beyond_64_bits(v) => {
                    self.diags.push(number_out_of_range(span, v));
                    0
                }
                Err(_) => {
                    self.diags.push(
                        Diagnostic::new(
                            Code::BadValue,
                            span,
                            format!("expected a number, found `{v}`"),
                        )
                        .label("not a number")
                        .help("write an integer"),
                    );
                    0
                }
            },
            None => {
                self.diags.push(
                    Diagnostic::new(Code::BadValue, span, "expected a number")
                        .help("write an integer"),
                );
                0
            }
        }
    }

    /// A table `{key: value}` keyed by numbers (0 to 4095) or by the items
    /// of a kind, as a dense row of values.
    pub(super) fn table(
        &mut self,
        src: &SourceFile,
        map: &MarkedMappingNode,
        key: &Ty,
        val: &Ty,
    ) -> Data {
        // Missing keys read as none for items and procedures, else 0.
        let fill = if matches!(val, Ty::Ent(_) | Ty::Proc) {
            -1
        } else {
            0
        };
        // A table keyed by a kind holds a value per item; one keyed by
        // numbers, one per number up to its largest key (at most 4096).
        let dense = match key {
            Ty::Ent(k) => self.kinds[*k as usize].items.len(),
            _ => 0,
        };
        let here = span_in(src, map.span());
        if !self.spend(dense, here) {
            return Data::Ints(Vec::new());
        }
        let mut out: Vec<i64> = vec![fill; dense];
        for (k, v) in map.iter() {
            let kspan = span_in(src, k.span());
            let idx = match key {
                Ty::Int => match k.as_str().parse::<usize>() {
                    Ok(i) if i < 4096 => i,
                    _ => {
                        self.diags.push(
                            Diagnostic::new(
                                Code::BadValue,
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
            out[idx] = self.value(src, v, val).int();
        }
        if dense == 0 && !self.spend(out.len(), here) {
            return Data::Ints(Vec::new());
        }
        Data::Ints(out)
    }

    /// The index of the item `name` of a kind (reported when it has none).
    fn item_index(&mut self, kind: u16, name: &str, span: Span) -> Option<i64> {
        if let Some(&i) = self
            .item_ids
            .get(kind as usize)
            .and_then(|ids| ids.get(name))
        {
            return Some(i);
        }
        let k = &self.kinds[kind as usize];
        let list = || format!("the items of `{}` are: {}", k.name, preview(&k.items));
        let help = if self.diags.is_full() {
            list()
        } else {
            did_you_mean(name, k.items.iter().map(|s| s.as_str())).unwrap_or_else(list)
        };
        self.diags.push(
            Diagnostic::new(
                Code::UnknownItem,
                span,
                format!("`{name}` is not an item of `{}`", k.name),
            )
            .label("unknown item")
            .help(help),
        );
        None
    }
}

/// The values a piece of data holds (at least one), as counted against
/// the limit on data.
pub(super) fn data_words(d: &Data) -> usize {
    match d {
        Data::Int(_) => 1,
        Data::Ints(v) => v.len().max(1),
        Data::Text(t) => t.len() / 8 + 1,
    }
}

/// The values of the default of an optional field left out.
pub(super) fn default_words(ty: &Ty, kinds: &[Kind]) -> usize {
    match ty {
        Ty::Map(k, _) => match **k {
            Ty::Ent(k) => kinds[k as usize].items.len().max(1),
            _ => 1,
        },
        _ => 1,
    }
}

/// The value of an optional field left out.
pub(super) fn default_data(ty: &Ty, kinds: &[Kind]) -> Data {
    match ty {
        Ty::Ent(_) | Ty::Proc => Data::Int(-1),
        Ty::Array(_) => Data::Ints(Vec::new()),
        // As a table given without keys: none for items and procedures.
        Ty::Map(k, v) => match **k {
            Ty::Ent(k) => {
                let fill = if matches!(**v, Ty::Ent(_) | Ty::Proc) {
                    -1
                } else {
                    0
                };
                Data::Ints(vec![fill; kinds[k as usize].items.len()])
            }
            _ => Data::Ints(Vec::new()),
        },
        Ty::Text => Data::Text(String::new()),
        _ => Data::Int(0),
    }
}

/// A list of ids, cut after the first twelve.
fn preview(items: &[String]) -> String {
    if items.len() <= 12 {
        items.join(", ")
    } else {
        format!("{}, ... ({} in all)", items[..12].join(", "), items.len())
    }
}

//! Parameters set from outside the ruleset (`--set NAME=VALUE`): each is
//! read as the YAML `NAME: VALUE` (a source of its own, shown as
//! `--set NAME=VALUE` in reports), and replaces the value of an existing
//! parameter of the same type. A name that is no parameter and a value of
//! another type are diagnostics, as in a data file.

use marked_yaml::Node;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic, Diagnostics};
use crate::ir::ruleset::Ty;
use crate::ir::symbols::Global;
use crate::model::compile::ty_name;

use super::builder::Builder;
use super::yaml::{self, span_in};

/// One `--set`, parsed: its file in the source map and its `NAME: VALUE`
/// mapping.
pub(super) struct Override {
    /// Its id in the source map.
    pub file: u32,
    /// The mapping of one entry.
    pub node: Node,
}

/// Whether `name` can name a parameter: letters, digits and `_`.
fn is_param_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Parses each `(name, value)` of `set` into an [`Override`], reporting
/// a name that cannot be a parameter's or a value that is not YAML.
pub(super) fn read_overrides(set: &[(String, String)], diags: &mut Diagnostics) -> Vec<Override> {
    let mut out = Vec::new();
    for (name, value) in set {
        let text = format!("{name}: {value}\n");
        let file = diags.sources.add(format!("--set {name}={value}"), text);
        if !is_param_name(name) {
            diags.push(
                Diagnostic::new(
                    Code::UnknownParam,
                    crate::ir::span::Span::new(file, 0, name.len()),
                    format!("`{name}` cannot name a parameter"),
                )
                .label("not a name")
                .help("write --set NAME=VALUE, NAME a parameter of the ruleset's `params:`"),
            );
            continue;
        }
        let src = diags.sources.shared(file);
        if let Some(node) = yaml::parse_yaml_in(&*src, diags) {
            out.push(Override { file, node });
        }
    }
    out
}

impl Builder {
    /// Replaces the parameters named by `overrides` (after every data file
    /// and variant).
    pub(super) fn apply_overrides(&mut self, overrides: &[Override]) {
        for o in overrides {
            let src = self.source(o.file);
            let Some(map) = o.node.as_mapping() else {
                continue;
            };
            for (name, value) in map.iter() {
                let span = span_in(&*src, name.span());
                let pid = match self.symbols.get(name.as_str()) {
                    Some(Global::Param(p)) => *p as usize,
                    _ => {
                        let names = self.params.iter().map(|p| p.name.as_str());
                        let help = did_you_mean(name.as_str(), names).unwrap_or_else(|| {
                            let all: Vec<&str> =
                                self.params.iter().map(|p| p.name.as_str()).collect();
                            format!("the parameters of this ruleset: {}", all.join(", "))
                        });
                        self.diags.push(
                            Diagnostic::new(
                                Code::UnknownParam,
                                span,
                                format!("no parameter `{}` to set", name.as_str()),
                            )
                            .label("not in any `params:`")
                            .help(help),
                        );
                        continue;
                    }
                };
                let before = self.diags.items.len();
                let (ty, data) = self.infer_param(&src, value);
                let old = self.params[pid].ty.clone();
                if ty == old {
                    self.params[pid].data = data;
                    continue;
                }
                self.diags.items.truncate(before);
                let value_span = span_in(&*src, value.span());
                self.diags.push(
                    Diagnostic::new(
                        Code::TypeMismatch,
                        value_span,
                        format!(
                            "parameter `{}` is of type {}: this value is not",
                            name.as_str(),
                            ty_name(&self.kinds, &old)
                        ),
                    )
                    .label(if ty == Ty::Error {
                        "not a value of that type".to_string()
                    } else {
                        format!("a value of type {}", ty_name(&self.kinds, &ty))
                    })
                    .help(format!(
                        "give `{}` a value of type {}",
                        name.as_str(),
                        ty_name(&self.kinds, &old)
                    )),
                );
            }
        }
    }
}

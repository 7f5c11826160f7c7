//! Views: the state as one player may see it, and error reports.

use crate::engine::error::RuntimeError;
use crate::engine::state::{State, Value};
use crate::engine::vm::elements;
use crate::ir::diag::{Diagnostic, Diagnostics};
use crate::ir::ruleset::Visibility;
use crate::ir::ruleset::{Ruleset, Ty, PLAYER};

/// One line per variable element that is not at its zero value, with the
/// parts `seat` may not see shown as `?` (`None`: the referee's view).
pub fn render(rules: &Ruleset, st: &State, seat: Option<usize>) -> Vec<String> {
    let mut out = Vec::new();
    for v in &rules.vars {
        let n = v.len();
        for flat in 0..n {
            let idx = unflatten(v, flat);
            if v.dims.first().is_some_and(|d| d.kind == Some(PLAYER))
                && idx[0] as usize >= st.nplayers
            {
                continue;
            }
            let hidden = match v.visibility {
                Visibility::Public => false,
                Visibility::Hidden => seat.is_some(),
                Visibility::Private => seat.is_some_and(|s| idx[0] as usize != s),
            };
            let words = st.elem(v, flat);
            let shown = if hidden {
                "?".to_string()
            } else {
                match &v.ty {
                    Ty::Set(k) => {
                        let val = Value::S(words.iter().map(|w| *w as u64).collect());
                        let names: Vec<String> = elements(&val)
                            .iter()
                            .map(|e| rules.display(&Ty::Ent(*k), *e, st.nplayers))
                            .collect();
                        if names.is_empty() {
                            continue;
                        }
                        format!("{{{}}}", names.join(", "))
                    }
                    Ty::List(k) => {
                        let len = words[0] as usize;
                        if len == 0 {
                            continue;
                        }
                        let names: Vec<String> = words[1..1 + len]
                            .iter()
                            .map(|e| rules.display(&Ty::Ent(*k), *e, st.nplayers))
                            .collect();
                        format!("[{}]", names.join(", "))
                    }
                    Ty::Ent(_) | Ty::Proc if words[0] < 0 => continue,
                    Ty::Int | Ty::Bool if words[0] == 0 => continue,
                    ty => rules.display(ty, words[0], st.nplayers),
                }
            };
            let index: Vec<String> = idx
                .iter()
                .zip(&v.dims)
                .map(|(i, d)| match d.kind {
                    Some(k) => rules.display(&Ty::Ent(k), *i, st.nplayers),
                    None => i.to_string(),
                })
                .collect();
            if index.is_empty() {
                out.push(format!("{} = {shown}", v.name));
            } else {
                out.push(format!("{}[{}] = {shown}", v.name, index.join(", ")));
            }
        }
    }
    out
}

fn unflatten(v: &crate::ir::ruleset::VarDef, mut flat: usize) -> Vec<i64> {
    let mut idx = vec![0i64; v.dims.len()];
    for (i, d) in v.dims.iter().enumerate().rev() {
        idx[i] = d.lo + (flat % d.size) as i64;
        flat /= d.size;
    }
    idx
}

/// Renders a runtime error with the rules code that caused it.
pub fn report(rules: &Ruleset, e: &RuntimeError) -> String {
    let mut d = Diagnostics {
        sources: rules.sources.clone(),
        items: Vec::new(),
    };
    if (e.span.file as usize) < rules.sources.len() {
        d.push(
            Diagnostic::new(e.kind.code(), e.span, e.message.clone())
                .label("while running this")
                .help("this is a mistake in the rules files: fix the code shown"),
        );
        d.render_plain()
    } else {
        format!("rules error: {} [{}]\n", e.message, e.kind.code())
    }
}

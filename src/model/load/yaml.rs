//! YAML with its places: parsing a file, the span of any node, reading a
//! node with serde, checking a mapping's keys; every mistake reported as a
//! diagnostic pointing into the file.

use marked_yaml::Node;
use serde::Deserialize;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic, Diagnostics};
use crate::ir::span::{offset_of, Span};

/// The span of a marked-yaml node in a file.
pub fn node_span(file: u32, text: &str, span: &marked_yaml::Span) -> Span {
    let start = span
        .start()
        .map_or(0, |m| offset_of(text, m.line(), m.column()));
    let end = span
        .end()
        .map_or(start, |m| offset_of(text, m.line(), m.column()));
    let end = if end > start {
        end
    } else {
        scalar_end(text, start)
    };
    Span::new(file, start, end)
}

fn scalar_end(text: &str, start: usize) -> usize {
    let rest = &text[start.min(text.len())..];
    let line = rest.split('\n').next().unwrap_or("");
    let mut end = line.len();
    if let Some(pos) = line.find(" #") {
        end = pos;
    }
    // A mapping key ends at its colon (plain scalars cannot hold `: `).
    if !line.starts_with(['"', '\'', '{', '[']) {
        if let Some(pos) = line.find(": ") {
            end = end.min(pos);
        }
        if line[..end].trim_end().ends_with(':') {
            end = line[..end].trim_end().len() - 1;
        }
    }
    for stop in [',', '}', ']'] {
        if !line.starts_with('{') && !line.starts_with('[') {
            if let Some(pos) = line.find(stop) {
                end = end.min(pos);
            }
        }
    }
    let trimmed = line[..end].trim_end().len();
    start + trimmed.max(1).min(rest.len().max(1))
}

/// Parses YAML text into a node, or reports a YAML syntax error.
pub fn parse_yaml(file: u32, text: &str, diags: &mut Diagnostics) -> Option<Node> {
    let opts = marked_yaml::LoaderOptions::default().error_on_duplicate_keys(true);
    match marked_yaml::parse_yaml_with_options(file as usize, text, opts) {
        Ok(node) => Some(node),
        Err(e) => {
            diags.push(yaml_load_error(file, text, &e));
            None
        }
    }
}

fn marker_span(file: u32, text: &str, m: &marked_yaml::Marker) -> Span {
    let start = offset_of(text, m.line(), m.column());
    Span::new(file, start, scalar_end(text, start))
}

fn yaml_load_error(file: u32, text: &str, e: &marked_yaml::LoadError) -> Diagnostic {
    use marked_yaml::LoadError as E;
    match e {
        E::DuplicateKey(d) => {
            let first = node_span(file, text, d.prev_key.span());
            Diagnostic::new(
                Code::DuplicateKey,
                node_span(file, text, d.key.span()),
                format!("duplicate key `{}`", d.key.as_str()),
            )
            .label("defined again here")
            .note(first, "first defined here")
            .help("each key (and each item id) may appear once; rename or remove one")
        }
        E::ScanError(m, s) => Diagnostic::new(
            Code::YamlSyntax,
            marker_span(file, text, m),
            format!("YAML syntax error: {}", s.info()),
        )
        .label("the YAML parser stopped here")
        .help("check indentation, colons and closing brackets on this line and the one above"),
        E::TopLevelMustBeMapping(m) | E::TopLevelMustBeSequence(m) => Diagnostic::new(
            Code::BadValue,
            marker_span(file, text, m),
            "the file must be a YAML mapping",
        )
        .help("start with `key: value` lines"),
        E::UnexpectedAnchor(m) => Diagnostic::new(
            Code::YamlUnsupported,
            marker_span(file, text, m),
            "YAML anchors and aliases are not supported",
        )
        .help("write the value out in full"),
        E::MappingKeyMustBeScalar(m) => Diagnostic::new(
            Code::YamlUnsupported,
            marker_span(file, text, m),
            "a mapping key must be a plain name",
        )
        .help("use a name or a number as key"),
        E::UnexpectedTag(m) => Diagnostic::new(
            Code::YamlUnsupported,
            marker_span(file, text, m),
            "YAML tags are not supported",
        )
        .help("remove the `!tag`"),
    }
}

/// Deserializes a node with serde, reporting errors with their place.
pub fn from_node<T: for<'de> Deserialize<'de>>(
    file: u32,
    text: &str,
    node: &Node,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<T> {
    match marked_yaml::from_node::<T>(node) {
        Ok(v) => Some(v),
        Err(e) => {
            let span = e.start_mark().map_or_else(
                || node_span(file, text, node.span()),
                |m| marker_span(file, text, &m),
            );
            let inner = e.into_inner();
            let d = match &inner {
                marked_yaml::Error::UnknownFieldError(field, expected, _) => {
                    // Point at the key itself rather than at its mapping.
                    let span =
                        find_key(node, field, span.start as usize, file, text).unwrap_or(span);
                    let help = did_you_mean(field, expected.iter().copied()).unwrap_or_else(|| {
                        format!("the fields allowed here are: {}", expected.join(", "))
                    });
                    Diagnostic::new(
                        Code::UnknownField,
                        span,
                        format!("unknown field `{field}` in {what}"),
                    )
                    .label("not a field here")
                    .help(help)
                }
                other => {
                    let msg = other.to_string();
                    let msg = msg.split(" at ").next().unwrap_or(&msg).to_string();
                    let (code, help) = if msg.contains("missing field") {
                        (Code::MissingField, "add the missing field")
                    } else {
                        (
                            Code::BadValue,
                            "check the value's type against the documentation (docs/LANGUAGE.md)",
                        )
                    };
                    Diagnostic::new(code, span, format!("invalid {what}: {msg}")).help(help)
                }
            };
            diags.push(d);
            None
        }
    }
}

/// The span of the key `name` in the mapping starting at byte `at` (or, failing
/// that, in any mapping) of a node tree.
fn find_key(node: &Node, name: &str, at: usize, file: u32, text: &str) -> Option<Span> {
    fn walk<'n>(node: &'n Node, out: &mut Vec<&'n marked_yaml::types::MarkedMappingNode>) {
        match node {
            Node::Mapping(m) => {
                out.push(m);
                for v in m.values() {
                    walk(v, out);
                }
            }
            Node::Sequence(s) => s.iter().for_each(|v| walk(v, out)),
            Node::Scalar(_) => {}
        }
    }
    let mut maps = Vec::new();
    walk(node, &mut maps);
    let start = |m: &marked_yaml::types::MarkedMappingNode| {
        m.span()
            .start()
            .map(|p| offset_of(text, p.line(), p.column()))
    };
    let key_in = |m: &marked_yaml::types::MarkedMappingNode| {
        m.keys()
            .find(|k| k.as_str() == name)
            .map(|k| node_span(file, text, k.span()))
    };
    maps.iter()
        .filter(|m| start(m) == Some(at))
        .find_map(|m| key_in(m))
        .or_else(|| maps.iter().find_map(|m| key_in(m)))
}

/// Checks that a mapping has only known keys.
pub fn check_keys(
    file: u32,
    text: &str,
    map: &marked_yaml::types::MarkedMappingNode,
    known: &[&str],
    what: &str,
    diags: &mut Diagnostics,
) {
    for key in map.keys() {
        if !known.contains(&key.as_str()) {
            let help = did_you_mean(key.as_str(), known.iter().copied())
                .unwrap_or_else(|| format!("the keys of {what} are: {}", known.join(", ")));
            diags.push(
                Diagnostic::new(
                    Code::UnknownField,
                    node_span(file, text, key.span()),
                    format!("unknown key `{}` in {what}", key.as_str()),
                )
                .label("not expected here")
                .help(help),
            );
        }
    }
}

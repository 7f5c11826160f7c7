//! YAML with its places: parsing a file, the span of any node, reading a
//! node with serde, checking a mapping's keys; every mistake reported as a
//! diagnostic pointing into the file.
//!
//! A place is found through a [`Places`]: a loaded [`SourceFile`] finds it
//! through its line index (the loader reads thousands of nodes of a file);
//! a bare text ([`Scanned`], for the tools reading small files of their
//! own) by scanning it.

use marked_yaml::{Marker, Node};
use serde::Deserialize;

use crate::ir::codes::Code;
use crate::ir::diag::{did_you_mean, Diagnostic, Diagnostics};
use crate::ir::span::{offset_of, SourceFile, Span};

/// The longest stretch of a line read to find where a scalar ends: a
/// scalar whose end marked-yaml does not give is shown by its first
/// bytes, so that a long line is not read again for each of its values.
const SCALAR_SCAN: usize = 256;

/// A file whose places marked-yaml reports: its id, its text, and how a
/// marker (character index, line, column) becomes a byte offset.
pub trait Places {
    /// The file's id in the source map.
    fn file(&self) -> u32;
    /// The whole text.
    fn text(&self) -> &str;
    /// The byte offset of a marker.
    fn offset(&self, m: &Marker) -> usize;
}

/// A file's text alone: each place is found by scanning the text.
pub struct Scanned<'a> {
    /// The file's id in the source map.
    pub file: u32,
    /// Its text.
    pub text: &'a str,
}

impl Places for Scanned<'_> {
    fn file(&self) -> u32 {
        self.file
    }
    fn text(&self) -> &str {
        self.text
    }
    fn offset(&self, m: &Marker) -> usize {
        offset_of(self.text, m.line(), m.column())
    }
}

/// A loaded file: each place is found through its line index.
impl Places for SourceFile {
    fn file(&self) -> u32 {
        self.id
    }
    fn text(&self) -> &str {
        &self.text
    }
    fn offset(&self, m: &Marker) -> usize {
        self.offset_at(m.character(), m.line(), m.column())
    }
}

/// The span of a marked-yaml node in a file (found by scanning the text).
pub fn node_span(file: u32, text: &str, span: &marked_yaml::Span) -> Span {
    span_in(&Scanned { file, text }, span)
}

/// The span of a marked-yaml node in a file.
pub fn span_in(src: &impl Places, span: &marked_yaml::Span) -> Span {
    let start = span.start().map_or(0, |m| src.offset(m));
    let end = span.end().map_or(start, |m| src.offset(m));
    let end = if end > start {
        end
    } else {
        scalar_end(src.text(), start)
    };
    Span::new(src.file(), start, end)
}

fn scalar_end(text: &str, start: usize) -> usize {
    let start = start.min(text.len());
    let mut cut = (start + SCALAR_SCAN).min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let rest = &text[start..cut];
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
    parse_yaml_in(&Scanned { file, text }, diags)
}

/// Parses a file as YAML into a node, or reports a YAML syntax error.
pub fn parse_yaml_in(src: &impl Places, diags: &mut Diagnostics) -> Option<Node> {
    if let Some(at) = indented_too_deep(src.text()) {
        let span = Span::new(src.file(), at, scalar_end(src.text(), at));
        diags.push(
            Diagnostic::new(
                Code::TooDeep,
                span,
                format!("YAML indented past column {MAX_YAML_COLUMN}"),
            )
            .label("too deep")
            .help(format!(
                "tabula reads YAML nested at most {MAX_YAML_COLUMN} levels (indented at most \
                 {MAX_YAML_COLUMN} columns; docs/LANGUAGE.md, Limits): flatten the value"
            )),
        );
        return None;
    }
    let opts = marked_yaml::LoaderOptions::default().error_on_duplicate_keys(true);
    match marked_yaml::parse_yaml_with_options(src.file() as usize, src.text(), opts) {
        Ok(node) => Some(node),
        Err(e) => {
            diags.push(yaml_load_error(src, &e));
            None
        }
    }
}

/// The most columns a YAML node may be indented (a `- ` of a sequence
/// written on its item's line counting as indentation): each level of
/// block nesting indents one column more at least, and the YAML parser
/// descends once per level (flow brackets are bounded by the parser).
pub const MAX_YAML_COLUMN: usize = 256;

/// The byte offset of the first node of a YAML text indented past
/// [`MAX_YAML_COLUMN`], if any; the lines of block scalars (`|`, `>`)
/// are text, not nodes.
pub fn indented_too_deep(text: &str) -> Option<usize> {
    let mut offset = 0;
    // The indentation of the line that opened the block scalar being read.
    let mut scalar_of: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start_matches(' ').len();
        let rest = &body[indent..];
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        match scalar_of {
            Some(k) if indent > k => continue,
            _ => scalar_of = None,
        }
        let mut node = rest;
        while let Some(after) = node.strip_prefix('-') {
            let trimmed = after.trim_start_matches([' ', '\t']);
            if trimmed.len() == after.len() {
                break;
            }
            node = trimmed;
        }
        let column = body.len() - node.len();
        if column > MAX_YAML_COLUMN {
            return Some(start + column.min(body.len()));
        }
        if opens_block_scalar(node) {
            scalar_of = Some(indent);
        }
    }
    None
}

/// Whether a line's content ends by opening a block scalar: `key: |`,
/// `- >-`, `|2`, with an optional comment after.
fn opens_block_scalar(content: &str) -> bool {
    let content = match content.find(" #") {
        Some(i) => &content[..i],
        None => content,
    };
    let t = content.trim_end();
    let head = t.trim_end_matches(|c: char| c == '+' || c == '-' || c.is_ascii_digit());
    let Some(before) = head.strip_suffix('|').or_else(|| head.strip_suffix('>')) else {
        return false;
    };
    before.is_empty() || before.ends_with(": ") || before.ends_with("- ")
}

fn marker_span(src: &impl Places, m: &Marker) -> Span {
    let start = src.offset(m);
    Span::new(src.file(), start, scalar_end(src.text(), start))
}

fn yaml_load_error(src: &impl Places, e: &marked_yaml::LoadError) -> Diagnostic {
    use marked_yaml::LoadError as E;
    match e {
        E::DuplicateKey(d) => {
            let first = span_in(src, d.prev_key.span());
            Diagnostic::new(
                Code::DuplicateKey,
                span_in(src, d.key.span()),
                format!("duplicate key `{}`", d.key.as_str()),
            )
            .label("defined again here")
            .note(first, "first defined here")
            .help("each key (and each item id) may appear once; rename or remove one")
        }
        E::ScanError(m, s) if s.info().contains("recursion limit") => {
            Diagnostic::new(Code::TooDeep, marker_span(src, m), "YAML nested too deeply")
                .label("the YAML parser stopped here")
                .help(
                    "tabula reads YAML nested at most 255 brackets deep (docs/LANGUAGE.md, \
                     Limits): flatten the value",
                )
        }
        E::ScanError(m, s) => Diagnostic::new(
            Code::YamlSyntax,
            marker_span(src, m),
            format!("YAML syntax error: {}", s.info()),
        )
        .label("the YAML parser stopped here")
        .help("check indentation, colons and closing brackets on this line and the one above"),
        E::TopLevelMustBeMapping(m) | E::TopLevelMustBeSequence(m) => Diagnostic::new(
            Code::BadValue,
            marker_span(src, m),
            "the file must be a YAML mapping",
        )
        .help("start with `key: value` lines"),
        E::UnexpectedAnchor(m) => Diagnostic::new(
            Code::YamlUnsupported,
            marker_span(src, m),
            "YAML anchors and aliases are not supported",
        )
        .help("write the value out in full"),
        E::MappingKeyMustBeScalar(m) => Diagnostic::new(
            Code::YamlUnsupported,
            marker_span(src, m),
            "a mapping key must be a plain name",
        )
        .help("use a name or a number as key"),
        E::UnexpectedTag(m) => Diagnostic::new(
            Code::YamlUnsupported,
            marker_span(src, m),
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
    from_node_in(&Scanned { file, text }, node, what, diags)
}

/// Deserializes a node of a file with serde, reporting errors with their
/// place.
pub fn from_node_in<T: for<'de> Deserialize<'de>>(
    src: &impl Places,
    node: &Node,
    what: &str,
    diags: &mut Diagnostics,
) -> Option<T> {
    match marked_yaml::from_node::<T>(node) {
        Ok(v) => Some(v),
        Err(e) => {
            let span = e
                .start_mark()
                .map_or_else(|| span_in(src, node.span()), |m| marker_span(src, &m));
            let inner = e.into_inner();
            let d = match &inner {
                marked_yaml::Error::UnknownFieldError(field, expected, _) => {
                    // Point at the key itself rather than at its mapping.
                    let span = find_key(node, field, span.start as usize, src).unwrap_or(span);
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
                _ if beyond_64_bits(span_text(src, span)) => {
                    number_out_of_range(span, span_text(src, span))
                }
                other => {
                    let msg = without_place(&other.to_string());
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

/// The text of a span of a file (empty if the span is not in it).
fn span_text(src: &impl Places, span: Span) -> &str {
    src.text()
        .get(span.start as usize..span.end as usize)
        .unwrap_or("")
}

/// A serde message without the place it ends with (" at line 3 column
/// 7"), which the diagnostic shows by itself.
fn without_place(msg: &str) -> String {
    if let Some((head, tail)) = msg.rsplit_once(" at line ") {
        let place = tail.replace(" column ", "");
        if !place.is_empty() && place.bytes().all(|b| b.is_ascii_digit()) {
            return head.to_string();
        }
    }
    msg.to_string()
}

/// Whether a YAML scalar is a whole number beyond the 64-bit range.
pub fn beyond_64_bits(v: &str) -> bool {
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && v.parse::<i64>().is_err()
}

/// The report of a whole number beyond the 64-bit range.
pub fn number_out_of_range(span: Span, v: &str) -> Diagnostic {
    let shown: String = v.chars().take(40).collect();
    let cut = if shown.len() < v.len() { "..." } else { "" };
    Diagnostic::new(
        Code::NumberOutOfRange,
        span,
        format!("the number {shown}{cut} is beyond the 64-bit range"),
    )
    .label("too large")
    .help(format!(
        "integers run from {} to {} (docs/LANGUAGE.md, Limits)",
        i64::MIN,
        i64::MAX
    ))
}

/// The span of the key `name` in the mapping starting at byte `at` (or, failing
/// that, in any mapping) of a node tree.
fn find_key(node: &Node, name: &str, at: usize, src: &impl Places) -> Option<Span> {
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
    let start = |m: &marked_yaml::types::MarkedMappingNode| m.span().start().map(|p| src.offset(p));
    let key_in = |m: &marked_yaml::types::MarkedMappingNode| {
        m.keys()
            .find(|k| k.as_str() == name)
            .map(|k| span_in(src, k.span()))
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
    check_keys_in(&Scanned { file, text }, map, known, what, diags);
}

/// Checks that a mapping of a file has only known keys.
pub fn check_keys_in(
    src: &impl Places,
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
                    span_in(src, key.span()),
                    format!("unknown key `{}` in {what}", key.as_str()),
                )
                .label("not expected here")
                .help(help),
            );
        }
    }
}

//! Every example in `docs/LANGUAGE.md` is checked: each ```tabula block
//! must parse as a whole rules file, a list of statements or an expression,
//! and each ```yaml block must be valid YAML (```yaml-fragment blocks are
//! partial on purpose and not checked).

use std::path::Path;

use tabula::lang::parser::{parse_expr, parse_file, parse_stmts};

/// A fenced code block: its tag, its text, and the line of its opening fence.
struct Block {
    tag: String,
    text: String,
    line: usize,
}

fn blocks(doc: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in doc.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(tag) = trimmed.strip_prefix("```") {
                    open = Some(Block {
                        tag: tag.trim().to_string(),
                        text: String::new(),
                        line: i + 1,
                    });
                }
            }
            Some(b) => {
                if trimmed.starts_with("```") {
                    out.push(open.take().expect("open block"));
                } else {
                    b.text.push_str(line);
                    b.text.push('\n');
                }
            }
        }
    }
    assert!(
        open.is_none(),
        "docs/LANGUAGE.md has an unclosed code block"
    );
    out
}

fn doc() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/LANGUAGE.md");
    std::fs::read_to_string(&path).expect("docs/LANGUAGE.md exists")
}

fn parses(text: &str) -> bool {
    parse_file(0, text).is_ok()
        || parse_stmts(0, text, &|o| o).is_ok()
        || parse_expr(0, text, &|o| o).is_ok()
}

#[test]
fn every_tabula_example_parses() {
    let all = blocks(&doc());
    let tabula: Vec<&Block> = all.iter().filter(|b| b.tag == "tabula").collect();
    assert!(
        tabula.len() >= 40,
        "expected many examples, found {}",
        tabula.len()
    );
    let bad: Vec<String> = tabula
        .iter()
        .filter(|b| !parses(&b.text))
        .map(|b| {
            let err = parse_stmts(0, &b.text, &|o| o)
                .err()
                .map_or(String::new(), |e| {
                    format!(
                        " (as statements: expected {} at byte {}, found `{}`)",
                        e.expected.join(", "),
                        e.span.start,
                        e.found
                    )
                });
            format!("line {}{err}:\n{}", b.line, b.text)
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} tabula block(s) in docs/LANGUAGE.md parse as neither a file, statements nor an expression:\n\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_yaml_example_is_yaml() {
    let all = blocks(&doc());
    let yaml: Vec<&Block> = all.iter().filter(|b| b.tag == "yaml").collect();
    assert!(!yaml.is_empty(), "expected yaml examples");
    let bad: Vec<String> = yaml
        .iter()
        .filter_map(|b| {
            marked_yaml::parse_yaml(0, &b.text)
                .err()
                .map(|e| format!("line {}: {e}\n{}", b.line, b.text))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} yaml block(s) in docs/LANGUAGE.md are not valid YAML:\n\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_code_block_is_tagged() {
    let known = ["tabula", "yaml", "yaml-fragment", "text", "sh", "json"];
    let untagged: Vec<String> = blocks(&doc())
        .iter()
        .filter(|b| !known.contains(&b.tag.as_str()))
        .map(|b| format!("line {}: ```{}", b.line, b.tag))
        .collect();
    assert!(
        untagged.is_empty(),
        "code blocks in docs/LANGUAGE.md need a known tag: {}",
        untagged.join(", ")
    );
}

//! Every example in `docs/LANGUAGE.md` is checked: each ```tabula block
//! must parse as a whole rules file, a list of statements or an expression,
//! and each ```yaml block must be valid YAML (```yaml-fragment blocks are
//! partial on purpose and not checked).
//!
//! In `docs/SCENARIOS.md`, every ```yaml block must be valid YAML, and a
//! block whose first line is `# rules/<game>/examples/<file>.yaml` is run
//! as a scenario of that game: it must pass, and the ```text block that
//! follows the words "as its snapshot records it" must be its transcript.
//!
//! The builtins listed in `docs/LANGUAGE.md` (the tables of the sections
//! Builtins and Grids) are those of the compiler's table, the reserved
//! words it names are those the loader reserves, and the diagnostic codes
//! of its section Diagnostics are those of `src/ir/codes.rs`, with the
//! same summaries.

use std::collections::BTreeSet;
use std::path::Path;

use tabula::ir::codes::Code;
use tabula::ir::symbols::RESERVED;
use tabula::lang::parser::{parse_expr, parse_file, parse_stmts};
use tabula::model::compile::builtins::{Doc, BUILTINS};

/// A fenced code block: its tag, its text, and the line of its opening fence.
struct Block {
    tag: String,
    text: String,
    line: usize,
}

fn blocks(doc: &str) -> Vec<Block> {
    blocks_of(doc, "docs/LANGUAGE.md")
}

fn blocks_of(doc: &str, name: &str) -> Vec<Block> {
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
    assert!(open.is_none(), "{name} has an unclosed code block");
    out
}

fn read_doc(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn doc() -> String {
    read_doc("docs/LANGUAGE.md")
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
    for name in ["docs/LANGUAGE.md", "docs/SCENARIOS.md"] {
        let untagged: Vec<String> = blocks_of(&read_doc(name), name)
            .iter()
            .filter(|b| !known.contains(&b.tag.as_str()))
            .map(|b| format!("line {}: ```{}", b.line, b.tag))
            .collect();
        assert!(
            untagged.is_empty(),
            "code blocks in {name} need a known tag: {}",
            untagged.join(", ")
        );
    }
}

const SCENARIOS: &str = "docs/SCENARIOS.md";

#[test]
fn every_scenario_yaml_example_is_yaml() {
    let all = blocks_of(&read_doc(SCENARIOS), SCENARIOS);
    let yaml: Vec<&Block> = all.iter().filter(|b| b.tag == "yaml").collect();
    assert!(!yaml.is_empty(), "expected yaml examples in {SCENARIOS}");
    let bad: Vec<String> = yaml
        .iter()
        .filter_map(|b| {
            // Step examples are list items indented as inside `steps:`.
            let text = if b.text.trim_start().starts_with("- ") {
                format!("steps:\n{}", b.text)
            } else {
                b.text.clone()
            };
            marked_yaml::parse_yaml(0, &text)
                .err()
                .map(|e| format!("line {}: {e}\n{}", b.line, b.text))
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} yaml block(s) in {SCENARIOS} are not valid YAML:\n\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_scenario_example_runs_and_its_transcript_is_shown() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = read_doc(SCENARIOS);
    let all = blocks_of(&doc, SCENARIOS);
    let examples: Vec<(&Block, String)> = all
        .iter()
        .filter(|b| b.tag == "yaml")
        .filter_map(|b| {
            let first = b.text.lines().next()?;
            let path = first.strip_prefix("# rules/")?;
            let game = path.split('/').next()?.to_string();
            Some((b, game))
        })
        .collect();
    assert!(
        !examples.is_empty(),
        "{SCENARIOS} should show a real scenario (a yaml block starting `# rules/<game>/examples/...`)"
    );
    let dir = std::env::temp_dir().join(format!("tabula-docs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    for (i, (block, game)) in examples.iter().enumerate() {
        let file = dir.join(format!("example-{i}.yaml"));
        let ruleset = root.join("rules").join(game);
        let text = format!(
            "ruleset: {}\n{}",
            serde_json::to_string(&ruleset.display().to_string()).expect("a string"),
            block.text
        );
        std::fs::write(&file, text).expect("write the example");
        let outcome = tabula::scenario::run_file(&file).unwrap_or_else(|e| {
            panic!(
                "{SCENARIOS} line {}: the example does not run:\n{e}",
                block.line
            )
        });
        assert!(
            outcome.passed(),
            "{SCENARIOS} line {}: the example fails:\n{}",
            block.line,
            outcome.failures.render_plain()
        );
        if i == 0 {
            let marker = doc
                .find("as its snapshot records it")
                .expect("the transcript of the example is shown");
            let shown = all
                .iter()
                .find(|b| b.tag == "text" && line_offset(&doc, b.line) > marker)
                .expect("a text block after the marker");
            assert_eq!(
                shown.text.trim_end(),
                outcome.transcript.join("\n"),
                "{SCENARIOS} line {}: the transcript shown is not the example's transcript",
                shown.line
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The byte offset of the start of 1-based line `line`.
fn line_offset(doc: &str, line: usize) -> usize {
    doc.split_inclusive('\n').take(line - 1).map(str::len).sum()
}

/// The lines of the section of `doc` under the heading `heading`, up to
/// the next heading of the same level.
fn section<'a>(doc: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = doc.lines().skip_while(|l| *l != heading);
    assert!(
        lines.next().is_some(),
        "docs/LANGUAGE.md has no `{heading}`"
    );
    lines.take_while(|l| !l.starts_with("## ")).collect()
}

/// The names in backquotes in a line, each cut before its `(`.
fn quoted_names(line: &str) -> Vec<&str> {
    line.split('`')
        .skip(1)
        .step_by(2)
        .map(|q| q.split('(').next().unwrap_or(q).trim())
        .collect()
}

/// The builtins named in the first column of the tables of a section.
fn documented_builtins(doc: &str, heading: &str) -> BTreeSet<String> {
    section(doc, heading)
        .into_iter()
        .filter(|l| l.starts_with("| `"))
        .flat_map(|l| quoted_names(l.split('|').nth(1).unwrap_or("")))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_documented_builtins_are_the_compilers() {
    let doc = doc();
    for (heading, place) in [("## Builtins", Doc::Builtins), ("## Grids", Doc::Grids)] {
        let documented = documented_builtins(&doc, heading);
        let compiled: BTreeSet<String> = BUILTINS
            .iter()
            .filter(|b| b.doc == place)
            .map(|b| b.name.to_string())
            .collect();
        assert_eq!(
            documented, compiled,
            "the builtins documented under `{heading}` in docs/LANGUAGE.md (left) differ from \
             those of src/model/compile/builtins.rs placed there (right)"
        );
    }
}

#[test]
fn the_documented_reserved_words_are_the_loaders() {
    let doc = doc();
    let text = section(&doc, "## Builtins").join(" ");
    let start = text
        .find("(as are")
        .expect("the Builtins section names the reserved words");
    let end = start + text[start..].find(')').expect("a closing parenthesis");
    let documented: BTreeSet<&str> = quoted_names(&text[start..end]).into_iter().collect();
    let reserved: BTreeSet<&str> = RESERVED.iter().copied().collect();
    assert_eq!(
        documented, reserved,
        "docs/LANGUAGE.md (left), RESERVED (right)"
    );
}

#[test]
fn the_documented_codes_are_the_table_of_codes() {
    let doc = doc();
    let documented: BTreeSet<(String, String)> = section(&doc, "## Diagnostics")
        .into_iter()
        .filter(|l| l.starts_with("| `tabula::"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells[1].trim_matches('`');
            (name.to_string(), cells[2].to_string())
        })
        .collect();
    let table: BTreeSet<(String, String)> = Code::ALL
        .iter()
        .map(|c| (c.to_string(), c.summary().to_string()))
        .collect();
    assert_eq!(
        documented, table,
        "the codes (and summaries) listed under `## Diagnostics` in docs/LANGUAGE.md (left) \
         differ from the table of src/ir/codes.rs (right)"
    );
}

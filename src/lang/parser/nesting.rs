//! How deep a text nests, measured before pest reads it: pest descends
//! once per bracket and per `if` that nests the text further, so a text of
//! a few thousand `(` would overflow the stack. The scan counts, at every
//! point, the brackets open and the `if`s not yet closed, and reports the
//! first place past [`MAX_NESTING`].
//!
//! An `if` (statement or expression) is counted open from its keyword
//! until, at its bracket level, a `;` or `,` ends what it is part of, or a
//! `}` is followed by the start of another statement: an `else if` chain
//! and `if a then b else if ...` nest one level per `if`, a list of `if`
//! statements does not. The count never falls short of pest's descent,
//! whatever the text (nothing it skips can be inside an open `if`).

/// The most brackets (`(`, `[`, `{`) and `if`s a text may nest inside
/// one another (docs/LANGUAGE.md, Limits).
pub const MAX_NESTING: usize = 64;

/// Where a text first nests past [`MAX_NESTING`]: the byte range of the
/// bracket or `if` that does. `None` when it stays within.
pub(super) fn too_deep(text: &str) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    // The `if`s open at each bracket level, outermost first.
    let mut ifs: Vec<usize> = vec![0];
    // Just after a `}`: a word starting a statement closes this level's `if`s.
    let mut after_brace = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
                after_brace = false;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some((i, i + 1));
                }
                ifs.push(0);
                after_brace = false;
            }
            b')' | b']' | b'}' => {
                if ifs.len() > 1 {
                    depth -= 1 + ifs.pop().unwrap_or(0);
                }
                after_brace = c == b'}';
            }
            b';' | b',' => {
                close_ifs(&mut ifs, &mut depth);
                after_brace = false;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &text[start..i];
                if after_brace && starts_statement(word) {
                    close_ifs(&mut ifs, &mut depth);
                }
                if word == "if" {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Some((start, i));
                    }
                    if let Some(n) = ifs.last_mut() {
                        *n += 1;
                    }
                }
                after_brace = false;
                continue;
            }
            c if c.is_ascii_whitespace() => {}
            _ => after_brace = false,
        }
        i += 1;
    }
    None
}

/// Closes the `if`s open at the innermost bracket level.
fn close_ifs(ifs: &mut [usize], depth: &mut usize) {
    if let Some(n) = ifs.last_mut() {
        *depth -= *n;
        *n = 0;
    }
}

/// Whether a word after a `}` can only start a new statement (or
/// declaration): a name or a keyword that begins one. `else`, `then`,
/// `in`, `where`, `and`, `or` and the like continue what came before.
fn starts_statement(word: &str) -> bool {
    const CONTINUING: &[&str] = &[
        "else", "then", "in", "where", "and", "or", "not", "by", "when", "true", "false", "none",
    ];
    !CONTINUING.contains(&word) && !word.as_bytes()[0].is_ascii_digit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_ok(text: &str) -> bool {
        too_deep(text).is_none()
    }

    #[test]
    fn brackets_and_ifs_count_where_they_nest() {
        let parens = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
        assert!(depth_ok(&parens(MAX_NESTING)));
        assert_eq!(
            too_deep(&parens(MAX_NESTING + 1)),
            Some((MAX_NESTING, MAX_NESTING + 1))
        );
        // An `else if` chain nests; a list of `if` statements does not.
        let chain = |n: usize| vec!["if a { x = 1; }"; n].join(" else ");
        assert!(depth_ok(&format!(
            "proc f() {{ {} }}",
            chain(MAX_NESTING - 2)
        )));
        assert!(!depth_ok(&format!(
            "proc f() {{ {} }}",
            chain(MAX_NESTING + 1)
        )));
        let list = vec!["if a { x = 1; }"; 1000].join(" ");
        assert!(depth_ok(&format!("proc f() {{ {list} }}")));
        let list = vec!["if a { x = 1; } else { y = 2; }"; 1000].join("\n");
        assert!(depth_ok(&format!("proc f() {{ {list} }}")));
        // Conditional expressions nest through `else`, not across `;`.
        let cond = |n: usize| format!("{}0", "if a then 1 else ".repeat(n));
        assert!(!depth_ok(&cond(MAX_NESTING + 1)));
        assert!(depth_ok(&vec![cond(10); 100].join(";\n")));
        assert!(!depth_ok(&format!(
            "{}0",
            "if a then {x} else {y} + ".repeat(MAX_NESTING + 1)
        )));
        // Strings and comments are skipped.
        assert!(depth_ok(&format!(
            "\"{}\" // {}",
            "(".repeat(500),
            "[".repeat(500)
        )));
    }
}

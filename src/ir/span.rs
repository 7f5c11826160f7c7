//! Source files and spans into them.

use std::sync::Arc;

/// A byte range in one source file of a load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Span {
    /// Index of the file in the [`SourceMap`].
    pub file: u32,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(file: u32, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end.max(start) as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether it covers nothing.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// One loaded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Its index in the [`SourceMap`].
    pub id: u32,
    /// The name shown in diagnostics (a path relative to the ruleset's parent).
    pub name: String,
    /// The whole text.
    pub text: Arc<str>,
    /// Where its lines start, to locate offsets without scanning the text.
    pub lines: Arc<LineIndex>,
}

impl SourceFile {
    /// The byte offset of a position given as a character index (from 0)
    /// and its 1-based line and column, as parsers report positions: the
    /// character index locates it, the line checks it (and locates it
    /// should the two disagree).
    pub fn offset_at(&self, char_index: usize, line: usize, col: usize) -> usize {
        let by_char = self.lines.char_to_byte(&self.text, char_index);
        if self.lines.line_of(by_char) + 1 == line {
            return by_char;
        }
        self.lines.line_col_to_byte(&self.text, line, col)
    }
}

/// Every file read during a load, so that diagnostics can show any of them.
/// Cloning it is cheap: the texts and their indexes are shared.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<Arc<SourceFile>>,
}

impl SourceMap {
    /// Registers a file and returns its index.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> u32 {
        let text = text.into();
        self.files.push(Arc::new(SourceFile {
            id: self.files.len() as u32,
            name: name.into(),
            lines: Arc::new(LineIndex::new(&text)),
            text,
        }));
        (self.files.len() - 1) as u32
    }

    /// The file with this index.
    pub fn file(&self, id: u32) -> &SourceFile {
        &self.files[id as usize]
    }

    /// The file with this index, shared (to read it while the map changes).
    pub fn shared(&self, id: u32) -> Arc<SourceFile> {
        self.files[id as usize].clone()
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        let text = &self.file(span.file).text;
        let end = (span.end as usize).min(text.len());
        let start = (span.start as usize).min(end);
        text.get(start..end).unwrap_or("")
    }

    /// 1-based line and column (in characters) of a span's start.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        let file = self.file(span.file);
        file.lines.line_col(&file.text, span.start as usize)
    }

    /// `file:line:col` of a span's start.
    pub fn locate(&self, span: Span) -> String {
        let (line, col) = self.line_col(span);
        format!("{}:{}:{}", self.file(span.file).name, line, col)
    }

    /// The byte offset of a position in a file given as a character index
    /// (counted from 0) and its 1-based line and column, as parsers report
    /// positions: the character index locates it, the line checks it (and
    /// locates it should the two disagree).
    pub fn offset_at(&self, file: u32, char_index: usize, line: usize, col: usize) -> usize {
        self.file(file).offset_at(char_index, line, col)
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file was loaded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Characters between two checkpoints of a [`LineIndex`] over a text that
/// is not all ASCII.
const CHECKPOINT: usize = 64;

/// Where the lines of a text start, so that a byte offset becomes a line
/// and column (and back) in logarithmic time rather than by scanning the
/// text from its start: diagnostics and YAML spans stay linear in the size
/// of a file however many of them there are.
#[derive(Debug, Default)]
pub struct LineIndex {
    /// The byte offset of each line's start (the first is 0).
    starts: Vec<u32>,
    /// The byte offset of every `CHECKPOINT`-th character, when the text is
    /// not all ASCII (empty when it is: a character is then a byte).
    checkpoints: Vec<u32>,
    /// Whether every character is one byte.
    ascii: bool,
}

impl LineIndex {
    /// Indexes a text.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| (i + 1) as u32),
        );
        let ascii = text.is_ascii();
        let checkpoints = if ascii {
            Vec::new()
        } else {
            text.char_indices()
                .step_by(CHECKPOINT)
                .map(|(b, _)| b as u32)
                .collect()
        };
        LineIndex {
            starts,
            checkpoints,
            ascii,
        }
    }

    /// The 0-based line holding a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s as usize <= offset) - 1
    }

    /// The byte offset where a 0-based line starts (the text's end past the last).
    pub fn line_start(&self, line: usize, text: &str) -> usize {
        self.starts.get(line).map_or(text.len(), |&s| s as usize)
    }

    /// Number of lines (a text without a newline has one).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The character index of a byte offset (clamped to the text).
    pub fn byte_to_char(&self, text: &str, byte: usize) -> usize {
        let byte = floor_boundary(text, byte.min(text.len()));
        if self.ascii {
            return byte;
        }
        let k = self.checkpoints.partition_point(|&b| b as usize <= byte) - 1;
        let from = self.checkpoints[k] as usize;
        k * CHECKPOINT + text[from..byte].chars().count()
    }

    /// The byte offset of a character index (the text's end past the last).
    pub fn char_to_byte(&self, text: &str, ch: usize) -> usize {
        if self.ascii {
            return ch.min(text.len());
        }
        let k = ch / CHECKPOINT;
        let Some(&from) = self.checkpoints.get(k) else {
            return text.len();
        };
        let from = from as usize;
        text[from..]
            .char_indices()
            .nth(ch % CHECKPOINT)
            .map_or(text.len(), |(b, _)| from + b)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.starts[line] as usize;
        let col = self.byte_to_char(text, offset) - self.byte_to_char(text, start);
        (line + 1, col + 1)
    }

    /// The byte offset of a 1-based line and column (in characters), as
    /// [`offset_of`] finds it: a column past the line's end is its end, a
    /// line past the text's end is the text's end.
    pub fn line_col_to_byte(&self, text: &str, line: usize, col: usize) -> usize {
        let Some(&start) = line.checked_sub(1).and_then(|l| self.starts.get(l)) else {
            return text.len();
        };
        let start = start as usize;
        let end = self.line_start(line, text);
        let content = text[start..end].trim_end_matches('\n');
        let want = self.byte_to_char(text, start) + col.saturating_sub(1);
        let byte = self.char_to_byte(text, want);
        if byte >= start + content.len() {
            start + content.len()
        } else {
            byte
        }
    }
}

/// The largest character boundary at or before `i`.
fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Byte offset of a 1-based line and column (in characters) in a text.
/// It scans the text: a file read once is better served by
/// [`SourceMap::offset_at`], which uses the file's [`LineIndex`].
pub fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let byte = l
                .char_indices()
                .nth(col.saturating_sub(1))
                .map_or(l.trim_end_matches('\n').len(), |(b, _)| b);
            return offset + byte;
        }
        offset += l.len();
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index agrees with a scan of the text, ASCII or not.
    #[test]
    fn the_index_agrees_with_a_scan() {
        let mut long = String::new();
        for i in 0..300 {
            long.push_str(if i % 7 == 0 { "é€x\n" } else { "ab c\n" });
        }
        for text in [
            "",
            "a",
            "a\nb",
            "a\n\nbc\n",
            "é\nxé€y\nz",
            "ab\r\ncd",
            long.as_str(),
        ] {
            let index = LineIndex::new(text);
            let ends = text.char_indices().chain([(text.len(), ' ')]);
            for (chars, (b, _)) in ends.enumerate() {
                assert_eq!(index.byte_to_char(text, b), chars, "{text:?} byte {b}");
                assert_eq!(index.char_to_byte(text, chars), b, "{text:?} char {chars}");
                let upto = &text[..b];
                let line = upto.matches('\n').count() + 1;
                let col = upto.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                assert_eq!(index.line_col(text, b), (line, col), "{text:?} byte {b}");
                assert_eq!(
                    index.line_col_to_byte(text, line, col),
                    b,
                    "{text:?} {line}:{col}"
                );
            }
            for line in 0..6 {
                for col in 0..8 {
                    assert_eq!(
                        index.line_col_to_byte(text, line, col),
                        offset_of(text, line, col),
                        "{text:?} {line}:{col}"
                    );
                }
            }
        }
    }
}

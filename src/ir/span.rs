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
    /// The name shown in diagnostics (a path relative to the ruleset's parent).
    pub name: String,
    /// The whole text.
    pub text: Arc<str>,
}

/// Every file read during a load, so that diagnostics can show any of them.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Registers a file and returns its index.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> u32 {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        (self.files.len() - 1) as u32
    }

    /// The file with this index.
    pub fn file(&self, id: u32) -> &SourceFile {
        &self.files[id as usize]
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        let text = &self.file(span.file).text;
        let end = (span.end as usize).min(text.len());
        let start = (span.start as usize).min(end);
        text.get(start..end).unwrap_or("")
    }

    /// 1-based line and column of a span's start.
    pub fn line_col(&self, span: Span) -> (usize, usize) {
        let text = &self.file(span.file).text;
        let upto = &text[..(span.start as usize).min(text.len())];
        let line = upto.matches('\n').count() + 1;
        let col = upto.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// `file:line:col` of a span's start.
    pub fn locate(&self, span: Span) -> String {
        let (line, col) = self.line_col(span);
        format!("{}:{}:{}", self.file(span.file).name, line, col)
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

/// Byte offset of a 1-based line and column (in characters) in a text.
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

//! A source file as miette reads it to show a diagnostic: shared (never
//! copied per diagnostic) and read through its line index, so that showing
//! a diagnostic costs the lines it shows, not the size of the file.

use std::sync::Arc;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::ir::span::{LineIndex, SourceFile};

/// Lines longer than this (in bytes, around the caret) are shown cut.
const LONG_WINDOW: usize = 8 * 1024;

/// Bytes shown on each side of the caret on a line too long to show whole.
const CUT_MARGIN: usize = 120;

/// A file of a [`crate::ir::span::SourceMap`], shared with the report
/// that shows it.
#[derive(Debug, Clone)]
pub struct SharedSource {
    name: String,
    text: Arc<str>,
    lines: Arc<LineIndex>,
}

impl SharedSource {
    /// The source of a loaded file (its text and index are shared).
    pub fn new(file: &SourceFile) -> SharedSource {
        SharedSource {
            name: file.name.clone(),
            text: file.text.clone(),
            lines: file.lines.clone(),
        }
    }
}

impl SourceCode for SharedSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text: &str = &self.text;
        let start = span.offset();
        let end = start + span.len();
        if end > text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let first_line = self.lines.line_of(start).saturating_sub(before + 1);
        let last_line = self.lines.line_of(end) + after + 2;
        let from = self.lines.line_start(first_line, text);
        let to = self.lines.line_start(last_line, text);
        let (from, to, shown_before, shown_after) = if to - from <= LONG_WINDOW {
            (from, to, before, after)
        } else {
            // A long line: show the part around the caret, alone (the
            // window holds no other line).
            let line = self.lines.line_start(self.lines.line_of(start), text);
            let line_end = self.lines.line_start(self.lines.line_of(start) + 1, text);
            let from = floor_boundary(text, start.saturating_sub(CUT_MARGIN).max(line));
            let to = ceil_boundary(text, (end.max(start + 1) + CUT_MARGIN).min(line_end));
            // Asked for context (the snippet), the whole window: miette
            // shows it given one line each side; asked for none (the
            // header's place), the span alone.
            (from, to.max(end), before.min(1), after.min(1))
        };
        let window = &text[from..to];
        let inner = SourceSpan::new((start - from).into(), span.len());
        let contents = window.read_span(&inner, shown_before, shown_after)?;
        let at = contents.span().offset() + from;
        let skipped_lines = self.lines.line_of(from);
        let column = if contents.line() == 0 && from > self.lines.line_start(skipped_lines, text) {
            // A cut line: count the columns cut off on the left.
            let line_start = self.lines.line_start(skipped_lines, text);
            self.lines.byte_to_char(text, at) - self.lines.byte_to_char(text, line_start)
        } else {
            contents.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            contents.data(),
            SourceSpan::new(at.into(), contents.span().len()),
            contents.line() + skipped_lines,
            column,
            contents.line_count() + skipped_lines,
        )))
    }
}

/// The largest character boundary at or before `i`.
fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary at or after `i`.
fn ceil_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

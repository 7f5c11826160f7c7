//! Where a value sits in a JSON text that is known to be valid: the byte
//! range of a top-level key's value, or of an element of a top-level array
//! (for diagnostics that point into a game log).

use std::ops::Range;

/// A scanner over valid JSON.
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    /// Skips a string (at its opening quote); returns its raw contents.
    fn string(&mut self) -> Option<Range<usize>> {
        self.ws();
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        let start = self.i + 1;
        let mut j = start;
        while j < self.b.len() {
            match self.b[j] {
                b'\\' => j += 2,
                b'"' => {
                    self.i = j + 1;
                    return Some(start..j);
                }
                _ => j += 1,
            }
        }
        None
    }

    /// Skips one value; returns its range.
    fn value(&mut self) -> Option<Range<usize>> {
        self.ws();
        let start = self.i;
        match *self.b.get(self.i)? {
            b'"' => {
                self.string()?;
            }
            open @ (b'[' | b'{') => {
                let close = if open == b'[' { b']' } else { b'}' };
                self.i += 1;
                if self.eat(close).is_none() {
                    loop {
                        if open == b'{' {
                            self.string()?;
                            self.eat(b':')?;
                        }
                        self.value()?;
                        if self.eat(b',').is_none() {
                            self.eat(close)?;
                            break;
                        }
                    }
                }
            }
            _ => {
                while self.i < self.b.len() && !b",]} \t\r\n".contains(&self.b[self.i]) {
                    self.i += 1;
                }
            }
        }
        Some(start..self.i)
    }

    /// In the top-level object, the range of the value of `key`.
    fn member(&mut self, key: &str) -> Option<Range<usize>> {
        self.eat(b'{')?;
        loop {
            let k = self.string()?;
            self.eat(b':')?;
            let v = self.value()?;
            if &self.b[k] == key.as_bytes() {
                return Some(v);
            }
            self.eat(b',')?;
        }
    }
}

/// The range of the value of the top-level `key` of the JSON object `text`.
pub fn value_of(text: &str, key: &str) -> Option<Range<usize>> {
    Scan {
        b: text.as_bytes(),
        i: 0,
    }
    .member(key)
}

/// The range of element `index` of the array that is the value of the
/// top-level `key` of the JSON object `text`.
pub fn element_of(text: &str, key: &str, index: usize) -> Option<Range<usize>> {
    let mut s = Scan {
        b: text.as_bytes(),
        i: 0,
    };
    let array = s.member(key)?;
    s.i = array.start;
    s.eat(b'[')?;
    for k in 0.. {
        let v = s.value()?;
        if k == index {
            return Some(v);
        }
        s.eat(b',')?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_members_and_elements() {
        let t = r#"{ "a": {"x": [1, "}"]}, "decisions": ["1", "3", "2"], "seed": 7 }"#;
        assert_eq!(&t[value_of(t, "seed").unwrap()], "7");
        assert_eq!(&t[element_of(t, "decisions", 1).unwrap()], "\"3\"");
        assert_eq!(element_of(t, "decisions", 3), None);
        assert_eq!(value_of(t, "nope"), None);
        assert_eq!(&t[value_of(t, "a").unwrap()], r#"{"x": [1, "}"]}"#);
    }
}

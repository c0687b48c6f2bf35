//! Writing normalized arguments back as text that differs from what was sent
//! only where a repair was made.
//!
//! Re-serializing a `serde_json::Value` would reformat numbers (`1.50`
//! becomes `1.5`, `1e5` becomes `100000.0`) and whitespace. A log pipeline or
//! a conformance run must get every unrepaired byte back as sent, so this
//! module walks the original text and replaces only the string values whose
//! JSON pointer the [`Report`] names.

use crate::path::write_token;
use crate::report::Report;
use serde_json::Value;
use std::collections::HashSet;

/// Why the original text could not be walked (it is not the JSON the value
/// was parsed from).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the original text is not well-formed JSON at byte {offset}")]
pub struct SpliceError {
    /// Byte offset where the walk stopped.
    pub offset: usize,
}

/// Returns `original` with every repaired location replaced by its value in
/// `normalized`, compactly serialized; every other byte (keys, numbers,
/// whitespace, unrepaired strings) is copied as sent.
///
/// `normalized` must be the value parsed from `original` after normalization
/// produced `report`. Where an object repeats a key, every occurrence of a
/// repaired key is replaced by the normalized value (which, as in
/// serde_json, comes from the last occurrence).
///
/// # Errors
///
/// [`SpliceError`] when `original` is not well-formed JSON.
pub fn splice(original: &str, normalized: &Value, report: &Report) -> Result<String, SpliceError> {
    if report.is_clean() {
        return Ok(original.to_owned());
    }
    let repaired: HashSet<&str> = report.repairs.iter().map(|r| r.pointer.as_str()).collect();
    let mut walker = Walker {
        text: original.as_bytes(),
        source: original,
        pos: 0,
        out: String::with_capacity(original.len()),
        pointer: String::new(),
        repaired,
        normalized,
    };
    walker.value()?;
    walker.copy_whitespace();
    if walker.pos != walker.text.len() {
        return Err(SpliceError { offset: walker.pos });
    }
    Ok(walker.out)
}

struct Walker<'a> {
    text: &'a [u8],
    source: &'a str,
    pos: usize,
    out: String,
    /// JSON pointer of the value being walked.
    pointer: String,
    repaired: HashSet<&'a str>,
    normalized: &'a Value,
}

impl Walker<'_> {
    fn error(&self) -> SpliceError {
        SpliceError { offset: self.pos }
    }

    fn copy_whitespace(&mut self) {
        let start = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.pos) {
            self.pos += 1;
        }
        self.out.push_str(&self.source[start..self.pos]);
    }

    fn expect(&mut self, byte: u8) -> Result<(), SpliceError> {
        if self.text.get(self.pos) != Some(&byte) {
            return Err(self.error());
        }
        self.out.push(byte as char);
        self.pos += 1;
        Ok(())
    }

    /// The end of the string token starting at `self.pos` (just past its
    /// closing quote).
    fn string_end(&self) -> Result<usize, SpliceError> {
        let mut i = self.pos + 1;
        loop {
            match memchr::memchr2(b'"', b'\\', &self.text[i.min(self.text.len())..]) {
                None => return Err(self.error()),
                Some(k) if self.text[i + k] == b'\\' => i += k + 2,
                Some(k) => return Ok(i + k + 1),
            }
        }
    }

    fn value(&mut self) -> Result<(), SpliceError> {
        self.copy_whitespace();
        let end = match self.text.get(self.pos) {
            Some(b'{') => return self.object(),
            Some(b'[') => return self.array(),
            Some(b'"') => self.string_end()?,
            Some(_) => {
                let mut end = self.pos;
                while let Some(&b) = self.text.get(end) {
                    if matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    end += 1;
                }
                if end == self.pos {
                    return Err(self.error());
                }
                end
            }
            None => return Err(self.error()),
        };
        if self.text[self.pos] == b'"' && self.repaired.contains(self.pointer.as_str()) {
            let value = self
                .normalized
                .pointer(&self.pointer)
                .ok_or_else(|| self.error())?;
            self.out.push_str(&value.to_string());
        } else {
            self.out.push_str(&self.source[self.pos..end]);
        }
        self.pos = end;
        Ok(())
    }

    fn object(&mut self) -> Result<(), SpliceError> {
        self.expect(b'{')?;
        self.copy_whitespace();
        if self.text.get(self.pos) == Some(&b'}') {
            return self.expect(b'}');
        }
        let base = self.pointer.len();
        loop {
            self.copy_whitespace();
            if self.text.get(self.pos) != Some(&b'"') {
                return Err(self.error());
            }
            let end = self.string_end()?;
            let raw = &self.source[self.pos..end];
            let key: String = serde_json::from_str(raw).map_err(|_| self.error())?;
            self.out.push_str(raw);
            self.pos = end;
            self.pointer.push('/');
            write_token(&mut self.pointer, &key).expect("writing to a String");
            self.copy_whitespace();
            self.expect(b':')?;
            self.value()?;
            self.pointer.truncate(base);
            self.copy_whitespace();
            match self.text.get(self.pos) {
                Some(b',') => self.expect(b',')?,
                Some(b'}') => return self.expect(b'}'),
                _ => return Err(self.error()),
            }
        }
    }

    fn array(&mut self) -> Result<(), SpliceError> {
        self.expect(b'[')?;
        self.copy_whitespace();
        if self.text.get(self.pos) == Some(&b']') {
            return self.expect(b']');
        }
        let base = self.pointer.len();
        for index in 0usize.. {
            use std::fmt::Write as _;
            write!(self.pointer, "/{index}").expect("writing to a String");
            self.value()?;
            self.pointer.truncate(base);
            self.copy_whitespace();
            match self.text.get(self.pos) {
                Some(b',') => self.expect(b',')?,
                Some(b']') => return self.expect(b']'),
                _ => return Err(self.error()),
            }
        }
        unreachable!("the loop returns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Normalizer;
    use serde_json::json;

    fn run(schema: Value, text: &str) -> String {
        let normalizer = Normalizer::compile(&schema).unwrap();
        let mut value: Value = serde_json::from_str(text).unwrap();
        let report = normalizer.normalize(&mut value).unwrap();
        splice(text, &value, &report).unwrap()
    }

    #[test]
    fn keeps_unrepaired_bytes() {
        let schema = json!({"properties": {"tags": {"type": "array"}}});
        let text = r#"{"z": 1.50, "a" : 1e5, "tags": "[1.0, \"a&amp;b\"]", "t": "x&lt;y", "big": 100000000000000000000000}"#;
        assert_eq!(
            run(schema, text),
            r#"{"z": 1.50, "a" : 1e5, "tags": [1.0,"a&b"], "t": "x<y", "big": 100000000000000000000000}"#
        );
    }

    #[test]
    fn clean_text_is_returned_as_is() {
        let text = "{ \"k\" : [ 1 , 2.000 ] }";
        assert_eq!(run(json!({}), text), text);
    }

    #[test]
    fn root_string_and_escaped_keys() {
        let schema = json!({"type": "object"});
        assert_eq!(run(schema.clone(), r#""{\"a\":1}""#), r#"{"a":1}"#);
        let text = r#"{"a/b~c": "&amp;", "\u0041": ["&lt;", 0.10]}"#;
        assert_eq!(
            run(schema, text),
            r#"{"a/b~c": "&", "\u0041": ["<", 0.10]}"#
        );
    }

    #[test]
    fn rejects_text_that_is_not_json() {
        let report = Report {
            repairs: vec![crate::Repair {
                pointer: String::new(),
                kind: crate::RepairKind::ReferencesDecoded {
                    passes: 1,
                    bound_reached: false,
                },
            }],
        };
        assert!(splice("\"abc", &json!("x"), &report).is_err());
        assert!(splice("[1,", &json!([1]), &report).is_err());
    }
}

//! Writing normalized arguments back as text that differs from what was sent
//! only where a repair was made.
//!
//! Re-serializing a `serde_json::Value` would reformat numbers (`1.50`
//! becomes `1.5`, `1e5` becomes `100000.0`, `100000000000000000000001`
//! becomes `1.0000000000000001e+23`) and whitespace. A log pipeline or a
//! conformance run must get every unrepaired byte back as sent, so this
//! module walks the original text and replaces only the values the
//! [`Report`] names.
//!
//! The walk is one pass over the text (and over the text of each string it
//! JSON-decodes), however many repairs there are and however deep they sit:
//! the report's pointers are first gathered into a tree of the repaired
//! locations, sharing what their pointers share, which the walk descends
//! alongside the text and the normalized value.

use crate::deep;
use crate::path::{Digits, Pointer, index_text};
use crate::report::{RepairKind, Report};
use serde_json::{Number, Value};
use std::borrow::Cow;
use std::collections::HashMap;

/// Why the original text could not be walked (it is not the JSON the value
/// was parsed from).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the original text is not well-formed JSON at byte {offset}")]
pub struct SpliceError {
    /// Byte offset where the walk stopped.
    pub offset: usize,
}

/// Returns `original` with every repaired location replaced by its value in
/// `normalized`; every other byte (keys, numbers, whitespace, unrepaired
/// strings) is copied as sent.
///
/// * A string whose character references were decoded is written as the
///   decoded string (compact JSON string syntax).
/// * A string that was JSON-decoded is written as the JSON text it held,
///   unescaped, so its numbers, keys and strings keep their bytes too
///   (`"[1.50, 1e400000]"` is not `[1.5, …]`), with the repairs made inside
///   it spliced in the same way, at any depth. Line breaks between its
///   tokens are written as spaces, so one line stays one line.
///
/// `normalized` must be the value parsed from `original` after normalization
/// produced `report`. Where an object repeats a key, every occurrence of a
/// repaired key is replaced by the normalized value (which, as in
/// serde_json, comes from the last occurrence): an occurrence of a
/// JSON-decoded string whose text is not the one the value was decoded from
/// (an earlier occurrence, or decoded text that itself repeats a key) is
/// written as the normalized value in compact JSON instead of its own text.
///
/// Cost is linear in the size of `original` plus that of the report, and
/// the walk cannot overflow the stack at any depth ([`crate::deep`]).
///
/// # Errors
///
/// [`SpliceError`] when `original` is not well-formed JSON (or is not the
/// text `normalized` was parsed from: a repaired location it does not have).
pub fn splice(original: &str, normalized: &Value, report: &Report) -> Result<String, SpliceError> {
    if report.is_clean() {
        return Ok(original.to_owned());
    }
    let mut splicer = Splicer {
        repaired: Repaired::of(report),
        out: String::with_capacity(original.len() + original.len() / 8),
        scratch: Vec::new(),
        depth: 0,
    };
    let mut text = Text::new(original, Layer::Sent);
    let walked = splicer
        .value(&mut text, Some(Repaired::ROOT), Some(normalized))
        .and_then(|()| {
            splicer.whitespace(&mut text);
            if text.pos == text.bytes.len() {
                Ok(())
            } else {
                Err(text.malformed())
            }
        });
    match walked {
        Ok(()) => {}
        Err(Stop::Malformed(offset)) => return Err(SpliceError { offset }),
        // Only decoded text is checked against the value, and each decoded
        // string handles its own mismatch.
        Err(Stop::Mismatch) => return Err(SpliceError { offset: text.pos }),
    }
    let end = text.bytes.len();
    splicer.flush(&mut text, end);
    Ok(splicer.out)
}

/// The repaired locations of a report as a tree, each node knowing which
/// repairs were made there and which of its members lead to more.
struct Repaired {
    nodes: Vec<Location>,
}

#[derive(Default)]
struct Location {
    /// Members leading to repairs, by reference token (a key, or an index
    /// written in decimal).
    members: HashMap<Box<str>, usize>,
    json_decoded: bool,
    references_decoded: bool,
}

impl Repaired {
    const ROOT: usize = 0;

    fn of(report: &Report) -> Repaired {
        let mut repaired = Repaired {
            nodes: vec![Location::default()],
        };
        // Pointers from one walk share their links: a link already placed
        // places the whole prefix above it, so each link is visited once.
        let mut placed: HashMap<usize, usize> = HashMap::new();
        for repair in &report.repairs {
            let at = repaired.place(&repair.pointer, &mut placed);
            let location = &mut repaired.nodes[at];
            match repair.kind {
                RepairKind::JsonDecoded { .. } => location.json_decoded = true,
                RepairKind::ReferencesDecoded { .. } => location.references_decoded = true,
            }
        }
        repaired
    }

    fn place(&mut self, pointer: &Pointer, placed: &mut HashMap<usize, usize>) -> usize {
        let mut unplaced = Vec::new();
        let mut base = Repaired::ROOT;
        let mut at = pointer;
        while let Some(address) = at.link_address() {
            if let Some(&node) = placed.get(&address) {
                base = node;
                break;
            }
            unplaced.push(at);
            match at.parent() {
                Some(parent) => at = parent,
                None => break,
            }
        }
        let mut digits = Digits::default();
        for link in unplaced.into_iter().rev() {
            let token = link.last_text(&mut digits).unwrap_or_default();
            base = match self.nodes[base].members.get(token) {
                Some(&node) => node,
                None => {
                    let node = self.nodes.len();
                    self.nodes.push(Location::default());
                    self.nodes[base].members.insert(token.into(), node);
                    node
                }
            };
            if let Some(address) = link.link_address() {
                placed.insert(address, base);
            }
        }
        base
    }

    fn member(&self, node: Option<usize>, token: &str) -> Option<usize> {
        node.and_then(|node| self.nodes[node].members.get(token).copied())
    }
}

/// Which text is being walked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layer {
    /// The text as sent: copied wherever nothing was repaired.
    Sent,
    /// The content of a JSON-decoded string: written as the repaired value
    /// only while it agrees with the normalized value, token by token.
    Decoded,
}

/// A text being walked and how much of it is already written out.
struct Text<'t> {
    source: &'t str,
    bytes: &'t [u8],
    pos: usize,
    /// Bytes before this offset are written out (or replaced).
    flushed: usize,
    layer: Layer,
}

impl<'t> Text<'t> {
    fn new(source: &'t str, layer: Layer) -> Self {
        Text {
            source,
            bytes: source.as_bytes(),
            pos: 0,
            flushed: 0,
            layer,
        }
    }

    fn byte(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Text that is not JSON: an error in the text as sent, and in decoded
    /// text a sign that it is not what the value was decoded from.
    fn malformed(&self) -> Stop {
        match self.layer {
            Layer::Sent => Stop::Malformed(self.pos),
            Layer::Decoded => Stop::Mismatch,
        }
    }

    /// A disagreement with the normalized value, which only decoded text is
    /// held to (the text as sent is copied as it is).
    fn check(&self, agrees: bool) -> Result<(), Stop> {
        if agrees || self.layer == Layer::Sent {
            Ok(())
        } else {
            Err(Stop::Mismatch)
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), Stop> {
        if self.byte() != Some(byte) {
            return Err(self.malformed());
        }
        self.pos += 1;
        Ok(())
    }

    /// The end of the string token at `self.pos` (just past its closing
    /// quote).
    fn string_end(&self) -> Result<usize, Stop> {
        let mut i = self.pos + 1;
        loop {
            match memchr::memchr2(b'"', b'\\', self.bytes.get(i..).unwrap_or_default()) {
                None => return Err(self.malformed()),
                Some(k) if self.bytes[i + k] == b'\\' => i += k + 2,
                Some(k) => return Ok(i + k + 1),
            }
        }
    }

    /// The end of the number or literal at `self.pos`.
    fn scalar_end(&self) -> usize {
        let rest = &self.bytes[self.pos..];
        self.pos
            + rest
                .iter()
                .position(|b| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(rest.len())
    }

    /// The content of the string token `start..end`, unescaped.
    fn unescape(&self, start: usize, end: usize) -> Result<Cow<'t, str>, Stop> {
        // `start` is at the opening quote and `end` just past the closing one.
        let token = self.source.get(start..end).unwrap_or_default();
        let content = token
            .get(1..token.len().saturating_sub(1))
            .unwrap_or_default();
        if !content.contains('\\') {
            // Decoded text was checked by the parser that built the value,
            // but an occurrence the value did not come from was not:
            // control characters are not JSON.
            if self.layer == Layer::Decoded && content.bytes().any(|b| b < 0x20) {
                return Err(Stop::Mismatch);
            }
            return Ok(Cow::Borrowed(content));
        }
        serde_json::from_str::<String>(token)
            .map(Cow::Owned)
            .map_err(|_| match self.layer {
                Layer::Sent => Stop::Malformed(start),
                Layer::Decoded => Stop::Mismatch,
            })
    }
}

/// Why a walk stopped.
enum Stop {
    /// The text as sent is not JSON at this offset.
    Malformed(usize),
    /// Decoded text does not agree with the normalized value.
    Mismatch,
}

struct Splicer {
    repaired: Repaired,
    out: String,
    /// serde_json's output for one repaired value, before it joins `out`.
    scratch: Vec<u8>,
    /// Containers open around the walk, in the text and in decoded text.
    depth: usize,
}

impl Splicer {
    /// Writes out the text not yet written, up to `end`.
    fn flush(&mut self, text: &mut Text<'_>, end: usize) {
        // Both ends sit next to an ASCII delimiter the walk found (or at an
        // end of the text), so on character boundaries.
        let start = text.flushed.min(end);
        self.out
            .push_str(text.source.get(start..end).unwrap_or_default());
        text.flushed = text.flushed.max(end);
    }

    fn whitespace(&mut self, text: &mut Text<'_>) {
        while let Some(byte @ (b' ' | b'\t' | b'\n' | b'\r')) = text.byte() {
            if text.layer == Layer::Decoded && matches!(byte, b'\n' | b'\r') {
                self.flush(text, text.pos);
                self.out.push(' ');
                text.flushed = text.pos + 1;
            }
            text.pos += 1;
        }
    }

    /// Walks the value at `text.pos`: `node` is its place among the repaired
    /// locations (if any repair is at or below it), `value` the normalized
    /// value there (if it has one).
    fn value(
        &mut self,
        text: &mut Text<'_>,
        node: Option<usize>,
        value: Option<&Value>,
    ) -> Result<(), Stop> {
        self.whitespace(text);
        match text.byte() {
            Some(open @ (b'{' | b'[')) => {
                self.depth += 1;
                let walked = deep::guard(self.depth, || {
                    self.container(text, node, value, open == b'{')
                });
                self.depth -= 1;
                walked
            }
            Some(b'"') => self.string(text, node, value),
            Some(_) => {
                let end = text.scalar_end();
                if end == text.pos {
                    return Err(text.malformed());
                }
                let token = text.source.get(text.pos..end).unwrap_or_default();
                text.check(value.is_some_and(|v| same_scalar(token, v)))?;
                text.pos = end;
                Ok(())
            }
            None => Err(text.malformed()),
        }
    }

    fn string(
        &mut self,
        text: &mut Text<'_>,
        node: Option<usize>,
        value: Option<&Value>,
    ) -> Result<(), Stop> {
        let (start, end) = (text.pos, text.string_end()?);
        let location = node.map(|node| &self.repaired.nodes[node]);
        let (json_decoded, references_decoded) =
            location.map_or((false, false), |l| (l.json_decoded, l.references_decoded));
        if json_decoded || references_decoded {
            let Some(value) = value else {
                // The value has no such location: it was not parsed from
                // this text.
                return Err(match text.layer {
                    Layer::Sent => Stop::Malformed(start),
                    Layer::Decoded => Stop::Mismatch,
                });
            };
            self.flush(text, start);
            if json_decoded && matches!(value, Value::Array(_) | Value::Object(_)) {
                let content = text.unescape(start, end)?;
                self.decoded(&content, node, value)?;
            } else {
                text.check(matches!(value, Value::String(_)))?;
                self.compact(value)?;
            }
            text.pos = end;
            text.flushed = end;
            return Ok(());
        }
        if text.layer == Layer::Decoded {
            let content = text.unescape(start, end)?;
            text.check(value.and_then(Value::as_str) == Some(&*content))?;
        }
        text.pos = end;
        Ok(())
    }

    /// Writes the text a JSON-decoded string held, repairs inside it
    /// spliced in; the normalized value in compact JSON when that text is
    /// not the one the value was decoded from.
    fn decoded(&mut self, content: &str, node: Option<usize>, value: &Value) -> Result<(), Stop> {
        let mark = self.out.len();
        let mut inner = Text::new(content, Layer::Decoded);
        let walked = self.value(&mut inner, node, Some(value)).and_then(|()| {
            self.whitespace(&mut inner);
            inner.check(inner.pos == inner.bytes.len())
        });
        match walked {
            Ok(()) => {
                let end = inner.bytes.len();
                self.flush(&mut inner, end);
                Ok(())
            }
            Err(_) => {
                self.out.truncate(mark);
                self.compact(value)
            }
        }
    }

    fn compact(&mut self, value: &Value) -> Result<(), Stop> {
        self.scratch.clear();
        // Writing a value into a vector cannot fail, and serde_json writes
        // UTF-8: neither error is reachable.
        deep::write_compact(value, &mut self.scratch).map_err(|_| Stop::Mismatch)?;
        let written = std::str::from_utf8(&self.scratch).map_err(|_| Stop::Mismatch)?;
        self.out.push_str(written);
        Ok(())
    }

    /// An object or array: its members (keys read only where a repair or
    /// a check needs them) or elements walked in order.
    fn container(
        &mut self,
        text: &mut Text<'_>,
        node: Option<usize>,
        value: Option<&Value>,
        object: bool,
    ) -> Result<(), Stop> {
        let (open, close) = if object { (b'{', b'}') } else { (b'[', b']') };
        let len = match value {
            Some(Value::Object(members)) if object => Some(members.len()),
            Some(Value::Array(items)) if !object => Some(items.len()),
            _ => None,
        };
        text.check(len.is_some())?;
        text.expect(open)?;
        self.whitespace(text);
        let mut count = 0usize;
        if text.byte() == Some(close) {
            text.pos += 1;
        } else {
            let read_keys = node.is_some() || text.layer == Layer::Decoded;
            let mut digits = Digits::default();
            loop {
                let (child_node, child_value) = if object {
                    self.whitespace(text);
                    if text.byte() != Some(b'"') {
                        return Err(text.malformed());
                    }
                    let end = text.string_end()?;
                    let child = if read_keys {
                        let key = text.unescape(text.pos, end)?;
                        let child_node = self.repaired.member(node, &key);
                        let found = |v| member(v, &key, text.layer);
                        (
                            child_node,
                            child_value(value, child_node, text.layer, found),
                        )
                    } else {
                        (None, None)
                    };
                    text.pos = end;
                    self.whitespace(text);
                    text.expect(b':')?;
                    child
                } else {
                    let child_node = match node {
                        Some(_) => self.repaired.member(node, index_text(count, &mut digits)),
                        None => None,
                    };
                    let found = |v| element(v, count, text.layer);
                    (
                        child_node,
                        child_value(value, child_node, text.layer, found),
                    )
                };
                self.value(text, child_node, child_value)?;
                count += 1;
                self.whitespace(text);
                match text.byte() {
                    Some(b',') => text.pos += 1,
                    Some(byte) if byte == close => {
                        text.pos += 1;
                        break;
                    }
                    _ => return Err(text.malformed()),
                }
            }
        }
        // Decoded text with a repeated key is not written as it is: its
        // earlier occurrences are not in the value.
        text.check(len == Some(count))
    }
}

/// The value of a member or element, where the walk needs it: to splice a
/// repair at or below it, or to hold decoded text to it. Text as sent that
/// holds no repair is copied as it is, without looking the value up (nor
/// reading a number of it to compare).
fn child_value<'v>(
    value: Option<&'v Value>,
    child_node: Option<usize>,
    layer: Layer,
    find: impl FnOnce(&'v Value) -> Option<&'v Value>,
) -> Option<&'v Value> {
    if child_node.is_none() && layer == Layer::Sent {
        return None;
    }
    value.and_then(find)
}

/// The member `key` of `value`, as a JSON pointer token resolves it in the
/// text as sent (an array's element by its decimal index, as
/// `Value::pointer` does); only an object's member in decoded text.
fn member<'v>(value: &'v Value, key: &str, layer: Layer) -> Option<&'v Value> {
    match value {
        Value::Object(members) => members.get(key),
        Value::Array(items) if layer == Layer::Sent => {
            if key.len() > 1 && key.starts_with('0') {
                return None;
            }
            key.parse::<usize>().ok().and_then(|i| items.get(i))
        }
        _ => None,
    }
}

/// The element `index` of `value`, as [`member`] resolves tokens.
fn element(value: &Value, index: usize, layer: Layer) -> Option<&Value> {
    match value {
        Value::Array(items) => items.get(index),
        Value::Object(members) if layer == Layer::Sent => {
            members.get(index_text(index, &mut Digits::default()))
        }
        _ => None,
    }
}

/// Whether the number or literal `token` is `value`, as serde_json parses it.
fn same_scalar(token: &str, value: &Value) -> bool {
    match value {
        Value::Null => token == "null",
        Value::Bool(true) => token == "true",
        Value::Bool(false) => token == "false",
        Value::Number(number) => serde_json::from_str::<Number>(token).is_ok_and(|n| n == *number),
        Value::String(_) | Value::Array(_) | Value::Object(_) => false,
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
        let spliced = splice(text, &value, &report).unwrap();
        let back: Value = serde_json::from_str(&spliced).unwrap();
        assert_eq!(back, value, "{spliced}");
        spliced
    }

    #[test]
    fn keeps_unrepaired_bytes() {
        let schema = json!({"properties": {"tags": {"type": "array"}}});
        let text = r#"{"z": 1.50, "a" : 1e5, "tags": "[1.0, \"a&amp;b\"]", "t": "x&lt;y", "big": 100000000000000000000000}"#;
        assert_eq!(
            run(schema, text),
            r#"{"z": 1.50, "a" : 1e5, "tags": [1.0, "a&b"], "t": "x<y", "big": 100000000000000000000000}"#
        );
    }

    #[test]
    fn decoded_text_keeps_its_numbers_keys_and_escapes() {
        let schema = json!({"properties": {"xs": {"type": "array"}, "o": {"type": "object"}}});
        let text = r#"{"xs": "[100000000000000000000001, 3.141592653589793238462643383279, -0.0, 1E+2]", "o": "{\"\\u0041\": \"\\u00e9&amp;\", \"n\": 1.50}"}"#;
        assert_eq!(
            run(schema, text),
            r#"{"xs": [100000000000000000000001, 3.141592653589793238462643383279, -0.0, 1E+2], "o": {"\u0041": "é&", "n": 1.50}}"#
        );
    }

    #[test]
    fn decoded_text_stays_on_one_line() {
        let schema = json!({"type": "array"});
        assert_eq!(run(schema, r#""[1,\r\n\t2 ]""#), "[1,  \t2 ]");
    }

    #[test]
    fn strings_decoded_inside_decoded_strings() {
        let schema = json!({
            "type": "array",
            "items": {"type": "object", "properties": {"v": {"type": "array"}}}
        });
        let text = r#""[\"{\\\"v\\\": \\\"[1.10, \\\\\\\"&lt;\\\\\\\"]\\\"}\"]""#;
        assert_eq!(run(schema, text), r#"[{"v": [1.10, "<"]}]"#);
    }

    #[test]
    fn an_earlier_occurrence_of_a_repeated_key_gets_the_value() {
        let schema = json!({"properties": {"xs": {"type": "array"}}});
        let text = r#"{"xs": "[1.0]", "xs": "[2.50, \"&amp;\"]"}"#;
        assert_eq!(
            run(schema.clone(), text),
            r#"{"xs": [2.5,"&"], "xs": [2.50, "&"]}"#
        );
        // Not even JSON in the earlier occurrence.
        let text = r#"{"xs": "[1.0", "xs": "[2.50]"}"#;
        assert_eq!(run(schema.clone(), text), r#"{"xs": [2.5], "xs": [2.50]}"#);
        // Decoded text that repeats a key itself.
        let schema = json!({"properties": {"o": {"type": "object"}}});
        let text = r#"{"o": "{\"a\": 1.0, \"a\": 2.0}"}"#;
        assert_eq!(run(schema, text), r#"{"o": {"a":2.0}}"#);
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
    fn a_report_read_back_splices_the_same() {
        let schema = json!({"properties": {"xs": {"type": "array"}}});
        let text = r#"{"xs": "[\"&amp;\", {\"k\": \"&lt;\"}, 1.50]", "ys": ["&gt;"]}"#;
        let normalizer = Normalizer::compile(&schema).unwrap();
        let mut value: Value = serde_json::from_str(text).unwrap();
        let report = normalizer.normalize(&mut value).unwrap();
        let read: Report = serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!(
            splice(text, &value, &read).unwrap(),
            splice(text, &value, &report).unwrap()
        );
        assert_eq!(
            splice(text, &value, &read).unwrap(),
            r#"{"xs": ["&", {"k": "<"}, 1.50], "ys": [">"]}"#
        );
    }

    #[test]
    fn rejects_text_that_is_not_json() {
        let report = Report {
            repairs: vec![crate::report::Repair {
                pointer: Pointer::root(),
                kind: crate::report::RepairKind::ReferencesDecoded {
                    passes: 1,
                    bound_reached: false,
                },
            }],
        };
        assert!(splice("\"abc", &json!("x"), &report).is_err());
        assert!(splice("[1,", &json!([1]), &report).is_err());
        assert!(splice("[1] x", &json!([1]), &report).is_err());
        // An escape before a multi-byte character: not valid JSON, but the
        // walk only copies it.
        assert_eq!(
            splice(r#"["\é", é]"#, &json!([]), &report).as_deref(),
            Ok(r#"["\é", é]"#)
        );
        assert_eq!(
            splice(r#"{"a" 1}"#, &json!({"a": 1}), &report),
            Err(SpliceError { offset: 5 })
        );
    }

    #[test]
    fn rejects_a_repair_the_value_does_not_have() {
        let report = Report {
            repairs: vec![crate::report::Repair {
                pointer: Pointer::root().key("b"),
                kind: crate::report::RepairKind::ReferencesDecoded {
                    passes: 1,
                    bound_reached: false,
                },
            }],
        };
        assert!(splice(r#"{"b": "&amp;"}"#, &json!({"a": 1}), &report).is_err());
    }
}

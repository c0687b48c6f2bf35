//! Parsing JSON text with a nesting limit we choose, instead of serde_json's
//! fixed 128, without risking the stack on hostile input. The public face of
//! it is [`crate::json::read`]; every reader of the crate (calls, arguments,
//! the normalizer's text path, the stream's finish) parses here.

use serde::Deserialize;
use serde_json::Value;

use crate::entities;
use crate::repeated_keys::{Notes, Tracked};

/// Why a JSON text was not parsed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum JsonTextError {
    /// The text nests arrays and objects deeper than allowed: the nesting
    /// found (brackets outside strings, counted over the whole text) and
    /// the limit in force.
    #[error("JSON nests {found} levels deep, more than the limit of {limit}")]
    TooDeep { found: usize, limit: usize },
    /// The text is not JSON (RFC 8259, nothing trailing).
    #[error(transparent)]
    Syntax(#[from] serde_json::Error),
}

/// What one scan of a JSON text tells before it is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextFacts {
    /// The deepest nesting of arrays and objects (brackets inside strings do
    /// not count).
    pub(crate) nesting: usize,
    /// Whether normalization could change anything in the parsed value: the
    /// text holds a `&` that could start a character reference (see
    /// [`entities::has_reference_candidate`]; `AT&T` cannot), a `\u` escape
    /// (which could spell one, or a bracket), or a string whose first
    /// character after JSON whitespace is `[` or `{`. When `false`, every
    /// string leaf is free of references in either entity mode and none can
    /// be JSON-decoded, so normalizing would be a no-op.
    ///
    /// The `&` test reads the raw JSON text, which is sound: the bytes after
    /// a `&` are the decoded string's bytes unless an escape intervenes, and
    /// every escape but `\u` decodes to a byte no reference name contains.
    pub(crate) may_need_repair: bool,
}

/// Scans a JSON text without parsing it. Text that is not JSON gets facts
/// too; they only bound what a parse could build.
pub(crate) fn inspect(text: &str) -> TextFacts {
    let bytes = text.as_bytes();
    let mut may_need_repair = entities::has_reference_candidate(bytes);
    let (mut depth, mut deepest, mut i) = (0usize, 0usize, 0usize);
    let facts = |deepest, may_need_repair| TextFacts {
        nesting: deepest,
        may_need_repair,
    };
    while let Some(&byte) = bytes.get(i) {
        match byte {
            b'"' => {
                i += 1;
                may_need_repair |= starts_like_json(&bytes[i..]);
                // Skip the rest of the string in strides: only a quote or a
                // backslash can end or escape within it.
                loop {
                    let Some(rest) = bytes.get(i..) else {
                        return facts(deepest, may_need_repair);
                    };
                    match memchr::memchr2(b'"', b'\\', rest) {
                        None => return facts(deepest, may_need_repair),
                        Some(k) if rest[k] == b'\\' => {
                            may_need_repair |= rest.get(k + 1) == Some(&b'u');
                            i += k + 2;
                        }
                        Some(k) => {
                            i += k + 1;
                            break;
                        }
                    }
                }
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    facts(deepest, may_need_repair)
}

/// Whether string content (the bytes after its opening quote) starts, after
/// JSON whitespace written plainly or as `\t`, `\n`, `\r`, with `[` or `{`.
pub(crate) fn starts_like_json(content: &[u8]) -> bool {
    let mut j = 0;
    loop {
        match (content.get(j), content.get(j + 1)) {
            (Some(b' '), _) => j += 1,
            (Some(b'\\'), Some(b't' | b'n' | b'r')) => j += 2,
            (Some(b'[' | b'{'), _) => return true,
            _ => return false,
        }
    }
}

/// The deepest nesting of arrays and objects in a JSON text, counted without
/// parsing (brackets inside strings do not count). Text that is not JSON gets
/// a number too; it only bounds what a parse could build.
pub(crate) fn nesting(text: &str) -> usize {
    inspect(text).nesting
}

/// Parses strict JSON (surrounding whitespace allowed, nothing trailing, no
/// `NaN`) that nests at most `max_depth` levels.
///
/// Any `max_depth` is safe on any thread, `usize::MAX` included: text nested
/// more than 32 levels deep is parsed with a stack that grows on the heap as
/// needed. Hand a value that may be deep to
/// [`crate::deep::drop_value`] rather than dropping it.
///
/// # Errors
///
/// [`JsonTextError::TooDeep`] when the text nests deeper than `max_depth`,
/// whatever else is wrong with it; [`JsonTextError::Syntax`] when it is not
/// JSON.
pub(crate) fn from_str(text: &str, max_depth: usize) -> Result<Value, JsonTextError> {
    read_noting(text, max_depth, &Notes::default(), false)
}

/// [`from_str`] for a caller that already scanned `text`: `facts` must be
/// what [`inspect`] returned for it (a caller that decides from the scan
/// whether to parse at all then scans once).
///
/// # Errors
///
/// As [`from_str`].
pub(crate) fn from_str_with_facts(
    text: &str,
    facts: TextFacts,
    max_depth: usize,
) -> Result<Value, JsonTextError> {
    read(text, facts, max_depth)
}

/// Whether `text` is the one JSON value [`from_str_with_facts`] would
/// parse (the same nesting limit, the parser's own rules: a number out of
/// `f64`'s range is refused alike), without building it: for a caller that
/// keeps clean text as it came. `facts` as for [`from_str_with_facts`].
///
/// # Errors
///
/// As [`from_str`].
pub(crate) fn check_with_facts(
    text: &str,
    facts: TextFacts,
    max_depth: usize,
) -> Result<(), JsonTextError> {
    read::<Checked>(text, facts, max_depth).map(|Checked| ())
}

/// [`from_str`], also saying whether normalizing the value could change
/// anything (as [`TextFacts::may_need_repair`] does, from what the parse
/// saw: `false` is certain) and what the parse noted for a call's
/// arguments ([`crate::repeated_keys::Read`]): an object with a key twice,
/// where serde's derive refuses a repeated field, and numbers written with a
/// fraction or an exponent. `free`: whether the text holds no character
/// reference candidate in any part, when a caller searched already.
pub(crate) fn from_str_tracked(
    text: &str,
    max_depth: usize,
    free: Option<bool>,
) -> Result<(Value, bool, crate::repeated_keys::Read), JsonTextError> {
    // One search of the whole text vouches for every string that is a
    // plain slice of it; the parse looks at the rest.
    let vouched = free.unwrap_or_else(|| entities::no_candidate_in_any_part(text.as_bytes()));
    let notes = Notes::default();
    let value = read_noting(text, max_depth, &notes, vouched)?;
    let may_need_repair = !vouched || notes.may_need_repair.get();
    let read = crate::repeated_keys::Read::of(
        text,
        notes.nesting.get(),
        notes.repeated.get(),
        notes.fractions.get(),
    );
    Ok((value, may_need_repair, read))
}

/// [`from_str`], also saying whether an object of the text had a key twice
/// (the value keeps the last member; [`crate::repeated_keys`]).
pub(crate) fn from_str_noting_repeats(
    text: &str,
    max_depth: usize,
) -> Result<(Value, bool), JsonTextError> {
    let notes = Notes::default();
    let value = read_noting(text, max_depth, &notes, false)?;
    Ok((value, notes.repeated.get()))
}

/// Parses `text` through [`Tracked`], which checks the nesting as it goes
/// (and keeps the stack safe at any depth), noting in `notes` what it saw;
/// `strings` as [`Tracked::strings`]. The errors are the ones a scan before
/// the parse would give: text that nests past `max_depth` is refused for
/// that, whatever else is wrong with it, so the scan runs only on failure.
fn read_noting(
    text: &str,
    max_depth: usize,
    notes: &Notes,
    strings: bool,
) -> Result<Value, JsonTextError> {
    let seed = Tracked {
        notes,
        depth: 0,
        limit: max_depth,
        strings,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    // The seed holds the nesting to the caller's limit; the parser's own
    // (fixed) one would refuse depths the caller allowed.
    de.disable_recursion_limit();
    let read = serde::de::DeserializeSeed::deserialize(seed, &mut de).and_then(|value| {
        de.end()?;
        Ok(value)
    });
    read.map_err(|error| {
        let found = nesting(text);
        if found > max_depth {
            JsonTextError::TooDeep {
                found,
                limit: max_depth,
            }
        } else {
            JsonTextError::Syntax(error)
        }
    })
}

/// Parses `text` into `T` within `max_depth` levels, at any depth on any
/// thread.
fn read<T: serde::de::DeserializeOwned>(
    text: &str,
    facts: TextFacts,
    max_depth: usize,
) -> Result<T, JsonTextError> {
    read_seed(text, facts, max_depth, std::marker::PhantomData::<T>)
}

/// [`read`] through a seed.
fn read_seed<'de, S: serde::de::DeserializeSeed<'de>>(
    text: &'de str,
    facts: TextFacts,
    max_depth: usize,
    seed: S,
) -> Result<S::Value, JsonTextError> {
    let found = facts.nesting;
    if found > max_depth {
        return Err(JsonTextError::TooDeep {
            found,
            limit: max_depth,
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    // The nesting was checked above, so the parser's own (fixed) limit is
    // not needed; it would reject depths the caller allowed.
    de.disable_recursion_limit();
    let read = if found <= crate::deep::UNGUARDED {
        serde::de::DeserializeSeed::deserialize(seed, &mut de)?
    } else {
        // serde_json's parser recurses once per level: deeper than a few
        // levels, each level makes sure of its stack (`crate::deep`).
        serde::de::DeserializeSeed::deserialize(seed, serde_stacker::Deserializer::new(&mut de))?
    };
    de.end()?;
    Ok(read)
}

/// A JSON value read and dropped on the way: every byte goes through the
/// parser, nothing is kept. (`serde::de::IgnoredAny` would not do: it
/// skips a number without checking its range.)
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        de.deserialize_any(Checked)
    }
}

impl<'de> serde::de::Visitor<'de> for Checked {
    type Value = Checked;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        while map.next_entry::<Checked, Checked>()?.is_some() {}
        Ok(Checked)
    }
}

/// serde_json's message without its " at line L column C" suffix (the
/// position has its own fields).
pub(crate) fn syntax_message(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// serde_json's message for `error`, raised parsing `text`, and the line
/// and column it names. A lone surrogate escape (`"\ud800"` with no low
/// half after it) is named as written, at its own place: serde_json says
/// "unexpected end of hex escape" or "lone leading surrogate in hex
/// escape" at the character after it, which points at neither the problem
/// nor its cause.
///
pub(crate) fn describe_error(text: &str, error: &serde_json::Error) -> (usize, usize, String) {
    let message = syntax_message(error);
    let (line, column) = (error.line(), error.column());
    if matches!(
        message.as_str(),
        "unexpected end of hex escape" | "lone leading surrogate in hex escape"
    ) && let Some((line, column, code)) = lone_surrogate(text, line, column)
    {
        return (line, column, format!("lone surrogate \\u{code:04X}"));
    }
    (line, column, message)
}

/// The first lone surrogate escape on the line of the error serde_json
/// reports at `line` and `column` (bytes into the line, up to and including
/// the one it stopped at, which may be a line break just past the escape):
/// the escape's own line and 1-based column, and its code unit. A JSON
/// string holds no raw line break, so a line starts outside any string.
fn lone_surrogate(text: &str, line: usize, column: usize) -> Option<(usize, usize, u32)> {
    let bytes = text.as_bytes();
    let error_line_start = match line {
        0 => return None,
        1 => 0,
        _ => memchr::memchr_iter(b'\n', bytes).nth(line - 2)? + 1,
    };
    let end = error_line_start.saturating_add(column).min(bytes.len());
    // The line of the last byte read, and where it starts.
    let last = end.checked_sub(1)?;
    let start = memchr::memrchr(b'\n', &bytes[..last]).map_or(0, |i| i + 1);
    let line = if start == error_line_start {
        line
    } else {
        line - 1
    };
    let (mut i, mut in_string) = (start, false);
    // A high surrogate escape waiting for its low half: (index, code unit).
    let mut pending: Option<(usize, u32)> = None;
    let lone = |(at, code): (usize, u32)| Some((line, at - start + 1, code));
    while i < end {
        let byte = bytes[i];
        if !in_string {
            in_string = byte == b'"';
            i += 1;
            continue;
        }
        let unit = match (byte, bytes.get(i + 1)) {
            (b'\\', Some(b'u')) => text
                .get(i + 2..i + 6)
                .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok()),
            _ => None,
        };
        match unit {
            Some(code @ 0xD800..=0xDBFF) => {
                if let Some(high) = pending.replace((i, code)) {
                    return lone(high);
                }
            }
            Some(code @ 0xDC00..=0xDFFF) => {
                if pending.take().is_none() {
                    return lone((i, code));
                }
            }
            _ => {
                if let Some(high) = pending.take() {
                    return lone(high);
                }
            }
        }
        match (byte, unit) {
            (_, Some(_)) => i += 6,
            (b'\\', None) => i += 2,
            (b'"', None) => {
                in_string = false;
                i += 1;
            }
            _ => i += 1,
        }
    }
    pending.and_then(lone)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// What the one-pass read says of a text is what the scan before the
    /// parse said, or more precise: the same nesting and errors, and
    /// "nothing to repair" only where normalizing changes nothing.
    fn agrees_with_the_scan(text: &str) {
        // Every location declares an array or an object and no string, so a
        // string that starts like JSON is decoded wherever it is, and any
        // other has its references decoded.
        let normalizer = crate::Normalizer::compile(&serde_json::json!({
            "type": ["array", "object"],
            "items": {"$ref": "#"},
            "additionalProperties": {"$ref": "#"},
        }))
        .unwrap();
        let scanned = inspect(text);
        for limit in [0, 1, 2, 3, 128] {
            match from_str_tracked(text, limit, None) {
                Ok((value, may_need_repair, _)) => {
                    assert!(scanned.nesting <= limit, "{text:.60}");
                    // Where the scan was sure, so is the parse.
                    if !scanned.may_need_repair {
                        assert!(!may_need_repair, "{text:.60}");
                    }
                    if !may_need_repair {
                        let mut normalized = value.clone();
                        let report = normalizer.normalize(&mut normalized).unwrap();
                        assert!(report.is_clean(), "{text:.60}: {report:?}");
                        assert_eq!(normalized, value, "{text:.60}");
                    }
                    assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
                }
                Err(JsonTextError::TooDeep { found, limit: l }) => {
                    assert_eq!((found, l), (scanned.nesting, limit), "{text:.60}");
                    assert!(found > limit);
                }
                Err(JsonTextError::Syntax(error)) => {
                    assert!(scanned.nesting <= limit, "{text:.60}");
                    let theirs = serde_json::from_str::<Value>(text).unwrap_err();
                    assert_eq!(error.to_string(), theirs.to_string(), "{text:.60}");
                }
            }
        }
    }

    #[test]
    fn the_parse_tells_what_the_scan_told() {
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let deep_broken = format!("{}1,{}", "[".repeat(200), "]".repeat(200));
        for text in [
            r#"{"a": "\u0026amp;"}"#,
            r#"{"a": "&\u0061mp;"}"#,
            r#"{"a": "\n[1]"}"#,
            r#"{"a": "\t {\"b\": 1}"}"#,
            r#"{"a": " [1]"}"#,
            r#"{"a": "x\n\u005b"}"#,
            r#"{"a": "AT&T"}"#,
            r#"{"a": "AT\u0026T"}"#,
            r#"{"a": "x &amp; y"}"#,
            r#"{"\u0026amp;": 1, "[": "]"}"#,
            r#"["plain", "\"quoted\"", "\\[", 1.5, -2, null]"#,
            r#""&lt;""#,
            r#""\u005b1]""#,
            "[[[1]]]",
            "[[[1,]]]",
            r#"{"a": [1, 2}"#,
            "",
            "[1] x",
            deep.as_str(),
            deep_broken.as_str(),
        ] {
            agrees_with_the_scan(text);
        }
    }

    proptest::proptest! {
        /// Strings built from the pieces that make a repair (or almost),
        /// written plainly and through escapes.
        #[test]
        fn the_parse_tells_what_the_scan_told_on_any_strings(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "&", "amp;", "lt;", "#38;", "AT&T", "[", "{", " ", r"\n", r"\t",
                    r"\u0026", r"\u005b", r"\u0020", "a", "é", r"\\", r#"\""#,
                ]),
                0..8,
            ),
            nested in proptest::bool::ANY,
        ) {
            let string = format!("\"{}\"", parts.concat());
            let text = if nested {
                format!(r#"{{"k": [{string}, {{"{}": {string}}}]}}"#, parts.concat())
            } else {
                string
            };
            agrees_with_the_scan(&text);
        }
    }

    #[test]
    fn checks_what_it_would_parse_without_building_it() {
        let deep = format!("{}1{}", "[".repeat(5_000), "]".repeat(5_000));
        for text in [
            "1",
            "[1, {\"a\": [true, null]}]",
            "1e400",
            "\"\\ud83d\"",
            "[1,]",
            "{} 1",
            "",
            "\"\\ud83d\\ude00\"",
            deep.as_str(),
            "[[[1]]]",
        ] {
            let facts = inspect(text);
            let parsed = from_str_with_facts(text, facts, 10_000)
                .map(drop)
                .map_err(|e| e.to_string());
            let checked = check_with_facts(text, facts, 10_000).map_err(|e| e.to_string());
            assert_eq!(checked, parsed, "{text:.40}");
            let limited = check_with_facts(text, facts, 2).map_err(|e| e.to_string());
            let parsed = from_str_with_facts(text, facts, 2)
                .map(drop)
                .map_err(|e| e.to_string());
            assert_eq!(limited, parsed, "{text:.40}");
        }
    }

    #[test]
    fn counts_nesting_outside_strings() {
        assert_eq!(nesting("1"), 0);
        assert_eq!(nesting("[[1],{\"a\":[]}]"), 3);
        assert_eq!(nesting("[\"[[[\\\"[[\"]"), 1);
        assert_eq!(nesting(r#"["\\", [1]]"#), 2);
        assert_eq!(nesting(r#"["\"[", [1]]"#), 2);
        assert_eq!(nesting(r#"[["unterminated"#), 2);
        assert_eq!(nesting(r#"[["ends in a backslash\"#), 2);
    }

    /// Texts normalization cannot change (shared with the stream's lexer,
    /// which gathers the same facts as it reads).
    pub(crate) const CLEAN: [&str; 4] = [
        r#"{"a": "AT and T", "b": [1, {"c": "x [y]"}], "d": " plain"}"#,
        r#"{"a": "AT&T, R&D & Q&A", "b": "&#; &#x; &\"q\" &\\t"}"#,
        "[]",
        "1",
    ];

    /// Texts normalization may change, but through a key.
    pub(crate) const MAYBE: [&str; 7] = [
        r#"{"a": "AT&amp;T"}"#,
        r#"{"a": "AT&Tab"}"#,
        r#"{"a": "&#38;"}"#,
        r#"{"a": "[1]"}"#,
        r#"{"a": " \n {}"}"#,
        r#"{"a": "\u0026amp;"}"#,
        r#""{\"a\":1}""#,
    ];

    #[test]
    fn knows_when_no_repair_can_apply() {
        for text in CLEAN {
            assert!(!inspect(text).may_need_repair, "{text}");
        }
        for text in MAYBE.into_iter().chain([r#"{"[k]": 1}"#]) {
            assert!(inspect(text).may_need_repair, "{text}");
        }
    }

    #[test]
    fn limits_depth_before_parsing() {
        let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
        assert!(matches!(
            from_str(&deep, 200),
            Err(JsonTextError::TooDeep { found: 300, .. })
        ));
        assert!(from_str(&deep, 300).is_ok());
    }

    #[test]
    fn parses_any_depth_on_a_small_stack() {
        let parsed = crate::deep::on_small_stack(|| {
            let depth = 100_000;
            let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            let mut value = from_str(&deep, usize::MAX).unwrap();
            let mut levels = 0;
            while let Value::Array(items) = value {
                value = items.into_iter().next().unwrap_or(Value::Null);
                levels += 1;
            }
            (levels, value)
        });
        assert_eq!(parsed, (100_000, Value::from(1)));
    }

    #[test]
    fn names_a_lone_surrogate_at_its_escape() {
        let text = r#"{"a": "\ud800"}"#;
        let error = serde_json::from_str::<Value>(text).unwrap_err();
        let (line, column, message) = describe_error(text, &error);
        assert_eq!(
            (line, column, message.as_str()),
            (1, 8, r"lone surrogate \uD800")
        );
    }

    proptest::proptest! {
        /// "Nothing to repair" from the scan is never wrong about a string's
        /// references, in either entity mode; where no `\u` escape
        /// intervenes, the scan of the raw text and the search of the string
        /// it spells agree.
        #[test]
        fn the_scan_calls_clean_only_strings_without_references(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "&", "#", "x", "X", "0", "7", "f", ";", "=", " ", "T", "AT&T", "R&D", "lt",
                    "amp", "am", "Tab", "nbsp", "not", "notin", "é", "\"", "\\", "\n", "\t",
                    "\u{1}", "/", "[", "{",
                ]),
                0..12,
            ),
        ) {
            let text: String = parts.concat();
            let json = serde_json::json!({ "k": &text, "list": [&text] }).to_string();
            if !inspect(&json).may_need_repair {
                for mode in [entities::EntityMode::Attribute, entities::EntityMode::Text] {
                    proptest::prop_assert!(
                        matches!(entities::decode_once(&text, mode), std::borrow::Cow::Borrowed(_)),
                        "{} called clean, but {:?} decodes in {:?} mode", json, text, mode
                    );
                }
            }
        }
    }

    #[test]
    fn realistic_prose_needs_no_repair() {
        let body = "AT&T and R&D: Q&A with a & b, AT&T's terms".repeat(50);
        let call =
            serde_json::json!({"query": "AT&T", "documents": [{"title": "R&D", "body": body}]});
        assert!(!inspect(&call.to_string()).may_need_repair);
        let damaged =
            serde_json::json!({"query": "AT&amp;T", "documents": [{"title": "R&D", "body": body}]});
        assert!(inspect(&damaged.to_string()).may_need_repair);
    }

    #[test]
    fn is_strict() {
        assert!(from_str(" [1] \n", 8).is_ok());
        assert!(from_str("[1] x", 8).is_err());
        assert!(from_str("NaN", 8).is_err());
        assert!(from_str("[1,]", 8).is_err());
    }
}

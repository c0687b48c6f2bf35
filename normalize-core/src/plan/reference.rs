//! Local `$ref` values: `#`, `#/json/pointer` (percent-encoded or not), and
//! the same prefixed by the root's own `$id`.

use serde_json::Value;

/// Turns a `$ref` into the canonical JSON pointer of its target (`""` for the
/// root, `/a/b~1c` otherwise), or `None` when it does not point into this
/// document.
pub(crate) fn local_pointer(reference: &str, root_id: Option<&str>) -> Option<String> {
    let fragment = match reference.split_once('#') {
        Some(("", fragment)) => fragment,
        Some((base, fragment)) if Some(base) == root_id.map(|id| id.trim_end_matches('#')) => {
            fragment
        }
        _ => return None,
    };
    let fragment = percent_decode(fragment)?;
    if fragment.is_empty() {
        return Some(String::new());
    }
    // Plain-name fragments (`#foo`) are anchors, which this plan does not resolve.
    fragment.starts_with('/').then_some(fragment)
}

/// The JSON pointer (RFC 6901, still `~`-escaped) a same-document reference
/// names: `#/$defs/Tag%20Args` is `/$defs/Tag Args`. A reference is a URI,
/// so its fragment is percent-decoded first. `None` for a reference that is
/// not `#`-local, or not UTF-8 once decoded.
pub(crate) fn ref_pointer(reference: &str) -> Option<String> {
    percent_decode(reference.strip_prefix('#')?)
}

/// The target of the same-document `$ref` in the object schema `map`, in
/// `root`, with its JSON pointer.
pub(crate) fn resolve<'r>(
    root: &'r Value,
    map: &serde_json::Map<String, Value>,
) -> Option<(String, &'r Value)> {
    let pointer = ref_pointer(map.get("$ref")?.as_str()?)?;
    let target = value_at(root, &pointer)?;
    Some((pointer, target))
}

/// The definitions keyword (`$defs` or `definitions`) and the unescaped
/// name a pointer `/$defs/Name` names, or `None` for any other pointer.
pub(crate) fn definition_at(pointer: &str) -> Option<(&'static str, String)> {
    let (keyword, token) = ["$defs", "definitions"].into_iter().find_map(|keyword| {
        let token = pointer
            .strip_prefix('/')?
            .strip_prefix(keyword)?
            .strip_prefix('/')?;
        Some((keyword, token))
    })?;
    (!token.contains('/')).then(|| (keyword, unescape_token(token)))
}

/// One reference token unescaped (RFC 6901: `~1` is `/`, `~0` is `~`).
pub(crate) fn unescape_token(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The value `pointer` (RFC 6901) names in `root`: what
/// `serde_json::Value::pointer` finds, without its two copies of every
/// token (a token is copied only when it holds an escape). Rejected calls
/// look up thousands of pointers while they word their reports.
pub(crate) fn value_at<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    pointer
        .strip_prefix('/')?
        .split('/')
        .try_fold(root, |target, token| {
            let token = if token.contains('~') {
                std::borrow::Cow::Owned(unescape_token(token))
            } else {
                std::borrow::Cow::Borrowed(token)
            };
            match target {
                Value::Object(map) => map.get(token.as_ref()),
                Value::Array(items) => items.get(array_index(&token)?),
                _ => None,
            }
        })
}

/// An array index as RFC 6901 writes it (no sign, no leading zero).
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `pointer` extended by one reference token (RFC 6901 escaping).
pub(crate) fn child_pointer(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    push_token(&mut out, token);
    out
}

/// Appends one reference token to a JSON pointer, escaping `~` and `/`.
pub(crate) fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// Appends `pointer` to a URI fragment, percent-encoding what a fragment
/// cannot hold (a space in a definition name, non-ASCII text).
pub(crate) fn push_fragment(out: &mut String, pointer: &str) {
    const KEEP: &[u8] = b"-._~!$&'()*+,;=:@/";
    for byte in pointer.bytes() {
        if byte.is_ascii_alphanumeric() || KEEP.contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_local_pointers() {
        assert_eq!(local_pointer("#", None).as_deref(), Some(""));
        assert_eq!(
            local_pointer("#/$defs/A", None).as_deref(),
            Some("/$defs/A")
        );
        assert_eq!(local_pointer("#/a%20b", None).as_deref(), Some("/a b"));
        assert_eq!(
            local_pointer(
                "https://x.test/s.json#/$defs/A",
                Some("https://x.test/s.json")
            )
            .as_deref(),
            Some("/$defs/A")
        );
        assert_eq!(local_pointer("other.json#/a", None), None);
        assert_eq!(local_pointer("#anchor", None), None);
        assert_eq!(local_pointer("#/%zz", None), None);
    }

    /// Every pointer finds what `serde_json`'s lookup finds, escapes,
    /// indices that RFC 6901 does not write, and empty tokens included.
    #[test]
    fn finds_what_serde_json_finds() {
        let root = serde_json::json!({
            "a": {"b/c": [10, {"~": 1, "~1": 2, "": 3, "~2": 4}], "": {"": 5}},
            "0": [1, 2],
            "x~y": true
        });
        let tokens = [
            "",
            "a",
            "b~1c",
            "b/c",
            "0",
            "1",
            "01",
            "+1",
            "-",
            "~0",
            "~01",
            "~1",
            "~2",
            "x~y",
            "x~0y",
            "9",
            "18446744073709551616",
        ];
        let mut pointers = vec![String::new(), "a".to_owned(), "#/a".to_owned()];
        for first in tokens {
            for second in tokens {
                for third in tokens {
                    pointers.push(format!("/{first}"));
                    pointers.push(format!("/{first}/{second}"));
                    pointers.push(format!("/{first}/{second}/{third}"));
                    pointers.push(format!("/{first}/{second}/{third}/{first}"));
                }
            }
        }
        let mut found = 0;
        for pointer in &pointers {
            let expected = root.pointer(pointer);
            found += usize::from(expected.is_some());
            assert_eq!(value_at(&root, pointer), expected, "{pointer:?}");
        }
        assert!(found > 20, "the pointers reach into the value: {found}");
    }
}

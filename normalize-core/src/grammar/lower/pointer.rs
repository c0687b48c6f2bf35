//! JSON pointers into the schema document: extending one by a token, and
//! reading the pointer a local `$ref` names.

/// `pointer` extended by one reference token (RFC 6901 escaping).
pub(super) fn child(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The JSON pointer a local `$ref` names (`""` for the root), or `None`
/// when it does not point into this document.
pub(super) fn local_pointer(reference: &str, root_id: Option<&str>) -> Option<String> {
    let fragment = match reference.split_once('#') {
        Some(("", fragment)) => fragment,
        Some((base, fragment)) if Some(base) == root_id.map(|id| id.trim_end_matches('#')) => {
            fragment
        }
        _ => return None,
    };
    let bytes = fragment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = fragment.get(i + 1..i + 3)?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    let fragment = String::from_utf8(decoded).ok()?;
    (fragment.is_empty() || fragment.starts_with('/')).then_some(fragment)
}

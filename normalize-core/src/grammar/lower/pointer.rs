//! JSON pointers into the schema document: extending one by a token, and
//! reading the pointer a local `$ref` names (the plan's own rules, so the
//! grammar and the normalizer resolve the same `$ref`s).

pub(super) use crate::plan::reference::local_pointer;

/// `pointer` extended by one reference token (RFC 6901 escaping).
pub(super) fn child(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    crate::plan::reference::push_token(&mut out, token);
    out
}

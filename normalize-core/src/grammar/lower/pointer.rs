//! JSON pointers into the schema document: extending one by a token, and
//! reading the pointer a local `$ref` names (the plan's own rules, so the
//! grammar and the normalizer resolve the same `$ref`s).

pub(super) use crate::plan::reference::child_pointer as child;
pub(super) use crate::plan::reference::local_pointer;

//! What the validating schema says at a location *before* the value there
//! is complete: which subschemas apply, whether a member key is forbidden
//! whatever its value, and which subschemas a member or element gets.
//!
//! Read the way the validator reads it (`properties` and
//! `additionalProperties` per subschema, `$ref` and `allOf` applying
//! together), and conservatively: a location whose schema holds anything
//! that makes the applicable subschemas depend on the value (`anyOf`,
//! `oneOf`, `if`, `not`, `dependentSchemas`, `dependentRequired`,
//! `patternProperties`, `unevaluatedItems`, dynamic or remote references) is
//! *open*, and nothing below it is decided before its value is complete.

use serde_json::{Map, Value};

/// How deep `$ref`/`allOf` may nest at one location before the walker
/// gives up (and calls the location open).
const MAX_LINKS: usize = 32;

/// The subschema objects that apply at one location, through `$ref` and
/// `allOf` (a conjunction).
#[derive(Clone, Debug, Default)]
pub(crate) struct Site<'s> {
    pub(crate) parts: Vec<&'s Map<String, Value>>,
    /// Some part is `false`: every value here is refused.
    pub(crate) never: bool,
    /// The applicable subschemas below depend on more than this location:
    /// members and elements are not decided before the value is complete.
    pub(crate) open: bool,
    /// Some part has `anyOf`/`oneOf`: the normalizer's plan binds members
    /// by the whole value here too.
    pub(crate) unions: bool,
}

/// What a member key or an element index finds at a closed site.
#[derive(Debug)]
pub(crate) enum Child<'s> {
    /// Refused whatever its value (an undeclared key on a closed object).
    Forbidden,
    /// These subschemas apply to it.
    Known(Site<'s>),
    /// The walker cannot tell.
    Unknown,
}

/// Reads the schemas of one document (`root`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walker<'s> {
    root: &'s Value,
}

impl<'s> Walker<'s> {
    pub(crate) fn new(root: &'s Value) -> Self {
        Walker { root }
    }

    /// The site of the whole arguments value.
    pub(crate) fn root(&self) -> Site<'s> {
        self.site([self.root])
    }

    /// The site where all of `schemas` apply.
    pub(crate) fn site(&self, schemas: impl IntoIterator<Item = &'s Value>) -> Site<'s> {
        let mut site = Site::default();
        let mut trail = Vec::new();
        for schema in schemas {
            self.collect(schema, &mut site, &mut trail);
        }
        site
    }

    fn collect(
        &self,
        schema: &'s Value,
        site: &mut Site<'s>,
        trail: &mut Vec<*const Map<String, Value>>,
    ) {
        let map = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => {
                site.never = true;
                return;
            }
            Value::Object(map) => map,
            _ => {
                site.open = true;
                return;
            }
        };
        let id: *const Map<String, Value> = map;
        if trail.contains(&id) {
            // A cycle of `$ref`/`allOf`: the validator applies the same
            // subschema again, which adds nothing.
            return;
        }
        if trail.len() == MAX_LINKS {
            site.open = true;
            return;
        }
        if map.keys().any(|keyword| opens(keyword)) {
            site.open = true;
        }
        if map.contains_key("anyOf") || map.contains_key("oneOf") {
            site.unions = true;
        }
        // A base URI below the root changes what a `#...` reference in it
        // points at.
        if map.contains_key("$id") && !std::ptr::eq(schema, self.root) {
            site.open = true;
        }
        if !map.is_empty() && !site.parts.iter().any(|p| std::ptr::eq(*p, map)) {
            site.parts.push(map);
        }
        trail.push(id);
        if let Some(reference) = map.get("$ref") {
            match reference.as_str().and_then(|r| self.resolve(r)) {
                Some(target) => self.collect(target, site, trail),
                None => site.open = true,
            }
        }
        match map.get("allOf") {
            Some(Value::Array(parts)) => {
                for part in parts {
                    self.collect(part, site, trail);
                }
            }
            Some(_) => site.open = true,
            None => {}
        }
        trail.pop();
    }

    /// A local reference (`#`, `#/$defs/Name`); anything else is not
    /// followed.
    fn resolve(&self, reference: &str) -> Option<&'s Value> {
        let pointer = reference.strip_prefix('#')?;
        if pointer.contains('%') {
            return None;
        }
        self.root.pointer(pointer)
    }

    /// What member `key` of an object at `site` finds.
    pub(crate) fn member(&self, site: &Site<'s>, key: &str) -> Child<'s> {
        if site.open {
            return Child::Unknown;
        }
        let mut schemas: Vec<&'s Value> = Vec::new();
        let mut forbidden = false;
        let mut unevaluated = false;
        let mut mentioned = false;
        for part in &site.parts {
            if part.contains_key("patternProperties") {
                return Child::Unknown;
            }
            let declared = match part.get("properties") {
                Some(Value::Object(properties)) => properties.get(key),
                Some(_) => return Child::Unknown,
                None => None,
            };
            if let Some(schema) = declared {
                schemas.push(schema);
                mentioned = true;
                continue;
            }
            match part.get("additionalProperties") {
                Some(Value::Bool(false)) => forbidden = true,
                Some(schema) => {
                    schemas.push(schema);
                    mentioned = true;
                }
                None => {}
            }
            match part.get("unevaluatedProperties") {
                Some(Value::Bool(false)) => unevaluated = true,
                Some(Value::Bool(true)) | None => {}
                Some(_) => return Child::Unknown,
            }
        }
        if forbidden || (unevaluated && !mentioned) {
            return Child::Forbidden;
        }
        self.known(schemas)
    }

    /// What element `index` of an array at `site` finds.
    pub(crate) fn item(&self, site: &Site<'s>, index: usize) -> Child<'s> {
        if site.open {
            return Child::Unknown;
        }
        let mut schemas: Vec<&'s Value> = Vec::new();
        for part in &site.parts {
            let schema = match (part.get("prefixItems"), part.get("items")) {
                (Some(Value::Array(prefix)), rest) => match prefix.get(index) {
                    Some(schema) => Some(schema),
                    None => rest,
                },
                (Some(_), _) => return Child::Unknown,
                // Draft-07's array form.
                (None, Some(Value::Array(items))) => match items.get(index) {
                    Some(schema) => Some(schema),
                    None => part.get("additionalItems"),
                },
                (None, rest) => rest,
            };
            match schema {
                // An element past a closed tuple: reported at the array, by
                // a keyword the walker does not model.
                Some(Value::Bool(false)) => return Child::Unknown,
                Some(schema) => schemas.push(schema),
                None => {}
            }
        }
        self.known(schemas)
    }

    fn known(&self, schemas: Vec<&'s Value>) -> Child<'s> {
        let site = self.site(schemas);
        Child::Known(site)
    }
}

impl Site<'_> {
    /// Whether `value` is outside an `enum` or `const` of some part (a
    /// string compared as text; other values only when the part's values
    /// are all strings, so no number needs comparing across forms).
    pub(crate) fn refuses_value(&self, value: &Value) -> bool {
        self.parts.iter().any(|part| {
            let enum_refuses = match part.get("enum") {
                Some(Value::Array(allowed)) => {
                    comparable(value, allowed) && !allowed.iter().any(|a| a == value)
                }
                _ => false,
            };
            let const_refuses = match part.get("const") {
                Some(expected) => {
                    comparable(value, std::slice::from_ref(expected)) && expected != value
                }
                None => false,
            };
            enum_refuses || const_refuses
        })
    }
}

/// Equality is JSON equality here only when no number is involved (the
/// validator compares `1` and `1.0` as equal; `serde_json` does not).
fn comparable(value: &Value, allowed: &[Value]) -> bool {
    let plain = |v: &Value| matches!(v, Value::String(_) | Value::Bool(_) | Value::Null);
    plain(value) && allowed.iter().all(plain)
}

/// Keywords whose subschemas apply depending on the value, or that the
/// walker does not follow.
fn opens(keyword: &str) -> bool {
    matches!(
        keyword,
        "anyOf"
            | "oneOf"
            | "not"
            | "if"
            | "then"
            | "else"
            | "dependentSchemas"
            | "dependentRequired"
            | "dependencies"
            | "patternProperties"
            | "unevaluatedItems"
            | "$dynamicRef"
            | "$recursiveRef"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_undeclared_key_on_a_closed_object_is_forbidden() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "additionalProperties": false,
            "$defs": {"A": {"type": "string", "enum": ["x", "y"]}}
        });
        let walker = Walker::new(&schema);
        let root = walker.root();
        assert!(!root.open);
        assert!(matches!(walker.member(&root, "b"), Child::Forbidden));
        let Child::Known(a) = walker.member(&root, "a") else {
            panic!("a is declared")
        };
        assert!(a.refuses_value(&json!("z")));
        assert!(!a.refuses_value(&json!("x")));
    }

    #[test]
    fn unions_and_patterns_leave_members_undecided() {
        let schema = json!({
            "type": "object",
            "anyOf": [{"properties": {"a": {}}}],
            "additionalProperties": false
        });
        let walker = Walker::new(&schema);
        assert!(matches!(walker.member(&walker.root(), "b"), Child::Unknown));
        let schema = json!({
            "type": "object",
            "patternProperties": {"^x": {}},
            "additionalProperties": false
        });
        let walker = Walker::new(&schema);
        assert!(matches!(
            walker.member(&walker.root(), "xa"),
            Child::Unknown
        ));
    }

    #[test]
    fn unevaluated_properties_forbid_what_nothing_mentions() {
        let schema = json!({
            "allOf": [{"properties": {"a": {}}}],
            "properties": {"b": {}},
            "unevaluatedProperties": false
        });
        let walker = Walker::new(&schema);
        let root = walker.root();
        assert!(matches!(walker.member(&root, "c"), Child::Forbidden));
        assert!(matches!(walker.member(&root, "a"), Child::Known(_)));
    }
}

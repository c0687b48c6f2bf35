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
//!
//! Compiled once per schema into [`Sites`]: every location reachable through
//! closed sites, with its members' and elements' sites looked up by name,
//! so streaming a call costs one lookup per key.

use serde_json::{Map, Value};
use std::collections::HashMap;

/// How deep `$ref`/`allOf` may nest at one location before the walker
/// gives up (and calls the location open).
const MAX_LINKS: usize = 32;
/// Most sites compiled for one schema; past it, members are undecided.
const MAX_SITES: usize = 4096;

/// Index of a compiled site.
pub(crate) type SiteId = u32;

/// What a member key or an element index finds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Child {
    /// Refused whatever its value (an undeclared key on a closed object).
    Forbidden,
    /// These subschemas apply to it.
    Known(SiteId),
    /// The walker cannot tell.
    #[default]
    Unknown,
}

/// Member name → what it finds.
type Members = crate::plan::names::NameTable<Child>;

/// The subschema objects that apply at one location, through `$ref` and
/// `allOf` (a conjunction), and what its members and elements get.
#[derive(Debug, Default)]
pub(crate) struct Site<'s> {
    /// Some part is `false`: every value here is refused.
    pub(crate) never: bool,
    /// The applicable subschemas below depend on more than this location:
    /// members and elements are not decided before the value is complete.
    pub(crate) open: bool,
    /// Some part has `anyOf`/`oneOf`: the normalizer's plan binds members
    /// by the whole value here too.
    pub(crate) unions: bool,
    /// The `enum` lists and `const` values of the parts.
    enums: Vec<&'s [Value]>,
    consts: Vec<&'s Value>,
    /// Declared members (closed sites only).
    members: Members,
    /// What an undeclared member gets.
    other: Child,
    /// What elements get, by index, then past the prefix.
    prefix: Vec<Child>,
    rest: Child,
}

/// A schema document's sites.
#[derive(Debug)]
pub(crate) struct Sites<'s> {
    sites: Vec<Site<'s>>,
}

impl<'s> Sites<'s> {
    /// Compiles every site reachable from `root` through closed sites.
    pub(crate) fn compile(root: &'s Value) -> Self {
        let mut builder = Builder {
            root,
            sites: Vec::new(),
            known: HashMap::new(),
            todo: Vec::new(),
        };
        builder.intern(vec![root]);
        while let Some((id, parts)) = builder.todo.pop() {
            builder.fill(id, &parts);
        }
        Sites {
            sites: builder.sites,
        }
    }

    /// The site of the whole arguments value.
    pub(crate) fn root(&self) -> SiteId {
        0
    }

    pub(crate) fn site(&self, id: SiteId) -> &Site<'s> {
        &self.sites[id as usize]
    }

    /// What member `key` of an object at `site` finds.
    pub(crate) fn member(&self, site: SiteId, key: &str) -> Child {
        let site = self.site(site);
        if site.open {
            return Child::Unknown;
        }
        site.members.get(key).unwrap_or(site.other)
    }

    /// What element `index` of an array at `site` finds.
    pub(crate) fn item(&self, site: SiteId, index: usize) -> Child {
        let site = self.site(site);
        if site.open {
            return Child::Unknown;
        }
        site.prefix.get(index).copied().unwrap_or(site.rest)
    }
}

impl Site<'_> {
    /// Whether some part has an `enum` or `const`.
    pub(crate) fn constrains_value(&self) -> bool {
        !self.enums.is_empty() || !self.consts.is_empty()
    }

    /// Whether `value` is outside an `enum` or `const` of some part (only
    /// where no number is compared: the validator takes `1` and `1.0` as
    /// equal, `serde_json` does not).
    pub(crate) fn refuses_value(&self, value: &Value) -> bool {
        self.enums
            .iter()
            .any(|allowed| comparable(value, allowed) && !allowed.iter().any(|a| a == value))
            || self.consts.iter().any(|expected| {
                comparable(value, std::slice::from_ref(*expected)) && *expected != value
            })
    }
}

fn comparable(value: &Value, allowed: &[Value]) -> bool {
    let plain = |v: &Value| matches!(v, Value::String(_) | Value::Bool(_) | Value::Null);
    plain(value) && allowed.iter().all(plain)
}

type Parts<'s> = Vec<&'s Value>;

struct Builder<'s> {
    root: &'s Value,
    sites: Vec<Site<'s>>,
    /// Sites by the subschemas they were built from.
    known: HashMap<Vec<usize>, SiteId>,
    todo: Vec<(SiteId, Vec<&'s Map<String, Value>>)>,
}

impl<'s> Builder<'s> {
    /// The site where all of `schemas` apply (compiled later), or
    /// `Unknown` past the size bound.
    fn intern(&mut self, schemas: Parts<'s>) -> Child {
        let mut site = Site::default();
        let mut parts: Vec<&'s Map<String, Value>> = Vec::new();
        let mut trail = Vec::new();
        for schema in &schemas {
            self.collect(schema, &mut site, &mut parts, &mut trail);
        }
        let mut key: Vec<usize> = parts.iter().map(|p| *p as *const _ as usize).collect();
        key.sort_unstable();
        key.push(usize::from(site.never) | usize::from(site.open) << 1);
        if let Some(id) = self.known.get(&key) {
            return Child::Known(*id);
        }
        if self.sites.len() >= MAX_SITES {
            return Child::Unknown;
        }
        let id = self.sites.len() as SiteId;
        self.sites.push(site);
        self.known.insert(key, id);
        self.todo.push((id, parts));
        Child::Known(id)
    }

    fn collect(
        &self,
        schema: &'s Value,
        site: &mut Site<'s>,
        parts: &mut Vec<&'s Map<String, Value>>,
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
            // A cycle of `$ref`/`allOf`: the same subschema again adds
            // nothing.
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
        if !map.is_empty() && !parts.iter().any(|p| std::ptr::eq(*p, map)) {
            parts.push(map);
        }
        trail.push(id);
        if let Some(reference) = map.get("$ref") {
            match reference.as_str().and_then(|r| self.resolve(r)) {
                Some(target) => self.collect(target, site, parts, trail),
                None => site.open = true,
            }
        }
        match map.get("allOf") {
            Some(Value::Array(all)) => {
                for part in all {
                    self.collect(part, site, parts, trail);
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

    /// Computes what the members and elements of site `id` get.
    fn fill(&mut self, id: SiteId, parts: &[&'s Map<String, Value>]) {
        let mut enums = Vec::new();
        let mut consts = Vec::new();
        for part in parts {
            match part.get("enum") {
                Some(Value::Array(values)) => enums.push(values.as_slice()),
                Some(_) => self.sites[id as usize].open = true,
                None => {}
            }
            if let Some(value) = part.get("const") {
                consts.push(value);
            }
        }
        let site = &mut self.sites[id as usize];
        site.enums = enums;
        site.consts = consts;
        if site.open {
            return;
        }
        let mut members = Members::default();
        let mut declared: Vec<&'s str> = Vec::new();
        let mut undecided = false;
        for part in parts {
            if part.contains_key("patternProperties") {
                undecided = true;
            }
            match part.get("properties") {
                Some(Value::Object(properties)) => {
                    declared.extend(properties.keys().map(String::as_str));
                }
                Some(_) => undecided = true,
                None => {}
            }
        }
        if undecided {
            // `patternProperties` (or a malformed `properties`): which
            // subschemas a key gets needs the pattern; left undecided.
            self.sites[id as usize].other = Child::Unknown;
            self.fill_items(id, parts);
            return;
        }
        for name in declared {
            if members.contains(name) {
                continue;
            }
            let child = self.member(parts, Some(name));
            members.insert(name, child);
        }
        let other = self.member(parts, None);
        let site = &mut self.sites[id as usize];
        site.members = members;
        site.other = other;
        self.fill_items(id, parts);
    }

    /// What a member gets: `name` declared by some part, or (`None`) a name
    /// no part declares.
    fn member(&mut self, parts: &[&'s Map<String, Value>], name: Option<&str>) -> Child {
        let mut schemas: Parts<'s> = Vec::new();
        let mut forbidden = false;
        let mut unevaluated = false;
        let mut mentioned = false;
        for part in parts {
            let declared = match (name, part.get("properties")) {
                (Some(name), Some(Value::Object(properties))) => properties.get(name),
                _ => None,
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
        self.intern(schemas)
    }

    fn fill_items(&mut self, id: SiteId, parts: &[&'s Map<String, Value>]) {
        let longest = parts
            .iter()
            .map(|part| match (part.get("prefixItems"), part.get("items")) {
                (Some(Value::Array(prefix)), _) | (None, Some(Value::Array(prefix))) => {
                    prefix.len()
                }
                _ => 0,
            })
            .max()
            .unwrap_or(0);
        let prefix: Vec<Child> = (0..longest).map(|i| self.item(parts, i)).collect();
        let rest = self.item(parts, longest);
        let site = &mut self.sites[id as usize];
        site.prefix = prefix;
        site.rest = rest;
    }

    fn item(&mut self, parts: &[&'s Map<String, Value>], index: usize) -> Child {
        let mut schemas: Parts<'s> = Vec::new();
        for part in parts {
            let schema = match (part.get("prefixItems"), part.get("items")) {
                (Some(Value::Array(prefix)), rest) => prefix.get(index).or(rest),
                (Some(_), _) => return Child::Unknown,
                // Draft-07's array form.
                (None, Some(Value::Array(items))) => {
                    items.get(index).or_else(|| part.get("additionalItems"))
                }
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
        self.intern(schemas)
    }
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
            | "unevaluatedItems"
            | "$dynamicRef"
            | "$recursiveRef"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn known(child: Child) -> SiteId {
        match child {
            Child::Known(id) => id,
            other => panic!("expected a known site, got {other:?}"),
        }
    }

    #[test]
    fn an_undeclared_key_on_a_closed_object_is_forbidden() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}, "list": {"type": "array", "items": {"$ref": "#/$defs/A"}}},
            "additionalProperties": false,
            "$defs": {"A": {"type": "string", "enum": ["x", "y"]}}
        });
        let sites = Sites::compile(&schema);
        let root = sites.root();
        assert!(!sites.site(root).open);
        assert_eq!(sites.member(root, "b"), Child::Forbidden);
        let a = known(sites.member(root, "a"));
        assert!(sites.site(a).refuses_value(&json!("z")));
        assert!(!sites.site(a).refuses_value(&json!("x")));
        let list = known(sites.member(root, "list"));
        let item = known(sites.item(list, 7));
        assert!(sites.site(item).refuses_value(&json!("z")));
    }

    #[test]
    fn unions_and_patterns_leave_members_undecided() {
        let schema = json!({
            "type": "object",
            "anyOf": [{"properties": {"a": {}}}],
            "additionalProperties": false
        });
        let sites = Sites::compile(&schema);
        assert_eq!(sites.member(sites.root(), "b"), Child::Unknown);
        let schema = json!({
            "type": "object",
            "patternProperties": {"^x": {}},
            "additionalProperties": false
        });
        let sites = Sites::compile(&schema);
        assert_eq!(sites.member(sites.root(), "xa"), Child::Unknown);
    }

    #[test]
    fn unevaluated_properties_forbid_what_nothing_mentions() {
        let schema = json!({
            "allOf": [{"properties": {"a": {}}}],
            "properties": {"b": {}},
            "unevaluatedProperties": false
        });
        let sites = Sites::compile(&schema);
        let root = sites.root();
        assert_eq!(sites.member(root, "c"), Child::Forbidden);
        assert!(matches!(sites.member(root, "a"), Child::Known(_)));
    }

    #[test]
    fn recursive_schemas_compile_to_finitely_many_sites() {
        let schema = json!({
            "type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#"}}},
            "additionalProperties": false
        });
        let sites = Sites::compile(&schema);
        let children = known(sites.member(sites.root(), "children"));
        let child = known(sites.item(children, 3));
        let grandchildren = known(sites.member(child, "children"));
        assert_eq!(known(sites.item(grandchildren, 0)), child);
        assert_eq!(sites.member(child, "x"), Child::Forbidden);
    }
}

//! Closing a finished schema: every object schema that describes a Rust
//! struct (or a struct variant) rejects members it does not declare, at any
//! depth, whatever type produced it.
//!
//! Closing is a transform of the whole document, not a lookup of definitions
//! by name: schemars renames definitions on a clash (`Filter2`), inlines some
//! types, and reaches others only through a type parameter, so the only
//! reliable place to find every struct is the finished schema itself.
//!
//! # The rule
//!
//! An object schema *describes a struct* when it declares `properties`, or
//! says `"type": "object"` with no member keyword at all (schemars' schema
//! for `struct NoArgs {}`), and says neither `additionalProperties` nor
//! `unevaluatedProperties`. Saying either one is how a type opts out (a map,
//! `deny_unknown_fields`, a flattened map, `#[tool_args(open)]`, or a
//! hand-written `"additionalProperties": true`): such a schema is left as it
//! is.
//!
//! Every *location* (the root, and every schema a value moves into: a
//! property, an item, a map value) is closed where it is used:
//!
//! - a plain struct schema gets `additionalProperties: false`;
//! - a bare `$ref` closes the definition it names, in place, unless that
//!   definition is composed somewhere else (see below); then the reference
//!   itself gets `unevaluatedProperties: false`;
//! - a bare union (`anyOf`/`oneOf` with nothing beside it: an enum, an
//!   `Option`) closes each branch as a location of its own, since each
//!   branch alone describes the whole value;
//! - a composed object (a `$ref` with member-declaring siblings, as schemars
//!   writes an internally tagged newtype variant; `allOf`; `properties`
//!   beside a union, as schemars writes a flattened enum) gets
//!   `unevaluatedProperties: false` at that outermost object, which sees the
//!   members every successful part declares.
//!
//! A part that says nothing (`{}`, as schemars writes the empty branch of a
//! flattened `Option`) declares no member, so it keeps nothing open: a
//! member only it "accepts" is unevaluated, and rejected. `true` (any value,
//! schemars' `serde_json::Value`) keeps the object open; as a branch of a
//! union it is first written `{"additionalProperties": true}` (the same
//! values), which evaluates every member when it is the branch taken, so
//! the object is closed for the other branches.
//!
//! A definition that is one part of a composed object is never closed
//! itself: `additionalProperties: false` inside it would reject its
//! composer's members (the tag of an internally tagged variant).
//!
//! Closing alone changes which branch of an untagged union takes a value:
//! serde reads the first variant that deserializes, ignoring members it does
//! not declare, while a closed `anyOf` takes any branch that fits. The
//! derive therefore also gives each later branch `not` of what the earlier
//! ones read (the crate's `untagged` module); a schema closed with this
//! function alone does not get that.

use crate::plan::reference::child_pointer;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Keywords that move validation to a member or an item of the value.
const INTO_MEMBERS: &[&str] = &["properties", "patternProperties"];
const INTO_CHILD: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "items",
    "additionalItems",
    "unevaluatedItems",
    "contains",
];
const INTO_ITEMS: &[&str] = &["prefixItems", "items"];
/// Keywords that apply more schemas to the same value.
const UNIONS: &[&str] = &["anyOf", "oneOf"];
/// Keywords that say nothing about which members an object may have.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "$ref",
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];
/// Deepest chain of `$ref`s and compositions followed from one location.
const MAX_HOPS: usize = 64;

/// Closes every object schema in `schema` that describes a struct (see the
/// [module docs](self) for the rule). `schema` is a whole document: its
/// `$defs` (or `definitions`) are resolved against it.
///
/// Applying it twice changes nothing more.
///
/// ```
/// use toolargs_core::closing::close_objects;
/// use serde_json::json;
///
/// let mut schema = json!({
///     "type": "object",
///     "properties": {"shards": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Shard"}}},
///     "$defs": {"Shard": {"type": "object", "properties": {"id": {"type": "integer"}}}}
/// });
/// close_objects(&mut schema);
/// assert_eq!(schema["additionalProperties"], false);
/// assert_eq!(schema["$defs"]["Shard"]["additionalProperties"], false);
/// // A map stays a map.
/// assert_eq!(schema["properties"]["shards"]["additionalProperties"]["$ref"], "#/$defs/Shard");
/// ```
pub fn close_objects(schema: &mut Value) {
    evaluating_any_branches(schema);
    members_beside_a_map(schema);
    let edits = {
        let mut closer = Closer::new(schema);
        closer.visit_all("", schema, true);
        closer.edits
    };
    for (pointer, keyword) in edits {
        if let Some(Value::Object(map)) = schema.pointer_mut(&pointer)
            && !is_decided(map)
        {
            map.insert(keyword.to_owned(), Value::Bool(false));
        }
    }
}

/// Writes each `true` branch of a union (schemars' `serde_json::Value` as an
/// untagged variant) as `{"additionalProperties": true}`: the same values,
/// but, when that branch is the one taken, every member counts as evaluated,
/// so the object around the union can be closed for its other branches
/// (`true` evaluates nothing, which would leave the object open whichever
/// branch reads it).
fn evaluating_any_branches(node: &mut Value) {
    match node {
        Value::Object(map) => {
            for keyword in UNIONS {
                if let Some(Value::Array(branches)) = map.get_mut(*keyword) {
                    for branch in branches.iter_mut() {
                        if *branch == Value::Bool(true) {
                            *branch = serde_json::json!({"additionalProperties": true});
                        }
                    }
                }
            }
            map.values_mut().for_each(evaluating_any_branches);
        }
        Value::Array(items) => items.iter_mut().for_each(evaluating_any_branches),
        _ => {}
    }
}

/// Merges into the object that references it a definition that takes the
/// members it does not name (a struct flattening a map: its
/// `additionalProperties` a schema), where the object names members beside
/// the reference (the tag of an internally tagged newtype variant, as
/// schemars writes it). serde reads those members first and hands the
/// struct the rest; a `$ref` would hold them to the definition's map value
/// schema (`"t": "V"` refused as no number). Merged, the object's own
/// `properties` exempt them, as `additionalProperties` and
/// `unevaluatedProperties` read the properties beside them. Left as it is
/// where the two say the same keyword (other than `type`, `properties`,
/// `required` and annotations) or the definition is not found.
fn members_beside_a_map(schema: &mut Value) {
    fn takes_unnamed(map: &Map<String, Value>) -> bool {
        [
            "additionalProperties",
            "unevaluatedProperties",
            "patternProperties",
        ]
        .iter()
        .any(|keyword| {
            map.get(*keyword).is_some_and(|value| {
                !matches!(value, Value::Bool(_)) && value != &Value::Object(Map::new())
            })
        })
    }
    fn merged(
        object: &Map<String, Value>,
        definition: &Map<String, Value>,
    ) -> Option<Map<String, Value>> {
        let mut out = object.clone();
        out.remove("$ref");
        for (keyword, value) in definition {
            match (keyword.as_str(), out.get_mut(keyword)) {
                (_, None) => {
                    out.insert(keyword.clone(), value.clone());
                }
                ("properties", Some(Value::Object(own))) => {
                    let Value::Object(theirs) = value else {
                        return None;
                    };
                    for (name, member) in theirs {
                        if own.contains_key(name) {
                            return None;
                        }
                        own.insert(name.clone(), member.clone());
                    }
                }
                ("required", Some(Value::Array(own))) => {
                    let Value::Array(theirs) = value else {
                        return None;
                    };
                    for name in theirs {
                        if !own.contains(name) {
                            own.push(name.clone());
                        }
                    }
                }
                ("type", Some(own)) if own == value => {}
                (keyword, Some(_)) if ANNOTATIONS.contains(&keyword) => {}
                _ => return None,
            }
        }
        Some(out)
    }
    fn walk(
        node: &Value,
        root: &Value,
        pointer: &mut String,
        found: &mut Vec<(String, Map<String, Value>)>,
        depth: usize,
    ) {
        if depth > MAX_HOPS * 4 {
            return;
        }
        let mark = pointer.len();
        match node {
            Value::Object(map) => {
                let beside = map
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|properties| !properties.is_empty());
                let definition = crate::plan::reference::resolve(root, map)
                    .and_then(|(_, target)| target.as_object())
                    .filter(|definition| {
                        beside && takes_unnamed(definition) && !definition.contains_key("$ref")
                    });
                if let Some(merged) = definition.and_then(|definition| merged(map, definition)) {
                    found.push((pointer.clone(), merged));
                }
                for (keyword, child) in map {
                    crate::plan::reference::push_token(pointer, keyword);
                    walk(child, root, pointer, found, depth + 1);
                    pointer.truncate(mark);
                }
            }
            Value::Array(items) => {
                for (at, item) in items.iter().enumerate() {
                    crate::plan::reference::push_token(pointer, &at.to_string());
                    walk(item, root, pointer, found, depth + 1);
                    pointer.truncate(mark);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(schema, schema, &mut String::new(), &mut found, 0);
    // Outer objects first: each merged copy holds its object's children as
    // they were, at the same places, for the inner edits to follow.
    for (pointer, merged) in found {
        if let Some(Value::Object(map)) = schema.pointer_mut(&pointer) {
            *map = merged;
        }
    }
}

/// [`close_objects`] as a schemars transform, for a generator that should
/// produce closed schemas:
/// `SchemaSettings::default().with_transform(CloseObjects)`.
///
/// schemars applies a generator's transforms to the root schema once its
/// definitions are in place, so the whole document is closed at once. (Its
/// `take_definitions(true)` also applies them to each definition alone;
/// closing one definition without its composers cannot see how it is
/// composed, so do not close definitions that way.)
#[derive(Debug, Clone, Copy, Default)]
pub struct CloseObjects;

impl schemars::transform::Transform for CloseObjects {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        let mut value = std::mem::take(schema).to_value();
        close_objects(&mut value);
        // Closing only inserts keywords into objects: the value is still a
        // schema.
        *schema = schemars::Schema::try_from(value).unwrap_or_default();
    }
}

/// Whether an object schema already says what happens to other members.
pub(crate) fn is_decided(map: &Map<String, Value>) -> bool {
    map.contains_key("additionalProperties") || map.contains_key("unevaluatedProperties")
}

pub(crate) fn says_object(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    }
}

/// Phase one: read the document, decide every edit.
struct Closer<'s> {
    root: &'s Value,
    /// Schemas (by pointer) that are one part of a composed object.
    composed: HashSet<String>,
    /// Definitions already closed as locations of their own.
    done: HashSet<String>,
    edits: Vec<(String, &'static str)>,
    /// [`Closer::declares_members`] and [`Closer::closable`] per node (by
    /// address in the borrowed document); `None` while being answered.
    declares: RefCell<HashMap<usize, Option<bool>>>,
    closables: RefCell<HashMap<usize, Option<Closable>>>,
}

impl<'s> Closer<'s> {
    fn new(root: &'s Value) -> Closer<'s> {
        let mut closer = Closer {
            root,
            composed: HashSet::new(),
            done: HashSet::new(),
            edits: Vec::new(),
            declares: RefCell::default(),
            closables: RefCell::default(),
        };
        closer.find_composed("", root);
        closer
    }

    fn resolve(&self, map: &Map<String, Value>) -> Option<(String, &'s Value)> {
        crate::plan::reference::resolve(self.root, map)
    }

    /// Marks the parts of every composed object, anywhere in the document.
    fn find_composed(&mut self, at: &str, node: &'s Value) {
        let Value::Object(map) = node else { return };
        if self.declaring_parts(map) >= 2 {
            if let Some((pointer, target)) = self.resolve(map) {
                self.mark_composed(&pointer, target, 0);
            }
            for keyword in ["allOf", "anyOf", "oneOf"] {
                if let Some(Value::Array(parts)) = map.get(keyword) {
                    for (i, part) in parts.iter().enumerate() {
                        let pointer = child_pointer(&child_pointer(at, keyword), &i.to_string());
                        self.mark_composed(&pointer, part, 0);
                    }
                }
            }
        }
        for_each_subschema(at, map, &mut |pointer, child, _| {
            self.find_composed(&pointer, child);
        });
    }

    /// Marks `node` and every member-declaring schema it applies to the
    /// same value as composed.
    fn mark_composed(&mut self, at: &str, node: &'s Value, hops: usize) {
        let Value::Object(map) = node else { return };
        if hops > MAX_HOPS || !self.composed.insert(at.to_owned()) {
            return;
        }
        if let Some((pointer, target)) = self.resolve(map) {
            self.mark_composed(&pointer, target, hops + 1);
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(parts)) = map.get(keyword) {
                for (i, part) in parts.iter().enumerate() {
                    let pointer = child_pointer(&child_pointer(at, keyword), &i.to_string());
                    self.mark_composed(&pointer, part, hops + 1);
                }
            }
        }
    }

    /// How many parts of `map` say something about the members of the same
    /// object: its own member keywords (or `"type": "object"`), its `$ref`,
    /// each `allOf` branch, and its union taken as one.
    fn declaring_parts(&self, map: &Map<String, Value>) -> usize {
        let mut parts = usize::from(
            INTO_MEMBERS.iter().any(|k| map.contains_key(*k))
                || map.contains_key("additionalProperties")
                || says_object(map),
        );
        if let Some((_, target)) = self.resolve(map) {
            parts += usize::from(self.declares_members(target));
        }
        if let Some(Value::Array(branches)) = map.get("allOf") {
            parts += branches.iter().filter(|b| self.declares_members(b)).count();
        }
        let union_declares = UNIONS.iter().any(|k| self.keyword_declares(map, k));
        parts + usize::from(union_declares)
    }

    /// Whether some branch of the composition `keyword` of `map` says
    /// anything about the members of an object.
    fn keyword_declares(&self, map: &Map<String, Value>, keyword: &str) -> bool {
        map.get(keyword)
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.iter().any(|b| self.declares_members(b)))
    }

    /// Whether `node` (through references and compositions) says anything
    /// about the members of an object. Each node is answered once (shared
    /// definitions would otherwise be walked once per path to them); a
    /// reference cycle counts as declaring.
    fn declares_members(&self, node: &Value) -> bool {
        let key = std::ptr::from_ref(node) as usize;
        if let Some(known) = self.declares.borrow().get(&key) {
            return known.unwrap_or(true);
        }
        self.declares.borrow_mut().insert(key, None);
        let answer = self.declares_members_of(node);
        self.declares.borrow_mut().insert(key, Some(answer));
        answer
    }

    fn declares_members_of(&self, node: &Value) -> bool {
        let Value::Object(map) = node else {
            return false;
        };
        if INTO_MEMBERS.iter().any(|k| map.contains_key(*k)) || is_decided(map) || says_object(map)
        {
            return true;
        }
        if let Some((_, target)) = self.resolve(map)
            && self.declares_members(target)
        {
            return true;
        }
        ["allOf", "anyOf", "oneOf"]
            .iter()
            .any(|k| self.keyword_declares(map, k))
    }

    /// Whether the value a location holds, if it is an object, is a struct:
    /// some part describes a struct and no part lets any member through.
    /// Each node is answered once; a reference cycle counts as open.
    fn closable(&self, node: &Value) -> Closable {
        let key = std::ptr::from_ref(node) as usize;
        if let Some(known) = self.closables.borrow().get(&key) {
            return known.unwrap_or(Closable::Open);
        }
        self.closables.borrow_mut().insert(key, None);
        let answer = self.closable_of(node);
        self.closables.borrow_mut().insert(key, Some(answer));
        answer
    }

    /// Whether `node` takes every member of an object and evaluates it:
    /// `additionalProperties: true` or `unevaluatedProperties: true` on it,
    /// or on what it references (a `$ref` applies in place, so its
    /// evaluations count). Not a map's value schema, nor `true`.
    fn evaluates_all(&self, node: &Value, hops: usize) -> bool {
        let Value::Object(map) = node else {
            return false;
        };
        if ["additionalProperties", "unevaluatedProperties"]
            .iter()
            .any(|k| map.get(*k) == Some(&Value::Bool(true)))
        {
            return true;
        }
        hops < MAX_HOPS
            && self
                .resolve(map)
                .is_some_and(|(_, target)| self.evaluates_all(target, hops + 1))
    }

    fn closable_of(&self, node: &Value) -> Closable {
        let Value::Object(map) = node else {
            return if node == &Value::Bool(true) {
                Closable::Open
            } else {
                Closable::Nothing
            };
        };
        if is_decided(map) {
            let open = ["additionalProperties", "unevaluatedProperties"]
                .iter()
                .any(|k| map.get(*k).is_some_and(|v| v != &Value::Bool(false)));
            return if open {
                Closable::Open
            } else {
                Closable::Nothing
            };
        }
        // Anything else, `{}` with annotations only included, describes no
        // struct: as one part of an object, `{}` evaluates no member (the
        // branch schemars adds for a flattened `Option`, taken when nothing
        // of it was sent), so it keeps no member from being closed. `true`
        // (schemars' schema for `serde_json::Value`) stays open, above.
        let mut found = if map.contains_key("properties") || says_object(map) {
            Closable::Struct
        } else {
            Closable::Nothing
        };
        if let Some((_, target)) = self.resolve(map) {
            found = found.and(self.closable(target));
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(parts)) = map.get(keyword) {
                for part in parts {
                    // A union's branch that takes and evaluates every member
                    // (`additionalProperties: true`, as an internally tagged
                    // newtype around `serde_json::Value` is left, or a
                    // reference to an open struct) keeps the
                    // object open only when it is the branch taken: closed
                    // around it, the other branches still refuse what they
                    // do not read. Not a map's value schema (in a flattened
                    // union it would apply to the object's own members too),
                    // nor `true` (which evaluates nothing).
                    let evaluates_all = keyword != "allOf" && self.evaluates_all(part, 0);
                    if !evaluates_all {
                        found = found.and(self.closable(part));
                    }
                }
            }
        }
        found
    }

    /// Visits every subschema; `location` says whether `node` is where a
    /// value is validated (the root, a member, an item).
    fn visit_all(&mut self, at: &str, node: &'s Value, location: bool) {
        let Value::Object(map) = node else { return };
        if location {
            self.close_location(at, node, 0);
        }
        for_each_subschema(at, map, &mut |pointer, child, moves| {
            self.visit_all(&pointer, child, moves);
        });
    }

    /// Decides how the location whose schema is `node` (at `at`) is closed.
    fn close_location(&mut self, at: &str, node: &'s Value, hops: usize) {
        let Value::Object(map) = node else { return };
        if hops > MAX_HOPS || is_decided(map) {
            return;
        }
        let has_own = INTO_MEMBERS.iter().any(|k| map.contains_key(*k)) || says_object(map);
        let composes = map.contains_key("$ref")
            || ["allOf", "anyOf", "oneOf"]
                .iter()
                .any(|k| self.keyword_declares(map, k));
        let only_annotations = map
            .keys()
            .all(|k| ANNOTATIONS.contains(&k.as_str()) || k.starts_with("x-"));

        if has_own && !composes {
            self.edits.push((at.to_owned(), "additionalProperties"));
            return;
        }
        if only_annotations {
            // A bare `$ref` (or nothing at all).
            let Some((pointer, target)) = self.resolve(map) else {
                return;
            };
            if self.composed.contains(&pointer) {
                if self.closable(target) == Closable::Struct {
                    self.edits.push((at.to_owned(), "unevaluatedProperties"));
                }
            } else if self.done.insert(pointer.clone()) {
                self.close_location(&pointer, target, hops + 1);
            }
            return;
        }
        let union_only =
            !has_own && !map.contains_key("$ref") && !self.keyword_declares(map, "allOf");
        if union_only {
            for keyword in UNIONS {
                if let Some(Value::Array(branches)) = map.get(*keyword) {
                    for (i, branch) in branches.iter().enumerate() {
                        let pointer = child_pointer(&child_pointer(at, keyword), &i.to_string());
                        self.close_location(&pointer, branch, hops + 1);
                    }
                }
            }
            return;
        }
        if self.closable(node) == Closable::Struct {
            self.edits.push((at.to_owned(), "unevaluatedProperties"));
        }
    }
}

/// What the schemas applied to one object say about its members.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Closable {
    /// Nothing describes a struct.
    Nothing,
    /// Some part describes a struct, and none lets any member through.
    Struct,
    /// Some part accepts any member (a map's value schema, `true`).
    Open,
}

impl Closable {
    fn and(self, other: Closable) -> Closable {
        match (self, other) {
            (Closable::Open, _) | (_, Closable::Open) => Closable::Open,
            (Closable::Struct, _) | (_, Closable::Struct) => Closable::Struct,
            _ => Closable::Nothing,
        }
    }
}

/// Calls `f(pointer, child, moves)` for every direct subschema of `map`;
/// `moves` says whether the child applies to a member or an item (a new
/// location) rather than to the same value. `$defs` are visited as not
/// moving: a definition is a location only where it is referenced.
fn for_each_subschema<'s>(
    at: &str,
    map: &'s Map<String, Value>,
    f: &mut dyn FnMut(String, &'s Value, bool),
) {
    for (keyword, value) in map {
        let keyword = keyword.as_str();
        match value {
            Value::Object(children)
                if INTO_MEMBERS.contains(&keyword)
                    || matches!(keyword, "$defs" | "definitions" | "dependentSchemas") =>
            {
                let moves = INTO_MEMBERS.contains(&keyword);
                let base = child_pointer(at, keyword);
                for (name, child) in children {
                    f(child_pointer(&base, name), child, moves);
                }
            }
            Value::Array(children)
                if INTO_ITEMS.contains(&keyword)
                    || matches!(keyword, "allOf" | "anyOf" | "oneOf") =>
            {
                let moves = INTO_ITEMS.contains(&keyword);
                let base = child_pointer(at, keyword);
                for (i, child) in children.iter().enumerate() {
                    f(child_pointer(&base, &i.to_string()), child, moves);
                }
            }
            Value::Object(_) | Value::Bool(_) if INTO_CHILD.contains(&keyword) => {
                f(child_pointer(at, keyword), value, true);
            }
            Value::Object(_) | Value::Bool(_)
                if matches!(keyword, "not" | "if" | "then" | "else" | "propertyNames") =>
            {
                f(child_pointer(at, keyword), value, false);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;

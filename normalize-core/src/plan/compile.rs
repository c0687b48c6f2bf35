//! Schema value → [`SchemaPlan`]: one node per reachable subschema object,
//! `$ref`s resolved, patterns compiled, declared types computed to a fixed
//! point.

use super::node::Early;
use super::pattern::Pattern;
use super::reference::{local_pointer, push_token};
use super::types::{JsonType, json_eq};
use super::{
    ArrayRules, Node, NodeId, ObjectRules, SchemaError, SchemaPlan, Sub, TypeSet, VERBATIM_KEYWORD,
};
use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};

/// Refs followed to find a tag's `const`/`enum` through `{"$ref": ...}` chains.
const TAG_REF_HOPS: usize = 32;

pub(super) fn compile(schema: &Value) -> Result<SchemaPlan, SchemaError> {
    let root_id = schema.get("$id").and_then(Value::as_str);
    let mut compiler = Compiler {
        document: schema,
        root_id,
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
        queue: VecDeque::new(),
    };
    let root = compiler.intern(String::new(), schema)?;
    while let Some((id, pointer, value)) = compiler.queue.pop_front() {
        let node = compiler.compile_node(&pointer, value)?;
        compiler.nodes[id as usize] = node;
    }
    let mut nodes = compiler.nodes;
    find_tags(&mut nodes);
    fix_types(&mut nodes);
    let has_marks = spread_verbatim(&mut nodes);
    let has_literals = nodes.iter().any(|node| node.verbatim_literals);
    Ok(SchemaPlan {
        nodes,
        has_verbatim: has_marks || has_literals,
        has_literals,
        root,
        sites: std::sync::OnceLock::new(),
    })
}

struct Compiler<'s> {
    document: &'s Value,
    root_id: Option<&'s str>,
    nodes: Vec<Node>,
    by_pointer: HashMap<String, NodeId>,
    queue: VecDeque<(NodeId, String, &'s Map<String, Value>)>,
}

fn type_name(value: &Value) -> &'static str {
    JsonType::of(value).name()
}

impl<'s> Compiler<'s> {
    /// The child schema at `pointer`, queued for compilation the first time
    /// it is seen.
    fn intern(&mut self, pointer: String, value: &'s Value) -> Result<Sub, SchemaError> {
        match value {
            Value::Bool(true) => Ok(Sub::Any),
            Value::Bool(false) => Ok(Sub::Never),
            Value::Object(map) => {
                if let Some(&id) = self.by_pointer.get(&pointer) {
                    return Ok(Sub::Node(id));
                }
                let id = NodeId::try_from(self.nodes.len()).expect("fewer than 2^32 subschemas");
                self.nodes.push(Node::default());
                self.by_pointer.insert(pointer.clone(), id);
                self.queue.push_back((id, pointer, map));
                Ok(Sub::Node(id))
            }
            other => Err(SchemaError::NotASchema {
                at: pointer,
                found: type_name(other),
            }),
        }
    }

    fn child(&mut self, at: &str, tokens: &[&str], value: &'s Value) -> Result<Sub, SchemaError> {
        let mut pointer = at.to_owned();
        for token in tokens {
            push_token(&mut pointer, token);
        }
        self.intern(pointer, value)
    }

    fn schema_list(
        &mut self,
        at: &str,
        keyword: &'static str,
        value: &'s Value,
    ) -> Result<Vec<Sub>, SchemaError> {
        let Value::Array(items) = value else {
            return Err(keyword_type(at, keyword, "an array of schemas", value));
        };
        let mut subs = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            subs.push(self.child(at, &[keyword, &i.to_string()], item)?);
        }
        Ok(subs)
    }

    fn compile_node(&mut self, at: &str, map: &'s Map<String, Value>) -> Result<Node, SchemaError> {
        let mut node = Node {
            own_types: TypeSet::ALL,
            ..Node::default()
        };
        if let Some(value) = map.get("type") {
            node.own_types = declared_by_type(at, value)?;
        }
        let mut allowed: Option<Vec<Value>> = None;
        if let Some(value) = map.get("enum") {
            let Value::Array(values) = value else {
                return Err(keyword_type(at, "enum", "an array", value));
            };
            node.own_types = node
                .own_types
                .intersect(values.iter().map(JsonType::of).collect());
            allowed = Some(values.clone());
        }
        if let Some(value) = map.get("const") {
            node.own_types = node.own_types.intersect(TypeSet::only(JsonType::of(value)));
            allowed = Some(match allowed {
                Some(values) if !values.iter().any(|v| json_eq(v, value)) => Vec::new(),
                _ => vec![value.clone()],
            });
        }
        node.verbatim_literals = allowed
            .iter()
            .flatten()
            .any(|v| v.as_str().is_some_and(|text| text.contains('&')));
        node.allowed = allowed;
        match map.get(VERBATIM_KEYWORD) {
            None => {}
            Some(Value::Bool(mark)) => node.own_verbatim = *mark,
            Some(other) => return Err(keyword_type(at, VERBATIM_KEYWORD, "a boolean", other)),
        }

        if let Some(value) = map.get("$ref") {
            let Value::String(reference) = value else {
                return Err(keyword_type(at, "$ref", "a string", value));
            };
            let Some(pointer) = local_pointer(reference, self.root_id) else {
                return Err(SchemaError::NonLocalRef {
                    at: at.to_owned(),
                    reference: reference.clone(),
                });
            };
            let Some(target) = self.document.pointer(&pointer) else {
                return Err(SchemaError::DanglingRef {
                    at: at.to_owned(),
                    reference: reference.clone(),
                });
            };
            let sub = self.intern(pointer, target)?;
            node.conjuncts.push(sub);
        }
        if let Some(value) = map.get("allOf") {
            let subs = self.schema_list(at, "allOf", value)?;
            node.conjuncts.extend(subs);
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(value) = map.get(keyword) {
                let subs = self.schema_list(at, keyword, value)?;
                node.unions.push(subs);
            }
        }
        node.early = early(at, map);
        node.variant_key = variant_key(map);
        node.closes_unevaluated = map.get("unevaluatedProperties") == Some(&Value::Bool(false));
        node.object = self.object_rules(at, map)?;
        node.array = self.array_rules(at, map)?;
        Ok(node)
    }

    fn object_rules(
        &mut self,
        at: &str,
        map: &'s Map<String, Value>,
    ) -> Result<Option<Box<ObjectRules>>, SchemaError> {
        let (properties, patterns, additional) = (
            map.get("properties"),
            map.get("patternProperties"),
            map.get("additionalProperties"),
        );
        if properties.is_none() && patterns.is_none() && additional.is_none() {
            return Ok(None);
        }
        let mut rules = ObjectRules::default();
        if let Some(value) = properties {
            let Value::Object(props) = value else {
                return Err(keyword_type(at, "properties", "an object", value));
            };
            for (name, schema) in props {
                let sub = self.child(at, &["properties", name], schema)?;
                rules.properties.insert(name, sub);
            }
        }
        if let Some(value) = patterns {
            let Value::Object(props) = value else {
                return Err(keyword_type(at, "patternProperties", "an object", value));
            };
            for (pattern, schema) in props {
                let compiled = Pattern::new(pattern).map_err(|reason| SchemaError::Pattern {
                    at: at.to_owned(),
                    pattern: pattern.clone(),
                    reason,
                })?;
                let sub = self.child(at, &["patternProperties", pattern], schema)?;
                rules.patterns.push((compiled, sub));
            }
        }
        if let Some(schema) = additional {
            rules.additional = Some(self.child(at, &["additionalProperties"], schema)?);
        }
        Ok(Some(Box::new(rules)))
    }

    fn array_rules(
        &mut self,
        at: &str,
        map: &'s Map<String, Value>,
    ) -> Result<Option<Box<ArrayRules>>, SchemaError> {
        let (prefix, items, additional) = (
            map.get("prefixItems"),
            map.get("items"),
            map.get("additionalItems"),
        );
        if prefix.is_none() && items.is_none() {
            // `additionalItems` means nothing without array-form `items`.
            return Ok(None);
        }
        let mut rules = ArrayRules::default();
        if let Some(value) = prefix {
            rules.prefix = self.schema_list(at, "prefixItems", value)?;
        }
        match items {
            // Draft-07 tuple form: `items` is the prefix, `additionalItems` the rest.
            Some(value @ Value::Array(_)) => {
                let tuple = self.schema_list(at, "items", value)?;
                if rules.prefix.is_empty() {
                    rules.prefix = tuple;
                }
                if let Some(schema) = additional {
                    rules.rest = Some(self.child(at, &["additionalItems"], schema)?);
                }
            }
            Some(schema) => rules.rest = Some(self.child(at, &["items"], schema)?),
            None => {}
        }
        Ok(Some(Box::new(rules)))
    }
}

fn keyword_type(
    at: &str,
    keyword: &'static str,
    expected: &'static str,
    found: &Value,
) -> SchemaError {
    SchemaError::KeywordType {
        at: at.to_owned(),
        keyword,
        expected,
        found: type_name(found),
    }
}

fn declared_by_type(at: &str, value: &Value) -> Result<TypeSet, SchemaError> {
    let name_to_type = |name: &str| {
        JsonType::from_name(name).ok_or_else(|| SchemaError::UnknownType {
            at: at.to_owned(),
            name: name.to_owned(),
        })
    };
    match value {
        Value::String(name) => Ok(TypeSet::only(name_to_type(name)?)),
        Value::Array(names) => names
            .iter()
            .try_fold(TypeSet::EMPTY, |set, name| match name {
                Value::String(name) => Ok(set.with(name_to_type(name)?)),
                other => Err(keyword_type(
                    at,
                    "type",
                    "a type name or an array of them",
                    other,
                )),
            }),
        other => Err(keyword_type(
            at,
            "type",
            "a type name or an array of them",
            other,
        )),
    }
}

/// What the validator makes of `map` (at `at`) that normalization does not
/// read ([`Early`]), in one pass over its keywords (a schema's first use
/// compiles every node). The keywords' types were checked by the caller
/// where normalization reads them too.
fn early(at: &str, map: &Map<String, Value>) -> Early {
    let mut early = Early::default();
    let (mut any_of, mut one_of) = (None, None);
    for (keyword, value) in map {
        match keyword.as_str() {
            "not" | "if" | "then" | "else" | "dependentSchemas" | "dependentRequired"
            | "dependencies" | "$dynamicRef" | "$recursiveRef" => early.opens = true,
            // A base URI below the root changes what a reference in it
            // points at.
            "$id" => early.opens |= !at.is_empty(),
            "unevaluatedItems" => {
                early.opens = true;
                early.unevaluated = true;
            }
            "enum" => early.enum_values = value.as_array().cloned(),
            "const" => early.const_value = Some(value.clone()),
            "type" => {
                early.integer = match value {
                    Value::String(name) => name == "integer",
                    Value::Array(names) => names.iter().any(|name| name == "integer"),
                    _ => false,
                }
            }
            "required" => {
                early.names_members = true;
                if let Value::Array(names) = value {
                    early.required = names
                        .iter()
                        .filter_map(Value::as_str)
                        .map(Box::from)
                        .collect();
                }
            }
            "properties" | "additionalProperties" => {
                early.names_members = true;
                early.shapes_contents = true;
            }
            "patternProperties" => {
                early.patterns = true;
                early.shapes_contents = true;
            }
            "unevaluatedProperties" => {
                early.unevaluated = true;
                early.shapes_contents = true;
                early.unevaluated_schema = !value.is_boolean();
            }
            "propertyNames" | "items" | "prefixItems" | "additionalItems" | "contains" => {
                early.shapes_contents = true;
            }
            "anyOf" => any_of = Some(value),
            "oneOf" => one_of = Some(value),
            _ => {}
        }
    }
    // In the order of `Node::unions`: `anyOf`, then `oneOf`.
    early.alias_groups = [any_of, one_of]
        .into_iter()
        .flatten()
        .map(|group| {
            group
                .as_array()
                .is_some_and(|branches| crate::alias_groups::is_alias_group(branches))
        })
        .collect();
    early
}

/// The member name of an externally tagged variant's object: `properties`
/// holds exactly one name and `required` lists exactly that name.
fn variant_key(map: &Map<String, Value>) -> Option<Box<str>> {
    let Some(Value::Object(properties)) = map.get("properties") else {
        return None;
    };
    let Some(Value::Array(required)) = map.get("required") else {
        return None;
    };
    match (properties.keys().next(), required.as_slice()) {
        (Some(name), [Value::String(only)]) if properties.len() == 1 && name == only => {
            Some(Box::from(name.as_str()))
        }
        _ => None,
    }
}

/// Records, for each node, the properties whose schema (directly or through
/// a chain of `$ref`s) carries `const` or `enum`.
fn find_tags(nodes: &mut [Node]) {
    let carrier = |nodes: &[Node], mut sub: Sub| -> Option<NodeId> {
        for _ in 0..TAG_REF_HOPS {
            let Sub::Node(id) = sub else { return None };
            let node = &nodes[id as usize];
            if node.allowed.is_some() {
                return Some(id);
            }
            match node.conjuncts.as_slice() {
                [next] => sub = *next,
                _ => return None,
            }
        }
        None
    };
    for i in 0..nodes.len() {
        let Some(rules) = &nodes[i].object else {
            continue;
        };
        let mut tags: Vec<(Box<str>, NodeId)> = rules
            .properties
            .iter()
            .filter_map(|(name, sub)| carrier(nodes, sub).map(|id| (Box::from(name), id)))
            .collect();
        tags.sort_by(|a, b| a.0.cmp(&b.0));
        nodes[i].tags = tags;
    }
}

/// Declared types to the greatest fixed point: start every node at "all
/// types" and narrow along `$ref`/`allOf` (intersection) and `anyOf`/`oneOf`
/// (union) until nothing changes. A worklist re-evaluates only the nodes that
/// depend on a node that changed, so cycles cost at most six narrowings per
/// node.
fn fix_types(nodes: &mut [Node]) {
    let mut dependents: Vec<Vec<NodeId>> = vec![Vec::new(); nodes.len()];
    for (id, node) in nodes.iter().enumerate() {
        let children = node.conjuncts.iter().chain(node.unions.iter().flatten());
        for sub in children {
            if let Sub::Node(child) = sub {
                dependents[*child as usize].push(id as NodeId);
            }
        }
    }
    for node in nodes.iter_mut() {
        node.types = TypeSet::ALL;
    }
    let mut queued = vec![true; nodes.len()];
    let mut work: VecDeque<NodeId> = (0..nodes.len() as NodeId).collect();
    let types_of = |nodes: &[Node], sub: &Sub| match sub {
        Sub::Any => TypeSet::ALL,
        Sub::Never => TypeSet::EMPTY,
        Sub::Node(id) => nodes[*id as usize].types,
    };
    while let Some(id) = work.pop_front() {
        queued[id as usize] = false;
        let node = &nodes[id as usize];
        let mut types = node.own_types;
        for sub in &node.conjuncts {
            types = types.intersect(types_of(nodes, sub));
        }
        for group in &node.unions {
            let union = group
                .iter()
                .fold(TypeSet::EMPTY, |acc, sub| acc.union(types_of(nodes, sub)));
            types = types.intersect(union);
        }
        if types != node.types {
            nodes[id as usize].types = types;
            for &dependent in &dependents[id as usize] {
                if !queued[dependent as usize] {
                    queued[dependent as usize] = true;
                    work.push_back(dependent);
                }
            }
        }
    }
}

/// Marks every node from which a [`VERBATIM_KEYWORD`] node is reachable
/// through `$ref`/`allOf`/`anyOf`/`oneOf` (cycles included), so that
/// locations that cannot be verbatim are answered without a walk. Returns
/// whether any node carries the mark.
fn spread_verbatim(nodes: &mut [Node]) -> bool {
    let mut parents: Vec<Vec<NodeId>> = vec![Vec::new(); nodes.len()];
    for (id, node) in nodes.iter().enumerate() {
        for sub in node.conjuncts.iter().chain(node.unions.iter().flatten()) {
            if let Sub::Node(child) = sub {
                parents[*child as usize].push(id as NodeId);
            }
        }
    }
    let mut work: Vec<NodeId> = Vec::new();
    for (id, node) in nodes.iter_mut().enumerate() {
        if node.own_verbatim {
            node.maybe_verbatim = true;
            work.push(id as NodeId);
        }
    }
    let any = !work.is_empty();
    while let Some(id) = work.pop() {
        for &parent in &parents[id as usize] {
            let node = &mut nodes[parent as usize];
            if !node.maybe_verbatim {
                node.maybe_verbatim = true;
                work.push(parent);
            }
        }
    }
    any
}

impl SchemaPlan {
    /// Compiles a schema (an object or a boolean).
    ///
    /// # Errors
    ///
    /// A [`SchemaError`] naming the first subschema that is not a schema, a
    /// keyword of the wrong type, a `$ref` that is not local or points at
    /// nothing, or a `patternProperties` key the validator does not accept
    /// as a pattern.
    pub fn compile(schema: &Value) -> Result<SchemaPlan, SchemaError> {
        compile(schema)
    }
}

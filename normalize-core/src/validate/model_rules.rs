//! The rules of a [`Node`] that JSON Schema cannot say, checked on a value
//! that passed the schema: a Rust integer written with a fraction or an
//! exponent (`5000.0`, `5e0`), which the schema's `integer` takes and serde
//! refuses; a field sent under two of its names; a member a flattened map
//! reads besides the later flattened field that declares it (serde hands a
//! flattened map every member no field before it took, so a later struct's
//! member must suit the map's entries too). Each is reported at the
//! member's own pointer, inside a flattened struct too, where serde's
//! error would have none.

use super::violation::Violation;
use crate::contract::model::{
    EnumModel, FieldModel, Node, Scalar, StructModel, Tagging, VariantContent, VariantModel,
};
use crate::path::Path;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// The places of a type's model where a rule applies, found once per type:
/// the walk of a call's value goes only where one of them can be reached,
/// so a type whose members are strings (or a subtree of them, a list of
/// documents) costs nothing to check.
#[derive(Debug)]
pub(crate) struct Checks {
    root: &'static Node,
    /// The nodes (by address, through transparent wrappers) from which a
    /// rule can be reached: a Rust integer, a struct with aliases. Sorted:
    /// a few entries, searched on every container a call holds.
    relevant: Vec<usize>,
    /// For each relevant struct without flattened fields (by address,
    /// sorted), the fields to look at: those a rule can reach, or with
    /// aliases. Such a struct's members are looked up by name, not walked.
    direct: Vec<(usize, Vec<usize>)>,
    /// Whether a rule other than the integer's can apply (a struct with
    /// aliases or a flattened map is reachable): the walk is needed
    /// whatever numbers the call holds.
    not_numbers_only: bool,
}

fn address(node: &Node) -> usize {
    std::ptr::from_ref(node.resolve()) as usize
}

/// Whether a rule other than the integer's applies at `node`: a struct (or
/// a struct variant, whose model is no node of its own) with a field that
/// has aliases, or a flattened map that can refuse a member.
fn other_rule_at(node: &Node) -> bool {
    let other_rule = |model: &StructModel| {
        model
            .fields
            .iter()
            .any(|f| !f.aliases.is_empty() || flattened_entries(f).is_some())
    };
    match node {
        Node::Struct(model) => other_rule(model),
        Node::Enum(model) => model.variants.iter().any(|variant| {
            matches!(&variant.content, VariantContent::Struct(model) if other_rule(model))
        }),
        _ => false,
    }
}

/// The nodes a value of `node` holds directly.
fn children(node: &Node) -> Vec<&'static Node> {
    match node.resolve() {
        Node::Option(inner) | Node::Seq(inner) | Node::Map(inner) => vec![inner().resolve()],
        Node::Struct(model) => struct_children(model),
        Node::Tuple(items) => items.iter().map(|f| f().resolve()).collect(),
        Node::Enum(model) => model
            .variants
            .iter()
            .filter(|v| !v.skipped)
            .flat_map(|variant| match &variant.content {
                VariantContent::Unit => Vec::new(),
                VariantContent::Newtype(inner) => vec![inner().resolve()],
                VariantContent::Tuple(items) => items.iter().map(|f| f().resolve()).collect(),
                VariantContent::Struct(model) => struct_children(model),
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn struct_children(model: &StructModel) -> Vec<&'static Node> {
    model
        .fields
        .iter()
        .filter(|f| !f.skipped)
        .map(|f| (f.node)().resolve())
        .collect()
}

impl Checks {
    /// The checks of a type whose model is `root`; `None` when no rule can
    /// apply anywhere in it.
    pub(crate) fn of(root: &'static Node) -> Option<Checks> {
        // Every node reachable from the root, with its children.
        let mut nodes: Vec<(&'static Node, Vec<&'static Node>)> = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![root.resolve()];
        while let Some(node) = stack.pop() {
            if seen.insert(address(node)) {
                let next = children(node);
                stack.extend(next.iter().copied());
                nodes.push((node, next));
            }
        }
        let not_numbers_only = nodes.iter().any(|(node, _)| other_rule_at(node));
        let mut relevant: HashSet<usize> = nodes
            .iter()
            .filter(|(node, _)| {
                matches!(node, Node::Integer { .. } | Node::WideInteger) || other_rule_at(node)
            })
            .map(|(node, _)| address(node))
            .collect();
        // A node is relevant when a child is: to a fixed point (a
        // recursive type's cycle included).
        loop {
            let before = relevant.len();
            for (node, next) in &nodes {
                if next.iter().any(|child| relevant.contains(&address(child))) {
                    relevant.insert(address(node));
                }
            }
            if relevant.len() == before {
                break;
            }
        }
        let mut direct: Vec<(usize, Vec<usize>)> = nodes
            .iter()
            .filter_map(|(node, _)| match node {
                Node::Struct(model)
                    if relevant.contains(&address(node))
                        && !model.fields.iter().any(|f| f.flatten && !f.skipped) =>
                {
                    let fields = (0..model.fields.len())
                        .filter(|&j| {
                            let field = &model.fields[j];
                            !field.skipped
                                && (!field.aliases.is_empty()
                                    || relevant.contains(&address((field.node)())))
                        })
                        .collect();
                    Some((address(node), fields))
                }
                _ => None,
            })
            .collect();
        direct.sort_unstable_by_key(|(at, _)| *at);
        let mut relevant: Vec<usize> = relevant.into_iter().collect();
        relevant.sort_unstable();
        relevant
            .binary_search(&address(root))
            .is_ok()
            .then_some(Checks {
                root,
                relevant,
                direct,
                not_numbers_only,
            })
    }

    /// Whether a rule other than the integer's can apply, so that a call
    /// holding no number with a fraction is walked too.
    pub(crate) fn not_numbers_only(&self) -> bool {
        self.not_numbers_only
    }

    /// The fields to look at in a struct without flattened fields.
    fn direct(&self, node: &Node) -> Option<&[usize]> {
        let at = address(node);
        self.direct
            .binary_search_by_key(&at, |(node, _)| *node)
            .ok()
            .map(|i| self.direct[i].1.as_slice())
    }

    /// The members of a struct without flattened fields, looked up by the
    /// names of the fields that matter.
    fn lookup(
        &self,
        model: &StructModel,
        fields: &[usize],
        members: &Map<String, Value>,
        path: &Path<'_>,
        depth: usize,
        out: &mut Vec<Violation>,
    ) {
        for &j in fields {
            let field = &model.fields[j];
            let mut sent = std::iter::once(field.wire)
                .chain(field.aliases.iter().copied())
                .filter_map(|name| members.get_key_value(name));
            let Some(first) = sent.next() else {
                continue;
            };
            if let Some(second) = sent.next() {
                // Two names of one field: reported at the later in the text.
                let mut names = members.keys().filter(|k| field.reads(k));
                let (a, b) = (names.next(), names.next());
                if let (Some(a), Some(b)) = (a, b) {
                    out.push(two_names(path, a, b));
                }
                self.at(
                    (field.node)(),
                    second.1,
                    &path.key(second.0),
                    depth + 1,
                    out,
                );
            }
            self.at((field.node)(), first.1, &path.key(first.0), depth + 1, out);
        }
    }

    fn relevant(&self, node: &Node) -> bool {
        self.relevant.binary_search(&address(node)).is_ok()
    }

    /// Pushes a violation for every place of `value` that breaks the model.
    pub(crate) fn check(&self, value: &Value, out: &mut Vec<Violation>) {
        self.at(self.root, value, &Path::ROOT, 0, out);
    }

    fn at(
        &self,
        node: &Node,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        out: &mut Vec<Violation>,
    ) {
        let node = node.resolve();
        match (node, value) {
            (Node::Integer { .. } | Node::WideInteger, Value::Number(number))
                if !number.is_u64() && !number.is_i64() =>
            {
                // A whole number past 64 bits is refused where serde reads
                // it (`crate::tool_args`), never checked rounded.
                let past_64_bits = matches!(node, Node::WideInteger)
                    && number.as_f64().is_some_and(|f| f.fract() == 0.0);
                if !past_64_bits {
                    out.push(fraction(path, value));
                }
            }
            (
                Node::Option(_)
                | Node::Seq(_)
                | Node::Map(_)
                | Node::Tuple(_)
                | Node::Struct(_)
                | Node::Enum(_),
                _,
            ) if !self.relevant(node) => {}
            (Node::Tuple(items), Value::Array(values)) => crate::deep::guard(depth, || {
                self.elements(items, values, path, depth, out);
            }),
            (Node::Enum(model), value) => crate::deep::guard(depth, || {
                self.variant(model, value, path, depth, out);
            }),
            (Node::Option(inner), value) if !value.is_null() => {
                self.at(inner(), value, path, depth, out);
            }
            (Node::Seq(item), Value::Array(items)) => crate::deep::guard(depth, || {
                for (i, element) in items.iter().enumerate() {
                    self.at(item(), element, &path.index(i), depth + 1, out);
                }
            }),
            (Node::Map(entry), Value::Object(members)) => crate::deep::guard(depth, || {
                for (key, member) in members {
                    self.at(entry(), member, &path.key(key), depth + 1, out);
                }
            }),
            (Node::Struct(model), Value::Object(members)) => crate::deep::guard(depth, || {
                if let Some(fields) = self.direct(node) {
                    self.lookup(model, fields, members, path, depth, out);
                } else {
                    self.all_fields(model, members, path, depth, out);
                }
            }),
            _ => {}
        }
    }

    /// The content of a tagged enum's value, checked as the variant its tag
    /// names (a tag no variant has is the schema's to refuse).
    fn variant(
        &self,
        model: &EnumModel,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        out: &mut Vec<Violation>,
    ) {
        let named = |name: &str| model.variants.iter().find(|v| v.named(name));
        let Value::Object(members) = value else {
            return;
        };
        match model.tagging {
            Tagging::External => {
                if let (1, Some((name, content))) = (members.len(), members.iter().next())
                    && let Some(variant) = named(name)
                {
                    self.content(variant, content, &path.key(name), depth + 1, out);
                }
            }
            Tagging::Internal { tag } => {
                let variant = members.get(tag).and_then(Value::as_str).and_then(named);
                match variant.map(|v| &v.content) {
                    // serde reads the variant from the members beside the
                    // tag, which no field (and no flattened map) sees.
                    Some(VariantContent::Struct(fields)) => {
                        let mut taken = Marks::new(members.len());
                        if let Some(i) = members.keys().position(|key| key == tag) {
                            taken.set(i);
                        }
                        self.fields(fields, members, &mut taken, path, depth, out);
                    }
                    // The members beside the tag are the inner value's.
                    Some(VariantContent::Newtype(inner)) => {
                        self.at(inner(), value, path, depth, out)
                    }
                    _ => {}
                }
            }
            Tagging::Adjacent { tag, content } => {
                let variant = members.get(tag).and_then(Value::as_str).and_then(named);
                if let (Some(variant), Some(value)) = (variant, members.get(content)) {
                    self.content(variant, value, &path.key(content), depth + 1, out);
                }
            }
        }
    }

    /// A variant's content, at `path`.
    fn content(
        &self,
        variant: &VariantModel,
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        out: &mut Vec<Violation>,
    ) {
        match (&variant.content, value) {
            (VariantContent::Newtype(inner), value) => self.at(inner(), value, path, depth, out),
            (VariantContent::Tuple(items), Value::Array(values)) => {
                self.elements(items, values, path, depth, out);
            }
            (VariantContent::Struct(fields), Value::Object(members)) => {
                self.all_fields(fields, members, path, depth, out);
            }
            _ => {}
        }
    }

    /// A tuple's elements, each checked as its own node.
    fn elements(
        &self,
        items: &[fn() -> &'static Node],
        values: &[Value],
        path: &Path<'_>,
        depth: usize,
        out: &mut Vec<Violation>,
    ) {
        for (i, (item, value)) in items.iter().zip(values).enumerate() {
            self.at(item(), value, &path.index(i), depth + 1, out);
        }
    }

    /// [`Checks::fields`] of a whole object, none of its members taken yet.
    fn all_fields(
        &self,
        model: &StructModel,
        members: &Map<String, Value>,
        path: &Path<'_>,
        depth: usize,
        out: &mut Vec<Violation>,
    ) {
        let mut taken = Marks::new(members.len());
        self.fields(model, members, &mut taken, path, depth, out);
    }

    /// The members of `members` that `model`'s fields read, as serde hands
    /// them out: the struct's own fields first, then each flattened field
    /// in declaration order, a flattened struct taking the members its
    /// fields read (`taken`), a flattened map every member no one took
    /// before it.
    fn fields(
        &self,
        model: &StructModel,
        members: &Map<String, Value>,
        taken: &mut Marks,
        path: &Path<'_>,
        depth: usize,
        out: &mut Vec<Violation>,
    ) {
        // The fields given a value so far: serde refuses a second name of
        // the same field (`duplicate field`).
        let mut given = Marks::new(model.fields.len());
        for (i, (key, member)) in members.iter().enumerate() {
            if taken.get(i) {
                continue;
            }
            if let Some(j) = model.fields.iter().position(|field| field.reads(key)) {
                taken.set(i);
                if given.get(j) {
                    let field = &model.fields[j];
                    let first = members
                        .keys()
                        .find(|k| field.reads(k))
                        .map_or("", String::as_str);
                    out.push(two_names(path, first, key));
                } else {
                    given.set(j);
                }
                self.at(
                    (model.fields[j].node)(),
                    member,
                    &path.key(key),
                    depth + 1,
                    out,
                );
            }
        }
        // Once a flattened field of unknown shape (an enum, a type without
        // a model) had its pick, which members are left is not known.
        let mut known = true;
        for field in model.fields.iter().filter(|f| f.flatten && !f.skipped) {
            match (field.node)().resolve() {
                // A struct that flattens fields of its own is read as a map
                // (serde's derive asks `deserialize_map` of it), which takes
                // nothing from the members handed out: a later field still
                // gets its members.
                Node::Struct(inner) if has_flattened(inner) => {
                    let mut seen = taken.clone();
                    self.fields(inner, members, &mut seen, path, depth, out);
                }
                Node::Struct(inner) => self.fields(inner, members, taken, path, depth, out),
                Node::Map(entry) if known => {
                    for (i, (key, member)) in members.iter().enumerate() {
                        if taken.get(i) {
                            continue;
                        }
                        // The rules of the entries' model first (a fraction
                        // is named as one); past them, what the map cannot
                        // take at all.
                        let at = path.key(key);
                        let before = out.len();
                        self.at(entry(), member, &at, depth + 1, out);
                        if out.len() == before && refuses(entry(), member, 0) {
                            out.push(read_by_map(&at, field, entry(), member));
                        }
                    }
                }
                // A flattened `Option` is read whole or not at all (the
                // schema says so, `crate::validate::flattened_wholes`): its members are
                // its own, checked there, and no later map's.
                Node::Option(inner) => match inner().resolve() {
                    Node::Struct(inner) => take(inner, members, taken),
                    _ => known = false,
                },
                _ => known = false,
            }
        }
    }
}

/// Whether a struct flattens a field of its own.
fn has_flattened(model: &StructModel) -> bool {
    model.fields.iter().any(|f| f.flatten && !f.skipped)
}

/// The entries' node of a flattened map field that can refuse a member
/// (not a map of free-form values).
fn flattened_entries(field: &FieldModel) -> Option<&'static Node> {
    match (field.node)().resolve() {
        Node::Map(entry) if field.flatten && !field.skipped => {
            Some(entry()).filter(|e| !matches!(e.resolve(), Node::FreeForm | Node::Unknown))
        }
        _ => None,
    }
}

/// Marks the members a flattened struct's fields read as taken, unchecked
/// (none when the struct is read as a map: [`has_flattened`]).
fn take(model: &StructModel, members: &Map<String, Value>, taken: &mut Marks) {
    if has_flattened(model) {
        return;
    }
    for (i, key) in members.keys().enumerate() {
        if !taken.get(i) && model.fields.iter().any(|field| field.reads(key)) {
            taken.set(i);
        }
    }
}

/// How deep [`refuses`] looks into a value before it stops judging (and
/// says "not certainly refused").
const REFUSES_DEPTH: usize = 32;

/// Whether serde certainly refuses `value` read as `node`: the wrong kind
/// of JSON, an integer with a fraction or out of the type's range. Only
/// what the model states is judged; anything else (an enum, a struct's
/// members, a value without a model) is taken as read.
fn refuses(node: &Node, value: &Value, depth: usize) -> bool {
    if depth > REFUSES_DEPTH {
        return false;
    }
    match (node.resolve(), value) {
        (Node::Integer { min, max }, Value::Number(number)) => {
            match (number.as_u64(), number.as_i64()) {
                (Some(n), _) => n > *max,
                (None, Some(n)) => n < *min,
                (None, None) => true,
            }
        }
        (Node::WideInteger, Value::Number(_)) => false,
        (Node::Scalar(Scalar::Bool), Value::Bool(_))
        | (Node::Scalar(Scalar::Float), Value::Number(_))
        | (Node::Scalar(Scalar::Text), Value::String(_))
        | (Node::Scalar(Scalar::Unit), Value::Null) => false,
        (Node::Scalar(Scalar::Char), Value::String(text)) => text.chars().count() != 1,
        (Node::Option(_), Value::Null) => false,
        (Node::Option(inner), value) => refuses(inner(), value, depth),
        (Node::Seq(item), Value::Array(items)) => {
            items.iter().any(|value| refuses(item(), value, depth + 1))
        }
        (Node::Map(entry), Value::Object(members)) => members
            .values()
            .any(|value| refuses(entry(), value, depth + 1)),
        (Node::Tuple(nodes), Value::Array(items)) => {
            nodes.len() != items.len()
                || nodes
                    .iter()
                    .zip(items)
                    .any(|(node, item)| refuses(node(), item, depth + 1))
        }
        // serde's derive reads a struct from an array too.
        (Node::Struct(_), Value::Object(_) | Value::Array(_)) => false,
        (
            Node::Integer { .. }
            | Node::WideInteger
            | Node::Scalar(_)
            | Node::Seq(_)
            | Node::Map(_)
            | Node::Tuple(_)
            | Node::Struct(_),
            _,
        ) => true,
        _ => false,
    }
}

/// What a [`Node`] reads, in a few words, for [`refuses`]' violation.
fn expected(node: &Node) -> String {
    match node.resolve() {
        Node::Integer { min, max } => format!("an integer from {min} to {max}"),
        Node::WideInteger => "an integer".to_owned(),
        Node::Scalar(Scalar::Bool) => "a boolean".to_owned(),
        Node::Scalar(Scalar::Float) => "a number".to_owned(),
        Node::Scalar(Scalar::Char) => "a string of one character".to_owned(),
        Node::Scalar(Scalar::Unit) => "null".to_owned(),
        Node::Scalar(_) => "a string".to_owned(),
        Node::Option(inner) => format!("null or {}", expected(inner())),
        Node::Seq(item) => format!("an array of entries each {}", expected(item())),
        Node::Map(entry) => format!("an object of entries each {}", expected(entry())),
        Node::Tuple(items) => format!("an array of {} items", items.len()),
        _ => "an object".to_owned(),
    }
}

/// A member the flattened map `field` reads (every member no field before
/// it took, a later field's included) and cannot take.
fn read_by_map(path: &Path<'_>, field: &FieldModel, entry: &Node, value: &Value) -> Violation {
    let expected = expected(entry);
    let found = super::describe::describe_value(value);
    Violation {
        pointer: path.to_pointer(),
        keyword: "type".to_owned(),
        message: format!(
            "expected {expected}, found {found}: the flattened map `{}` reads this member too \
             (it reads every member no field before it took)",
            field.wire
        ),
        expected,
        found,
    }
}

/// A set of indices: bits in a word for the common object of at most 64
/// members (no allocation per object checked), a vector past it.
#[derive(Clone)]
pub(crate) enum Marks {
    Word(u64),
    Many(Vec<bool>),
}

impl Marks {
    fn new(len: usize) -> Marks {
        if len <= 64 {
            Marks::Word(0)
        } else {
            Marks::Many(vec![false; len])
        }
    }

    fn get(&self, i: usize) -> bool {
        match self {
            Marks::Word(bits) => bits & (1 << i) != 0,
            Marks::Many(marks) => marks[i],
        }
    }

    fn set(&mut self, i: usize) {
        match self {
            Marks::Word(bits) => *bits |= 1 << i,
            Marks::Many(marks) => marks[i] = true,
        }
    }
}

/// A field sent under two of its names (its wire name and an alias), as
/// the schema's `not` of the pair words it where it can say it.
fn two_names(path: &Path<'_>, first: &str, second: &str) -> Violation {
    Violation {
        pointer: path.key(second).to_pointer(),
        keyword: "not".to_owned(),
        expected: format!("one of `{first}` and `{second}` (two names of one field)"),
        found: format!("field `{second}` beside `{first}`"),
        message: format!("`{first}` and `{second}` are two names of one field: send one of them"),
    }
}

fn fraction(path: &Path<'_>, value: &Value) -> Violation {
    let expected = "an integer written without a fraction or an exponent".to_owned();
    let found = format!("number {value}");
    Violation {
        pointer: path.to_pointer(),
        keyword: "type".to_owned(),
        message: format!("expected {expected}, found {found}"),
        expected,
        found,
    }
}

/// Pushes a violation for each pointer of `repeated` (members whose key an
/// earlier member of the same object has, [`crate::repeated_keys`]) where
/// `node` says serde's derive refuses that key twice (`duplicate field`): a
/// struct's field, a tagged enum's tag or content, an internally tagged
/// variant's field, any second key of an externally tagged enum's object.
/// Anywhere else (a map, a value without a model) the last one is kept, as
/// serde_json keeps it. `value` is the call's value, which says the variant
/// each tagged enum on the way takes.
pub(crate) fn repeats(node: &Node, value: &Value, repeated: &[String], out: &mut Vec<Violation>) {
    for pointer in repeated {
        let Ok(parsed) = crate::path::Pointer::parse(pointer) else {
            continue;
        };
        let tokens = parsed.tokens();
        let Some((key, parents)) = tokens.split_last() else {
            continue;
        };
        let refused = parents
            .iter()
            .try_fold((*node, value), |(node, value), token| {
                member(&node, value, token)
            })
            .is_some_and(|(parent, value)| refuses_repeat(&parent, value, key));
        if refused && !out.iter().any(|v| v.pointer == *pointer) {
            let expected = "each field once".to_owned();
            let found = format!("field `{key}` sent more than once");
            out.push(Violation {
                pointer: pointer.clone(),
                keyword: "repeatedKey".to_owned(),
                message: format!("field `{key}` is sent more than once: send it once"),
                expected,
                found,
            });
        }
    }
}

/// Whether serde's derive refuses key `key` sent twice in the object
/// `value` read as `node`.
fn refuses_repeat(node: &Node, value: &Value, key: &str) -> bool {
    match unwrap_options(node) {
        Node::Struct(model) => struct_reads(model, key),
        Node::Enum(model) => match model.tagging {
            // The object names one variant: a second key is refused
            // whichever it is.
            Tagging::External => true,
            Tagging::Internal { tag } => {
                key == tag
                    || match tagged_variant(model, value, tag).map(|v| &v.content) {
                        Some(VariantContent::Struct(fields)) => struct_reads(fields, key),
                        Some(VariantContent::Newtype(inner)) => refuses_repeat(inner(), value, key),
                        _ => false,
                    }
            }
            Tagging::Adjacent { tag, content } => key == tag || key == content,
        },
        _ => false,
    }
}

/// The node through `Option`s and transparent wrappers.
fn unwrap_options(node: &Node) -> &Node {
    let mut node = node.resolve();
    while let Node::Option(inner) = node {
        node = inner().resolve();
    }
    node
}

/// The node and value of member `token` of `value`, read as `node`.
fn member<'v>(node: &Node, value: &'v Value, token: &str) -> Option<(Node, &'v Value)> {
    let child = match value {
        Value::Object(members) => members.get(token)?,
        Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
        _ => return None,
    };
    let node = match unwrap_options(node) {
        Node::Seq(item) => *item(),
        Node::Map(entry) => *entry(),
        Node::Tuple(items) => *items.get(token.parse::<usize>().ok()?)?(),
        Node::Struct(model) => *struct_member(model, token)?,
        Node::Enum(model) => variant_member(model, value, token)?,
        _ => return None,
    };
    Some((node, child))
}

/// The node of member `token` of a tagged enum's object `value`: the
/// content of the variant it names (external), its tag's variant's field
/// (internal), or its content (adjacent).
fn variant_member(model: &EnumModel, value: &Value, token: &str) -> Option<Node> {
    let content = |variant: &VariantModel| match &variant.content {
        VariantContent::Unit => None,
        VariantContent::Newtype(inner) => Some(*inner()),
        VariantContent::Tuple(items) => Some(Node::Tuple(items)),
        VariantContent::Struct(fields) => Some(Node::Struct(fields)),
    };
    match model.tagging {
        Tagging::External => content(model.variants.iter().find(|v| v.named(token))?),
        Tagging::Internal { tag } if token != tag => {
            match &tagged_variant(model, value, tag)?.content {
                VariantContent::Struct(fields) => struct_member(fields, token).copied(),
                VariantContent::Newtype(inner) => member(inner(), value, token).map(|(n, _)| n),
                _ => None,
            }
        }
        Tagging::Adjacent { tag, content: key } if token == key => {
            content(tagged_variant(model, value, tag)?)
        }
        _ => None,
    }
}

/// The variant the tag member `tag` of `value` names.
fn tagged_variant<'m>(model: &'m EnumModel, value: &Value, tag: &str) -> Option<&'m VariantModel> {
    let name = value.get(tag)?.as_str()?;
    model.variants.iter().find(|v| v.named(name))
}

/// The node a struct reads member `key` as: its own field's, a flattened
/// struct's field's, or a flattened map's entries'.
fn struct_member(model: &StructModel, key: &str) -> Option<&'static Node> {
    if let Some(field) = model.fields.iter().find(|f| f.reads(key)) {
        return Some((field.node)());
    }
    model
        .fields
        .iter()
        .filter(|f| f.flatten && !f.skipped)
        .find_map(|field| match (field.node)().resolve() {
            Node::Struct(inner) => struct_member(inner, key),
            Node::Map(entry) => Some(entry()),
            _ => None,
        })
}

/// Whether a struct (or a struct it flattens) has a field read from `key`.
fn struct_reads(model: &StructModel, key: &str) -> bool {
    model.fields.iter().any(|f| f.reads(key))
        || model
            .fields
            .iter()
            .filter(|f| f.flatten && !f.skipped)
            .any(|field| matches!((field.node)().resolve(), Node::Struct(inner) if struct_reads(inner, key)))
}

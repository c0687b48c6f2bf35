//! Locations in a plan, and the member lookups that walk an argument value
//! through them.
//!
//! A [`Loc`] is the schema at one place in the arguments: usually a single
//! node, sometimes a conjunction (`allOf`, `$ref` beside other keywords) or a
//! union (`anyOf`/`oneOf` branches). Before looking up the members of a value,
//! the location is [bound](SchemaPlan::bind) to it: unions keep only the
//! branches that apply to that value, so a tagged union's `kind: "b"` selects
//! branch `b`'s members. Simple schemas (what schemars emits for structs,
//! options and vectors) bind and look up without allocating.

use super::types::json_eq;
use super::{JsonType, Node, NodeId, SchemaPlan, Sub, TypeSet};
use serde_json::{Map, Value};

/// How many nodes one bind or applicability check may visit before it stops
/// narrowing (and so declares less, never more). Real schemas stay far below;
/// the cap keeps pathological `$ref` graphs linear.
const VISIT_BUDGET: usize = 4096;

/// The schema at one location of the arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loc {
    /// Constrains nothing (`true`, `{}`, or no schema for this member).
    Any,
    /// Forbids everything (`false`, `additionalProperties: false`).
    Never,
    /// One compiled subschema.
    Node(u32),
    /// One compiled subschema that came from a union branch: like
    /// [`Loc::AnyOf`] with a single part, it applies to a value only if its
    /// declared types and tags admit that value.
    Branch(u32),
    /// Every one of these applies.
    All(Vec<Loc>),
    /// One of these applies (what the branches of a union that applied to
    /// the parent say about this member). Each level keeps only the parts
    /// that apply to the value found there.
    AnyOf(Vec<Loc>),
}

impl From<Sub> for Loc {
    fn from(sub: Sub) -> Loc {
        match sub {
            Sub::Any => Loc::Any,
            Sub::Never => Loc::Never,
            Sub::Node(id) => Loc::Node(id),
        }
    }
}

/// A location bound to the value found there: its unions resolved to the
/// branches that apply, its `$ref`s and `allOf`s flattened into the nodes
/// whose `properties`/`items` rules answer member lookups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Every member constrains nothing.
    Any,
    /// Every member is forbidden.
    Never,
    /// The member rules of one node.
    Rules(u32),
    /// The member rules of one node reached through a union branch: its
    /// members stay union parts ([`Loc::Branch`]).
    BranchRules(u32),
    /// All of these apply.
    All(Vec<Bound>),
    /// One of these applies.
    AnyOf(Vec<Bound>),
    /// An object closed by `unevaluatedProperties: false` (how a composed
    /// object is closed where it is used): a member that no part of it
    /// mentions is forbidden.
    Closed(Box<Bound>),
}

/// Builds a conjunction, allocating only once two parts constrain something.
struct Conj<T> {
    never: bool,
    parts: Option<T>,
}

/// Builds a union, allocating only once two parts apply (a single part is
/// marked as a union of one, without allocating for a plain node).
///
/// A part that constrains nothing makes the union constrain nothing, but in
/// a plan with verbatim marks it is kept as a part (`keeps_any`): the other
/// parts still say where a mark applies. An enum flattened as an `Option`
/// is a union beside `{}`, and its variants' verbatim fields are marked.
struct Disj<T> {
    any: bool,
    keeps_any: bool,
    parts: Option<T>,
    built: bool,
}

trait Combine: Sized {
    const ANY: Self;
    const NEVER: Self;
    fn is_any(&self) -> bool;
    fn is_never(&self) -> bool;
    fn all(parts: Vec<Self>) -> Self;
    fn any_of(parts: Vec<Self>) -> Self;
    fn as_all(&mut self) -> Option<&mut Vec<Self>>;
    fn as_any_of(&mut self) -> Option<&mut Vec<Self>>;
    /// A union of this one part.
    fn single_branch(self) -> Self;
}

macro_rules! combine {
    ($ty:ident, $all:ident, $any_of:ident, $one:ident, $branch:ident) => {
        impl Combine for $ty {
            const ANY: Self = $ty::Any;
            const NEVER: Self = $ty::Never;
            fn is_any(&self) -> bool {
                matches!(self, $ty::Any)
            }
            fn is_never(&self) -> bool {
                matches!(self, $ty::Never)
            }
            fn all(parts: Vec<Self>) -> Self {
                $ty::$all(parts)
            }
            fn any_of(parts: Vec<Self>) -> Self {
                $ty::$any_of(parts)
            }
            fn as_all(&mut self) -> Option<&mut Vec<Self>> {
                match self {
                    $ty::$all(parts) => Some(parts),
                    _ => None,
                }
            }
            fn as_any_of(&mut self) -> Option<&mut Vec<Self>> {
                match self {
                    $ty::$any_of(parts) => Some(parts),
                    _ => None,
                }
            }
            fn single_branch(self) -> Self {
                $ty::single_branch_of(self)
            }
        }
    };
}
combine!(Loc, All, AnyOf, Node, Branch);
combine!(Bound, All, AnyOf, Rules, BranchRules);

impl Loc {
    fn single_branch_of(loc: Loc) -> Loc {
        match loc {
            Loc::Node(id) => Loc::Branch(id),
            part @ Loc::All(_) => Loc::AnyOf(vec![part]),
            other => other,
        }
    }
}

impl Bound {
    fn single_branch_of(bound: Bound) -> Bound {
        match bound {
            Bound::Rules(id) => Bound::BranchRules(id),
            part @ Bound::All(_) => Bound::AnyOf(vec![part]),
            Bound::Closed(inner) => Bound::Closed(Box::new(Bound::single_branch_of(*inner))),
            other => other,
        }
    }

    /// Closes `inner` against members none of its parts mention; a bound
    /// that constrains nothing stays as it is (it cannot tell which members
    /// its parts would have evaluated).
    fn closed(inner: Bound) -> Bound {
        match inner {
            Bound::Any | Bound::Never => inner,
            inner => Bound::Closed(Box::new(inner)),
        }
    }
}

impl<T: Combine> Conj<T> {
    fn new() -> Self {
        Conj {
            never: false,
            parts: None,
        }
    }

    fn and(&mut self, part: T) {
        if self.never || part.is_any() {
            return;
        }
        if part.is_never() {
            self.never = true;
            self.parts = None;
            return;
        }
        self.parts = Some(match self.parts.take() {
            None => part,
            Some(mut all) => match all.as_all() {
                Some(parts) => {
                    parts.push(part);
                    all
                }
                None => T::all(vec![all, part]),
            },
        });
    }

    fn finish(self) -> T {
        if self.never {
            T::NEVER
        } else {
            self.parts.unwrap_or(T::ANY)
        }
    }
}

impl<T: Combine> Disj<T> {
    fn new(keeps_any: bool) -> Self {
        Disj {
            any: false,
            keeps_any,
            parts: None,
            built: false,
        }
    }

    fn or(&mut self, part: T) {
        if self.any || part.is_never() {
            return;
        }
        if part.is_any() && !self.keeps_any {
            self.any = true;
            self.parts = None;
            return;
        }
        self.parts = Some(match self.parts.take() {
            None => part,
            Some(mut union) => match union.as_any_of() {
                Some(parts) if self.built => {
                    parts.push(part);
                    union
                }
                _ => {
                    self.built = true;
                    T::any_of(vec![union, part])
                }
            },
        });
    }

    fn finish(self) -> T {
        match (self.any, self.parts) {
            (true, _) => T::ANY,
            (false, None) => T::NEVER,
            (false, Some(union)) if self.built => union,
            (false, Some(part)) => part.single_branch(),
        }
    }
}

/// How deep `$ref`/`allOf`/union edges may nest at one location before a
/// walk stops following them.
const PATH_DEPTH: usize = 64;

/// The nodes on the current path of a walk through `$ref`/`allOf`/union
/// edges (to stop at cycles), plus a budget on the whole walk. Kept inline so
/// that binding allocates nothing.
struct Walk {
    path: [NodeId; PATH_DEPTH],
    depth: usize,
    budget: usize,
}

impl Walk {
    fn new() -> Self {
        Walk {
            path: [0; PATH_DEPTH],
            depth: 0,
            budget: VISIT_BUDGET,
        }
    }

    /// Enters `id` unless it is already on the path, the path is too deep,
    /// or the budget is spent.
    fn enter(&mut self, id: NodeId) -> bool {
        if self.budget == 0 || self.depth == PATH_DEPTH || self.path[..self.depth].contains(&id) {
            return false;
        }
        self.budget -= 1;
        self.path[self.depth] = id;
        self.depth += 1;
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }
}

impl SchemaPlan {
    /// The location of the whole arguments value.
    pub fn root(&self) -> Loc {
        self.root.into()
    }

    /// The types a location declares (see [`TypeSet::wants_json`] for what
    /// normalization does with them).
    pub fn declared(&self, loc: &Loc) -> TypeSet {
        match loc {
            Loc::Any => TypeSet::ALL,
            Loc::Never => TypeSet::EMPTY,
            Loc::Node(id) | Loc::Branch(id) => self.node(*id).types,
            Loc::All(parts) => parts
                .iter()
                .fold(TypeSet::ALL, |acc, part| acc.intersect(self.declared(part))),
            Loc::AnyOf(parts) => parts
                .iter()
                .fold(TypeSet::EMPTY, |acc, part| acc.union(self.declared(part))),
        }
    }

    /// Binds a location to the array or object found there, resolving every
    /// union to the branches that apply to it.
    pub fn bind(&self, loc: &Loc, value: &Value) -> Bound {
        // The common case (a struct's or a vector's schema): one node with no
        // `$ref`, `allOf` or union to resolve.
        if let Loc::Node(id) = loc {
            let node = self.node(*id);
            if node.conjuncts.is_empty() && node.unions.is_empty() && !node.closes_unevaluated {
                return if Self::has_rules(node, value) {
                    Bound::Rules(*id)
                } else {
                    Bound::Any
                };
            }
        }
        self.bind_in(loc, value, &mut Walk::new())
    }

    /// Whether [`bind`](Self::bind) at `loc` depends on nothing but the
    /// value's shape (object or array): no union branch there, through
    /// `$ref`, `allOf`, `anyOf` and `oneOf`, is picked by a tag property or
    /// an externally tagged variant's key. Then the empty container binds
    /// as the complete one will, and members can be normalized one by one
    /// as they arrive. `false` when the walk is too long to tell.
    pub(crate) fn binds_by_shape(&self, loc: &Loc) -> bool {
        self.branches_all(loc, &|node| {
            node.tags.is_empty() && node.variant_key.is_none()
        })
    }

    /// Binds an object at `loc` by its shape and its member `key` (a tag)
    /// alone, when no union branch there is picked by anything but tags
    /// (`const`/`enum` members, no externally tagged variant's key): then
    /// an object holding only that member binds as the complete object
    /// will, as long as each of the other tags it holds agrees with this
    /// binding (see [`SchemaPlan::bind_agrees`]). The other tags' names
    /// come with it (`mode` of `Scan { mode: Mode, .. }`), sorted.
    pub(crate) fn bind_by_tag(
        &self,
        loc: &Loc,
        key: &str,
        tag: &Value,
    ) -> Option<(Bound, Vec<Box<str>>)> {
        let is_tag = |name: &str| name == key;
        let others = std::cell::RefCell::new(Vec::<Box<str>>::new());
        let by_tag = self.branches_all(loc, &|node| {
            let mut others = others.borrow_mut();
            for (name, _) in &node.tags {
                if !is_tag(name) && !others.contains(name) {
                    others.push(name.clone());
                }
            }
            node.variant_key.as_deref().is_none_or(is_tag)
        });
        let mut others = others.into_inner();
        others.sort_unstable();
        by_tag.then(|| (self.bind_holding(loc, key, tag.clone()), others))
    }

    /// Whether an object at `loc` holding its tag `key` as `tag` and its
    /// member `name` as `value` (another tag, see
    /// [`SchemaPlan::bind_by_tag`]) binds as one holding the tag alone
    /// (`bound`): the member agrees with the branch the tag picked.
    pub(crate) fn bind_agrees(
        &self,
        loc: &Loc,
        (key, tag): (&str, &Value),
        (name, value): (&str, &Value),
        bound: &Bound,
    ) -> bool {
        let mut object = Map::new();
        object.insert(key.to_owned(), tag.clone());
        object.insert(name.to_owned(), value.clone());
        self.bind(loc, &Value::Object(object)) == *bound
    }

    /// Binds an object at `loc` holding member `key` alone, when no union
    /// branch there is picked by a tag's value (only by which members are
    /// present): then it binds as the complete object will while that is
    /// its only member.
    pub(crate) fn bind_by_key(&self, loc: &Loc, key: &str) -> Option<Bound> {
        let by_key = self.branches_all(loc, &|node| node.tags.is_empty());
        by_key.then(|| self.bind_holding(loc, key, Value::Null))
    }

    fn bind_holding(&self, loc: &Loc, key: &str, value: Value) -> Bound {
        let mut object = Map::new();
        object.insert(key.to_owned(), value);
        self.bind(loc, &Value::Object(object))
    }

    /// Whether `ok` holds for every node at `loc` that applies only where
    /// its tags agree (a union's branch, or part of one), through `$ref`,
    /// `allOf`, `anyOf` and `oneOf`. `false` when the walk is too long to
    /// tell.
    fn branches_all(&self, loc: &Loc, ok: &dyn Fn(&Node) -> bool) -> bool {
        let mut seen = Vec::new();
        self.loc_branches_all(loc, false, ok, &mut seen)
    }

    /// `branch`: `loc` is, or is part of, a union's branch.
    fn loc_branches_all(
        &self,
        loc: &Loc,
        branch: bool,
        ok: &dyn Fn(&Node) -> bool,
        seen: &mut Vec<(NodeId, bool)>,
    ) -> bool {
        match loc {
            Loc::Any | Loc::Never => true,
            Loc::Node(id) => self.node_branches_all(*id, branch, ok, seen),
            Loc::Branch(id) => self.node_branches_all(*id, true, ok, seen),
            Loc::All(parts) => parts
                .iter()
                .all(|part| self.loc_branches_all(part, branch, ok, seen)),
            Loc::AnyOf(parts) => parts
                .iter()
                .all(|part| self.loc_branches_all(part, true, ok, seen)),
        }
    }

    fn node_branches_all(
        &self,
        id: NodeId,
        branch: bool,
        ok: &dyn Fn(&Node) -> bool,
        seen: &mut Vec<(NodeId, bool)>,
    ) -> bool {
        if seen.contains(&(id, branch)) {
            return true;
        }
        if seen.len() == PATH_DEPTH {
            return false;
        }
        seen.push((id, branch));
        let node = self.node(id);
        let by_sub = |sub: &Sub, branch: bool, seen: &mut Vec<(NodeId, bool)>| match sub {
            Sub::Node(child) => self.node_branches_all(*child, branch, ok, seen),
            Sub::Any | Sub::Never => true,
        };
        (!branch || ok(node))
            && node.conjuncts.iter().all(|sub| by_sub(sub, branch, seen))
            && node
                .unions
                .iter()
                .flatten()
                .all(|sub| by_sub(sub, true, seen))
    }

    fn has_rules(node: &Node, value: &Value) -> bool {
        match value {
            Value::Object(_) => node.object.is_some(),
            Value::Array(_) => node.array.is_some(),
            _ => false,
        }
    }

    fn bind_in(&self, loc: &Loc, value: &Value, walk: &mut Walk) -> Bound {
        match loc {
            Loc::Any => Bound::Any,
            Loc::Never => Bound::Never,
            Loc::Node(id) => {
                let mut conj = Conj::new();
                self.bind_node(*id, value, walk, &mut conj);
                conj.finish()
            }
            Loc::Branch(id) => {
                let mut disj = Disj::new(self.has_verbatim);
                let node = Loc::Node(*id);
                if self.applies(&node, value, walk) {
                    disj.or(self.bind_in(&node, value, walk));
                }
                disj.finish()
            }
            Loc::All(parts) => {
                let mut conj = Conj::new();
                for part in parts {
                    conj.and(self.bind_in(part, value, walk));
                }
                conj.finish()
            }
            Loc::AnyOf(parts) => {
                let mut disj = Disj::new(self.has_verbatim);
                for part in parts {
                    if self.applies(part, value, walk) {
                        disj.or(self.bind_in(part, value, walk));
                    }
                }
                disj.finish()
            }
        }
    }

    fn bind_node(&self, id: NodeId, value: &Value, walk: &mut Walk, conj: &mut Conj<Bound>) {
        let node = self.node(id);
        if node.closes_unevaluated && value.is_object() {
            // The members this node's parts evaluate are its own scope.
            let mut own = Conj::new();
            self.bind_node_parts(id, value, walk, &mut own);
            conj.and(Bound::closed(own.finish()));
        } else {
            self.bind_node_parts(id, value, walk, conj);
        }
    }

    fn bind_node_parts(&self, id: NodeId, value: &Value, walk: &mut Walk, conj: &mut Conj<Bound>) {
        if !walk.enter(id) {
            return;
        }
        let node = self.node(id);
        if Self::has_rules(node, value) {
            conj.and(Bound::Rules(id));
        }
        for sub in &node.conjuncts {
            match sub {
                Sub::Node(child) => self.bind_node(*child, value, walk, conj),
                other => conj.and(self.bind_in(&Loc::from(*other), value, walk)),
            }
        }
        for group in &node.unions {
            let mut disj = Disj::new(self.has_verbatim);
            for sub in group {
                let branch = Loc::from(*sub);
                if self.applies(&branch, value, walk) {
                    disj.or(self.bind_in(&branch, value, walk));
                }
            }
            conj.and(disj.finish());
        }
        walk.leave();
    }

    /// Whether a union branch applies to a value: its declared types admit
    /// the value's shape and, for an object, none of its tag properties
    /// (`const`/`enum`) is contradicted by the object, and the member an
    /// externally tagged variant is named by is there.
    fn applies(&self, loc: &Loc, value: &Value, walk: &mut Walk) -> bool {
        if !self.declared(loc).contains(JsonType::of(value)) {
            return false;
        }
        match value {
            Value::Object(object) => self.tags_agree(loc, object, walk),
            _ => true,
        }
    }

    fn tags_agree(&self, loc: &Loc, object: &Map<String, Value>, walk: &mut Walk) -> bool {
        match loc {
            Loc::Any | Loc::Never => true,
            Loc::Node(id) | Loc::Branch(id) => self.node_tags_agree(*id, object, walk),
            Loc::All(parts) => parts.iter().all(|p| self.tags_agree(p, object, walk)),
            Loc::AnyOf(parts) => parts.iter().any(|p| self.tags_agree(p, object, walk)),
        }
    }

    fn node_tags_agree(&self, id: NodeId, object: &Map<String, Value>, walk: &mut Walk) -> bool {
        if !walk.enter(id) {
            return true;
        }
        let node: &Node = self.node(id);
        let keyed = node
            .variant_key
            .as_deref()
            .is_none_or(|key| object.contains_key(key));
        let own = keyed
            && node
                .tags
                .iter()
                .all(|(name, carrier)| match object.get(&**name) {
                    None => true,
                    Some(found) => self
                        .node(*carrier)
                        .allowed
                        .as_ref()
                        .is_none_or(|allowed| allowed.iter().any(|v| json_eq(v, found))),
                });
        let agree = own
            && node.conjuncts.iter().all(|sub| match sub {
                Sub::Node(child) => self.node_tags_agree(*child, object, walk),
                _ => true,
            });
        walk.leave();
        agree
    }

    /// Whether a location is *verbatim* for the value found there: its
    /// schema carries [`VERBATIM_KEYWORD`](super::VERBATIM_KEYWORD) itself,
    /// through `$ref`/`allOf`, or through an `anyOf`/`oneOf` branch that
    /// applies to `value`. Strings at a verbatim location, and everything
    /// below it, are not entity-decoded; pass the value as it will be walked
    /// (after any JSON-string decoding), since branches apply by shape.
    ///
    /// A plan whose schema has no mark answers `false` at once; a location
    /// that cannot reach a mark does too. Nothing allocates.
    pub fn verbatim(&self, loc: &Loc, value: &Value) -> bool {
        if !self.has_verbatim {
            return false;
        }
        if self.verbatim_in(loc, value, &mut Walk::new()) {
            return true;
        }
        // A declared literal holding `&`, sent exactly, is kept: decoding
        // it would make it impossible to send. Unless the location also
        // takes a string of any content (an untagged enum's `String`
        // variant), which RT-TOOL-8 decodes as ever.
        self.has_literals
            && value.is_string()
            && self.literal_in(loc, value, &mut Walk::new())
            && !self.free_string_in(loc, &mut Walk::new())
    }

    /// Whether a node at `loc` (through `$ref`, `allOf` and every union
    /// branch) declares the string `value` as a literal holding `&`.
    fn literal_in(&self, loc: &Loc, value: &Value, walk: &mut Walk) -> bool {
        self.any_node(loc, false, walk, &mut |node| {
            node.verbatim_literals && node.allowed.iter().flatten().any(|a| a == value)
        })
    }

    /// Whether a node at `loc` takes a string of any content: it says
    /// `string` with no `const`/`enum`, or says nothing at all.
    fn free_string_in(&self, loc: &Loc, walk: &mut Walk) -> bool {
        self.any_node(loc, true, walk, &mut |node| {
            node.allowed.is_none()
                && node.own_types.contains(JsonType::String)
                && (node.own_types != TypeSet::ALL
                    || (node.conjuncts.is_empty() && node.unions.is_empty()))
        })
    }

    /// Whether `hit` holds for a node at `loc`, through `$ref`/`allOf` and
    /// every branch of a union (within the walk's budget); `any` answers
    /// for `true` (any value).
    fn any_node(
        &self,
        loc: &Loc,
        any: bool,
        walk: &mut Walk,
        hit: &mut dyn FnMut(&Node) -> bool,
    ) -> bool {
        match loc {
            Loc::Any => any,
            Loc::Never => false,
            Loc::Node(id) | Loc::Branch(id) => self.node_any(*id, any, walk, hit),
            Loc::All(parts) | Loc::AnyOf(parts) => {
                parts.iter().any(|p| self.any_node(p, any, walk, hit))
            }
        }
    }

    fn node_any(
        &self,
        id: NodeId,
        any: bool,
        walk: &mut Walk,
        hit: &mut dyn FnMut(&Node) -> bool,
    ) -> bool {
        let node = self.node(id);
        if hit(node) {
            return true;
        }
        if !walk.enter(id) {
            return false;
        }
        let found = node
            .conjuncts
            .iter()
            .chain(node.unions.iter().flatten())
            .any(|&sub| self.any_node(&Loc::from(sub), any, walk, hit));
        walk.leave();
        found
    }

    fn verbatim_in(&self, loc: &Loc, value: &Value, walk: &mut Walk) -> bool {
        match loc {
            Loc::Any | Loc::Never => false,
            Loc::Node(id) => self.node_verbatim(*id, value, walk),
            Loc::Branch(id) => {
                self.node(*id).maybe_verbatim
                    && self.applies(loc, value, walk)
                    && self.node_verbatim(*id, value, walk)
            }
            Loc::All(parts) => parts.iter().any(|p| self.verbatim_in(p, value, walk)),
            Loc::AnyOf(parts) => parts
                .iter()
                .any(|p| self.applies(p, value, walk) && self.verbatim_in(p, value, walk)),
        }
    }

    fn node_verbatim(&self, id: NodeId, value: &Value, walk: &mut Walk) -> bool {
        let node = self.node(id);
        if !node.maybe_verbatim {
            return false;
        }
        if node.own_verbatim {
            return true;
        }
        if !walk.enter(id) {
            return false;
        }
        let found = node.conjuncts.iter().any(|sub| match sub {
            Sub::Node(child) => self.node_verbatim(*child, value, walk),
            _ => false,
        }) || node.unions.iter().flatten().any(|sub| {
            let branch = Loc::from(*sub);
            self.applies(&branch, value, walk) && self.verbatim_in(&branch, value, walk)
        });
        walk.leave();
        found
    }

    /// The schema of member `name` of the object a location was bound to.
    pub fn member(&self, bound: &Bound, name: &str) -> Loc {
        match bound {
            Bound::Any => Loc::Any,
            Bound::Never => Loc::Never,
            Bound::Rules(id) => self.own_member(*id, name),
            Bound::BranchRules(id) => self.own_member(*id, name).single_branch(),
            Bound::Closed(inner) if !self.mentions(inner, name) => Loc::Never,
            Bound::Closed(inner) => self.member(inner, name),
            Bound::All(parts) => {
                let mut conj = Conj::new();
                for part in parts {
                    conj.and(self.member(part, name));
                }
                conj.finish()
            }
            Bound::AnyOf(parts) => {
                let mut disj = Disj::new(self.has_verbatim);
                for part in parts {
                    disj.or(self.member(part, name));
                }
                disj.finish()
            }
        }
    }

    /// Whether some part of `bound` evaluates member `name` (declares it in
    /// `properties`, matches it with `patternProperties`, or has
    /// `additionalProperties`), as `unevaluatedProperties` counts them.
    fn mentions(&self, bound: &Bound, name: &str) -> bool {
        match bound {
            Bound::Any | Bound::Never => false,
            Bound::Rules(id) | Bound::BranchRules(id) => {
                self.node(*id).object.as_ref().is_some_and(|rules| {
                    rules.additional.is_some()
                        || rules.properties.get(name).is_some()
                        || rules.patterns.iter().any(|(p, _)| p.is_match(name))
                })
            }
            Bound::Closed(inner) => self.mentions(inner, name),
            Bound::All(parts) | Bound::AnyOf(parts) => {
                parts.iter().any(|part| self.mentions(part, name))
            }
        }
    }

    fn own_member(&self, id: NodeId, name: &str) -> Loc {
        let Some(rules) = &self.node(id).object else {
            return Loc::Any;
        };
        if let Some(sub) = rules.properties.get(name) {
            return sub.into();
        }
        let mut conj = Conj::new();
        let mut matched = false;
        for (pattern, sub) in &rules.patterns {
            if pattern.is_match(name) {
                matched = true;
                conj.and(Loc::from(*sub));
            }
        }
        if matched {
            return conj.finish();
        }
        rules.additional.map_or(Loc::Any, Loc::from)
    }

    fn own_item(&self, id: NodeId, index: usize) -> Loc {
        match &self.node(id).array {
            None => Loc::Any,
            Some(rules) => match rules.prefix.get(index) {
                Some(sub) => (*sub).into(),
                None => rules.rest.map_or(Loc::Any, Loc::from),
            },
        }
    }

    /// The schema of element `index` of the array a location was bound to.
    pub fn item(&self, bound: &Bound, index: usize) -> Loc {
        match bound {
            Bound::Any => Loc::Any,
            Bound::Never => Loc::Never,
            Bound::Rules(id) => self.own_item(*id, index),
            Bound::BranchRules(id) => self.own_item(*id, index).single_branch(),
            Bound::Closed(inner) => self.item(inner, index),
            Bound::All(parts) => {
                let mut conj = Conj::new();
                for part in parts {
                    conj.and(self.item(part, index));
                }
                conj.finish()
            }
            Bound::AnyOf(parts) => {
                let mut disj = Disj::new(self.has_verbatim);
                for part in parts {
                    disj.or(self.item(part, index));
                }
                disj.finish()
            }
        }
    }
}

//! What the validating schema says at a location *before* the value there
//! is complete: which subschemas apply, whether a member key is forbidden
//! whatever its value, and which subschemas a member or element gets.
//!
//! Read from the compiled schema ([`SchemaPlan`]: every `$ref` resolved,
//! each subschema a node holding what the validator makes of it, its
//! [`Early`](crate::plan::Node::early) facts among them), the way the
//! validator reads it (`properties` and `additionalProperties` per
//! subschema, `$ref` and `allOf` applying together), and conservatively: a
//! location whose schema holds anything that makes the applicable
//! subschemas depend on the value (`anyOf`, `oneOf`, `if`, `not`,
//! `dependentSchemas`, `dependentRequired`, `patternProperties`,
//! `unevaluatedItems`, dynamic references) is *open*, and nothing below it
//! is decided before its value is complete. Some unions are the exception:
//! a group whose branches only require names (how the derive declares a
//! required field's aliases) opens nothing; a union that the shape of the
//! container found there decides resolves to that branch's site
//! ([`Sites::resolved`]); a union of objects a tag member decides resolves
//! once the tag's value is known ([`Sites::by_tag`]), and one its objects'
//! single member decides, once the first key is ([`Sites::by_key`]).
//!
//! Part of the plan: built from its nodes the first time a call to its
//! schema streams ([`SchemaPlan::sites`]), and kept with them, so a stream
//! reads the same compiled schema as the normalizer and the validator's
//! plan, never a second compile of its own. [`Sites`] hold every location
//! reachable through closed sites, with its members' and elements' sites
//! looked up by name, so streaming a call costs one lookup per key. The
//! stream engine (`crate::stream`) is their only reader.

use super::node::{Node, NodeId, Sub};
use super::types::JsonType;
use serde_json::Value;
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

/// The subschemas that apply at one location, through `$ref` and `allOf`
/// (a conjunction), and what its members and elements get.
#[derive(Debug, Default)]
pub(crate) struct Site {
    /// Some part is `false`: every value here is refused.
    pub(crate) never: bool,
    /// The applicable subschemas below depend on more than this location:
    /// members and elements are not decided before the value is complete.
    pub(crate) open: bool,
    /// Some part has `anyOf`/`oneOf` (other than a group that only
    /// requires names): the normalizer's plan binds members by the whole
    /// value here too, unless its branches are told apart by shape alone.
    pub(crate) unions: bool,
    /// The site an object (`[0]`) or an array (`[1]`) found here has, when
    /// the unions are the only reason this site is open and their branches
    /// are told apart by that shape alone (see [`Sites::resolved`]).
    resolved: [Option<SiteId>; 2],
    /// Where an object's union is decided by a tag member instead: its
    /// name, and the site each of its values selects.
    tagged: Option<Tagged>,
    /// Where every object branch fixes one member to string values of its
    /// own (serde's internal and adjacent tags), whatever else the branches
    /// constrain: that member's name and every branch's values. A value
    /// outside them all fails every branch at the tag, which is where the
    /// validator reports it, whatever the other members hold.
    tag_values: Option<(Box<str>, Vec<Value>)>,
    /// Where an object's union is decided by which one member it holds
    /// instead (serde's externally tagged enums): each branch's member
    /// name, and the site with that branch.
    keyed: Option<Vec<(Box<str>, SiteId)>>,
    /// The `anyOf`/`oneOf` groups that open this site.
    groups: Vec<Vec<Sub>>,
    /// Open only because of `groups`.
    open_by_unions_only: bool,
    /// Its parts say nothing of members or elements themselves: only its
    /// unions do (an enum with data, as a branch of an `Option`).
    only_unions: bool,
    /// The `enum` lists and `const` values of the parts.
    enums: Vec<Vec<Value>>,
    consts: Vec<Value>,
    /// Some part says `"type": "integer"`: a number written with a fraction
    /// or an exponent is worded by the validator, which knows (from a
    /// derived type's model) whether serde's integer refuses `5.0` there.
    pub(crate) integer: bool,
    /// Declared members (closed sites only).
    members: Members,
    /// What an undeclared member gets.
    other: Child,
    /// What elements get, by index, then past the prefix.
    prefix: Vec<Child>,
    rest: Child,
}

/// A union of objects each branch of which fixes one member (the tag) to
/// values no other branch allows, as serde's internally and adjacently
/// tagged enums are declared; or whose one object branch constrains one
/// member to strings (`Option<Struct>` with a unit-enum field), which an
/// allowed value there settles.
#[derive(Debug)]
struct Tagged {
    key: Box<str>,
    /// Each branch's tag values, and the site with that branch.
    branches: Vec<(Vec<Value>, SiteId)>,
}

/// A schema's sites.
#[derive(Debug)]
pub(crate) struct Sites {
    sites: Vec<Site>,
}

impl Sites {
    /// Compiles every site reachable from the plan's root through closed
    /// sites.
    pub(crate) fn compile(nodes: &[Node], root: Sub) -> Self {
        let mut builder = Builder {
            nodes,
            sites: Vec::new(),
            known: HashMap::new(),
            todo: Vec::new(),
            decided: Vec::new(),
            object_unions: Vec::new(),
        };
        builder.intern(vec![root]);
        while let Some(todo) = builder.todo.pop() {
            builder.fill(todo);
        }
        builder.confirm_decided();
        for union in std::mem::take(&mut builder.object_unions) {
            builder.confirm_tag(&union);
            if union.bare {
                builder.confirm_key(&union);
            }
        }
        Sites {
            sites: builder.sites,
        }
    }

    /// The site of the whole arguments value.
    pub(crate) fn root(&self) -> SiteId {
        0
    }

    pub(crate) fn site(&self, id: SiteId) -> &Site {
        &self.sites[id as usize]
    }

    /// The site of an object (`object`) or an array found at `site`: the
    /// site itself, or, where a union is decided by that shape alone, the
    /// site with the one branch that admits it (`Option<Struct>` holding
    /// an object).
    ///
    /// Deciding the branch must not change how the whole call's violations
    /// are worded: the validator's report names the one branch of the
    /// value's shape only while no `const`/`enum` fails at the union's
    /// location or at a direct member (a tag). So a branch is taken only
    /// when every other branch refuses the shape by `type`, `const` or
    /// `enum` (the ways the report rules a branch out), and the branch
    /// itself constrains neither its own value nor a direct member's by
    /// `const`/`enum`.
    pub(crate) fn resolved(&self, site: SiteId, object: bool) -> SiteId {
        self.site(site).resolved[usize::from(!object)].unwrap_or(site)
    }

    /// The member whose value decides the union of objects at `site`, if
    /// one does (see [`Sites::by_tag`]).
    pub(crate) fn tag_key(&self, site: SiteId) -> Option<&str> {
        self.site(site).tagged.as_ref().map(|tagged| &*tagged.key)
    }

    /// Whether `value`, sent as member `key` of an object at `site`, is a
    /// tag no branch of the object's union allows: every branch then fails
    /// at the tag, and the validator reports the tag whatever follows.
    pub(crate) fn outside_every_tag(&self, site: SiteId, key: &str, value: &Value) -> bool {
        match &self.site(site).tag_values {
            Some((tag, values)) => **tag == *key && !values.contains(value),
            None => false,
        }
    }

    /// The site of an object at `site` whose tag member is `value`: the
    /// union resolved to the branch that allows it. As with
    /// [`Sites::resolved`], only where the validator's report names that
    /// branch whatever the object's other members are: every other branch
    /// refuses the tag by `const`/`enum` (or the object by `type`), and
    /// no other member tells the branches apart (see
    /// `Builder::confirm_tag`).
    pub(crate) fn by_tag(&self, site: SiteId, value: &Value) -> Option<SiteId> {
        let tagged = self.site(site).tagged.as_ref()?;
        tagged
            .branches
            .iter()
            .find(|(allowed, _)| allowed.contains(value))
            .map(|(_, id)| *id)
    }

    /// Whether the union of objects at `site` is decided by its first key
    /// (see [`Sites::by_key`]).
    pub(crate) fn keyed(&self, site: SiteId) -> bool {
        self.site(site).keyed.is_some()
    }

    /// The site of an object at `site` whose first member is `key`: the
    /// branch that declares only that member (and requires it, and allows
    /// nothing else). The validator's report names that branch while the
    /// object holds that member alone: every other branch misses the member
    /// it requires. So what is found below holds only until another key
    /// arrives in the object.
    pub(crate) fn by_key(&self, site: SiteId, key: &str) -> Option<SiteId> {
        let keyed = self.site(site).keyed.as_ref()?;
        keyed
            .iter()
            .find(|(name, _)| **name == *key)
            .map(|(_, id)| *id)
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

impl Site {
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
                comparable(value, std::slice::from_ref(expected)) && expected != value
            })
    }
}

fn comparable(value: &Value, allowed: &[Value]) -> bool {
    let plain = |v: &Value| matches!(v, Value::String(_) | Value::Bool(_) | Value::Null);
    plain(value) && allowed.iter().all(plain)
}

type Parts = Vec<Sub>;

struct Builder<'p> {
    nodes: &'p [Node],
    sites: Vec<Site>,
    /// Sites by the nodes they were built from.
    known: HashMap<Vec<usize>, SiteId>,
    todo: Vec<Todo>,
    /// Sites whose unions a shape decides, to confirm once every site is
    /// compiled: (site, shape index, the site with the branches, the
    /// branches' own sites).
    decided: Vec<(SiteId, usize, SiteId, Vec<Child>)>,
    /// Unions of several object branches a tag or a key may decide,
    /// likewise.
    object_unions: Vec<ObjectUnion>,
}

/// A union with several object branches, which a tag member or the
/// object's one key may decide.
struct ObjectUnion {
    site: SiteId,
    /// The union's own parts say nothing about members (so a key may
    /// decide it: the branch alone says which may be there).
    bare: bool,
    branches: Vec<ObjectBranch>,
}

/// A branch's direct members (by name) or elements that some `const`/`enum`
/// constrains.
type Constrained<'a> = Vec<(Option<&'a str>, Child)>;

/// A union's object branch: its own site, the site with it in place of the
/// union, and the names it requires.
type ObjectBranch = (Child, Child, Vec<Box<str>>);

/// A site to fill: its id, the nodes that apply there, and the schemas it
/// was interned from.
struct Todo {
    id: SiteId,
    parts: Vec<NodeId>,
    sources: Parts,
}

impl<'p> Builder<'p> {
    fn node(&self, id: NodeId) -> &'p Node {
        &self.nodes[id as usize]
    }

    /// The site where all of `schemas` apply (compiled later), or
    /// `Unknown` past the size bound.
    fn intern(&mut self, schemas: Parts) -> Child {
        self.intern_skipping(schemas, &[])
    }

    /// [`intern`](Self::intern), with the unions of the nodes in `skip`
    /// taken as decided (by the schemas added to theirs).
    fn intern_skipping(&mut self, schemas: Parts, skip: &[NodeId]) -> Child {
        let mut site = Site::default();
        let mut parts: Vec<NodeId> = Vec::new();
        let mut trail = Vec::new();
        for schema in &schemas {
            self.collect(*schema, &mut site, &mut parts, &mut trail, skip);
        }
        site.open_by_unions_only = !site.open && !site.groups.is_empty();
        site.open |= !site.groups.is_empty();
        let mut key: Vec<usize> = parts.iter().map(|p| *p as usize).collect();
        key.sort_unstable();
        key.push(usize::from(site.never) | usize::from(site.open) << 1);
        // The same nodes with some unions decided are another site.
        let mut skipped: Vec<usize> = skip.iter().map(|p| *p as usize).collect();
        skipped.sort_unstable();
        key.extend(skipped);
        if let Some(id) = self.known.get(&key) {
            return Child::Known(*id);
        }
        if self.sites.len() >= MAX_SITES {
            return Child::Unknown;
        }
        let id = self.sites.len() as SiteId;
        self.sites.push(site);
        self.known.insert(key, id);
        self.todo.push(Todo {
            id,
            parts,
            sources: schemas,
        });
        Child::Known(id)
    }

    fn collect(
        &self,
        schema: Sub,
        site: &mut Site,
        parts: &mut Vec<NodeId>,
        trail: &mut Vec<NodeId>,
        skip: &[NodeId],
    ) {
        let id = match schema {
            Sub::Any => return,
            Sub::Never => {
                site.never = true;
                return;
            }
            Sub::Node(id) => id,
        };
        if trail.contains(&id) {
            // A cycle of `$ref`/`allOf`: the same subschema again adds
            // nothing.
            return;
        }
        if trail.len() == MAX_LINKS {
            site.open = true;
            return;
        }
        let node = self.node(id);
        if node.early.opens {
            site.open = true;
        }
        for (group, alias) in node.unions.iter().zip(&node.early.alias_groups) {
            if *alias || skip.contains(&id) {
                continue;
            }
            site.unions = true;
            site.groups.push(group.clone());
        }
        if !parts.contains(&id) {
            parts.push(id);
        }
        trail.push(id);
        for conjunct in &node.conjuncts {
            self.collect(*conjunct, site, parts, trail, skip);
        }
        trail.pop();
    }

    /// Computes what the members and elements of a site get.
    fn fill(&mut self, todo: Todo) {
        let Todo { id, parts, sources } = todo;
        let parts = parts.as_slice();
        let mut enums = Vec::new();
        let mut consts = Vec::new();
        for part in parts {
            let early = &self.node(*part).early;
            if let Some(values) = &early.enum_values {
                enums.push(values.clone());
            }
            if let Some(value) = &early.const_value {
                consts.push(value.clone());
            }
        }
        let integer = parts.iter().any(|part| self.node(*part).early.integer);
        let only_unions = parts
            .iter()
            .all(|part| !self.node(*part).early.shapes_contents);
        let site = &mut self.sites[id as usize];
        site.enums = enums;
        site.consts = consts;
        site.integer = integer;
        site.only_unions = site.open_by_unions_only && only_unions;
        if site.open_by_unions_only {
            self.decide_unions(id, parts, &sources);
        }
        if self.sites[id as usize].open {
            return;
        }
        if parts.iter().any(|part| self.node(*part).early.patterns) {
            // `patternProperties`: which subschemas a key gets needs the
            // pattern; left undecided.
            self.sites[id as usize].other = Child::Unknown;
            self.fill_items(id, parts);
            return;
        }
        let mut members = Members::default();
        for part in parts {
            let Some(rules) = &self.node(*part).object else {
                continue;
            };
            for (name, _) in rules.properties.iter() {
                if members.contains(name) {
                    continue;
                }
                let child = self.member(parts, Some(name));
                members.insert(name, child);
            }
        }
        let other = self.member(parts, None);
        let site = &mut self.sites[id as usize];
        site.members = members;
        site.other = other;
        self.fill_items(id, parts);
    }

    /// What a member gets: `name` declared by some part, or (`None`) a name
    /// no part declares.
    fn member(&mut self, parts: &[NodeId], name: Option<&str>) -> Child {
        let mut schemas: Parts = Vec::new();
        let mut forbidden = false;
        let mut unevaluated = false;
        let mut mentioned = false;
        for part in parts {
            let node = self.node(*part);
            let rules = node.object.as_deref();
            let declared = match (name, rules) {
                (Some(name), Some(rules)) => rules.properties.get(name),
                _ => None,
            };
            if let Some(schema) = declared {
                schemas.push(schema);
                mentioned = true;
                continue;
            }
            match rules.and_then(|rules| rules.additional) {
                Some(Sub::Never) => forbidden = true,
                Some(schema) => {
                    schemas.push(schema);
                    mentioned = true;
                }
                None => {}
            }
            if node.early.unevaluated_schema {
                return Child::Unknown;
            }
            unevaluated |= node.closes_unevaluated;
        }
        if forbidden || (unevaluated && !mentioned) {
            return Child::Forbidden;
        }
        self.intern(schemas)
    }

    /// For a site open only because of unions: per shape (object, array),
    /// when every group has exactly one branch that admits it, interns the
    /// site with those branches in place of the unions, to be confirmed by
    /// [`confirm_decided`](Self::confirm_decided). Not where a part has
    /// `unevaluatedProperties`/`unevaluatedItems`: what they forbid depends
    /// on which branches the value satisfies.
    fn decide_unions(&mut self, id: SiteId, parts: &[NodeId], sources: &Parts) {
        if parts.iter().any(|p| self.node(*p).early.unevaluated) {
            return;
        }
        let groups = self.sites[id as usize].groups.clone();
        let skip: Vec<NodeId> = parts.to_vec();
        if let [group] = groups.as_slice() {
            let objects: Parts = group
                .iter()
                .copied()
                .filter(|b| self.admits(*b, JsonType::Object, 0))
                .collect();
            if objects.len() >= 2 {
                let branches: Vec<ObjectBranch> = objects
                    .into_iter()
                    .map(|branch| {
                        let own = self.intern(vec![branch]);
                        let mut schemas = sources.clone();
                        schemas.push(branch);
                        let mut required = Vec::new();
                        self.required(branch, &mut required, 0);
                        (own, self.intern_skipping(schemas, &skip), required)
                    })
                    .collect();
                let bare = parts.iter().all(|p| !self.node(*p).early.names_members);
                self.object_unions.push(ObjectUnion {
                    site: id,
                    bare,
                    branches,
                });
            }
        }
        for (index, shape) in [JsonType::Object, JsonType::Array].into_iter().enumerate() {
            let mut chosen: Parts = Vec::new();
            for group in &groups {
                let mut admitting = group.iter().filter(|b| self.admits(**b, shape, 0));
                match (admitting.next(), admitting.next()) {
                    (Some(branch), None) => chosen.push(*branch),
                    _ => break,
                }
            }
            if chosen.len() != groups.len() {
                continue;
            }
            let branches: Vec<Child> = chosen.iter().map(|b| self.intern(vec![*b])).collect();
            let mut schemas = sources.clone();
            schemas.extend(chosen);
            if let Child::Known(decided) = self.intern_skipping(schemas, &skip) {
                self.decided.push((id, index, decided, branches));
            }
        }
    }

    /// Whether a union branch can hold a container of JSON type `shape` as
    /// far as the validator's report goes: `false` only where the branch
    /// refuses it by `type`, `const` or `enum` (through `$ref` and `allOf`).
    fn admits(&self, schema: Sub, shape: JsonType, links: usize) -> bool {
        let Sub::Node(id) = schema else {
            return true;
        };
        if links == MAX_LINKS {
            return true;
        }
        let node = self.node(id);
        node.own_types.contains(shape)
            && node
                .conjuncts
                .iter()
                .all(|part| self.admits(*part, shape, links + 1))
    }

    /// Keeps a decided union only where the branch taken constrains neither
    /// its own value nor a direct member's or element's by `const`/`enum`
    /// (otherwise the validator's report may not name that branch), and the
    /// branch's site is itself decided. An object branch that constrains
    /// exactly one member, to strings, is kept as tagged by that member
    /// instead (`Option<Struct>` with a unit-enum field): once the member
    /// holds an allowed value, nothing else can make the report or the
    /// plan pass the branch over.
    fn confirm_decided(&mut self) {
        for (id, shape, decided, branches) in std::mem::take(&mut self.decided) {
            let sites = &self.sites;
            let plain = |child: &Child| match child {
                Child::Forbidden => true,
                Child::Known(c) => !sites[*c as usize].constrains_value(),
                Child::Unknown => false,
            };
            // Per branch: whether it is decided apart from its members,
            // and its direct members or elements that are not plain.
            let checked: Vec<(bool, Constrained<'_>)> = branches
                .iter()
                .map(|branch| {
                    let Child::Known(b) = branch else {
                        return (false, Vec::new());
                    };
                    let site = &sites[*b as usize];
                    let direct: Vec<(Option<&str>, Child)> = if shape == 0 {
                        site.members
                            .iter()
                            .map(|(name, child)| (Some(name), child))
                            .chain([(None, site.other)])
                            .collect()
                    } else {
                        site.prefix
                            .iter()
                            .chain([&site.rest])
                            .map(|child| (None, *child))
                            .collect()
                    };
                    // A branch that is itself a union (`Option` of an
                    // enum with data) fails as a whole, at the union's
                    // location: none of its members' errors is the
                    // branch's own, and its union is decided in turn.
                    if site.only_unions && !site.never && !site.constrains_value() {
                        return (true, Vec::new());
                    }
                    let own = !site.never && !site.open && !site.constrains_value();
                    (own, direct.into_iter().filter(|(_, c)| !plain(c)).collect())
                })
                .collect();
            if checked.iter().all(|(own, rest)| *own && rest.is_empty()) {
                self.sites[id as usize].resolved[shape] = Some(decided);
                continue;
            }
            let tag = match checked.as_slice() {
                [(true, rest)] if shape == 0 => match rest.as_slice() {
                    [(Some(name), Child::Known(tag))] => string_values(&sites[*tag as usize])
                        .map(|values| (Box::<str>::from(*name), values.to_vec())),
                    _ => None,
                },
                _ => None,
            };
            if let Some((key, values)) = tag {
                self.sites[id as usize].tagged = Some(Tagged {
                    key,
                    branches: vec![(values, decided)],
                });
            }
        }
    }

    /// Keeps a union of object branches as tagged where one member name is
    /// a tag in every branch (its values, strings, fixed by one `const` or
    /// `enum`, no value in two branches) and each branch constrains its
    /// other direct members by `const`/`enum` only to strings, a member two
    /// branches constrain alike in both (an enum member, `mode` of
    /// `Scan { mode: Mode, .. }`): the validator's report then names the
    /// branch the tag picks (`crate::validate`), whatever the other members
    /// hold. The normalizer's plan reads those members as tags too
    /// (`SchemaPlan::bind_by_tag` names them): the stream keeps to the
    /// branch's reading only while they agree with it.
    fn confirm_tag(&mut self, union: &ObjectUnion) {
        let (id, branches) = (union.site, &union.branches);
        let sites = &self.sites;
        let own: Option<Vec<&Site>> = branches
            .iter()
            .map(|(own, _, _)| match own {
                Child::Known(b) => Some(&sites[*b as usize]),
                _ => None,
            })
            .collect();
        let Some(own) = own else { return };
        let tag_values = |site: &Site, key: &str| -> Option<&[Value]> {
            let Some(Child::Known(tag)) = site.members.get(key) else {
                return None;
            };
            string_values(&sites[tag as usize])
        };
        let plain = |child: Child| match child {
            Child::Forbidden => true,
            Child::Known(c) => !sites[c as usize].constrains_value(),
            Child::Unknown => false,
        };
        let Some(first) = own.first() else { return };
        let key = first
            .members
            .iter()
            .map(|(name, _)| name)
            .find(|name| own.iter().all(|site| tag_values(site, name).is_some()));
        let Some(key) = key else { return };
        // Every branch's values of the tag, each branch's apart from the
        // others' (a member every branch fixes alike tells none apart).
        let mut every: Vec<&Value> = Vec::new();
        let mut apart = true;
        for site in &own {
            for value in tag_values(site, key).unwrap_or_default() {
                apart &= !every.contains(&value);
                every.push(value);
            }
        }
        let every_tag = apart.then(|| (Box::<str>::from(key), every));
        // Each branch's other members that a `const`/`enum` constrains, to
        // strings (`mode` of `Scan { mode: Mode, .. }`): the tag picks the
        // branch whatever they hold, provided no other branch fixes one of
        // them to values of its own (the validator's report could then be
        // read as picked by that member instead).
        let same = |a: &[Value], b: &[Value]| {
            a.len() == b.len() && a.iter().all(|v| b.contains(v)) && b.iter().all(|v| a.contains(v))
        };
        let mut seen: Vec<&Value> = Vec::new();
        let mut table = Vec::new();
        let mut members: Vec<(&str, &[Value])> = Vec::new();
        for (site, (_, with, _)) in own.iter().zip(branches) {
            let (Some(values), Child::Known(with)) = (tag_values(site, key), with) else {
                break;
            };
            let fixed: Option<Vec<(&str, &[Value])>> = site
                .members
                .iter()
                .filter(|(name, child)| *name != key && !plain(*child))
                .map(|(name, child)| match child {
                    Child::Known(c) => string_values(&sites[c as usize]).map(|v| (name, v)),
                    _ => None,
                })
                .collect();
            // A member constrained otherwise.
            let Some(fixed) = fixed else {
                break;
            };
            let alone = !site.never && !site.open && !site.constrains_value() && plain(site.other);
            if !alone || values.iter().any(|v| seen.contains(&v)) {
                break;
            }
            members.extend(fixed);
            seen.extend(values);
            table.push((values, *with));
        }
        // A member several branches fix, each to the same values: no value
        // there is one branch's and not another's.
        let apart_by_tag_alone = members.iter().all(|(name, values)| {
            own.iter().all(|site| match site.members.get(name) {
                Some(child) if !plain(child) => match child {
                    Child::Known(c) => {
                        string_values(&sites[c as usize]).is_some_and(|other| same(values, other))
                    }
                    _ => false,
                },
                _ => true,
            })
        });
        if !apart_by_tag_alone {
            table.clear();
        }
        let complete = table.len() == branches.len();
        let key = Box::from(key);
        let every_tag = every_tag.map(|(tag, values)| (tag, values.into_iter().cloned().collect()));
        let table: Vec<(Vec<Value>, SiteId)> = table
            .into_iter()
            .map(|(values, site)| (values.to_vec(), site))
            .collect();
        let site = &mut self.sites[id as usize];
        site.tag_values = every_tag;
        if complete {
            site.tagged = Some(Tagged {
                key,
                branches: table,
            });
        }
    }

    /// The names a schema requires, through `$ref` and `allOf`.
    fn required(&self, schema: Sub, out: &mut Vec<Box<str>>, links: usize) {
        let Sub::Node(id) = schema else { return };
        if links == MAX_LINKS {
            return;
        }
        let node = self.node(id);
        out.extend(node.early.required.iter().cloned());
        for part in &node.conjuncts {
            self.required(*part, out, links + 1);
        }
    }

    /// Keeps a union of object branches as keyed where each branch declares
    /// exactly one member, requires it and allows no other, its value
    /// constrained by no `const`/`enum`, and no two branches name the same
    /// member (serde's externally tagged variants with data).
    fn confirm_key(&mut self, union: &ObjectUnion) {
        let (id, branches) = (union.site, &union.branches);
        let sites = &self.sites;
        let mut table: Vec<(Box<str>, SiteId)> = Vec::new();
        for (own, with, required) in branches {
            let (Child::Known(own), Child::Known(with)) = (own, with) else {
                break;
            };
            let site = &sites[*own as usize];
            let mut members = site.members.iter();
            let (Some((name, child)), None) = (members.next(), members.next()) else {
                break;
            };
            let plain = match child {
                Child::Known(c) => !sites[c as usize].constrains_value(),
                _ => false,
            };
            let alone = !site.never
                && !site.open
                && !site.constrains_value()
                && site.other == Child::Forbidden
                && plain
                && required.iter().all(|r| **r == *name)
                && required.iter().any(|r| **r == *name)
                && table.iter().all(|(seen, _)| **seen != *name);
            if !alone {
                break;
            }
            table.push((Box::from(name), *with));
        }
        if table.len() == branches.len() {
            self.sites[id as usize].keyed = Some(table);
        }
    }

    fn fill_items(&mut self, id: SiteId, parts: &[NodeId]) {
        let longest = parts
            .iter()
            .filter_map(|part| self.node(*part).array.as_deref())
            .map(|rules| rules.prefix.len())
            .max()
            .unwrap_or(0);
        let prefix: Vec<Child> = (0..longest).map(|i| self.item(parts, i)).collect();
        let rest = self.item(parts, longest);
        let site = &mut self.sites[id as usize];
        site.prefix = prefix;
        site.rest = rest;
    }

    fn item(&mut self, parts: &[NodeId], index: usize) -> Child {
        let mut schemas: Parts = Vec::new();
        for part in parts {
            let Some(rules) = self.node(*part).array.as_deref() else {
                continue;
            };
            match rules.prefix.get(index).copied().or(rules.rest) {
                // An element past a closed tuple: reported at the array, by
                // a keyword the walker does not model.
                Some(Sub::Never) => return Child::Unknown,
                Some(schema) => schemas.push(schema),
                None => {}
            }
        }
        self.intern(schemas)
    }
}

/// The values one `enum` or one `const` (and nothing else) allows at a
/// site, when all are strings: a tag's.
fn string_values(site: &Site) -> Option<&[Value]> {
    let values: &[Value] = match (site.enums.as_slice(), site.consts.as_slice()) {
        ([values], []) => values,
        ([], [value]) => std::slice::from_ref(value),
        _ => return None,
    };
    values.iter().all(Value::is_string).then_some(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn compile(schema: &Value) -> Sites {
        let plan = crate::plan::SchemaPlan::compile(schema).expect("the schema compiles");
        Sites::compile(&plan.nodes, plan.root)
    }

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
        let sites = compile(&schema);
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
        let sites = compile(&schema);
        assert_eq!(sites.member(sites.root(), "b"), Child::Unknown);
        let schema = json!({
            "type": "object",
            "patternProperties": {"^x": {}},
            "additionalProperties": false
        });
        let sites = compile(&schema);
        assert_eq!(sites.member(sites.root(), "xa"), Child::Unknown);
    }

    #[test]
    fn a_union_its_shape_decides_resolves_to_that_branch() {
        let schema = json!({
            "type": "object",
            "properties": {
                "leaf": {"anyOf": [{"$ref": "#/$defs/Leaf"}, {"type": "null"}]},
                "tagged": {"anyOf": [{"$ref": "#/$defs/Tagged"}, {"type": "null"}]},
                "both": {"anyOf": [{"$ref": "#/$defs/Leaf"}, {"properties": {"x": {}}}]}
            },
            "allOf": [{"anyOf": [{"required": ["leaf"]}, {"required": ["tagged"]}]}],
            "additionalProperties": false,
            "$defs": {
                "Leaf": {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": false},
                "Tagged": {"type": "object", "properties": {"kind": {"enum": ["a", "b"]}}, "additionalProperties": false}
            }
        });
        let sites = compile(&schema);
        let root = sites.root();
        // A group that only requires names (aliases) opens nothing.
        assert!(!sites.site(root).open);
        assert_eq!(sites.member(root, "zz"), Child::Forbidden);
        // `Option<Leaf>`: an object is a `Leaf`, an array nothing decided.
        let leaf = known(sites.member(root, "leaf"));
        assert!(sites.site(leaf).open);
        let object = sites.resolved(leaf, true);
        assert_ne!(object, leaf);
        assert_eq!(sites.member(object, "zz"), Child::Forbidden);
        assert!(matches!(sites.member(object, "name"), Child::Known(_)));
        assert_eq!(sites.resolved(leaf, false), leaf);
        // A branch with an `enum` member: the report may not name it.
        let tagged = known(sites.member(root, "tagged"));
        assert_eq!(sites.resolved(tagged, true), tagged);
        // Two branches admit an object (one has no `type`).
        let both = known(sites.member(root, "both"));
        assert_eq!(sites.resolved(both, true), both);
    }

    #[test]
    fn a_union_of_single_member_objects_is_keyed_only_where_each_requires_its_member() {
        let variant = |name: &str, required: bool| {
            let mut branch = json!({
                "type": "object",
                "properties": {name: {"type": "object"}},
                "additionalProperties": false
            });
            if required {
                branch["required"] = json!([name]);
            }
            branch
        };
        let keyed = json!({"oneOf": [variant("a", true), variant("b", true), {"type": "string", "enum": ["c"]}]});
        let sites = compile(&keyed);
        assert!(sites.keyed(sites.root()));
        let a = sites.by_key(sites.root(), "a").expect("a branch");
        assert_eq!(sites.member(a, "b"), Child::Forbidden);
        assert_eq!(sites.by_key(sites.root(), "c"), None);
        // A branch that does not require its member is complete without
        // it: the validator's report could name either branch.
        let loose = json!({"oneOf": [variant("a", true), variant("b", false)]});
        let sites = compile(&loose);
        assert!(!sites.keyed(sites.root()));
    }

    #[test]
    fn unevaluated_properties_forbid_what_nothing_mentions() {
        let schema = json!({
            "allOf": [{"properties": {"a": {}}}],
            "properties": {"b": {}},
            "unevaluatedProperties": false
        });
        let sites = compile(&schema);
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
        let sites = compile(&schema);
        let children = known(sites.member(sites.root(), "children"));
        let child = known(sites.item(children, 3));
        let grandchildren = known(sites.member(child, "children"));
        assert_eq!(known(sites.item(grandchildren, 0)), child);
        assert_eq!(sites.member(child, "x"), Child::Forbidden);
    }
}

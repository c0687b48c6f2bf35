//! What the derive adds to schemars' schema, before the whole document is
//! closed ([`crate::closing`]): serde aliases declared as properties (and
//! counted by `required`) or, for variants, as branches, verbatim marks,
//! and the `open` opt-out.
//!
//! A derived type applies these to its own schema object. The schemas of the
//! `ToolArgs` types it contains are found through the same schemars
//! generator that wrote the document ([`Annotator::nested`]), by the type's
//! identity, never by its name: schemars renames a definition on a clash
//! (`Filter2`), so a name says nothing about which type it holds.

use crate::plan::reference::{definition_at, ref_pointer};
use crate::validate::distinct_entries::{DISTINCT, Distinct, RepeatFn};
use crate::validate::flattened_wholes::{ByBranch, ByTag, Members, WholeRead};
use schemars::SchemaGenerator;
use serde_json::{Map, Value};
use std::any::TypeId;
use std::collections::HashSet;

/// What a derived type's derive generates to annotate its schema
/// (`ToolArgs::__annotate`).
pub type AnnotateFn = fn(&mut Value, &mut Annotator<'_>);

/// Claimed by a flattened map: it keeps every member, so nothing of a
/// flattened type after it is ever lost.
pub(crate) const EVERYTHING: &str = "\u{0}*";

pub(crate) use crate::keywords::ALIAS_OF;

/// The annotation keyword of a verbatim location (never entity-decoded).
pub const VERBATIM: &str = crate::plan::VERBATIM_KEYWORD;

/// Where a field lives inside its type's schema.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    /// A field of the struct itself (or of a struct it flattens).
    Struct,
    /// A field of an externally tagged struct variant: `{"Name": {...}}`.
    External(&'static str),
    /// A field of an internally tagged struct variant: `{"tag": "Name", ...}`.
    Internal {
        /// The tag member.
        tag: &'static str,
        /// The variant's wire name.
        name: &'static str,
    },
    /// A field of an adjacently tagged struct variant:
    /// `{"tag": "Name", "content": {...}}`.
    Adjacent {
        /// The tag member.
        tag: &'static str,
        /// The content member.
        content: &'static str,
        /// The variant's wire name.
        name: &'static str,
    },
    /// A field of the `index`-th (deserialized) variant of an untagged enum.
    Untagged {
        /// The variant's position among those serde reads.
        index: usize,
        /// The wire names of the variant's own (not flattened) fields:
        /// what tells its union from another enum's in an object that
        /// flattens both.
        fields: &'static [&'static str],
    },
}

/// One field's annotations.
#[derive(Clone, Copy, Debug)]
pub struct FieldNote {
    /// Where the field is.
    pub place: Place,
    /// Its wire name.
    pub wire: &'static str,
    /// serde's other accepted names.
    pub aliases: &'static [&'static str],
    /// `#[tool_args(verbatim)]`.
    pub verbatim: bool,
}

/// How an enum's variants are named on the wire.
#[derive(Clone, Copy, Debug)]
pub enum VariantTag {
    /// `"Name"` or `{"Name": ...}`.
    External,
    /// `{"tag": "Name", ...}`, internally or adjacently tagged.
    Member(&'static str),
}

/// One variant's serde aliases.
#[derive(Clone, Copy, Debug)]
pub struct VariantNote {
    /// How the enum names its variants.
    pub tag: VariantTag,
    /// The variant's wire name.
    pub name: &'static str,
    /// serde's other accepted names that are this variant's.
    pub aliases: &'static [&'static str],
    /// Those of `aliases` that are a later variant's wire name: serde reads
    /// this variant under it, never that one.
    pub takes: &'static [&'static str],
}

/// What another flattened field of an object reads, for the flattened
/// `Option`s beside it (see `crate::compile::flatten`).
#[derive(Clone, Debug)]
pub struct Sibling {
    /// What it keeps whatever the call, or fails the whole object: all it
    /// reads for a struct or a map that is no `Option`; a struct's own
    /// fields when it flattens an enum; nothing for an enum (it keeps only
    /// what the variant it reads reads), an `Option` (only what it reads
    /// whole) or a type nothing is known of.
    pub(crate) keeps: Members,
    /// For an internally or adjacently tagged enum that is no `Option`,
    /// what it reads by its tag's value; for a struct, that of each such
    /// enum it flattens.
    pub(crate) by_tag: Vec<ByTag>,
    /// For an untagged enum that is no `Option`, what each variant reads;
    /// for a struct, that of each untagged or externally tagged enum it
    /// flattens.
    pub(crate) by_branch: Vec<ByBranch>,
    /// For a map, or a struct flattening one, that is no `Option`: what
    /// its schema holds the members it does not name to
    /// (`additionalProperties` and the like). It reads every member left,
    /// so its value type is what such a member must be.
    pub(crate) unknown: Option<Map<String, Value>>,
    /// Whether it comes after the field being annotated.
    pub(crate) after: bool,
}

impl Sibling {
    /// A field that keeps `names` (and nothing per call), before the one
    /// being annotated.
    pub(crate) fn named(names: Vec<String>) -> Sibling {
        Sibling {
            keeps: Members::Named(names),
            by_tag: Vec::new(),
            by_branch: Vec::new(),
            unknown: None,
            after: false,
        }
    }
}

/// Resolves the definitions of the `ToolArgs` types a document contains,
/// through the generator that wrote it.
pub struct Annotator<'g> {
    generator: &'g mut SchemaGenerator,
    /// The names the structs that flatten the type being annotated read
    /// themselves, and those the flattened structs before it took (serde
    /// gives them those members first). [`EVERYTHING`] when a flattened map
    /// before it keeps every member.
    claimed: Vec<String>,
    /// Definition names the document really has (a lookup must not add any).
    known: HashSet<String>,
    /// Types already annotated (recursive types meet themselves).
    seen: HashSet<TypeId>,
    /// The definitions of the `ToolArgs` types annotated: every other one
    /// is a type that derives only `JsonSchema` ([`super::schema_only`]).
    annotated: HashSet<String>,
    /// How the flattened `Option` fields met so far are read: the table
    /// the document's `x-toolargs-whole` keywords index.
    wholes: Vec<WholeRead>,
    /// What the other flattened fields of the objects the type being
    /// annotated is flattened into read (what a flattened `Option` drops may
    /// be kept there), each marked whether it comes after.
    kept: Vec<Sibling>,
    /// One per [`Annotator::keep`] in force: where in `kept` that object's
    /// fields start (the last are those beside the field being annotated),
    /// and how long the table of wholes was.
    levels: Vec<(usize, usize)>,
    /// One per [`Annotator::enter_object`] in force: how many names were
    /// claimed and fields kept when the fields being annotated became
    /// members of an object of their own (an externally or adjacently
    /// tagged variant's), which those never reach.
    objects: Vec<(usize, usize)>,
    /// How the map and set fields met so far read their entries: the table
    /// the document's `x-toolargs-distinct` keywords index.
    repeats: Vec<Distinct>,
}

impl<'g> Annotator<'g> {
    /// An annotator for the document `root` was generated into; `root` is
    /// already annotated.
    pub fn new<T: 'static>(generator: &'g mut SchemaGenerator) -> Annotator<'g> {
        let known = generator.definitions().keys().cloned().collect();
        let mut seen = HashSet::new();
        seen.insert(TypeId::of::<T>());
        Annotator {
            generator,
            claimed: Vec::new(),
            known,
            seen,
            annotated: HashSet::new(),
            wholes: Vec::new(),
            kept: Vec::new(),
            levels: Vec::new(),
            objects: Vec::new(),
            repeats: Vec::new(),
        }
    }

    /// Notes that the next fields annotated are members of an object of
    /// their own (an externally or adjacently tagged variant's, inside the
    /// object holding the enum): the names claimed and the fields kept so
    /// far are of the objects around, and never see them. Until
    /// [`Annotator::leave_object`] with what this returns.
    pub fn enter_object(&mut self) -> usize {
        self.objects.push((self.claimed.len(), self.kept.len()));
        self.objects.len() - 1
    }

    /// Ends what [`Annotator::enter_object`] began.
    pub fn leave_object(&mut self, depth: usize) {
        self.objects.truncate(depth);
    }

    /// Notes what the other flattened fields of the object read, while the
    /// next flattened field is annotated, until [`Annotator::release_kept`].
    ///
    /// `others` are the other flattened fields of the object.
    pub fn keep(&mut self, others: impl IntoIterator<Item = Sibling>) {
        self.levels.push((self.kept.len(), self.wholes.len()));
        self.kept.extend(others);
    }

    /// Forgets what the last [`Annotator::keep`] noted.
    pub fn release_kept(&mut self) {
        if let Some((start, _)) = self.levels.pop() {
            self.kept.truncate(start);
        }
    }

    /// What other flattened fields read: those of the objects around, and
    /// those beside the field being annotated (each with whether it comes
    /// after).
    pub(crate) fn kept(&self) -> (&[Sibling], &[Sibling]) {
        let start = self.levels.last().map_or(0, |&(start, _)| start);
        let (around, beside) = self.kept.split_at(start.min(self.kept.len()));
        let floor = self.objects.last().map_or(0, |&(_, kept)| kept);
        (&around[floor.min(around.len())..], beside)
    }

    /// Adds `read` to the table of flattened `Option` fields; its index.
    pub(crate) fn add_whole(&mut self, read: WholeRead) -> usize {
        let index = self.wholes.len();
        self.wholes.push(read.at(index));
        index
    }

    /// The indices of the table's entries added since the last
    /// [`Annotator::keep`]: the flattened `Option`s inside the type being
    /// flattened.
    pub(crate) fn wholes_within(&self) -> std::ops::Range<usize> {
        let start = self.levels.last().map_or(0, |&(_, start)| start);
        start..self.wholes.len()
    }

    /// The tables the document's `x-toolargs-whole` keywords (flattened
    /// `Option` fields) and `x-toolargs-distinct` keywords (maps and sets)
    /// index, for its validator; and the names of the definitions of the
    /// `ToolArgs` types annotated.
    pub(crate) fn into_tables(self) -> (Vec<WholeRead>, Vec<Distinct>, HashSet<String>) {
        (self.wholes, self.repeats, self.annotated)
    }

    /// Notes that the struct flattening the next type reads `names` itself,
    /// until [`Annotator::release`] with what this returns.
    pub fn claim(&mut self, names: &[&'static str]) -> usize {
        let before = self.claimed.len();
        self.claimed
            .extend(names.iter().map(|name| (*name).to_owned()));
        before
    }

    /// Forgets the names claimed since `before`.
    pub fn release(&mut self, before: usize) {
        self.claimed.truncate(before);
    }

    /// The names the flattening structs around read themselves (those of
    /// the object the fields being annotated are members of).
    pub(crate) fn claimed(&self) -> &[String] {
        let floor = self.objects.last().map_or(0, |&(claimed, _)| claimed);
        &self.claimed[floor.min(self.claimed.len())..]
    }

    /// Notes that a flattened field of type `F` comes before the next ones:
    /// a struct takes its members (serde hands them to it first, whole or
    /// not), a map keeps every member for itself (unless it is an `Option`
    /// of one, which keeps nothing when it fails).
    pub(crate) fn claim_flattened<F: schemars::JsonSchema + serde::de::DeserializeOwned>(
        &mut self,
        keeps_every: Option<bool>,
    ) {
        use crate::validate::flattened_read::{Reading, reading_of};
        // serde's flattening takes from the members left what a struct
        // names (and an externally tagged enum's variant), and nothing a
        // map, a struct that flattens, or a buffered enum reads: `F` says
        // which it is.
        match reading_of::<F>() {
            Reading::Struct(names) | Reading::Enum(names) => {
                self.claimed
                    .extend(names.iter().map(|name| (*name).to_owned()));
            }
            // An `Option` keeps what it reads only when it reads a whole:
            // serde's flattening takes nothing for a map, so the members a
            // failing one read are there for the fields after it.
            Reading::Map if F::_schemars_private_is_option() => {}
            // A struct whose maps are all in flattened `Option`s of its own:
            // what a failing one read is there for the fields after it.
            Reading::Map if keeps_every == Some(false) => {}
            Reading::Map => {
                let form = self.with_generator(|generator| {
                    schemars::_private::json_schema_for_flatten::<F>(generator, true).to_value()
                });
                if let Value::Object(form) = form
                    && takes_any_member(&form)
                {
                    self.claimed.push(EVERYTHING.to_owned());
                }
            }
        }
    }

    /// Runs `f` with the generator that wrote the document; definitions it
    /// adds are dropped again (they are not the document's).
    pub(crate) fn with_generator<R>(&mut self, f: impl FnOnce(&mut SchemaGenerator) -> R) -> R {
        let answer = f(self.generator);
        let known = &self.known;
        self.generator
            .definitions_mut()
            .retain(|name, _| known.contains(name));
        answer
    }

    /// Applies `mark` to the definitions `references` name (`#/$defs/Name`)
    /// that the document holds, and to those each of them names in turn
    /// (`mark` pushes them), each once.
    pub(crate) fn mark_definitions(
        &mut self,
        mut references: Vec<String>,
        mark: fn(&mut Value, &mut Vec<String>),
    ) {
        let mut done: HashSet<String> = HashSet::new();
        while let Some(reference) = references.pop() {
            let Some(name) = definition_name(&reference) else {
                continue;
            };
            if !self.known.contains(&name) || !done.insert(name.clone()) {
                continue;
            }
            if let Some(definition) = self.generator.definitions_mut().get_mut(&name) {
                mark(definition, &mut references);
            }
        }
    }

    /// Annotates the definition of the type `id` (its schema `subschema`,
    /// its annotations `annotate`), once. A type schemars inlines has no
    /// definition of its own and is left as written.
    pub fn nested_type(
        &mut self,
        id: TypeId,
        subschema: impl FnOnce(&mut SchemaGenerator) -> schemars::Schema,
        annotate: AnnotateFn,
    ) {
        if !self.seen.insert(id) {
            return;
        }
        // Asking for a type the document does not hold would add it.
        let reference = self.with_generator(subschema);
        let Some(name) = reference
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(definition_name)
        else {
            return;
        };
        let Some(slot) = self.generator.definitions_mut().get_mut(&name) else {
            return;
        };
        let mut definition = std::mem::take(slot);
        self.annotated.insert(name.clone());
        // A type in a field of its own is an object of its own: no names
        // of the structs around are claimed there.
        let claimed = std::mem::take(&mut self.claimed);
        let kept = std::mem::take(&mut self.kept);
        let levels = std::mem::take(&mut self.levels);
        let objects = std::mem::take(&mut self.objects);
        annotate(&mut definition, self);
        self.claimed = claimed;
        self.kept = kept;
        self.levels = levels;
        self.objects = objects;
        if let Some(slot) = self.generator.definitions_mut().get_mut(&name) {
            *slot = definition;
        }
    }
}

/// The definition name a `#/$defs/Name` reference names.
pub(super) fn definition_name(reference: &str) -> Option<String> {
    definition_at(&ref_pointer(reference)?).map(|(_, name)| name)
}

/// Applies every field note to the type's own schema `schema` (or to the
/// schema of a struct that flattens it: a name that struct, or one around
/// it, reads itself never reaches the type, so no alias of the type takes
/// it).
pub fn annotate_fields(schema: &mut Value, annotator: &Annotator<'_>, notes: &[FieldNote]) {
    for note in notes {
        let Some(object) = locate(schema, note.place) else {
            continue;
        };
        if note.verbatim {
            mark_verbatim(object, note.wire);
        }
        let aliases: Vec<&str> = note
            .aliases
            .iter()
            .copied()
            .filter(|alias| !annotator.claimed().iter().any(|name| name == alias))
            .collect();
        if !aliases.is_empty() {
            declare_aliases(object, note.wire, &aliases);
        }
    }
}

/// Marks the schema of the field read from `wire` at `place` with
/// `x-toolargs-distinct`: a map or set whose type, `repeats` says, may merge two
/// entries it is sent (two keys that are one `PathBuf`), which serde does
/// silently. Nothing where the type is not known to be read.
pub fn note_repeats(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
    wire: &str,
    repeats: Option<RepeatFn>,
) {
    let Some(read) = repeats else {
        return;
    };
    let Some(Value::Object(field)) = locate(schema, place)
        .and_then(|object| object.get_mut("properties"))
        .and_then(|properties| properties.get_mut(wire))
    else {
        return;
    };
    let index = annotator.repeats.len();
    annotator.repeats.push(Distinct { read, skip: None });
    field.insert(DISTINCT.to_owned(), Value::from(index));
}

/// [`note_repeats`] for a flattened map (or an `Option` of one): the mark
/// goes on the object at `place`, and the map reads the members the
/// annotator has not claimed (the struct's own, those a flattened struct
/// before it took; a flattened map before it takes nothing, serde's
/// flattening leaves a map's members to the fields after it).
pub fn note_flattened_repeats(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
    repeats: Option<RepeatFn>,
) {
    let Some(read) = repeats else {
        return;
    };
    let mut skip: Vec<String> = annotator
        .claimed()
        .iter()
        .filter(|name| *name != EVERYTHING)
        .cloned()
        .collect();
    skip.sort();
    skip.dedup();
    let Some(object) = locate(schema, place) else {
        return;
    };
    let index = annotator.repeats.len();
    annotator.repeats.push(Distinct {
        read,
        skip: Some(skip),
    });
    push_index(object, DISTINCT, index);
}

/// Adds a table index to the list a custom keyword (`x-toolargs-whole`,
/// `x-toolargs-distinct`) holds on an object; a single index there becomes
/// the list's first.
pub(super) fn push_index(object: &mut Map<String, Value>, keyword: &str, index: usize) {
    match object.get_mut(keyword) {
        Some(Value::Array(indices)) => indices.push(Value::from(index)),
        Some(other) => *other = Value::Array(vec![other.take(), Value::from(index)]),
        None => {
            object.insert(keyword.to_owned(), Value::Array(vec![Value::from(index)]));
        }
    }
}

/// Leaves open the branch of the internally tagged variant `name` (its tag
/// in `tag`) when its newtype's schema takes anything (`takes_anything`):
/// serde reads every member beside the tag into it, where schemars writes
/// the branch as the tag alone, which closing reads as a variant with no
/// fields. The enum's union may sit inside another (a flattened `Option`
/// of the enum is its union beside an empty branch).
pub fn open_newtype_branch(schema: &mut Value, tag: &str, name: &str, takes_anything: bool) {
    if !takes_anything {
        return;
    }
    if let Some(Value::Object(branch)) = variant_branch(schema, |branch| has_tag(branch, tag, name))
    {
        branch
            .entry("additionalProperties")
            .or_insert(Value::Bool(true));
    }
}

/// Lets the branch of the adjacently tagged newtype variant `name` (its tag
/// in `tag`, its content in `content`) leave the content out when the
/// newtype is an `Option` (`is_option`): serde reads the tag alone as that
/// variant holding `None`, where schemars requires the content.
pub fn content_may_be_left_out(
    schema: &mut Value,
    tag: &str,
    content: &str,
    name: &str,
    is_option: bool,
) {
    if !is_option {
        return;
    }
    if let Some(branch) = variant_branch(schema, |branch| has_tag(branch, tag, name)) {
        leave_out(branch, content);
    }
}

/// Takes `member` out of `branch`'s `required`: serde reads the branch
/// without it.
pub(super) fn leave_out(branch: &mut Value, member: &str) {
    if let Some(Value::Array(required)) = branch.get_mut("required") {
        required.retain(|name| name != member);
    }
}

/// The branch of the newtype variant `name` of an internally tagged enum
/// (tag member `tag`) when schemars wrote the inner type into it, rather
/// than as a reference to its definition: it does so for a type whose
/// schema is closed (`deny_unknown_fields`) or holds closed parts, so the
/// tag beside its members is not refused. serde reads the members beside
/// the tag as that type, so the type's own annotations (aliases, verbatim
/// marks, flattened `Option`s read whole) belong in this copy, which its
/// definition's annotation never reaches. `None` where the branch refers
/// to the definition (annotated there) or is not found.
pub fn inlined_newtype_branch<'v>(
    schema: &'v mut Value,
    tag: &str,
    name: &str,
) -> Option<&'v mut Value> {
    let branch = variant_branch(schema, |branch| has_tag(branch, tag, name))?;
    (!branch.as_object()?.contains_key("$ref")).then_some(branch)
}

/// Declares each variant alias as a branch of the enum's union of its own:
/// a copy of the variant's branch under the alias (the unit variant's
/// string, the externally tagged key, or the tag's value), marked
/// `x-toolargs-alias-of` with the wire name, so validation takes every
/// name serde takes and the forms that show one name per variant drop the copy
/// ([`crate::export::aliases`]). A name belongs to the first variant that
/// has it, as serde matches names in declaration order: an alias that an
/// earlier variant has is not this one's ([`VariantNote::aliases`] leaves it
/// out), and an alias that is a later variant's wire name takes that name
/// from it ([`VariantNote::takes`]).
pub fn annotate_variants(schema: &mut Value, notes: &[VariantNote]) {
    if union_mut(schema).is_none() {
        units_as_union(schema);
    }
    let is_variant = |branch: &Value| {
        notes
            .iter()
            .any(|note| names_variant(branch, note.tag, note.name))
    };
    let Some(branches) = variants_union_mut(schema, &is_variant) else {
        return;
    };
    // Every copy is made from the branches as schemars wrote them, before
    // a name a variant takes from a later one is removed.
    let mut copies = Vec::new();
    for note in notes {
        let Some(branch) = branches
            .iter()
            .find(|branch| names_variant(branch, note.tag, note.name))
        else {
            continue;
        };
        for alias in note.aliases {
            let taken = note.takes.contains(alias);
            if !taken
                && branches
                    .iter()
                    .any(|branch| names_variant(branch, note.tag, alias))
            {
                continue;
            }
            if let Some(copy) = renamed_variant(branch, note.tag, note.name, alias) {
                copies.push((taken.then_some(*alias), note.tag, copy));
            }
        }
    }
    for (taken, tag, copy) in copies {
        if let Some(name) = taken {
            unname_variant(branches, tag, name);
        }
        branches.push(copy);
    }
}

/// The union holding the enum's variants (a branch of it `is_variant`):
/// the schema's own, or, where that has none, one nested in its branches
/// (a flattened `Option` of the enum puts the enum's union beside an empty
/// branch) or in its `allOf` (an object flattening two enums holds each
/// union in a part of its own).
fn variants_union_mut<'v>(
    schema: &'v mut Value,
    is_variant: &dyn Fn(&Value) -> bool,
) -> Option<&'v mut Vec<Value>> {
    union_where_mut(schema, &|_, branches| branches.iter().any(is_variant))
}

/// The first union (`oneOf` or `anyOf`, by its keyword and branches) that
/// `is_it`, in the schema or in the parts of its unions and `allOf`: an
/// object flattening two enums holds one union under each keyword, or
/// each in a part of its `allOf`.
pub(super) fn union_where_mut<'v>(
    schema: &'v mut Value,
    is_it: &dyn Fn(&str, &[Value]) -> bool,
) -> Option<&'v mut Vec<Value>> {
    const UNIONS: [&str; 2] = ["oneOf", "anyOf"];
    fn find(
        node: &Value,
        is_it: &dyn Fn(&str, &[Value]) -> bool,
        depth: usize,
    ) -> Option<(Vec<(&'static str, usize)>, &'static str)> {
        let map = node.as_object()?;
        if let Some(keyword) = UNIONS.into_iter().find(|keyword| {
            map.get(*keyword)
                .and_then(Value::as_array)
                .is_some_and(|branches| is_it(keyword, branches))
        }) {
            return Some((Vec::new(), keyword));
        }
        if depth >= 4 {
            return None;
        }
        ["oneOf", "anyOf", "allOf"].into_iter().find_map(|keyword| {
            let parts = map.get(keyword)?.as_array()?;
            parts.iter().enumerate().find_map(|(at, part)| {
                let (mut path, union) = find(part, is_it, depth + 1)?;
                path.insert(0, (keyword, at));
                Some((path, union))
            })
        })
    }
    let (path, keyword) = find(schema, is_it, 0)?;
    let mut node = schema;
    for (part_of, at) in path {
        node = node.get_mut(part_of)?.get_mut(at)?;
    }
    node.get_mut(keyword)?.as_array_mut()
}

/// Removes the name `name` from the later variant that has it: its branch,
/// or the name alone from a list of unit variants.
fn unname_variant(branches: &mut Vec<Value>, tag: VariantTag, name: &str) {
    let Some(at) = branches
        .iter()
        .position(|branch| names_variant(branch, tag, name))
    else {
        return;
    };
    if let Some(Value::Array(units)) = branches[at].get_mut("enum")
        && units.len() > 1
    {
        units.retain(|unit| unit != name);
        return;
    }
    branches.remove(at);
}

/// An enum of unit variants only, which schemars writes as one string
/// schema (`{"type": "string", "enum": [...]}`, or `"const"` for one
/// variant), becomes a union of that one branch, so an alias can be a
/// branch beside it. The schema's own annotations (title, description)
/// stay where they are.
fn units_as_union(schema: &mut Value) {
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    if map.get("type").and_then(Value::as_str) != Some("string")
        || !(map.contains_key("enum") || map.contains_key("const"))
    {
        return;
    }
    let mut branch = Map::new();
    for keyword in ["type", "enum", "const"] {
        if let Some(value) = map.remove(keyword) {
            branch.insert(keyword.to_owned(), value);
        }
    }
    map.insert(
        "oneOf".to_owned(),
        Value::Array(vec![Value::Object(branch)]),
    );
}

/// Whether `branch` is the variant the wire calls `name`.
fn names_variant(branch: &Value, tag: VariantTag, name: &str) -> bool {
    match tag {
        VariantTag::External => {
            let unit = branch.get("const").and_then(Value::as_str) == Some(name)
                || branch
                    .get("enum")
                    .and_then(Value::as_array)
                    .is_some_and(|names| names.iter().any(|n| n == name));
            unit || branch.get("properties").and_then(|p| p.get(name)).is_some()
        }
        VariantTag::Member(tag) => has_tag(branch, tag, name),
    }
}

/// A copy of the branch of the variant `name` that names it `alias`.
fn renamed_variant(branch: &Value, tag: VariantTag, name: &str, alias: &str) -> Option<Value> {
    let mut copy = match tag {
        VariantTag::External if branch.get("properties").is_none() => {
            // A unit variant: the string alone (schemars lists several
            // unit variants in one `enum`).
            serde_json::json!({"type": "string", "const": alias})
        }
        VariantTag::External => {
            let mut copy = branch.clone();
            let properties = copy.get_mut("properties")?.as_object_mut()?;
            let content = properties.shift_remove(name)?;
            properties.insert(alias.to_owned(), content);
            if let Some(Value::Array(required)) = copy.get_mut("required") {
                for member in required.iter_mut() {
                    if member == name {
                        *member = Value::String(alias.to_owned());
                    }
                }
            }
            copy
        }
        VariantTag::Member(tag) => {
            let mut copy = branch.clone();
            let tag = copy.get_mut("properties")?.get_mut(tag)?.as_object_mut()?;
            tag.remove("enum");
            tag.insert("const".to_owned(), Value::String(alias.to_owned()));
            copy
        }
    };
    let map = copy.as_object_mut()?;
    // The copy says nothing of its own beside the name.
    map.remove("description");
    map.remove("title");
    map.insert(ALIAS_OF.to_owned(), Value::String(name.to_owned()));
    Some(copy)
}

/// The object schema holding the fields of `place`.
pub(super) fn locate(schema: &mut Value, place: Place) -> Option<&mut Map<String, Value>> {
    place_mut(schema, place)?.as_object_mut()
}

/// The schema holding the fields of `place`: the type's own for a struct,
/// a variant's object (its branch, or its content) for an enum's. A type
/// flattened into a variant is annotated there, never across the enum.
pub fn place_mut(schema: &mut Value, place: Place) -> Option<&mut Value> {
    match place {
        Place::Struct => Some(schema),
        Place::External(name) => variant_branch(schema, |branch| {
            branch.get("properties").and_then(|p| p.get(name)).is_some()
        })?
        .get_mut("properties")?
        .get_mut(name),
        Place::Internal { tag, name } => {
            variant_branch(schema, |branch| has_tag(branch, tag, name))
        }
        Place::Adjacent { tag, content, name } => {
            variant_branch(schema, |branch| has_tag(branch, tag, name))?
                .get_mut("properties")?
                .get_mut(content)
        }
        Place::Untagged { index, fields } => {
            // schemars writes an untagged enum as `anyOf`; beside another
            // flattened enum, its union is the one whose branch holds the
            // variant's fields.
            let holds_variant = |keyword: &str, branches: &[Value]| {
                keyword == "anyOf"
                    && branches.get(index).is_some_and(|branch| {
                        fields.iter().all(|field| {
                            branch
                                .get("properties")
                                .and_then(|p| p.get(field))
                                .is_some()
                        })
                    })
            };
            if union_where_mut(schema, &holds_variant).is_none() {
                // An enum of one variant: its object, no union.
                return (index == 0 && union(schema).is_none()).then_some(schema);
            }
            union_where_mut(schema, &holds_variant)?.get_mut(index)
        }
    }
}

/// The branches of the schema's own union (`oneOf`, else `anyOf`).
pub(super) fn union(schema: &Value) -> Option<&Vec<Value>> {
    ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| schema.get(*k).and_then(Value::as_array))
}

/// [`union`], to change.
pub(super) fn union_mut(schema: &mut Value) -> Option<&mut Vec<Value>> {
    let map = schema.as_object_mut()?;
    let keyword = ["oneOf", "anyOf"]
        .into_iter()
        .find(|k| map.get(*k).is_some_and(Value::is_array))?;
    map.get_mut(keyword)?.as_array_mut()
}

/// The branch of an enum's schema that `matches`, or the schema itself
/// when it is not a union (an enum of one variant). The branch is looked
/// for where the variants are ([`variants_union_mut`]): an enum flattened
/// as an `Option` nests its union beside an empty branch, and an object
/// flattening two enums holds each union in a part of its `allOf`.
fn variant_branch(schema: &mut Value, matches: impl Fn(&Value) -> bool) -> Option<&mut Value> {
    if union_mut(schema).is_none() && matches(schema) {
        return Some(schema);
    }
    variants_union_mut(schema, &matches)?
        .iter_mut()
        .find(|b| matches(b))
}

fn has_tag(branch: &Value, tag: &str, name: &str) -> bool {
    tag_values(branch, tag).any(|value| value == name)
}

/// The strings `branch` fixes its member `tag` to: its `const`, and the
/// string of an `enum` of one (the variant a tagged enum's branch names).
pub(super) fn tag_values<'b>(branch: &'b Value, tag: &str) -> impl Iterator<Item = &'b str> {
    let tag = branch.get("properties").and_then(|p| p.get(tag));
    let constant = tag.and_then(|t| t.get("const")).and_then(Value::as_str);
    let single = tag
        .and_then(|t| t.get("enum"))
        .and_then(Value::as_array)
        .filter(|values| values.len() == 1)
        .and_then(|values| values[0].as_str());
    constant.into_iter().chain(single)
}

fn mark_verbatim(object: &mut Map<String, Value>, wire: &str) {
    let Some(field) = object.get_mut("properties").and_then(|p| p.get_mut(wire)) else {
        return;
    };
    if let Value::Bool(true) = field {
        *field = Value::Object(Map::new());
    }
    if let Value::Object(field) = field {
        field.insert(VERBATIM.to_owned(), Value::Bool(true));
    }
}

/// Declares each alias of `wire` as a property with the field's schema
/// (marked [`ALIAS_OF`]), and, when the field is required, requires one of
/// its names instead of the wire name alone.
pub(super) fn declare_aliases(object: &mut Map<String, Value>, wire: &str, aliases: &[&str]) {
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    let Some(field) = properties.get(wire).cloned() else {
        return;
    };
    let mut alias_schema = match field {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    alias_schema.insert(ALIAS_OF.to_owned(), Value::String(wire.to_owned()));
    let mut names = vec![wire];
    // A property of an alias's name is a flattened member's: the struct
    // reads its own names first, so the alias takes it (the derive leaves
    // out an alias another field of the struct holds).
    for alias in aliases {
        properties.insert((*alias).to_owned(), Value::Object(alias_schema.clone()));
        names.push(alias);
    }
    if names.len() == 1 {
        return;
    }
    let Some(Value::Array(required)) = object.get_mut("required") else {
        return;
    };
    let before = required.len();
    required.retain(|name| name != wire);
    if required.len() == before {
        return;
    }
    if required.is_empty() {
        object.remove("required");
    }
    let one_of_names: Vec<Value> = names
        .iter()
        .map(|name| serde_json::json!({ "required": [name] }))
        .collect();
    let requirement = serde_json::json!({ "anyOf": one_of_names });
    match object.get_mut("allOf") {
        Some(Value::Array(parts)) => parts.push(requirement),
        _ => {
            object.insert("allOf".to_owned(), Value::Array(vec![requirement]));
        }
    }
}

/// `#[tool_args(open)]`: the type's own objects (the struct, or each
/// variant's object) accept members they do not declare. Saying so
/// explicitly is what keeps [`crate::closing`] from closing them.
pub fn open(schema: &mut Value) {
    fn open_object(node: &mut Value) {
        let Value::Object(map) = node else { return };
        let decided =
            map.contains_key("additionalProperties") || map.contains_key("unevaluatedProperties");
        if decided {
            // An externally tagged variant's wrapper: open the content.
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                for content in properties.values_mut() {
                    if content.get("properties").is_some() {
                        open_object(content);
                    }
                }
            }
            return;
        }
        let is_object = map.contains_key("properties")
            || map.get("type").and_then(Value::as_str) == Some("object");
        if is_object {
            map.insert("additionalProperties".to_owned(), Value::Bool(true));
        }
    }
    if schema_has_no_members(schema)
        && let Some(branches) = union_mut(schema)
    {
        branches.iter_mut().for_each(open_object);
        return;
    }
    open_object(schema);
}

fn schema_has_no_members(schema: &Value) -> bool {
    schema.get("properties").is_none()
        && schema.get("type").and_then(Value::as_str) != Some("object")
}

/// Whether an object schema takes members it does not name (a map, a
/// flattened map): a `false` there takes none.
pub(super) fn takes_any_member(map: &Map<String, Value>) -> bool {
    [
        "additionalProperties",
        "unevaluatedProperties",
        "patternProperties",
    ]
    .iter()
    .any(|k| map.get(*k).is_some_and(|v| v != &Value::Bool(false)))
}

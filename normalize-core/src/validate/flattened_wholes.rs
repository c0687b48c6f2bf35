//! `x-toolargs-whole`: the members of a flattened `Option` make a whole value,
//! or none of them is sent.
//!
//! serde takes such a field as `None` whenever its type refuses the members
//! it is offered, and drops them. The schema says most of what the type
//! refuses (`dependentSchemas`, closing); what it cannot say (a string that
//! does not parse as an `IpAddr`, a `deserialize_with`, a flattened map or
//! enum inside) only the type knows. The derive puts this keyword on the
//! object that flattens the field, naming entries of a table it hands the
//! validator ([`Validator::with_wholes`](super::Validator::with_wholes)):
//! each says which names the type is not offered, which it reads, and how
//! to ask it. The object is refused where the type fails on members it
//! reads that were sent (a `null` alone says nothing: it is `None` too) and
//! that no other field keeps: the entries of one object are read together,
//! and a member another flattened `Option` reads is kept when that one
//! reads whole (unless the failing one took it first).
//!
//! The table lives in the process, not in the schema: a validator built
//! from the schema's JSON alone ([`Validator::new`](super::Validator::new),
//! a schema exported to another language) ignores the keyword.

use super::flattened_read::Reading;
use crate::alias_groups::alias_of;
use serde_json::{Map, Value};

// The keyword, its value an array of indices into the validator's table.
pub(crate) use crate::keywords::WHOLE;

/// Reads a flattened type from the members of an object, minus the names
/// given (sorted), as its [`Reading`] says it reads; on failure, where
/// (relative to the object) and serde's message.
pub type ReadFn = fn(&Map<String, Value>, &[String], Reading) -> Result<(), (String, String)>;

/// How the derive reads the `T` of a flattened `Option<T>` field.
#[derive(Clone, Copy, Debug)]
pub struct Reader {
    /// Reads `T` from the members of an object.
    pub read: ReadFn,
    /// How `T` reads itself when flattened, asked once of its
    /// `Deserialize`.
    pub reading: Reading,
}

/// How one flattened `Option` field is read, for [`WHOLE`] to ask.
#[derive(Clone, Debug)]
pub struct WholeRead {
    /// Reads the field's type from the members of the object not claimed;
    /// on failure, the pointer (relative to the object) and serde's message.
    read: ReadFn,
    /// How the type reads itself (whether serde's flattening takes what it
    /// reads, and which members it names).
    reading: Reading,
    /// Names the type is never offered, sorted: those its struct and the
    /// structs around read themselves, and those flattened fields before it
    /// take.
    claimed: Vec<String>,
    /// The members the type is offered and reads.
    reads: Counted,
    /// Those of them that, sent, the type's failure drops (another field
    /// that always reads them keeps none).
    counted: Counted,
    /// Its index in the table.
    index: usize,
    /// The indices of the flattened `Option`s inside the type: what one of
    /// them drops, this one does not keep by reading whole.
    within: Vec<usize>,
    /// The tagged enums beside the type (no `Option`) that see what it
    /// drops: each keeps the members of the variant its tag names.
    by_tag: Vec<ByTag>,
    /// The untagged enums beside the type (no `Option`) that see what it
    /// drops, each with its union's branches as the object's schema holds
    /// them (checked once the validator is built).
    by_branch: Vec<(ByBranch, Option<Branches>)>,
}

/// What a flattened internally or adjacently tagged enum reads, by the
/// value of its tag: serde buffers the members, so it sees every one that
/// is left (taking none), and reads those of the variant the tag names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByTag {
    /// The tag member.
    pub(crate) tag: String,
    /// Each variant's tag value and the members it reads.
    pub(crate) variants: Vec<(String, Members)>,
}

impl ByTag {
    /// Whether the enum reads the member `name` of `object`.
    fn keeps(&self, object: &Map<String, Value>, name: &str) -> bool {
        let Some(Value::String(value)) = object.get(&self.tag) else {
            return false;
        };
        self.variants
            .iter()
            .find(|(variant, _)| variant == value)
            .is_some_and(|(_, members)| members.holds(name))
    }

    /// Adds to each variant's members the aliases its branch in `parent`
    /// declares for them (a type deriving `ToolArgs` declares them, after
    /// this was recorded from schemars' schema, which does not see them):
    /// serde's variant reads a field under any of its names. A variant
    /// alias's branch (the derive appends one per alias, marked with the
    /// variant's wire name) names a variant of its own, reading what the
    /// variant reads: serde takes the tag under any of the variant's names.
    fn add_aliases(&mut self, parent: &Map<String, Value>) {
        let mut unions = Vec::new();
        union_branches(parent, &mut unions, 0);
        for branch in unions.into_iter().flatten() {
            let value = branch
                .get("properties")
                .and_then(|properties| properties.get(&self.tag))
                .and_then(|tag| tag.get("const"))
                .and_then(Value::as_str);
            let Some(value) = value else {
                continue;
            };
            if let Some(wire) = alias_of(branch) {
                let known = self.variants.iter().any(|(variant, _)| variant == value);
                let read = self.variants.iter().find(|(variant, _)| variant == wire);
                if let (false, Some((_, members))) = (known, read) {
                    let mut members = members.clone();
                    members.add_aliases(branch);
                    self.variants.push((value.to_owned(), members));
                }
                continue;
            }
            for (variant, members) in &mut self.variants {
                if variant == value {
                    members.add_aliases(branch);
                }
            }
        }
    }
}

/// What a flattened untagged enum reads: serde reads the first variant
/// that reads the members left (taking none), and keeps what that one
/// reads. The union's branches in the object's schema say which one it
/// is: each refuses what an earlier variant reads ([`crate::untagged`]),
/// so in a call the schema takes, the one branch that takes it is the
/// variant serde reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByBranch {
    /// The members each variant reads, in declaration order.
    pub(crate) variants: Vec<Members>,
}

/// A [`ByBranch`] union's branches, compiled. Each is checked without the
/// keywords that need a table (this one, `x-toolargs-distinct`): a call
/// the whole schema takes is taken by the branch serde reads, and by no
/// earlier one, as the earlier ones' readings (which leave those keywords
/// out) refuse it. A variant alias of an externally tagged enum (a type
/// deriving `ToolArgs` declares it as a copy of the variant's branch under
/// the alias, after the enum's own branches) is checked after them, and
/// stands for its variant.
#[derive(Clone)]
struct Branches {
    checks: std::sync::Arc<[jsonschema::Validator]>,
    /// The variant each check stands for, by its index in the
    /// [`ByBranch`].
    variant_of: std::sync::Arc<[usize]>,
}

impl std::fmt::Debug for Branches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Branches({})", self.checks.len())
    }
}

impl Branches {
    /// The branches of the union in `parent` whose members are those of
    /// `by_branch` (its variant aliases beside them), compiled against
    /// `document` (the schema `parent` is in); `None` when no one union
    /// matches, or one cannot be compiled (the enum then keeps nothing,
    /// and the check refuses more).
    fn find(
        by_branch: &mut ByBranch,
        parent: &Map<String, Value>,
        document: &Document,
    ) -> Option<Branches> {
        let mut unions = Vec::new();
        union_branches(parent, &mut unions, 0);
        let variants = by_branch.variants.len();
        // The enum's own union, or, where its type is flattened as an
        // `Option` in turn, that union with the `Option`'s "none of it"
        // branch after it (`{"not": ...}`), which no variant reads.
        let mut matching = unions
            .into_iter()
            .filter_map(|branches| {
                let (own, aliases): (Vec<&Value>, Vec<&Value>) = branches
                    .iter()
                    .partition(|branch| alias_of(branch).is_none());
                let (own, after) = own.split_at_checked(variants)?;
                after
                    .iter()
                    .all(|branch| negation_alone(branch))
                    .then(|| (own.to_vec(), aliases))
            })
            .filter(|(branches, _)| {
                branches
                    .iter()
                    .any(|branch| branch.get("properties").is_some())
                    && branches
                        .iter()
                        .zip(&by_branch.variants)
                        .all(|(branch, members)| declares(branch, members))
            });
        let (branches, aliases) = matching.next()?;
        if matching.next().is_some() {
            return None;
        }
        let mut variant_of: Vec<usize> = (0..variants).collect();
        let mut checked = branches.clone();
        for alias in aliases {
            let wire = alias_of(alias)?;
            // The variant whose branch holds the key the alias stands for.
            let at = branches.iter().position(|branch| {
                branch
                    .get("properties")
                    .is_some_and(|properties| properties.get(wire).is_some())
            })?;
            by_branch.variants[at].add_aliases(alias);
            variant_of.push(at);
            checked.push(alias);
        }
        for (members, branch) in by_branch.variants.iter_mut().zip(&branches) {
            members.add_aliases(branch);
        }
        let checks = checked
            .iter()
            .map(|branch| document.compile(branch))
            .collect::<Option<Vec<_>>>()?;
        Some(Branches {
            checks: checks.into(),
            variant_of: variant_of.into(),
        })
    }

    /// The variant whose branch takes `instance`, if one does.
    fn taking(&self, instance: &Value) -> Option<usize> {
        let at = self
            .checks
            .iter()
            .position(|check| check.is_valid(instance))?;
        self.variant_of.get(at).copied()
    }
}

/// The schema a validator is built from, as each branch's own document
/// holds it: under [`REBASED`], its same-document references pointing
/// there. Made once per validator.
pub(super) struct Document {
    root: Value,
    draft: Option<Value>,
}

// Where a branch's own document keeps the schema it was taken from.
use crate::keywords::DOCUMENT as REBASED;

impl Document {
    pub(super) fn new(schema: &Value) -> Document {
        let mut root = schema.clone();
        let draft = match &mut root {
            Value::Object(map) => map.remove("$schema"),
            _ => None,
        };
        rebase(&mut root);
        Document { root, draft }
    }

    /// `branch` (taken from the schema) compiled on its own, its
    /// references resolved in the schema.
    fn compile(&self, branch: &Value) -> Option<jsonschema::Validator> {
        let mut branch = branch.clone();
        rebase(&mut branch);
        let mut entry = Map::new();
        if let Some(draft) = &self.draft {
            entry.insert("$schema".to_owned(), draft.clone());
        }
        entry.insert(REBASED.to_owned(), self.root.clone());
        entry.insert("allOf".to_owned(), Value::Array(vec![branch]));
        super::custom::validator_options()
            .build(&Value::Object(entry))
            .ok()
    }
}

/// Points the same-document references in `schema` into [`REBASED`].
fn rebase(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some(pointer) = reference.strip_prefix('#')
            {
                *reference = format!("#/{REBASED}{pointer}");
            }
            map.values_mut().for_each(rebase);
        }
        Value::Array(items) => items.iter_mut().for_each(rebase),
        _ => {}
    }
}

/// The unions of `parent` (its `anyOf` or `oneOf`, and those of the parts
/// of its `allOf`, where schemars puts a second flattened enum).
pub(crate) fn union_branches<'p>(
    parent: &'p Map<String, Value>,
    found: &mut Vec<&'p [Value]>,
    depth: usize,
) {
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = parent.get(keyword) {
            found.push(branches);
        }
    }
    if depth < 4
        && let Some(Value::Array(parts)) = parent.get("allOf")
    {
        for part in parts.iter().filter_map(Value::as_object) {
            union_branches(part, found, depth + 1);
        }
    }
}

/// Whether `branch` is a `not` alone.
fn negation_alone(branch: &Value) -> bool {
    branch
        .as_object()
        .is_some_and(|map| map.len() == 1 && map.contains_key("not"))
}

/// Whether `branch` names `members` among its properties, its own or
/// those of the parts and unions inside it (a variant that flattens an
/// enum holds the enum's members in a union of its own). A branch written
/// as a reference, or one that reads any member, matches any.
fn declares(branch: &Value, members: &Members) -> bool {
    let (Some(branch), Some(_)) = (branch.as_object(), branch.get("properties")) else {
        return true;
    };
    let Members::Named(wanted) = members else {
        return true;
    };
    let names = declared_names(branch);
    wanted.iter().all(|name| names.contains(&name.as_str()))
}

/// The names `object` declares as properties, its own and those of the
/// parts and unions it is composed of (what it flattens), any of whose
/// branches may be the one read; repeats left in.
pub(crate) fn declared_names(object: &Map<String, Value>) -> Vec<&str> {
    fn declared<'b>(map: &'b Map<String, Value>, names: &mut Vec<&'b str>, depth: usize) {
        if let Some(Value::Object(properties)) = map.get("properties") {
            names.extend(properties.keys().map(String::as_str));
        }
        if depth < 8 {
            for keyword in ["allOf", "anyOf", "oneOf"] {
                if let Some(Value::Array(parts)) = map.get(keyword) {
                    for part in parts.iter().filter_map(Value::as_object) {
                        declared(part, names, depth + 1);
                    }
                }
            }
        }
    }
    let mut names = Vec::new();
    declared(object, &mut names, 0);
    names
}

/// The members a flattened type reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Members {
    /// Every member offered (a map, or a struct flattening one).
    Any,
    /// These names (a struct's fields and their aliases, an enum's variants,
    /// tags and fields).
    Named(Vec<String>),
}

impl Members {
    /// Whether `name` is among these members.
    fn holds(&self, name: &str) -> bool {
        match self {
            Members::Any => true,
            Members::Named(names) => names.iter().any(|n| n == name),
        }
    }

    /// Adds the other names serde reads these members under (the members
    /// of a flattened type, as schemars wrote them), as the type's
    /// annotations declared them in `schema`, where it is flattened, or in
    /// a variant's branch: a field alias (a property
    /// [`ALIAS_OF`](crate::__private::ALIAS_OF) a member) and a variant
    /// alias of an externally tagged enum (a branch `ALIAS_OF` a member,
    /// whose key it holds), in the parts `schema` is made of too. serde
    /// hands the flattened type every member it does not claim, under any
    /// name: one sent under an alias is as sent as one under its name.
    pub(crate) fn add_aliases(&mut self, schema: &Value) {
        fn walk(node: &Value, names: &mut Vec<String>, depth: usize) {
            let Value::Object(map) = node else {
                return;
            };
            let branch_of = alias_of(node);
            if let Some(properties) = map.get("properties").and_then(Value::as_object) {
                let of_member =
                    |wire: Option<&str>| wire.is_some_and(|w| names.iter().any(|n| n == w));
                let found: Vec<String> = properties
                    .iter()
                    .filter(|(name, property)| {
                        (of_member(alias_of(property)) || of_member(branch_of))
                            && !names.contains(*name)
                    })
                    .map(|(name, _)| name.clone())
                    .collect();
                names.extend(found);
            }
            if depth >= 6 {
                return;
            }
            for keyword in ["allOf", "anyOf", "oneOf"] {
                if let Some(Value::Array(parts)) = map.get(keyword) {
                    for part in parts {
                        walk(part, names, depth + 1);
                    }
                }
            }
        }
        if let Members::Named(names) = self {
            walk(schema, names, 0);
        }
    }
}

/// A set of members, as looked for in an object.
#[derive(Clone, Debug)]
enum Counted {
    /// These names.
    Named(Vec<String>),
    /// Every member but these (sorted).
    AllBut(Vec<String>),
}

impl Counted {
    /// Leaves out of the set the aliases (properties
    /// [`ALIAS_OF`](crate::__private::ALIAS_OF) a name) that `object`
    /// declares of names the set leaves out: a field another flattened
    /// field reads (declared by that field's annotations, after this entry
    /// was made) is read under any of its names.
    fn leave_aliases_out(&mut self, object: &Map<String, Value>) {
        let Some(Value::Object(properties)) = object.get("properties") else {
            return;
        };
        let aliases = properties.iter().filter_map(|(name, member)| {
            let wire = alias_of(member)?;
            Some((name, wire))
        });
        match self {
            Counted::Named(names) => {
                let left_out: Vec<String> = aliases
                    .filter(|(_, wire)| !names.iter().any(|n| n == wire))
                    .map(|(alias, _)| alias.clone())
                    .collect();
                names.retain(|name| !left_out.contains(name));
            }
            Counted::AllBut(excluded) => {
                let more: Vec<String> = aliases
                    .filter(|(alias, wire)| {
                        excluded.binary_search_by(|e| e.as_str().cmp(wire)).is_ok()
                            && excluded.binary_search(alias).is_err()
                    })
                    .map(|(alias, _)| alias.clone())
                    .collect();
                excluded.extend(more);
                excluded.sort_unstable();
                excluded.dedup();
            }
        }
    }

    fn of(members: &Members, excluded: &[String]) -> Counted {
        match members {
            Members::Named(names) => Counted::Named(
                names
                    .iter()
                    .filter(|name| !excluded.contains(name))
                    .cloned()
                    .collect(),
            ),
            Members::Any => {
                let mut excluded = excluded.to_vec();
                excluded.sort_unstable();
                excluded.dedup();
                Counted::AllBut(excluded)
            }
        }
    }

    /// The members of `object` in the set sent with a value.
    fn sent<'o>(&self, object: &'o Map<String, Value>) -> Vec<&'o String> {
        match self {
            Counted::Named(names) => names
                .iter()
                .filter_map(|name| object.get_key_value(name))
                .filter(|(_, value)| !value.is_null())
                .map(|(name, _)| name)
                .collect(),
            Counted::AllBut(excluded) => object
                .iter()
                .filter(|(name, value)| !value.is_null() && excluded.binary_search(name).is_err())
                .map(|(name, _)| name)
                .collect(),
        }
    }
}

impl WholeRead {
    /// The entry of a type read by `reader`, offered no member `claimed`
    /// names, reading `members`, of which the names in `kept_elsewhere`
    /// (read by another flattened field of the object that always reads
    /// them, which keeps what the type drops) are not counted.
    pub(crate) fn new(
        reader: Reader,
        mut claimed: Vec<String>,
        members: Members,
        kept_elsewhere: &[String],
        within: Vec<usize>,
    ) -> WholeRead {
        claimed.sort_unstable();
        claimed.dedup();
        let reads = Counted::of(&members, &claimed);
        let excluded: Vec<String> = claimed.iter().chain(kept_elsewhere).cloned().collect();
        let counted = Counted::of(&members, &excluded);
        WholeRead {
            read: reader.read,
            reading: reader.reading,
            claimed,
            reads,
            counted,
            index: 0,
            within,
            by_tag: Vec::new(),
            by_branch: Vec::new(),
        }
    }

    /// The entry, with the untagged enums beside the type that keep what
    /// it drops (see [`ByBranch`]).
    pub(crate) fn kept_by_branch(mut self, by_branch: Vec<ByBranch>) -> WholeRead {
        self.by_branch = by_branch.into_iter().map(|b| (b, None)).collect();
        self
    }

    /// Whether the entry asks an untagged enum beside which variant reads.
    pub(crate) fn reads_branches(&self) -> bool {
        !self.by_branch.is_empty()
    }

    /// Whether an untagged enum beside keeps the member `name` of
    /// `instance`: the variant its branch that takes `instance` reads.
    /// `picks` holds each enum's branch once asked.
    fn kept_by_branch_of(
        &self,
        instance: &Value,
        picks: &mut Vec<Option<Option<usize>>>,
        name: &str,
    ) -> bool {
        picks.resize(self.by_branch.len(), None);
        self.by_branch
            .iter()
            .zip(picks.iter_mut())
            .any(|((by_branch, branches), pick)| {
                let Some(branches) = branches else {
                    return false;
                };
                let taking = *pick.get_or_insert_with(|| branches.taking(instance));
                taking
                    .and_then(|at| by_branch.variants.get(at))
                    .is_some_and(|members| members.holds(name))
            })
    }

    /// The entry, with the tagged enums beside the type that keep what it
    /// drops (see [`ByTag`]).
    pub(crate) fn kept_by_tag(mut self, by_tag: Vec<ByTag>) -> WholeRead {
        self.by_tag = by_tag;
        self
    }

    /// The entry, at `index` in its table.
    pub(crate) fn at(mut self, index: usize) -> WholeRead {
        self.index = index;
        self
    }

    fn read(&self, object: &Map<String, Value>) -> Result<(), (String, String)> {
        (self.read)(object, &self.claimed, self.reading)
    }
}

/// Has the schema `raw` say what serde reads inside an untagged enum
/// (`crate::untagged` copies its branches as readings): a flattened
/// `Option` that is not whole is `None` there, and serde reads on. Its
/// members take any value, and what makes it whole (`dependentSchemas`,
/// [`WHOLE`]) goes. So does the check that a map's or set's entries stay
/// distinct (`x-toolargs-distinct`): serde reads the entries it merges.
/// `table` is the one the keywords index.
pub(crate) fn relax_for_readings(raw: &mut Value, table: &[WholeRead]) {
    match raw {
        Value::Object(map) => {
            // serde reads a map that merges two entries all the same.
            map.remove(super::distinct_entries::DISTINCT);
            if let Some(Value::Array(indices)) = map.remove(WHOLE) {
                map.remove("dependentSchemas");
                let entries: Vec<&WholeRead> = indices
                    .iter()
                    .filter_map(|index| table.get(usize::try_from(index.as_u64()?).ok()?))
                    .collect();
                for entry in entries {
                    match &entry.reads {
                        Counted::Named(names) => {
                            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                                for name in names {
                                    if let Some(member) = properties.get_mut(name) {
                                        *member = Value::Bool(true);
                                    }
                                }
                            }
                        }
                        // A map: every member it is offered, named or not
                        // (an object open as written, as the readings take
                        // it).
                        Counted::AllBut(claimed) => {
                            for keyword in [
                                "patternProperties",
                                "additionalProperties",
                                "unevaluatedProperties",
                            ] {
                                map.remove(keyword);
                            }
                            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                                for (name, member) in properties.iter_mut() {
                                    if claimed.binary_search(name).is_err() {
                                        *member = Value::Bool(true);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            for child in map.values_mut() {
                relax_for_readings(child, table);
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| relax_for_readings(item, table)),
        _ => {}
    }
}

/// The failures of the flattened `Option`s of one object, read together:
/// what one drops, another that reads it, and reads its own members
/// whole, keeps (unless the one that drops it took it first). With `first`,
/// only whether there is one.
fn failures(entries: &[WholeRead], instance: &Value, first: bool) -> Vec<Failure> {
    let Value::Object(object) = instance else {
        return Vec::new();
    };
    let mut outcomes: Vec<Option<bool>> = vec![None; entries.len()];
    let mut found = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let mut dropped = entry.counted.sent(object);
        dropped.retain(|name| !entry.by_tag.iter().any(|by_tag| by_tag.keeps(object, name)));
        if !dropped.is_empty() && entry.reads_branches() {
            let mut picks = Vec::new();
            dropped.retain(|name| !entry.kept_by_branch_of(instance, &mut picks, name));
        }
        if dropped.is_empty() {
            continue;
        }
        let Err((mut pointer, mut message)) = entry.read(object) else {
            outcomes[i] = Some(true);
            continue;
        };
        outcomes[i] = Some(false);
        for (j, other) in entries.iter().enumerate() {
            // A field after one that takes what it reads never sees it; one
            // that holds this one holds nothing of what this one drops, nor
            // does one this one holds (it goes with this one).
            if j == i
                || (entry.reading.takes() && j > i)
                || other.within.contains(&entry.index)
                || entry.within.contains(&other.index)
                || dropped.is_empty()
            {
                continue;
            }
            let read = other.reads.sent(object);
            if read.iter().all(|name| !dropped.contains(name)) {
                continue;
            }
            let whole = *outcomes[j].get_or_insert_with(|| other.read(object).is_ok());
            if whole {
                dropped.retain(|name| !read.contains(name));
            }
        }
        if dropped.is_empty() {
            continue;
        }
        // The type failed at a member another field keeps: the report goes
        // to the members that would be dropped, and names that one.
        let at = pointer
            .split('/')
            .nth(1)
            .map(crate::plan::reference::unescape_token);
        if let Some(at) = at
            && !dropped.iter().any(|name| **name == at)
        {
            message = format!("`{at}`: {message}");
            pointer = String::new();
        }
        found.push(Failure {
            pointer,
            message,
            sent: dropped.into_iter().cloned().collect(),
        });
        if first {
            break;
        }
    }
    found
}

/// What a refused whole reports: where in the object, serde's message, and
/// the members that would be dropped.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Failure {
    pub(super) pointer: String,
    pub(super) message: String,
    pub(super) sent: Vec<String>,
}

impl Failure {
    fn into_error(self) -> jsonschema::ValidationError<'static> {
        super::custom::carry(&self)
    }

    /// The failure an error of [`WHOLE`] carries.
    pub(super) fn from_message(message: &str) -> Option<Failure> {
        super::custom::carried(message)
    }
}

/// [`WHOLE`] at one object: the flattened fields it names.
pub(super) struct WholeKeyword(pub(super) Vec<WholeRead>);

impl<'i> jsonschema::Keyword<'i> for WholeKeyword {
    fn validate(&self, instance: &'i Value) -> Result<(), jsonschema::ValidationError<'i>> {
        match self.iter_errors(instance).next() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        failures(&self.0, instance, true).is_empty()
    }

    fn iter_errors(
        &self,
        instance: &'i Value,
    ) -> Box<dyn Iterator<Item = jsonschema::ValidationError<'i>> + 'i> {
        let errors: Vec<_> = failures(&self.0, instance, false)
            .into_iter()
            .map(Failure::into_error)
            .collect();
        Box::new(errors.into_iter())
    }
}

/// The keyword's entries at one object (`parent`, as the document holds
/// it), from the table: `value` is the array of indices the derive wrote.
/// `document` is the schema `parent` is in, when an entry asks an untagged
/// enum which variant reads.
pub(super) fn keyword(
    table: &[WholeRead],
    parent: &Map<String, Value>,
    value: &Value,
    document: Option<&Document>,
) -> Result<WholeKeyword, jsonschema::ValidationError<'static>> {
    let entries = value
        .is_array()
        .then(|| super::custom::table_entries(table, value));
    let entries = entries.flatten().map(|mut entries| {
        for entry in &mut entries {
            entry.counted.leave_aliases_out(parent);
            for by_tag in &mut entry.by_tag {
                by_tag.add_aliases(parent);
            }
            if let Some(document) = document {
                for (by_branch, branches) in &mut entry.by_branch {
                    *branches = Branches::find(by_branch, parent, document);
                }
            }
        }
        entries
    });
    entries.map(WholeKeyword).ok_or_else(|| {
        jsonschema::ValidationError::schema(format!(
            "`{WHOLE}` names no flattened field this validator was given: {value}"
        ))
    })
}

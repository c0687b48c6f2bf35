//! The field aliases, integers and required fields serde reads in types
//! that derive only `JsonSchema`, learned from their own `Deserialize`.
//!
//! A `ToolArgs` derive declares its fields' aliases ([`super::annotate`]);
//! schemars writes none, so a type with no derive of ours had none
//! declared, and a call sending one was refused although serde reads it.
//! serde's derive tells them at run time: it hands `deserialize_struct`
//! every name a struct reads (`fields`, aliases among them), and refuses a
//! field sent twice by the name it is written under (`duplicate_field`),
//! whichever of its names was sent. [`learn`] drives the root type's
//! `Deserialize` with a deserializer of its own ([`Maker`]) that makes up a
//! value for whatever is asked and sends one not yet known name twice per
//! run, and keeps what serde's refusals say; [`declare`] writes what it
//! learned into the definitions no derive annotated, where a definition's
//! members are the struct's (a struct's own definition, or an externally
//! tagged variant's object in its enum's).
//!
//! A struct that flattens a field is read from a map and names only the
//! required fields it misses; [`Hints`] give the names its schema has, so
//! that the types below its optional fields are reached too. The instances
//! of a generic type share one list of names and are told apart by their
//! visitors' types. A struct that can never be made whole fails for good
//! only once a run learns nothing, so the variants below it are each read.
//!
//! What is only reached through serde's own buffering (a flattened field,
//! the variants of an internally tagged or untagged enum) is never handed
//! to [`Maker`], so aliases there stay undeclared (the README's limits).
//!
//! The same runs learn which fields serde reads as a Rust integer: a field
//! whose value (through `Option`s, or as a sequence's items or a map's
//! values) is asked of [`Maker`] as an integer of at most 64 bits, with the
//! visitor of serde's own integer impl, which refuses `5.0`. [`declare`] marks such a property
//! [`WRITTEN_AS_INTEGER`](crate::keywords::WRITTEN_AS_INTEGER) in the
//! validator's schema, so the call is refused at the member, as a derived
//! type's model refuses it, instead of by serde with the root pointer. A
//! field read another way (a `deserialize_with` that takes floats, a
//! visitor of its own) is never marked.
//!
//! A second phase learns which fields serde requires: each struct met is
//! read, wherever it is met, with only the fields known to be required;
//! serde names a required field it misses (`missing_field`), and once it
//! takes the struct, every other field is optional. [`declare`] makes the
//! struct's `required` that list, where schemars decided otherwise by the
//! field's type or its own attributes (`#[schemars(default)]`,
//! `#[schemars(required)]`, an `Option` read by a `deserialize_with`).

use super::annotate::{declare_aliases, union, union_mut};
use crate::alias_groups::alias_of;
use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{
    DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// Runs of the root's `Deserialize` at most (each learns one thing or
/// ends the search), in each of [`learn`]'s two phases.
const MAX_RUNS: usize = 4096;
/// Values nested deeper than this are not made up (a type that only holds
/// itself has no value).
const MAX_DEPTH: usize = 24;

/// One struct's names, as serde reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StructNames {
    /// serde's name of the container (the enum's, for a variant).
    container: &'static str,
    /// The variant, for an externally tagged struct variant.
    variant: Option<&'static str>,
    /// Each alias and the name it stands for.
    aliases: Vec<(&'static str, &'static str)>,
    /// The names fields are written under.
    written: Vec<&'static str>,
    /// Names nothing was learned of (their value could not be made up).
    unknown: Vec<&'static str>,
    /// How many types were met reading this list of names: the instances
    /// of a generic type share serde's list, each with a visitor of its
    /// own.
    instances: usize,
    /// The written names serde reads a Rust integer in, in every instance,
    /// with the steps to it from the field's value ([`Field::steps`]).
    integers: Vec<(&'static str, u32)>,
    /// The written names serde requires (it refuses the struct without
    /// them), where that is known of every one: the struct was read with
    /// only these once, and serde took it. `None` for a generic type (what
    /// a field of type `T` requires depends on `T`, and its definitions
    /// cannot be told apart) and where no such reading succeeded.
    required: Option<Vec<&'static str>>,
}

/// The names of each struct `T` holds that serde reads through
/// `deserialize_struct` (or as a struct variant), one for each list of
/// names serde's derive wrote (two instances of a generic type may share
/// one). Nothing when `T`'s `Deserialize` panics on a made-up value.
pub(crate) fn learn<T: DeserializeOwned>(hints: Hints) -> Vec<StructNames> {
    std::panic::catch_unwind(|| {
        let mut state = State {
            hints,
            ..State::default()
        };
        let mut news_since_reset = true;
        for _ in 0..MAX_RUNS {
            state.run::<T>();
            if state.news {
                news_since_reset = true;
                continue;
            }
            // A variant was read for the first time in this round: the next
            // run reads the next one.
            if state.fresh {
                continue;
            }
            // A run learned nothing: every variant is tried again (an
            // adjacently tagged variant's content is read after its tag,
            // so a variant counts as tried before its content is), until
            // a whole round learns nothing.
            if !news_since_reset {
                break;
            }
            news_since_reset = false;
            state.untry_variants();
        }
        learn_required::<T>(&mut state);
        state.names()
    })
    .unwrap_or_default()
}

/// [`learn`]'s second phase: each struct met, in turn, is read with only
/// the fields serde is known to require wherever it is met (its values
/// made up smallest). serde names a required field it misses
/// (`missing_field`), which is learned and sent from the next run on; a
/// reading serde takes says every other field is optional. Until the
/// struct is met, each run reads the next variants of the enums around, so
/// a struct met only below one of them is reached.
fn learn_required<T: DeserializeOwned>(state: &mut State) {
    let mut runs = 0;
    let mut target = 0;
    while target < state.structs.len() && runs < MAX_RUNS {
        let found = &state.structs[target];
        // Never declared (generic), or known already (read whole with its
        // required fields alone, as a recursive type's inner values are).
        if found.visitors.len() != 1 || found.required_known() {
            target += 1;
            continue;
        }
        state.target = Some(target);
        state.untry_variants();
        while runs < MAX_RUNS {
            runs += 1;
            state.target_met = false;
            state.run::<T>();
            // Read again while it learns; while the struct was not met,
            // with the next variants.
            if !state.news && (state.target_met || !state.fresh) {
                break;
            }
        }
        target += 1;
    }
    state.target = None;
}

/// The names a struct that flattens may read, from the schema. serde reads
/// such a struct from a map and names only the required fields it misses;
/// the schema's properties name its optional ones too, so that the types
/// they hold are reached. A name is only sent: one the struct does not
/// read, or whose value cannot be made up, is sent no more.
#[derive(Debug, Default)]
pub(crate) struct Hints {
    /// The root's properties.
    root: Vec<String>,
    /// Each definition's name and properties.
    defs: Vec<(String, Vec<String>)>,
}

impl Hints {
    pub(crate) fn of(root: &Value, defs: &Map<String, Value>) -> Hints {
        Hints {
            root: properties(root),
            defs: defs
                .iter()
                .map(|(name, definition)| (name.clone(), properties(definition)))
                .filter(|(_, names)| !names.is_empty())
                .collect(),
        }
    }

    /// The names to send where serde's derive reads a map into the type
    /// its visitor `visitor` is for (the root's too, at the root).
    fn for_map(&self, visitor: &str, at_root: bool) -> Vec<Key> {
        let mut names: Vec<Key> = Vec::new();
        let mut add = |of: &[String]| {
            for name in of {
                if !names.iter().any(|known| known == name) {
                    names.push(Cow::Owned(name.clone()));
                }
            }
        };
        if at_root {
            add(&self.root);
        }
        if let Some(container) = derived_type_name(visitor) {
            for (name, properties) in &self.defs {
                if named_after(name, container) {
                    add(properties);
                }
            }
        }
        names
    }
}

/// A schema's properties, aliases left out (a name is sent once).
fn properties(schema: &Value) -> Vec<String> {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Vec::new();
    };
    properties
        .iter()
        .filter(|(_, member)| alias_of(member).is_none())
        .map(|(name, _)| name.clone())
        .collect()
}

/// The name of the type a visitor of serde's derive is for, from the
/// visitor's type name (`path::_::<impl Deserialize for path::Name<..>>::
/// deserialize::__Visitor<..>`). Only a hint: a type name's form is not
/// guaranteed, and where it is not this one, no names are hinted.
fn derived_type_name(visitor: &str) -> Option<&str> {
    let (_, implementation) = visitor.split_once("::_::<impl ")?;
    let (_, for_type) = implementation.split_once(" for ")?;
    let (path, _) = for_type.split_once(">::deserialize::__Visitor")?;
    let path = path.split('<').next()?;
    path.rsplit("::").next().filter(|name| !name.is_empty())
}

/// A name sent as a map's key: serde's own, or a schema's.
type Key = Cow<'static, str>;

/// Declares the aliases `learned` in each definition of `defs` that no
/// `ToolArgs` derive annotated (`annotated`) and whose members are a
/// learned struct's: named as serde names the container (schemars adds a
/// number for a name two types share, or the type arguments), with the
/// struct's written names, and only names it reads, as properties.
///
/// A definition is only known by its name and its members, so where more
/// definitions look like the structs of one name than types of that name
/// were met (an instance of a generic type, or a type of the same name and
/// members, that the reading never reached and which may have no alias at
/// all), or one looks like two structs with other aliases, none of them is
/// touched: an alias declared in the wrong one would be a member serde
/// drops. The instances of a generic type met count one each (serde hands
/// each its own visitor) and read the same names, so each of their
/// definitions is declared.
pub(crate) fn declare(
    defs: &mut Map<String, Value>,
    annotated: &HashSet<String>,
    learned: &[StructNames],
) {
    let mut groups: Vec<(&'static str, Option<&'static str>)> = Vec::new();
    for names in learned {
        if !groups.contains(&(names.container, names.variant)) {
            groups.push((names.container, names.variant));
        }
    }
    for (container, variant) in groups {
        let structs: Vec<&StructNames> = learned
            .iter()
            .filter(|names| names.container == container && names.variant == variant)
            .collect();
        if structs.iter().all(|names| {
            names.aliases.is_empty() && names.integers.is_empty() && names.required.is_none()
        }) {
            continue;
        }
        // Each definition that looks like one of the structs: its place,
        // and the structs it fits.
        let mut lookalikes: Vec<(String, Option<usize>, Vec<&StructNames>)> = Vec::new();
        for (name, definition) in defs.iter() {
            if annotated.contains(name) || !named_after(name, container) {
                continue;
            }
            let (at, object) = match variant {
                None => (None, definition),
                Some(variant) => match variant_object(definition, variant) {
                    Some((at, object)) => (Some(at), object),
                    None => continue,
                },
            };
            let fitting: Vec<&StructNames> = structs
                .iter()
                .copied()
                .filter(|names| fits(object, names))
                .collect();
            if !fitting.is_empty() {
                lookalikes.push((name.clone(), at, fitting));
            }
        }
        if lookalikes.len() > structs.iter().map(|names| names.instances).sum() {
            continue;
        }
        for (name, at, fitting) in lookalikes {
            let names = fitting[0];
            if fitting.iter().any(|other| {
                other.aliases != names.aliases
                    || other.integers != names.integers
                    || other.required != names.required
            }) {
                continue;
            }
            let Some(definition) = defs.get_mut(&name) else {
                continue;
            };
            let object = match (at, variant) {
                (Some(at), Some(variant)) => variant_object_mut(definition, at, variant),
                _ => definition.as_object_mut(),
            };
            if let Some(object) = object {
                declare_names(object, names);
            }
        }
    }
}

/// Declares `names`' required fields, integers and aliases in `object`,
/// the struct's schema (required first: a required field's aliases are
/// declared as one of its names required; integers before aliases: an
/// alias's property is a copy of its field's).
fn declare_names(object: &mut Map<String, Value>, names: &StructNames) {
    if let Some(required) = &names.required {
        require_as_serde_does(object, required);
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for &(name, steps) in &names.integers {
            let target = properties
                .get_mut(name)
                .and_then(|property| along(property, steps));
            if let Some(schema) = target.filter(|schema| takes_integers(schema)) {
                schema.insert(
                    crate::keywords::WRITTEN_AS_INTEGER.to_owned(),
                    Value::Bool(true),
                );
            }
        }
    }
    for written in &names.written {
        let aliases: Vec<&str> = names
            .aliases
            .iter()
            .filter(|(_, of)| of == written)
            .map(|(alias, _)| *alias)
            .collect();
        if !aliases.is_empty() {
            declare_aliases(object, written, &aliases);
        }
    }
}

/// Makes `object`'s `required` the names serde requires: schemars decides
/// by the field's type and its own attributes (`#[schemars(default)]`,
/// `#[schemars(required)]`, a `deserialize_with` on an `Option`), serde by
/// its own; a call the shown schema let through would be refused by serde,
/// or one serde takes refused by validation. The names already listed keep
/// their order; the others follow in the struct's.
fn require_as_serde_does(object: &mut Map<String, Value>, required: &[&'static str]) {
    let listed: Vec<String> = match object.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(|name| name.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let mut names: Vec<Value> = listed
        .iter()
        .filter(|name| required.contains(&name.as_str()))
        .map(|name| Value::String(name.clone()))
        .collect();
    for name in required {
        if !listed.iter().any(|listed| listed == name) {
            names.push(Value::String((*name).to_owned()));
        }
    }
    if names.is_empty() {
        object.remove("required");
    } else {
        object.insert("required".to_owned(), Value::Array(names));
    }
}

/// The schema `steps` ([`Field::steps`]) lead to from a property's: its
/// `items` for a sequence's, its `additionalProperties` for a map's values
/// (each written in place, not as a reference).
fn along(schema: &mut Value, steps: u32) -> Option<&mut Map<String, Value>> {
    let mut digits = Vec::new();
    let mut rest = steps;
    while rest > 0 {
        digits.push(rest % 4);
        rest /= 4;
    }
    let mut at = schema;
    for digit in digits.into_iter().rev() {
        let keyword = match digit {
            ITEMS => "items",
            VALUES => "additionalProperties",
            _ => return None,
        };
        at = at.get_mut(keyword)?;
    }
    at.as_object_mut()
}

/// Whether a property's schema says `"type": "integer"` itself (alone or
/// beside `"null"`): where an integer field's schema is a reference or a
/// union, nothing is marked.
fn takes_integers(property: &Map<String, Value>) -> bool {
    match property.get("type") {
        Some(Value::String(kind)) => kind == "integer",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "integer"),
        _ => false,
    }
}

/// Whether schemars' name `name` of a definition is the name `container`
/// serde gives the type: the same, or followed by a number (two types of
/// one name) or by the type arguments (`_for_`).
fn named_after(name: &str, container: &str) -> bool {
    let Some(rest) = name.strip_prefix(container) else {
        return false;
    };
    rest.is_empty() || rest.starts_with("_for_") || rest.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `schema`'s properties are `names`' members: every written name,
/// and no name the struct does not read (none marked an alias already).
fn fits(schema: &Value, names: &StructNames) -> bool {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return false;
    };
    names
        .written
        .iter()
        .all(|name| properties.contains_key(*name))
        && properties.iter().all(|(name, member)| {
            alias_of(member).is_none()
                && (names.written.contains(&name.as_str())
                    || names.unknown.contains(&name.as_str()))
        })
}

/// The object inside the branch of an externally tagged `variant`
/// (`{"variant": {...}}` alone), and the branch's place.
fn variant_object<'d>(definition: &'d Value, variant: &str) -> Option<(usize, &'d Value)> {
    union(definition)?
        .iter()
        .enumerate()
        .find_map(|(at, branch)| {
            let properties = branch.get("properties")?.as_object()?;
            (properties.len() == 1)
                .then(|| properties.get(variant))
                .flatten()
                .map(|object| (at, object))
        })
}

fn variant_object_mut<'d>(
    definition: &'d mut Value,
    at: usize,
    variant: &str,
) -> Option<&'d mut Map<String, Value>> {
    union_mut(definition)?
        .get_mut(at)?
        .get_mut("properties")?
        .get_mut(variant)?
        .as_object_mut()
}

/// What is known of one name a struct reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Name {
    /// Not yet asked.
    Unknown,
    /// It stands for the field written under this name (itself, when it
    /// is the written name).
    Of(&'static str),
}

/// One struct met (by `deserialize_struct`, or as a struct variant).
#[derive(Debug)]
struct Struct {
    container: &'static str,
    variant: Option<&'static str>,
    fields: &'static [&'static str],
    names: Vec<Name>,
    /// The names (by place) a value could not be made up under, each for
    /// the visitor's type it failed in: the instances of a generic type
    /// share one list of names but not what their fields hold (`Page<A>`
    /// may hold a value where `Page<B>` holds none).
    failed: HashSet<(usize, &'static str)>,
    /// serde refused the struct without it (a field with no default).
    required: Vec<bool>,
    /// The type names of the visitors serde handed for it: one a type
    /// (serde's derive writes one visitor, generic over the type's
    /// parameters), so the instances of a generic type count apart.
    visitors: HashSet<&'static str>,
    /// The names (by place) serde read as a Rust integer, each for the
    /// visitor's type it was read in, with the steps to the integer
    /// ([`Field::steps`]).
    integer: HashSet<(usize, &'static str, u32)>,
    /// The visitors' types serde read the struct whole in with only the
    /// fields known to be required sent: for them, every other field is
    /// optional.
    whole_with_required: HashSet<&'static str>,
}

/// One externally tagged enum met (its tag, for an adjacently tagged one).
#[derive(Debug)]
struct Choice {
    /// The variant's value could not be made up.
    failed: Vec<bool>,
    /// The variant was read in this round.
    tried: Vec<bool>,
}

#[derive(Debug, Default)]
struct State {
    structs: Vec<Struct>,
    struct_ids: HashMap<(usize, usize, &'static str, Option<&'static str>), usize>,
    enums: HashMap<(usize, usize, &'static str), Choice>,
    /// Where a sequence, a map or an `Option` is made up empty: its item
    /// could not be.
    empty: HashSet<u64>,
    /// The names sent where a map is asked for: a struct that flattens a
    /// field reads its own fields from a map, and names those it misses.
    map_keys: HashMap<u64, Vec<Key>>,
    /// Names sent where a map is asked for whose value could not be made
    /// up: sent no more.
    dropped: HashMap<u64, Vec<Key>>,
    /// Where a map is asked for and the schema hinted no names.
    unhinted: HashSet<u64>,
    hints: Hints,
    /// The types made up whole in this run, as a struct and its visitor's
    /// type name: made up again, they are made up small (a type holding
    /// one struct at many places would otherwise be made up whole at each,
    /// and that grows as the product of their numbers). The instances of
    /// a generic type share a struct and are made up whole each: what
    /// they hold differs.
    expanded: HashSet<(usize, &'static str)>,
    /// The types being read, outermost first.
    open: Vec<(usize, &'static str)>,
    /// The struct and name the last key sent was.
    last_key: Option<(usize, usize)>,
    /// Something was learned in this run.
    news: bool,
    /// A variant was read for the first time in this round, in this run.
    fresh: bool,
    /// The struct read with its required fields alone wherever it is met
    /// ([`learn`]'s second phase), to learn which fields serde requires.
    target: Option<usize>,
    /// The target was met in this run.
    target_met: bool,
}

impl Struct {
    /// Whether which fields serde requires is known for the struct: it is
    /// no generic type's (whose instances may differ), and serde took it
    /// with only its required fields sent.
    fn required_known(&self) -> bool {
        self.visitors.len() == 1
            && self
                .visitors
                .iter()
                .all(|visitor| self.whole_with_required.contains(visitor))
    }
}

impl State {
    /// One run of `T`'s `Deserialize` over made-up values, with what a run
    /// notes cleared first.
    fn run<T: DeserializeOwned>(&mut self) {
        self.news = false;
        self.fresh = false;
        self.expanded.clear();
        let _ = T::deserialize(Maker::root(self));
    }

    /// Every enum's variants are read again, from the first.
    fn untry_variants(&mut self) {
        for choice in self.enums.values_mut() {
            choice.tried.iter_mut().for_each(|tried| *tried = false);
        }
    }

    fn struct_id(
        &mut self,
        container: &'static str,
        variant: Option<&'static str>,
        fields: &'static [&'static str],
    ) -> usize {
        let key = (fields.as_ptr() as usize, fields.len(), container, variant);
        if let Some(&id) = self.struct_ids.get(&key) {
            return id;
        }
        self.structs.push(Struct {
            container,
            variant,
            fields,
            names: vec![Name::Unknown; fields.len()],
            failed: HashSet::new(),
            required: vec![false; fields.len()],
            visitors: HashSet::new(),
            integer: HashSet::new(),
            whole_with_required: HashSet::new(),
        });
        self.struct_ids.insert(key, self.structs.len() - 1);
        self.structs.len() - 1
    }

    /// How a struct that can never be made whole (a field it needs has no
    /// value) fails: while this run still learns something or reads a
    /// variant for the first time, the run ends (`Again`) and the struct
    /// is read again in the next, so that the variants below it are read
    /// in turn; failing for good would leave them unread.
    fn unfinished(&self) -> Stop {
        if self.news || self.fresh {
            Stop::Again
        } else {
            Stop::Failed
        }
    }

    fn names(&self) -> Vec<StructNames> {
        let mut learned: Vec<StructNames> = Vec::new();
        for found in &self.structs {
            let mut names = StructNames {
                container: found.container,
                variant: found.variant,
                aliases: Vec::new(),
                written: Vec::new(),
                unknown: Vec::new(),
                instances: found.visitors.len(),
                integers: Vec::new(),
                required: None,
            };
            if found.required_known() {
                names.required = Some(
                    found
                        .fields
                        .iter()
                        .zip(&found.required)
                        .filter(|(_, required)| **required)
                        .map(|(name, _)| *name)
                        .collect(),
                );
            }
            for (name, known) in found.fields.iter().zip(&found.names) {
                match known {
                    Name::Of(of) if of == name => names.written.push(name),
                    Name::Of(of) => names.aliases.push((name, of)),
                    Name::Unknown => names.unknown.push(name),
                }
            }
            let mut marks: Vec<(usize, u32)> = found
                .integer
                .iter()
                .map(|&(at, _, steps)| (at, steps))
                .collect();
            marks.sort_unstable();
            marks.dedup();
            for (at, steps) in marks {
                let name = found.fields[at];
                let every = found
                    .visitors
                    .iter()
                    .all(|visitor| found.integer.contains(&(at, *visitor, steps)));
                if every && names.written.contains(&name) {
                    names.integers.push((name, steps));
                }
            }
            learned.push(names);
        }
        learned
    }
}

/// Why a made-up reading stopped.
#[derive(Debug)]
enum Stop {
    /// Something was learned: the run starts again.
    Again,
    /// serde's `missing_field`.
    Missing(&'static str),
    /// serde's `duplicate_field`: the name the field is written under.
    Twice(&'static str),
    /// The value cannot be made up.
    Failed,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Stop {}

impl serde::de::Error for Stop {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Stop::Failed
    }

    fn missing_field(field: &'static str) -> Self {
        Stop::Missing(field)
    }

    fn duplicate_field(field: &'static str) -> Self {
        Stop::Twice(field)
    }
}

/// The deserializer that makes up a value for whatever it is asked.
struct Maker<'s> {
    state: &'s mut State,
    depth: usize,
    /// Inside a struct that is already being read (a recursive type), or
    /// one made up whole already in this run: the smallest value, so that
    /// the reading ends, and soon.
    minimal: bool,
    /// Where the value is, for [`State::empty`].
    site: u64,
    /// The struct field whose value this is, or is inside of.
    field: Option<Field>,
}

/// A struct field (its struct, its place, the visitor's type), and the way
/// from its value to the value at hand: `Option`s are passed through, and
/// each step into a sequence's items or a map's values is a digit of
/// `steps` (most significant first).
#[derive(Clone, Copy, Debug)]
struct Field {
    id: usize,
    at: usize,
    visitor: &'static str,
    steps: u32,
}

/// A step into a sequence's items, in [`Field::steps`].
const ITEMS: u32 = 1;
/// A step into a map's values, in [`Field::steps`].
const VALUES: u32 = 2;

impl Field {
    /// The field, one step further in; `None` past a few steps.
    fn step(self, step: u32) -> Option<Field> {
        (self.steps < 1 << 12).then_some(Field {
            steps: self.steps * 4 + step,
            ..self
        })
    }
}

/// The site of the value `step` leads to from `site`.
fn step(site: u64, step: u64) -> u64 {
    (site.rotate_left(7) ^ step).wrapping_mul(0x0100_0000_01b3)
}

impl<'s> Maker<'s> {
    fn root(state: &'s mut State) -> Self {
        Maker {
            state,
            depth: 0,
            minimal: false,
            site: 0,
            field: None,
        }
    }

    fn child(&mut self, to: u64) -> Maker<'_> {
        self.child_in(to, None)
    }

    /// [`Maker::child`], inside the struct field `field` (the value at
    /// hand's own, or one step further in).
    fn child_in(&mut self, to: u64, field: Option<Field>) -> Maker<'_> {
        Maker {
            state: self.state,
            depth: self.depth + 1,
            minimal: self.minimal,
            site: step(self.site, to),
            field,
        }
    }

    /// The names the schema hints where serde's derive reads a map into
    /// a struct (`visitor` its visitor's type name), kept as this site's
    /// names; none where it hints none.
    fn hinted(&mut self, visitor: &str) -> Option<Vec<Key>> {
        if self.state.unhinted.contains(&self.site) {
            return None;
        }
        let names = self.state.hints.for_map(visitor, self.depth == 0);
        if names.is_empty() {
            self.state.unhinted.insert(self.site);
            return None;
        }
        self.state.map_keys.insert(self.site, names.clone());
        Some(names)
    }

    /// Where a map (a struct that flattens) can never be made whole: made
    /// up empty from now on, once a run learns nothing more
    /// ([`State::unfinished`]).
    fn map_failed(&mut self, stop: Stop) -> Stop {
        match self.state.unfinished() {
            Stop::Again => Stop::Again,
            _ => self.item_failed(stop),
        }
    }

    /// Notes the struct field this value is as read as a Rust integer when
    /// `V` is the visitor of serde's own integer impl (`PrimitiveVisitor`,
    /// `NonZeroVisitor`), which refuses a float: a visitor of anyone else's
    /// may take one.
    fn integer<V>(&mut self) {
        let visitor = std::any::type_name::<V>();
        let serdes = visitor.starts_with("serde")
            && visitor.contains("::impls::")
            && (visitor.ends_with("::PrimitiveVisitor") || visitor.ends_with("::NonZeroVisitor"));
        if let (true, Some(field)) = (serdes, self.field) {
            let found = &mut self.state.structs[field.id];
            found.integer.insert((field.at, field.visitor, field.steps));
        }
    }

    /// Whether a sequence, map or `Option` here is made up empty.
    fn empty_here(&self) -> bool {
        self.minimal || self.state.empty.contains(&self.site)
    }

    /// Where an item of a sequence, map or `Option` failed: made up empty
    /// from now on (`Again`), or, already empty, failed.
    fn item_failed(&mut self, stop: Stop) -> Stop {
        match stop {
            Stop::Again => Stop::Again,
            _ if self.state.empty.insert(self.site) => {
                self.state.news = true;
                Stop::Again
            }
            _ => Stop::Failed,
        }
    }

    fn structure<'de, V: Visitor<'de>>(
        self,
        container: &'static str,
        variant: Option<&'static str>,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        if self.depth > MAX_DEPTH {
            return Err(Stop::Failed);
        }
        let id = self.state.struct_id(container, variant, fields);
        let instance = (id, std::any::type_name::<V>());
        self.state.structs[id].visitors.insert(instance.1);
        let target = self.state.target == Some(id);
        self.state.target_met |= target;
        let minimal = self.minimal
            || target
            || self.state.open.contains(&instance)
            || !self.state.expanded.insert(instance);
        let found = &self.state.structs[id];
        let mut feed = Vec::new();
        for (at, name) in fields.iter().enumerate() {
            if found.failed.contains(&(at, instance.1)) {
                continue;
            }
            match found.names[at] {
                Name::Of(of) if of == *name && (!minimal || found.required[at]) => feed.push(at),
                Name::Of(_) => {}
                // Sent twice: serde names the field it stands for.
                Name::Unknown if !minimal => {
                    feed.extend([at, at]);
                    break;
                }
                Name::Unknown => {}
            }
        }
        self.state.open.push(instance);
        let read = visitor.visit_map(Members {
            state: &mut *self.state,
            depth: self.depth,
            minimal,
            site: self.site,
            id,
            visitor: instance.1,
            feed,
            next: 0,
        });
        self.state.open.pop();
        match read {
            Ok(value) => {
                if minimal {
                    self.state.structs[id]
                        .whole_with_required
                        .insert(instance.1);
                }
                Ok(value)
            }
            Err(Stop::Again) => Err(Stop::Again),
            Err(Stop::Twice(of)) => match self.state.last_key {
                Some((last, at)) if last == id => {
                    let known = &mut self.state.structs[id].names[at];
                    if *known == Name::Unknown {
                        *known = Name::Of(of);
                        self.state.news = true;
                        Err(Stop::Again)
                    } else {
                        Err(Stop::Failed)
                    }
                }
                _ => Err(Stop::Failed),
            },
            Err(Stop::Missing(name)) => {
                let found = &mut self.state.structs[id];
                // serde names a missing field by its written name: known
                // now, and sent from now on where a value can be made up.
                let Some(at) = fields.iter().position(|field| *field == name) else {
                    return Err(Stop::Failed);
                };
                let named = found.names[at] != Name::Of(name);
                let required = !found.failed.contains(&(at, instance.1)) && !found.required[at];
                found.names[at] = Name::Of(name);
                found.required[at] |= required;
                if named || required {
                    self.state.news = true;
                    Err(Stop::Again)
                } else {
                    Err(self.state.unfinished())
                }
            }
            Err(Stop::Failed) => Err(Stop::Failed),
        }
    }
}

/// A struct's members as [`Maker`] sends them.
struct Members<'s> {
    state: &'s mut State,
    depth: usize,
    minimal: bool,
    site: u64,
    id: usize,
    /// The type name of serde's visitor: which instance is read.
    visitor: &'static str,
    /// The places, in the struct's names, of the names sent.
    feed: Vec<usize>,
    next: usize,
}

impl<'de> MapAccess<'de> for Members<'_> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        let Some(&at) = self.feed.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        self.state.last_key = Some((self.id, at));
        let name = self.state.structs[self.id].fields[at];
        seed.deserialize(BorrowedStrDeserializer::new(name))
            .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Stop> {
        let at = self.feed[self.next.saturating_sub(1)];
        let fields = self.state.structs[self.id].fields;
        let maker = Maker {
            state: &mut *self.state,
            depth: self.depth + 1,
            minimal: self.minimal,
            site: step(self.site, fields.as_ptr() as u64 ^ at as u64),
            field: Some(Field {
                id: self.id,
                at,
                visitor: self.visitor,
                steps: 0,
            }),
        };
        match seed.deserialize(maker) {
            Ok(value) => Ok(value),
            Err(Stop::Again) => Err(Stop::Again),
            Err(_) => {
                self.state.structs[self.id]
                    .failed
                    .insert((at, self.visitor));
                self.state.news = true;
                Err(Stop::Again)
            }
        }
    }
}

/// Items of a made-up sequence, or a tuple's.
struct Items<'s> {
    maker: Maker<'s>,
    left: usize,
    made: u64,
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = Stop;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Stop> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.made += 1;
        let made = self.made;
        // A sequence's items are the same field's, one step in; a tuple's
        // (no field) each their own.
        let field = self.maker.field;
        seed.deserialize(self.maker.child_in(16 + made, field))
            .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// The one entry of a made-up map.
struct Entry<'s> {
    maker: Maker<'s>,
    sent: bool,
}

impl<'de> MapAccess<'de> for Entry<'_> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        if self.sent {
            return Ok(None);
        }
        self.sent = true;
        seed.deserialize(self.maker.child(2)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Stop> {
        // The map's values are the same field's, one step in.
        let field = self.maker.field;
        seed.deserialize(self.maker.child_in(3, field))
    }
}

/// The members of a made-up map, under the names given.
struct Named<'s> {
    maker: Maker<'s>,
    /// The map's site, where its names are kept.
    site: u64,
    keys: Vec<Key>,
    next: usize,
}

impl<'de> MapAccess<'de> for Named<'_> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        let Some(name) = self.keys.get(self.next) else {
            return Ok(None);
        };
        self.next += 1;
        seed.deserialize(StrDeserializer::new(name)).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Stop> {
        // The value's site follows from its name, not its place: a name
        // whose value cannot be made up leaves the list, and what is known
        // of the sites below the others stays theirs.
        let name = &self.keys[self.next - 1];
        let to = name.bytes().fold(64, |at, byte| step(at, u64::from(byte)));
        match seed.deserialize(self.maker.child(to)) {
            Ok(value) => Ok(value),
            Err(Stop::Again) => Err(Stop::Again),
            // Not sent again: the others are, and the types below them
            // reached (a name the struct needs is missed, and then the
            // map fails).
            Err(_) => {
                let name = name.clone();
                let state = &mut *self.maker.state;
                if let Some(keys) = state.map_keys.get_mut(&self.site) {
                    keys.retain(|key| *key != name);
                }
                state.dropped.entry(self.site).or_default().push(name);
                state.news = true;
                Err(Stop::Again)
            }
        }
    }
}

/// The variant a made-up enum value takes.
struct Variant<'s> {
    maker: Maker<'s>,
    /// The enum's name, serde's.
    container: &'static str,
    name: &'static str,
}

impl<'de> EnumAccess<'de> for Variant<'_> {
    type Error = Stop;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), Stop> {
        let value = seed.deserialize(BorrowedStrDeserializer::new(self.name))?;
        Ok((value, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'_> {
    type Error = Stop;

    fn unit_variant(self) -> Result<(), Stop> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(mut self, seed: S) -> Result<S::Value, Stop> {
        seed.deserialize(self.maker.child(5))
    }

    fn tuple_variant<V: Visitor<'de>>(mut self, len: usize, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_seq(Items {
            maker: self.maker.child(6),
            left: len,
            made: 0,
        })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        let maker = Maker {
            depth: self.maker.depth + 1,
            site: step(self.maker.site, 7),
            ..self.maker
        };
        maker.structure(self.container, Some(self.name), fields, visitor)
    }
}

impl<'de> Deserializer<'de> for Maker<'_> {
    type Error = Stop;

    // What asks for any value buffers it (an untagged or internally tagged
    // enum, a `Value`, a struct's flattened members) and reads it with
    // serde's own deserializer, which no depth limit of ours bounds (a
    // recursive untagged enum recurses there without end): nothing is made
    // up for it.
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop::Failed)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_bool(false)
    }

    // One is every integer type's, a `NonZero`'s too.
    fn deserialize_i8<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        self.integer::<V>();
        visitor.visit_u64(1)
    }
    fn deserialize_i16<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        self.integer::<V>();
        visitor.visit_u64(1)
    }
    fn deserialize_i32<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        self.integer::<V>();
        visitor.visit_u64(1)
    }
    fn deserialize_i64<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        self.integer::<V>();
        visitor.visit_u64(1)
    }
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_u64(1)
    }
    fn deserialize_u8<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        self.integer::<V>();
        visitor.visit_u64(1)
    }
    fn deserialize_u16<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        self.integer::<V>();
        visitor.visit_u64(1)
    }
    fn deserialize_u32<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        self.integer::<V>();
        visitor.visit_u64(1)
    }
    fn deserialize_u64<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        self.integer::<V>();
        visitor.visit_u64(1)
    }
    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_u64(1)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_f64(1.0)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_f64(1.0)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_char('a')
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_str("a")
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_str("a")
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_str("a")
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_bytes(&[])
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_bytes(&[])
    }

    fn deserialize_option<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        if self.depth > MAX_DEPTH || self.empty_here() {
            return visitor.visit_none();
        }
        let field = self.field;
        match visitor.visit_some(self.child_in(4, field)) {
            Ok(value) => Ok(value),
            Err(stop) => Err(self.item_failed(stop)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        mut self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        if self.depth > MAX_DEPTH {
            return Err(Stop::Failed);
        }
        visitor.visit_newtype_struct(self.child(8))
    }

    fn deserialize_seq<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        let empty = self.depth > MAX_DEPTH || self.empty_here();
        let field = self.field.and_then(|field| field.step(ITEMS));
        let items = Items {
            maker: self.child_in(1, field),
            left: usize::from(!empty),
            made: 0,
        };
        match visitor.visit_seq(items) {
            Ok(value) => Ok(value),
            Err(stop) if !empty => Err(self.item_failed(stop)),
            Err(stop) => Err(stop),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        mut self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        if self.depth > MAX_DEPTH {
            return Err(Stop::Failed);
        }
        visitor.visit_seq(Items {
            maker: self.child(9),
            left: len,
            made: 0,
        })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, Stop> {
        let empty = self.depth > MAX_DEPTH || self.empty_here();
        let keys = match empty {
            true => None,
            false => match self.state.map_keys.get(&self.site) {
                Some(keys) => Some(keys.clone()),
                None => self.hinted(std::any::type_name::<V>()),
            },
        };
        let site = self.site;
        let read = match keys {
            // A struct that flattens: the fields it named missing, or the
            // schema names, so that the types below them are reached.
            Some(keys) => visitor.visit_map(Named {
                maker: self.child(11),
                site,
                keys,
                next: 0,
            }),
            None => {
                let field = self.field.and_then(|field| field.step(VALUES));
                visitor.visit_map(Entry {
                    maker: self.child_in(10, field),
                    sent: empty,
                })
            }
        };
        let named = self.state.map_keys.contains_key(&self.site);
        match read {
            Ok(value) => Ok(value),
            Err(Stop::Again) => Err(Stop::Again),
            _ if empty => Err(Stop::Failed),
            // A map whose made-up entry failed, or a struct that flattens
            // (its made-up member is buffered, and refused): the names it
            // misses are sent from now on, one more each run.
            Err(Stop::Missing(name)) => {
                let dropped = self
                    .state
                    .dropped
                    .get(&self.site)
                    .is_some_and(|dropped| dropped.iter().any(|key| key == name));
                let keys = self.state.map_keys.entry(self.site).or_default();
                if dropped || keys.iter().any(|key| key == name) {
                    Err(self.map_failed(Stop::Failed))
                } else {
                    keys.push(Cow::Borrowed(name));
                    self.state.news = true;
                    Err(Stop::Again)
                }
            }
            Err(_) if !named => {
                self.state.map_keys.insert(self.site, Vec::new());
                self.state.news = true;
                Err(Stop::Again)
            }
            Err(stop) => Err(self.map_failed(stop)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        self.structure(name, None, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        if self.depth > MAX_DEPTH || variants.is_empty() {
            return Err(Stop::Failed);
        }
        let key = (variants.as_ptr() as usize, variants.len(), name);
        let minimal = self.minimal;
        let choice = self.state.enums.entry(key).or_insert_with(|| Choice {
            failed: vec![false; variants.len()],
            tried: vec![false; variants.len()],
        });
        let open = |at: &usize| !choice.failed[*at];
        let untried = (0..variants.len()).find(|at| open(at) && !choice.tried[*at]);
        let Some(at) = untried
            .filter(|_| !minimal)
            .or_else(|| (0..variants.len()).find(open))
        else {
            return Err(Stop::Failed);
        };
        let read = visitor.visit_enum(Variant {
            maker: self.child(32 + at as u64),
            container: name,
            name: variants[at],
        });
        let choice = self.state.enums.get_mut(&key).expect("inserted above");
        match read {
            Ok(value) => {
                if !minimal && !choice.tried[at] {
                    choice.tried[at] = true;
                    self.state.fresh = true;
                }
                Ok(value)
            }
            Err(Stop::Again) => Err(Stop::Again),
            Err(_) => {
                choice.failed[at] = true;
                self.state.news = true;
                Err(Stop::Again)
            }
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;
    use std::collections::BTreeMap;

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Leaf {
        #[serde(alias = "a1", alias = "a2")]
        a: u32,
        #[serde(default, alias = "b1")]
        b: Option<String>,
        c: std::num::NonZeroU8,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    #[serde(tag = "k")]
    enum Internal {
        P { p: u32 },
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    enum External {
        U,
        S {
            #[serde(alias = "s1")]
            s: u8,
            leaves: BTreeMap<String, Box<Leaf>>,
        },
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Node {
        #[serde(alias = "n1")]
        name: String,
        children: Vec<Node>,
        // Nothing can be made up for it: what its alias stands for stays
        // unknown.
        #[serde(alias = "i1")]
        internal: Internal,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Root {
        leaf: Option<Leaf>,
        external: (u8, External),
        nodes: Vec<Node>,
    }

    fn found(learned: &[StructNames], container: &str) -> StructNames {
        let mut of = learned.iter().filter(|names| names.container == container);
        let names = of
            .next()
            .unwrap_or_else(|| panic!("{container}: {learned:?}"));
        assert!(of.next().is_none(), "{learned:?}");
        names.clone()
    }

    #[test]
    fn learns_every_alias_serde_reads_where_a_value_can_be_made_up() {
        let learned = learn::<Root>(Hints::default());
        let leaf = found(&learned, "Leaf");
        assert_eq!(leaf.aliases, [("a1", "a"), ("a2", "a"), ("b1", "b")]);
        assert_eq!(leaf.written, ["a", "b", "c"]);
        assert!(leaf.unknown.is_empty());
        let variant = found(&learned, "External");
        assert_eq!(variant.variant, Some("S"));
        assert_eq!(variant.aliases, [("s1", "s")]);
        let node = found(&learned, "Node");
        assert_eq!(node.aliases, [("n1", "name")]);
        // `internal` itself is known (serde asked for it, missing); `i1`,
        // whose value fails, is not.
        assert_eq!(node.written, ["name", "children", "internal"]);
        assert_eq!(node.unknown, ["i1"]);
        let root = found(&learned, "Root");
        assert!(root.aliases.is_empty());
        assert_eq!(root.written, ["leaf", "external", "nodes"]);
        // What serde requires, learned wherever the struct is met (below an
        // `Option`, as a variant, inside itself); not where a field it
        // requires can never be made up (`Node`'s `internal`).
        assert_eq!(leaf.required, Some(vec!["a", "c"]));
        assert_eq!(variant.required, Some(vec!["s", "leaves"]));
        assert_eq!(root.required, Some(vec!["external", "nodes"]));
        assert_eq!(node.required, None);
    }

    #[test]
    fn a_deserialize_that_panics_teaches_nothing() {
        struct Panics;
        impl<'de> Deserialize<'de> for Panics {
            fn deserialize<D: Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
                panic!("made-up values are refused by panicking")
            }
        }
        assert!(learn::<Panics>(Hints::default()).is_empty());
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Page<T> {
        #[serde(alias = "rows")]
        items: Vec<T>,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Pages {
        ids: Page<u32>,
        names: Page<String>,
        again: Option<Page<u32>>,
    }

    #[test]
    fn counts_the_instances_of_a_generic_type_apart() {
        let learned = learn::<Pages>(Hints::default());
        let page = found(&learned, "Page");
        assert_eq!(page.aliases, [("rows", "items")]);
        // `Page<u32>`, met twice, is one type.
        assert_eq!(page.instances, 2);
        assert_eq!(found(&learned, "Pages").instances, 1);
        // What a generic field requires depends on its type: not said.
        assert_eq!(page.required, None);
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Holder<T> {
        held: T,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Aliased {
        #[serde(alias = "v1")]
        v: u8,
    }

    /// `Holder<Internal>` is met first, and nothing can be made up for its
    /// `held`; `Holder<Aliased>` shares its list of names and still sends
    /// `held`, so `Aliased`'s alias is learned (generated `--learned` seed
    /// 405, larger draws: the alias was refused).
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct HoldersAfterAFailure {
        first: Holder<Internal>,
        then: BTreeMap<String, Holder<Aliased>>,
    }

    #[test]
    fn a_field_that_fails_in_one_instance_is_still_read_in_another() {
        let learned = learn::<HoldersAfterAFailure>(Hints::default());
        assert_eq!(found(&learned, "Aliased").aliases, [("v1", "v")]);
        assert_eq!(found(&learned, "Holder").instances, 2);
    }

    #[test]
    fn names_the_type_a_derived_visitor_is_for() {
        let named = derived_type_name;
        assert_eq!(
            named(
                "a::_::<impl serde_core::de::Deserialize<'_> for a::b::Root>::deserialize::__Visitor<'_>"
            ),
            Some("Root")
        );
        assert_eq!(
            named(
                "a::_::<impl serde_core::de::Deserialize<'_> for a::G<_>>::deserialize::__Visitor<'_, u8>"
            ),
            Some("G")
        );
        // A map's own visitor is not a derive's: nothing is hinted there.
        assert_eq!(
            named(
                "serde_core::de::impls::<impl serde_core::de::Deserialize<'_> for alloc::collections::btree::map::BTreeMap<_, _>>::deserialize::MapVisitor<u8, u8>"
            ),
            None
        );
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Extra {
        e: u8,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Flattening {
        #[serde(default)]
        leaf: Option<Leaf>,
        #[serde(flatten)]
        extra: Extra,
    }

    #[test]
    fn the_optional_fields_of_a_struct_that_flattens_are_reached_where_named() {
        // serde names only the required fields it misses: `leaf`, optional,
        // is never asked for, and `Leaf` is not reached.
        let unhinted = learn::<Flattening>(Hints::default());
        assert!(
            !unhinted.iter().any(|names| names.container == "Leaf"),
            "{unhinted:?}"
        );
        let hints = Hints::of(
            &json!({"properties": {"leaf": {}, "e": {}, "zz": {}}}),
            &Map::new(),
        );
        let learned = learn::<Flattening>(hints);
        assert_eq!(
            found(&learned, "Leaf").aliases,
            [("a1", "a"), ("a2", "a"), ("b1", "b")]
        );
        // Below the root, the definition named as the type its visitor is
        // for (the derive's visitor's type name, as it is met) hints them.
        let defs = serde_json::from_value(json!({
            "Flattening": {"properties": {"leaf": {}, "e": {}}},
            "Other": {"properties": {"zz": {}}}
        }))
        .unwrap();
        let learned = learn::<Outer>(Hints::of(&json!({}), &defs));
        assert_eq!(
            found(&learned, "Leaf").aliases,
            [("a1", "a"), ("a2", "a"), ("b1", "b")]
        );
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        inner: Vec<Flattening>,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    enum Tagged {
        A { x: u8 },
    }

    /// Cannot be made up: serde looks for a flattened externally tagged
    /// enum's key among members it buffered, and none is ever buffered.
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Breaks {
        #[serde(flatten)]
        tagged: Tagged,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct AfterOneThatBreaks {
        first: Breaks,
        #[serde(default)]
        leaves: Vec<Leaf>,
        #[serde(flatten)]
        extra: Extra,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    enum Two {
        First {
            x: u8,
        },
        Second {
            #[serde(alias = "y1")]
            y: u8,
        },
    }

    /// Never whole: the enum it flattens is never found among the members
    /// serde buffered (as for `Breaks`).
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct NeverWhole {
        two: Two,
        #[serde(flatten)]
        tagged: Tagged,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct HoldsNeverWhole {
        inner: Option<NeverWhole>,
    }

    #[test]
    fn every_variant_below_a_struct_never_whole_is_read() {
        // Each run reads one variant not read before; the struct around
        // fails at its end each time, and failing for good after the first
        // variant left the second unread.
        let learned = learn::<HoldsNeverWhole>(Hints::default());
        let second = learned
            .iter()
            .find(|names| names.variant == Some("Second"))
            .unwrap_or_else(|| panic!("{learned:?}"));
        assert_eq!(second.aliases, [("y1", "y")]);
    }

    #[test]
    fn a_name_sent_no_more_leaves_the_others_their_sites() {
        // `first` is sent no more once its value fails; `leaves`, after it,
        // keeps what is known below it (an empty `Vec` there was `first`'s
        // failure, when sites followed a name's place in the list).
        let hints = Hints::of(
            &json!({"properties": {"first": {}, "leaves": {}, "e": {}}}),
            &Map::new(),
        );
        let learned = learn::<AfterOneThatBreaks>(hints);
        assert_eq!(
            found(&learned, "Leaf").aliases,
            [("a1", "a"), ("a2", "a"), ("b1", "b")]
        );
    }

    fn lenient<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        Ok(f64::deserialize(deserializer)? as u32)
    }

    /// A number that takes `1` and `1.0` alike, by a visitor of its own.
    #[derive(Debug)]
    struct Loose;

    impl<'de> Deserialize<'de> for Loose {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct Any;
            impl serde::de::Visitor<'_> for Any {
                type Value = Loose;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a number")
                }
                fn visit_u64<E>(self, _: u64) -> Result<Loose, E> {
                    Ok(Loose)
                }
                fn visit_f64<E>(self, _: f64) -> Result<Loose, E> {
                    Ok(Loose)
                }
            }
            deserializer.deserialize_u64(Any)
        }
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Counts {
        count: u32,
        #[serde(alias = "most")]
        max: Option<i64>,
        non_zero: std::num::NonZeroU16,
        ratio: f64,
        #[serde(deserialize_with = "lenient")]
        lenient: u32,
        loose: Loose,
        many: Vec<u8>,
        by_name: BTreeMap<String, Option<u16>>,
        pair: (u8, f32),
    }

    /// serde's own integer impls mark their fields (through an `Option`
    /// too) and a sequence's items or a map's values; a float, a field read
    /// by a function of its own, a visitor of another's and a tuple's
    /// elements are not marked.
    #[test]
    fn learns_the_fields_serde_reads_as_integers() {
        let learned = learn::<Counts>(Hints::default());
        let counts = found(&learned, "Counts");
        assert_eq!(
            counts.integers,
            [
                ("count", 0),
                ("max", 0),
                ("non_zero", 0),
                ("many", ITEMS),
                ("by_name", VALUES)
            ]
        );
        let mut object = json!({"properties": {
            "count": {"type": "integer", "format": "uint32"},
            "max": {"type": ["integer", "null"], "format": "int64"},
            "non_zero": {"$ref": "#/$defs/NonZeroU16"},
            "ratio": {"type": "number"},
            "lenient": {"type": "integer"},
            "loose": true,
            "many": {"type": "array", "items": {"type": "integer"}},
            "by_name": {"type": "object", "additionalProperties": {"type": ["integer", "null"]}},
            "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "number"}]},
        }});
        declare_names(object.as_object_mut().unwrap(), &counts);
        let marked: Vec<&String> = object["properties"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, schema)| schema.get(crate::keywords::WRITTEN_AS_INTEGER).is_some())
            .map(|(name, _)| name)
            .collect();
        // `most` is the alias's copy of `max`; a reference is not marked.
        assert_eq!(marked, ["count", "max", "most"]);
        assert_eq!(
            object["properties"]["many"]["items"][crate::keywords::WRITTEN_AS_INTEGER],
            true
        );
        let values = &object["properties"]["by_name"]["additionalProperties"];
        assert_eq!(values[crate::keywords::WRITTEN_AS_INTEGER], true);
        // A tuple's elements are not marked (each has a schema of its own).
        assert!(!object["properties"]["pair"].to_string().contains("written"));
    }

    fn leaf_names() -> StructNames {
        StructNames {
            container: "Leaf",
            variant: None,
            aliases: vec![("a1", "a")],
            written: vec!["a", "c"],
            unknown: vec![],
            instances: 1,
            integers: vec![],
            required: None,
        }
    }

    #[test]
    fn declares_where_the_definition_is_the_structs() {
        let object = json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "c": {"type": "boolean"}},
            "required": ["a", "c"]
        });
        let mut defs: Map<String, Value> = serde_json::from_value(json!({
            "Leaf": object, "Leaf2": object, "Leaf_for_uint8": object,
            // Another name, other members, or a derive's own: untouched.
            "Leafy": object, "Annotated": object,
            "Leaf3": {"type": "object", "properties": {"a": {}, "d": {}}},
        }))
        .unwrap();
        let before = defs.clone();
        let annotated = HashSet::from(["Annotated".to_owned()]);
        // Three structs of the name met, each with its own list of names
        // (two instances of a generic type may have one list, or two).
        declare(
            &mut defs,
            &annotated,
            &[leaf_names(), leaf_names(), leaf_names()],
        );
        for name in ["Leaf", "Leaf2", "Leaf_for_uint8"] {
            assert_eq!(
                defs[name]["properties"]["a1"][crate::keywords::ALIAS_OF],
                "a"
            );
            assert_eq!(defs[name]["required"], json!(["c"]));
            assert_eq!(
                defs[name]["allOf"],
                json!([{"anyOf": [{"required": ["a"]}, {"required": ["a1"]}]}])
            );
        }
        for name in ["Leafy", "Annotated", "Leaf3"] {
            assert_eq!(defs[name], before[name], "{name}");
        }
    }

    #[test]
    fn two_structs_fitting_one_definition_with_other_aliases_leave_it() {
        let object = json!({"properties": {"a": {}, "c": {}}});
        let mut defs: Map<String, Value> =
            serde_json::from_value(json!({ "Leaf": object })).unwrap();
        let other = StructNames {
            aliases: vec![("a2", "a")],
            ..leaf_names()
        };
        declare(&mut defs, &HashSet::new(), &[leaf_names(), other]);
        assert_eq!(defs["Leaf"], object);
    }

    #[test]
    fn more_lookalike_definitions_than_structs_met_leave_them_all() {
        // Two definitions of a struct's name and members, one struct met:
        // which one it is, nothing tells.
        let object = json!({"properties": {"a": {}, "c": {}}});
        let mut defs: Map<String, Value> =
            serde_json::from_value(json!({ "Leaf": object, "Leaf2": object })).unwrap();
        let before = defs.clone();
        declare(&mut defs, &HashSet::new(), &[leaf_names()]);
        assert_eq!(defs, before);
        // Met as two types of one list of names (two instances of a
        // generic type), both are declared.
        let generic = StructNames {
            instances: 2,
            ..leaf_names()
        };
        let mut instances = defs.clone();
        declare(&mut instances, &HashSet::new(), &[generic]);
        for name in ["Leaf", "Leaf2"] {
            assert_eq!(
                instances[name]["properties"]["a1"][crate::keywords::ALIAS_OF],
                "a"
            );
        }
        // Met as two structs (two lists of names), both are declared.
        let twin = StructNames {
            written: vec!["a", "c"],
            ..leaf_names()
        };
        declare(&mut defs, &HashSet::new(), &[leaf_names(), twin]);
        assert_eq!(
            defs["Leaf2"]["properties"]["a1"][crate::keywords::ALIAS_OF],
            "a"
        );
    }

    #[test]
    fn declares_an_externally_tagged_struct_variant_in_its_branch() {
        let mut defs: Map<String, Value> = serde_json::from_value(json!({"E": {"oneOf": [
            {"type": "string", "enum": ["U"]},
            {"type": "object", "properties": {"S": {"type": "object", "properties": {"a": {}, "c": {}}}}}
        ]}}))
        .unwrap();
        let names = StructNames {
            container: "E",
            variant: Some("S"),
            ..leaf_names()
        };
        declare(&mut defs, &HashSet::new(), &[names]);
        assert_eq!(
            defs["E"]["oneOf"][1]["properties"]["S"]["properties"]["a1"][crate::keywords::ALIAS_OF],
            "a"
        );
    }

    macro_rules! chain {
        ($name:ident, $next:ty) => {
            #[derive(Deserialize)]
            #[allow(dead_code)]
            struct $name {
                #[serde(alias = "n1")]
                n: $next,
                m: Option<Box<$next>>,
            }
        };
    }
    chain!(S0, S1);
    chain!(S1, S2);
    chain!(S2, S3);
    chain!(S3, S4);
    chain!(S4, S5);
    chain!(S5, S6);
    chain!(S6, S7);
    chain!(S7, S8);
    chain!(S8, S9);
    chain!(S9, S10);
    chain!(S10, S11);
    chain!(S11, S12);
    chain!(S12, S13);
    chain!(S13, S14);
    chain!(S14, S15);
    chain!(S15, S16);
    chain!(S16, S17);
    chain!(S17, S18);
    chain!(S18, S19);
    chain!(S19, u8);

    #[test]
    fn a_deep_type_is_read_within_a_small_stack() {
        // Twenty distinct structs, each holding the next twice: the reading
        // makes no value up past `MAX_DEPTH`, so a thread's stack (a test's
        // or a runtime worker's, 2 MiB) holds it with room to spare.
        let learned = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| learn::<S0>(Hints::default()))
            .unwrap()
            .join()
            .unwrap();
        for depth in ["S0", "S19"] {
            assert!(
                learned
                    .iter()
                    .any(|names| names.container == depth && names.aliases == [("n1", "n")]),
                "{depth}: {learned:?}"
            );
        }
    }
}

//! `#[serde(flatten)] field: Option<T>`: the members of `T` either make a
//! whole `T`, or are not sent at all.
//!
//! serde reads such a field by trying `T` on the members its struct does not
//! claim, and takes `None` when that fails, *whatever failed*: a `T` sent in
//! part (`{"lo": 1}` of `struct Range { lo, hi }`), a member of the wrong
//! type (`1.0` for an integer), an enum's variant with a field missing. Every
//! member of `T` that was sent is then dropped without a word.
//!
//! schemars writes the field as if each of `T`'s members could be left out
//! on its own: a struct's members merged into the flattening struct's
//! `properties` with `required` removed, an enum's union beside an empty
//! branch (`anyOf: [T, {}]`). For an enum, closing the flattening struct
//! with `unevaluatedProperties: false` ([`crate::closing`], which reads the
//! empty branch as declaring no member) says it: a member of a `T` that
//! fails is unevaluated. For a struct, the derive adds what is missing, as
//! `dependentSchemas`: each member of `T` requires what `T` requires (its
//! required fields, an alias of one counting, and the rest of `T`'s
//! rules). `T`'s members stay where schemars put them, so the struct stays a
//! plain object, with no union at its root (providers refuse one there), and
//! its integers refuse `1.0`, as serde does inside the flattened field.
//!
//! What the schema cannot say (a string `T` parses, a `deserialize_with`, a
//! map or an enum `T` flattens) `T` is asked at validation: the object
//! carries [`WHOLE`], whose entries read `T` as serde's flattening does
//! (`crate::validate::flattened_read`, `crate::validate::flattened_wholes`).
//!
//! Another flattened field of the object may keep what `T` drops: one that
//! is no `Option` always keeps what it reads (unless `T` took it first: a
//! struct takes what it reads from the members left), and where one keeps
//! any member (a map), nothing of `T` is lost. Those names are neither
//! required of `T` nor counted as dropped. A field that is itself an
//! `Option` keeps only what it reads whole, which only validation knows.
//!
//! A newtype around a type (`struct W(Inner)`) is written by schemars as a
//! reference beside the object's members, which applies `Inner` as it
//! stands; it is merged as schemars merges a type it flattens inline.

use super::annotate::{
    Annotator, EVERYTHING, Place, Sibling, locate, place_mut, push_index, takes_any_member,
};
use crate::alias_groups::{add_dependent_schema, alias_of};
use crate::plan::admits_null;
use crate::untagged::forms::mark_written_as_integer;
use crate::validate::flattened_wholes::{
    ByBranch, ByTag, Members, Reader, WHOLE, WholeRead, union_branches,
};
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// Rewrites the schema of the object at `place` in `schema`, which flattens
/// a field of type `F`: a newtype is merged as the type it wraps; when `F`
/// is an `Option`, each member of a struct requires the whole struct, and
/// `T` is asked what the schema cannot say (`read`, see the docs of the
/// `flatten` module). The names the annotator holds claimed (the object's
/// other fields, the structs around it, the flattened fields before this
/// one) never reach `T`. `annotate` applies the struct's own annotations (a
/// `ToolArgs` type's aliases and marks) to its schema.
pub(crate) fn flatten_optional<F: JsonSchema>(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
    annotate: Annotate<'_>,
    read: Option<Reader>,
) {
    // schemars' derive flattens a field through these two hidden items;
    // generated code calls them, so they live as long as the derive does.
    let optional = F::_schemars_private_is_option();
    let mut whole = annotator.with_generator(|generator| {
        schemars::_private::json_schema_for_flatten::<F>(generator, true).to_value()
    });
    if let Some(definition) = inline_newtype(schema, annotator, place, &whole, optional) {
        whole = Value::Object(definition);
    }
    if !optional {
        return;
    }
    // What another flattened field always keeps is never lost: where one
    // keeps any member (a flattened map before `T` keeps what `T` does not
    // take), nothing of `T` is; the names one reads are not required of `T`
    // nor counted as dropped.
    let takes = read.is_none_or(|reader| reader.reading.takes());
    let everything = annotator.claimed().iter().any(|n| n == EVERYTHING);
    let kept = if everything {
        None
    } else {
        kept_elsewhere(annotator, takes)
    };
    let Some(kept) = kept else {
        let (_, beside) = annotator.kept();
        let keeper = beside.iter().find_map(|other| other.unknown.clone());
        leave_to_the_map(schema, place, &whole, annotator.claimed(), keeper);
        return;
    };
    let Value::Object(map) = &whole else {
        return;
    };
    let composed = ["anyOf", "oneOf", "$ref", "not", "if"]
        .iter()
        .any(|k| map.contains_key(*k))
        || has_union_part(map);
    if composed || takes_any_member(map) {
        // An enum (closing handles it: a member of a variant that fails is
        // unevaluated), or a struct flattening a map or an enum: only `T`
        // says all of what it refuses.
        let mut members = annotator.with_generator(|generator| members_of(&whole, generator));
        if let Some(object) = place_mut(schema, place) {
            members.add_aliases(object);
        }
        read_whole_at(schema, annotator, place, members, read, &kept);
        return;
    }
    annotate(&mut whole, annotator);
    let Value::Object(mut whole) = whole else {
        return;
    };
    // The rules the schema cannot say (a string `T` parses, a
    // `deserialize_with` inside it): `T` is asked.
    let members = match whole.get("properties") {
        Some(Value::Object(properties)) => Members::Named(properties.keys().cloned().collect()),
        _ => Members::Named(Vec::new()),
    };
    read_whole_at(schema, annotator, place, members, read, &kept);
    let own: Vec<&str> = annotator.claimed().iter().map(String::as_str).collect();
    let own = own.as_slice();
    let names: Vec<String> = match whole.get("properties") {
        Some(Value::Object(properties)) => properties
            .keys()
            .filter(|name| !own.contains(&name.as_str()) && !kept.contains(name))
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    if names.is_empty() {
        return;
    }
    let requirement = requirement(&mut whole, own);
    if holds_reference(&requirement) {
        // Rules reaching other definitions (a struct flattening two enums):
        // left as schemars wrote them, rather than copied apart from the
        // definitions they name.
        return;
    }
    let Some(object) = locate(schema, place) else {
        return;
    };
    // Integers inside the flattened struct refuse `1.0`: serde would fail
    // the struct and drop it. Those of the definitions its members reach
    // too (serde refuses `1.0` for an integer wherever it is).
    let mut nullable = Vec::new();
    let mut references = Vec::new();
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for name in &names {
            if let Some(member) = properties.get_mut(name) {
                mark_integers(member, &mut references);
                if admits_null(member) {
                    nullable.push(name.clone());
                }
            }
        }
    }
    annotator.mark_definitions(references, mark_integers);
    for name in names {
        let mut required = match &requirement {
            // Nothing makes the struct whole: the member itself is refused,
            // where it was sent.
            Value::Bool(false) => serde_json::json!({"properties": {name.clone(): false}}),
            other => other.clone(),
        };
        if nullable.contains(&name) {
            // `null` for a member that takes it says nothing (serde drops
            // it with the struct): only a value requires the struct whole.
            required = serde_json::json!({
                "anyOf": [required, {"properties": {name.clone(): {"type": "null"}}}]
            });
        }
        // Two flattened fields share the member: both requirements.
        add_dependent_schema(object, &name, required);
    }
}

/// A newtype around another type (`struct W(Inner)`), flattened: serde
/// reads `Inner` flattened, but schemars writes the flattened form as a
/// reference alone, merged beside the object's own keywords, where `$ref`
/// applies `Inner`'s definition as it stands (its members required, its
/// union closed, even in an `Option`), or is dropped when the object already
/// has one. The reference (a chain of them, for a newtype around a newtype)
/// is replaced by the definition merged the way schemars merges a flattened
/// type it writes inline (for an `Option`: no member required, the union
/// beside an empty branch). The definition, when it was one.
fn inline_newtype(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
    form: &Value,
    optional: bool,
) -> Option<Map<String, Value>> {
    let reference = form.get("$ref")?.clone();
    let definition = annotator
        .with_generator(|generator| newtype_definition(form, generator.definitions()).cloned())?;
    let object = locate(schema, place)?;
    if object.get("$ref") == Some(&reference) {
        object.remove("$ref");
    }
    // The requirement that one of a field's names be sent (a `ToolArgs`
    // type's alias groups) is a requirement like `required`: none holds in
    // an `Option`.
    let mut part = definition.clone();
    if optional {
        part.remove("required");
        if let Some(Value::Array(parts)) = part.get_mut("allOf") {
            parts.retain(|p| {
                !p.get("anyOf")
                    .and_then(Value::as_array)
                    .is_some_and(|branches| crate::alias_groups::is_alias_group(branches))
            });
            if parts.is_empty() {
                part.remove("allOf");
            }
        }
    }
    let plain = !["anyOf", "oneOf", "allOf", "$ref", "not", "if"]
        .iter()
        .any(|k| part.contains_key(*k))
        && !takes_any_member(&part);
    if optional && plain {
        // A struct in an `Option`: its members, each optional; what makes
        // it whole is the struct path's (`dependentSchemas`).
        if let Some(Value::Object(members)) = definition.get("properties")
            && let Value::Object(properties) = object
                .entry("properties")
                .or_insert_with(|| Value::Object(Map::new()))
        {
            for (name, member) in members {
                properties
                    .entry(name.clone())
                    .or_insert_with(|| member.clone());
            }
        }
        return Some(definition);
    }
    allow_unknown_members(&mut part);
    if optional {
        if let Some(one_of) = part.remove("oneOf") {
            part.insert(
                "anyOf".to_owned(),
                serde_json::json!([{"oneOf": one_of}, {}]),
            );
        } else if let Some(Value::Array(any_of)) = part.get_mut("anyOf") {
            let empty = Value::Object(Map::new());
            if !any_of.contains(&empty) {
                any_of.push(empty);
            }
        }
    }
    let mut merged = schemars::Schema::from(std::mem::take(object));
    schemars::_private::flatten(&mut merged, schemars::Schema::from(part));
    if let Value::Object(map) = merged.to_value() {
        *object = map;
    }
    Some(definition)
}

/// What runs where `F` is flattened before any annotation changes what
/// schemars wrote: an `Option`'s nested unions may be left out
/// ([`relax_nested_unions`]), and the branches that deny unknown members
/// are marked with what serde does not offer them
/// ([`super::denial::mark`]).
fn relax_flattened<F: JsonSchema + serde::de::DeserializeOwned>(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
) {
    relax_nested_unions::<F>(schema, annotator, place);
    super::denial::mark::<F>(schema, annotator, place);
}

/// A flattened `Option<T>` where `T` flattens enums of its own: schemars
/// lets `T`'s own union be left out (beside an empty branch), but the
/// unions `T` holds in parts of `allOf` stay as they are, each required, so
/// an object sending none of `T` was refused where serde reads `None`.
/// Each of those parts, found in the object at `place` as schemars merged
/// it (this runs before any annotation changes it), gets the empty branch
/// too: what makes `T` whole is the whole check's (`x-toolargs-whole`),
/// and closing reads the empty branch as declaring no member, so a member
/// of a variant that fails stays unevaluated.
fn relax_nested_unions<F: JsonSchema>(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
) {
    if !F::_schemars_private_is_option() {
        return;
    }
    // The form schemars merged into the object: `T`'s, optional.
    let form = annotator.with_generator(|generator| {
        schemars::_private::json_schema_for_flatten::<F>(generator, false).to_value()
    });
    let mut required = Vec::new();
    required_union_parts(&form, &mut required);
    if required.is_empty() {
        return;
    }
    let Some(Value::Array(parts)) =
        locate(schema, place).and_then(|object| object.get_mut("allOf"))
    else {
        return;
    };
    let mut relaxed = vec![false; parts.len()];
    for union in required {
        let found = parts
            .iter()
            .enumerate()
            .position(|(at, part)| !relaxed[at] && part == union);
        if let Some(at) = found {
            relaxed[at] = true;
            optional_union(&mut parts[at]);
        }
    }
}

/// The parts of `form`'s `allOf` (and of theirs) that are unions with no
/// empty branch.
fn required_union_parts<'v>(form: &'v Value, found: &mut Vec<&'v Value>) {
    let Some(Value::Array(parts)) = form.get("allOf") else {
        return;
    };
    for part in parts {
        let empty = Value::Object(Map::new());
        let leaves_out = part
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|branches| branches.contains(&empty));
        if !leaves_out && (part.get("anyOf").is_some() || part.get("oneOf").is_some()) {
            found.push(part);
        }
        required_union_parts(part, found);
    }
}

/// Whether `allOf` holds a union (a struct flattening enums): only `T`
/// says what makes it whole.
fn has_union_part(map: &Map<String, Value>) -> bool {
    let form = Value::Object(map.clone());
    let mut found = Vec::new();
    required_union_parts(&form, &mut found);
    !found.is_empty()
}

/// Puts an empty branch beside a union, as schemars writes the union of an
/// enum flattened as an `Option`.
fn optional_union(part: &mut Value) {
    let Value::Object(map) = part else {
        return;
    };
    let empty = Value::Object(Map::new());
    if let Some(one_of) = map.remove("oneOf") {
        map.insert(
            "anyOf".to_owned(),
            serde_json::json!([{"oneOf": one_of}, empty]),
        );
    } else if let Some(Value::Array(any_of)) = map.get_mut("anyOf") {
        any_of.push(empty);
    }
}

/// Takes `additionalProperties: false` (and `unevaluatedProperties`) off a
/// flattened type's schema and the parts it is made of, as schemars does
/// for a type it flattens inline: the object flattening it decides what
/// else it takes.
fn allow_unknown_members(schema: &mut Map<String, Value>) {
    for keyword in ["additionalProperties", "unevaluatedProperties"] {
        if schema.get(keyword) == Some(&Value::Bool(false)) {
            schema.remove(keyword);
        }
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(parts)) = schema.get_mut(keyword) {
            for part in parts.iter_mut().filter_map(Value::as_object_mut) {
                allow_unknown_members(part);
            }
        }
    }
    for keyword in ["then", "else"] {
        if let Some(Value::Object(part)) = schema.get_mut(keyword) {
            allow_unknown_members(part);
        }
    }
}

/// Where a flattened map keeps every member, a member of the flattened
/// `Option<T>` beside it is what the map takes: `T` reads it if it can,
/// and what `T` refuses the map keeps. schemars merged `T`'s members as
/// properties of the object, which held them to `T`'s types; they are
/// left to the map's (the object's `additionalProperties`). Where `T`
/// reads a map too, schemars kept the first field's value schema for the
/// members it does not name: the map beside (`keeper`, its keywords) reads
/// them all, so its value schema is what they must be.
fn leave_to_the_map(
    schema: &mut Value,
    place: Place,
    form: &Value,
    claimed: &[String],
    keeper: Option<Map<String, Value>>,
) {
    let Some(object) = locate(schema, place) else {
        return;
    };
    if !takes_any_member(object) {
        return;
    }
    if let (Some(keeper), Value::Object(form)) = (keeper, form)
        && takes_any_member(form)
    {
        // schemars writes the value schema as `unevaluatedProperties`
        // where the object composes a union (a flattened enum beside):
        // `additionalProperties` would hold the union's members to it
        // too, which serde reads first and the map never sees.
        let unevaluated = object.contains_key("unevaluatedProperties")
            && !object.contains_key("additionalProperties");
        for keyword in UNKNOWN_MEMBERS {
            object.remove(keyword);
        }
        for keyword in UNKNOWN_MEMBERS {
            if let Some(value) = keeper.get(keyword) {
                let keyword = match keyword {
                    "additionalProperties" if unevaluated => "unevaluatedProperties",
                    other => other,
                };
                object.insert(keyword.to_owned(), value.clone());
            }
        }
    }
    let Some(Value::Object(members)) = form.get("properties") else {
        return;
    };
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for name in members.keys() {
            if !claimed.contains(name) {
                properties.remove(name);
            }
        }
    }
}

/// The names other flattened fields of the object always keep, whatever
/// `T` does; `None` when one keeps any member. serde's flattening takes
/// from the members left what a struct (or an externally tagged enum)
/// reads, whole or not (`takes`): a field beside this one that comes after
/// it never sees those. A field of an object around this one does (the
/// struct flattening this one reads them as a map, taking none), and one
/// before it kept what it read. A field that is itself an `Option` keeps
/// what it reads only when it reads a whole: the whole checks of one object
/// are read together ([`crate::validate::flattened_wholes`]).
fn kept_elsewhere(annotator: &Annotator<'_>, takes: bool) -> Option<Vec<String>> {
    let mut kept = Vec::new();
    for other in seeing(annotator, takes) {
        match &other.keeps {
            Members::Any => return None,
            Members::Named(names) => kept.extend(names.iter().cloned()),
        }
    }
    Some(kept)
}

/// The other flattened fields that see the members the type being
/// annotated reads: those of the objects around (up to the object its
/// members are in, see [`Annotator::enter_object`]), and those beside it
/// but the ones after it when it `takes` what it reads (serde's flattening
/// hands a struct its members first).
fn seeing<'a>(annotator: &'a Annotator<'_>, takes: bool) -> impl Iterator<Item = &'a Sibling> {
    let (around, beside) = annotator.kept();
    around
        .iter()
        .chain(beside.iter().filter(move |other| !(other.after && takes)))
}

/// Puts [`WHOLE`] on the object at `place`, naming a new entry of the
/// annotator's table: `T` read (by `read`, `None` where the derive cannot
/// name `T`) from the members not claimed, of which those in `kept` are
/// not counted.
fn read_whole_at(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
    members: Members,
    read: Option<Reader>,
    kept: &[String],
) {
    let Some(reader) = read else {
        return;
    };
    let within = annotator.wholes_within().collect();
    let takes = reader.reading.takes();
    let by_tag = seeing(annotator, takes)
        .flat_map(|other| other.by_tag.iter().cloned())
        .collect();
    let by_branch = seeing(annotator, takes)
        .flat_map(|other| other.by_branch.iter().cloned())
        .collect();
    let read = WholeRead::new(reader, annotator.claimed().to_vec(), members, kept, within)
        .kept_by_tag(by_tag)
        .kept_by_branch(by_branch);
    let Some(object) = locate(schema, place) else {
        return;
    };
    let index = annotator.add_whole(read);
    push_index(object, WHOLE, index);
}

/// What the flattened type `F` keeps whenever it reads at all (as a
/// [`Sibling`] before the field being annotated): all it
/// reads, for a struct or a map (its form a plain object); for a union (an
/// enum, itself or the definition a newtype references), the members named
/// beside the union (a struct's own fields when it flattens an enum) and
/// those every variant reads (an internally tagged enum's tag), and for an
/// externally tagged enum the variant names (serde's flattening hands it
/// the first member so named): the variant read keeps the rest, which a
/// tagged enum says by its tag's value ([`ByTag`]) and an untagged one by
/// the branch of its union that takes the call ([`ByBranch`]). A map that
/// is no `Option` also says what the members it does not name must be
/// (see [`Sibling::unknown`]).
///
/// A struct whose form takes any member only through the maps of its
/// flattened `Option`s (`keeps_every` is `Some(false)`: its derive knows)
/// keeps the members it names, not every one: such a map keeps nothing when
/// its `Option` fails.
pub(crate) fn kept_by<F: JsonSchema + serde::de::DeserializeOwned>(
    annotator: &mut Annotator<'_>,
    keeps_every: Option<bool>,
) -> Sibling {
    use crate::validate::flattened_read::{Reading, reading_of};
    if F::_schemars_private_is_option() {
        // An `Option` keeps only what it reads whole: validation decides.
        return Sibling::named(Vec::new());
    }
    let variants = match reading_of::<F>() {
        Reading::Enum(variants) => variants,
        Reading::Struct(_) | Reading::Map => &[],
    };
    annotator.with_generator(|generator| {
        let form = schemars::_private::json_schema_for_flatten::<F>(generator, true).to_value();
        // A struct that flattens an enum and a map: the map reads every
        // member left, whichever variant the enum reads. (A newtype's
        // reference may carry `unevaluatedProperties: true`: not a map.)
        let takes_any = newtype_definition(&form, generator.definitions()).is_none()
            && form.as_object().is_some_and(takes_any_member);
        if is_union(&form, generator) && !takes_any {
            let mut kept = property_names(&form);
            kept.extend(variants.iter().map(|name| (*name).to_owned()));
            let target = newtype_definition(&form, generator.definitions())
                .or(form.as_object())
                .cloned();
            let Some(target) = target else {
                return Sibling::named(kept);
            };
            let (by_tag, by_branch) = keep_by_union(&target, variants, &mut kept, generator);
            Sibling {
                by_tag,
                by_branch,
                ..Sibling::named(kept)
            }
        } else {
            let mut members = members_of(&form, generator);
            if members == Members::Any && keeps_every == Some(false) {
                members = Members::Named(property_names(&form));
            }
            let unknown = (members == Members::Any).then(|| unknown_members(&form));
            Sibling {
                keeps: members,
                unknown,
                ..Sibling::named(Vec::new())
            }
        }
    })
}

/// What each union of `target` (a flattened type's form) keeps: a struct
/// may flatten several enums, its form holding each one's union (beside one
/// another, or in its `allOf`), and each keeps what the variant it reads
/// reads. The members every branch of a union requires go to `kept`. An
/// externally tagged enum flattened itself (`variants`, its names, kept by
/// the caller) has no [`ByBranch`]; one a struct flattens keeps the key of
/// the branch that takes the call.
fn keep_by_union(
    target: &Map<String, Value>,
    variants: &[&str],
    kept: &mut Vec<String>,
    generator: &mut schemars::SchemaGenerator,
) -> (Vec<ByTag>, Vec<ByBranch>) {
    let mut unions = Vec::new();
    union_branches(target, &mut unions, 0);
    let mut tagged = Vec::new();
    let mut untagged = Vec::new();
    for branches in unions {
        kept.extend(required_by_every_branch(branches));
        match by_tag(branches, generator) {
            Some(by_tag) => tagged.push(by_tag),
            None if variants.is_empty() => untagged.push(by_branch(branches, generator)),
            None => {}
        }
    }
    (tagged, untagged)
}

/// The names of an object schema's `properties`.
fn property_names(schema: &Value) -> Vec<String> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default()
}

/// The keywords of an object schema that say what members it does not
/// name must be.
const UNKNOWN_MEMBERS: [&str; 3] = [
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
];

/// Those keywords of `form` (a map's or a struct's flattened form).
fn unknown_members(form: &Value) -> Map<String, Value> {
    UNKNOWN_MEMBERS
        .iter()
        .filter_map(|keyword| Some(((*keyword).to_owned(), form.get(*keyword)?.clone())))
        .collect()
}

/// What an untagged enum's union (its `branches`) reads, variant by
/// variant: the members each branch names (its properties and the
/// definitions they reference).
fn by_branch(branches: &[Value], generator: &mut schemars::SchemaGenerator) -> ByBranch {
    let variants = branches
        .iter()
        .map(|branch| members_of(branch, generator))
        .collect();
    ByBranch { variants }
}

/// What a tagged enum's union reads by its tag's value: each branch names
/// its variant in one required member whose schema is a string `const`
/// (the same member in every branch), and reads its other members (those
/// its properties and the definitions they reference name). `None` for an
/// untagged or externally tagged enum (no shared tag).
fn by_tag(branches: &[Value], generator: &mut schemars::SchemaGenerator) -> Option<ByTag> {
    let mut tag: Option<String> = None;
    let mut variants = Vec::new();
    for branch in branches {
        let properties = branch.get("properties").and_then(Value::as_object)?;
        let required = branch.get("required").and_then(Value::as_array)?;
        let (name, value) = properties.iter().find_map(|(name, member)| {
            let value = member.get("const").and_then(Value::as_str)?;
            required.iter().any(|r| r == name).then_some((name, value))
        })?;
        match &tag {
            Some(tag) if tag != name => return None,
            Some(_) => {}
            None => tag = Some(name.clone()),
        }
        let members = match members_of(branch, generator) {
            Members::Named(mut names) => {
                names.retain(|member| member != name);
                Members::Named(names)
            }
            Members::Any => Members::Any,
        };
        variants.push((value.to_owned(), members));
    }
    Some(ByTag {
        tag: tag?,
        variants,
    })
}

/// The members every branch of a union requires (the tag of an internally
/// or adjacently tagged enum): whichever variant serde reads, it reads
/// them. None where a branch requires nothing (or is no object schema).
fn required_by_every_branch(branches: &[Value]) -> Vec<String> {
    let Some((first, rest)) = branches.split_first() else {
        return Vec::new();
    };
    let required = |branch: &Value| -> Vec<String> {
        branch
            .get("required")
            .and_then(Value::as_array)
            .map(|names| {
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut common = required(first);
    for branch in rest {
        let names = required(branch);
        common.retain(|name| names.contains(name));
    }
    common
}

/// Whether a flattened form is a union (an enum), itself or the definition
/// it references (through newtypes).
fn is_union(form: &Value, generator: &mut schemars::SchemaGenerator) -> bool {
    let target = newtype_definition(form, generator.definitions()).or(form.as_object());
    target.is_some_and(|map| ["anyOf", "oneOf"].iter().any(|k| map.contains_key(*k)))
}

/// The definition a newtype's flattened form stands for: `form` is a
/// reference alone (beside annotations), to a definition that is one in
/// turn for a newtype around a newtype. `None` when `form` is no reference
/// alone.
fn newtype_definition<'d>(
    form: &Value,
    definitions: &'d Map<String, Value>,
) -> Option<&'d Map<String, Value>> {
    fn reference_alone(map: &Map<String, Value>) -> Option<&str> {
        let annotation = |(keyword, value): (&String, &Value)| {
            matches!(keyword.as_str(), "$ref" | "description" | "title")
                || (matches!(
                    keyword.as_str(),
                    "additionalProperties" | "unevaluatedProperties"
                ) && value == &Value::Bool(true))
        };
        map.iter()
            .all(annotation)
            .then(|| map.get("$ref")?.as_str())
            .flatten()
    }
    let mut reference = reference_alone(form.as_object()?)?;
    for _ in 0..16 {
        let pointer = crate::plan::reference::ref_pointer(reference)?;
        let (_, name) = crate::plan::reference::definition_at(&pointer)?;
        let definition = definitions.get(&name)?.as_object()?;
        match reference_alone(definition) {
            Some(next) => reference = next,
            None => return Some(definition),
        }
    }
    None
}

/// The names a flattened type's schema `schema` reads: its properties, those
/// of the parts it is made of (an enum's variants, a struct's flattened
/// enum), and of the definitions they name; [`Members::Any`] where one
/// takes members it does not name.
fn members_of(schema: &Value, generator: &mut schemars::SchemaGenerator) -> Members {
    fn walk(
        schema: &Value,
        definitions: &Map<String, Value>,
        seen: &mut Vec<String>,
        names: &mut Vec<String>,
    ) -> bool {
        let Value::Object(map) = schema else {
            return false;
        };
        if takes_any_member(map) {
            return true;
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            names.extend(properties.keys().cloned());
        }
        if let Some(Value::String(reference)) = map.get("$ref") {
            let name = crate::plan::reference::ref_pointer(reference)
                .and_then(|pointer| crate::plan::reference::definition_at(&pointer))
                .map(|(_, name)| name);
            if let Some(name) = name
                && !seen.contains(&name)
            {
                seen.push(name.clone());
                if let Some(definition) = definitions.get(&name)
                    && walk(definition, definitions, seen, names)
                {
                    return true;
                }
            }
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(parts)) = map.get(keyword) {
                for part in parts {
                    if walk(part, definitions, seen, names) {
                        return true;
                    }
                }
            }
        }
        ["then", "else"].iter().any(|keyword| {
            map.get(*keyword)
                .is_some_and(|part| walk(part, definitions, seen, names))
        })
    }
    let mut names = Vec::new();
    if walk(schema, generator.definitions(), &mut Vec::new(), &mut names) {
        Members::Any
    } else {
        // Each once, in the order met (variants share a tag).
        let mut seen = std::collections::HashSet::new();
        names.retain(|name| seen.insert(name.clone()));
        Members::Named(names)
    }
}

/// Marks every integer schema written inline in `schema` (items, members,
/// branches) [`WRITTEN_AS_INTEGER`], and pushes the `$ref`s it holds.
fn mark_integers(schema: &mut Value, references: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            mark_written_as_integer(map);
            if let Some(Value::String(reference)) = map.get("$ref") {
                references.push(reference.clone());
            }
            for (keyword, child) in map.iter_mut() {
                if !crate::integer_bounds::DATA.contains(&keyword.as_str()) && keyword != "not" {
                    mark_integers(child, references);
                }
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| mark_integers(item, references)),
        _ => {}
    }
}

/// What the derive asks of a flattened field's type `F` (`None` where it is
/// not known to implement `JsonSchema` and `Deserialize`: a type
/// parameter), as functions monomorphized for `F`.
#[derive(Clone, Copy)]
pub struct Flattened(Option<FlattenedFns>);

#[derive(Clone, Copy)]
struct FlattenedFns {
    claim: fn(&mut Annotator<'_>, Option<bool>),
    properties: fn(&mut Annotator<'_>) -> Map<String, Value>,
    reading: fn() -> crate::validate::flattened_read::Reading,
    kept: fn(&mut Annotator<'_>, Option<bool>) -> Sibling,
    rewrite: fn(&mut Value, &mut Annotator<'_>, Place, Annotate<'_>, Option<Reader>),
    relax: fn(&mut Value, &mut Annotator<'_>, Place),
    /// What the type's derive says of it, where it can
    /// ([`ToolArgs::__keeps_every_member`](crate::ToolArgs::__keeps_every_member)).
    keeps_every: Option<bool>,
}

impl Flattened {
    /// Nothing known of the type: nothing claimed, nothing kept, nothing
    /// rewritten.
    pub const UNKNOWN: Flattened = Flattened(None);

    pub(crate) fn of<F: JsonSchema + serde::de::DeserializeOwned>() -> Flattened {
        Flattened(Some(FlattenedFns {
            claim: |annotator, keeps_every| annotator.claim_flattened::<F>(keeps_every),
            properties: form_properties::<F>,
            reading: crate::validate::flattened_read::reading_of::<F>,
            kept: kept_by::<F>,
            rewrite: flatten_optional::<F>,
            relax: relax_flattened::<F>,
            keeps_every: None,
        }))
    }

    /// This type, with what its derive says of it (`None` where it does
    /// not derive `ToolArgs`): a struct whose maps all come through
    /// flattened `Option`s of its own keeps only the members it names.
    #[must_use]
    pub fn knowing(self, keeps_every: Option<bool>) -> Flattened {
        Flattened(self.0.map(|fns| FlattenedFns { keeps_every, ..fns }))
    }

    /// Lets the unions an `Option` of this type brought into `allOf` be
    /// left out, before the type's annotations change them (see
    /// `relax_nested_unions`).
    pub fn relax(self, schema: &mut Value, annotator: &mut Annotator<'_>, place: Place) {
        if let Some(fns) = self.0 {
            (fns.relax)(schema, annotator, place);
        }
    }

    /// The properties schemars merges into the object from this type's
    /// flattened form (over those it already has): see [`form_properties`].
    fn properties(self, annotator: &mut Annotator<'_>) -> Map<String, Value> {
        self.0
            .map(|fns| (fns.properties)(annotator))
            .unwrap_or_default()
    }

    /// Notes the members this type takes before the flattened fields after
    /// it.
    pub fn claim(self, annotator: &mut Annotator<'_>) {
        if let Some(fns) = self.0 {
            (fns.claim)(annotator, fns.keeps_every);
        }
    }

    /// This type as a sibling of another flattened field (see [`Sibling`]):
    /// what it keeps, and whether it comes `after` that one.
    pub fn sibling(self, annotator: &mut Annotator<'_>, after: bool) -> Sibling {
        let kept = match self.0 {
            Some(fns) => (fns.kept)(annotator, fns.keeps_every),
            None => Sibling::named(Vec::new()),
        };
        Sibling { after, ..kept }
    }

    /// Rewrites the object at `place`, which flattens this type (see
    /// `flatten_optional`).
    pub fn rewrite(
        self,
        schema: &mut Value,
        annotator: &mut Annotator<'_>,
        place: Place,
        annotate: Annotate<'_>,
        read: Option<Reader>,
    ) {
        if let Some(fns) = self.0 {
            (fns.rewrite)(schema, annotator, place, annotate, read);
        }
    }
}

/// The properties of `F`'s flattened form, as schemars merges it into the
/// object flattening it, where each replaces the object's property of its
/// name (a variant's members are in branches, which replace nothing).
fn form_properties<F: JsonSchema>(annotator: &mut Annotator<'_>) -> Map<String, Value> {
    annotator.with_generator(|generator| {
        let form = schemars::_private::json_schema_for_flatten::<F>(generator, false).to_value();
        match form {
            Value::Object(mut form) => match form.remove("properties") {
                Some(Value::Object(properties)) => properties,
                _ => Map::new(),
            },
            _ => Map::new(),
        }
    })
}

/// The names schemars merges into the object from the flattened fields
/// `later`, each over the property the object had.
fn declared_by(annotator: &mut Annotator<'_>, later: &[Flattened]) -> Vec<String> {
    later
        .iter()
        .flat_map(|other| {
            other
                .properties(annotator)
                .into_iter()
                .map(|(name, _)| name)
        })
        .collect()
}

/// Writes `member` as the property `name` of the object at `place`.
fn set_property(schema: &mut Value, place: Place, name: String, member: Value) {
    if let Some(Value::Object(properties)) =
        locate(schema, place).and_then(|object| object.get_mut("properties"))
    {
        properties.insert(name, member);
    }
}

/// Members of one name in two flattened structs of the object (`first`,
/// then one of `later`): serde hands the member to the first, which takes
/// it, and the later never sees it; schemars merged the later one's schema
/// over the first's. The first's is written back, before any annotation
/// reads or copies it. A name the struct reads itself (`own`, its fields'
/// names and aliases) reaches neither: its field's schema stays.
pub fn flattened_first(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
    own: &[&str],
    first: Flattened,
    later: &[Flattened],
) {
    // A struct (or an `Option` of one) takes the members it names.
    let Some(crate::validate::flattened_read::Reading::Struct(names)) =
        first.0.map(|fns| (fns.reading)())
    else {
        return;
    };
    let declared = declared_by(annotator, later);
    for (name, member) in first.properties(annotator) {
        if names.contains(&name.as_str())
            && !own.contains(&name.as_str())
            && declared.contains(&name)
        {
            set_property(schema, place, name, member);
        }
    }
}

/// How the derive has a field's type written by schemars: what it writes for
/// a field of that type (`None` where the type is not known to implement
/// `JsonSchema`: a type parameter).
pub type FieldSchema = Option<fn(&mut schemars::SchemaGenerator) -> Value>;

/// The struct's own field read from `wire`, at `place`, keeps its schema
/// where a flattened field after it (`later`) brings a member of the same
/// name: schemars merges the flattened properties over the object's,
/// replacing the field's schema with the flattened member's, but serde
/// hands the member to the struct's own field, whatever the order, and
/// the flattened type never sees it. The field's schema is written again
/// as schemars writes its type (its doc comment and `default` are not
/// recovered).
pub fn own_field_first(
    schema: &mut Value,
    annotator: &mut Annotator<'_>,
    place: Place,
    wire: &str,
    field: FieldSchema,
    later: &[Flattened],
) {
    let Some(field) = field else {
        return;
    };
    if !declared_by(annotator, later)
        .iter()
        .any(|name| name == wire)
    {
        return;
    }
    let own = annotator.with_generator(field);
    set_property(schema, place, wire.to_owned(), own);
}

/// The closure that applies a flattened type's own annotations to its schema.
pub type Annotate<'a> = &'a mut dyn FnMut(&mut Value, &mut Annotator<'_>);

/// What any member of the flattened struct `whole` requires of the object:
/// the struct's rules without its members' own schemas (those stay in the
/// object's `properties`). A name the struct requires that the flattening
/// object reads itself (`own`) never reaches the struct: nothing can then
/// make it whole.
fn requirement(whole: &mut Map<String, Value>, own: &[&str]) -> Value {
    let requires_own = match whole.get("required") {
        Some(Value::Array(required)) => required
            .iter()
            .filter_map(Value::as_str)
            .any(|name| own.contains(&name)),
        _ => false,
    };
    if requires_own {
        return Value::Bool(false);
    }
    let mut out = Map::new();
    for keyword in ["required", "allOf", "dependentSchemas", "dependentRequired"] {
        if let Some(value) = whole.remove(keyword) {
            out.insert(keyword.to_owned(), value);
        }
    }
    // A field sent under two of its names fails the struct in serde
    // (a duplicate field): at most one of them.
    let twice = names_sent_twice(whole);
    if !twice.is_empty() {
        let part = serde_json::json!({"not": {"anyOf": twice}});
        match out.get_mut("allOf") {
            Some(Value::Array(parts)) => parts.push(part),
            _ => {
                out.insert("allOf".to_owned(), Value::Array(vec![part]));
            }
        }
    }
    Value::Object(out)
}

/// `{"required": [a, b]}` for every two names of one field (its wire name
/// and the aliases declared beside it, marked [`ALIAS_OF`](super::ALIAS_OF)).
fn names_sent_twice(whole: &Map<String, Value>) -> Vec<Value> {
    let Some(Value::Object(properties)) = whole.get("properties") else {
        return Vec::new();
    };
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (name, schema) in properties {
        if let Some(wire) = alias_of(schema) {
            match groups.iter_mut().find(|(w, _)| *w == wire) {
                Some((_, names)) => names.push(name),
                None => groups.push((wire, vec![wire, name])),
            }
        }
    }
    let mut pairs = Vec::new();
    for (_, names) in groups {
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                pairs.push(serde_json::json!({"required": [a, b]}));
            }
        }
    }
    pairs
}

fn holds_reference(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map
            .iter()
            .any(|(keyword, value)| keyword == "$ref" || holds_reference(value)),
        Value::Array(items) => items.iter().any(holds_reference),
        _ => false,
    }
}

//! How the derive writes a field's names into a schema, read by every
//! stage after it: each alias a property of its own marked [`ALIAS_OF`]
//! (a variant alias, a copy of its variant's branch), a required field's
//! names one `anyOf` of `required` groups, and names of one field that
//! refuse each other where serde refuses a field sent twice.
//!
//! The derive's annotations (`crate::compile`) write these; the validator's
//! readings (`crate::validate::flattened_wholes`), serde's union order
//! (`crate::untagged`) and the stream's sites read them.

use crate::keywords::ALIAS_OF;
use serde_json::{Map, Value};

/// The wire name `schema` is marked [`ALIAS_OF`]: an alias's property, or
/// a variant alias's copy of its variant's branch.
pub(crate) fn alias_of(schema: &Value) -> Option<&str> {
    schema.get(ALIAS_OF)?.as_str()
}

/// Whether `branches` (an `anyOf`) are a required field and its aliases as
/// `crate::compile::annotate::declare_aliases` writes them: branches that
/// only list `required` names. Such a group is no union of variants.
pub(crate) fn is_alias_group(branches: &[Value]) -> bool {
    branches.iter().all(|branch| {
        branch.as_object().is_some_and(|map| {
            map.len() == 1 && matches!(map.get("required"), Some(Value::Array(_)))
        })
    })
}

/// serde refuses a field sent under two of its names (`duplicate field`):
/// inside an untagged enum it then reads a later variant, dropping what was
/// sent. In each group of an object's names for one field (its wire name
/// and the properties [`ALIAS_OF`] it), each name, sent, refuses the others
/// (`dependentSchemas`, beside what another rule there says). Elsewhere
/// serde's own refusal stands, reported at the second name.
pub(crate) fn refuse_two_names(object: &mut Map<String, Value>) {
    let Some(Value::Object(properties)) = object.get("properties") else {
        return;
    };
    let mut groups: Vec<Vec<String>> = Vec::new();
    for (name, member) in properties {
        let Some(wire) = alias_of(member) else {
            continue;
        };
        match groups.iter_mut().find(|group| group[0] == wire) {
            Some(group) => group.push(name.clone()),
            None if properties.contains_key(wire) => {
                groups.push(vec![wire.to_owned(), name.clone()])
            }
            None => {}
        }
    }
    for group in groups {
        let names: Vec<&str> = group.iter().map(String::as_str).collect();
        refuse_in_group(object, &names);
    }
}

fn refuse_in_group(object: &mut Map<String, Value>, names: &[&str]) {
    for name in names {
        let others: Map<String, Value> = names
            .iter()
            .filter(|other| *other != name)
            .map(|other| ((*other).to_owned(), Value::Bool(false)))
            .collect();
        add_dependent_schema(object, name, serde_json::json!({ "properties": others }));
    }
}

/// Adds `schema` to what the member `name`, sent, requires of the object
/// (`dependentSchemas`), beside what another rule there says (both apply);
/// once.
pub(crate) fn add_dependent_schema(object: &mut Map<String, Value>, name: &str, schema: Value) {
    let dependent = object
        .entry("dependentSchemas")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(dependent) = dependent else {
        return;
    };
    match dependent.get_mut(name) {
        Some(existing) if *existing == schema => {}
        Some(Value::Object(existing))
            if existing
                .get("allOf")
                .and_then(Value::as_array)
                .is_some_and(|parts| parts.contains(&schema)) => {}
        Some(existing) => {
            let both = Value::Array(vec![existing.take(), schema]);
            *existing = Value::Object(Map::from_iter([("allOf".to_owned(), both)]));
        }
        None => {
            dependent.insert(name.to_owned(), schema);
        }
    }
}

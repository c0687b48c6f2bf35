//! A derived type's contract, compiled the first time the type is used:
//! schemars' schema, the derive's annotations on it (aliases, verbatim
//! marks, flattening, the `open` opt-out), the fixes serde's reading needs,
//! then the validator, the normalization plan and the schema a model is
//! shown, built from the one document.
//!
//! Takes: the type (its `JsonSchema` and `Deserialize`), what its derive
//! generated (`ToolArgs::__annotate`, `ToolArgs::__node`). Gives:
//! [`Compiled`]. Nothing here names the `ToolArgs` trait, so the trait can
//! name these types (`crate::__private` holds the generic entry points the
//! generated code calls).

pub(crate) mod annotate;
pub(crate) mod denial;
pub(crate) mod flatten;
pub(crate) mod learned_aliases;
pub(crate) mod schema_only;

use crate::contract::{ContractError, Node};
use crate::plan::SchemaPlan;
use crate::validate::Validator;
use annotate::{AnnotateFn, Annotator};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Everything a derived type computes once: its adjusted schema, the
/// validator and the normalization plan built from that schema.
#[derive(Debug)]
pub struct Compiled {
    /// `ToolArgs::input_schema`: what the model is shown
    /// (`export::shown`: wire names only).
    pub shown: Value,
    /// The schema validation reads ([`Validator::schema`]): the shown one
    /// plus serde's aliases.
    pub schema: Value,
    /// `ToolArgs::validator`.
    pub validator: Validator,
    /// Whether calls may take the clean path (`crate::clean_read`), or why
    /// they never do.
    pub clean: Result<(), crate::clean_read::Fallback>,
    /// The plan the dynamic normalizer would use; the generated code walks
    /// it where a field's shape is not known at compile time.
    pub plan: SchemaPlan,
}

impl Compiled {
    /// Generates `T`'s schema with schemars, applies the derive's
    /// annotations (`annotate`: aliases, verbatim marks, `open`) to it and
    /// to the definitions of the `ToolArgs` types it contains, closes the whole
    /// document ([`crate::closing`]), has untagged unions taken in serde's
    /// order ([`crate::untagged`]), writes integer formats as bounds
    /// ([`crate::integer_bounds`]) and compiles it.
    ///
    /// # Errors
    ///
    /// [`ContractError`] when schemars produced a schema that the validator
    /// or the plan compiler refuses: a bug in a `JsonSchema`
    /// implementation, not bad input, found the first time the type is
    /// used.
    pub fn build<T: JsonSchema + DeserializeOwned + 'static>(
        annotate: AnnotateFn,
        node: &'static Node,
    ) -> Result<Compiled, ContractError> {
        let mut generator = schemars::SchemaGenerator::default();
        let mut schema = generator.root_schema_for::<T>().to_value();
        let (wholes, repeats, mut annotated) = {
            let mut annotator = Annotator::new::<T>(&mut generator);
            annotate(&mut schema, &mut annotator);
            annotator.into_tables()
        };
        // A recursive root has a definition of its own, annotated as the root.
        annotated.insert(T::schema_name().into_owned());
        let mut defs = generator.take_definitions(false);
        schema_only::relax_adjacent_options(&mut defs, &annotated);
        if defs.keys().any(|name| !annotated.contains(name)) {
            let hints = learned_aliases::Hints::of(&schema, &defs);
            let learned = learned_aliases::learn::<T>(hints);
            learned_aliases::declare(&mut defs, &annotated, &learned);
        }
        if !defs.is_empty()
            && let Value::Object(root) = &mut schema
        {
            root.insert("$defs".to_owned(), Value::Object(defs));
        }
        denial::restore(&mut schema);
        inline_root_reference(&mut schema);
        unique_required(&mut schema);
        // Ordering reads the unions as schemars wrote them, before closing.
        let raw = crate::untagged::has_unions(&schema).then(|| {
            let mut raw = schema.clone();
            crate::validate::flattened_wholes::relax_for_readings(&mut raw, &wholes);
            raw
        });
        crate::closing::close_objects(&mut schema);
        if let Some(raw) = raw {
            crate::untagged::order_unions(&raw, &mut schema);
        }
        crate::integer_bounds::bound_integers(&mut schema);
        let type_name = std::any::type_name::<T>();
        let validator = Validator::with_tables(&schema, wholes, repeats)
            .map_err(|source| ContractError::Validator { type_name, source })?
            .with_model(node);
        let plan = SchemaPlan::compile(&schema).map_err(|source| ContractError::Plan {
            type_name,
            source: Box::new(source),
        })?;
        let shown = crate::export::shown(&schema);
        Ok(Compiled {
            clean: crate::clean_read::eligibility(node, &shown),
            shown,
            schema,
            validator,
            plan,
        })
    }
}

/// A root that is only a reference (a newtype or documented transparent
/// struct around another struct) gets the definition's keywords itself:
/// providers want `"type": "object"` at the root of a tool's schema. The
/// definition stays, for the references inside it.
fn inline_root_reference(schema: &mut Value) {
    let definition = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(crate::plan::reference::ref_pointer)
        .filter(|pointer| !pointer.is_empty())
        .and_then(|pointer| schema.pointer(&pointer))
        .and_then(Value::as_object)
        .cloned();
    let (Some(definition), Value::Object(root)) = (definition, schema) else {
        return;
    };
    root.remove("$ref");
    for (keyword, value) in definition {
        match (keyword.as_str(), root.get_mut(&keyword), value) {
            // A root with members of its own beside the reference (a
            // flattened newtype around a struct): both sets of members, as
            // `$ref` beside `properties` reads them.
            ("properties", Some(Value::Object(own)), Value::Object(more)) => {
                for (name, member) in more {
                    own.entry(name).or_insert(member);
                }
            }
            ("required", Some(Value::Array(own)), Value::Array(more)) => {
                for name in more {
                    if !own.contains(&name) {
                        own.push(name);
                    }
                }
            }
            // The root's own annotations (its title, its doc comment) win.
            (_, Some(_), _) => {}
            (_, None, value) => {
                root.insert(keyword, value);
            }
        }
    }
}

/// Drops the second and later copies of a name in every `required`.
/// schemars writes a name twice where a struct and a struct it flattens
/// both have a field of that name (`struct Clash { id: u32,
/// #[serde(flatten)] meta: Meta }`, `Meta` with its own `id`): serde hands
/// the member to the struct's own field, and the schema means "required
/// once", but a `required` with repeats is not a valid schema, which the
/// validator refuses to compile (and providers refuse to be shown).
fn unique_required(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Array(names)) = map.get_mut("required") {
                let mut seen = std::collections::HashSet::new();
                names.retain(|name| seen.insert(name.clone()));
            }
            for (keyword, child) in map.iter_mut() {
                if !crate::integer_bounds::DATA.contains(&keyword.as_str()) {
                    unique_required(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(unique_required),
        _ => {}
    }
}

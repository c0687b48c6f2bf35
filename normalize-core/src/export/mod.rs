//! Tool definitions for each provider, generated from the schema calls are
//! validated against.
//!
//! There is one schema per tool and [`Dialect`]: the schema the tool
//! declares ([`Dialect::Canonical`]), or its OpenAI strict transform
//! ([`Dialect::OpenAiStrict`], see [`strict`]). A
//! [`Toolbox`](crate::toolbox::Toolbox) validates against its dialect's
//! schema and exports that same value to every provider; the
//! [`drift`] check proves it.
//!
//! | provider | definition | schema at |
//! |----------|------------|-----------|
//! | [`Provider::OpenAiChat`] | `{"type": "function", "function": {"name", "description", "parameters", "strict"}}` | `/function/parameters` |
//! | [`Provider::OpenAiResponses`] | `{"type": "function", "name", "description", "parameters", "strict"}` | `/parameters` |
//! | [`Provider::Anthropic`] | `{"name", "description", "input_schema"}` | `/input_schema` |
//! | [`Provider::Mcp`] | a `tools/list` entry `{"name", "description", "inputSchema"}` | `/inputSchema` |
//! | [`Provider::Gemini`] | a function declaration `{"name", "description", "parametersJsonSchema"}` | `/parametersJsonSchema` |
//!
//! `strict` is written explicitly (`false` in the canonical dialect), since
//! the Responses API otherwise defaults to strict.
//!
//! Gemini: the declaration uses `parametersJsonSchema`, Gemini's JSON
//! Schema field, not `parameters` (the OpenAPI 3.0 subset with upper-case
//! type names, no `$ref`, no `additionalProperties`, no type lists). The
//! subset would have to drop `additionalProperties: false`, which would
//! make the schema the model sees open while the one we validate against
//! is closed; `parametersJsonSchema` takes the schema unchanged, so nothing
//! is transformed. Keywords Gemini's JSON Schema support does not list are
//! still validated here and reported back to the model when a call breaks
//! them.

pub mod aliases;
pub mod drift;
pub mod strict;

use serde::Serialize;
use serde_json::{Value, json};

pub use drift::Drift;
pub use strict::{StrictChange, StrictError, StrictSchema};

/// A model provider's tool-definition format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// OpenAI Chat Completions `tools`.
    OpenAiChat,
    /// OpenAI Responses `tools`.
    OpenAiResponses,
    /// Anthropic Messages `tools`.
    Anthropic,
    /// MCP `tools/list` result.
    Mcp,
    /// Gemini `functionDeclarations`.
    Gemini,
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 5] = [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Mcp,
        Provider::Gemini,
    ];
}

/// Which schema a toolbox shows and validates against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// The schema as the tool declares it.
    #[default]
    Canonical,
    /// The OpenAI strict-mode transform of it ([`StrictSchema`]); OpenAI
    /// definitions carry `"strict": true`.
    OpenAiStrict,
}

/// What one tool definition is made of.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// What it does, for the model.
    pub description: &'a str,
    /// The schema calls are validated against.
    pub schema: &'a Value,
}

/// What a model is shown of a derived type's schema: each field and
/// variant under its wire name only (a model shown two names for one field
/// may send both, which serde refuses), and no definition nothing refers
/// to. Validation reads `schema` itself, which also takes serde's aliases:
/// it may accept more than the shown schema, never less.
///
/// A document whose references point into a union or a composition by
/// position (`#/$defs/A/anyOf/1/...`, which the flatten readings write)
/// keeps its aliases: leaving a branch out would move the positions those
/// references name.
pub(crate) fn shown(schema: &Value) -> Value {
    let mut shown = if refers_by_position(schema) {
        schema.clone()
    } else {
        aliases::without_aliases(schema).into_owned()
    };
    strict::prune_definitions(&mut shown);
    without_validators_keywords(&mut shown);
    shown
}

/// Drops, at every schema location of `schema`, the keywords only toolargs'
/// own validator reads (`crate::keywords`: a flattened `Option`'s whole
/// reading and a map's distinct entries, which index a table of this
/// process, and the mark of a number serde reads as an integer). A model
/// is shown JSON Schema and the portable `x-toolargs-verbatim`; the
/// validator keeps its own schema. A property's name is never touched.
fn without_validators_keywords(schema: &mut Value) {
    use crate::keywords::{DISTINCT, WHOLE, WRITTEN_AS_INTEGER};
    let Value::Object(map) = schema else {
        if let Value::Array(items) = schema {
            items.iter_mut().for_each(without_validators_keywords);
        }
        return;
    };
    for keyword in [WHOLE, DISTINCT, WRITTEN_AS_INTEGER] {
        map.remove(keyword);
    }
    for (keyword, child) in map.iter_mut() {
        match (keyword.as_str(), child) {
            // Names, each mapped to a schema.
            (
                "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas",
                Value::Object(named),
            ) => named.values_mut().for_each(without_validators_keywords),
            (data, _) if crate::integer_bounds::DATA.contains(&data) => {}
            (_, child) => without_validators_keywords(child),
        }
    }
}

/// Whether a `$ref` of `schema` passes through an `anyOf`, `oneOf` or
/// `allOf` array.
fn refers_by_position(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, child)| match (key.as_str(), child) {
            ("$ref", Value::String(reference)) => ["/anyOf/", "/oneOf/", "/allOf/"]
                .iter()
                .any(|step| reference.contains(step)),
            _ => refers_by_position(child),
        }),
        Value::Array(items) => items.iter().any(refers_by_position),
        _ => false,
    }
}

/// One tool's definition for `provider`.
pub fn definition(provider: Provider, dialect: Dialect, spec: ToolSpec<'_>) -> Value {
    let strict = dialect == Dialect::OpenAiStrict;
    let ToolSpec {
        name,
        description,
        schema,
    } = spec;
    match provider {
        Provider::OpenAiChat => json!({
            "type": "function",
            "function": {"name": name, "description": description, "parameters": schema, "strict": strict}
        }),
        Provider::OpenAiResponses => json!({
            "type": "function", "name": name, "description": description, "parameters": schema, "strict": strict
        }),
        Provider::Anthropic => {
            json!({"name": name, "description": description, "input_schema": schema})
        }
        Provider::Mcp => json!({"name": name, "description": description, "inputSchema": schema}),
        Provider::Gemini => {
            json!({"name": name, "description": description, "parametersJsonSchema": schema})
        }
    }
}

/// Every tool's definition for `provider`, in the shape the provider takes
/// them: a list for OpenAI and Anthropic, `{"tools": [...]}` (a `tools/list`
/// result) for MCP, `{"functionDeclarations": [...]}` (one Gemini `Tool`)
/// for Gemini.
pub fn definitions<'a>(
    provider: Provider,
    dialect: Dialect,
    specs: impl IntoIterator<Item = ToolSpec<'a>>,
) -> Value {
    let list: Vec<Value> = specs
        .into_iter()
        .map(|spec| definition(provider, dialect, spec))
        .collect();
    match provider {
        Provider::Mcp => json!({"tools": list}),
        Provider::Gemini => json!({"functionDeclarations": list}),
        _ => Value::Array(list),
    }
}

/// The list of definitions inside what [`definitions`] returned.
pub fn definition_list(provider: Provider, exported: &Value) -> Option<&Vec<Value>> {
    match provider {
        Provider::Mcp => exported.get("tools")?.as_array(),
        Provider::Gemini => exported.get("functionDeclarations")?.as_array(),
        _ => exported.as_array(),
    }
}

/// The name in one definition.
pub fn name_of(provider: Provider, definition: &Value) -> Option<&str> {
    match provider {
        Provider::OpenAiChat => definition.pointer("/function/name")?.as_str(),
        _ => definition.get("name")?.as_str(),
    }
}

/// The schema in one definition.
pub fn schema_of(provider: Provider, definition: &Value) -> Option<&Value> {
    match provider {
        Provider::OpenAiChat => definition.pointer("/function/parameters"),
        Provider::OpenAiResponses => definition.get("parameters"),
        Provider::Anthropic => definition.get("input_schema"),
        Provider::Mcp => definition.get("inputSchema"),
        Provider::Gemini => definition.get("parametersJsonSchema"),
    }
}

//! The tools `check`, `grammar` and `export` work on: one schema named on the
//! command line, or every tool of a tools file.
//!
//! A tools file is what `toolargs export` writes, for any provider (a list of
//! OpenAI, Anthropic, MCP or Gemini definitions, an MCP `tools/list` result,
//! a Gemini tool, or the all-providers object), or an MCP `tools/list`
//! response as a server sends it (`{"jsonrpc", "id", "result": {"tools"}}`).
//! Reading a definition back uses the export module's own accessors, so the
//! two cannot disagree about where a provider keeps the schema.
//!
//! A request's own tool list is read too:
//!
//! - **Tools that are not functions are skipped**, each with a note on
//!   stderr: a provider's built-in tools (an object whose `type` is a
//!   string other than `function` and `custom`, such as OpenAI's
//!   `web_search`, `file_search`, `mcp` or Anthropic's
//!   `web_search_20250305`; a Gemini tool holding only built-ins such as
//!   `googleSearch` or `codeExecution`), and OpenAI custom tools (`type:
//!   custom` without a schema: their input is free text, not JSON
//!   arguments). An object that keeps a schema where a provider does
//!   (`function`, `parameters`, `input_schema`, `inputSchema`,
//!   `parametersJsonSchema`) is read as a definition whatever its `type`
//!   says, and one whose `type` is `function` but that keeps no schema
//!   stays an error: a malformed function is not skipped. A file left with
//!   no tool is refused.
//! - **Gemini's `parameters`**: a declaration inside `functionDeclarations`
//!   (or `function_declarations`) that keeps its schema in `parameters`
//!   holds Gemini's OpenAPI-subset `Schema`, as Gemini's SDKs write it:
//!   type names upper-case (`OBJECT`, `STRING`), `nullable` beside them. It
//!   is read as JSON Schema: the seven type names in any case become
//!   lower-case (`TYPE_UNSPECIFIED` is dropped), `nullable: true` adds
//!   `null` to the type (to `enum` too, and a branch to `anyOf` when there
//!   is no type), through `properties`, `items` and `anyOf`; every other
//!   keyword (`enum`, `format`, `required`, `minItems`, ...) is kept as
//!   written. Nowhere else: in a JSON Schema (`parametersJsonSchema`, any
//!   other provider) `"type": "OBJECT"` is an error, and reading it as
//!   `object` would accept a schema the provider refuses.

use crate::fatal::Fatal;
use serde_json::{Map, Value};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use toolargs::export::{Dialect, Provider, name_of, schema_of};
use toolargs::grammar::NumberTexts;
use toolargs::normalizer::Options;
use toolargs::toolbox::Toolbox;

/// Nesting accepted in a schema or tools file.
const FILE_DEPTH: usize = 10_000;

/// The longest tool name every provider takes.
const MAX_NAME: usize = 64;

/// Which tools a subcommand works on.
#[derive(clap::Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["schema", "tools"])))]
pub struct Source {
    /// One tool's JSON Schema (its arguments object).
    #[arg(long, value_name = "SCHEMA.json")]
    pub schema: Option<PathBuf>,
    /// A tools file: tool definitions as `toolargs export` writes them (any
    /// provider), a request's tool list (built-in tools are skipped), or an
    /// MCP `tools/list` result.
    #[arg(long, value_name = "TOOLS.json", conflicts_with_all = ["name", "description"])]
    pub tools: Option<PathBuf>,
    /// With --schema: the tool's name. Default: the file name without its
    /// extension, made a name every provider takes (each character outside
    /// A-Z a-z 0-9 _ - becomes `_`, a `_` goes before a leading digit or
    /// `-`, at most 64 characters; `tool` if empty): `my.tool.schema.json`
    /// is `my_tool_schema`.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// With --schema: the tool's description.
    #[arg(long, value_name = "TEXT")]
    pub description: Option<String>,
}

/// One tool: what a provider definition holds.
#[derive(Debug, Clone)]
pub struct ToolDef {
    /// Its name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// Its arguments' JSON Schema.
    pub schema: Value,
    /// The schema's numbers as the file writes them (pointers relative to
    /// the schema), for grammars.
    pub numbers: NumberTexts,
}

impl Source {
    /// The file named on the command line, for messages.
    pub fn path(&self) -> &Path {
        self.schema
            .as_deref()
            .or(self.tools.as_deref())
            .unwrap_or(Path::new("-"))
    }

    /// The tools, in the file's order. What a tools file holds beside them
    /// (built-in tools) is skipped with a note on stderr.
    ///
    /// # Errors
    ///
    /// [`Fatal::Unreadable`]: the file cannot be read, is not JSON, or is
    /// not a tools file.
    pub fn load(&self) -> Result<Vec<ToolDef>, Fatal> {
        let path = self.path();
        let unreadable = |message: String| Fatal::Unreadable {
            path: path.display().to_string(),
            message,
        };
        let (document, text) = crate::schema_file::read_with_text(path, FILE_DEPTH)?;
        let numbers = NumberTexts::scan(&text).map_err(|e| unreadable(e.to_string()))?;
        if self.schema.is_some() {
            let name = self.name.clone().unwrap_or_else(|| name_from_file(path));
            return Ok(vec![ToolDef {
                name,
                description: self.description.clone().unwrap_or_default(),
                schema: document,
                numbers,
            }]);
        }
        let mut found = Found::default();
        let read = collect(&document, "", false, &numbers, &mut found);
        for note in &found.notes {
            eprintln!("toolargs: {}: {note}", path.display());
        }
        read.map_err(unreadable)?;
        if found.tools.is_empty() {
            return Err(unreadable("the tools file holds no tool".to_owned()));
        }
        Ok(found.tools)
    }

    /// A toolbox holding every tool (bodies that do nothing: the command
    /// checks and exports, it never runs a tool).
    ///
    /// # Errors
    ///
    /// [`Fatal::Schema`]: a name is invalid or repeated, or a schema does
    /// not compile (in `dialect`).
    pub fn toolbox(
        &self,
        tools: &[ToolDef],
        dialect: Dialect,
        options: Options,
    ) -> Result<Toolbox, Fatal> {
        let mut toolbox = Toolbox::with_dialect(dialect).options(options);
        for tool in tools {
            toolbox
                .dynamic_tool_sync(&tool.name, &tool.description, tool.schema.clone(), |_| {
                    Ok::<(), Infallible>(())
                })
                .map_err(|e| Fatal::Schema {
                    path: self.path().display().to_string(),
                    message: e.to_string(),
                })?;
        }
        Ok(toolbox)
    }
}

/// The tool name for a schema file: its name without the extension, made
/// one every provider takes (OpenAI's `^[a-zA-Z0-9_-]{1,64}$`, and Gemini's
/// leading letter or `_`).
fn name_from_file(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        name.insert(0, '_');
    }
    // ASCII only by now: one byte per character.
    name.truncate(MAX_NAME);
    if name.is_empty() {
        "tool".to_owned()
    } else {
        name
    }
}

/// What a walk of a tools file found.
#[derive(Default)]
struct Found {
    tools: Vec<ToolDef>,
    /// What was skipped, and where.
    notes: Vec<String>,
}

/// The provider a single definition is written for, told by where it keeps
/// the schema.
fn provider_of(definition: &Value) -> Option<Provider> {
    let has = |key: &str| definition.get(key).is_some();
    Some(if has("function") {
        Provider::OpenAiChat
    } else if has("input_schema") {
        Provider::Anthropic
    } else if has("inputSchema") {
        Provider::Mcp
    } else if has("parametersJsonSchema") {
        Provider::Gemini
    } else if has("parameters") {
        Provider::OpenAiResponses
    } else {
        return None;
    })
}

/// A field of a Gemini `Tool` that holds one of Gemini's built-in tools.
const GEMINI_BUILT_INS: [&str; 18] = [
    "googleSearch",
    "google_search",
    "googleSearchRetrieval",
    "google_search_retrieval",
    "codeExecution",
    "code_execution",
    "urlContext",
    "url_context",
    "computerUse",
    "computer_use",
    "fileSearch",
    "file_search",
    "googleMaps",
    "google_maps",
    "enterpriseWebSearch",
    "enterprise_web_search",
    "retrieval",
    "mcpServers",
];

/// Why an object that holds no schema is not a tool definition to read:
/// `Some(note)` when it is a tool of another kind (skipped with the note),
/// `None` when it is no tool at all.
fn not_a_function(map: &Map<String, Value>, at: &str) -> Option<String> {
    match map.get("type") {
        Some(Value::String(kind)) if kind == "function" => None,
        Some(Value::String(kind)) if kind == "custom" => {
            let name = map
                .get("name")
                .or_else(|| map.get("custom").and_then(|c| c.get("name")))
                .and_then(Value::as_str)
                .unwrap_or("?");
            Some(format!(
                "skipped custom tool `{name}` at {at} (its input is free text, not JSON arguments)"
            ))
        }
        Some(Value::String(kind)) => Some(format!("skipped built-in tool `{kind}` at {at}")),
        Some(_) => None,
        None => {
            let built_in = !map.is_empty()
                && map
                    .keys()
                    .all(|key| GEMINI_BUILT_INS.contains(&key.as_str()));
            built_in.then(|| {
                let names: Vec<&str> = map.keys().map(String::as_str).collect();
                format!("skipped built-in tool `{}` at {at}", names.join("`, `"))
            })
        }
    }
}

/// Appends the tools in `value` (at `pointer` in the file, whose number
/// texts are `numbers`) to `found`; `gemini` inside a Gemini tool's
/// `functionDeclarations`.
fn collect(
    value: &Value,
    pointer: &str,
    gemini: bool,
    numbers: &NumberTexts,
    found: &mut Found,
) -> Result<(), String> {
    match value {
        Value::Array(list) => {
            for (i, item) in list.iter().enumerate() {
                collect(item, &format!("{pointer}/{i}"), gemini, numbers, found)?;
            }
            Ok(())
        }
        Value::Object(map) => {
            // Containers: a JSON-RPC response, a `tools/list` result (or a
            // request's `tools` holding Gemini tools), a Gemini tool, the
            // all-providers export (one provider's listing is enough: they
            // carry the same schemas).
            for key in [
                "result",
                "tools",
                "functionDeclarations",
                "function_declarations",
                "anthropic",
            ] {
                if let Some(inner) = map.get(key) {
                    let declarations = key.starts_with("function");
                    return collect(
                        inner,
                        &format!("{pointer}/{key}"),
                        declarations,
                        numbers,
                        found,
                    );
                }
            }
            let Some(provider) = provider_of(value) else {
                if let Some(note) = not_a_function(map, display(pointer)) {
                    found.notes.push(note);
                    return Ok(());
                }
                return Err(format!(
                    "`{}` is not a tool definition (no `function`, `parameters`, `input_schema`, `inputSchema` or `parametersJsonSchema`)",
                    display(pointer)
                ));
            };
            let name = name_of(provider, value)
                .ok_or_else(|| format!("the definition at `{}` has no name", display(pointer)))?;
            let description = match provider {
                Provider::OpenAiChat => value.pointer("/function/description"),
                _ => value.get("description"),
            }
            .and_then(Value::as_str)
            .unwrap_or_default();
            let at = match provider {
                Provider::OpenAiChat => "/function/parameters",
                Provider::OpenAiResponses => "/parameters",
                Provider::Anthropic => "/input_schema",
                Provider::Mcp => "/inputSchema",
                Provider::Gemini => "/parametersJsonSchema",
            };
            // A function without parameters takes none (OpenAI allows it,
            // and its SDKs write `null`).
            let (schema, numbers) = match schema_of(provider, value).filter(|s| !s.is_null()) {
                // Gemini's own `Schema`, in a declaration's `parameters`.
                Some(schema) if gemini && provider == Provider::OpenAiResponses => (
                    from_gemini(schema),
                    numbers.under(&format!("{pointer}{at}")),
                ),
                Some(schema) => (schema.clone(), numbers.under(&format!("{pointer}{at}"))),
                None => (
                    serde_json::json!({"type": "object", "properties": {}}),
                    NumberTexts::default(),
                ),
            };
            found.tools.push(ToolDef {
                name: name.to_owned(),
                description: description.to_owned(),
                schema,
                numbers,
            });
            Ok(())
        }
        _ => Err(format!(
            "`{}` is neither a list of tool definitions nor a definition",
            display(pointer)
        )),
    }
}

/// Gemini's `Schema` (the OpenAPI 3.0 subset its SDKs write) as JSON
/// Schema: type names lower-case, `nullable: true` as a `null` type, the
/// subschemas (`properties`, `items`, `anyOf`) alike, every other keyword
/// as written. Each value keeps its place, so the file's number texts still
/// name the same numbers.
fn from_gemini(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::with_capacity(map.len());
    for (key, value) in map {
        let converted = match (key.as_str(), value) {
            ("type", Value::String(name)) => {
                let lower = name.to_ascii_lowercase();
                match lower.as_str() {
                    "type_unspecified" => continue,
                    "string" | "number" | "integer" | "boolean" | "array" | "object" | "null" => {
                        Value::String(lower)
                    }
                    // Not a type name: left for the schema's compiler to
                    // name as written.
                    _ => value.clone(),
                }
            }
            ("nullable", Value::Bool(_)) => continue,
            ("properties", Value::Object(properties)) => Value::Object(
                properties
                    .iter()
                    .map(|(name, member)| (name.clone(), from_gemini(member)))
                    .collect(),
            ),
            ("items", item) => from_gemini(item),
            ("anyOf", Value::Array(branches)) => {
                Value::Array(branches.iter().map(from_gemini).collect())
            }
            _ => value.clone(),
        };
        out.insert(key.clone(), converted);
    }
    if map.get("nullable") == Some(&Value::Bool(true)) {
        add_null(&mut out);
    }
    Value::Object(out)
}

/// Admits `null` in a converted schema that `nullable: true` marked.
fn add_null(schema: &mut Map<String, Value>) {
    let null = Value::String("null".to_owned());
    match schema.get_mut("type") {
        Some(Value::String(name)) if name != "null" => {
            let name = std::mem::take(name);
            schema.insert(
                "type".to_owned(),
                Value::Array(vec![Value::String(name), null]),
            );
        }
        Some(Value::Array(names)) => {
            if !names.contains(&null) {
                names.push(null);
            }
        }
        Some(_) => {}
        None => {
            if let Some(Value::Array(branches)) = schema.get_mut("anyOf") {
                branches.push(serde_json::json!({"type": "null"}));
            }
        }
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

fn display(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The tools in `file` (no number texts), and the notes.
    fn read(file: &Value) -> Result<Found, String> {
        let mut found = Found::default();
        collect(file, "", false, &NumberTexts::default(), &mut found).map(|()| found)
    }

    #[test]
    fn every_provider_export_reads_back_as_the_same_tools() {
        let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let tools = [ToolDef {
            name: "search".to_owned(),
            description: "Finds things".to_owned(),
            schema: schema.clone(),
            numbers: NumberTexts::default(),
        }];
        let source = Source {
            schema: None,
            tools: None,
            name: None,
            description: None,
        };
        let toolbox = source
            .toolbox(&tools, Dialect::Canonical, Options::default())
            .unwrap();
        for provider in Provider::ALL {
            let read = read(&toolbox.export(provider)).unwrap().tools;
            assert_eq!(read.len(), 1, "{provider:?}");
            assert_eq!(read[0].name, "search", "{provider:?}");
            assert_eq!(read[0].description, "Finds things", "{provider:?}");
            assert_eq!(read[0].schema, schema, "{provider:?}");
        }
        let response = json!({"jsonrpc": "2.0", "id": 1, "result": toolbox.export(Provider::Mcp)});
        assert_eq!(read(&response).unwrap().tools[0].name, "search");
    }

    #[test]
    fn a_file_that_is_not_tools_names_where() {
        let err = read(&json!([{"name": "x"}])).err().unwrap();
        assert!(err.contains("`/0` is not a tool definition"), "{err}");
        assert!(read(&json!(5)).is_err());
    }

    #[test]
    fn tools_of_other_kinds_are_skipped_and_malformed_functions_are_not() {
        let params = json!({"type": "object", "properties": {}});
        let found = read(&json!([
            {"type": "web_search"},
            {"type": "function", "name": "f", "parameters": params},
            {"type": "mcp", "server_label": "x", "server_url": "https://example.com"},
            {"type": "web_search_20250305", "name": "web_search"},
            {"type": "custom", "name": "grep", "format": {"type": "text"}},
            {"type": "custom", "name": "g", "input_schema": params},
            {"functionDeclarations": [{"name": "h", "parametersJsonSchema": params}]},
            {"googleSearch": {}, "codeExecution": {}}
        ]))
        .unwrap();
        let names: Vec<&str> = found.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["f", "g", "h"]);
        assert_eq!(
            found.notes,
            [
                "skipped built-in tool `web_search` at /0",
                "skipped built-in tool `mcp` at /2",
                "skipped built-in tool `web_search_20250305` at /3",
                "skipped custom tool `grep` at /4 (its input is free text, not JSON arguments)",
                "skipped built-in tool `googleSearch`, `codeExecution` at /7",
            ]
        );
        // A function that keeps no schema, or a `type` that is no string,
        // or a tool of no known kind: errors, as before.
        for bad in [
            json!([{"type": "function", "name": "f", "paramters": {}}]),
            json!([{"type": 3, "name": "f"}]),
            json!([{"googleSearch": {}, "name": "f"}]),
            json!([{}]),
        ] {
            let err = read(&bad).err().unwrap();
            assert!(
                err.contains("`/0` is not a tool definition"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn gemini_parameters_are_read_as_json_schema() {
        let declaration = json!({"name": "f", "parameters": {
            "type": "OBJECT",
            "properties": {
                "city": {"type": "STRING", "description": "A city", "nullable": true},
                "unit": {"type": "STRING", "format": "enum", "enum": ["C", "F"], "nullable": true},
                "days": {"type": "ARRAY", "items": {"type": "INTEGER"}, "minItems": 1},
                "any": {"anyOf": [{"type": "NUMBER"}, {"type": "BOOLEAN"}], "nullable": true},
                "kind": {"type": "TYPE_UNSPECIFIED", "nullable": false}
            },
            "required": ["city"],
            "propertyOrdering": ["city", "unit", "days"]
        }});
        let expected = json!({
            "type": "object",
            "properties": {
                "city": {"type": ["string", "null"], "description": "A city"},
                "unit": {"type": ["string", "null"], "format": "enum", "enum": ["C", "F", null]},
                "days": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
                "any": {"anyOf": [{"type": "number"}, {"type": "boolean"}, {"type": "null"}]},
                "kind": {}
            },
            "required": ["city"],
            "propertyOrdering": ["city", "unit", "days"]
        });
        let tool = json!({"functionDeclarations": [declaration.clone()]});
        let found = read(&json!({"tools": [tool]})).unwrap();
        assert_eq!(found.tools[0].schema, expected);
        // Outside a Gemini tool, `parameters` is JSON Schema as written.
        let found = read(&json!([declaration.clone()])).unwrap();
        assert_eq!(found.tools[0].schema, declaration["parameters"]);
    }

    #[test]
    fn schema_file_names_become_tool_names() {
        let name = |file: &str| name_from_file(Path::new(file));
        assert_eq!(name("dir/my.tool.schema.json"), "my_tool_schema");
        assert_eq!(name("refund.json"), "refund");
        assert_eq!(name("2024 report.json"), "_2024_report");
        assert_eq!(name("-x.json"), "_-x");
        assert_eq!(name("café.json"), "caf_");
        assert_eq!(name(&format!("{}.json", "a".repeat(100))), "a".repeat(64));
        assert_eq!(name("/"), "tool");
    }
}

//! The tools `check`, `grammar` and `export` work on: one schema named on the
//! command line, or every tool of a tools file.
//!
//! A tools file is what `toolargs export` writes, for any provider (a list of
//! OpenAI, Anthropic, MCP or Gemini definitions, an MCP `tools/list` result,
//! a Gemini tool, or the all-providers object), or an MCP `tools/list`
//! response as a server sends it (`{"jsonrpc", "id", "result": {"tools"}}`).
//! Reading a definition back uses the export module's own accessors, so the
//! two cannot disagree about where a provider keeps the schema.

use crate::fatal::Fatal;
use serde_json::Value;
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use toolargs::Options;
use toolargs::export::{Dialect, Provider, name_of, schema_of};
use toolargs::toolbox::Toolbox;

/// Nesting accepted in a schema or tools file.
const FILE_DEPTH: usize = 10_000;

/// Which tools a subcommand works on.
#[derive(clap::Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["schema", "tools"])))]
pub struct Source {
    /// One tool's JSON Schema (its arguments object).
    #[arg(long, value_name = "SCHEMA.json")]
    pub schema: Option<PathBuf>,
    /// A tools file: tool definitions as `toolargs export` writes them (any
    /// provider), or an MCP `tools/list` result.
    #[arg(long, value_name = "TOOLS.json", conflicts_with_all = ["name", "description"])]
    pub tools: Option<PathBuf>,
    /// With --schema: the tool's name (default: the file name without its
    /// extension).
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
}

impl Source {
    /// The file named on the command line, for messages.
    pub fn path(&self) -> &Path {
        self.schema
            .as_deref()
            .or(self.tools.as_deref())
            .unwrap_or(Path::new("-"))
    }

    /// The tools, in the file's order.
    ///
    /// # Errors
    ///
    /// [`Fatal::Unreadable`]: the file cannot be read, is not JSON, or is
    /// not a tools file.
    pub fn load(&self) -> Result<Vec<ToolDef>, Fatal> {
        let path = self.path();
        let document = crate::schema_file::read(path, FILE_DEPTH)?;
        if self.schema.is_some() {
            let name = self.name.clone().unwrap_or_else(|| {
                path.file_stem()
                    .map_or_else(|| "tool".to_owned(), |s| s.to_string_lossy().into_owned())
            });
            return Ok(vec![ToolDef {
                name,
                description: self.description.clone().unwrap_or_default(),
                schema: document,
            }]);
        }
        let mut tools = Vec::new();
        collect(&document, "", &mut tools).map_err(|message| Fatal::Unreadable {
            path: path.display().to_string(),
            message,
        })?;
        if tools.is_empty() {
            return Err(Fatal::Unreadable {
                path: path.display().to_string(),
                message: "the tools file holds no tool".to_owned(),
            });
        }
        Ok(tools)
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

/// Appends the tools in `value` (at `pointer` in the file) to `tools`.
fn collect(value: &Value, pointer: &str, tools: &mut Vec<ToolDef>) -> Result<(), String> {
    match value {
        Value::Array(list) => {
            for (i, item) in list.iter().enumerate() {
                collect(item, &format!("{pointer}/{i}"), tools)?;
            }
            Ok(())
        }
        Value::Object(map) => {
            // Containers: a JSON-RPC response, a `tools/list` result (or a
            // request's `tools` holding Gemini tools), a Gemini tool, the
            // all-providers export (one provider's listing is enough: they
            // carry the same schemas).
            for key in ["result", "tools", "functionDeclarations", "anthropic"] {
                if let Some(inner) = map.get(key) {
                    return collect(inner, &format!("{pointer}/{key}"), tools);
                }
            }
            let provider = provider_of(value).ok_or_else(|| {
                format!(
                    "`{}` is not a tool definition (no `function`, `parameters`, `input_schema`, `inputSchema` or `parametersJsonSchema`)",
                    display(pointer)
                )
            })?;
            let name = name_of(provider, value)
                .ok_or_else(|| format!("the definition at `{}` has no name", display(pointer)))?;
            let description = match provider {
                Provider::OpenAiChat => value.pointer("/function/description"),
                _ => value.get("description"),
            }
            .and_then(Value::as_str)
            .unwrap_or_default();
            // A function without parameters takes none (OpenAI allows it).
            let schema = schema_of(provider, value)
                .cloned()
                .unwrap_or_else(|| serde_json::json!({"type": "object", "properties": {}}));
            tools.push(ToolDef {
                name: name.to_owned(),
                description: description.to_owned(),
                schema,
            });
            Ok(())
        }
        _ => Err(format!(
            "`{}` is neither a list of tool definitions nor a definition",
            display(pointer)
        )),
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

    #[test]
    fn every_provider_export_reads_back_as_the_same_tools() {
        let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
        let tools = [ToolDef {
            name: "search".to_owned(),
            description: "Finds things".to_owned(),
            schema: schema.clone(),
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
            let exported = toolbox.export(provider);
            let mut read = Vec::new();
            collect(&exported, "", &mut read).unwrap();
            assert_eq!(read.len(), 1, "{provider:?}");
            assert_eq!(read[0].name, "search", "{provider:?}");
            assert_eq!(read[0].description, "Finds things", "{provider:?}");
            assert_eq!(read[0].schema, schema, "{provider:?}");
        }
        let response = json!({"jsonrpc": "2.0", "id": 1, "result": toolbox.export(Provider::Mcp)});
        let mut read = Vec::new();
        collect(&response, "", &mut read).unwrap();
        assert_eq!(read[0].name, "search");
    }

    #[test]
    fn a_file_that_is_not_tools_names_where() {
        let mut read = Vec::new();
        let err = collect(&json!([{"name": "x"}]), "", &mut read).unwrap_err();
        assert!(err.contains("`/0` is not a tool definition"), "{err}");
        assert!(collect(&json!(5), "", &mut read).is_err());
    }
}

use schemars::JsonSchema;
use serde::Deserialize;
use toolargs::ToolArgs;

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct SearchArgs {
    #[schemars(rename = "q")]
    query: String,
    // Agreeing with serde is fine.
    #[serde(rename = "n")]
    #[schemars(rename = "n")]
    limit: u32,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "type")]
enum Action {
    #[schemars(rename = "find")]
    Search { query: String },
    Stop {
        #[schemars(rename = "why")]
        reason: String,
    },
}

// None of these is an error: an alias is a name serde reads, and schemars
// leaves names it does not write (untagged variants, tuple fields,
// flattened and transparent fields) alone.
#[derive(Deserialize, JsonSchema, ToolArgs)]
struct ByAlias {
    #[serde(alias = "q")]
    #[schemars(rename = "q")]
    query: String,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(untagged)]
enum Either {
    #[schemars(rename = "word")]
    Word(String),
    #[schemars(rename = "number")]
    Number(u32),
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Pair(#[schemars(rename = "first")] String, u32);

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
struct Wrapper {
    #[schemars(rename = "inner")]
    value: String,
}

#[derive(Deserialize, JsonSchema)]
struct Raw {
    name: String,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(from = "Raw")]
#[schemars(with = "Raw")]
struct FromRaw {
    #[schemars(rename = "other")]
    name: String,
}

impl From<Raw> for FromRaw {
    fn from(raw: Raw) -> Self {
        FromRaw { name: raw.name }
    }
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Hidden {
    #[serde(default)]
    #[schemars(skip, rename = "q")]
    query: String,
}

fn main() {
    let _ = SearchArgs::input_schema();
    let _ = Action::input_schema();
}

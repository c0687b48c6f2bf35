use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use toolargs::ToolArgs;

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct SearchArgs {
    query: String,
    #[schemars(default)]
    limit: u32,
    // `deserialize_with` reads nothing when the member is missing: serde
    // requires even an `Option`.
    #[serde(deserialize_with = "some")]
    #[schemars(default)]
    page: Option<u32>,
}

#[derive(Deserialize, JsonSchema, ToolArgs, Default)]
#[schemars(default)]
struct Everything {
    name: String,
}

fn some<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    u32::deserialize(deserializer).map(Some)
}

// None of these is an error: serde does not require them either.
#[derive(Deserialize, JsonSchema, ToolArgs, Default)]
#[serde(default)]
#[schemars(default)]
struct BothDefault {
    name: String,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct Agreeing {
    #[serde(default)]
    #[schemars(default)]
    limit: u32,
    #[schemars(default)]
    cursor: Option<String>,
}

fn main() {}

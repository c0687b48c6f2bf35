use schemars::JsonSchema;
use serde::Deserialize;
use toolargs::ToolArgs;

#[derive(Deserialize)]
struct Filter {
    tag: String,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct SearchArgs {
    query: String,
    filter: Filter,
}

fn main() {}

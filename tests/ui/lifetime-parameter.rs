use schemars::JsonSchema;
use serde::Deserialize;
use toolargs::ToolArgs;

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct SearchArgs<'a> {
    query: &'a str,
}

fn main() {}

use schemars::JsonSchema;
use serde::Deserialize;
use toolargs::ToolArgs;

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[tool_args(closed)]
struct SearchArgs {
    query: String,
}

fn main() {
    let _ = SearchArgs::input_schema();
}

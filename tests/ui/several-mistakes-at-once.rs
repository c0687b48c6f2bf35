use schemars::JsonSchema;
use serde::Deserialize;
use toolargs::ToolArgs;

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[tool_args(open, open, strict)]
struct SearchArgs {
    #[tool_args(open)]
    query: String,
}

fn main() {
    // The stub impl keeps the type a `ToolArgs`: no further errors here.
    let _ = SearchArgs::from_model("{}");
}

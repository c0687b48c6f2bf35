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

fn main() {
    let _ = SearchArgs::input_schema();
    let _ = Action::input_schema();
}

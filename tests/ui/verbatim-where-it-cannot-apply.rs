use schemars::JsonSchema;
use serde::Deserialize;
use toolargs::ToolArgs;

#[derive(Deserialize, JsonSchema)]
struct Body {
    html: String,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
struct WriteFile {
    path: String,
    #[tool_args(verbatim)]
    #[serde(flatten)]
    body: Body,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
struct Snippet {
    #[tool_args(verbatim, verbatim)]
    text: String,
}

#[derive(Deserialize, JsonSchema, ToolArgs)]
enum Edit {
    #[tool_args(verbatim)]
    Replace { text: String },
}

fn main() {}

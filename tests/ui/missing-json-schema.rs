use serde::Deserialize;
use toolargs::ToolArgs;

#[derive(Deserialize, ToolArgs)]
struct SearchArgs {
    query: String,
}

fn main() {}

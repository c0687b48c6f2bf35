//! A rig tool whose arguments are checked by toolargs: one type change
//! (`type Args = Checked<PublishArgs>`) and rig's own dispatch receives
//! repaired arguments, or hands the model a message naming every field to
//! fix.
//!
//! Run with `cargo run --example rig_tool --features rig`.

use rig_core::tool::{ErasedTool, Tool, ToolContext, ToolResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolargs::ToolArgs;
use toolargs::rig::Checked;

/// Publish a post.
#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct PublishArgs {
    /// The post's title, as plain text.
    title: String,
    /// Tags to file it under.
    #[serde(default)]
    tags: Vec<String>,
    /// How many followers to notify at most.
    notify: Option<u32>,
}

struct Publish;

impl Tool for Publish {
    const NAME: &'static str = "publish";
    type Args = Checked<PublishArgs>;
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Publish a post.".into()
    }

    fn parameters(&self) -> serde_json::Value {
        toolargs::rig::parameters::<PublishArgs>()
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        args: Self::Args,
    ) -> Result<String, Self::Error> {
        for repair in &args.report.repairs {
            // What a service would log and count per field.
            let at = if repair.pointer.is_root() {
                "(root)".to_owned()
            } else {
                repair.pointer.to_string()
            };
            println!("  repaired {at}: {:?}", repair.kind);
        }
        Ok(format!("published {:?} tagged {:?}", args.title, args.tags))
    }
}

fn show(result: &ToolResult) {
    match result.error() {
        None => println!(
            "  result:  {:?}",
            result.output().as_text().unwrap_or_default()
        ),
        Some(error) => println!(
            "  refused: {}",
            error.model_feedback().unwrap_or(error.message())
        ),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), serde_json::Error> {
    println!(
        "parameters: {}",
        serde_json::to_string(&Tool::parameters(&Publish))?
    );
    let calls = [
        // Clean.
        r#"{"title": "Oak season", "tags": ["oak"]}"#,
        // The whole object as a string, tags as a string, a doubly escaped title.
        r#""{\"title\": \"Ember &amp;amp; Oak\", \"tags\": \"[\\\"oak\\\"]\"}""#,
        // Wrong types and an invented field: every one is named.
        r#"{"title": 5, "notify": "20", "pin": true}"#,
    ];
    for args in calls {
        println!("model sent: {args}");
        // What rig's runtime calls for every tool call of the model.
        let result = Publish
            .execute(args.to_owned(), &mut ToolContext::default())
            .await;
        show(&result);
    }
    Ok(())
}

//! `toolargs::rig`: a rig `Tool` whose `Args` is `Checked<T>` gets repaired,
//! validated arguments through rig's own dispatch (the erased tool a
//! runtime calls with the model's raw text, and the tool handler rig's
//! runtime serves), and a refused call's text names every failing pointer.

use rig_core::effect::{EffectKind, Outcome};
use rig_core::serve::adapters::ToolAdapter;
use rig_core::serve::{ErasedHandler, serve_inline};
use rig_core::tool::{ErasedTool, Tool, ToolContext, ToolErrorKind, ToolOutput, ToolResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use toolargs::ToolArgs;
use toolargs::rig::{Checked, model_message, parameters};

/// Publish a post to a channel.
#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs, PartialEq)]
struct Publish {
    /// The post's title, as plain text.
    title: String,
    #[serde(default)]
    tags: Vec<String>,
    /// How many followers to notify at most.
    limit: Option<u32>,
    target: Target,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs, PartialEq)]
struct Target {
    channel: String,
}

/// A rig tool taking checked arguments; counts how often its body ran.
#[derive(Clone, Default)]
struct Publisher {
    runs: Arc<AtomicUsize>,
}

impl Tool for Publisher {
    const NAME: &'static str = "publish";
    type Args = Checked<Publish>;
    type Output = ToolOutput;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Publish a post to a channel.".into()
    }

    fn parameters(&self) -> Value {
        parameters::<Publish>()
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        args: Self::Args,
    ) -> Result<ToolOutput, Self::Error> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        Ok(ToolOutput::json(json!({
            "received": args.value,
            "repairs": args.report.len(),
        })))
    }
}

/// The same tool with plain serde arguments: what rig does without us.
struct PlainPublisher;

impl Tool for PlainPublisher {
    const NAME: &'static str = "publish";
    type Args = Publish;
    type Output = ToolOutput;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Publish a post to a channel.".into()
    }

    fn parameters(&self) -> Value {
        parameters::<Publish>()
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        args: Self::Args,
    ) -> Result<ToolOutput, Self::Error> {
        Ok(ToolOutput::json(json!({ "received": args })))
    }
}

/// The whole arguments object sent as a JSON string, with an array sent as
/// a string inside it and a title HTML-escaped twice: three repairs (the
/// root, `/tags`, `/title`).
const BROKEN: &str = r#""{\"title\": \"Ember &amp;amp; Oak\", \"tags\": \"[\\\"oak\\\", \\\"ash\\\"]\", \"target\": {\"channel\": \"news\"}}""#;

/// A title of the wrong type, a quoted number, an undeclared field and a
/// nested missing field: four pointers, all reported.
const INVALID: &str = r#"{"title": 5, "limit": "20", "sort": "new", "target": {}}"#;

fn repaired() -> Value {
    json!({
        "received": {
            "title": "Ember & Oak",
            "tags": ["oak", "ash"],
            "limit": null,
            "target": {"channel": "news"}
        },
        "repairs": 3
    })
}

async fn execute(tool: &impl ErasedTool, args: &str) -> ToolResult {
    ErasedTool::execute(tool, args.to_owned(), &mut ToolContext::default()).await
}

fn feedback(result: &ToolResult) -> &str {
    let error = result.error().expect("a failed result");
    assert_eq!(error.kind(), ToolErrorKind::InvalidArgs);
    error
        .model_feedback()
        .expect("plain-text feedback for the model")
}

#[tokio::test(flavor = "current_thread")]
async fn the_erased_tool_receives_repaired_arguments() {
    let tool = Publisher::default();
    let result = execute(&tool, BROKEN).await;
    assert!(result.is_success(), "{result:?}: {:?}", result.error());
    assert_eq!(result.output().as_json(), Some(&repaired()));
    assert_eq!(tool.runs.load(Ordering::SeqCst), 1);
}

#[tokio::test(flavor = "current_thread")]
async fn without_checked_rig_refuses_the_same_call() {
    // The control: plain serde arguments cannot take the call at all, so the
    // success above is the adapter's doing.
    let result = execute(&PlainPublisher, BROKEN).await;
    assert!(result.is_error());
    assert!(
        feedback(&result).contains("invalid type: string"),
        "{}",
        feedback(&result)
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_refused_call_names_every_pointer_and_never_runs() {
    let tool = Publisher::default();
    let result = execute(&tool, INVALID).await;
    let text = feedback(&result);
    assert_eq!(
        text,
        "failed to parse tool arguments: The arguments do not match the tool's schema. \
         Fix these fields and call it again:\n\
         - /title: expected string, found integer 5\n\
         - /limit: expected integer or null, found string \"20\"\n\
         - /target/channel: missing required field `channel`\n\
         - /sort: unknown field `sort`; expected one of the declared fields: title, tags, limit, target",
    );
    assert_eq!(tool.runs.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "current_thread")]
async fn the_message_is_the_pipelines_own() {
    let tool = Publisher::default();
    let result = execute(&tool, INVALID).await;
    let Err(error) = Publish::from_model(INVALID) else {
        panic!("the call is invalid")
    };
    assert_eq!(
        feedback(&result),
        format!("failed to parse tool arguments: {}", model_message(&error))
    );
}

#[tokio::test(flavor = "current_thread")]
async fn rigs_runtime_handler_serves_checked_arguments() {
    let tool = Publisher::default();
    let handler = ErasedHandler::new(ToolAdapter::new(tool.clone()));
    let serve = |args: &str| {
        serve_inline(
            &handler,
            EffectKind::ToolCall {
                name: "publish".into(),
                args: args.into(),
            },
        )
    };

    let Ok(Outcome::ToolResult { result }) = serve(BROKEN).await else {
        panic!("a tool result")
    };
    assert!(result.is_success(), "{:?}", result.error());
    assert_eq!(result.output().as_json(), Some(&repaired()));

    let Ok(Outcome::ToolResult { result }) = serve(INVALID).await else {
        panic!("a tool result")
    };
    let text = feedback(&result);
    for pointer in ["/title:", "/limit:", "/sort:", "/target/channel:"] {
        assert!(
            text.contains(&format!("\n- {pointer} ")),
            "{pointer} in {text}"
        );
    }
    assert_eq!(tool.runs.load(Ordering::SeqCst), 1);
}

#[test]
fn the_definition_shows_the_schema_that_is_checked() {
    let definition = rig_core::tool::tool_definition(&Publisher::default());
    assert_eq!(definition.name, "publish");
    assert_eq!(&definition.parameters, Publish::input_schema());
    assert_eq!(definition.parameters["additionalProperties"], false);
}

#[test]
fn checked_reads_any_self_describing_input() {
    // Not only rig's text: a parsed value (another runtime, a test) too.
    let checked: Checked<Publish> = serde_json::from_value(json!({
        "title": "Tom &amp; Jerry",
        "target": "{\"channel\": \"news\"}"
    }))
    .expect("repaired");
    assert_eq!(checked.title, "Tom & Jerry");
    assert_eq!(checked.target.channel, "news");
    assert_eq!(checked.report.len(), 2);
    let pointers: Vec<String> = checked
        .report
        .repairs
        .iter()
        .map(|r| r.pointer.to_string())
        .collect();
    assert_eq!(pointers, ["/title", "/target"]);

    let error = serde_json::from_value::<Checked<Publish>>(json!(["not", "an", "object"]))
        .expect_err("an array is not the arguments");
    assert!(
        error.to_string().contains("- (root): expected object"),
        "{error}"
    );
}

/// Arguments with a rule past the schema: a syntax serde enforces.
#[derive(Debug, Deserialize, Serialize, JsonSchema, ToolArgs)]
struct Connect {
    addr: std::net::Ipv4Addr,
}

struct Connector;

impl Tool for Connector {
    const NAME: &'static str = "connect";
    type Args = Checked<Connect>;
    type Output = String;
    type Error = std::convert::Infallible;

    fn description(&self) -> String {
        "Connect to a host.".into()
    }

    fn parameters(&self) -> Value {
        parameters::<Connect>()
    }

    async fn call(
        &self,
        _context: &mut ToolContext,
        args: Self::Args,
    ) -> Result<String, Self::Error> {
        Ok(args.addr.to_string())
    }
}

#[tokio::test(flavor = "current_thread")]
async fn every_failing_path_reaches_the_model_in_its_own_words() {
    let result = execute(&Connector, r#"{"addr": "10.0.0.1"}"#).await;
    assert_eq!(result.output().as_text(), Some("10.0.0.1"));

    // Valid for the schema, refused by serde: the pointer it refused.
    let result = execute(&Connector, r#"{"addr": "10.0.0.999"}"#).await;
    assert_eq!(
        feedback(&result),
        "failed to parse tool arguments: cannot deserialize `/addr`: invalid IPv4 address syntax"
    );

    // Not JSON at all: rig's parser answers before the pipeline runs.
    let result = execute(&Connector, r#"{"addr": "#).await;
    assert!(
        feedback(&result).starts_with("failed to parse tool arguments: EOF"),
        "{}",
        feedback(&result)
    );
}

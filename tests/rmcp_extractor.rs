//! `toolargs::rmcp` end to end: an rmcp client talks to the rmcp-macro server
//! of `examples/mcp_rmcp_tools.rs` over an in-memory pipe. The tools list
//! our closed schemas; calls are repaired, checked and rejected as tool
//! errors; arguments sent as JSON text are repaired; other malformed calls
//! are `-32602 Invalid params`.

#[allow(dead_code)]
#[path = "../examples/mcp_rmcp_tools.rs"]
mod mcp_rmcp_tools;

use mcp_rmcp_tools::{Refund, Search, Shop};
use rmcp::model::{
    CallToolRequestParams, ClientRequest, CustomRequest, ErrorCode, ErrorData, JsonObject,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::{ServiceExt, schemars::JsonSchema};
use serde_json::{Value, json};
use toolargs::ToolArgs;
use toolargs::rejection::{Rejection, SyntaxKind};
use toolargs::rmcp::{Parameters, read_tools_call, rejection, tool_error};

async fn connect() -> (RunningService<RoleClient, ()>, tokio::task::JoinHandle<()>) {
    let (client_io, server_io) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(async move {
        if let Ok(service) = Shop::new().serve(server_io).await {
            let _ = service.waiting().await;
        }
    });
    let client = ().serve(client_io).await.expect("the client initializes");
    (client, server)
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("test arguments must be an object, got {other}"),
    }
}

/// A call through the client's typed API, as JSON.
async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> Value {
    let result = client
        .call_tool(CallToolRequestParams::new(name).with_arguments(object(arguments)))
        .await
        .expect("a tool result, not a protocol error");
    serde_json::to_value(result).unwrap()
}

/// A `tools/call` with any params (the typed API only sends object
/// arguments), answered with a result or a protocol error.
async fn raw_call(
    client: &RunningService<RoleClient, ()>,
    params: Value,
) -> Result<Value, ErrorData> {
    let request = ClientRequest::CustomRequest(CustomRequest::new("tools/call", Some(params)));
    match client.send_request(request).await {
        Ok(result) => Ok(serde_json::to_value(result).unwrap()),
        Err(ServiceError::McpError(error)) => Err(error),
        Err(other) => panic!("transport failure: {other}"),
    }
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("a text content block in {result}"))
}

#[tokio::test]
async fn the_server_names_itself_and_lists_our_closed_schemas() {
    let (client, server) = connect().await;
    let info = client.peer_info().expect("the server's initialize result");
    let server_info = info.server_info.as_ref().expect("the server names itself");
    assert_eq!(server_info.name, "toolargs-rmcp-tools-example");
    assert_eq!(server_info.version, env!("CARGO_PKG_VERSION"));

    let tools = client.list_all_tools().await.unwrap();
    for (name, schema) in [
        ("search", Search::input_schema()),
        ("refund", Refund::input_schema()),
    ] {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        // Ours, as rmcp shows any input schema: without the Rust type's
        // title and description, with the dialect named.
        let mut expected = schema.as_object().unwrap().clone();
        expected.remove("title");
        expected.remove("description");
        expected.insert(
            "$schema".to_owned(),
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        assert_eq!(*tool.input_schema, expected, "{name}");
        assert_eq!(tool.input_schema["additionalProperties"], json!(false));
    }
    client.cancel().await.unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn calls_are_repaired_checked_and_rejected_as_tool_errors() {
    let (client, server) = connect().await;

    // RT-TOOL-8: an array sent as JSON text, a title escaped twice.
    let repaired = call(
        &client,
        "search",
        json!({"query": "Ember &amp;amp; Oak", "tags": "[\"oak\", \"tables\"]"}),
    )
    .await;
    assert_eq!(repaired["isError"], json!(false), "{repaired}");
    assert_eq!(
        repaired["structuredContent"],
        json!({"query": "Ember & Oak", "tags": ["oak", "tables"], "limit": 10})
    );

    // Every failing pointer, in the result the model reads.
    let invalid = call(
        &client,
        "refund",
        json!({"order_id": "ord_x", "amount_cents": "20", "force": true}),
    )
    .await;
    assert_eq!(invalid["isError"], json!(true), "{invalid}");
    let message = text(&invalid);
    // rmcp's router keeps its prefix on an extractor's rejection.
    assert!(
        message.starts_with(
            "failed to deserialize parameters: The arguments for `refund` do not match its schema."
        ),
        "{message}"
    );
    for line in [
        "- /order_id: expected a string matching the pattern",
        "- /amount_cents: expected integer, found string \"20\"",
        "- /reason: ",
        "- /force: unknown field `force`",
    ] {
        assert!(message.contains(line), "{line:?} in {message}");
    }

    // Nothing is coerced, not even where a repair ran: a limit out of range.
    let out_of_range = call(&client, "search", json!({"query": "oak", "limit": 0})).await;
    assert_eq!(out_of_range["isError"], json!(true));
    assert!(text(&out_of_range).contains("- /limit: "), "{out_of_range}");

    // The body's own failure is the body's tool error.
    let failed = call(
        &client,
        "refund",
        json!({"order_id": "ord_00000000", "amount_cents": 5, "reason": "late"}),
    )
    .await;
    assert_eq!(failed["isError"], json!(true));
    assert_eq!(text(&failed), "ord_00000000 was already refunded in full");

    client.cancel().await.unwrap();
    server.await.unwrap();
}

#[tokio::test]
async fn arguments_sent_as_json_text_are_repaired_and_malformed_calls_are_invalid_params() {
    let (client, server) = connect().await;

    // The whole arguments object as one string, itself holding a repair.
    let repaired = raw_call(
        &client,
        json!({"name": "refund", "arguments":
            "{\"order_id\": \"ord_8f2k1x9q\", \"amount_cents\": 1999, \"reason\": \"late\"}"}),
    )
    .await
    .expect("the call runs");
    assert_eq!(repaired["isError"], json!(false), "{repaired}");
    assert_eq!(
        repaired["structuredContent"],
        json!({"order_id": "ord_8f2k1x9q", "refunded_cents": 1999, "reason": "late"})
    );
    // Exactly the answer to the same call with an object.
    let sent_as_object = call(
        &client,
        "refund",
        json!({"order_id": "ord_8f2k1x9q", "amount_cents": 1999, "reason": "late"}),
    )
    .await;
    assert_eq!(repaired, sent_as_object);
    let nested = raw_call(
        &client,
        json!({"name": "search", "arguments": "{\"query\": \"a &amp;amp; b\", \"tags\": \"[\\\"x\\\"]\"}"}),
    )
    .await
    .expect("the call runs");
    assert_eq!(
        nested["structuredContent"],
        json!({"query": "a & b", "tags": ["x"], "limit": 10})
    );
    // Text holding an object is checked like any call: a tool error.
    let checked = raw_call(
        &client,
        json!({"name": "refund", "arguments": "{\"order_id\": 7}"}),
    )
    .await
    .expect("a tool result");
    assert_eq!(checked["isError"], json!(true));
    assert!(
        text(&checked).contains("- /order_id: expected string"),
        "{checked}"
    );

    for (params, pointer) in [
        (
            json!({"name": "search", "arguments": ["oak"]}),
            "/arguments",
        ),
        (json!({"name": "search", "arguments": 42}), "/arguments"),
        (json!({"name": "search", "arguments": true}), "/arguments"),
        (
            json!({"name": "search", "arguments": "[\"oak\"]"}),
            "/arguments",
        ),
        (
            json!({"name": "search", "arguments": "{\"query\": "}),
            "/arguments",
        ),
        (json!({"arguments": {"query": "oak"}}), "/name"),
        (json!({"name": 7, "arguments": {"query": "oak"}}), "/name"),
    ] {
        let error = raw_call(&client, params.clone())
            .await
            .expect_err("a protocol error");
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{params}: {error:?}");
        let data = error.data.as_ref().expect("the structured rejection");
        assert_eq!(data["rejection"], "syntax", "{params}");
        assert_eq!(data["pointer"], pointer, "{params}");
        assert!(
            error.message.contains(&format!("malformed at `{pointer}`")),
            "{params}: {}",
            error.message
        );
    }

    // Another method stays unknown.
    let other = client
        .send_request(ClientRequest::CustomRequest(CustomRequest::new(
            "tools/frobnicate",
            None,
        )))
        .await;
    match other {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
        }
        other => panic!("expected method not found, got {other:?}"),
    }

    client.cancel().await.unwrap();
    server.await.unwrap();
}

#[test]
fn the_extractor_shows_the_types_schema_to_rmcp() {
    let shown = rmcp::handler::server::common::schema_for_input::<Parameters<Search>>().unwrap();
    assert_eq!(shown["properties"], Search::input_schema()["properties"]);
    assert_eq!(shown["additionalProperties"], json!(false));
    assert_eq!(
        <Parameters<Search> as JsonSchema>::schema_name(),
        <Search as JsonSchema>::schema_name()
    );
}

#[test]
fn read_tools_call_keeps_the_text_for_the_repair() {
    let recovered = read_tools_call(Some(json!({
        "name": "search", "arguments": " {\"query\": \"oak\"} "})))
    .unwrap();
    assert_eq!(recovered.params.name, "search");
    assert_eq!(
        recovered.params.arguments,
        Some(object(json!({"query": "oak"})))
    );
    assert_eq!(
        recovered.arguments_text.as_deref(),
        Some(" {\"query\": \"oak\"} ")
    );

    let error = read_tools_call(None).unwrap_err();
    assert_eq!(error.kind, SyntaxKind::Shape);
    assert_eq!(error.pointer.as_deref(), Some(""));
    // A member rmcp reads besides the name and arguments.
    let error = read_tools_call(Some(
        json!({"name": "search", "arguments": "{}", "requestState": 3}),
    ))
    .unwrap_err();
    assert!(
        error.message.contains("do not fit a `tools/call` request"),
        "{error:?}"
    );
}

#[test]
fn rejections_become_tool_errors_with_the_structure() {
    let error =
        Refund::from_model(r#"{"order_id": "ord_12345678", "amount_cents": 0}"#).unwrap_err();
    let rejection = rejection("refund", error);
    let Rejection::InvalidArguments(invalid) = &rejection else {
        panic!("expected invalid arguments, got {rejection:?}")
    };
    let mut pointers: Vec<&str> = invalid
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    pointers.sort_unstable();
    assert_eq!(pointers, ["/amount_cents", "/reason"]);

    let result = serde_json::to_value(tool_error(&rejection)).unwrap();
    assert_eq!(result["isError"], json!(true));
    assert_eq!(text(&result), rejection.model_message());
    assert_eq!(
        result["structuredContent"]["rejection"],
        "invalid_arguments"
    );
    assert_eq!(result["structuredContent"]["tool"], "refund");

    let syntax = rejection_of_text("{\"order_id\": ");
    assert!(matches!(syntax, Rejection::Syntax(ref e) if e.kind == SyntaxKind::Arguments));
}

fn rejection_of_text(text: &str) -> Rejection {
    rejection("refund", Refund::from_model(text).unwrap_err())
}

/// A rule the schema cannot say (`format: ip` is an annotation): serde
/// refuses the value after validation passed.
#[derive(Debug, serde::Deserialize, JsonSchema, ToolArgs)]
struct Host {
    addr: std::net::IpAddr,
}

#[test]
fn a_value_the_type_refuses_is_reported_at_its_pointer() {
    let accepted = Host::from_model(r#"{"addr": "127.0.0.1"}"#).unwrap();
    assert!(accepted.value.addr.is_loopback());
    let error = Host::from_model(r#"{"addr": "not an address"}"#).unwrap_err();
    let rejection = rejection("connect", error);
    let Rejection::InvalidArguments(invalid) = &rejection else {
        panic!("expected invalid arguments, got {rejection:?}")
    };
    assert_eq!(invalid.violations.len(), 1);
    assert_eq!(invalid.violations[0].pointer, "/addr");
    assert_eq!(invalid.violations[0].keyword, "deserialize");
    assert!(
        rejection
            .model_message()
            .contains("- /addr: invalid IP address syntax"),
        "{}",
        rejection.model_message()
    );
}

#[test]
fn a_crossed_limit_is_reported_where_it_was_crossed() {
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let error = Refund::from_model(deep.as_str()).unwrap_err();
    let rejection = rejection("refund", error);
    let Rejection::InvalidArguments(invalid) = &rejection else {
        panic!("expected invalid arguments, got {rejection:?}")
    };
    assert_eq!(invalid.violations.len(), 1);
    assert_eq!(invalid.violations[0].keyword, "maxDepth");
    assert_eq!(
        invalid.violations[0].message,
        "expected at most 128 levels of nesting, found deeper nesting"
    );
}

//! The MCP server example, driven over an in-memory pipe with raw JSON-RPC:
//! `tools/list` carries the validating schemas, and every rejection comes
//! back as a tool error whose text is the model message.

#[allow(dead_code)]
#[path = "../examples/mcp_server.rs"]
mod mcp_server;

use rmcp::ServiceExt;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolargs::export::Provider;

#[tokio::test]
async fn the_server_lists_validating_schemas_and_returns_diagnostics_as_tool_errors() {
    let toolbox = Arc::new(mcp_server::toolbox().unwrap());
    let exported = toolbox.export(Provider::Mcp);
    let server = mcp_server::Server { toolbox };

    let (client, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    let running = tokio::spawn(async move {
        let service = server.serve((server_read, server_write)).await.unwrap();
        service.waiting().await.unwrap();
    });
    let (client_read, mut client_write) = tokio::io::split(client);
    let mut lines = BufReader::new(client_read).lines();
    let mut request = async |message: Value| -> Option<Value> {
        client_write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        // A notification gets no response.
        message.get("id")?;
        let line = lines.next_line().await.unwrap().expect("a response");
        Some(serde_json::from_str(&line).unwrap())
    };

    request(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}))
    .await
    .unwrap();
    request(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;

    let listed = request(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await
        .unwrap();
    assert_eq!(
        listed["result"]["tools"], exported["tools"],
        "tools/list is the toolbox's MCP export"
    );

    let invalid = request(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "refund", "arguments": {"order_id": "ord_x", "amount_cents": "20", "force": true}}}))
    .await
    .unwrap();
    let result = &invalid["result"];
    assert_eq!(result["isError"], json!(true));
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("- /amount_cents: expected integer, found string \"20\""),
        "{text}"
    );
    assert!(
        text.contains("- /order_id: expected a string matching the pattern"),
        "{text}"
    );
    assert!(text.contains("- /force: unknown field `force`"), "{text}");
    assert_eq!(
        result["structuredContent"]["rejection"],
        "invalid_arguments"
    );

    let unknown = request(
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "lookup", "arguments": {}}}),
    )
    .await
    .unwrap();
    assert_eq!(unknown["result"]["isError"], json!(true));
    assert_eq!(
        unknown["result"]["content"][0]["text"],
        "There is no tool named `lookup`. Did you mean `lookup_order`? Available tools: `refund`, `lookup_order`."
    );

    let done = request(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "refund", "arguments": {"order_id": "ord_8f2k1x9q", "amount_cents": 1999, "reason": "late"}}}))
    .await
    .unwrap();
    assert_eq!(done["result"]["isError"], json!(false));
    assert_eq!(
        done["result"]["structuredContent"],
        json!({"order_id": "ord_8f2k1x9q", "refunded_cents": 1999, "reason": "late"})
    );

    let failed = request(json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
        "name": "refund", "arguments": {"order_id": "ord_00000000", "amount_cents": 5, "reason": "late"}}}))
    .await
    .unwrap();
    assert_eq!(failed["result"]["isError"], json!(true));
    assert_eq!(failed["result"]["structuredContent"]["outcome"], "failed");

    running.abort();
}

/// One JSON-RPC client over an in-memory pipe to the example server.
struct Pipe {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Pipe {
    async fn start() -> Pipe {
        let server = mcp_server::Server {
            toolbox: Arc::new(mcp_server::toolbox().unwrap()),
        };
        let (client, server_end) = tokio::io::duplex(1 << 16);
        let server = tokio::spawn(async move {
            let service = server.serve(server_end).await.unwrap();
            service.waiting().await.unwrap();
        });
        let (read, write) = tokio::io::split(client);
        Pipe {
            write,
            lines: BufReader::new(read).lines(),
            server,
        }
    }

    async fn send(&mut self, message: Value) {
        self.write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }

    async fn request(&mut self, message: Value) -> Value {
        self.send(message).await;
        let line = self.lines.next_line().await.unwrap().expect("a response");
        serde_json::from_str(&line).unwrap()
    }

    async fn tools_call(&mut self, id: u32, params: Value) -> Value {
        self.request(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}))
            .await
    }
}

#[tokio::test]
async fn the_server_names_itself_repairs_arguments_sent_as_text_and_refuses_malformed_calls() {
    let mut pipe = Pipe::start().await;
    let initialized = pipe
        .request(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}))
        .await;
    assert_eq!(
        initialized["result"]["serverInfo"],
        json!({"name": "toolargs-mcp-example", "version": env!("CARGO_PKG_VERSION")})
    );
    pipe.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;

    // The arguments object as one JSON string: repaired, and the call runs.
    let repaired = pipe
        .tools_call(
            2,
            json!({"name": "refund", "arguments":
            "{\"order_id\": \"ord_8f2k1x9q\", \"amount_cents\": 1999, \"reason\": \"late\"}"}),
        )
        .await;
    assert_eq!(repaired["id"], 2);
    assert_eq!(repaired["result"]["isError"], json!(false), "{repaired}");
    assert_eq!(
        repaired["result"]["structuredContent"],
        json!({"order_id": "ord_8f2k1x9q", "refunded_cents": 1999, "reason": "late"})
    );
    // Exactly the answer to the same call with an object.
    let sent_as_object = pipe
        .tools_call(
            2,
            json!({"name": "refund", "arguments":
            {"order_id": "ord_8f2k1x9q", "amount_cents": 1999, "reason": "late"}}),
        )
        .await;
    assert_eq!(repaired, sent_as_object);
    // Repaired, then checked like any call.
    let checked = pipe
        .tools_call(
            3,
            json!({"name": "refund", "arguments": "{\"order_id\": \"ord_8f2k1x9q\"}"}),
        )
        .await;
    assert_eq!(checked["result"]["isError"], json!(true), "{checked}");
    assert_eq!(
        checked["result"]["structuredContent"]["rejection"],
        "invalid_arguments"
    );

    let mut id = 10;
    for (params, pointer) in [
        (
            json!({"name": "refund", "arguments": ["ord_8f2k1x9q", 5]}),
            "/arguments",
        ),
        (json!({"name": "refund", "arguments": 1999}), "/arguments"),
        (
            json!({"name": "refund", "arguments": "[1999]"}),
            "/arguments",
        ),
        (
            json!({"name": "refund", "arguments": "{\"order_id\": "}),
            "/arguments",
        ),
        (json!({"arguments": {"order_id": "ord_8f2k1x9q"}}), "/name"),
        (
            json!({"name": "refund", "arguments": "{}", "requestState": 7}),
            "",
        ),
    ] {
        id += 1;
        let answer = pipe.tools_call(id, params.clone()).await;
        assert_eq!(answer["id"], id, "{answer}");
        let error = &answer["error"];
        assert_eq!(error["code"], -32602, "{params}: {answer}");
        assert_eq!(error["data"]["rejection"], "syntax", "{params}");
        assert_eq!(error["data"]["pointer"], pointer, "{params}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("The tool call is malformed at `{pointer}`")),
            "{answer}"
        );
    }

    // Another unknown method is still unknown.
    let unknown = pipe
        .request(json!({"jsonrpc": "2.0", "id": 99, "method": "tools/frobnicate", "params": {}}))
        .await;
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");

    pipe.server.abort();
}

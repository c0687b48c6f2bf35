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

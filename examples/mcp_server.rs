//! A real MCP server (stdio, the official Rust SDK `rmcp`) whose tools take
//! `ToolArgs` types. `tools/list` is the toolbox's MCP export, so the schema
//! a client sees is the schema its calls are validated against; every
//! rejection (syntax, unknown tool, invalid arguments, denied) and the
//! tool's own failure comes back as a tool error (`isError: true`) whose
//! text is the model-facing message, with the structured rejection in
//! `structuredContent`.
//!
//! A `tools/call` that is not a call at all (its `arguments` an array, a
//! number or text that holds no JSON object; no `name`) is answered
//! `-32602 Invalid params`, as the MCP specification does. Arguments sent as
//! one JSON string holding the object are what RT-TOOL-8 repairs: that call
//! runs. (rmcp cannot read either kind and hands them to `on_custom_request`,
//! whose default would answer `-32601 Method not found`.)
//!
//! ```text
//! cargo run --example mcp_server
//! ```
//!
//! then speak MCP on standard input, or point an MCP client at that
//! command.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ServerCapabilities, ServerConfig, ServerResult, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::Arc;
use toolargs::ToolArgs;
use toolargs::call::{Arguments, ToolCall, WireFormat};
use toolargs::export::Provider;
use toolargs::rejection::{Rejection, SyntaxError, SyntaxKind};
use toolargs::toolbox::Toolbox;

/// Refund part or all of an order.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Refund {
    /// The order to refund: `ord_` followed by eight lowercase letters or digits.
    #[schemars(regex(pattern = r"^ord_[a-z0-9]{8}$"))]
    order_id: String,
    /// Amount to refund, in cents (1 to 50000).
    #[schemars(range(min = 1, max = 50000))]
    amount_cents: u32,
    /// Why the customer is refunded.
    reason: Reason,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Damaged,
    Late,
    NotReceived,
}

/// Look up an order's status.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct LookupOrder {
    /// The order to look up.
    order_id: String,
}

#[derive(Serialize)]
struct Receipt {
    order_id: String,
    refunded_cents: u32,
    reason: Reason,
}

#[derive(Clone)]
pub(crate) struct Server {
    pub(crate) toolbox: Arc<Toolbox>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            // Its own name, not the SDK's.
            .with_server_info(Implementation::new(
                "toolargs-mcp-example",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Refunds and order lookups. Tool errors say exactly which argument to fix.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let mut exported = self.toolbox.export(Provider::Mcp);
        let tools: Vec<Tool> = serde_json::from_value(exported["tools"].take())
            .map_err(|e| McpError::internal_error(format!("tool export: {e}"), None))?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let call = ToolCall {
            id: None,
            name: request.name.into_owned(),
            arguments: Arguments::Value(Value::Object(request.arguments.unwrap_or_default())),
            format: WireFormat::McpToolsCall,
        };
        Ok(self.run(call).await.into())
    }

    /// rmcp files a `tools/call` whose params it cannot read as a custom
    /// request: run the one RT-TOOL-8 repairs, refuse the others.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        if request.method != "tools/call" {
            return Err(McpError::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        let call = unreadable_call(request.params).map_err(|error| {
            McpError::invalid_params(
                error.model_message(),
                serde_json::to_value(Rejection::Syntax(error)).ok(),
            )
        })?;
        // rmcp shapes the results it answers itself for the negotiated
        // protocol version; a custom result is sent as it is, so shape it here.
        let mut result = ServerResult::CallToolResult(self.run(call).await);
        if context
            .protocol_version()
            .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
        {
            result.fill_missing_cache_hints();
        } else {
            result.strip_result_type_for_legacy_peer();
            result.strip_non_object_output_for_legacy_peer();
        }
        serde_json::to_value(result)
            .map(CustomResult)
            .map_err(|e| McpError::internal_error(format!("tool result: {e}"), None))
    }
}

impl Server {
    /// The toolbox's pipeline for one call, as an MCP tool result.
    async fn run(&self, call: ToolCall) -> CallToolResult {
        match self.toolbox.call(&(), call).await {
            Ok(done) => match done.output {
                output @ Value::Object(_) => CallToolResult::structured(output),
                output => CallToolResult::success(vec![ContentBlock::text(output.to_string())]),
            },
            // The model reads the text; programs can read the structure.
            Err(error) => {
                let mut result =
                    CallToolResult::error(vec![ContentBlock::text(error.model_message())]);
                result.structured_content = serde_json::to_value(&error).ok();
                result
            }
        }
    }
}

/// A `tools/call` rmcp could not read: a call only when its `arguments` are
/// one JSON string holding an object (the toolbox decodes it, by the root
/// rule of RT-TOOL-8, and reports the repair) and nothing else is wrong.
fn unreadable_call(params: Option<Value>) -> Result<ToolCall, SyntaxError> {
    let shape = |pointer: &str, message: &str| SyntaxError {
        kind: SyntaxKind::Shape,
        line: None,
        column: None,
        pointer: Some(pointer.to_owned()),
        message: message.to_owned(),
    };
    // What rmcp could not read, in serde's words.
    let unfit = |params: Map<String, Value>| {
        let why = serde_json::from_value::<CallToolRequestParams>(Value::Object(params))
            .err()
            .map_or_else(String::new, |e| e.to_string());
        shape("", &format!("the params are not a tools/call ({why})"))
    };
    let Some(Value::Object(mut params)) = params else {
        return Err(shape("", "expected the params to be an object"));
    };
    let Some(Value::String(name)) = params.get("name").cloned() else {
        return Err(shape(
            "/name",
            "expected `name`, the tool's name, as a string",
        ));
    };
    let not_an_object = |found: &str| {
        shape(
            "/arguments",
            &format!("expected `arguments` to be an object, found {found}"),
        )
    };
    let text = match params.get("arguments") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(_)) => return Err(not_an_object("an array")),
        Some(Value::Number(_)) => return Err(not_an_object("a number")),
        Some(Value::Bool(_)) => return Err(not_an_object("a boolean")),
        // An object, null or nothing: rmcp failed on another member.
        _ => return Err(unfit(params)),
    };
    // Decoded as the normalizer decodes it; the toolbox gets the text.
    match toolargs::json::read(&text, toolargs::normalizer::DEFAULT_MAX_DEPTH) {
        Ok(object @ Value::Object(_)) => params.insert("arguments".to_owned(), object),
        _ => return Err(not_an_object("a string that holds no JSON object")),
    };
    // Every other member must read as rmcp reads it.
    if serde_json::from_value::<CallToolRequestParams>(Value::Object(params.clone())).is_err() {
        return Err(unfit(params));
    }
    Ok(ToolCall {
        id: None,
        name,
        arguments: Arguments::Value(Value::String(text)),
        format: WireFormat::McpToolsCall,
    })
}

pub(crate) fn toolbox() -> Result<Toolbox, toolargs::toolbox::RegisterError> {
    let mut toolbox = Toolbox::new();
    toolbox
        .tool(
            "refund",
            "Refund part or all of an order.",
            |refund: Refund| async move {
                if refund.order_id == "ord_00000000" {
                    return Err(format!("{} was already refunded in full", refund.order_id));
                }
                Ok(Receipt {
                    order_id: refund.order_id,
                    refunded_cents: refund.amount_cents,
                    reason: refund.reason,
                })
            },
        )?
        .tool(
            "lookup_order",
            "Look up an order's status.",
            |lookup: LookupOrder| async move {
                Ok::<_, String>(
                    serde_json::json!({"order_id": lookup.order_id, "status": "shipped"}),
                )
            },
        )?;
    Ok(toolbox)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let toolbox = toolbox()?;
    // What clients are shown is what calls are checked against.
    toolbox.check_drift()?;
    let server = Server {
        toolbox: Arc::new(toolbox),
    };
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}

//! A real MCP server (stdio, the official Rust SDK `rmcp`) whose tools take
//! `ToolArgs` types. `tools/list` is the toolbox's MCP export, so the schema
//! a client sees is the schema its calls are validated against; every
//! rejection (syntax, unknown tool, invalid arguments, denied) and the
//! tool's own failure comes back as a tool error (`isError: true`) whose
//! text is the model-facing message, with the structured rejection in
//! `structuredContent`.
//!
//! ```text
//! cargo run --example mcp_server
//! ```
//!
//! then speak MCP on standard input, or point an MCP client at that
//! command.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use toolargs::ToolArgs;
use toolargs::call::{Arguments, ToolCall, WireFormat};
use toolargs::export::Provider;
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
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_instructions(
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
        let result = match self.toolbox.call(&(), call).await {
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
        };
        Ok(result.into())
    }
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

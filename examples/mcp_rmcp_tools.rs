//! An MCP server written the way rmcp's own examples write one, with its
//! macros (`#[tool_router]`, `#[tool]`, `#[tool_handler]`), where each tool
//! takes `toolargs::rmcp::Parameters<T>` instead of rmcp's `Parameters<T>`:
//!
//! - `tools/list` shows each tool's closed schema (`T::input_schema()`);
//! - a call is repaired by that schema (RT-TOOL-8: `"tags": "[\"oak\"]"`,
//!   `Ember &amp;amp; Oak`), checked against it and deserialized;
//! - a rejected call comes back as a tool error (`isError: true`) naming every
//!   failing JSON pointer, so the model can fix it;
//! - arguments sent as one JSON string holding the object are repaired, and
//!   any other malformed `tools/call` is answered `-32602 Invalid params`
//!   (`toolargs::rmcp::recover_tools_call`).
//!
//! ```text
//! cargo run --features rmcp --example mcp_rmcp_tools
//! ```
//!
//! then speak MCP on standard input, or point an MCP client at that command.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Json;
use rmcp::model::{CustomRequest, CustomResult, Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolargs::ToolArgs;
use toolargs::rmcp::Parameters;

/// Search the catalogue.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
pub(crate) struct Search {
    /// Free-text query.
    query: String,
    /// Only items carrying all of these tags.
    #[serde(default)]
    tags: Vec<String>,
    /// At most this many items (1 to 50).
    #[schemars(range(min = 1, max = 50))]
    limit: Option<u32>,
}

/// Refund part or all of an order.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
pub(crate) struct Refund {
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

/// What a search found (here: what it was asked, as the catalogue read it).
#[derive(Serialize, JsonSchema)]
pub(crate) struct Found {
    query: String,
    tags: Vec<String>,
    limit: u32,
}

#[derive(Serialize, JsonSchema)]
pub(crate) struct Receipt {
    order_id: String,
    refunded_cents: u32,
    reason: Reason,
}

#[derive(Clone)]
pub(crate) struct Shop {
    tool_router: ToolRouter<Self>,
}

impl Shop {
    pub(crate) fn new() -> Self {
        Shop {
            tool_router: Self::tool_router(),
        }
    }
}

#[tool_router]
impl Shop {
    /// Search the catalogue by text and tags.
    #[tool]
    async fn search(&self, Parameters(search): Parameters<Search>) -> Json<Found> {
        Json(Found {
            query: search.query,
            tags: search.tags,
            limit: search.limit.unwrap_or(10),
        })
    }

    /// Refund part or all of an order.
    #[tool]
    async fn refund(
        &self,
        Parameters(refund): Parameters<Refund>,
    ) -> Result<Json<Receipt>, String> {
        if refund.order_id == "ord_00000000" {
            return Err(format!("{} was already refunded in full", refund.order_id));
        }
        Ok(Json(Receipt {
            order_id: refund.order_id,
            refunded_cents: refund.amount_cents,
            reason: refund.reason,
        }))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Shop {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "toolargs-rmcp-tools-example",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Catalogue search and refunds. Tool errors say exactly which argument to fix.",
            )
    }

    /// rmcp files a `tools/call` it cannot read (arguments sent as JSON
    /// text, no `name`) as a custom request: repair what RT-TOOL-8 repairs,
    /// answer the rest `-32602 Invalid params`.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        toolargs::rmcp::recover_tools_call(self, request, context).await
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = Shop::new().serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}

//! Checked tool arguments for servers built with rmcp, the official Rust MCP
//! SDK (feature `rmcp`).
//!
//! # One line: [`Parameters`]
//!
//! rmcp's `#[tool]` macro shows a tool's input schema from the first
//! parameter whose type is named `Parameters`, and builds that parameter
//! through rmcp's extractor trait (`FromContextPart`). This module's
//! [`Parameters<T>`] is such a type for a [`ToolArgs`] type `T`: swap the
//! import and the tool is shown `T`'s closed schema ([`ToolArgs::input_schema`])
//! and its calls go through [`ToolArgs::from_model`] (RT-TOOL-8 repairs,
//! then validation against that same schema, then serde).
//!
//! ```ignore
//! use toolargs::rmcp::Parameters; // instead of rmcp::handler::server::wrapper::Parameters
//!
//! #[tool_router(server_handler)]
//! impl Shop {
//!     /// Search the catalogue.
//!     #[tool]
//!     async fn search(&self, Parameters(args): Parameters<SearchArgs>) -> String { ... }
//! }
//! ```
//!
//! (The complete server is `examples/mcp_rmcp_tools.rs`.)
//!
//! # A rejection is a tool error, not a protocol error
//!
//! MCP asks servers to report a tool's input errors inside the result
//! (`isError: true`) so the model can read them and correct the call, and to
//! keep protocol errors for malformed requests. rmcp's extractor trait can
//! only fail with a protocol error (`ErrorData`); its tool router, however,
//! turns an `Invalid params` error whose message starts with
//! `failed to deserialize parameters:` into a tool error carrying that
//! message (rmcp does this for its own `Parameters`). [`Parameters`] fails
//! that way, with the model message after the prefix: every failing JSON
//! pointer, what was expected and what was found. So through the router
//! (what `#[tool_router]` builds) a rejected call comes back as
//!
//! ```text
//! {"isError": true, "content": [{"type": "text", "text": "failed to deserialize parameters: The arguments for `refund` do not match its schema. Fix these fields and call it again:\n- /amount_cents: ..."}]}
//! ```
//!
//! The router keeps only the message; the structured rejection (a
//! serialized [`Rejection`]) rides in the error's `data`, which a server
//! that calls the extractor itself can read, and which [`tool_error`] puts in
//! `structuredContent` for servers that build results by hand.
//!
//! # Arguments sent as JSON text: [`recover_tools_call`]
//!
//! Models sometimes send a call's whole `arguments` object as one JSON
//! string. rmcp cannot read such a `tools/call` as a tool call: it hands it
//! to `ServerHandler::on_custom_request`, whose default answers
//! `-32601 Method not found`. RT-TOOL-8 repairs exactly this (the root of
//! every tool's schema is an object), so [`recover_tools_call`] reads the
//! request again, runs the call through the server's own `call_tool` with the
//! text kept for [`Parameters`] to repair (and report) by the schema, and
//! answers every other malformed `tools/call` (arguments that are an array, a
//! number, text that is not a JSON object; no `name`) with
//! `-32602 Invalid params`, as the MCP specification does. Route a server's
//! custom requests to it:
//!
//! ```ignore
//! #[tool_handler]
//! impl ServerHandler for Shop {
//!     async fn on_custom_request(
//!         &self,
//!         request: CustomRequest,
//!         context: RequestContext<RoleServer>,
//!     ) -> Result<CustomResult, ErrorData> {
//!         toolargs::rmcp::recover_tools_call(self, request, context).await
//!     }
//! }
//! ```
//!
//! # What is not covered
//!
//! The extractor yields the typed value only: what RT-TOOL-8 repaired (the
//! [`crate::report::Report`] of [`ToolArgs::from_model`]) is not passed to the body.
//! A body that needs it takes rmcp's `JsonObject` extractor and calls
//! [`ToolArgs::from_model`] itself, with [`rejection`] and [`tool_error`] for
//! the failure.
//!
//! MCP requires a tool's input schema to be an object schema at its root
//! (`"type": "object"`), and rmcp's macro panics when the router is built if
//! it is not, as it does for its own `Parameters`: a struct is; an enum whose
//! schema is a `oneOf` is not, and needs a struct around it.
//!
//! Without [`recover_tools_call`] in `on_custom_request`, arguments sent as
//! JSON text never reach the extractor (rmcp answers `-32601`).

use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, ProtocolVersion, ServerResult,
};
use ::rmcp::schemars::{JsonSchema, Schema, SchemaGenerator};
use ::rmcp::service::RequestContext;
use ::rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use std::borrow::Cow;
use toolargs_core::rejection::{InvalidArguments, Rejection, SyntaxError, SyntaxKind};
use toolargs_core::{
    ArgsError, ToolArgs, normalizer::DEFAULT_MAX_DEPTH, validate::Violation, validate::Violations,
};

/// The prefix rmcp's tool router looks for to answer an extractor's failure
/// with a tool error (`isError: true`) instead of a protocol error.
const ROUTER_TOOL_ERROR_PREFIX: &str = "failed to deserialize parameters:";

/// A tool's arguments, repaired and checked: the `Parameters` of rmcp's
/// `#[tool]` functions, for a [`ToolArgs`] type.
///
/// Named `Parameters` because that is how rmcp's `#[tool]` macro finds the
/// parameter whose schema is the tool's input schema. See the [module
/// docs](self) for what it shows, checks and answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameters<T>(pub T);

/// The schema rmcp shows as the tool's `inputSchema`: `T`'s own
/// ([`ToolArgs::input_schema`], closed all the way down), so what a client
/// is shown is what its calls are checked against. (rmcp strips the root's
/// `title` and `description`, which describe the Rust type, not the tool.)
///
/// The schema is a root schema with its own `$defs`: it is meant to be the
/// input schema, not a member of another type's schema.
impl<T: ToolArgs> JsonSchema for Parameters<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        Cow::Owned(format!("toolargs::rmcp::Parameters<{}>", T::schema_id()))
    }

    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        // `input_schema` is always a JSON object (schemars writes one for
        // every type); were it not, `true` would show nothing wrong and the
        // calls would still be checked against `T`'s schema.
        Schema::try_from(T::input_schema().clone()).unwrap_or_default()
    }
}

/// Carries the text of arguments sent as one JSON string from
/// [`recover_tools_call`] to [`Parameters`], in the request's extensions,
/// so RT-TOOL-8 repairs (and reports) the text itself.
#[derive(Clone)]
struct ArgumentsText(String);

impl<S, T: ToolArgs> FromContextPart<ToolCallContext<'_, S>> for Parameters<T> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let arguments = context.arguments.take();
        let raw = match context.request_context.extensions.remove::<ArgumentsText>() {
            Some(ArgumentsText(text)) => Value::String(text),
            // No arguments is an empty object, as rmcp's own extractor reads it.
            None => Value::Object(arguments.unwrap_or_default()),
        };
        match T::from_model(raw) {
            Ok(parsed) => Ok(Parameters(parsed.value)),
            Err(error) => Err(router_tool_error(&rejection(context.name(), error))),
        }
    }
}

/// The failure of [`Parameters`]: `Invalid params` with the prefix rmcp's
/// router turns into a tool error, the model message, and the structured
/// rejection as `data`.
fn router_tool_error(rejection: &Rejection) -> ErrorData {
    ErrorData::invalid_params(
        format!("{ROUTER_TOOL_ERROR_PREFIX} {}", rejection.model_message()),
        serde_json::to_value(rejection).ok(),
    )
}

/// The rejection of a call to `tool` whose arguments [`ToolArgs::from_model`]
/// refused, as the toolbox reports it: a syntax error for arguments text that
/// is not JSON, otherwise invalid arguments with one violation per failing
/// pointer (a value the type refused and a crossed limit included, at their
/// pointers).
pub fn rejection(tool: &str, error: ArgsError) -> Rejection {
    let violations = match error {
        ArgsError::Invalid(violations) => violations,
        ArgsError::Deserialize { pointer, message } => {
            Violations(vec![Violation::refused_by_type(pointer, message)])
        }
        ArgsError::Limit(error) => Violations(vec![error.to_violation()]),
        ArgsError::Syntax(error) => return Rejection::Syntax(error),
        // A phase added later: reported at the root, in its own words.
        other => Violations(vec![Violation {
            pointer: String::new(),
            keyword: "arguments".to_owned(),
            expected: "arguments the tool accepts".to_owned(),
            found: other.to_string(),
            message: other.to_string(),
        }]),
    };
    Rejection::InvalidArguments(InvalidArguments::new(tool, violations))
}

/// A tool error (`isError: true`) for a rejected call: the model message as
/// text, the structured rejection as `structuredContent`. For servers that
/// build their results by hand (the router answers [`Parameters`]'
/// rejections itself, with the text only).
pub fn tool_error(rejection: &Rejection) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(rejection.model_message())]);
    result.structured_content = serde_json::to_value(rejection).ok();
    result
}

/// A `tools/call` rmcp could not read, read again: its params, with the
/// arguments a client sent as JSON text decoded into the object they hold.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RecoveredCall {
    /// The call, as rmcp would have read it had the arguments been an object.
    pub params: CallToolRequestParams,
    /// The arguments as sent, when they were JSON text: hand them to
    /// [`ToolArgs::from_model`] (or a toolbox) so the repair is made by the
    /// tool's schema and reported.
    pub arguments_text: Option<String>,
}

/// Reads the params of a `tools/call` request that rmcp filed as a custom
/// request (its own reading failed).
///
/// Arguments sent as one JSON string holding a JSON object (strict JSON,
/// nesting within [`DEFAULT_MAX_DEPTH`]) are what RT-TOOL-8 repairs at the
/// root of a tool's schema: the call is recovered. Anything else is a
/// malformed call.
///
/// # Errors
///
/// A [`SyntaxError`] of kind [`SyntaxKind::Shape`], with the pointer of the
/// offending member when there is one: params that are not an object, a
/// missing or non-string `name`, arguments that are neither an object nor
/// JSON text holding one, or params rmcp cannot read for another reason.
pub fn read_tools_call(params: Option<Value>) -> Result<RecoveredCall, SyntaxError> {
    let mut params = match params {
        Some(Value::Object(params)) => params,
        other => {
            return Err(shape(
                "",
                format!(
                    "expected the params to be an object, found {}",
                    other.as_ref().map_or("nothing", json_kind)
                ),
            ));
        }
    };
    match params.get("name") {
        Some(Value::String(_)) => {}
        other => {
            return Err(shape(
                "/name",
                format!(
                    "expected `name` to be a string, found {}",
                    other.map_or("nothing", json_kind)
                ),
            ));
        }
    }
    let mut arguments_text = None;
    match params.get("arguments") {
        Some(Value::String(text)) => {
            let text = text.clone();
            match toolargs_core::json::read(&text, DEFAULT_MAX_DEPTH) {
                Ok(object @ Value::Object(_)) => {
                    params.insert("arguments".to_owned(), object);
                    arguments_text = Some(text);
                }
                Ok(other) => {
                    return Err(shape(
                        "/arguments",
                        format!(
                            "expected `arguments` to be an object, found JSON text holding {}",
                            json_kind(&other)
                        ),
                    ));
                }
                Err(error) => {
                    return Err(shape(
                        "/arguments",
                        format!(
                            "expected `arguments` to be an object, found a string that does not hold one ({error})"
                        ),
                    ));
                }
            }
        }
        Some(other @ (Value::Array(_) | Value::Number(_) | Value::Bool(_))) => {
            return Err(shape(
                "/arguments",
                format!(
                    "expected `arguments` to be an object, found {}",
                    json_kind(other)
                ),
            ));
        }
        // An object, null or nothing: rmcp failed on another member, which
        // reading the params below names.
        _ => {}
    }
    let params: CallToolRequestParams =
        serde_json::from_value(Value::Object(params)).map_err(|error| {
            shape(
                "",
                format!("the params do not fit a `tools/call` request: {error}"),
            )
        })?;
    Ok(RecoveredCall {
        params,
        arguments_text,
    })
}

/// `-32602 Invalid params` for a malformed `tools/call`: the model message,
/// and the structured rejection as `data`.
pub fn invalid_params(error: SyntaxError) -> ErrorData {
    let message = error.model_message();
    ErrorData::invalid_params(message, serde_json::to_value(Rejection::Syntax(error)).ok())
}

/// Answers a custom request as rmcp's default does, except a `tools/call`
/// rmcp could not read: arguments sent as JSON text holding an object are
/// repaired (the call runs through `server`'s own `call_tool`, and
/// [`Parameters`] repairs the text by the tool's schema); any other malformed
/// call is answered `-32602 Invalid params` ([`read_tools_call`]).
///
/// # Errors
///
/// `-32601 Method not found` for another method (rmcp's default),
/// `-32602 Invalid params` for a malformed call, and whatever `call_tool`
/// answers.
pub async fn recover_tools_call<S: ServerHandler>(
    server: &S,
    request: CustomRequest,
    mut context: RequestContext<RoleServer>,
) -> Result<CustomResult, ErrorData> {
    if request.method != "tools/call" {
        return Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            request.method,
            None,
        ));
    }
    let recovered = read_tools_call(request.params).map_err(invalid_params)?;
    if let Some(text) = recovered.arguments_text {
        context.extensions.insert(ArgumentsText(text));
    }
    // Answered as rmcp answers a `tools/call` it read: no task for a client
    // that did not declare the tasks extension, and the result in the shape
    // of the negotiated protocol version (rmcp leaves custom results as
    // they are).
    let client_declared_tasks = context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks());
    let current_protocol = context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    let response = server.call_tool(recovered.params, context).await?;
    let mut result = ServerResult::from(response);
    if matches!(result, ServerResult::CreateTaskResult(_)) && !client_declared_tasks {
        return Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        ));
    }
    if current_protocol {
        result.fill_missing_cache_hints();
    } else if matches!(result, ServerResult::InputRequiredResult(_)) {
        return Err(ErrorData::invalid_request(
            "InputRequiredResult requires negotiated protocol version 2026-07-28 or newer",
            None,
        ));
    } else {
        result.strip_result_type_for_legacy_peer();
        result.strip_non_object_output_for_legacy_peer();
    }
    serde_json::to_value(result)
        .map(CustomResult)
        .map_err(|error| ErrorData::internal_error(format!("tool result: {error}"), None))
}

fn shape(pointer: &str, message: String) -> SyntaxError {
    SyntaxError {
        kind: SyntaxKind::Shape,
        line: None,
        column: None,
        pointer: Some(pointer.to_owned()),
        message,
    }
}

fn json_kind(value: &Value) -> &'static str {
    toolargs_core::plan::JsonType::of(value).with_article()
}

//! Tool definitions for every provider, and the drift check: the schema
//! each provider is shown is the schema calls are validated against.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolargs::ToolArgs;
use toolargs::export::{self, Dialect, Provider, drift};
use toolargs::toolbox::Toolbox;

/// Refund part or all of an order.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct Refund {
    #[schemars(regex(pattern = r"^ord_[a-z0-9]{8}$"))]
    order_id: String,
    #[schemars(range(min = 1, max = 50000))]
    amount_cents: u32,
    #[serde(default)]
    note: Option<String>,
}

fn toolbox(dialect: Dialect) -> Toolbox {
    let mut toolbox = Toolbox::with_dialect(dialect);
    toolbox
        .tool_sync("refund", "Refund an order.", |_: Refund| Ok::<_, String>("ok"))
        .unwrap()
        .dynamic_tool_sync(
            "search",
            "Search the catalogue.",
            json!({
                "type": "object",
                "properties": {"query": {"type": "string", "minLength": 1}, "limit": {"type": "integer"}},
                "required": ["query"],
                "additionalProperties": false
            }),
            |args: Value| Ok::<_, String>(args),
        )
        .unwrap();
    toolbox
}

#[test]
fn drift_check_passes_for_every_provider_in_both_dialects() {
    for dialect in [Dialect::Canonical, Dialect::OpenAiStrict] {
        let toolbox = toolbox(dialect);
        toolbox
            .check_drift()
            .unwrap_or_else(|d| panic!("{dialect:?}: {d}"));
        for provider in Provider::ALL {
            let exported = toolbox.export(provider);
            let list = export::definition_list(provider, &exported).unwrap();
            assert_eq!(list.len(), 2, "{provider:?}");
            for definition in list {
                let name = export::name_of(provider, definition).unwrap();
                assert_eq!(
                    export::schema_of(provider, definition),
                    toolbox.schema(name),
                    "{provider:?} {name}"
                );
            }
        }
    }
}

#[test]
fn drift_check_catches_a_changed_or_missing_schema() {
    let toolbox = toolbox(Dialect::Canonical);
    for provider in Provider::ALL {
        let validating: Vec<(&str, &Value)> = toolbox
            .names()
            .map(|n| (n, toolbox.schema(n).unwrap()))
            .collect();
        let mut exported = toolbox.export(provider);
        drift::check(provider, &exported, validating.iter().copied()).unwrap();

        // Loosen one exported schema: the model would be shown something
        // other than what calls are checked against.
        let list = match provider {
            Provider::Mcp => exported["tools"].as_array_mut(),
            Provider::Gemini => exported["functionDeclarations"].as_array_mut(),
            _ => exported.as_array_mut(),
        }
        .unwrap();
        let schema_key = match provider {
            Provider::OpenAiChat => "/function/parameters",
            Provider::OpenAiResponses => "/parameters",
            Provider::Anthropic => "/input_schema",
            Provider::Mcp => "/inputSchema",
            Provider::Gemini => "/parametersJsonSchema",
        };
        list[0].pointer_mut(schema_key).unwrap()["additionalProperties"] = json!(true);
        let error = drift::check(provider, &exported, validating.iter().copied()).unwrap_err();
        assert_eq!(error.tool, "refund");
        assert_eq!(error.provider, Some(provider));

        let mut missing = toolbox.export(provider);
        match provider {
            Provider::Mcp => missing["tools"].as_array_mut(),
            Provider::Gemini => missing["functionDeclarations"].as_array_mut(),
            _ => missing.as_array_mut(),
        }
        .unwrap()
        .pop();
        let error = drift::check(provider, &missing, validating.iter().copied()).unwrap_err();
        assert_eq!(error.tool, "search");
        assert_eq!(error.detail, "exported 0 times");
    }
}

#[test]
fn provider_shapes() {
    let toolbox = toolbox(Dialect::Canonical);
    let refund_schema = toolbox.schema("refund").unwrap().clone();
    assert_eq!(&refund_schema, <Refund as ToolArgs>::input_schema());

    let chat = toolbox.export(Provider::OpenAiChat);
    assert_eq!(
        chat[0],
        json!({"type": "function", "function": {
            "name": "refund", "description": "Refund an order.", "parameters": refund_schema, "strict": false
        }})
    );
    let responses = toolbox.export(Provider::OpenAiResponses);
    assert_eq!(
        responses[0],
        json!({"type": "function", "name": "refund", "description": "Refund an order.", "parameters": refund_schema, "strict": false})
    );
    let anthropic = toolbox.export(Provider::Anthropic);
    assert_eq!(
        anthropic[0],
        json!({"name": "refund", "description": "Refund an order.", "input_schema": refund_schema})
    );
    let mcp = toolbox.export(Provider::Mcp);
    assert_eq!(
        mcp["tools"][0],
        json!({"name": "refund", "description": "Refund an order.", "inputSchema": refund_schema})
    );
    let gemini = toolbox.export(Provider::Gemini);
    assert_eq!(
        gemini["functionDeclarations"][0],
        json!({"name": "refund", "description": "Refund an order.", "parametersJsonSchema": refund_schema})
    );
}

#[test]
fn strict_dialect_marks_openai_definitions_strict_and_lists_removed_keywords() {
    let toolbox = toolbox(Dialect::OpenAiStrict);
    let chat = toolbox.export(Provider::OpenAiChat);
    assert_eq!(chat[1]["function"]["strict"], json!(true));
    let search = &chat[1]["function"]["parameters"];
    assert_eq!(search["required"], json!(["query", "limit"]));
    assert_eq!(
        search["properties"]["limit"]["type"],
        json!(["integer", "null"])
    );
    assert!(search["properties"]["query"].get("minLength").is_none());
    let removed: Vec<String> = toolbox
        .strict_changes("search")
        .unwrap()
        .iter()
        .map(|c| serde_json::to_string(c).unwrap())
        .collect();
    assert!(
        removed.contains(
            &r#"{"pointer":"/properties/query","change":"removed","keyword":"minLength"}"#
                .to_owned()
        ),
        "{removed:?}"
    );
    let responses = toolbox.export(Provider::OpenAiResponses);
    assert_eq!(responses[0]["strict"], json!(true));
    // Other providers are shown the same (strict) schema calls are checked
    // against.
    let mcp = toolbox.export(Provider::Mcp);
    assert_eq!(
        &mcp["tools"][1]["inputSchema"],
        toolbox.schema("search").unwrap()
    );
}

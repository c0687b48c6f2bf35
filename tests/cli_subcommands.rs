//! Every `toolargs` subcommand run as a process: `--help`, exit statuses,
//! `normalize` on the RT-TOOL-8 cases, `check` verdicts against a schema and
//! against tools files of every provider, `grammar` and its report, `export`.

mod cli_support;
mod support;

use cli_support::{REFUND, scratch, toolargs, write};
use serde_json::{Value, json};

#[test]
fn every_subcommand_has_help_with_the_exit_statuses() {
    for sub in ["normalize", "check", "grammar", "export"] {
        let out = toolargs(&[sub, "--help"], b"");
        assert_eq!(out.code, 0, "{sub}: {}", out.stderr);
        assert!(out.text().contains("Exit status:"), "{sub}");
        assert!(out.text().contains("2  usage error"), "{sub}");
    }
    assert_eq!(toolargs(&["--help"], b"").code, 0);
}

#[test]
fn usage_and_schema_errors_exit_2() {
    let dir = scratch("usage");
    let bad_ref = write(&dir, "bad.json", r##"{"$ref": "other.json#/x"}"##);
    let not_json = write(&dir, "not.json", "{");
    let schema = write(&dir, "refund.json", REFUND);
    for args in [
        vec![],
        vec!["normalize"],
        vec!["normalize", "--cases", "--schema", &schema],
        vec!["normalize", "--cases", "--entities", "html"],
        vec!["normalize", "--cases", "--jobs", "5000"],
        vec!["normalize", "--schema", "/nonexistent/schema.json"],
        vec!["normalize", "--schema", &not_json],
        vec!["normalize", "--schema", &bad_ref],
        vec!["check", "--schema", &bad_ref],
        vec!["check", "--tools", &not_json],
        vec!["check", "--tools", &schema],
        vec!["grammar", "--schema", &not_json],
        vec!["export", "--schema", &schema, "--name", "not a name"],
        vec!["export", "--schema", &schema, "--provider", "cohere"],
    ] {
        let out = toolargs(&args, b"");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(!out.stderr.is_empty(), "{args:?} says why");
    }
}

#[test]
fn normalize_repairs_every_rt_tool_8_case() {
    let text = support::rt_tool_8_text();
    let out = toolargs(&["normalize", "--cases", "-"], text.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let outputs = out.json_lines();
    assert_eq!(outputs.len(), text.lines().count());
    for (input, got) in text.lines().zip(&outputs) {
        let case: Value = serde_json::from_str(input).unwrap();
        assert_eq!(got["id"], case["id"]);
        assert_eq!(got["arguments"], case["expected"], "case {}", case["id"]);
    }
}

#[test]
fn check_against_a_schema_gives_every_repair_and_every_violation() {
    let dir = scratch("check-schema");
    let schema = write(&dir, "refund.json", REFUND);
    let input = concat!(
        r#"{"order_id":"ord_123456","amount_cents":20,"reason":"late","tags":"[\"vip\"]","note":"A &amp;amp; B"}"#,
        "\n",
        r#"{"order_id":"x","amount_cents":"20","reason":"late","extra":1}"#,
        "\n",
        "[1,\n"
    );
    let out = toolargs(&["check", "--schema", &schema], input.as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v = out.json_lines();
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["line"], 1);
    assert_eq!(v[0]["tool"], "refund", "named after the schema file");
    assert_eq!(v[0]["ok"], true);
    assert_eq!(
        v[0]["repairs"],
        json!([
            {"pointer": "/tags", "kind": "json_decoded", "into": "array"},
            {"pointer": "/note", "kind": "references_decoded", "passes": 2, "bound_reached": false}
        ])
    );
    assert_eq!(v[1]["ok"], false);
    assert_eq!(v[1]["error"]["rejection"], "invalid_arguments");
    let violations = v[1]["error"]["violations"].as_array().unwrap();
    let pointers: Vec<&str> = violations
        .iter()
        .map(|x| x["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/order_id", "/amount_cents", "/extra"]);
    assert!(violations.iter().all(|x| x["message"].is_string()));
    assert!(v[1]["message"].as_str().unwrap().contains("/amount_cents"));
    assert_eq!(v[2]["error"]["rejection"], "syntax");
    assert_eq!(v[2]["error"]["kind"], "arguments");

    let good = r#"{"order_id":"ord_000001","amount_cents":1,"reason":"late"}"#;
    let out = toolargs(
        &["check", "--schema", &schema, "--name", "give_back"],
        format!("{good}\n{good}\n").as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.json_lines().iter().all(|v| v["tool"] == "give_back"));
}

#[test]
fn check_reads_calls_of_every_format_against_any_providers_tools_file() {
    let dir = scratch("check-tools");
    let refund = write(&dir, "refund.json", REFUND);
    let calls = concat!(
        // Plain, with a repair.
        r#"{"name":"refund","arguments":{"order_id":"ord_000001","amount_cents":1,"reason":"late","tags":"[]"}}"#,
        "\n",
        // An OpenAI message with two calls: a typo'd name, then a good call.
        r#"{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"refnd","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"ord_000002\",\"amount_cents\":2,\"reason\":\"other\"}"}}]}"#,
        "\n",
        // Anthropic, invalid arguments.
        r#"{"type":"tool_use","id":"toolu_1","name":"refund","input":{"amount_cents":0}}"#,
        "\n",
        // A custom tool's free-form call, unreadable.
        r#"{"role":"assistant","tool_calls":[{"id":"c3","type":"custom","custom":{"name":"sql","input":"SELECT 1"}}]}"#,
        "\n",
        // A Responses output without calls.
        r#"{"output":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hi"}]}]}"#,
        "\n",
        "not json\n",
    );
    for provider in [
        "openai-chat",
        "openai-responses",
        "anthropic",
        "mcp",
        "gemini",
        "all",
    ] {
        let exported = toolargs(
            &["export", "--schema", &refund, "--provider", provider],
            b"",
        );
        assert_eq!(exported.code, 0, "{provider}: {}", exported.stderr);
        let tools = write(&dir, &format!("{provider}.json"), exported.text());
        let out = toolargs(&["check", "--tools", &tools], calls.as_bytes());
        assert_eq!(out.code, 1, "{provider}: {}", out.stderr);
        let v = out.json_lines();
        let summary: Vec<(u64, bool)> = v
            .iter()
            .map(|v| (v["line"].as_u64().unwrap(), v["ok"].as_bool().unwrap()))
            .collect();
        assert_eq!(
            summary,
            [
                (1, true),
                (2, false),
                (2, true),
                (3, false),
                (4, false),
                (5, true),
                (6, false)
            ],
            "{provider}"
        );
        assert_eq!(v[0]["repairs"][0]["pointer"], "/tags");
        assert_eq!(v[1]["entry"], "/tool_calls/0");
        assert_eq!(v[1]["id"], "c1");
        assert_eq!(v[1]["error"]["rejection"], "unknown_tool");
        assert_eq!(v[1]["error"]["closest"], json!(["refund"]));
        assert_eq!(v[2]["entry"], "/tool_calls/1");
        assert_eq!(v[2]["id"], "c2");
        let pointers: Vec<&str> = v[3]["error"]["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["pointer"].as_str().unwrap())
            .collect();
        assert_eq!(
            pointers,
            ["/order_id", "/reason", "/amount_cents"],
            "{provider}"
        );
        assert_eq!(v[4]["error"]["rejection"], "syntax");
        assert_eq!(v[4]["tool"], "sql");
        assert_eq!(v[5]["calls"], 0);
        assert_eq!(v[6]["error"]["kind"], "envelope");
    }

    // An MCP server's own `tools/list` response, two tools.
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
        {"name": "refund", "description": "Refunds", "inputSchema": serde_json::from_str::<Value>(REFUND).unwrap()}
    ]}});
    let tools = write(&dir, "list.json", &response.to_string());
    let out = toolargs(
        &["check", "--tools", &tools],
        b"{\"name\":\"search\",\"arguments\":{\"q\":\"rust\"}}\n{\"name\":\"search\",\"arguments\":{}}\n",
    );
    let v = out.json_lines();
    assert_eq!(
        (v[0]["ok"].clone(), v[1]["ok"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(v[1]["error"]["violations"][0]["pointer"], "/q");
}

#[test]
fn check_strict_validates_the_strict_form_and_the_declared_schema() {
    let dir = scratch("check-strict");
    let schema = write(&dir, "refund.json", REFUND);
    // Strict form: every member required, optional ones nullable.
    let strict_call =
        r#"{"order_id":"ord_000001","amount_cents":1,"reason":"late","tags":null,"note":null}"#;
    let canonical_call = r#"{"order_id":"ord_000001","amount_cents":1,"reason":"late"}"#;
    let out = toolargs(
        &["check", "--schema", &schema, "--strict"],
        format!("{strict_call}\n{canonical_call}\n").as_bytes(),
    );
    let v = out.json_lines();
    assert_eq!(v[0]["ok"], true, "{}", v[0]);
    assert_eq!(v[1]["ok"], false, "strict mode requires every member");
    let out = toolargs(
        &["check", "--schema", &schema],
        format!("{strict_call}\n").as_bytes(),
    );
    assert_eq!(out.json_lines()[0]["ok"], false, "null is not a string");
}

#[test]
fn grammar_prints_gbnf_or_lark_and_reports_what_it_does_not_enforce() {
    let dir = scratch("grammar");
    let schema = write(&dir, "refund.json", REFUND);
    let out = toolargs(&["grammar", "--schema", &schema], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.text().starts_with("root ::= "), "{}", out.text());
    assert!(out.text().contains(r#""\"ord_" [0-9]{6} "\"""#));
    let gaps: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(
        gaps,
        [
            "not enforced: /properties/amount_cents: `minimum`: numeric ranges are not expressed in the grammar",
            "not enforced: /properties/amount_cents: `maximum`: numeric ranges are not expressed in the grammar",
        ]
    );

    let report = dir.join("gaps.jsonl");
    let out = toolargs(
        &[
            "grammar",
            "--schema",
            &schema,
            "--format",
            "lark",
            "--not-enforced",
            report.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.text().starts_with("start: "), "{}", out.text());
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let lines: Vec<Value> = std::fs::read_to_string(&report)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["pointer"], "/properties/amount_cents");
    assert_eq!(lines[0]["keyword"], "minimum");

    // A tools file: one grammar for a call to any of its tools.
    let tools = toolargs(
        &["export", "--schema", &schema, "--provider", "anthropic"],
        b"",
    );
    let tools = write(&dir, "tools.json", tools.text());
    let out = toolargs(&["grammar", "--tools", &tools, "--format", "lark"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.text()
            .starts_with(r#"start: "{" "\"name\"" ":" "\"refund\"""#),
        "{}",
        out.text()
    );
    assert!(
        out.stderr
            .contains("not enforced: refund: /properties/amount_cents")
    );

    // A schema that admits no value has no grammar.
    let never = write(&dir, "never.json", "false");
    assert_eq!(toolargs(&["grammar", "--schema", &never], b"").code, 2);
}

#[test]
fn export_writes_each_providers_definition_with_the_same_schema() {
    let dir = scratch("export");
    let schema = write(&dir, "refund.json", REFUND);
    let declared: Value = serde_json::from_str(REFUND).unwrap();
    let out = toolargs(
        &[
            "export",
            "--schema",
            &schema,
            "--description",
            "Refunds an order",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let all: Value = serde_json::from_str(out.text()).unwrap();
    assert_eq!(all["openai-chat"][0]["function"]["parameters"], declared);
    assert_eq!(all["openai-chat"][0]["function"]["strict"], false);
    assert_eq!(all["openai-responses"][0]["parameters"], declared);
    assert_eq!(all["anthropic"][0]["input_schema"], declared);
    assert_eq!(all["anthropic"][0]["description"], "Refunds an order");
    assert_eq!(all["mcp"]["tools"][0]["inputSchema"], declared);
    assert_eq!(
        all["gemini"]["functionDeclarations"][0]["parametersJsonSchema"],
        declared
    );

    let out = toolargs(
        &[
            "export",
            "--schema",
            &schema,
            "--provider",
            "openai-responses",
            "--strict",
            "--compact",
        ],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.text().lines().count(), 1, "compact is one line");
    let strict: Value = serde_json::from_str(out.text()).unwrap();
    assert_eq!(strict[0]["strict"], true);
    assert_eq!(
        strict[0]["parameters"]["required"],
        json!(["order_id", "amount_cents", "reason", "tags", "note"])
    );
}

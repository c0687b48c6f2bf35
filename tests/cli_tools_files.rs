//! The tools the `toolargs` command reads, run as a process: `enum`/`const`
//! numbers in grammars as the file writes them, `$ref` loops named,
//! built-in tools skipped, Gemini's upper-case schemas read, and tool names
//! from schema file names.

mod cli_support;

use cli_support::{scratch, toolargs, write};
use serde_json::{Value, json};

#[test]
fn grammars_write_fixed_numbers_as_the_file_writes_them() {
    let dir = scratch("tools-numbers");
    let big = write(&dir, "big.json", r#"{"const": 12345678901234567890123}"#);
    let list = write(&dir, "list.json", r#"{"enum": [1e2, 0.5, -0]}"#);
    for (schema, text) in [
        (&big, r#""12345678901234567890123""#),
        (&list, r#""1e2" | "0.5" | "-0""#),
    ] {
        for format in ["gbnf", "lark"] {
            let out = toolargs(&["grammar", "--schema", schema, "--format", format], b"");
            assert_eq!(out.code, 0, "{}", out.stderr);
            assert!(out.text().contains(text), "{format}: {}", out.text());
        }
    }
    // A tools file: each tool's schema where the file keeps it.
    let tools = write(
        &dir,
        "tools.json",
        r#"[{"type": "function", "function": {"name": "a", "parameters": {"type": "object", "properties": {"n": {"enum": [1e2, 0.5, -0]}}, "required": ["n"]}}},
            {"name": "b", "input_schema": {"const": 12345678901234567890123}}]"#,
    );
    for format in ["gbnf", "lark"] {
        let out = toolargs(&["grammar", "--tools", &tools, "--format", format], b"");
        assert_eq!(out.code, 0, "{}", out.stderr);
        let grammar = out.text();
        assert!(grammar.contains(r#""1e2" | "0.5" | "-0""#), "{grammar}");
        assert!(
            grammar.contains(r#""12345678901234567890123""#),
            "{grammar}"
        );
        assert!(
            !grammar.contains("100.0") && !grammar.contains("e+22"),
            "{grammar}"
        );
    }
}

#[test]
fn a_ref_loop_that_never_reaches_a_schema_is_named() {
    let dir = scratch("tools-ref-loop");
    let schema = write(
        &dir,
        "loop.json",
        r##"{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}}"##,
    );
    let out = toolargs(&["grammar", "--schema", &schema], b"");
    assert_eq!(out.code, 2, "{}", out.text());
    assert!(
        out.stderr
            .contains("`$ref` loop `#/$defs/A` → `#/$defs/B` → `#/$defs/A` never reaches a schema"),
        "{}",
        out.stderr
    );
}

const PARAMS: &str = r#"{"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false}"#;

#[test]
fn built_in_tools_are_skipped_with_a_note() {
    let dir = scratch("tools-built-in");
    let tools = write(
        &dir,
        "responses.json",
        &format!(
            r#"[{{"type": "web_search"}}, {{"type": "file_search", "vector_store_ids": ["vs_1"]}},
                {{"type": "function", "name": "f", "parameters": {PARAMS}}},
                {{"type": "code_interpreter", "container": {{"type": "auto"}}}}, {{"type": "computer_use_preview", "display_width": 1024, "display_height": 768, "environment": "browser"}},
                {{"type": "image_generation"}}, {{"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp"}}, {{"type": "local_shell"}}]"#
        ),
    );
    let call = br#"{"name": "f", "arguments": {"q": "rust"}}"#;
    for args in [
        vec!["check", "--tools", &tools],
        vec!["grammar", "--tools", &tools],
        vec!["export", "--tools", &tools],
    ] {
        let out = toolargs(&args, call);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        let notes: Vec<&str> = out
            .stderr
            .lines()
            .filter(|l| l.contains("skipped"))
            .collect();
        let expected: Vec<String> = [
            ("web_search", 0),
            ("file_search", 1),
            ("code_interpreter", 3),
            ("computer_use_preview", 4),
            ("image_generation", 5),
            ("mcp", 6),
            ("local_shell", 7),
        ]
        .iter()
        .map(|(kind, i)| format!("toolargs: {tools}: skipped built-in tool `{kind}` at /{i}"))
        .collect();
        assert_eq!(notes, expected, "{args:?}");
    }
    let verdict = &toolargs(&["check", "--tools", &tools], call).json_lines()[0];
    assert_eq!(verdict["ok"], true, "{verdict}");
    let exported: Value =
        serde_json::from_str(toolargs(&["export", "--tools", &tools], b"").text()).unwrap();
    assert_eq!(exported["anthropic"].as_array().map(Vec::len), Some(1));
    // A function without a schema is still an error, not skipped.
    let bad = write(
        &dir,
        "bad.json",
        r#"[{"type": "web_search"}, {"type": "function", "name": "f", "paramters": {}}]"#,
    );
    let out = toolargs(&["export", "--tools", &bad], b"");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("`/1` is not a tool definition"),
        "{}",
        out.stderr
    );
    // Built-ins alone: no tool.
    let only = write(
        &dir,
        "only.json",
        r#"[{"type": "web_search"}, {"type": "mcp"}]"#,
    );
    let out = toolargs(&["grammar", "--tools", &only], b"");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("skipped built-in tool `mcp` at /1"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("the tools file holds no tool"),
        "{}",
        out.stderr
    );
}

#[test]
fn gemini_declarations_with_upper_case_types_are_read() {
    let dir = scratch("tools-gemini");
    let tool = json!({"functionDeclarations": [{
        "name": "weather",
        "description": "Weather for a city",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "city": {"type": "STRING"},
                "unit": {"type": "STRING", "format": "enum", "enum": ["C", "F"], "nullable": true},
                "days": {"type": "INTEGER", "enum": [1e0, 7]}
            },
            "required": ["city"]
        }
    }]});
    let tools = write(&dir, "gemini.json", &tool.to_string());
    let calls = concat!(
        r#"{"name": "weather", "arguments": {"city": "Oslo", "unit": null}}"#,
        "\n",
        r#"{"name": "weather", "arguments": {"city": 3, "unit": "K"}}"#,
        "\n"
    );
    let out = toolargs(&["check", "--tools", &tools], calls.as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let verdicts = out.json_lines();
    assert_eq!(verdicts[0]["ok"], true, "{}", verdicts[0]);
    assert_eq!(verdicts[1]["ok"], false, "{}", verdicts[1]);
    let out = toolargs(&["grammar", "--tools", &tools, "--format", "lark"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.text().contains(r#""\"C\"" | "\"F\"" | "null""#),
        "{}",
        out.text()
    );
    let out = toolargs(&["export", "--tools", &tools, "--provider", "gemini"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let exported: Value = serde_json::from_str(out.text()).unwrap();
    let schema = &exported["functionDeclarations"][0]["parametersJsonSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(
        schema["properties"]["unit"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        schema["properties"]["unit"]["enum"],
        json!(["C", "F", null])
    );
    // In a JSON Schema, an upper-case type stays an error.
    let anthropic = write(
        &dir,
        "anthropic.json",
        r#"[{"name": "weather", "input_schema": {"type": "OBJECT"}}]"#,
    );
    let out = toolargs(&["grammar", "--tools", &anthropic], b"");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("unknown type name `OBJECT`"),
        "{}",
        out.stderr
    );
}

#[test]
fn schema_file_names_that_are_not_tool_names_are_made_into_one() {
    let dir = scratch("tools-name");
    let schema = write(&dir, "my.tool.schema.json", PARAMS);
    let out = toolargs(&["check", "--schema", &schema], br#"{"q": "x"}"#);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json_lines()[0]["ok"], true);
    let out = toolargs(&["grammar", "--schema", &schema], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = toolargs(
        &["export", "--schema", &schema, "--provider", "anthropic"],
        b"",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let exported: Value = serde_json::from_str(out.text()).unwrap();
    assert_eq!(exported[0]["name"], "my_tool_schema");
    // The name read back from that export is the same: a tools file.
    let tools = write(&dir, "tools.json", out.text());
    let out = toolargs(&["grammar", "--tools", &tools, "--format", "lark"], b"");
    assert!(
        out.text().contains(r#""\"my_tool_schema\"""#),
        "{}",
        out.text()
    );
    // An explicit name is taken as given, and refused when invalid.
    let out = toolargs(&["export", "--schema", &schema, "--name", "my.tool"], b"");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("`my.tool`"), "{}", out.stderr);
}

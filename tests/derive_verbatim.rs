//! `#[tool_args(verbatim)]`: a field that carries markup or source text on
//! purpose is never entity-decoded (JSON-string decoding still follows the
//! schema), by the generated normalizer and by every consumer of the schema.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use toolargs::testing::assert_normalizer_matches_schema;
use toolargs::{Normalizer, ToolArgs, plan::VERBATIM_KEYWORD};

/// Write a file.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct WriteFile {
    path: String,
    #[tool_args(verbatim)]
    #[serde(alias = "body")]
    content: String,
    #[tool_args(verbatim)]
    #[serde(default)]
    lines: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "op")]
enum Edit {
    Replace {
        #[tool_args(verbatim)]
        text: String,
        note: String,
    },
    Delete,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Batch {
    file: WriteFile,
    edits: Vec<Edit>,
}

#[test]
fn verbatim_fields_keep_their_references_and_others_are_decoded() {
    let parsed = WriteFile::from_model(
        r#"{"path": "a&amp;b.html", "content": "<p>Tom &amp; Jerry &lt;3</p>", "lines": "[\"&lt;p&gt;\"]"}"#,
    )
    .unwrap();
    assert_eq!(parsed.value.path, "a&b.html");
    assert_eq!(parsed.value.content, "<p>Tom &amp; Jerry &lt;3</p>");
    // JSON-string decoding still follows the schema; the items stay as sent.
    assert_eq!(parsed.value.lines, ["&lt;p&gt;"]);
    let pointers: Vec<String> = parsed
        .report
        .repairs
        .iter()
        .map(|r| r.pointer.to_string())
        .collect();
    assert_eq!(pointers, ["/path", "/lines"]);
    // Under an alias too.
    let parsed = WriteFile::from_model(r#"{"path": "p", "body": "&amp;"}"#).unwrap();
    assert_eq!(parsed.value.content, "&amp;");
}

#[test]
fn the_mark_is_in_the_schema_so_every_consumer_honours_it() {
    let schema = WriteFile::input_schema();
    assert_eq!(schema["properties"]["content"][VERBATIM_KEYWORD], true);
    // The alias `body` is not shown; validation (and normalization) read it,
    // marked too.
    assert!(schema["properties"].get("body").is_none());
    assert_eq!(
        WriteFile::validator().schema()["properties"]["body"][VERBATIM_KEYWORD],
        true
    );
    assert!(schema["properties"]["path"].get(VERBATIM_KEYWORD).is_none());
    // The dynamic normalizer compiled from the exported schema agrees.
    let normalizer = Normalizer::compile(schema).unwrap();
    let mut args = json!({"path": "&lt;", "content": "&lt;"});
    normalizer.normalize(&mut args).unwrap();
    assert_eq!(args, json!({"path": "<", "content": "&lt;"}));
}

#[test]
fn verbatim_inside_enum_variants_and_nested_types() {
    let parsed = Batch::from_model(json!({
        "file": {"path": "x", "content": "&amp;"},
        "edits": [{"op": "Replace", "text": "&amp;", "note": "&amp;"}, {"op": "Delete"}]
    }))
    .unwrap();
    assert_eq!(parsed.value.file.content, "&amp;");
    let Edit::Replace { text, note } = &parsed.value.edits[0] else {
        panic!("expected a replace")
    };
    assert_eq!((text.as_str(), note.as_str()), ("&amp;", "&"));
}

#[test]
fn generated_and_dynamic_normalizers_agree_on_verbatim_types() {
    assert_normalizer_matches_schema::<WriteFile>();
    assert_normalizer_matches_schema::<Edit>();
    assert_normalizer_matches_schema::<Batch>();
}

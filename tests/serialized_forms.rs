//! The serialized forms that programs in other languages read: the
//! library's rejections and the `toolargs` command's output lines. Each has
//! a JSON Schema under `docs/schemas/`, and those schemas are the promise
//! made to such programs, so every variant is built here through the public
//! API (the command's lines by running the built binary) and
//!
//! - validated against its schema, which is closed: a field renamed or
//!   added anywhere fails, so the schema cannot fall behind the code;
//! - compared with `tests/snapshots/serialized_forms.json`, so a change of
//!   form shows in review as a diff. `TOOLARGS_BLESS=1 cargo test --features
//!   cli --test serialized_forms` rewrites the snapshot.

mod cli_support;

use cli_support::{Output, REFUND, scratch, toolargs_in, write};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;
use toolargs::call::{self, Arguments, ToolCall, WireFormat};
use toolargs::policy::{Decision, PolicyRequest};
use toolargs::rejection::Rejection;
use toolargs::toolbox::Toolbox;
use toolargs::{ArgsError, ToolArgs, contract::ContractError, normalizer::Options};

/// The forms, each named after its schema file (`docs/schemas/NAME.schema.json`).
const FORMS: [&str; 8] = [
    "rejection",
    "call-error",
    "violations",
    "contract-error",
    "args-error",
    "verdict",
    "normalize-case",
    "not-enforced",
];

/// For the forms that are tagged unions, the tag's key: every tag the
/// schema names must have an example.
const TAGS: [(&str, &str); 4] = [
    ("rejection", "rejection"),
    ("call-error", "outcome"),
    ("contract-error", "stage"),
    ("args-error", "error"),
];

/// Members holding the tool's own JSON (any value): not part of a form.
const FREE_FORM: [&str; 2] = ["arguments", "id"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn schema(form: &str) -> Value {
    let path = root().join(format!("docs/schemas/{form}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn validator(form: &str) -> jsonschema::Validator {
    jsonschema::draft202012::new(&schema(form)).unwrap_or_else(|e| panic!("{form}: {e}"))
}

// ---------------------------------------------------------------------------
// The library's forms.

/// Refund an order. (Only the amount is read: the rest is there for the
/// schema and the violations.)
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
#[allow(dead_code)]
struct Refund {
    order_id: String,
    #[serde(deserialize_with = "positive")]
    amount_cents: u32,
    reason: Reason,
    #[serde(default)]
    tags: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Damaged,
    Late,
    Other,
}

/// A rule the schema does not state, so that the type can refuse what the
/// schema let through.
fn positive<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let n = u32::deserialize(deserializer)?;
    if n == 0 {
        return Err(serde::de::Error::custom("a refund of 0 cents is no refund"));
    }
    Ok(n)
}

/// A hand-written schema naming a type JSON Schema does not have: the
/// validator refuses it.
#[derive(Debug, Deserialize, ToolArgs)]
struct Misnamed {}

impl JsonSchema for Misnamed {
    fn schema_name() -> Cow<'static, str> {
        "Misnamed".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "object", "properties": {"q": {"type": "strang"}}})
    }
}

/// A reference by plain-name anchor: the validator resolves it, the
/// normalization plan (local pointers only) does not.
#[derive(Debug, Deserialize, ToolArgs)]
struct Anchored {}

impl JsonSchema for Anchored {
    fn schema_name() -> Cow<'static, str> {
        "Anchored".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {"q": {"$ref": "#word"}},
            "$defs": {"word": {"$anchor": "word", "type": "string"}}
        })
    }
}

/// The refund tool behind a policy: `other` is denied, `damaged` waits for
/// a person, and the body refuses more than 400.00.
fn toolbox() -> Toolbox<()> {
    let mut toolbox =
        Toolbox::new().policy(
            |request: &PolicyRequest<'_, ()>| match request.arguments["reason"].as_str() {
                Some("other") => Decision::deny("refunds for other reasons go through support"),
                Some("damaged") => Decision::require_approval("damaged goods need a photo"),
                _ => Decision::Allow,
            },
        );
    toolbox
        .tool_sync("refund", "Refund an order.", |args: Refund| {
            if args.amount_cents > 40_000 {
                return Err(format!("{} cents is over the limit", args.amount_cents));
            }
            Ok(json!({"refunded": args.amount_cents}))
        })
        .expect("register refund");
    toolbox
}

fn text_call(name: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: Some("call_1".to_owned()),
        name: name.to_owned(),
        arguments: Arguments::Text(arguments.to_owned()),
        format: WireFormat::Plain,
    }
}

fn to_value(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("serializes")
}

fn rejection(toolbox: &Toolbox<()>, call: ToolCall) -> Value {
    match toolbox.check(&(), call) {
        Ok(checked) => panic!("accepted: {checked:?}"),
        Err(error) => to_value(error.rejection().expect("a rejection")),
    }
}

fn call_error(toolbox: &Toolbox<()>, call: ToolCall) -> Value {
    to_value(
        toolbox
            .call_blocking(&(), call)
            .expect_err("the call fails"),
    )
}

fn args_error(
    result: Result<toolargs::tool_args::Parsed<impl std::fmt::Debug>, ArgsError>,
) -> ArgsError {
    result.expect_err("the arguments are refused")
}

fn syntax(text: &str) -> Value {
    let error = call::read(text)
        .and_then(call::ReadCalls::into_calls)
        .expect_err("not a call");
    to_value(Rejection::from(error))
}

fn library() -> Vec<(&'static str, &'static str, Value)> {
    let toolbox = toolbox();
    let invalid = r#"{"order_id": 7, "amount_cents": "20", "reason": "late", "extra": 1}"#;
    let violations = match args_error(Refund::from_model(invalid)) {
        ArgsError::Invalid(violations) => violations,
        other => panic!("{other:?}"),
    };
    let contract_validator = Misnamed::try_input_schema().expect_err("refused");
    let contract_plan = Anchored::try_input_schema().expect_err("refused");
    assert!(matches!(contract_plan, ContractError::Plan { .. }));
    vec![
        (
            "rejection",
            "syntax_envelope",
            syntax(r#"{"name": "refund", "#),
        ),
        (
            "rejection",
            "syntax_shape",
            syntax(r#"{"name": 3, "arguments": {}}"#),
        ),
        (
            "rejection",
            "syntax_arguments",
            rejection(&toolbox, text_call("refund", r#"{"order_id": "#)),
        ),
        (
            "rejection",
            "unknown_tool",
            rejection(&toolbox, text_call("refnud", "{}")),
        ),
        (
            "rejection",
            "invalid_arguments",
            rejection(&toolbox, text_call("refund", invalid)),
        ),
        (
            "rejection",
            "denied",
            rejection(
                &toolbox,
                text_call(
                    "refund",
                    r#"{"order_id": "o1", "amount_cents": 5, "reason": "other"}"#,
                ),
            ),
        ),
        (
            "call-error",
            "rejected",
            call_error(&toolbox, text_call("refnud", "{}")),
        ),
        (
            "call-error",
            "approval_required",
            call_error(
                &toolbox,
                text_call(
                    "refund",
                    r#"{"order_id": "o1", "amount_cents": 5, "reason": "damaged", "tags": "[\"AT&amp;T\"]"}"#,
                ),
            ),
        ),
        (
            "call-error",
            "failed",
            call_error(
                &toolbox,
                text_call(
                    "refund",
                    r#"{"order_id": "o1", "amount_cents": 50000, "reason": "late"}"#,
                ),
            ),
        ),
        ("violations", "invalid", to_value(&violations)),
        ("contract-error", "validator", to_value(&contract_validator)),
        ("contract-error", "plan", to_value(&contract_plan)),
        (
            "args-error",
            "syntax",
            to_value(args_error(Refund::from_model("{\n  \"order_id\": ,\n}"))),
        ),
        (
            "args-error",
            "limit",
            to_value(args_error(Refund::from_model_with(
                r#"{"order_id": "o1", "amount_cents": 5, "reason": "late"}"#,
                &Options::default().max_bytes(16),
            ))),
        ),
        (
            "args-error",
            "invalid",
            to_value(args_error(Refund::from_model(invalid))),
        ),
        (
            "args-error",
            "contract",
            to_value(args_error(Misnamed::from_model("{}"))),
        ),
        (
            "args-error",
            "deserialize",
            to_value(args_error(Refund::from_model(
                r#"{"order_id": "o1", "amount_cents": 0, "reason": "late"}"#,
            ))),
        ),
    ]
}

// ---------------------------------------------------------------------------
// The command's forms.

/// Runs the command in `dir` and returns its output lines; the exit status
/// must be `code`.
fn lines(dir: &std::path::Path, args: &[&str], stdin: &str, code: i32) -> Vec<Value> {
    let out: Output = toolargs_in(Some(dir), args, stdin.as_bytes());
    assert_eq!(out.code, code, "toolargs {args:?}: {}", out.stderr);
    out.json_lines()
}

fn command() -> Vec<(&'static str, String, Value)> {
    let dir = scratch("serialized-forms");
    write(&dir, "refund.json", REFUND);
    write(
        &dir,
        "tools.json",
        &format!(
            r#"[{{"name": "refund", "description": "Refund an order.", "inputSchema": {REFUND}}}]"#
        ),
    );
    write(
        &dir,
        "args.jsonl",
        concat!(
            r#"{"order_id": "ord_123456", "amount_cents": 150, "reason": "late", "tags": "[\"vip\", \"AT&amp;amp;T\"]"}"#,
            "\n",
            r#"{"order_id": "ord_7", "amount_cents": "20", "reason": "late", "extra": 1}"#,
            "\n",
            r#"{"order_id": "ord_000001","#,
            "\n\n",
        ),
    );
    write(
        &dir,
        "calls.jsonl",
        concat!(
            r#"{"name": "refund", "arguments": {"order_id": "ord_123456", "amount_cents": 20, "reason": "late"}}"#,
            "\n",
            r#"{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "refnd", "arguments": "{}"}}, {"id": "call_2", "type": "function", "function": {"name": "refund", "arguments": "{\"order_id\": \"ord_000002\", \"amount_cents\": 0, \"reason\": \"other\"}"}}]}"#,
            "\n",
            r#"{"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [{"id": "call_3", "type": "function", "function": {"name": "refund", "arguments": "{\"order_id\": \"ord_000003\", \"amount_cents\": 3, \"reason\": \"late\"}"}}]}}, {"index": 1, "message": {"role": "assistant", "content": "No refund."}}]}"#,
            "\n",
            r#"{"role": "assistant", "content": "The refund is on its way."}"#,
            "\n",
            r#"{"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "Hi"}}]}"#,
            "\n",
            r#"data: {"type": "message_stop"}"#,
            "\n",
            r#"{"nme": "refund", "arguments": {}}"#,
            "\n",
        ),
    );
    write(
        &dir,
        "more.jsonl",
        "{\"name\": \"refund\", \"arguments\": {}}\n",
    );
    write(
        &dir,
        "stream.sse",
        concat!(
            "event: content_block_start\n",
            r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"refund","input":{}}}"#,
            "\n\n",
            "event: content_block_delta\n",
            r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"order_id\": \"ord_000042\", \"amount_cents\": 900, \"reason\": \"late\", \"tags\": \"[\\\"vip\\\"]\"}"}}"#,
            "\n\n",
            "event: content_block_stop\n",
            r#"data: {"type":"content_block_stop","index":0}"#,
            "\n\n",
        ),
    );
    write(
        &dir,
        "broken.sse",
        concat!(
            "event: content_block_start\n",
            r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"refund","input":{}}}"#,
            "\n\n",
            "event: content_block_delta\n",
            "data: {\"type\":\"content_block_delta\",\n\n",
        ),
    );
    write(
        &dir,
        "quiet.sse",
        "event: ping\ndata: {\"type\":\"ping\"}\n\n",
    );
    write(
        &dir,
        "cases.jsonl",
        concat!(
            r#"{"id": "t1", "schema": {"type": "array", "items": {"type": "string"}}, "arguments": "[\"&amp;lt;b&amp;gt;\", \"AT&amp;T\", \"&quot;x&quot;\"]"}"#,
            "\n",
            r#"{"id": 2, "schema": {"type": "object"}, "arguments": {"a": 1}}"#,
            "\n",
            r#"{"id": "t3", "schema": {"type": 7}, "arguments": {}}"#,
            "\n",
            "[1, 2]\n",
        ),
    );
    let check = ["check", "--quiet"];
    let runs: Vec<(&str, &str, Vec<Value>)> = vec![
        (
            "verdict",
            "check --schema",
            lines(
                &dir,
                &[&check[..], &["--schema", "refund.json", "args.jsonl"]].concat(),
                "",
                1,
            ),
        ),
        (
            "verdict",
            "check --tools",
            lines(
                &dir,
                &[&check[..], &["--tools", "tools.json", "calls.jsonl"]].concat(),
                "",
                1,
            ),
        ),
        (
            "verdict",
            "check --tools, two files",
            lines(
                &dir,
                &[&check[..], &["--tools", "tools.json", "more.jsonl", "-"]].concat(),
                "\n",
                1,
            ),
        ),
        (
            "verdict",
            "check --stream",
            lines(
                &dir,
                &[
                    &check[..],
                    &["--stream", "--tools", "tools.json", "stream.sse"],
                ]
                .concat(),
                "",
                0,
            ),
        ),
        (
            "verdict",
            "check --stream, broken",
            lines(
                &dir,
                &[
                    &check[..],
                    &["--stream", "--tools", "tools.json", "broken.sse"],
                ]
                .concat(),
                "",
                1,
            ),
        ),
        (
            "verdict",
            "check --stream, no call",
            lines(
                &dir,
                &[
                    &check[..],
                    &["--stream", "--tools", "tools.json", "quiet.sse"],
                ]
                .concat(),
                "",
                0,
            ),
        ),
        (
            "normalize-case",
            "normalize --cases",
            lines(
                &dir,
                &["normalize", "--cases", "--max-repairs", "2", "cases.jsonl"],
                "",
                1,
            ),
        ),
        (
            "not-enforced",
            "grammar --schema",
            not_enforced(&dir, &["grammar", "--schema", "refund.json"]),
        ),
        (
            "not-enforced",
            "grammar --tools",
            not_enforced(&dir, &["grammar", "--tools", "tools.json"]),
        ),
    ];
    let mut examples = Vec::new();
    for (form, run, values) in runs {
        assert!(!values.is_empty(), "{run} wrote nothing");
        for (i, value) in values.into_iter().enumerate() {
            examples.push((form, format!("{run}: {}", i + 1), value));
        }
    }
    examples
}

/// The lines `--not-enforced` writes to its file.
fn not_enforced(dir: &std::path::Path, args: &[&str]) -> Vec<Value> {
    let file = dir.join("gaps.jsonl");
    let args = [args, &["--not-enforced", "gaps.jsonl"]].concat();
    let out = toolargs_in(Some(dir), &args, b"");
    assert_eq!(out.code, 0, "toolargs {args:?}: {}", out.stderr);
    let text = std::fs::read_to_string(&file).expect("read the gaps");
    std::fs::remove_file(&file).expect("remove the gaps");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

// ---------------------------------------------------------------------------
// The examples, built once for all the tests.

/// Every example, by form and then by name, in a stable order.
fn examples() -> &'static Map<String, Value> {
    static EXAMPLES: OnceLock<Map<String, Value>> = OnceLock::new();
    EXAMPLES.get_or_init(|| {
        let mut all = Map::new();
        for form in FORMS {
            all.insert(form.to_owned(), Value::Object(Map::new()));
        }
        let library = library()
            .into_iter()
            .map(|(form, name, value)| (form, name.to_owned(), value));
        for (form, name, value) in library.chain(command()) {
            let Some(Value::Object(forms)) = all.get_mut(form) else {
                panic!("{form} is not in FORMS");
            };
            assert!(forms.insert(name.clone(), value).is_none(), "{name} twice");
        }
        all
    })
}

fn each_example() -> impl Iterator<Item = (&'static str, &'static str, &'static Value)> {
    examples().iter().flat_map(|(form, named)| {
        named
            .as_object()
            .expect("examples by name")
            .iter()
            .map(move |(name, value)| (form.as_str(), name.as_str(), value))
    })
}

fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("at `{}`: {e}", e.instance_path()))
        .collect()
}

#[test]
fn every_example_matches_its_schema() {
    let mut failures = Vec::new();
    for form in FORMS {
        let validator = validator(form);
        let named = examples()[form].as_object().expect("examples by name");
        assert!(!named.is_empty(), "no example of {form}");
        for (name, value) in named {
            for error in errors(&validator, value) {
                failures.push(format!("{form} / {name}: {error}\n  {value}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every place in `value` that holds an object of the form (not the tool's
/// own JSON), as JSON pointers.
fn objects(value: &Value, at: String, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            found.push(at.clone());
            for (key, member) in map {
                if !FREE_FORM.contains(&key.as_str()) {
                    objects(member, format!("{at}/{key}"), found);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                objects(item, format!("{at}/{i}"), found);
            }
        }
        _ => {}
    }
}

#[test]
fn a_field_renamed_or_added_anywhere_breaks_the_schema() {
    let mut kept = Vec::new();
    for (form, name, value) in each_example() {
        let validator = validator(form);
        let mut places = Vec::new();
        objects(value, String::new(), &mut places);
        for place in places {
            let mut changed = vec![];
            let object = value
                .pointer(&place)
                .and_then(Value::as_object)
                .expect("an object");
            for key in object.keys() {
                let mut renamed = value.clone();
                let map = renamed
                    .pointer_mut(&place)
                    .and_then(Value::as_object_mut)
                    .unwrap();
                let member = map.shift_remove(key).unwrap();
                map.insert(format!("{key}_renamed"), member);
                changed.push((format!("`{key}` renamed"), renamed));
            }
            let mut added = value.clone();
            let map = added
                .pointer_mut(&place)
                .and_then(Value::as_object_mut)
                .unwrap();
            map.insert("added".to_owned(), Value::Null);
            changed.push(("a field added".to_owned(), added));
            for (what, instance) in changed {
                if validator.is_valid(&instance) {
                    kept.push(format!("{form} / {name} at `{place}`: {what}"));
                }
            }
        }
    }
    assert!(kept.is_empty(), "still valid:\n{}", kept.join("\n"));
}

/// Every value `key` is fixed to (`const`) anywhere in `schema`.
fn tags(schema: &Value, key: &str, found: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(tag) = map
                .get("properties")
                .and_then(|p| p.get(key))
                .and_then(|p| p.get("const"))
                .and_then(Value::as_str)
            {
                found.insert(tag.to_owned());
            }
            map.values().for_each(|v| tags(v, key, found));
        }
        Value::Array(items) => items.iter().for_each(|v| tags(v, key, found)),
        _ => {}
    }
}

#[test]
fn every_variant_a_schema_names_has_an_example() {
    for (form, key) in TAGS {
        let mut named = BTreeSet::new();
        tags(&schema(form), key, &mut named);
        let shown: BTreeSet<String> = examples()[form]
            .as_object()
            .expect("examples by name")
            .values()
            .filter_map(|v| v[key].as_str().map(str::to_owned))
            .collect();
        assert!(named.len() > 1, "{form}: no tags `{key}` in its schema");
        assert_eq!(
            named, shown,
            "{form}: the variants named and the ones shown"
        );
    }
    // The command's verdicts are told apart by their members, not a tag.
    let verdicts = examples()["verdict"].as_object().expect("examples by name");
    for member in [
        "file", "entry", "choice", "index", "id", "tool", "chunk", "calls", "repairs", "error",
        "note",
    ] {
        assert!(
            verdicts.values().any(|v| v.get(member).is_some()),
            "no verdict shows `{member}`"
        );
    }
    let kinds: BTreeSet<&str> = each_example()
        .filter_map(|(_, _, v)| v.get("kind").and_then(Value::as_str))
        .chain(
            verdicts
                .values()
                .filter_map(|v| v["error"]["kind"].as_str()),
        )
        .collect();
    assert_eq!(kinds, BTreeSet::from(["arguments", "envelope", "shape"]));
}

#[test]
fn the_examples_match_the_snapshot() {
    let path = root().join("tests/snapshots/serialized_forms.json");
    let mut text = serde_json::to_string_pretty(examples()).expect("serializes");
    text.push('\n');
    if std::env::var_os("TOOLARGS_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).expect("create the snapshot dir");
        std::fs::write(&path, &text).expect("write the snapshot");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != text {
        let diff = committed
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(committed.lines().count().min(text.lines().count()));
        panic!(
            "{} differs from the examples built now, from its line {}:\n  committed: {}\n  built:     {}\n\
             If the change of form is meant, document it in docs/schemas/ and rerun with TOOLARGS_BLESS=1.",
            path.display(),
            diff + 1,
            committed.lines().nth(diff).unwrap_or("(end of file)"),
            text.lines().nth(diff).unwrap_or("(end of file)"),
        );
    }
}

/// Collects `$defs` by name, and every subschema under `properties` that
/// has no `description`.
fn walk(schema: &Value, at: &str, undescribed: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get("properties") {
                for (name, property) in properties {
                    if property.get("description").is_none() {
                        undescribed.push(format!("{at}/properties/{name}"));
                    }
                }
            }
            for (key, value) in map {
                walk(value, &format!("{at}/{key}"), undescribed);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, &format!("{at}/{i}"), undescribed);
            }
        }
        _ => {}
    }
}

#[test]
fn the_schemas_are_self_contained_alike_and_described() {
    let mut definitions: Map<String, Value> = Map::new();
    let mut problems = Vec::new();
    let listed: BTreeSet<String> = std::fs::read_dir(root().join("docs/schemas"))
        .expect("docs/schemas")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let tested: BTreeSet<String> = FORMS.iter().map(|f| format!("{f}.schema.json")).collect();
    assert_eq!(
        listed, tested,
        "a schema under docs/schemas/ without examples here"
    );
    for form in FORMS {
        let schema = schema(form);
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{form}"
        );
        for key in ["title", "description"] {
            assert!(schema[key].is_string(), "{form}: no `{key}`");
        }
        walk(&schema, form, &mut problems);
        // A definition shared by several files (each file stands alone, so
        // a reader needs no resolver) is the same text in each.
        for (name, definition) in schema["$defs"].as_object().into_iter().flatten() {
            match definitions.get(name) {
                Some(first) if first != definition => {
                    problems.push(format!(
                        "{form}: `$defs/{name}` differs from another file's"
                    ));
                }
                Some(_) => {}
                None => {
                    definitions.insert(name.clone(), definition.clone());
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n(a property without a description, or a shared definition that drifted)",
        problems.join("\n")
    );
}

//! The grammar compiler's public contract without an engine: the "not
//! enforced" report (every ignored keyword, by schema location, and nothing
//! else), typed errors for schemas it cannot compile, and the whole-call
//! grammar's bookkeeping. The engine checks live in `grammar_engine.rs`.

use serde_json::{Value, json};
use toolargs::grammar::{CallGrammar, Grammar, GrammarError, MAX_DEPTH};

fn report(schema: &Value) -> Vec<(String, String)> {
    Grammar::from_schema(schema)
        .unwrap_or_else(|e| panic!("{e}"))
        .not_enforced()
        .iter()
        .map(|u| (u.pointer.clone(), u.keyword.clone()))
        .collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(p, k)| ((*p).to_owned(), (*k).to_owned()))
        .collect()
}

#[test]
fn lists_every_keyword_the_grammar_ignores_by_pointer() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.test/tool.json",
        "title": "every keyword",
        "description": "annotations are not constraints",
        "type": "object",
        "minProperties": 1,
        "maxProperties": 9,
        "propertyNames": {"maxLength": 10},
        "patternProperties": {"^x-": {"type": "string"}},
        "dependentRequired": {"a": ["b"]},
        "dependentSchemas": {"a": {"required": ["c"]}},
        "if": {"required": ["a"]},
        "then": {"required": ["b"]},
        "else": {"required": ["c"]},
        "not": {"required": ["d"]},
        "unevaluatedProperties": false,
        "x-vendor": true,
        "properties": {
            "a": {"type": "number", "minimum": 0, "maximum": 9, "exclusiveMinimum": -1,
                  "exclusiveMaximum": 10, "multipleOf": 0.5, "default": 1, "examples": [2]},
            "b": {"type": "array", "items": {"type": "string", "format": "uuid"},
                  "uniqueItems": true, "contains": {"const": "x"}, "minContains": 1,
                  "maxContains": 2},
            "c": {"type": "string", "pattern": "^(?!admin)[a-z]+$", "$comment": "look-ahead"},
            "d": {"type": "string", "nullable": true},
            "e": {"oneOf": [{"type": "number"}, {"type": "integer"}], "deprecated": true},
            "f": {"allOf": [{"type": "string"}, {"maxLength": 3}]},
            "g": {"$ref": "#/$defs/g", "minLength": 2},
            "h": {"type": "string", "pattern": "^[a-z]+$", "minLength": 1, "maxLength": 4},
            "i": {"type": "integer", "enum": [1, 2, "three"], "minimum": 2},
            "j": {"type": "string", "maxLength": 100000},
            "k": {"type": "object", "unevaluatedProperties": {"type": "string"}}
        },
        "$defs": {"g": {"type": "string", "readOnly": true, "writeOnly": false}}
    });
    let expected = pairs(&[
        ("", "minProperties"),
        ("", "maxProperties"),
        ("", "propertyNames"),
        ("", "patternProperties"),
        ("", "dependentRequired"),
        ("", "dependentSchemas"),
        ("", "if"),
        ("", "then"),
        ("", "else"),
        ("", "not"),
        // `unevaluatedProperties: false` closes the object (enforced), and
        // so are `f`'s `allOf` and `g`'s `minLength` beside `$ref`: the
        // grammar compiles a composition merged.
        ("", "x-vendor"),
        ("/properties/a", "minimum"),
        ("/properties/a", "maximum"),
        ("/properties/a", "exclusiveMinimum"),
        ("/properties/a", "exclusiveMaximum"),
        ("/properties/a", "multipleOf"),
        ("/properties/b", "uniqueItems"),
        ("/properties/b", "contains"),
        ("/properties/b", "minContains"),
        ("/properties/b", "maxContains"),
        ("/properties/b/items", "format"),
        ("/properties/c", "pattern"),
        ("/properties/d", "nullable"),
        ("/properties/e", "oneOf"),
        ("/properties/h", "minLength"),
        ("/properties/h", "maxLength"),
        ("/properties/i", "minimum"),
        ("/properties/j", "maxLength"),
        ("/properties/k", "unevaluatedProperties"),
    ]);
    assert_eq!(report(&schema), expected);
}

#[test]
fn reasons_say_why() {
    let grammar = Grammar::from_schema(&json!({
        "type": "object",
        "properties": {
            "c": {"type": "string", "pattern": "^(a)\\1$"},
            "e": {"oneOf": [{"type": "number"}, {"type": "integer"}]}
        },
        "additionalProperties": false
    }))
    .unwrap();
    let lines: Vec<String> = grammar
        .not_enforced()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lines,
        [
            "/properties/c: `pattern`: `^(a)\\1$` is outside the supported regex subset: \
             a back-reference",
            "/properties/e: `oneOf`: exclusivity (exactly one branch matches) is not \
             enforced: the grammar accepts a value matching any branch",
        ]
    );
}

#[test]
fn a_fully_enforced_schema_reports_nothing() {
    let schema = json!({
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^ord_[0-9]{6}$", "description": "order"},
            "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 1, "maxItems": 3},
            "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false},
            "note": {"type": ["string", "null"], "minLength": 1, "maxLength": 80},
            "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]},
            "kind": {"const": "refund", "title": "kind"}
        },
        "required": ["id", "kind"],
        "additionalProperties": false
    });
    assert_eq!(report(&schema), pairs(&[]));
}

#[test]
fn recursive_references_compile_once() {
    let grammar = Grammar::from_schema(&json!({
        "$ref": "#/definitions/node",
        "definitions": {
            "node": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/node"}}},
                "additionalProperties": false
            }
        }
    }))
    .unwrap();
    let gbnf = grammar.gbnf();
    assert_eq!(gbnf.matches("node ::=").count(), 1, "{gbnf}");
    assert!(
        gbnf.contains("node-kids ::= \"[\" (node (\",\" node)*)? \"]\""),
        "{gbnf}"
    );
}

#[test]
fn every_referenced_rule_is_defined() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"$ref": "#/$defs/x"}, {"type": "array", "items": {"$ref": "#"}}]},
            "b": {}
        },
        "$defs": {"x": {"type": "object", "properties": {"y": {"$ref": "#/$defs/x"}}}}
    });
    let grammar = Grammar::from_schema(&schema).unwrap();
    let gbnf = grammar.gbnf();
    let defined: Vec<&str> = gbnf
        .lines()
        .map(|line| line.split(" ::= ").next().unwrap())
        .collect();
    assert_eq!(defined[0], "root");
    for name in &defined {
        assert!(
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{name}"
        );
    }
    // Outside quoted literals and classes, every word is a defined rule.
    for line in gbnf.lines() {
        let body = line.split_once(" ::= ").unwrap().1;
        for word in words_outside_literals(body) {
            assert!(
                defined.contains(&word.as_str()),
                "undefined `{word}` in {line}"
            );
        }
    }
}

fn words_outside_literals(body: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars = body.chars().peekable();
    let mut word = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' | '[' => {
                let close = if c == '"' { '"' } else { ']' };
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == close {
                        break;
                    }
                }
            }
            '{' => {
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            c if c.is_ascii_alphanumeric() || c == '-' => word.push(c),
            _ => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[test]
fn malformed_schemas_are_typed_errors() {
    let cases = [
        (
            json!({"properties": {"a": 3}}),
            "schema at `/properties/a` is a number",
        ),
        (json!({"type": "text"}), "unknown type name `text` at ``"),
        (
            json!({"type": "object", "required": "a"}),
            "keyword `required` at `` must be an array of strings",
        ),
        (
            json!({"$ref": "other.json#/a"}),
            "`$ref` `other.json#/a` at `` is not a local JSON pointer",
        ),
        (
            json!({"$ref": "#/$defs/missing"}),
            "`$ref` `#/$defs/missing` at `` points at nothing",
        ),
        (
            json!({"type": "string", "maxLength": -1}),
            "keyword `maxLength` at `` must be a non-negative integer",
        ),
        (
            json!({"anyOf": []}),
            "keyword `anyOf` at `` must be a non-empty array of schemas",
        ),
        (
            json!({"type": "object", "properties": {"a": false}, "required": ["a"]}),
            "schema at `` admits no value",
        ),
        // A reference to itself: a loop, named.
        (
            json!({"$ref": "#"}),
            "`$ref` loop `#` → `#` never reaches a schema",
        ),
        (json!(false), "schema at `` admits no value"),
    ];
    for (schema, message) in cases {
        let err = Grammar::from_schema(&schema).expect_err(&schema.to_string());
        assert!(err.to_string().starts_with(message), "{schema}: {err}");
    }
}

#[test]
fn nesting_is_bounded() {
    let mut schema = json!({"type": "string"});
    for _ in 0..=MAX_DEPTH + 1 {
        schema = json!({"type": "array", "items": schema});
    }
    let err = Grammar::from_schema(&schema).unwrap_err();
    assert!(matches!(err, GrammarError::TooDeep { .. }), "{err}");
}

#[test]
fn whole_call_grammar_names_each_tool_once() {
    let refund = json!({
        "type": "object",
        "properties": {"amount": {"type": "integer", "minimum": 1}},
        "required": ["amount"],
        "additionalProperties": false
    });
    let ping = json!({"type": "object", "additionalProperties": false});
    let calls = CallGrammar::new([("refund", &refund), ("ping", &ping)]).unwrap();
    assert_eq!(calls.tools().collect::<Vec<_>>(), ["refund", "ping"]);
    let lark = calls.lark();
    assert!(
        lark.starts_with(
            r#"start: "{" "\"name\"" ":" "\"refund\"" "," "\"arguments\"" ":" refund_args "}" | "{" "\"name\"" ":" "\"ping\"" "," "\"arguments\"" ":" ping_args "}""#
        ),
        "{lark}"
    );
    assert!(calls.gbnf().contains("ping-args ::= \"{\" \"}\""));
    assert_eq!(
        calls.not_enforced("refund").unwrap()[0].pointer,
        "/properties/amount"
    );
    assert_eq!(calls.not_enforced("ping"), Some(&[][..]));
    assert_eq!(calls.not_enforced("nope"), None);

    let err = CallGrammar::new([("a", &ping), ("a", &ping)]).unwrap_err();
    assert_eq!(err, GrammarError::DuplicateTool { name: "a".into() });
    assert_eq!(CallGrammar::new([]).unwrap_err(), GrammarError::NoTools);
    let bad = json!({"type": 1});
    let err = CallGrammar::new([("bad", &bad)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool `bad`: keyword `type` at `` must be a type name or an array of type names"
    );
}

use super::*;
use serde_json::json;

fn refund() -> Value {
    json!({
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[0-9]{6}$"},
            "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
            "reason": {"enum": ["damaged", "late", "wrong_item", "other"]},
            "note": {"type": "string", "maxLength": 200}
        },
        "required": ["order_id", "amount_cents", "reason"],
        "additionalProperties": false
    })
}

#[test]
fn refund_grammar_is_exact() {
    let grammar = Grammar::from_schema(&refund()).unwrap();
    let expected = [
        r#"start: "{" "\"order_id\"" ":" STRING_1 "," "\"amount_cents\"" ":" INTEGER "," "\"reason\"" ":" ("\"damaged\"" | "\"late\"" | "\"wrong_item\"" | "\"other\"") ("," "\"note\"" ":" STRING_2)? "}""#,
        "",
        r#"STRING_1: /"ord_[0-9]{6}"/"#,
        r#"INTEGER: /\-?(?:0|[1-9][0-9]*)/"#,
        r#"STRING_2: /"(?:[^\x{0}-\x{1F}\x{22}\x{5C}]|\\(?:[\x{22}\x{2F}\x{5C}bfnrt]|u(?:[0-9A-CEFa-cef][0-9A-Fa-f]{3}|[Dd][0-7][0-9A-Fa-f]{2}))){0,200}"/"#,
    ];
    assert_eq!(grammar.lark().lines().collect::<Vec<_>>(), expected);
    assert!(grammar.gbnf().starts_with(
        r#"root ::= "{" "\"order_id\"" ":" "\"ord_" [0-9]{6} "\"" "," "\"amount_cents\"" ":" "-"? ("0" | [1-9] [0-9]*) ","#
    ));
}

#[test]
fn objects_put_commas_only_between_members() {
    // All optional: any subset, in schema order, comma-separated.
    let grammar = Grammar::from_schema(&json!({
        "type": "object",
        "properties": {"a": {"const": 1}, "b": {"const": 2}, "c": {"const": 3}},
        "additionalProperties": false
    }))
    .unwrap();
    let expected = [
        r#"start: "{" ("\"a\"" ":" "1" object_rest_1 | "\"b\"" ":" "2" object_rest_2 | ("\"c\"" ":" "3")?) "}""#,
        r#"object_rest_1: ("," "\"b\"" ":" "2")? object_rest_2"#,
        r#"object_rest_2: ("," "\"c\"" ":" "3")?"#,
    ];
    assert_eq!(grammar.lark().lines().collect::<Vec<_>>(), expected);
}

#[test]
fn unsatisfiable_parts_are_pruned() {
    // `b` can never be written (its schema is `false`) but is optional.
    let grammar = Grammar::from_schema(&json!({
        "type": "object",
        "properties": {"a": {"type": "null"}, "b": false},
        "required": ["a"],
        "additionalProperties": false
    }))
    .unwrap();
    assert_eq!(
        grammar.gbnf(),
        "root ::= \"{\" \"\\\"a\\\"\" \":\" \"null\" \"}\"\n"
    );
}

#[test]
fn extra_member_names_exclude_the_declared_ones() {
    // Open object: extra members follow the declared ones, through a rule
    // of their own whose name lexeme excludes `a` and `ab`.
    let grammar = Grammar::from_schema(&json!({
        "type": "object",
        "properties": {"a": {"type": "null"}, "ab": {"type": "null"}},
        "additionalProperties": {"type": "boolean"}
    }))
    .unwrap();
    let lark = grammar.lark();
    assert!(
        lark.contains(r#"object_extra: object_extra_name ":" ("true" | "false")"#),
        "{lark}"
    );
    assert!(lark.contains("object_extra_name: STRING_1\n"), "{lark}");
    assert!(grammar.not_enforced().is_empty());
    // A map keeps admitting any name, written any way.
    let grammar = Grammar::from_schema(&json!({
        "type": "object",
        "additionalProperties": {"type": "boolean"}
    }))
    .unwrap();
    assert!(
        grammar.lark().contains(r#"("," STRING ":""#),
        "{}",
        grammar.lark()
    );
}

#[test]
fn excluded_names_are_exact_at_the_character_level() {
    use super::ir::Lex;
    // The key lexeme as a regex over the written text, checked on the text
    // of names around the excluded ones.
    fn matches(lex: &Lex, text: &str) -> bool {
        fn ends(lex: &Lex, text: &str, from: usize, out: &mut Vec<usize>) {
            let rest = &text[from..];
            match lex {
                Lex::Lit(l) => {
                    if rest.starts_with(l.as_str()) {
                        out.push(from + l.len());
                    }
                }
                Lex::Class(set) => {
                    if let Some(c) = rest.chars().next()
                        && set
                            .ranges()
                            .iter()
                            .any(|&(lo, hi)| (lo..=hi).contains(&(c as u32)))
                    {
                        out.push(from + c.len_utf8());
                    }
                }
                Lex::Seq(parts) => {
                    let mut at = vec![from];
                    for part in parts {
                        let mut next = Vec::new();
                        for &p in &at {
                            ends(part, text, p, &mut next);
                        }
                        next.sort_unstable();
                        next.dedup();
                        at = next;
                    }
                    out.extend(at);
                }
                Lex::Alt(branches) => branches.iter().for_each(|b| ends(b, text, from, out)),
                Lex::Repeat(item, min, max) => {
                    // Breadth-first over repetitions; past `min`, a position
                    // already reached adds nothing new.
                    let mut frontier = vec![from];
                    let mut reached = std::collections::HashSet::new();
                    for count in 0..=text.len() + *min as usize + 1 {
                        if count >= *min as usize {
                            frontier.retain(|p| reached.insert(*p));
                            out.extend(&frontier);
                        }
                        if frontier.is_empty() || max.is_some_and(|m| count >= m as usize) {
                            break;
                        }
                        let mut next = Vec::new();
                        for &p in &frontier {
                            ends(item, text, p, &mut next);
                        }
                        next.sort_unstable();
                        next.dedup();
                        frontier = next;
                    }
                }
            }
        }
        let mut out = Vec::new();
        ends(lex, text, 0, &mut out);
        out.contains(&text.len())
    }
    let lex = json_lex::key_except(&["venue", "ven", "\"q\u{1}"]);
    let written = |name: &str| serde_json::to_string(name).unwrap();
    for name in ["venue", "ven", "\"q\u{1}"] {
        assert!(!matches(&lex, &written(name)), "{name:?} must be excluded");
    }
    for name in [
        "",
        "v",
        "ve",
        "venu",
        "venues",
        "vent",
        "xvenue",
        "\"q",
        "\"q\u{1}x",
        "é\n\u{1f}",
    ] {
        assert!(matches(&lex, &written(name)), "{name:?} must be admitted");
    }
    // One canonical spelling: an escape serde_json would not write is not
    // admitted, so no declared name sneaks in spelled another way.
    assert!(!matches(&lex, r#""v\u0065nue""#));
    assert!(!matches(&lex, r#""a\/b""#));
}

#[test]
fn declared_names_too_long_to_exclude_are_reported() {
    let long = "n".repeat(json_lex::MAX_EXCLUDED_NAME + 1);
    let grammar = Grammar::from_schema(&json!({
        "type": "object",
        "properties": {long.clone(): {"type": "null"}, "short": {"type": "null"}}
    }))
    .unwrap();
    let report = grammar.not_enforced();
    assert_eq!(report.len(), 1, "{report:?}");
    assert_eq!(
        (report[0].pointer.as_str(), report[0].keyword.as_str()),
        ("", "additionalProperties")
    );
    assert!(report[0].reason.contains("longer than 128"), "{report:?}");
    // The short name is still kept apart.
    assert!(grammar.lark().contains("object_extra_name"));
    let at_limit = "n".repeat(json_lex::MAX_EXCLUDED_NAME);
    let grammar = Grammar::from_schema(&json!({
        "type": "object",
        "properties": {at_limit: {"type": "null"}}
    }))
    .unwrap();
    assert!(grammar.not_enforced().is_empty());
}

/// Compiles the schema `text` with its number texts.
fn with_numbers(text: &str) -> Grammar {
    let schema: Value = serde_json::from_str(text).unwrap();
    let numbers = NumberTexts::scan(text).unwrap();
    Grammar::from_schema_with_numbers(&schema, &numbers).unwrap()
}

#[test]
fn fixed_numbers_are_written_as_the_schema_text_writes_them() {
    let grammar = with_numbers(r#"{"const": 12345678901234567890123}"#);
    assert_eq!(grammar.gbnf(), "root ::= \"12345678901234567890123\"\n");
    assert_eq!(grammar.lark(), "start: \"12345678901234567890123\"\n");
    let grammar = with_numbers(r#"{"enum": [1e2, 0.5, -0]}"#);
    assert_eq!(grammar.gbnf(), "root ::= \"1e2\" | \"0.5\" | \"-0\"\n");
    assert_eq!(grammar.lark(), "start: \"1e2\" | \"0.5\" | \"-0\"\n");
    // Inside a member, an array value, and a const beside its enum.
    let grammar = with_numbers(
        r#"{"type": "object", "properties": {"a": {"enum": [[1E+2, {"k": 2.50}]]}, "b": {"enum": [1e2, 7], "const": 1e2}}, "required": ["a", "b"], "additionalProperties": false}"#,
    );
    let lark = grammar.lark();
    assert!(lark.contains(r#""[1E+2,{\"k\":2.50}]""#), "{lark}");
    assert!(lark.contains(r#""\"b\"" ":" "1e2""#), "{lark}");
}

#[test]
fn from_a_value_alone_fixed_numbers_are_serde_json_s_text() {
    let schema: Value = serde_json::from_str(r#"{"enum": [1e2, 0.5, -0]}"#).unwrap();
    let grammar = Grammar::from_schema(&schema).unwrap();
    assert_eq!(grammar.lark(), "start: \"100.0\" | \"0.5\" | \"-0.0\"\n");
    // A table scanned from another text is not used for other numbers.
    let other = NumberTexts::scan(r#"{"enum": [1e3, 0.50]}"#).unwrap();
    let grammar = Grammar::from_schema_with_numbers(&schema, &other).unwrap();
    assert_eq!(grammar.lark(), "start: \"100.0\" | \"0.50\" | \"-0.0\"\n");
}

#[test]
fn call_grammars_write_each_tool_s_number_texts() {
    let text =
        r#"[{"name": "a", "schema": {"const": 1e2}}, {"name": "b", "schema": {"enum": [-0]}}]"#;
    let file: Value = serde_json::from_str(text).unwrap();
    let numbers = NumberTexts::scan(text).unwrap();
    let (a, b) = (numbers.under("/0/schema"), numbers.under("/1/schema"));
    let grammar =
        CallGrammar::with_numbers([("a", &file[0]["schema"], &a), ("b", &file[1]["schema"], &b)])
            .unwrap();
    let lark = grammar.lark();
    assert!(lark.contains("\na_args: \"1e2\"\n"), "{lark}");
    assert!(lark.contains("\nb_args: \"-0\"\n"), "{lark}");
}

#[test]
fn a_ref_loop_that_never_reaches_a_schema_is_an_error_naming_it() {
    let schema = json!({
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/A"}}
    });
    let err = Grammar::from_schema(&schema).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`$ref` loop `#/$defs/A` → `#/$defs/B` → `#/$defs/A` never reaches a schema"
    );
    assert!(matches!(&err, GrammarError::RefLoop { at, .. } if at == "/$defs/A"));
    // Through a union's only branch, and back to the root.
    let err = Grammar::from_schema(&json!({"anyOf": [{"$ref": "#"}]})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`$ref` loop `#` → `#` never reaches a schema"
    );
    let err = CallGrammar::new([("t", &schema)]).unwrap_err();
    assert!(
        err.to_string().starts_with("tool `t`: `$ref` loop"),
        "{err}"
    );
}

#[test]
fn recursion_through_objects_arrays_or_another_branch_still_compiles() {
    // A tree: each level writes a bracket.
    let tree = json!({
        "$defs": {"Node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            "next": {"$ref": "#/$defs/Next"}
        }}, "Next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}},
        "$ref": "#/$defs/Node"
    });
    let grammar = Grammar::from_schema(&tree).unwrap();
    assert!(grammar.lark().contains("children"), "{}", grammar.lark());
    // A loop with a way out: the other branch.
    let looped = json!({
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "string"}]}, "B": {"$ref": "#/$defs/A"}},
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/A"}},
        "required": ["x"]
    });
    let grammar = Grammar::from_schema(&looped).unwrap();
    assert!(
        grammar.lark().contains("\"\\\"x\\\"\""),
        "{}",
        grammar.lark()
    );
}

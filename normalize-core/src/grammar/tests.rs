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

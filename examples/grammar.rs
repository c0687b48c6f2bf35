//! Prints the decoding grammars (GBNF and llguidance Lark) for a refund
//! tool's arguments, the whole-call grammar for it, and the report of what
//! the grammars leave to the validator.
//!
//! ```text
//! cargo run --example grammar
//! ```

use serde_json::json;
use toolargs::grammar::{CallGrammar, Grammar};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let refund = json!({
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[0-9]{6}$"},
            "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
            "reason": {"enum": ["damaged", "late", "wrong_item", "other"]},
            "note": {"type": "string", "maxLength": 200}
        },
        "required": ["order_id", "amount_cents", "reason"],
        "additionalProperties": false
    });
    let grammar = Grammar::from_schema(&refund)?;
    println!("# refund arguments: GBNF (llama.cpp)\n{}", grammar.gbnf());
    println!("# refund arguments: Lark (llguidance)\n{}", grammar.lark());
    println!("# not enforced by the grammar (the validator's job)");
    for item in grammar.not_enforced() {
        println!("{item}");
    }
    let calls = CallGrammar::new([("refund", &refund)])?;
    println!("\n# whole call: GBNF\n{}", calls.gbnf());
    println!("# whole call: Lark\n{}", calls.lark());
    Ok(())
}

//! The refund tool of the design, walked through the pipeline: one call
//! that succeeds after normalization, then one of each rejection and the
//! tool's own failure, printing the message each would send back to the
//! model.
//!
//! ```text
//! cargo run --example refund
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolargs::ToolArgs;
use toolargs::call::{ReadCalls, read};
use toolargs::policy::{Decision, PolicyRequest};
use toolargs::toolbox::Toolbox;

/// Refund part or all of an order to the customer's original payment method.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Refund {
    /// The order to refund: `ord_` followed by eight lowercase letters or digits.
    #[schemars(regex(pattern = r"^ord_[a-z0-9]{8}$"))]
    order_id: String,
    /// Amount to refund, in cents (1 to 50000).
    #[schemars(range(min = 1, max = 50000))]
    amount_cents: u32,
    /// Why the customer is refunded.
    reason: Reason,
    /// A note shown to the customer.
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Damaged,
    Late,
    NotReceived,
}

/// Who is asking: the support agent on whose behalf the model acts.
struct Agent {
    refund_limit_cents: u32,
}

#[derive(Serialize)]
struct Receipt {
    order_id: String,
    refunded_cents: u32,
    reason: Reason,
    note: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut toolbox = Toolbox::new().policy(|request: &PolicyRequest<'_, Agent>| {
        let refund = request.typed::<Refund>().expect("refund arguments");
        if refund.amount_cents > request.context.refund_limit_cents {
            Decision::deny(format!(
                "refunds above {} cents need a supervisor",
                request.context.refund_limit_cents
            ))
        } else {
            Decision::Allow
        }
    });
    toolbox.tool_sync(
        "refund",
        "Refund part or all of an order.",
        |refund: Refund| {
            if refund.order_id == "ord_00000000" {
                return Err(format!("{} was already refunded in full", refund.order_id));
            }
            Ok(Receipt {
                order_id: refund.order_id,
                refunded_cents: refund.amount_cents,
                reason: refund.reason,
                note: refund.note,
            })
        },
    )?;
    let agent = Agent {
        refund_limit_cents: 10_000,
    };

    let calls = [
        (
            "succeeds after normalization (OpenAI Chat; the note escaped twice)",
            r#"{"id":"call_1","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"ord_8f2k1x9q\",\"amount_cents\":1999,\"reason\":\"damaged\",\"note\":\"Sorry &amp;amp; thank you\"}"}}"#,
        ),
        (
            "syntax: the arguments text is cut short",
            r#"{"id":"call_2","type":"function","function":{"name":"refund","arguments":"{\"order_id\":\"ord_8f2k1x9q\","}}"#,
        ),
        (
            "unknown tool",
            r#"{"type":"tool_use","id":"toolu_3","name":"refnd","input":{}}"#,
        ),
        (
            "invalid arguments, all at once",
            r#"{"name":"refund","arguments":{"order_id":"ord_x","amount_cents":"20","force":true}}"#,
        ),
        (
            "denied by policy",
            r#"{"functionCall":{"name":"refund","args":{"order_id":"ord_8f2k1x9q","amount_cents":25000,"reason":"late"}}}"#,
        ),
        (
            "the tool's own failure",
            r#"{"name":"refund","arguments":{"order_id":"ord_00000000","amount_cents":500,"reason":"not_received"}}"#,
        ),
    ];

    for (title, text) in calls {
        println!("== {title}\n   sent: {text}");
        let result = match read(text).and_then(ReadCalls::into_calls) {
            Ok(mut calls) => toolbox.call_blocking(&agent, calls.remove(0)),
            Err(syntax) => Err(syntax.into()),
        };
        match result {
            Ok(done) => {
                println!("   ran:  {}", done.output);
                for repair in &done.report.repairs {
                    println!(
                        "   repaired `{}`: {}",
                        repair.pointer,
                        serde_json::to_string(&repair.kind)?
                    );
                }
            }
            Err(error) => {
                println!("   {error}");
                println!(
                    "   to the model:\n     {}",
                    error.model_message().replace('\n', "\n     ")
                );
            }
        }
        println!();
    }
    Ok(())
}

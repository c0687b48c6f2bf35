//! A derived type's `from_model` on arbitrary text: never a panic; a success
//! re-serializes to a value its own validator accepts; and the derived
//! normalizer and the dynamic plan compiled from the type's schema agree
//! (same value, same report, same error) on whatever JSON the text holds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::LazyLock;
use toolargs::{ArgsError, Normalizer, ToolArgs, entities::EntityMode, normalizer::Options};

/// Which orders to refund.
#[derive(Serialize, Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct RefundArgs {
    /// The order, e.g. `ord_123`.
    #[schemars(regex(pattern = r"^ord_[0-9]+$"))]
    order_id: String,
    amount_cents: u32,
    reason: Reason,
    #[serde(default, alias = "labels")]
    tags: Vec<String>,
    filter: Option<Filter>,
    #[serde(default)]
    lines: Vec<Line>,
    #[serde(default)]
    notes: BTreeMap<String, Vec<String>>,
    ratio: Option<f64>,
    #[serde(default)]
    pair: Option<(String, i64)>,
}

#[derive(Serialize, Deserialize, JsonSchema, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Reason {
    Damaged,
    Late,
    Other { detail: String },
}

#[derive(Serialize, Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Filter {
    since: Option<String>,
    kinds: Option<Vec<String>>,
}

#[derive(Serialize, Deserialize, JsonSchema, ToolArgs, Debug, PartialEq)]
struct Line {
    sku: String,
    quantity: u16,
    children: Vec<Line>,
}

/// The default options, and two that bite: the text rule with one pass and
/// little depth, and unbounded passes with almost no depth.
fn options() -> [Options; 3] {
    [
        Options::default(),
        Options::default()
            .entities(EntityMode::Text)
            .max_passes(1)
            .max_depth(4),
        Options::default().max_passes(u32::MAX).max_depth(2),
    ]
}

/// The dynamic plan compiled from the derived schema, once per option set.
static DYNAMIC: LazyLock<Vec<Normalizer>> = LazyLock::new(|| {
    options()
        .into_iter()
        .map(|options| {
            Normalizer::compile(RefundArgs::input_schema())
                .expect("the derived schema compiles")
                .with_options(options)
        })
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (options, dynamic_normalizer) in options().into_iter().zip(DYNAMIC.iter()) {
        match RefundArgs::from_model_with(text, &options) {
            Ok(parsed) => {
                let value = serde_json::to_value(&parsed.value).expect("typed arguments serialize");
                if let Err(violations) = RefundArgs::validator().validate(&value) {
                    panic!("{value} re-serialized does not validate: {violations}");
                }
            }
            Err(error) => {
                let _ = error.to_string();
                if let ArgsError::Invalid(violations) = &error {
                    assert!(!violations.0.is_empty(), "an empty set of violations");
                }
            }
        }
        // Derived and dynamic normalizers agree.
        if let Ok(value) = serde_json::from_str::<Value>(text) {
            let mut derived = value.clone();
            let derived_result = RefundArgs::normalize(&mut derived, &options);
            let mut dynamic = value;
            let dynamic_result = dynamic_normalizer.normalize(&mut dynamic);
            assert_eq!(derived_result, dynamic_result, "reports differ");
            assert_eq!(derived, dynamic, "normalized values differ");
        }
    }
});

//! One exact contract, as a property over many derived types: for every
//! generated value `v` of each type,
//!
//! 1. CLEAN: `T::from_model(to_string(v))` is exactly `v`, nothing repaired;
//! 2. DAMAGE: containers sent as JSON text and strings HTML-escaped one to
//!    three times are repaired back to exactly `v`, with one report entry per
//!    damaged pointer and no other;
//! 3. UNKNOWN KEY: a key serde silently drops is rejected at its pointer; a
//!    key serde keeps (a map entry) is accepted as serde takes it;
//! 4. WRONG TYPE: a leaf of another JSON type is rejected at exactly its
//!    pointer when serde refuses it, and accepted as serde takes it otherwise.
//!
//! serde is the oracle (`tests/contract/mod.rs` has the checks, and
//! `tests/contract/types.rs` the types, shared with `contract_strict.rs`). Each type
//! has its own test; `contract_summary` prints how often each branch ran per
//! type and checks that every branch was exercised.
#![allow(dead_code)]

mod contract;

use contract::types::*;
use contract::{Gen, Outcome, Rng, run};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolargs::ToolArgs;

/// Cases per type in its own test.
const CASES: u32 = 256;
/// Cases per type in the summary.
const SUMMARY_CASES: u32 = 32;

// ---- the tests ----

/// The untagged enum values of a type, by pointer, or its aliases (none by
/// default).
macro_rules! unions {
    () => {
        &[] as &[&str]
    };
    ($unions:expr) => {
        $unions
    };
}

macro_rules! aliases {
    () => {
        &[] as &[(&str, &str)]
    };
    ($aliases:expr) => {
        $aliases
    };
}

/// One test per type, and the summary over all of them.
macro_rules! contract {
    ($($(#[$attr:meta])* $test:ident: $ty:ty $(, unions $unions:expr)? $(, aliases $aliases:expr)?;)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $test() {
                let outcome = run::<$ty>(stringify!($ty), CASES, unions!($($unions)?), aliases!($($aliases)?));
                report(stringify!($ty), &outcome);
                assert!(outcome.failures.is_empty(), "{}", outcome.describe(stringify!($ty)));
                check_coverage(stringify!($ty), &outcome, !aliases!($($aliases)?).is_empty());
            }
        )*

        fn all() -> Vec<(&'static str, bool, fn() -> Outcome, fn() -> String)> {
            vec![$((stringify!($ty), !aliases!($($aliases)?).is_empty(), (|| run::<$ty>(stringify!($ty), SUMMARY_CASES, unions!($($unions)?), aliases!($($aliases)?))) as fn() -> Outcome, contract::eligibility::<$ty> as fn() -> String)),*]
        }
    };
}

fn report(name: &str, outcome: &Outcome) {
    eprintln!(
        "{name:<24} {} | failed {}",
        outcome.counts.line(),
        outcome.failures.len()
    );
}

/// Branches 1 and 2 ran for the type, and few generated values were
/// skipped.
fn check_coverage(name: &str, outcome: &Outcome, has_aliases: bool) {
    let counts = &outcome.counts;
    assert!(
        !has_aliases || counts.aliased > 0,
        "{name}: branch 5 (aliases) never ran"
    );
    assert!(counts.clean > 0, "{name}: branch 1 never ran");
    assert!(counts.damaged > 0, "{name}: branch 2 never ran");
    assert!(
        counts.skipped * 4 <= outcome.cases,
        "{name}: {} of {} generated values skipped",
        counts.skipped,
        outcome.cases
    );
}

contract::types::contract_types!(contract);

/// Every branch ran: 1 and 2 for every type, 3 and 4 hundreds of times
/// across the suite. Prints the table the closing note quotes.
#[test]
fn contract_summary() {
    let types = all();
    let mut total = contract::Counts::default();
    let mut failing = Vec::new();
    let mut eligibility: std::collections::BTreeMap<String, usize> = Default::default();
    eprintln!("{} types, {SUMMARY_CASES} cases each", types.len());
    for (name, has_aliases, runner, eligible) in &types {
        *eligibility.entry(eligible()).or_default() += 1;
        let outcome = runner();
        report(name, &outcome);
        check_coverage(name, &outcome, *has_aliases);
        if !outcome.failures.is_empty() {
            eprint!("{}", outcome.describe(name));
            failing.push(*name);
        }
        total.add(&outcome.counts);
    }
    eprintln!("{:<24} {}", "TOTAL", total.line());
    eprintln!("clean path, types by eligibility: {eligibility:?}");
    assert!(total.clean_path > 0, "the clean path read no call");
    eprintln!("types breaking the contract: {failing:?}");
    assert!(
        failing.is_empty(),
        "types breaking the contract: {failing:?}"
    );
    assert!(types.len() >= 60, "only {} types", types.len());
    assert!(
        total.unknown() >= 300,
        "branch 3 ran {} times",
        total.unknown()
    );
    assert!(total.wrong() >= 300, "branch 4 ran {} times", total.wrong());
    assert!(total.unknown_dropped >= 100 && total.wrong_refused >= 100);
}

// ---- the property can fail ----

/// An open type: undeclared keys ride along, which the contract forbids.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
#[tool_args(open)]
pub struct OpenArgs {
    pub query: String,
    pub leaf: Option<Leaf>,
}
generator!(OpenArgs { query, leaf });

#[test]
fn the_property_catches_an_open_type() {
    let outcome = run::<OpenArgs>("OpenArgs", CASES, &[], &[]);
    let (unknown, example) = &outcome.broken[2];
    assert!(
        *unknown > 0,
        "undeclared keys at the root of an open type went unnoticed"
    );
    assert!(
        example
            .as_deref()
            .is_some_and(|e| e.contains("/zz_unknown")),
        "{example:?}"
    );
    assert_eq!(outcome.broken[0].0, 0, "clean values still pass");
}

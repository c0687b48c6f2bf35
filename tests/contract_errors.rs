//! A derived type whose contract does not compile (a hand-written
//! `JsonSchema` producing a schema the validator or the plan compiler
//! refuses) is a typed error wherever it is first used, never a panic, and
//! schemas from elsewhere compile their patterns with bounded cost.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde_json::json;
use std::borrow::Cow;
use toolargs::stream::ArgsStream;
use toolargs::toolbox::{RegisterError, Toolbox};
use toolargs::{
    ArgsError, ToolArgs, contract::ContractError, normalizer::NormalizeError, normalizer::Options,
};

/// A schema naming a type JSON Schema does not have.
#[derive(Deserialize, ToolArgs, Debug)]
struct Misnamed {}

impl JsonSchema for Misnamed {
    fn schema_name() -> Cow<'static, str> {
        "Misnamed".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "object", "properties": {"q": {"type": "strang"}}})
    }
}

/// A reference to a definition that is not there.
#[derive(Deserialize, ToolArgs, Debug)]
enum Dangling {
    A,
}

impl JsonSchema for Dangling {
    fn schema_name() -> Cow<'static, str> {
        "Dangling".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"$ref": "#/$defs/Nowhere"})
    }
}

/// A generic type: its contract is kept per monomorphization.
#[derive(Deserialize, ToolArgs, Debug)]
#[allow(dead_code)]
struct Wrapper<T> {
    inner: T,
}

impl<T> JsonSchema for Wrapper<T> {
    fn schema_name() -> Cow<'static, str> {
        "Wrapper".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "object", "required": 3})
    }
}

fn contract_error<T: ToolArgs>() -> ContractError {
    T::try_input_schema().expect_err("the contract does not compile")
}

#[test]
fn a_contract_that_does_not_compile_is_an_error_naming_the_type() {
    for (error, name) in [
        (contract_error::<Misnamed>(), "Misnamed"),
        (contract_error::<Dangling>(), "Dangling"),
        (contract_error::<Wrapper<u8>>(), "Wrapper<u8>"),
    ] {
        assert!(error.type_name().ends_with(name), "{error}");
        assert!(error.to_string().contains(name), "{error}");
    }
    // The validator refuses each of these before the plan is compiled.
    assert!(matches!(
        contract_error::<Dangling>(),
        ContractError::Validator { .. }
    ));
}

#[test]
fn every_entry_point_returns_the_same_error() {
    let error = contract_error::<Misnamed>();
    assert_eq!(Misnamed::try_validator().unwrap_err(), error);
    assert_eq!(
        Misnamed::from_model(r#"{"q": "x"}"#).unwrap_err(),
        ArgsError::Contract(error.clone())
    );
    assert_eq!(
        Misnamed::from_model(json!({"q": "x"})).unwrap_err(),
        ArgsError::Contract(error.clone())
    );
    // Asked again: the failure is cached, not recomputed differently.
    assert_eq!(contract_error::<Misnamed>(), error);
}

#[test]
fn the_normalizer_reports_it_where_it_needs_the_plan() {
    // An enum's generated normalizer walks the type's plan.
    let mut value = json!("A");
    let error = Dangling::normalize(&mut value, &Options::default()).unwrap_err();
    assert_eq!(
        error,
        NormalizeError::Contract(contract_error::<Dangling>())
    );
    assert_eq!(value, json!("A"), "nothing is changed");
}

#[test]
fn the_panicking_accessors_panic_with_the_same_message() {
    let message = std::panic::catch_unwind(|| Misnamed::input_schema().clone())
        .expect_err("input_schema panics")
        .downcast::<String>()
        .expect("a formatted message");
    assert_eq!(*message, contract_error::<Misnamed>().to_string());
}

#[test]
fn registration_refuses_the_type() {
    let mut toolbox: Toolbox = Toolbox::new();
    let Err(error) = toolbox.tool_sync("search", "Searches.", |_: Misnamed| Ok::<_, String>(()))
    else {
        panic!("refused at registration")
    };
    match error {
        RegisterError::Contract { name, source } => {
            assert_eq!(name, "search");
            assert_eq!(source, contract_error::<Misnamed>());
        }
        other => panic!("expected RegisterError::Contract, got {other:?}"),
    }
    assert_eq!(toolbox.names().count(), 0);
}

#[test]
fn a_stream_checks_nothing_early_and_finishes_with_the_error() {
    let mut stream = ArgsStream::<Misnamed>::new();
    stream.push(r#"{"q": "#);
    assert!(stream.rejection().is_none());
    stream.push(r#""x"}"#);
    assert_eq!(
        stream.finish().unwrap_err(),
        ArgsError::Contract(contract_error::<Misnamed>())
    );
}

#[test]
fn the_error_serializes_with_its_stage() {
    let serialized =
        serde_json::to_value(ArgsError::Contract(contract_error::<Dangling>())).unwrap();
    assert_eq!(serialized["error"], "contract");
    assert_eq!(serialized["detail"]["stage"], "validator");
    assert!(
        serialized["detail"]["type_name"]
            .as_str()
            .unwrap()
            .ends_with("Dangling")
    );
}

#[test]
fn a_pattern_past_the_size_limit_is_refused_at_registration() {
    // 300 × 300 repetitions: past our limit, within the `regex` crate's
    // default one (the validator's default options take it).
    let pattern = "^(?:a{300}){300}$";
    assert!(jsonschema::validator_for(&json!({"pattern": pattern})).is_ok());
    let schema = json!({
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": pattern}}
    });
    let mut toolbox: Toolbox = Toolbox::new();
    let Err(error) =
        toolbox.dynamic_tool_sync("lookup", "Looks up.", schema, |_| Ok::<_, String>(()))
    else {
        panic!("refused at registration")
    };
    assert!(
        matches!(
            error,
            RegisterError::Validator { .. } | RegisterError::Schema { .. }
        ),
        "{error:?}"
    );
}

#[test]
fn a_backtracking_pattern_stops_at_the_limit_and_refuses_the_value() {
    // A back-reference runs on the backtracking engine: exponential in the
    // string without a limit (this test would not finish).
    let validator = toolargs::validate::Validator::new(&json!({
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": "^(a*)*\\1b$"}}
    }))
    .unwrap();
    let value = json!({"s": "a".repeat(64)});
    let violations = validator.validate(&value).unwrap_err();
    assert_eq!(violations.0[0].pointer, "/s");
    // A string the pattern matches quickly still passes.
    validator.validate(&json!({"s": "aab"})).unwrap();
}

//! The clean path (`from_model` reading a clean call in one pass) gives the
//! full path's result, value, report and rejection alike, and leaves every
//! call it cannot vouch for to the full path: one test per condition, each
//! asserting which path the call took (`__private::paths_taken`).
//!
//! The generated contract suites check the same equivalence on every call
//! of every generated type (`tests/support/generated_check.rs`).

#[path = "../benches/support/action_args.rs"]
mod action_args;
#[path = "../benches/support/corpus.rs"]
mod corpus;
#[path = "../benches/support/search_args.rs"]
mod search_args;

use action_args::ActionArgs;
use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Debug;
use toolargs::__private::{Fallback, PathsTaken, from_model_full, paths_taken};
use toolargs::{
    ArgsError, ToolArgs, entities::EntityMode, normalizer::Options, tool_args::Parsed,
    tool_args::RawArgs,
};

/// Which path `from_model_with` took for one call.
#[derive(Debug, PartialEq, Eq)]
enum Path {
    Clean,
    Left,
    Never,
}

/// Reads `call` with `options`, checks that the result is the full
/// path's, and says which path it took.
fn read<T: ToolArgs + PartialEq + Debug>(
    call: RawArgs<'_>,
    options: &Options,
) -> (Result<Parsed<T>, ArgsError>, Option<Path>) {
    let before = paths_taken();
    let result = T::from_model_with(call.clone(), options);
    let after = paths_taken();
    let full = from_model_full::<T>(call, options);
    assert_eq!(result, full, "the clean path and the full path differ");
    let delta = PathsTaken {
        clean: after.clean - before.clean,
        never: after.never - before.never,
        left: after.left - before.left,
    };
    let path = match delta {
        PathsTaken {
            clean: 1,
            never: 0,
            left: 0,
        } => Some(Path::Clean),
        PathsTaken {
            clean: 0,
            never: 0,
            left: 1,
        } => Some(Path::Left),
        PathsTaken {
            clean: 0,
            never: 1,
            left: 0,
        } => Some(Path::Never),
        PathsTaken {
            clean: 0,
            never: 0,
            left: 0,
        } => None,
        other => panic!("one call counted as {other:?}"),
    };
    (result, path)
}

fn path_of<T: ToolArgs + PartialEq + Debug>(call: &str) -> Path {
    read::<T>(call.into(), &Options::default())
        .1
        .expect("a call as text is counted")
}

fn fallback_of<T: ToolArgs>() -> Result<(), Fallback> {
    T::__contract()
        .expect("the contract compiles")
        .clean
        .clone()
}

#[test]
fn the_bench_corpus_is_read_alike_by_both_paths() {
    for size in corpus::Size::ALL {
        for seed in 0..8 {
            let clean = corpus::clean(size, seed).to_string();
            assert_eq!(path_of::<search_args::SearchArgs>(&clean), Path::Clean);
            let damaged = corpus::damaged(size, seed).to_string();
            assert_eq!(path_of::<search_args::SearchArgs>(&damaged), Path::Left);
        }
    }
    // Invalid calls: the full path's rejection, word for word.
    for call in [
        r#"{"query": 1, "tags": [], "documents": []}"#,
        r#"{"query": "q", "tags": [], "documents": [], "limit": -1}"#,
        r#"{"query": "q", "tags": [], "documents": [{"title": "t"}]}"#,
        r#"{"query": "q", "tags": [], "documents": [], "extra": true}"#,
        r#"{"query": "q", "tags": []}"#,
        r#"{"query": "q", "tags": [], "documents": [], "limit": 5.0}"#,
        r#"{"query": "q", "query": "r", "tags": [], "documents": []}"#,
        r#"{"query": "q", "tags": [], "documents": []} x"#,
        "[1, 2]",
    ] {
        let (result, path) = read::<search_args::SearchArgs>(call.into(), &Options::default());
        assert!(result.is_err(), "{call} was accepted");
        assert_eq!(path, Some(Path::Left), "{call}");
    }
}

#[test]
fn a_type_with_an_enum_an_alias_and_a_map_is_read_clean() {
    assert_eq!(fallback_of::<ActionArgs>(), Ok(()));
    for variables in [0, 1, 8, 64] {
        let call = action_args::clean(variables);
        assert_eq!(path_of::<ActionArgs>(&call), Path::Clean, "{call}");
    }
    for call in [
        r#"{"command": "c", "action": "stop", "env": {}}"#,
        // A map's key twice: serde keeps the last, as the full path does.
        r#"{"command": "c", "action": "stop", "env": {"A": "1", "B": "2", "A": "3"}}"#,
        // An escape that spells nothing a repair reads; `AT&T`, no reference.
        r#"{"command": "\u0063 \"x\"", "action": "stop", "env": {"&amp;": "AT&T"}}"#,
        r#"{"command": "c", "action": {"wait": 5}, "env": {"A": "b"}, "retries": null}"#,
    ] {
        assert_eq!(path_of::<ActionArgs>(call), Path::Clean, "{call}");
    }
}

#[test]
fn what_the_observer_refuses_takes_the_full_path() {
    for call in [
        // An alias: the full path reads it under its own rules.
        r#"{"cmd": "c", "action": "stop", "env": {}}"#,
        // A key serde would ignore.
        r#"{"command": "c", "action": "stop", "env": {}, "extra": 1}"#,
        // A unit variant written as an object: serde_json takes it.
        r#"{"command": "c", "action": {"stop": null}, "env": {}}"#,
        // A struct written as an array: serde's derive takes it.
        r#"{"command": "c", "action": {"run": ["/bin/true", []]}, "env": {}}"#,
        // A field twice, an integer with a fraction: serde refuses them.
        r#"{"command": "c", "command": "d", "action": "stop", "env": {}}"#,
        r#"{"command": "c", "action": {"wait": 5.0}, "env": {}}"#,
        // A string a repair changes, written plainly or through escapes
        // (each string is checked as decoded).
        r#"{"command": "a &amp; b", "action": "stop", "env": {}}"#,
        r#"{"command": "\u0026amp;", "action": "stop", "env": {}}"#,
        r#"{"command": "&\u0061mp;", "action": "stop", "env": {}}"#,
        r#"{"command": "c", "action": "st&#111;p", "env": {}}"#,
        r#"{"command": "c", "action": "stop", "env": {"A": "&lt;"}}"#,
        // A reference in a map's key too: the text is not vouched for
        // whole, and each string is searched on its own.
        r#"{"command": "c", "action": "stop", "env": {"&amp;": "&lt;"}}"#,
        r#"{"command": "c", "action": "stop", "env": "{\"A\": \"b\"}"}"#,
        r#"{"command": "\u005b1]", "action": "stop", "env": {}}"#,
        "",
    ] {
        assert_eq!(path_of::<ActionArgs>(call), Path::Left, "{call}");
    }
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Ratio {
    value: f32,
}

#[test]
fn an_f32_that_rounds_to_infinity_takes_the_full_path() {
    assert_eq!(fallback_of::<Ratio>(), Ok(()));
    assert_eq!(path_of::<Ratio>(r#"{"value": 1.5}"#), Path::Clean);
    let (result, path) = read::<Ratio>(r#"{"value": 1e39}"#.into(), &Options::default());
    assert_eq!(path, Some(Path::Left));
    assert!(matches!(result, Err(ArgsError::Invalid(_))), "{result:?}");
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Nested {
    inner: Option<Box<Nested>>,
}

#[test]
fn nesting_past_the_callers_stack_bound_takes_the_full_path() {
    let call = |depth: usize| {
        let mut call = "{}".to_owned();
        for _ in 0..depth {
            call = format!(r#"{{"inner": {call}}}"#);
        }
        call
    };
    assert_eq!(path_of::<Nested>(&call(8)), Path::Clean);
    assert_eq!(path_of::<Nested>(&call(40)), Path::Left);
}

#[test]
fn other_options_and_parsed_values_take_the_full_path() {
    let call = action_args::clean(2);
    let text = Options::default().entities(EntityMode::Text);
    let deeper = Options::default().max_depth(8);
    for options in [text, deeper] {
        let (_, path) = read::<ActionArgs>(call.as_str().into(), &options);
        assert_eq!(path, Some(Path::Never));
    }
    let value: serde_json::Value = serde_json::from_str(&call).unwrap();
    let (result, path) = read::<ActionArgs>(value.into(), &Options::default());
    assert!(result.is_ok());
    assert_eq!(path, None, "a parsed value is never tried");
}

// Types whose calls always take the full path, one per condition.

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Flattens {
    name: String,
    #[serde(flatten)]
    page: Page,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Page {
    offset: u32,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(untagged)]
enum Either {
    Number(u32),
    Text(String),
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Untagged {
    either: Either,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "kind")]
enum Shape {
    Circle { radius: f64 },
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Internal {
    shape: Shape,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "kind", content = "value")]
enum Tagged {
    Count(u32),
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Adjacent {
    tagged: Tagged,
}

fn read_upper<'de, D: serde::Deserializer<'de>>(de: D) -> Result<String, D::Error> {
    String::deserialize(de).map(|s| s.to_uppercase())
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct With {
    #[serde(deserialize_with = "read_upper")]
    name: String,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Meters(f64);

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct WithoutDerive {
    length: Meters,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Wide {
    big: u128,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Set {
    ids: BTreeSet<u32>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct IntegerKeys {
    counts: HashMap<u32, String>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Ranged {
    #[schemars(range(min = 1, max = 10))]
    level: u8,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Patterned {
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    name: String,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Lengthy {
    #[schemars(length(min = 1))]
    tags: Vec<String>,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Mapped {
    scores: BTreeMap<String, u8>,
}

#[test]
fn each_fallback_condition_keeps_its_types_on_the_full_path() {
    fn never<T: ToolArgs + PartialEq + Debug>(call: &str, why: impl Fn(&Fallback) -> bool) {
        let fallback = fallback_of::<T>().expect_err(std::any::type_name::<T>());
        assert!(
            why(&fallback),
            "{}: {fallback:?}",
            std::any::type_name::<T>()
        );
        assert_eq!(path_of::<T>(call), Path::Never, "{call}");
    }
    let keyword = |name: &'static str| move |f: &Fallback| *f == Fallback::Keyword(name.into());
    never::<Flattens>(r#"{"name": "a", "offset": 1}"#, |f| *f == Fallback::Flatten);
    never::<Untagged>(r#"{"either": 1}"#, |f| {
        *f == Fallback::Opaque("Untagged.either".into())
    });
    never::<Internal>(r#"{"shape": {"kind": "Circle", "radius": 1}}"#, |f| {
        *f == Fallback::BufferedEnum
    });
    never::<Adjacent>(r#"{"tagged": {"kind": "Count", "value": 1}}"#, |f| {
        *f == Fallback::BufferedEnum
    });
    never::<With>(r#"{"name": "a"}"#, |f| {
        *f == Fallback::Opaque("With.name".into())
    });
    never::<WithoutDerive>(r#"{"length": 1.5}"#, |f| {
        *f == Fallback::Opaque("WithoutDerive.length".into())
    });
    never::<Wide>(r#"{"big": 1}"#, |f| *f == Fallback::WideInteger);
    never::<Set>(r#"{"ids": [1, 1]}"#, keyword("uniqueItems"));
    never::<IntegerKeys>(r#"{"counts": {"1": "a", "01": "b"}}"#, |f| {
        matches!(f, Fallback::Keyword(_))
    });
    never::<Ranged>(r#"{"level": 11}"#, keyword("minimum"));
    never::<Patterned>(r#"{"name": "A"}"#, keyword("pattern"));
    never::<Lengthy>(r#"{"tags": []}"#, keyword("minItems"));
    // A map of integers bounded by their type stays eligible.
    assert_eq!(fallback_of::<Mapped>(), Ok(()));
    assert_eq!(path_of::<Mapped>(r#"{"scores": {"a": 1}}"#), Path::Clean);
    assert_eq!(path_of::<Mapped>(r#"{"scores": {"a": 256}}"#), Path::Left);
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Free {
    data: serde_json::Value,
    extra: serde_json::Map<String, serde_json::Value>,
}

#[test]
fn free_form_values_are_read_clean_as_the_full_path_reads_them() {
    assert_eq!(fallback_of::<Free>(), Ok(()));
    for call in [
        r#"{"data": {"a": 1, "b": [2.5, null], "a": 3}, "extra": {"z": 1, "y": 2, "z": {}}}"#,
        r#"{"data": "text", "extra": {}}"#,
        r#"{"data": [1, "two", {"three": 3}], "extra": {"k": "AT&T"}}"#,
    ] {
        assert_eq!(path_of::<Free>(call), Path::Clean, "{call}");
    }
    for call in [
        r#"{"data": {"a": "&lt;"}, "extra": {}}"#,
        r#"{"data": "[1]", "extra": {}}"#,
        r#"{"data": 1, "extra": []}"#,
    ] {
        assert_eq!(path_of::<Free>(call), Path::Left, "{call}");
    }
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Reshaped {
    /// serde reads any value; the schema says an array of strings.
    #[schemars(with = "Vec<String>")]
    labels: serde_json::Value,
}

#[test]
fn a_field_whose_schema_comes_from_elsewhere_keeps_its_type_on_the_full_path() {
    // serde takes `5` into a `Value`; the schema the model is shown, and
    // validated against, refuses it.
    let fallback = fallback_of::<Reshaped>().expect_err("never eligible");
    assert_eq!(fallback, Fallback::Opaque("Reshaped.labels".into()));
    assert_eq!(path_of::<Reshaped>(r#"{"labels": 5}"#), Path::Never);
    assert!(Reshaped::from_model(r#"{"labels": 5}"#).is_err());
    assert!(Reshaped::from_model(r#"{"labels": ["a"]}"#).is_ok());
}

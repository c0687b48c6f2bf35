//! Compile-only: the derive's output names nothing through the user's
//! scope. `Result`, `Option`, `String`, `Ok`, `Some`, `Value`, `Box` and
//! `Vec` are shadowed here (and a local `__private` module), and warnings
//! are errors.
#![deny(warnings)]
#![allow(non_camel_case_types, non_snake_case, dead_code)]

use ::schemars::JsonSchema as __JsonSchemaDerive;
use ::serde::Deserialize as __DeserializeDerive;

type Result = ();
type Option = ();
struct String;
struct Value;
struct Vec;
struct Box;
fn Ok() {}
fn Some() {}
fn Err() {}
fn None() {}
mod __private {}
mod toolargs_core {}

#[derive(__DeserializeDerive, __JsonSchemaDerive, ::toolargs::ToolArgs)]
struct Hygienic {
    name: std::string::String,
    tags: std::vec::Vec<std::string::String>,
    nested: core::option::Option<Nested>,
    pair: (u32, std::vec::Vec<Nested>),
    foreign: Mode,
}

#[derive(__DeserializeDerive, __JsonSchemaDerive, ::toolargs::ToolArgs)]
struct Nested {
    #[serde(alias = "v")]
    values: std::collections::BTreeMap<std::string::String, f64>,
}

#[derive(__DeserializeDerive, __JsonSchemaDerive)]
enum Mode {
    Fast,
    Slow,
}

#[derive(__DeserializeDerive, __JsonSchemaDerive, ::toolargs::ToolArgs)]
#[serde(tag = "kind")]
enum Tagged {
    A { x: u32 },
    B,
}

#[derive(__DeserializeDerive, __JsonSchemaDerive, ::toolargs::ToolArgs)]
struct Generic<T> {
    items: std::vec::Vec<T>,
}

#[test]
fn compiles() {
    fn is_tool_args<T: ::toolargs::ToolArgs>() {}
    is_tool_args::<Hygienic>();
    is_tool_args::<Tagged>();
    is_tool_args::<Generic<Nested>>();
}

/// Field types captured by a `macro_rules!` fragment carry that macro's
/// hygiene; the generated locals must still resolve.
macro_rules! tool_with_field {
    ($name:ident, $t:ty) => {
        #[derive(serde::Deserialize, schemars::JsonSchema, toolargs::ToolArgs)]
        pub struct $name {
            pub items: $t,
            pub nested: ::std::vec::Vec<$t>,
        }
    };
}

tool_with_field!(FromMacro, ::std::vec::Vec<::std::string::String>);

#[test]
fn types_from_macro_fragments_expand() {
    let parsed = <FromMacro as toolargs::ToolArgs>::from_model(
        r#"{"items": "[\"a\"]", "nested": [["&amp;"]]}"#,
    )
    .unwrap();
    assert_eq!(parsed.value.items, ["a"]);
    assert_eq!(parsed.value.nested, [["&"]]);
}

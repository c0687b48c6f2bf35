//! The repros of the issue "One exact contract", one named test each. Each
//! states the correct behaviour: closed all the way down, serde's names and
//! aliases accepted, diagnostics at the pointer that broke.
#![allow(dead_code)]

#[path = "support/same_json.rs"]
mod same_json;

use same_json::same_json;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use toolargs::call::{ReadCalls, read};
use toolargs::rejection::{CallError, Rejection};
use toolargs::toolbox::Toolbox;
use toolargs::{ArgsError, ToolArgs};

// ---- helpers ----

/// The pointers of an `Invalid` rejection, in order.
fn invalid_pointers<T: ToolArgs + std::fmt::Debug>(args: Value) -> Vec<String> {
    match T::from_model(args.clone()) {
        Err(ArgsError::Invalid(violations)) => {
            violations.iter().map(|v| v.pointer.clone()).collect()
        }
        Err(other) => panic!("{args}: expected Invalid, got {other:?}"),
        Ok(parsed) => panic!("{args}: expected Invalid, accepted as {:?}", parsed.value),
    }
}

/// `args` is rejected with exactly one violation, at `pointer`.
#[track_caller]
fn rejected_only_at<T: ToolArgs + std::fmt::Debug>(args: Value, pointer: &str) {
    assert_eq!(invalid_pointers::<T>(args.clone()), [pointer], "{args}");
}

#[track_caller]
fn accepted<T: ToolArgs + std::fmt::Debug>(args: Value) -> T {
    match T::from_model(args.clone()) {
        Ok(parsed) => parsed.value,
        Err(error) => panic!("{args}: rejected: {error}"),
    }
}

/// Accepted as serde reads it (an alias, or a `None` left out, does not
/// write back as sent: the readings are compared).
#[track_caller]
fn same<T>(args: Value)
where
    T: ToolArgs + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let read: T = serde_json::from_value(args.clone()).unwrap();
    assert_eq!(accepted::<T>(args), read);
}

/// The contract on one input: where serde's reading writes back the JSON
/// that was sent (numbers by value), `from_model` returns that reading;
/// where it does not (serde would hand the tool less, or another variant),
/// `from_model` rejects it as invalid. What broke it, if it did.
fn as_serde_reads<T>(args: Value) -> Result<(), String>
where
    T: ToolArgs + Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let read: T =
        serde_json::from_value(args.clone()).map_err(|e| format!("{args}: serde: {e}"))?;
    let lossless = same_json(&serde_json::to_value(&read).unwrap(), &args);
    match (T::from_model(args.clone()), lossless) {
        (Ok(parsed), true) if parsed.value == read => Ok(()),
        (Err(ArgsError::Invalid(_)), false) => Ok(()),
        (Ok(parsed), true) => Err(format!(
            "{args}: returned {:?}, serde reads {read:?}",
            parsed.value
        )),
        (Ok(parsed), false) => Err(format!(
            "{args}: accepted as {:?}, which serde writes back otherwise",
            parsed.value
        )),
        (Err(error), true) => Err(format!(
            "{args}: rejected ({error}), though serde reads {read:?} losslessly"
        )),
        (Err(error), false) => Err(format!("{args}: rejected, but not as invalid: {error:?}")),
    }
}

// ---- shared types ----

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct Filter {
    since: Option<String>,
}

// ---- closing misses ----

#[derive(Debug, Deserialize, JsonSchema)]
struct Shard {
    name: String,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Shards {
    shards: BTreeMap<u32, Shard>,
}

#[test]
fn map_with_number_keys_closes_its_struct_values() {
    accepted::<Shards>(json!({"shards": {"1": {"name": "a"}}}));
    rejected_only_at::<Shards>(
        json!({"shards": {"1": {"name": "a", "zz": 1}}}),
        "/shards/1/zz",
    );
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Target {
    host: String,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Targets {
    targets: Box<[Target]>,
}

#[test]
fn boxed_slice_closes_its_items() {
    accepted::<Targets>(json!({"targets": [{"host": "a"}]}));
    rejected_only_at::<Targets>(
        json!({"targets": [{"host": "a", "zz": 1}]}),
        "/targets/0/zz",
    );
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Page<T> {
    items: Vec<T>,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Search {
    page: Page<Filter>,
}

#[test]
fn generic_root_closes_its_type_argument() {
    accepted::<Page<Filter>>(json!({"items": [{"since": "x"}]}));
    rejected_only_at::<Page<Filter>>(json!({"items": [{"since": "x", "zz": 1}]}), "/items/0/zz");
}

#[test]
fn generic_field_of_a_plain_parent_closes_its_type_argument() {
    accepted::<Search>(json!({"page": {"items": [{"since": "x"}]}}));
    rejected_only_at::<Search>(
        json!({"page": {"items": [{"since": "x", "zz": 1}]}}),
        "/page/items/0/zz",
    );
    rejected_only_at::<Search>(json!({"page": {"items": [], "zz": 1}}), "/page/zz");
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Envelope<T> {
    id: String,
    #[serde(flatten)]
    body: T,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Query {
    query: String,
}

#[test]
fn flattened_generic_body_is_closed_where_used() {
    accepted::<Envelope<Query>>(json!({"id": "1", "query": "x"}));
    rejected_only_at::<Envelope<Query>>(json!({"id": "1", "query": "x", "zz": 1}), "/zz");
}

#[derive(Debug, Deserialize, JsonSchema)]
struct EmailOpts {
    address: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
enum Via {
    Email { opts: EmailOpts },
    Sms { number: String },
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Notify {
    to: String,
    #[serde(flatten)]
    via: Via,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "channel")]
enum TaggedVia {
    Email { opts: EmailOpts },
    Sms { number: String },
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct TaggedNotify {
    to: String,
    #[serde(flatten)]
    via: TaggedVia,
}

#[test]
fn flattened_enum_closes_the_structs_in_its_variants() {
    accepted::<Notify>(json!({"to": "x", "Email": {"opts": {"address": "a"}}}));
    rejected_only_at::<Notify>(
        json!({"to": "x", "Email": {"opts": {"address": "a", "zz": 1}}}),
        "/Email/opts/zz",
    );
    accepted::<TaggedNotify>(json!({"to": "x", "channel": "Email", "opts": {"address": "a"}}));
    rejected_only_at::<TaggedNotify>(
        json!({"to": "x", "channel": "Email", "opts": {"address": "a", "zz": 1}}),
        "/opts/zz",
    );
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
struct Wrapped {
    inner: Filter,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
#[serde(transparent)]
#[schemars(inline)]
struct InlineWrapped {
    inner: Filter,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct HoldsWrapped {
    w: Wrapped,
    i: InlineWrapped,
}

#[test]
fn transparent_without_doc_comment_stays_closed() {
    accepted::<Wrapped>(json!({"since": "x"}));
    rejected_only_at::<Wrapped>(json!({"since": "x", "zz": 1}), "/zz");
    rejected_only_at::<HoldsWrapped>(json!({"w": {"zz": 1}, "i": {}}), "/w/zz");
}

#[test]
fn transparent_schemars_inline_stays_closed() {
    accepted::<InlineWrapped>(json!({"since": "x"}));
    rejected_only_at::<InlineWrapped>(json!({"since": "x", "zz": 1}), "/zz");
    rejected_only_at::<HoldsWrapped>(json!({"w": {}, "i": {"zz": 1}}), "/i/zz");
}

mod a {
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    pub struct Filter {
        pub since: Option<String>,
    }
}

mod b {
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    pub struct Filter {
        pub until: Option<u32>,
    }
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Clash {
    a: a::Filter,
    b: b::Filter,
}

#[test]
fn same_named_types_from_two_modules_are_both_closed() {
    accepted::<Clash>(json!({"a": {"since": "x"}, "b": {"until": 1}}));
    let pointers = invalid_pointers::<Clash>(json!({"a": {"zz": 1}, "b": {"zz": 1}}));
    assert_eq!(pointers, ["/a/zz", "/b/zz"]);
    // Each keeps its own members: `until` is not a member of `a::Filter`.
    rejected_only_at::<Clash>(json!({"a": {"until": 1}, "b": {}}), "/a/until");
}

mod nested {
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    pub struct Shipment {
        pub sku: String,
    }
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Shipment {
    item: nested::Shipment,
    note: Option<String>,
}

#[test]
fn nested_type_named_like_the_root_is_closed() {
    accepted::<Shipment>(json!({"item": {"sku": "x"}}));
    rejected_only_at::<Shipment>(json!({"item": {"sku": "x", "zz": 1}}), "/item/zz");
    rejected_only_at::<Shipment>(json!({"item": {"sku": "x", "note": "n"}}), "/item/note");
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct AliasedPage<T> {
    #[serde(alias = "results")]
    items: Vec<T>,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct TwoPages {
    ids: AliasedPage<u32>,
    names: AliasedPage<String>,
}

#[test]
fn two_instantiations_of_one_generic_with_an_alias() {
    let pages = accepted::<TwoPages>(json!({"ids": {"results": [1]}, "names": {"items": ["a"]}}));
    assert_eq!(
        (pages.ids.items, pages.names.items),
        (vec![1], vec!["a".to_owned()])
    );
    accepted::<TwoPages>(json!({"ids": {"items": [1]}, "names": {"results": ["a"]}}));
    rejected_only_at::<TwoPages>(
        json!({"ids": {"items": [1]}, "names": {"items": [], "zz": 1}}),
        "/names/zz",
    );
    rejected_only_at::<TwoPages>(
        json!({"ids": {"items": ["1"]}, "names": {"items": []}}),
        "/ids/items/0",
    );
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Customer {
    name: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Order {
    customer: Customer,
}

#[test]
fn nested_struct_deriving_only_deserialize_is_closed() {
    accepted::<Order>(json!({"customer": {"name": "a"}}));
    rejected_only_at::<Order>(json!({"customer": {"vip": true}}), "/customer/vip");
}

#[test]
fn nested_struct_deriving_only_deserialize_is_closed_in_a_toolbox() {
    let mut tools = Toolbox::new();
    tools
        .tool_sync("order", "Place an order.", |order: Order| {
            Ok::<_, String>(format!("{:?}", order.customer.name))
        })
        .unwrap();
    let call = read(r#"{"name": "order", "arguments": {"customer": {"vip": true}}}"#)
        .and_then(ReadCalls::into_calls)
        .unwrap()
        .remove(0);
    let error = tools.call_blocking(&(), call).unwrap_err();
    let CallError::Rejected(Rejection::InvalidArguments(invalid)) = &error else {
        panic!("expected invalid arguments, got {error:?}");
    };
    let pointers: Vec<&str> = invalid
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(pointers, ["/customer/vip"], "{}", error.model_message());
}

// ---- serde's names and representations accepted ----

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
struct SearchArgs {
    query: String,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "type")]
enum Cmd {
    Search(SearchArgs),
}

#[test]
fn internally_tagged_newtype_variant_is_accepted() {
    let cmd = accepted::<Cmd>(json!({"type": "Search", "query": "x"}));
    assert_eq!(cmd, Cmd::Search(SearchArgs { query: "x".into() }));
    rejected_only_at::<Cmd>(json!({"type": "Search", "query": "x", "zz": 1}), "/zz");
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Lookup {
    #[serde(alias = "q")]
    query: String,
}

#[test]
fn alias_of_a_required_field_is_accepted() {
    assert_eq!(accepted::<Lookup>(json!({"q": "oak"})).query, "oak");
    assert_eq!(accepted::<Lookup>(json!({"query": "oak"})).query, "oak");
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
enum Action {
    Tag {
        #[serde(alias = "labels")]
        tags: Vec<String>,
    },
    Archive {
        id: u32,
    },
}

#[test]
fn alias_inside_an_enum_struct_variant_is_accepted() {
    let Action::Tag { tags } = accepted::<Action>(json!({"Tag": {"labels": ["a"]}})) else {
        panic!("expected Tag");
    };
    assert_eq!(tags, ["a"]);
    // and repaired under the alias
    let Action::Tag { tags } = accepted::<Action>(json!({"Tag": {"labels": "[\"a &amp; b\"]"}}))
    else {
        panic!("expected Tag");
    };
    assert_eq!(tags, ["a & b"]);
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Terms {
    #[serde(alias = "q")]
    query: String,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct FlatSearch {
    limit: u32,
    #[serde(flatten)]
    terms: Terms,
}

#[test]
fn alias_inside_a_flattened_struct_is_accepted() {
    assert_eq!(
        accepted::<FlatSearch>(json!({"limit": 1, "q": "oak"}))
            .terms
            .query,
        "oak"
    );
    assert_eq!(
        accepted::<FlatSearch>(json!({"limit": 1, "query": "oak"}))
            .terms
            .query,
        "oak"
    );
}

#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

#[derive(serde::Serialize, Deserialize, JsonSchema)]
#[serde(remote = "Span")]
pub struct SpanDef {
    pub start: u32,
    pub end: u32,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Highlight {
    #[serde(with = "SpanDef")]
    span: Span,
    tags: Vec<String>,
}

#[test]
fn serde_with_a_type_is_accepted_and_normalized_like_the_schema() {
    let parsed =
        Highlight::from_model(json!({"span": {"start": 1, "end": 2}, "tags": "[\"a\"]"})).unwrap();
    assert_eq!(parsed.value.span, Span { start: 1, end: 2 });
    assert_eq!(parsed.value.tags, ["a"]);
    rejected_only_at::<Highlight>(
        json!({"span": {"start": 1, "end": 2, "zz": 1}, "tags": []}),
        "/span/zz",
    );
    toolargs::testing::assert_normalizer_matches_schema::<Highlight>();
}

// ---- diagnostics ----

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
enum Outreach {
    SendEmail { to: String, subject: String },
    SendSms { number: String },
}

#[test]
fn missing_field_in_an_externally_tagged_variant_is_reported_inside_it() {
    rejected_only_at::<Outreach>(json!({"SendEmail": {"to": "a@x"}}), "/SendEmail/subject");
}

#[test]
fn wrong_type_in_a_flattened_internally_tagged_enum_is_reported_alone() {
    rejected_only_at::<TaggedNotify>(
        json!({"to": "x", "channel": "Email", "opts": {"address": 5}}),
        "/opts/address",
    );
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct NoArgs {}

#[test]
fn unknown_fields_of_an_empty_struct_are_reported_each() {
    accepted::<NoArgs>(json!({}));
    assert_eq!(
        invalid_pointers::<NoArgs>(json!({"a": 1, "b": 2})),
        ["/a", "/b"]
    );
}

fn host<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let host = String::deserialize(deserializer)?;
    if host.contains(' ') {
        Err(serde::de::Error::custom(format!(
            "`{host}` is not a host name"
        )))
    } else {
        Ok(host)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
enum Endpoint {
    Host {
        #[serde(deserialize_with = "host")]
        #[schemars(with = "String")]
        addr: String,
    },
    Socket {
        path: String,
    },
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Connect {
    target: Endpoint,
}

#[test]
fn deserialize_error_inside_an_externally_tagged_variant_keeps_the_variant_key() {
    accepted::<Connect>(json!({"target": {"Host": {"addr": "example.org"}}}));
    match Connect::from_model(json!({"target": {"Host": {"addr": "not a host"}}})) {
        Err(ArgsError::Deserialize { pointer, message }) => {
            assert_eq!(pointer, "/target/Host/addr", "{message}");
            assert!(message.contains("is not a host name"), "{message}");
        }
        other => panic!("expected a deserialize error, got {other:?}"),
    }
}

// ---- tags are string leaves too ----

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "type")]
enum Markup {
    #[serde(rename = "<b>")]
    Bold { text: String },
    #[serde(rename = "<i>")]
    Italic { text: String },
}

/// RT-TOOL-8 decodes character references in every string leaf, and a tag
/// is one: an escaped tag is decoded, reported, and selects its variant.
#[test]
fn an_escaped_tag_is_decoded_like_any_string_leaf() {
    let parsed = Markup::from_model(json!({"type": "&lt;i&gt;", "text": "x"})).unwrap();
    assert_eq!(parsed.value, Markup::Italic { text: "x".into() });
    let pointers: Vec<String> = parsed
        .report
        .repairs
        .iter()
        .map(|r| r.pointer.to_string())
        .collect();
    assert_eq!(pointers, ["/type"]);
}

/// schemars does not see serde's aliases, so a type that derives only
/// `JsonSchema` declared none: an alias there was an undeclared field,
/// rejected at its pointer. They are now learned from the type's own
/// `Deserialize` (see `an_alias_of_a_type_that_derives_only_json_schema`),
/// and an alias is read as serde reads it; a name serde does not read is
/// still rejected at its pointer.
#[derive(Debug, Deserialize, JsonSchema)]
struct BareTerms {
    #[serde(alias = "q")]
    query: String,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct BareSearch {
    terms: BareTerms,
}

#[test]
fn alias_in_a_type_deriving_only_json_schema_is_read_as_serde_reads_it() {
    assert_eq!(
        accepted::<BareSearch>(json!({"terms": {"q": "oak"}}))
            .terms
            .query,
        "oak"
    );
    assert_eq!(
        invalid_pointers::<BareSearch>(json!({"terms": {"qq": "oak"}})),
        ["/terms/qq", "/terms/query"]
    );
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Tracked {
    keep: u32,
    #[serde(skip_deserializing)]
    seen: u32,
}

#[test]
fn a_field_skipped_when_deserializing_is_not_part_of_the_input() {
    rejected_only_at::<Tracked>(json!({"keep": 1, "seen": 2}), "/seen");
    assert_eq!(accepted::<Tracked>(json!({"keep": 1})).seen, 0);
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Opts {
    address: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
enum ViaKey {
    Email { opts: Opts },
    Sms { number: String },
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct NotifyByKey {
    to: String,
    #[serde(flatten)]
    via: ViaKey,
}

#[test]
fn json_text_inside_a_flattened_externally_tagged_enum_is_decoded() {
    let inner = r#"{"to":"x","Email":{"opts":"{\"address\":\"a&amp;b\"}"}}"#;
    for text in [inner.to_owned(), serde_json::to_string(inner).unwrap()] {
        let parsed = NotifyByKey::from_model(text.as_str()).unwrap();
        let ViaKey::Email { opts } = parsed.value.via else {
            panic!("expected Email")
        };
        assert_eq!(opts.address, "a&b");
    }
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "type")]
enum Tagged {
    Search { query: String },
    Stop,
}

#[test]
fn a_wrong_tag_is_reported_at_the_tag() {
    for tag in [json!(true), json!("Nope"), json!(null)] {
        rejected_only_at::<Tagged>(json!({"type": tag, "query": "x"}), "/type");
    }
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Sized {
    small: u8,
    count: u32,
    offset: i16,
}

#[test]
fn integers_out_of_their_type_range_are_rejected_by_the_schema() {
    rejected_only_at::<Sized>(json!({"small": 256, "count": 1, "offset": 0}), "/small");
    rejected_only_at::<Sized>(
        json!({"small": 1, "count": 4_294_967_296u64, "offset": 0}),
        "/count",
    );
    rejected_only_at::<Sized>(
        json!({"small": 1, "count": 1, "offset": -32_769}),
        "/offset",
    );
    let ok = accepted::<Sized>(json!({"small": 255, "count": 4_294_967_295u64, "offset": -32_768}));
    assert_eq!((ok.small, ok.count, ok.offset), (255, u32::MAX, i16::MIN));
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Reach {
    Start { from: u32 },
    Both { from: u32, to: u32 },
    Wide { from: u32, to: u32, step: u32 },
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Walk {
    reach: Reach,
}

/// serde reads every `Both` and `Wide` as `Start` (it ignores `to` and
/// `step`); the closed schema took them as the later branches, so the tool
/// got `Start { from: 1 }` and `to` was gone without a word.
#[test]
fn an_untagged_variant_serde_reads_as_an_earlier_one_is_rejected_at_what_it_drops() {
    assert_eq!(
        accepted::<Walk>(json!({"reach": {"from": 1}})).reach,
        Reach::Start { from: 1 }
    );
    rejected_only_at::<Walk>(json!({"reach": {"from": 1, "to": 2}}), "/reach/to");
    assert_eq!(
        invalid_pointers::<Walk>(json!({"reach": {"from": 1, "to": 2, "step": 3}})),
        ["/reach/to", "/reach/step"]
    );
    // What the model is shown says it too.
    let schema = Walk::input_schema();
    let both = &schema["$defs"]["Reach"]["anyOf"][1];
    assert_eq!(both["not"]["anyOf"][0]["required"], json!(["from"]));
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Range {
    from: u32,
    to: u32,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Pick {
    Range(Range),
    List(Vec<u32>),
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Choose {
    pick: Pick,
}

/// serde reads a struct from an array of its fields too: `[3, 5]` became
/// `Range { from: 3, to: 5 }` though the schema took it as a `List`.
#[test]
fn a_list_serde_reads_as_an_earlier_struct_variant_is_rejected() {
    match Choose::from_model(json!({"pick": [3, 5]})) {
        Err(ArgsError::Invalid(violations)) => {
            assert_eq!(violations.len(), 1, "{violations}");
            let violation = &violations.0[0];
            assert_eq!(
                (violation.pointer.as_str(), violation.keyword.as_str()),
                ("/pick", "not")
            );
            assert!(
                violation.message.contains("earlier variant (Range)"),
                "{}",
                violation.message
            );
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
    for list in [json!([3]), json!([3, 5, 7]), json!([])] {
        let Pick::List(items) = accepted::<Choose>(json!({ "pick": list.clone() })).pick else {
            panic!("{list} is not read as a list");
        };
        assert_eq!(json!(items), list);
    }
    assert_eq!(
        accepted::<Choose>(json!({"pick": {"from": 3, "to": 5}})).pick,
        Pick::Range(Range { from: 3, to: 5 })
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Labels {
    Set {
        tags: std::collections::BTreeSet<String>,
    },
    Counted {
        tags: Vec<String>,
        extra: u32,
    },
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
enum Color {
    Red,
    Green,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
enum Shape2 {
    Span { a: u32, b: u32 },
    Dot(u32),
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Empty {}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Mode {
    Named(Color),
    Custom(BTreeMap<String, Value>),
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Drawn {
    Shape(Shape2),
    Table(BTreeMap<String, Vec<u32>>),
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Maybe {
    Nothing(Empty),
    Numbers(Vec<u32>),
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Readings {
    labels: Option<Labels>,
    mode: Option<Mode>,
    drawn: Option<Drawn>,
    maybe: Option<Maybe>,
}

/// Inside an untagged enum serde reads more than schemars writes: a set
/// from an array with repeats, an externally tagged unit variant from
/// `{"Red": null}` and a struct variant from an array of its fields, an
/// empty struct from `[]`. Each reading now includes that form, so the
/// later branch refuses what serde would read as the earlier one.
#[test]
fn what_serde_reads_beyond_the_schema_inside_an_untagged_enum_is_refused() {
    let cases = [
        (
            json!({"labels": {"tags": ["a", "a"], "extra": 1}}),
            "/labels",
        ),
        (json!({"mode": {"Red": null}}), "/mode"),
        (json!({"drawn": {"Span": [1, 2]}}), "/drawn"),
        (json!({"maybe": []}), "/maybe"),
    ];
    for (args, union) in cases {
        let pointers = invalid_pointers::<Readings>(args.clone());
        assert!(
            pointers.iter().all(|p| p.starts_with(union)),
            "{args}: {pointers:?}"
        );
    }
    // What serde reads as the later variant is still accepted (and a set
    // without repeats as the set).
    let ok = accepted::<Readings>(json!({
        "labels": {"tags": ["a", "b"]},
        "mode": {"Blue": 1},
        "drawn": {"Span": [1]},
        "maybe": [1]
    }));
    assert!(matches!(ok.labels, Some(Labels::Set { .. })));
    assert!(matches!(ok.mode, Some(Mode::Custom(_))));
    assert!(matches!(ok.drawn, Some(Drawn::Table(_))));
    assert_eq!(ok.maybe, Some(Maybe::Numbers(vec![1])));
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Bound {
    Exact { value: u32 },
    Approx { value: f64, tolerance: f64 },
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Measure {
    bound: Bound,
}

/// JSON Schema calls `2.0` an integer; serde's `u32` refuses it, so serde
/// reads `{"value": 2.0, "tolerance": 0.5}` as `Approx`, and so must we.
#[test]
fn a_float_written_with_a_fraction_is_not_read_as_an_earlier_integer_variant() {
    assert_eq!(
        accepted::<Measure>(json!({"bound": {"value": 2.0, "tolerance": 0.5}})).bound,
        Bound::Approx {
            value: 2.0,
            tolerance: 0.5
        }
    );
    rejected_only_at::<Measure>(
        json!({"bound": {"value": 2, "tolerance": 0.5}}),
        "/bound/tolerance",
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "t")]
enum Inner {
    Go { x: u32 },
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Num(u32),
    Off,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Command {
    Inner(Inner),
    Adjacent(Adjacent),
    Words(Vec<String>),
    Pair((String, u32)),
    Loose(BTreeMap<String, Value>),
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Run {
    command: Command,
}

/// serde reads a tagged enum from `[tag, ...]` too, and its tag as the
/// variant's index: inside an untagged enum these took later variants'
/// values (`["Stop"]` as words, `["Num", 5]` as a pair).
#[test]
fn a_tagged_enum_reads_its_array_and_index_forms_inside_an_untagged_enum() {
    for args in [
        json!(["Stop"]),
        json!(["Num", 5]),
        json!({"t": 0, "x": 3}),
        json!({"t": 1}),
    ] {
        let read = serde_json::from_value::<Command>(args.clone()).unwrap();
        assert!(
            matches!(read, Command::Inner(_) | Command::Adjacent(_)),
            "{read:?}"
        );
        let pointers = invalid_pointers::<Run>(json!({ "command": args.clone() }));
        assert!(
            pointers.iter().all(|p| p.starts_with("/command")),
            "{args}: {pointers:?}"
        );
    }
    // What no earlier variant reads stays the later one's.
    let words = accepted::<Run>(json!({"command": ["Go", "x"]})).command;
    assert_eq!(words, Command::Words(vec!["Go".into(), "x".into()]));
    let pair = accepted::<Run>(json!({"command": ["Zed", 3]})).command;
    assert!(matches!(pair, Command::Pair(_)), "{pair:?}");
    // serde reads `["Go", 3]` as `Go { x: 3 }`: refused as a pair.
    assert_eq!(
        serde_json::from_value::<Command>(json!(["Go", 3])).unwrap(),
        Command::Inner(Inner::Go { x: 3 })
    );
    invalid_pointers::<Run>(json!({"command": ["Go", 3]}));
    let loose = accepted::<Run>(json!({"command": {"t": 7}})).command;
    assert!(matches!(loose, Command::Loose(_)), "{loose:?}");
}

#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Sparse {
    a: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    more: Vec<u32>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Nothing {}

#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", deny_unknown_fields)]
enum Closed {
    A { x: u32 },
    U,
}

#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Adj {
    U,
    N(u32),
    O(Option<u32>),
}

#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t")]
enum Internal {
    A { x: u32 },
    U,
}

/// `$name { u: one of [$variant, a list, a map] }`: each reading alone in
/// front of what takes any array or object.
macro_rules! first_of_three {
    ($($name:ident, $either:ident: $variant:ident;)*) => {$(
        #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(untagged)]
        enum $either {
            First($variant),
            List(Vec<Value>),
            Map(BTreeMap<String, Value>),
        }

        #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
        struct $name {
            u: $either,
        }
    )*};
}

first_of_three! {
    HoldsSparse, EitherSparse: Sparse;
    HoldsNothing, EitherNothing: Nothing;
    HoldsClosed, EitherClosed: Closed;
    HoldsAdj, EitherAdj: Adj;
    HoldsInternal, EitherInternal: Internal;
}

/// What the second adversarial review found, each checked against serde's
/// own reading: lossless readings accepted as serde reads them, lossy ones
/// refused.
#[test]
fn readings_follow_serde_on_defaults_empty_structs_and_tagged_forms() {
    let mut broken = Vec::new();
    for u in [
        // A field with a default serde does not write back is not needed in
        // an array.
        json!([1]),
        json!([1, [2]]),
        // An empty struct that denies unknown fields, from `[]`.
        json!([]),
        // An internally tagged unit variant ignores other members, even
        // where the enum denies them.
        json!({"t": "U", "z": 1}),
        // Adjacently tagged: a tag index only in the array form, a unit
        // variant's content only `null`.
        json!({"t": 1, "c": 5}),
        json!([1, 5]),
        json!({"t": "U", "c": {}}),
        json!({"t": "U", "c": null}),
        // The arrays of a unit variant: `[tag]` internally tagged, `[tag,
        // null]` adjacently.
        json!(["U"]),
        json!(["U", null]),
        // A tag index written as a float is no index.
        json!({"t": 0.0, "x": 1}),
        json!({"t": 0, "x": 1}),
        json!([0.0, 1]),
    ] {
        let args = json!({ "u": u });
        broken.extend(
            [
                as_serde_reads::<HoldsSparse>(args.clone()),
                as_serde_reads::<HoldsNothing>(args.clone()),
                as_serde_reads::<HoldsClosed>(args.clone()),
                as_serde_reads::<HoldsAdj>(args.clone()),
                as_serde_reads::<HoldsInternal>(args),
            ]
            .into_iter()
            .filter_map(Result::err),
        );
    }
    // An adjacently tagged enum whose variants have one content member is
    // written like an internally tagged one whose variants have one field
    // of that name (`Adj`, and `Closed`/`Internal` with their one field
    // `x`), and the schema cannot tell them apart: the reading takes what
    // either reads. So six lossless inputs are refused (a tag index or an
    // object as a unit variant's content for `Adj`, `[tag]` for `Adj`,
    // `[tag, null]` for the other two), and nothing lossy is accepted:
    // where it cannot tell, a reading errs toward refusing.
    assert!(
        broken.iter().all(|b| b.contains("losslessly")),
        "{broken:#?}"
    );
    assert_eq!(broken.len(), 6, "{broken:#?}");
    // A missing `Option` content is that variant's `None` (serde writes
    // the `null` back, which `as_serde_reads` counts as a change): `Adj`
    // derives only `JsonSchema`, and its definition's shape shows it.
    let missing = json!({"u": {"t": "O"}});
    same::<HoldsAdj>(missing.clone());
    for result in [
        as_serde_reads::<HoldsSparse>(missing.clone()),
        as_serde_reads::<HoldsNothing>(missing.clone()),
        as_serde_reads::<HoldsClosed>(missing.clone()),
        as_serde_reads::<HoldsInternal>(missing),
    ] {
        assert_eq!(result, Ok(()));
    }
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(rename_all = "snake_case")]
enum Verb {
    #[serde(alias = "poke")]
    Ping,
    #[serde(alias = "store")]
    Archive(Vec<u32>),
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(tag = "kind")]
enum Kind {
    #[serde(alias = "bz")]
    Baz {
        y: u32,
    },
    Qux,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Acts {
    verb: Verb,
    kind: Kind,
}

/// serde reads a variant under its aliases too; the schema refused them,
/// though it counts field aliases. Now each alias is a branch of its own,
/// marked, which the strict form and the grammar leave out.
#[test]
fn a_variant_alias_is_accepted_and_shown_under_the_variant_name_only() {
    for (verb, kind) in [
        (json!("poke"), json!({"kind": "bz", "y": 1})),
        (json!({"store": [1]}), json!({"kind": "Baz", "y": 1})),
    ] {
        let args = json!({"verb": verb, "kind": kind});
        let serde: Acts = serde_json::from_value(args.clone()).unwrap();
        let ours = accepted::<Acts>(args);
        assert_eq!((ours.verb, ours.kind), (serde.verb, serde.kind));
    }
    rejected_only_at::<Acts>(json!({"verb": "pong", "kind": {"kind": "Qux"}}), "/verb");
    // Shown under the variant's name only; validated under every name.
    let shown = Acts::input_schema().to_string();
    assert!(
        !shown.contains("\"poke\"") && !shown.contains("\"bz\""),
        "{shown}"
    );
    let schema = Acts::validator().schema();
    let text = schema.to_string();
    assert!(
        text.contains("\"poke\"") && text.contains("\"bz\""),
        "{text}"
    );
    let strict = toolargs::export::StrictSchema::new(schema).unwrap();
    let shown = strict.schema().to_string();
    for alias in ["poke", "store", "bz"] {
        assert!(!shown.contains(&format!("\"{alias}\"")), "{alias}: {shown}");
    }
    let grammar = toolargs::grammar::Grammar::from_schema(schema).unwrap();
    let rules = format!("{grammar:?}");
    for alias in ["poke", "store", "bz"] {
        assert!(!rules.contains(alias), "{alias} in the grammar");
    }
    assert!(
        rules.contains("ping"),
        "the grammar names no variant: {rules:.200}"
    );
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
#[serde(untagged)]
enum KindOr {
    Kind(Kind),
    Map(BTreeMap<String, Value>),
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct HoldsKind {
    k: KindOr,
}

/// serde numbers the variants, not their aliases: `{"kind": 1}` is `Qux`,
/// `{"kind": 2, "y": 1}` no variant (the alias `bz` of `Baz` is no third
/// one), so the map.
#[test]
fn a_variant_alias_takes_no_index_of_its_own() {
    invalid_pointers::<HoldsKind>(json!({"k": {"kind": 1}}));
    let map = accepted::<HoldsKind>(json!({"k": {"kind": 2, "y": 1}})).k;
    assert!(matches!(map, KindOr::Map(_)), "{map:?}");
    assert!(matches!(
        serde_json::from_value::<KindOr>(json!({"kind": 2, "y": 1})).unwrap(),
        KindOr::Map(_)
    ));
    // The alias is declared (the enum is reached through `ToolArgs` types).
    assert!(HoldsKind::input_schema().to_string().contains("\"bz\""));
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(rename_all = "snake_case")]
enum Hue {
    #[serde(alias = "crimson", alias = "scarlet")]
    Red,
    Blue,
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
enum OneUnit {
    #[serde(alias = "u")]
    U,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Paint {
    color: Hue,
    one: OneUnit,
}

/// schemars writes an enum of unit variants as one string schema, with no
/// union to put an alias's branch in.
#[test]
fn an_alias_of_a_unit_only_enum_is_accepted() {
    let paint = accepted::<Paint>(json!({"color": "scarlet", "one": "u"}));
    assert_eq!((paint.color, paint.one), (Hue::Red, OneUnit::U));
    rejected_only_at::<Paint>(json!({"color": "green", "one": "U"}), "/color");
    let strict = toolargs::export::StrictSchema::new(Paint::input_schema()).unwrap();
    let shown = strict.schema().to_string();
    assert!(
        !shown.contains("scarlet") && !shown.contains("\"u\""),
        "{shown}"
    );
}

/// Enums whose alias is a later variant's name (rustc warns that the later
/// arm is unreachable, which is the point).
#[allow(unreachable_patterns)]
mod taken {
    use schemars::JsonSchema;
    use serde::Deserialize;
    use toolargs::ToolArgs;

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
    pub enum Clash {
        #[serde(alias = "B")]
        A(u32),
        B(String),
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    pub enum ClashInternal {
        #[serde(alias = "B")]
        A {
            a: u32,
        },
        B {
            b: String,
        },
        C,
    }

    #[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
    pub enum ClashUnits {
        #[serde(alias = "Off")]
        On,
        Off,
        Idle,
    }

    #[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
    pub struct Clashes {
        pub v: Clash,
        pub i: ClashInternal,
        pub u: ClashUnits,
    }
}

use taken::{Clash as AliasClash, ClashInternal, ClashUnits, Clashes};

/// serde gives a name to the first variant that has it: an earlier
/// variant's alias that is a later variant's name takes that name, and the
/// later variant is not read under it.
#[test]
fn an_alias_that_is_a_later_variants_name_belongs_to_the_earlier_variant() {
    let args = json!({"v": {"B": 5}, "i": {"t": "B", "a": 1}, "u": "Off"});
    let serde: Clashes = serde_json::from_value(args.clone()).unwrap();
    let ours = accepted::<Clashes>(args);
    assert_eq!((&ours.v, &ours.i, &ours.u), (&serde.v, &serde.i, &serde.u));
    assert_eq!(ours.v, AliasClash::A(5));
    assert_eq!(ours.u, ClashUnits::On);
    // The later variant's form under the name: serde refuses it, and so
    // does the schema (an invalid argument, not a failed deserialization).
    rejected_only_at::<Clashes>(
        json!({"v": {"B": "x"}, "i": {"t": "C"}, "u": "Idle"}),
        "/v/B",
    );
    invalid_pointers::<Clashes>(json!({"v": {"A": 1}, "i": {"t": "B", "b": "x"}, "u": "Idle"}));
    assert!(serde_json::from_value::<ClashInternal>(json!({"t": "B", "b": "x"})).is_err());
    // What a model is shown has no variant `B` or `Off` to choose.
    let strict = toolargs::export::StrictSchema::new(Clashes::input_schema()).unwrap();
    let shown = strict.schema().to_string();
    assert!(
        !shown.contains("\"Off\"") && !shown.contains("\"B\""),
        "{shown}"
    );
}

#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Nested {
    Left(Box<Nested>),
    Right(Box<Nested>),
    Leaf { x: u32 },
    Pair { x: u32, y: u32 },
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Tree {
    root: Nested,
}

/// Two branches that reach the same recursive definition: the walk that
/// asks which JSON types a branch takes went down every path (2^64 of
/// them), so building the schema never ended. Each definition is now
/// walked once. (serde itself recurses without end reading this type, so
/// only the schema is built here.)
#[test]
fn a_recursive_untagged_enum_with_two_recursive_branches_builds() {
    let started = std::time::Instant::now();
    let schema = Tree::input_schema();
    assert!(schema["$defs"]["Nested"]["anyOf"].is_array(), "{schema}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

// ---- a flattened `Option`: a whole value or nothing of it ----

mod flattened_option {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum Sort {
        Asc(u32),
        Desc(u32),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Range {
        pub lo: u32,
        pub hi: u32,
    }

    /// Derives only `JsonSchema`: the flattening struct's derive rewrites
    /// the field all the same.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Plain {
        pub from: u32,
        pub to: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "kind")]
    pub enum Filter {
        Tag { tag: String },
        Age { min: u32, max: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum By {
        Id { id: u32 },
        Name { name: String },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Query {
        pub q: String,
        #[serde(flatten)]
        pub sort: Option<Sort>,
        #[serde(flatten)]
        pub range: Option<Range>,
        #[serde(flatten)]
        pub plain: Option<Plain>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Tagged {
        pub q: String,
        #[serde(flatten)]
        pub filter: Option<Filter>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Untagged {
        pub q: String,
        #[serde(flatten)]
        pub by: Option<By>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Nested {
        pub inner: Query,
        pub list: Vec<Tagged>,
    }

    /// serde took `None` for each of these and dropped what of the type was
    /// sent; the schema took them too (the struct's part as members each
    /// optional on its own, the enum's as `anyOf: [enum, {}]` left open).
    #[test]
    fn what_serde_would_drop_is_rejected_at_its_member() {
        // Each is rejected where the type's own form fails: a required
        // field missing, a member of the wrong type, a variant the object
        // cannot decide between, or a member nothing declares.
        let cases: [(Value, &[&str]); 8] = [
            (json!({"q": "x", "lo": 1}), &["/hi"]),
            (json!({"q": "x", "lo": 1, "hi": "2"}), &["/hi"]),
            (json!({"q": "x", "from": 1}), &["/to"]),
            (json!({"q": "x", "Asc": "1"}), &["/Asc"]),
            (json!({"q": "x", "Asc": 1, "Desc": 2}), &[""]),
            (json!({"q": "x", "zzz": 1}), &["/zzz"]),
            (
                json!({"q": "x", "lo": 1, "hi": 2, "Asc": 3, "to": 4}),
                &["/from"],
            ),
            (json!({"q": "x", "Desc": null}), &["/Desc"]),
        ];
        for (args, pointers) in cases {
            let read: Query = serde_json::from_value(args.clone()).unwrap();
            assert!(
                !same_json(&serde_json::to_value(&read).unwrap(), &args),
                "{args}: serde loses nothing here"
            );
            let mut found = invalid_pointers::<Query>(args.clone());
            found.sort();
            assert_eq!(found, pointers, "{args}");
        }
    }

    #[test]
    fn a_whole_value_or_nothing_of_it_is_read_as_serde_reads_it() {
        for args in [
            json!({"q": "x"}),
            json!({"q": "x", "lo": 1, "hi": 2}),
            json!({"q": "x", "Desc": 4, "from": 1, "to": 2}),
            json!({"q": "x", "lo": 1, "hi": 2, "Asc": 3, "from": 5, "to": 6}),
        ] {
            as_serde_reads::<Query>(args).unwrap();
        }
        assert_eq!(
            accepted::<Query>(json!({"q": "x", "hi": 2, "lo": 1, "Asc": 3})),
            Query {
                q: "x".into(),
                sort: Some(Sort::Asc(3)),
                range: Some(Range { lo: 1, hi: 2 }),
                plain: None,
            }
        );
    }

    #[test]
    fn tagged_and_untagged_enums_flattened_as_options() {
        for args in [
            json!({"q": "x", "kind": "Zzz", "tag": "t"}),
            json!({"q": "x", "kind": "Age", "min": 1}),
            json!({"q": "x", "kind": "Tag", "tag": "t", "min": 1}),
        ] {
            as_serde_reads::<Tagged>(args).unwrap();
        }
        for args in [
            json!({"q": "x", "kind": "Age", "min": 1, "max": 2}),
            json!({"q": "x"}),
        ] {
            as_serde_reads::<Tagged>(args.clone()).unwrap();
            accepted::<Tagged>(args);
        }
        for args in [
            json!({"q": "x", "id": 1, "name": "n"}),
            json!({"q": "x", "id": "1"}),
            json!({"q": "x", "name": "n"}),
            json!({"q": "x", "id": 1}),
        ] {
            as_serde_reads::<Untagged>(args).unwrap();
        }
        rejected_only_at::<Untagged>(json!({"q": "x", "id": 1, "name": "n"}), "/name");
    }

    /// The message at `pointer` of `T`'s rejection of `args`.
    fn message_at<T: ToolArgs + std::fmt::Debug>(args: Value, pointer: &str) -> String {
        match T::from_model(args.clone()) {
            Err(ArgsError::Invalid(violations)) => violations
                .iter()
                .find(|v| v.pointer == pointer)
                .unwrap_or_else(|| panic!("{args}: nothing at {pointer}: {violations}"))
                .message
                .clone(),
            other => panic!("{args}: {other:?}"),
        }
    }

    /// The member a failed form declares is not "unknown": the report says
    /// why the form failed, or that another variant reads the object.
    #[test]
    fn the_report_says_why_not_unknown_field() {
        assert_eq!(
            message_at::<Query>(json!({"q": "x", "lo": 1}), "/hi"),
            "missing required field `hi`"
        );
        assert_eq!(
            message_at::<Query>(json!({"q": "x", "Asc": "1"}), "/Asc"),
            "expected integer, found string \"1\""
        );
        let other_variant = "would be dropped: it belongs to another variant than the one \
                             that reads this object";
        assert_eq!(
            message_at::<Tagged>(
                json!({"q": "x", "kind": "Tag", "tag": "t", "min": 1}),
                "/min"
            ),
            format!("field `min` {other_variant}")
        );
        assert_eq!(
            message_at::<Untagged>(json!({"q": "x", "id": 1, "name": "n"}), "/name"),
            format!("field `name` {other_variant}")
        );
    }

    /// Found by a second review of the rewrite: recursion through the
    /// flattened type panicked (a definition the rewrite referenced was
    /// dropped); a type parameter failed to compile; a type alias of
    /// `Option` was not rewritten; a member named like a field of the
    /// flattening struct, a flattened map beside it, and `1.0` for an
    /// integer each let a dropped member through; and a union at the root
    /// made the schema unusable for providers and strict mode.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Node {
        pub name: String,
        #[serde(flatten)]
        pub more: Option<More>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct More {
        pub kids: Vec<Node>,
        pub w: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Generic<T> {
        pub q: String,
        #[serde(flatten)]
        pub a: Option<T>,
    }

    pub type MaybeRange = Option<Range>;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Aliased {
        pub q: String,
        #[serde(flatten)]
        pub a: MaybeRange,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct OwnLo {
        pub lo: u32,
        #[serde(flatten)]
        pub a: Option<Range>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithRest {
        pub q: String,
        #[serde(flatten)]
        pub a: Option<Range>,
        #[serde(flatten)]
        pub rest: BTreeMap<String, Value>,
    }

    #[test]
    fn recursion_generics_aliases_and_neighbours() {
        as_serde_reads::<Node>(json!({"name": "a"})).unwrap();
        as_serde_reads::<Node>(json!({"name": "a", "kids": [{"name": "b"}], "w": 1})).unwrap();
        as_serde_reads::<Node>(json!({"name": "a", "kids": [{"name": "b", "w": 2}], "w": 1}))
            .unwrap();
        as_serde_reads::<Node>(json!({"name": "a", "kids": []})).unwrap();
        rejected_only_at::<Node>(json!({"name": "a", "kids": []}), "/w");

        // A type parameter: the derive bounds the flattened field's type,
        // so the type argument is checked whole like any other.
        assert_eq!(
            accepted::<Generic<Range>>(json!({"q": "x", "lo": 1, "hi": 2})).a,
            Some(Range { lo: 1, hi: 2 })
        );
        as_serde_reads::<Generic<Range>>(json!({"q": "x"})).unwrap();
        as_serde_reads::<Generic<Range>>(json!({"q": "x", "lo": 1})).unwrap();
        rejected_only_at::<Generic<Range>>(json!({"q": "x", "lo": 1}), "/hi");

        as_serde_reads::<Aliased>(json!({"q": "x", "lo": 1})).unwrap();
        rejected_only_at::<Aliased>(json!({"q": "x", "lo": 1}), "/hi");
        // `lo` is the struct's own: `Range` never sees it, so `hi` alone
        // would be dropped.
        as_serde_reads::<OwnLo>(json!({"lo": 1, "hi": 2})).unwrap();
        as_serde_reads::<OwnLo>(json!({"lo": 1})).unwrap();
        // The flattened map after it never sees what `Range` took.
        as_serde_reads::<WithRest>(json!({"q": "x", "lo": 1})).unwrap();
        as_serde_reads::<WithRest>(json!({"q": "x", "lo": 1, "hi": 2, "z": 3})).unwrap();
        // serde's integer refuses `1.0`, failing the whole struct.
        let args: Value = serde_json::from_str(r#"{"q": "x", "lo": 1.0, "hi": 2}"#).unwrap();
        rejected_only_at::<Query>(args, "/lo");
    }

    /// Serializes only: it cannot be read, nor flattened where it is read.
    #[derive(Debug, PartialEq, Serialize, JsonSchema)]
    pub struct WriteOnly {
        pub lo: u32,
    }

    /// A variant serde never reads: its flattened field's type is not
    /// bounded (as serde's derive does not bound it), so `T` need not be
    /// readable.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum SkipsVariant<T> {
        A {
            x: u32,
        },
        #[serde(skip_deserializing)]
        B {
            #[serde(flatten)]
            t: Option<T>,
        },
    }

    #[test]
    fn a_variant_never_read_bounds_nothing() {
        assert_eq!(
            accepted::<SkipsVariant<WriteOnly>>(json!({"A": {"x": 1}})),
            SkipsVariant::A { x: 1 }
        );
        let pointers = invalid_pointers::<SkipsVariant<WriteOnly>>(json!({"B": {"lo": 1}}));
        assert!(pointers.contains(&"/B".to_owned()), "{pointers:?}");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Span {
        pub lo: u32,
        #[serde(alias = "high", alias = "top")]
        pub hi: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsSpan {
        pub q: String,
        #[serde(flatten)]
        pub span: Option<Span>,
    }

    /// A field sent under two of its names fails the flattened struct in
    /// serde (a duplicate field), which then drops all of it.
    #[test]
    fn a_field_under_two_of_its_names_is_refused_not_dropped() {
        for args in [
            json!({"q": "x", "lo": 1, "hi": 2, "high": 3}),
            json!({"q": "x", "lo": 1, "high": 2, "top": 3}),
        ] {
            let read: HoldsSpan = serde_json::from_value(args.clone()).unwrap();
            assert_eq!(read.span, None, "serde drops it");
            assert!(!invalid_pointers::<HoldsSpan>(args).is_empty());
        }
        for args in [
            json!({"q": "x", "lo": 1, "high": 2}),
            json!({"q": "x", "lo": 1, "top": 2}),
        ] {
            let read: HoldsSpan = serde_json::from_value(args.clone()).unwrap();
            assert_eq!(accepted::<HoldsSpan>(args), read);
        }
        assert_eq!(
            accepted::<HoldsSpan>(json!({"q": "x", "lo": 1, "top": 2})).span,
            Some(Span { lo: 1, hi: 2 })
        );
        // Reported at the second name, in words (never the schema's JSON).
        assert_eq!(
            invalid_pointers::<HoldsSpan>(json!({"q": "x", "lo": 1, "hi": 2, "high": 3})),
            ["/high"]
        );
        assert_eq!(
            message_at::<HoldsSpan>(json!({"q": "x", "lo": 1, "high": 2, "top": 3}), "/top"),
            "`high` and `top` are two names of one field: send one of them"
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Lot {
        pub ids: Vec<u32>,
        pub note: Option<String>,
        pub size: u32,
        pub at: Option<Place>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Place {
        pub shelf: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsLot {
        pub q: String,
        #[serde(flatten)]
        pub lot: Option<Lot>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    pub enum Tagged2 {
        V {
            q: String,
            #[serde(flatten)]
            r: Option<TagLike>,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct TagLike {
        pub t: String,
        pub n: u32,
    }

    /// Found by a third review: `1.0` inside a list of the flattened
    /// struct, a `null` for one of its optional members (nothing sent, yet
    /// refused), a member named like the enum's tag (which the struct never
    /// sees), and a member that can never be read, reported at the object.
    #[test]
    fn nested_integers_nulls_tags_and_members_that_cannot_be_read() {
        let args: Value = serde_json::from_str(r#"{"q": "x", "ids": [1.0], "size": 1}"#).unwrap();
        assert_eq!(invalid_pointers::<HoldsLot>(args), ["/ids/0"]);
        // Behind a `$ref` too.
        let args: Value =
            serde_json::from_str(r#"{"q": "x", "ids": [], "size": 1, "at": {"shelf": 2.0}}"#)
                .unwrap();
        assert_eq!(invalid_pointers::<HoldsLot>(args), ["/at/shelf"]);
        let null_only = json!({"q": "x", "note": null});
        let read: HoldsLot = serde_json::from_value(null_only.clone()).unwrap();
        assert_eq!(
            accepted::<HoldsLot>(null_only),
            read,
            "a null alone loses nothing"
        );
        as_serde_reads::<HoldsLot>(json!({"q": "x", "note": "n"})).unwrap();
        as_serde_reads::<HoldsLot>(
            json!({"q": "x", "ids": [], "note": null, "size": 2, "at": null}),
        )
        .unwrap();

        as_serde_reads::<Tagged2>(json!({"t": "V", "q": "x"})).unwrap();
        as_serde_reads::<Tagged2>(json!({"t": "V", "q": "x", "n": 1})).unwrap();
        accepted::<Tagged2>(json!({"t": "V", "q": "x"}));

        // `lo` is `OwnLo`'s own: `Range` never sees it, so `hi` can never
        // be read; the report is at `/hi`.
        assert_eq!(
            invalid_pointers::<OwnLo>(json!({"lo": 1, "hi": 2})),
            ["/hi"]
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct NeedsQ {
        pub q: String,
        pub n: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Middle {
        pub a: u32,
        #[serde(flatten)]
        pub r: Option<NeedsQ>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Outer {
        pub q: String,
        #[serde(flatten)]
        pub middle: Middle,
    }

    /// A name the outer struct reads never reaches a type flattened two
    /// levels down (found by review: `n` was dropped, and the value's own
    /// `{"q": "x", "a": 1}` was refused for `/n`).
    #[test]
    fn names_the_outer_struct_reads_never_reach_a_type_flattened_below() {
        as_serde_reads::<Outer>(json!({"q": "x", "a": 1})).unwrap();
        as_serde_reads::<Outer>(json!({"q": "x", "a": 1, "n": 2})).unwrap();
        assert_eq!(
            invalid_pointers::<Outer>(json!({"q": "x", "a": 1, "n": 2})),
            ["/n"]
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct LoZ {
        pub lo: u32,
        pub z: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Two {
        pub q: String,
        #[serde(flatten)]
        pub a: Option<Range>,
        #[serde(flatten)]
        pub b: Option<LoZ>,
    }

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct LoOnly {
        #[serde(default)]
        pub lo: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct NonOptionFirst {
        pub q: String,
        #[serde(flatten)]
        pub b: LoOnly,
        #[serde(flatten)]
        pub a: Option<Range>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MapFirst {
        pub q: String,
        #[serde(flatten)]
        pub rest: BTreeMap<String, Value>,
        #[serde(flatten)]
        pub a: Option<Range>,
    }

    /// serde hands a member to the first flattened field that takes it,
    /// whole or not: a later one never sees it (found by review: `z`
    /// dropped, and the values' own serializations refused).
    #[test]
    fn a_member_goes_to_the_first_flattened_field_that_takes_it() {
        for args in [
            json!({"q": "x", "lo": 1, "hi": 2, "z": 3}),
            json!({"q": "x", "lo": 1, "hi": 2}),
            json!({"q": "x", "lo": 1, "z": 2}),
            json!({"q": "x"}),
        ] {
            as_serde_reads::<Two>(args).unwrap();
        }
        assert_eq!(
            invalid_pointers::<Two>(json!({"q": "x", "lo": 1, "hi": 2, "z": 3})),
            ["/z"]
        );
        for args in [
            json!({"q": "x", "lo": 1, "hi": 2}),
            json!({"q": "x", "lo": 1}),
        ] {
            as_serde_reads::<NonOptionFirst>(args).unwrap();
        }
        // A map first keeps every member: nothing of `Range` is ever lost.
        let args = json!({"q": "x", "lo": 1});
        let read: MapFirst = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(accepted::<MapFirst>(args), read);
    }

    #[test]
    fn no_union_at_the_root_so_providers_and_strict_mode_take_it() {
        // (A flattened `Option` of an enum keeps schemars' own `anyOf`.)
        #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
        struct OnlyStructs {
            q: String,
            #[serde(flatten)]
            range: Option<Range>,
            #[serde(flatten)]
            plain: Option<Plain>,
        }
        let schema = OnlyStructs::input_schema();
        for keyword in ["anyOf", "oneOf", "allOf"] {
            assert!(
                schema.get(keyword).is_none(),
                "{keyword} at the root: {schema}"
            );
        }
        let mut toolbox = Toolbox::<()>::with_dialect(toolargs::export::Dialect::OpenAiStrict);
        toolbox
            .tool_sync("find", "Find.", |args: OnlyStructs| Ok::<_, String>(args.q))
            .unwrap();
    }

    #[test]
    fn at_any_depth() {
        let args = json!({
            "inner": {"q": "x", "zzz": 1},
            "list": [{"q": "y", "kind": "Tag", "tag": "oops", "more": true}]
        });
        assert_eq!(
            invalid_pointers::<Nested>(args),
            ["/inner/zzz", "/list/0/more"]
        );
        let args = json!({
            "inner": {"q": "x", "lo": 1, "hi": 2},
            "list": [{"q": "y", "kind": "Tag", "tag": "t"}]
        });
        as_serde_reads::<Nested>(args).unwrap();
    }
}

/// An `f32` reads a JSON number by rounding it to the nearest `f32`: beyond
/// `f32::MAX` by half a step it becomes infinity, which serde takes and
/// writes back as `null` (found by a review: `1e40` reached the tool as
/// `inf`). The schema bounds it where it starts to overflow.
#[test]
fn an_f32_refuses_numbers_it_would_read_as_infinity() {
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    struct Gain {
        db: f32,
        limit: Option<f32>,
    }
    for (args, pointer) in [
        (json!({"db": 1e40}), "/db"),
        (json!({"db": -1e40}), "/db"),
        (json!({"db": 3.402_823_6e38}), "/db"),
        (json!({"db": 0.5, "limit": 1e300}), "/limit"),
    ] {
        let read: Gain = serde_json::from_value(args.clone()).unwrap();
        assert!(
            !same_json(&serde_json::to_value(&read).unwrap(), &args),
            "{args}: serde reads it losslessly"
        );
        rejected_only_at::<Gain>(args, pointer);
    }
    let max = json!({"db": f32::MAX, "limit": f32::MIN});
    assert_eq!(
        accepted::<Gain>(max),
        Gain {
            db: f32::MAX,
            limit: Some(f32::MIN)
        }
    );
    // A hair above `f32::MAX` still rounds to it.
    assert_eq!(accepted::<Gain>(json!({"db": 3.402_823_5e38})).db, f32::MAX);
}

/// A variant named with a character reference (`#[serde(rename = "&amp;")]`)
/// was impossible to call: RT-TOOL-8 decoded the model's exact `"&amp;"` to
/// `"&"` before validation (found by a review). A declared literal holding
/// `&`, sent exactly, is kept as sent; the type's own values round-trip.
#[test]
fn a_variant_named_with_a_reference_is_read_as_sent() {
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    enum Amp {
        #[serde(rename = "&amp;")]
        Lit,
        #[serde(rename = "x&lt;y")]
        Lt,
        #[serde(rename = "A&B")]
        AB,
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    enum AmpTag {
        #[serde(rename = "a&amp;b")]
        X {
            v: u32,
        },
        Y {
            note: String,
        },
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    struct Holder {
        amp: Amp,
        list: Vec<Amp>,
        tagged: AmpTag,
    }
    let value = Holder {
        amp: Amp::Lit,
        list: vec![Amp::Lt, Amp::AB, Amp::Lit],
        tagged: AmpTag::X { v: 1 },
    };
    let sent = serde_json::to_value(&value).unwrap();
    assert_eq!(accepted::<Holder>(sent.clone()), value);
    let mut stream = toolargs::stream::ArgsStream::<Holder>::new();
    for piece in sent.to_string().as_bytes().chunks(3) {
        stream.push(std::str::from_utf8(piece).unwrap());
    }
    assert_eq!(stream.finish().unwrap().value, value);
    // An escaped name is decoded as any string is, into the name `A&B`;
    // other strings beside a literal are decoded as ever.
    let args =
        json!({"amp": "A&amp;B", "list": [], "tagged": {"t": "Y", "note": "Tom &amp; Jerry"}});
    let read = accepted::<Holder>(args);
    assert_eq!(read.amp, Amp::AB);
    assert_eq!(
        read.tagged,
        AmpTag::Y {
            note: "Tom & Jerry".into()
        }
    );
}

/// In an untagged enum serde reads any number into an `f32` variant (as
/// `inf` beyond its range), so the variant after it must not take what the
/// `f32` one reads first (found by review: `1e40` went to `F(inf)`, written
/// back as `null`, while the schema let `D` take it).
#[test]
fn an_f32_variant_reads_first_whatever_its_bounds() {
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    enum Level {
        F(f32),
        D(f64),
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    struct Gain {
        level: Level,
    }
    as_serde_reads::<Gain>(json!({"level": 1e40})).unwrap();
    as_serde_reads::<Gain>(json!({"level": 0.5})).unwrap();
    assert_eq!(accepted::<Gain>(json!({"level": 0.5})).level, Level::F(0.5));
}

/// A declared literal is kept as sent only where nothing else there takes
/// a string of any content: beside a `String` variant, RT-TOOL-8 decodes it
/// as any string (found by review: `"&amp;"` reached `S("&amp;")` while
/// `"&lt;"` reached `S("<")`).
#[test]
fn a_literal_beside_a_free_string_is_decoded_as_any_string() {
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    enum Lit {
        #[serde(rename = "&amp;")]
        Amp,
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    enum Either {
        S(String),
        L(Lit),
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    enum Lists {
        A(Vec<Lit>),
        B(Vec<String>),
    }
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    struct Holder {
        either: Either,
        lists: Lists,
        lit: Lit,
    }
    let read = accepted::<Holder>(json!({
        "either": "&amp;",
        "lists": ["&amp;", "x&amp;"],
        "lit": "&amp;"
    }));
    assert_eq!(read.either, Either::S("&".into()));
    assert_eq!(read.lists, Lists::B(vec!["&".into(), "x&".into()]));
    assert_eq!(read.lit, Lit::Amp);
}

/// A flattened `Option` whose type refuses its members for a reason the
/// schema cannot say: serde took `None` and dropped every member of it that
/// was sent (found by a review, left open at the time). The type itself is
/// now asked, as serde's flattening offers it the members, and the call is
/// refused where it fails.
mod flattened_option_rules_only_the_type_knows {
    use super::*;
    use std::net::IpAddr;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Net {
        pub addr: IpAddr,
        pub port: u16,
    }

    fn positive<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
        let n = i64::deserialize(deserializer)?;
        if n > 0 {
            Ok(n)
        } else {
            Err(serde::de::Error::custom("expected a positive size"))
        }
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Window {
        #[serde(deserialize_with = "positive")]
        pub size: i64,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Meta {
        pub id: u32,
        #[serde(flatten)]
        pub extra: BTreeMap<String, String>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub enum When {
        At(u64),
        Every(u64),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Job {
        pub name: String,
        #[serde(flatten)]
        pub when: When,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Extra {
        Named { id: u32 },
        Free(BTreeMap<String, u32>),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Conn {
        pub host: String,
        #[serde(flatten)]
        pub net: Option<Net>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct View {
        pub q: String,
        #[serde(flatten)]
        pub window: Option<Window>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Doc {
        pub title: String,
        #[serde(flatten)]
        pub meta: Option<Meta>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Plan {
        pub q: String,
        #[serde(flatten)]
        pub job: Option<Job>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Tally {
        pub q: String,
        #[serde(flatten)]
        pub extra: Option<Extra>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Outer {
        pub list: Vec<Conn>,
        pub doc: Option<Doc>,
    }

    /// serde drops each of these (it writes back less than was sent); each
    /// is now rejected where the type fails, once.
    #[test]
    fn what_only_the_type_refuses_is_rejected_not_dropped() {
        /// serde's reading of `args` writes back less than was sent, and
        /// `from_model` rejects it at `pointer` alone.
        #[track_caller]
        fn dropped_then_rejected<T>(args: Value, pointer: &str)
        where
            T: ToolArgs + Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
        {
            let read: T = serde_json::from_value(args.clone()).unwrap();
            assert!(
                !same_json(&serde_json::to_value(&read).unwrap(), &args),
                "{args}: serde loses nothing here"
            );
            rejected_only_at::<T>(args, pointer);
        }
        dropped_then_rejected::<Conn>(
            json!({"host": "h", "addr": "not an address", "port": 80}),
            "/addr",
        );
        dropped_then_rejected::<View>(json!({"q": "x", "size": -3}), "/size");
        dropped_then_rejected::<Doc>(json!({"title": "t", "note": "n"}), "/note");
        dropped_then_rejected::<Doc>(json!({"title": "t", "id": 1, "note": 2}), "/note");
        dropped_then_rejected::<Plan>(json!({"q": "x", "At": 5}), "/At");
        dropped_then_rejected::<Tally>(json!({"q": "x", "zz": "not a number"}), "/zz");
        dropped_then_rejected::<Outer>(
            json!({
                "list": [{"host": "a"}, {"host": "b", "addr": "::1::", "port": 7}],
                "doc": null
            }),
            "/list/1/addr",
        );
    }

    /// What makes a whole, and what has none of the type, reads as serde
    /// reads it.
    #[test]
    fn a_whole_value_or_none_of_it_is_accepted() {
        for args in [
            json!({"host": "h"}),
            json!({"host": "h", "addr": "10.0.0.1", "port": 80}),
        ] {
            as_serde_reads::<Conn>(args.clone()).unwrap();
            accepted::<Conn>(args);
        }
        // `null` is no address: serde drops it with `net`, and the schema
        // says so.
        as_serde_reads::<Conn>(json!({"host": "h", "addr": null})).unwrap();
        assert_eq!(
            accepted::<View>(json!({"q": "x", "size": 3})).window,
            Some(Window { size: 3 })
        );
        assert_eq!(accepted::<View>(json!({"q": "x"})).window, None);
        assert_eq!(
            accepted::<Doc>(json!({"title": "t", "id": 1, "note": "n"})).meta,
            Some(Meta {
                id: 1,
                extra: BTreeMap::from([("note".to_owned(), "n".to_owned())])
            })
        );
        assert_eq!(accepted::<Doc>(json!({"title": "t"})).meta, None);
        assert_eq!(
            accepted::<Plan>(json!({"q": "x", "name": "n", "Every": 5})).job,
            Some(Job {
                name: "n".into(),
                when: When::Every(5)
            })
        );
        assert_eq!(
            accepted::<Tally>(json!({"q": "x", "a": 1})).extra,
            Some(Extra::Free(BTreeMap::from([("a".to_owned(), 1)])))
        );
        // The map variant takes nothing as an empty map, as serde reads it.
        assert_eq!(
            accepted::<Tally>(json!({"q": "x"})).extra,
            Some(Extra::Free(BTreeMap::new()))
        );
        let outer = json!({
            "list": [{"host": "a"}, {"host": "b", "addr": "::1", "port": 7}],
            "doc": {"title": "t", "id": 2}
        });
        as_serde_reads::<Outer>(outer.clone()).unwrap();
        accepted::<Outer>(outer);
    }

    /// The report says what the type refused, and which members are read
    /// together.
    #[test]
    fn the_report_says_what_the_type_refused() {
        let message = match Conn::from_model(json!({"host": "h", "addr": "nope", "port": 80})) {
            Err(ArgsError::Invalid(violations)) => violations.0[0].message.clone(),
            other => panic!("{other:?}"),
        };
        assert!(
            message.starts_with("invalid IP address syntax"),
            "{message}"
        );
        assert!(message.contains("`addr`, `port`"), "{message}");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Count {
        pub n: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Mid {
        pub m: u32,
        #[serde(flatten)]
        pub labels: Option<BTreeMap<String, String>>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub enum Pick {
        A(String),
        B(u32),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Wide {
        pub big: u128,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Keyed {
        pub m: BTreeMap<u32, String>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Named {
        pub x: String,
        #[serde(flatten)]
        pub count: Count,
    }

    /// Another flattened field of the object reads the member (after the
    /// `Option`, or around the struct that flattens it): serde keeps it there.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct ThenCount {
        pub q: String,
        #[serde(flatten)]
        pub labels: Option<BTreeMap<String, String>>,
        #[serde(flatten)]
        pub count: Count,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MidThenCount {
        pub q: String,
        #[serde(flatten)]
        pub mid: Mid,
        #[serde(flatten)]
        pub count: Count,
    }

    /// An externally tagged enum flattened before takes its member.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct PickThenRest {
        pub q: String,
        #[serde(flatten)]
        pub pick: Pick,
        #[serde(flatten)]
        pub rest: Option<BTreeMap<String, u32>>,
    }

    /// A struct that flattens takes nothing from the members left: the
    /// `Option` after it is offered them all.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct NamedThenRest {
        pub q: String,
        #[serde(flatten)]
        pub named: Named,
        #[serde(flatten)]
        pub rest: Option<BTreeMap<String, u32>>,
    }

    /// What serde's buffer of the members holds differently: no `u128`, map
    /// keys that are strings only until read.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Buffered {
        pub q: String,
        #[serde(flatten)]
        pub wide: Option<Wide>,
        #[serde(flatten)]
        pub keyed: Option<Keyed>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Twice {
        pub q: String,
        #[serde(flatten)]
        pub net: Option<Option<Net>>,
    }

    /// Found by a review of the first version: what another flattened
    /// field keeps is not dropped (these were rejected), and what serde's
    /// own flattening refuses is (these were accepted, and lost).
    #[test]
    fn serde_flattening_decides_and_other_fields_keep() {
        let args = json!({"q": "x", "n": 1});
        as_serde_reads::<ThenCount>(args.clone()).unwrap();
        accepted::<ThenCount>(args);
        // `labels` is offered `n` too, fails on it, and drops `z`: the
        // report goes to `z`, and names `n`.
        let args = json!({"q": "x", "n": 1, "z": "s"});
        as_serde_reads::<ThenCount>(args.clone()).unwrap();
        rejected_only_at::<ThenCount>(args.clone(), "/z");
        match ThenCount::from_model(args) {
            Err(ArgsError::Invalid(violations)) => assert!(
                violations.0[0]
                    .message
                    .starts_with("`n`: invalid type: integer `1`"),
                "{violations}"
            ),
            other => panic!("{other:?}"),
        }
        let args = json!({"q": "x", "m": 1, "n": 2});
        as_serde_reads::<MidThenCount>(args.clone()).unwrap();
        accepted::<MidThenCount>(args);
        let args = json!({"q": "x", "A": "s", "z": 3});
        as_serde_reads::<PickThenRest>(args.clone()).unwrap();
        accepted::<PickThenRest>(args);
        for (args, pointer) in [
            (json!({"q": "q", "x": "s", "n": 1, "z": 5}), "/z"),
            (json!({"q": "q", "x": "s", "n": 1}), ""),
        ] {
            as_serde_reads::<NamedThenRest>(args.clone()).unwrap();
            if pointer.is_empty() {
                accepted::<NamedThenRest>(args);
            } else {
                rejected_only_at::<NamedThenRest>(args, pointer);
            }
        }
        for (args, pointer) in [
            (json!({"q": "x", "big": 5}), "/big"),
            (json!({"q": "x", "m": {"1": "a"}}), "/m"),
        ] {
            as_serde_reads::<Buffered>(args.clone()).unwrap();
            rejected_only_at::<Buffered>(args, pointer);
        }
        let args = json!({"q": "x", "addr": "bad", "port": 1});
        as_serde_reads::<Twice>(args.clone()).unwrap();
        rejected_only_at::<Twice>(args, "/addr");
        let args = json!({"q": "x", "addr": "::1", "port": 1});
        as_serde_reads::<Twice>(args.clone()).unwrap();
        accepted::<Twice>(args);
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Loose {
        #[serde(default)]
        pub addr: Option<String>,
        #[serde(default)]
        pub port: Option<u16>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct NetThenRest {
        pub q: String,
        #[serde(flatten)]
        pub net: Option<Net>,
        #[serde(flatten)]
        pub rest: BTreeMap<String, Value>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct NetThenLoose {
        pub q: String,
        #[serde(flatten)]
        pub net: Option<Net>,
        #[serde(flatten)]
        pub loose: Loose,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct RestThenNet {
        pub q: String,
        #[serde(flatten)]
        pub rest: BTreeMap<String, Value>,
        #[serde(flatten)]
        pub net: Option<Net>,
    }

    /// A struct takes what it reads from the members left, whole or not:
    /// a flattened field after it never sees them, so it keeps nothing of
    /// them (found by a review of the version that let it).
    #[test]
    fn a_field_after_keeps_nothing_a_struct_took() {
        for (args, pointer) in [
            (json!({"q": "x", "addr": "bad", "port": 1}), "/addr"),
            (json!({"q": "x", "port": 1, "addr": "bad"}), "/addr"),
        ] {
            as_serde_reads::<NetThenRest>(args.clone()).unwrap();
            rejected_only_at::<NetThenRest>(args.clone(), pointer);
            as_serde_reads::<NetThenLoose>(args.clone()).unwrap();
            rejected_only_at::<NetThenLoose>(args, pointer);
        }
        // A map before the struct keeps every member: nothing is lost.
        let args = json!({"q": "x", "addr": "bad", "port": 1});
        as_serde_reads::<RestThenNet>(args.clone()).unwrap();
        accepted::<RestThenNet>(args);
        for args in [
            json!({"q": "x", "addr": "10.0.0.1", "port": 1}),
            json!({"q": "x", "other": true}),
        ] {
            as_serde_reads::<NetThenRest>(args.clone()).unwrap();
            accepted::<NetThenRest>(args);
        }
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum V4 {
        A { n: std::net::Ipv4Addr },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum V6 {
        B { n: std::net::Ipv6Addr },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct EitherAddress {
        pub q: String,
        #[serde(flatten)]
        pub v4: Option<V4>,
        #[serde(flatten)]
        pub v6: Option<V6>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Pair {
        pub a: u32,
        pub b: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MapFirst {
        pub q: String,
        #[serde(flatten)]
        pub rest: BTreeMap<String, String>,
        #[serde(flatten)]
        pub pair: Option<Pair>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Holds {
        pub x: u32,
        #[serde(flatten)]
        pub pair: Option<Pair>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsThenMap {
        pub q: String,
        #[serde(flatten)]
        pub holds: Holds,
        #[serde(flatten)]
        pub rest: BTreeMap<String, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Other {
        pub c: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Reads {
        First {
            #[serde(flatten)]
            pair: Option<Pair>,
            #[serde(flatten)]
            other: Other,
        },
        Second {
            #[serde(flatten)]
            rest: BTreeMap<String, String>,
            #[serde(flatten)]
            pair: Option<Pair>,
        },
    }

    /// Found by a third review: two flattened `Option`s that both fail each
    /// counted on the other to keep the member; a map before an `Option`
    /// keeps what it refuses, and one around it what its struct refuses (the
    /// schema held them to the `Option`'s types); in an untagged enum, an
    /// earlier variant whose `Option` is not whole is still read (serde
    /// takes it as `None`), so a later variant is never reached.
    #[test]
    fn what_one_field_drops_another_keeps_only_when_it_reads_whole() {
        let args = json!({"q": "x", "n": "zzz"});
        as_serde_reads::<EitherAddress>(args.clone()).unwrap();
        rejected_only_at::<EitherAddress>(args, "/n");
        for args in [
            json!({"q": "x", "n": "::1"}),
            json!({"q": "x", "n": "10.0.0.1"}),
        ] {
            as_serde_reads::<EitherAddress>(args.clone()).unwrap();
            accepted::<EitherAddress>(args);
        }
        for args in [
            json!({"q": "x", "a": "s"}),
            json!({"q": "x", "a": "1", "b": "2"}),
        ] {
            as_serde_reads::<MapFirst>(args.clone()).unwrap();
            accepted::<MapFirst>(args);
        }
        let args = json!({"q": "x", "x": 1, "a": 2});
        as_serde_reads::<HoldsThenMap>(args.clone()).unwrap();
        accepted::<HoldsThenMap>(args);
        let args = json!({"c": "s", "a": 1});
        as_serde_reads::<Reads>(args.clone()).unwrap();
        assert!(Reads::from_model(args.clone()).is_err(), "{args}");
        let args = json!({"c": "s", "a": 1, "b": 2});
        as_serde_reads::<Reads>(args.clone()).unwrap();
        accepted::<Reads>(args);
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Either {
        X { c: u32 },
        Y { a: u32, c: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum CountOrMap {
        X { c: u32 },
        Y(BTreeMap<String, u32>),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct EitherThenPair {
        pub q: String,
        #[serde(flatten)]
        pub either: Either,
        #[serde(flatten)]
        pub pair: Option<Pair>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct CountOrMapThenPair {
        pub q: String,
        #[serde(flatten)]
        pub either: CountOrMap,
        #[serde(flatten)]
        pub pair: Option<Pair>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsNet {
        pub c: u32,
        #[serde(flatten)]
        pub net: Option<V4>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MaybeHoldsNet {
        pub q: String,
        #[serde(flatten)]
        pub holds: Option<HoldsNet>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum PairOrText {
        First {
            #[serde(flatten)]
            pair: Option<Pair>,
            c: String,
        },
        Second {
            c: String,
            a: String,
        },
    }

    /// Found by a fourth review: an enum beside an `Option` keeps only what
    /// the variant it reads reads; an `Option` inside another keeps nothing
    /// for the outer one when it is not whole; an untagged variant whose
    /// `Option` is not whole reads any value for its members.
    #[test]
    fn enums_keep_only_their_variant_and_options_only_whole() {
        let args = json!({"q": "x", "c": 1, "a": 1});
        as_serde_reads::<EitherThenPair>(args.clone()).unwrap();
        assert!(EitherThenPair::from_model(args.clone()).is_err(), "{args}");
        as_serde_reads::<CountOrMapThenPair>(args.clone()).unwrap();
        assert!(CountOrMapThenPair::from_model(args).is_err());
        let args = json!({"q": "x", "c": 1, "a": 1, "b": 2});
        as_serde_reads::<EitherThenPair>(args.clone()).unwrap();
        accepted::<EitherThenPair>(args);
        // `V4` (untagged) takes nothing it reads: the outer `Option` reads
        // `n` too, and is whole, but holds nothing of `n`.
        let args = json!({"q": "x", "c": 1, "n": "bad"});
        as_serde_reads::<MaybeHoldsNet>(args.clone()).unwrap();
        rejected_only_at::<MaybeHoldsNet>(args, "/n");
        let args = json!({"q": "x", "c": 1, "n": "10.0.0.1"});
        as_serde_reads::<MaybeHoldsNet>(args.clone()).unwrap();
        accepted::<MaybeHoldsNet>(args);
        let args = json!({"c": "s", "a": "t"});
        as_serde_reads::<PairOrText>(args.clone()).unwrap();
        assert!(PairOrText::from_model(args).is_err());
    }

    fn odd<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        let n = u32::deserialize(deserializer)?;
        if n % 2 == 1 {
            Ok(n)
        } else {
            Err(serde::de::Error::custom("expected an odd number"))
        }
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Inner {
        pub r: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct OddOuter {
        #[serde(deserialize_with = "odd")]
        #[schemars(with = "u32")]
        pub p: u32,
        #[serde(flatten)]
        pub inner: Option<Inner>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct JustP {
        pub p: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct OuterOrP {
        pub q: String,
        #[serde(flatten)]
        pub outer: Option<OddOuter>,
        #[serde(flatten)]
        pub just: Option<JustP>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct C {
        pub c: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Generic<T> {
        pub q: String,
        #[serde(flatten)]
        pub x: T,
        #[serde(flatten)]
        pub pair: Option<Pair>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "k")]
    pub enum Kind {
        A { c: u32 },
        B { z: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct WithKind {
        pub a: u32,
        #[serde(flatten)]
        pub kind: Kind,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithKindThenPair {
        pub q: String,
        #[serde(flatten)]
        pub with: WithKind,
        #[serde(flatten)]
        pub pair: Option<Pair>,
    }

    /// Found by a fifth review: an `Option` inside one that fails goes with
    /// it (it keeps nothing for another); a flattened field of unknown type
    /// (a type parameter) is not counted on to keep anything; a struct that
    /// flattens an enum keeps its own fields.
    #[test]
    fn inner_options_go_with_their_outer_one_and_unknown_fields_keep_nothing() {
        let args = json!({"q": "s", "p": 2, "r": 1});
        as_serde_reads::<OuterOrP>(args.clone()).unwrap();
        assert!(OuterOrP::from_model(args).is_err());
        let args = json!({"q": "s", "p": 3, "r": 1});
        as_serde_reads::<OuterOrP>(args.clone()).unwrap();
        accepted::<OuterOrP>(args);
        let args = json!({"q": "x", "c": 1, "a": 1});
        as_serde_reads::<Generic<C>>(args.clone()).unwrap();
        assert!(Generic::<C>::from_model(args).is_err());
        let args = json!({"q": "x", "c": 1, "a": 1, "b": 2});
        as_serde_reads::<Generic<C>>(args.clone()).unwrap();
        accepted::<Generic<C>>(args);
        let args = json!({"q": "x", "a": 1, "k": "A", "c": 1});
        as_serde_reads::<WithKindThenPair>(args.clone()).unwrap();
        accepted::<WithKindThenPair>(args);
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum CountsOrText {
        First {
            q: String,
            #[serde(flatten)]
            counts: Option<BTreeMap<String, u32>>,
        },
        Second {
            q: String,
            c: String,
        },
    }

    /// An untagged variant flattening an `Option` of a map reads any other
    /// member (the map fails, the `Option` is `None`): a later variant is
    /// never reached, and what the earlier one drops is refused.
    #[test]
    fn an_untagged_variant_with_an_optional_map_reads_anything_else() {
        let args = json!({"q": "x", "c": "s"});
        as_serde_reads::<CountsOrText>(args.clone()).unwrap();
        assert!(CountsOrText::from_model(args).is_err());
        let args = json!({"q": "x", "c": 1});
        as_serde_reads::<CountsOrText>(args.clone()).unwrap();
        accepted::<CountsOrText>(args);
    }

    /// A second failure in the object is reported in the schema's words
    /// only: the type's own refusal would repeat it.
    #[test]
    fn said_once_where_the_schema_says_it() {
        rejected_only_at::<Conn>(json!({"host": "h", "addr": "::1"}), "/port");
        rejected_only_at::<Conn>(json!({"host": "h", "addr": "::1", "port": "80"}), "/port");
    }
}

/// Two shapes serde reads that the schema refused (left open by an earlier
/// review): an alias of the struct's own field that a flattened member also
/// has (serde reads the struct's names first), and a flattened `Option` of a
/// newtype around a struct (schemars writes it as a `$ref` beside the
/// object's members, and drops it at the root).
mod shapes_serde_reads {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Span {
        pub from: u32,
        pub to: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum External {
        A {
            z: u32,
        },
        #[serde(alias = "VV")]
        X {
            q: u32,
            #[serde(flatten)]
            span: Option<Span>,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    pub enum Internal {
        A {
            z: u32,
        },
        #[serde(alias = "VV")]
        X {
            q: u32,
            #[serde(flatten)]
            span: Option<Span>,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        A {
            z: u32,
        },
        #[serde(alias = "VV")]
        X {
            q: u32,
            #[serde(flatten)]
            span: Option<Span>,
        },
    }

    /// Found by a review: a variant read under its alias is checked as
    /// under its name, flattened `Option`s included. (Under the alias,
    /// serde writes the variant's name back: what it reads is compared.)
    #[test]
    fn a_variant_alias_reads_its_flattened_options_whole() {
        #[track_caller]
        fn read_as_serde<T>(args: Value)
        where
            T: ToolArgs + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
        {
            let read: T = serde_json::from_value(args.clone()).unwrap();
            assert_eq!(accepted::<T>(args), read);
        }
        for (name, pointer) in [("X", "/X/to"), ("VV", "/VV/to")] {
            let dropped: External =
                serde_json::from_value(json!({name: {"q": 1, "from": 1}})).unwrap();
            assert_eq!(
                dropped,
                External::X { q: 1, span: None },
                "serde drops `from`"
            );
            rejected_only_at::<External>(json!({name: {"q": 1, "from": 1}}), pointer);
            read_as_serde::<External>(json!({name: {"q": 1, "from": 1, "to": 2}}));
            read_as_serde::<External>(json!({name: {"q": 1}}));
            rejected_only_at::<Internal>(json!({"t": name, "q": 1, "from": 1}), "/to");
            read_as_serde::<Internal>(json!({"t": name, "q": 1, "to": 1, "from": 2}));
            read_as_serde::<Internal>(json!({"t": name, "q": 1}));
            rejected_only_at::<Adjacent>(json!({"t": name, "c": {"q": 1, "from": 1}}), "/c/to");
            read_as_serde::<Adjacent>(json!({"t": name, "c": {"q": 1, "to": 1, "from": 2}}));
        }
        as_serde_reads::<External>(json!({"X": {"q": 1, "from": 1}})).unwrap();
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Person {
        pub name: String,
        pub age: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Titled {
        #[serde(alias = "name")]
        pub title: String,
        #[serde(flatten)]
        pub person: Option<Person>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Wrapped(Person);

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MaybeWrapped {
        pub q: String,
        #[serde(flatten)]
        pub who: Option<Wrapped>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct AlwaysWrapped {
        pub q: String,
        #[serde(flatten)]
        pub who: Wrapped,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsBoth {
        pub maybe: MaybeWrapped,
        pub always: AlwaysWrapped,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Child {
        #[serde(alias = "name")]
        pub title: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Parent {
        pub name: u32,
        #[serde(flatten)]
        pub child: Child,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MaybeParent {
        pub name: u32,
        #[serde(flatten)]
        pub child: Option<Child>,
    }

    /// The other way round: an alias of a flattened type never takes a
    /// name the struct flattening it reads itself (found by a review).
    #[test]
    fn a_flattened_alias_never_takes_the_parents_name() {
        let args = json!({"name": 5, "title": "t"});
        as_serde_reads::<Parent>(args.clone()).unwrap();
        accepted::<Parent>(args.clone());
        as_serde_reads::<MaybeParent>(args.clone()).unwrap();
        accepted::<MaybeParent>(args);
        let args = json!({"name": 5});
        as_serde_reads::<MaybeParent>(args.clone()).unwrap();
        accepted::<MaybeParent>(args);
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Twice(Wrapped);

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub enum Pick {
        A(String),
        B(u32),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct WrappedPick(Pick);

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "t")]
    pub enum Shape {
        Dot { x: u32 },
        Line { len: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct WrappedShape(Shape);

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Named {
        #[serde(alias = "nm")]
        pub name: String,
        pub age: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct WrappedNamed(Named);

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Newtypes {
        pub q: String,
        #[serde(flatten)]
        pub twice: Option<Twice>,
        #[serde(flatten)]
        pub pick: Option<WrappedPick>,
        #[serde(flatten)]
        pub shape: Option<WrappedShape>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MaybeNamed {
        pub q: String,
        #[serde(flatten)]
        pub named: Option<WrappedNamed>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct AlwaysPick {
        pub q: String,
        #[serde(flatten)]
        pub pick: WrappedPick,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsNewtypes {
        pub all: Newtypes,
        pub list: Vec<AlwaysPick>,
    }

    /// Newtypes around a newtype, an enum, a tagged enum and a `ToolArgs`
    /// struct with an alias, flattened: schemars writes each as a reference
    /// that applies the definition as it stands (found by a review).
    #[test]
    fn flattened_newtypes_around_any_type() {
        for args in [
            json!({"q": "x"}),
            json!({"q": "x", "name": "n", "age": 3}),
            json!({"q": "x", "A": "s"}),
            json!({"q": "x", "B": 2, "t": "Dot", "x": 1}),
        ] {
            as_serde_reads::<Newtypes>(args.clone()).unwrap();
            accepted::<Newtypes>(args);
        }
        for args in [
            json!({"q": "x", "name": "n"}),
            json!({"q": "x", "B": "2"}),
            json!({"q": "x", "t": "Dot"}),
        ] {
            as_serde_reads::<Newtypes>(args.clone()).unwrap();
            assert!(Newtypes::from_model(args.clone()).is_err(), "{args}");
        }
        // (`nm`, `Named`'s alias, is not declared here: a `ToolArgs` type
        // reached only through a type that does not derive it is not
        // annotated.)
        for args in [json!({"q": "x"}), json!({"q": "x", "name": "n", "age": 3})] {
            as_serde_reads::<MaybeNamed>(args.clone()).unwrap();
            accepted::<MaybeNamed>(args);
        }
        let args = json!({"q": "x", "A": "s"});
        as_serde_reads::<AlwaysPick>(args.clone()).unwrap();
        accepted::<AlwaysPick>(args);
        let args = json!({
            "all": {"q": "x", "A": "s"},
            "list": [{"q": "y", "B": 1}]
        });
        as_serde_reads::<HoldsNewtypes>(args.clone()).unwrap();
        accepted::<HoldsNewtypes>(args);
    }

    #[test]
    fn an_alias_takes_a_flattened_member_of_its_name() {
        assert_eq!(
            accepted::<Titled>(json!({"name": "t"})),
            Titled {
                title: "t".into(),
                person: None
            }
        );
        // `name` never reaches `Person`: its `age` would be dropped.
        as_serde_reads::<Titled>(json!({"title": "t", "age": 3})).unwrap();
        rejected_only_at::<Titled>(json!({"title": "t", "age": 3}), "/age");
    }

    #[test]
    fn a_flattened_newtype_around_a_struct() {
        for args in [
            json!({"q": "x"}),
            json!({"q": "x", "name": "n", "age": 3}),
            json!({"q": "x", "name": "n"}),
            json!({"q": "x", "name": "n", "age": 3, "zz": 1}),
        ] {
            as_serde_reads::<MaybeWrapped>(args).unwrap();
        }
        assert_eq!(accepted::<MaybeWrapped>(json!({"q": "x"})).who, None);
        assert_eq!(
            accepted::<AlwaysWrapped>(json!({"q": "x", "name": "n", "age": 3})).who,
            Wrapped(Person {
                name: "n".into(),
                age: 3
            })
        );
        rejected_only_at::<AlwaysWrapped>(json!({"q": "x", "name": "n", "age": 3, "zz": 1}), "/zz");
        let both = json!({
            "maybe": {"q": "x"},
            "always": {"q": "y", "name": "n", "age": 3}
        });
        as_serde_reads::<HoldsBoth>(both.clone()).unwrap();
        accepted::<HoldsBoth>(both);
        rejected_only_at::<HoldsBoth>(
            json!({"maybe": {"q": "x", "age": 1}, "always": {"q": "y", "name": "n", "age": 3}}),
            "/maybe/name",
        );
    }
}

/// Found by a review: two keys (or set elements) that differ as JSON but
/// are one once read (`src/lib.rs` and `src//lib.rs` as `PathBuf`s) leave
/// one entry in serde's map, the last: the other is dropped silently.
mod entries_that_merge {
    use super::*;
    use std::collections::{BTreeSet, HashMap, HashSet};
    use std::net::IpAddr;
    use std::path::PathBuf;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WriteFiles {
        #[serde(alias = "contents")]
        pub files: BTreeMap<PathBuf, String>,
        pub hosts: Option<HashMap<IpAddr, u32>>,
        #[serde(default)]
        pub skip: BTreeSet<PathBuf>,
        #[serde(default)]
        pub names: BTreeMap<String, u32>,
    }

    #[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
    pub struct Item {
        pub a: u32,
        #[serde(default)]
        pub s: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "op")]
    pub enum Op {
        Write { files: BTreeMap<PathBuf, String> },
        Pick { items: HashSet<Item> },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Batch {
        pub ops: Vec<Op>,
        pub first: WriteFiles,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Paths {
        Files { files: BTreeMap<PathBuf, u32> },
        Named { files: BTreeMap<String, u32> },
    }

    #[test]
    fn entries_that_merge_are_refused_at_the_later_one() {
        let args = json!({"files": {"src/lib.rs": "a", "src//lib.rs": "b"}});
        let read: WriteFiles = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(read.files.len(), 1, "serde keeps one");
        rejected_only_at::<WriteFiles>(args, "/files/src~1~1lib.rs");
        rejected_only_at::<WriteFiles>(
            json!({"contents": {"a/b": "x", "c": "y", "a/./b": "z"}}),
            "/contents/a~1.~1b",
        );
        rejected_only_at::<WriteFiles>(
            json!({"files": {}, "hosts": {"::1": 1, "::2": 2, "0:0::1": 3}}),
            "/hosts/0:0::1",
        );
        rejected_only_at::<WriteFiles>(json!({"files": {}, "skip": ["a/b", "a//b"]}), "/skip/1");
        match WriteFiles::from_model(json!({"files": {}, "skip": ["a/b", "a//b"]})) {
            Err(ArgsError::Invalid(violations)) => assert!(
                violations.0[0]
                    .message
                    .starts_with(r#""a//b" is the same element as "a/b" (at 0)"#),
                "{}",
                violations.0[0].message
            ),
            other => panic!("{other:?}"),
        }
        let message = match WriteFiles::from_model(json!({"files": {"a": "x", "a/": "y"}})) {
            Err(ArgsError::Invalid(violations)) => violations.0[0].message.clone(),
            other => panic!("{other:?}"),
        };
        assert!(
            message.contains("`a/` is the same entry as `a`"),
            "{message}"
        );
        rejected_only_at::<Batch>(
            json!({
                "ops": [
                    {"op": "Write", "files": {"x": "1"}},
                    {"op": "Pick", "items": [{"a": 1}, {"a": 1, "s": ""}]}
                ],
                "first": {"files": {}}
            }),
            "/ops/1/items/1",
        );
        rejected_only_at::<Batch>(
            json!({"ops": [{"op": "Write", "files": {"x": "1", "x/": "2"}}], "first": {"files": {}}}),
            "/ops/0/files/x~1",
        );
    }

    pub type Files = BTreeMap<PathBuf, u32>;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Aliased {
        pub files: Files,
        pub maybe: Option<Files>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Generic<T> {
        pub m: BTreeMap<PathBuf, T>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Wide {
        pub m: BTreeMap<i128, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Head {
        pub title: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Rest {
        pub id: u32,
        #[serde(flatten)]
        pub head: Head,
        #[serde(flatten)]
        pub rest: BTreeMap<PathBuf, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MaybeRest {
        pub id: u32,
        #[serde(flatten)]
        pub rest: Option<BTreeMap<PathBuf, u32>>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsRest {
        pub q: String,
        #[serde(flatten)]
        pub inner: Rest,
    }

    /// Found by a review: a flattened map reads the members its struct
    /// leaves it, and merged them as any map does.
    #[test]
    fn a_flattened_map_reads_the_members_left_to_it() {
        let args = json!({"id": 1, "title": "t", "a": 1, "a/": 2});
        let read: Rest = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(read.rest.len(), 1, "serde keeps one");
        rejected_only_at::<Rest>(args, "/a~1");
        as_serde_reads::<Rest>(json!({"id": 1, "title": "t", "a": 1, "b/c": 2})).unwrap();
        rejected_only_at::<MaybeRest>(json!({"id": 1, "x//y": 1, "x/y": 2}), "/x~1y");
        as_serde_reads::<MaybeRest>(json!({"id": 1, "x/y": 2})).unwrap();
        rejected_only_at::<HoldsRest>(
            json!({"q": "s", "id": 1, "title": "t", "a": 1, "./a": 2, "a/": 3}),
            "/a~1",
        );
        as_serde_reads::<HoldsRest>(json!({"q": "s", "id": 1, "title": "t", "a": 1})).unwrap();
    }

    /// Found by a review: a type alias, a generic value type and 128-bit
    /// integer keys (`-0` is `0`) escaped the check.
    #[test]
    fn aliases_generic_values_and_wide_integers() {
        rejected_only_at::<Aliased>(
            json!({"files": {"a": 1, "a/": 2}, "maybe": null}),
            "/files/a~1",
        );
        rejected_only_at::<Aliased>(
            json!({"files": {}, "maybe": {"a//b": 1, "a/b": 2}}),
            "/maybe/a~1b",
        );
        as_serde_reads::<Aliased>(json!({"files": {"a": 1, "b": 2}, "maybe": {"a": 1}})).unwrap();
        rejected_only_at::<Generic<u32>>(json!({"m": {"a": 1, "a/": 2}}), "/m/a~1");
        as_serde_reads::<Generic<u32>>(json!({"m": {"a": 1, "b": 2}})).unwrap();
        let read: Wide = serde_json::from_value(json!({"m": {"0": 1, "-0": 2}})).unwrap();
        assert_eq!(read.m.len(), 1, "serde reads one key");
        rejected_only_at::<Wide>(json!({"m": {"0": 1, "-0": 2}}), "/m/-0");
        as_serde_reads::<Wide>(json!({"m": {"0": 1, "-1": 2}})).unwrap();
    }

    #[test]
    fn distinct_entries_are_read_as_serde_reads_them() {
        let all = |files: Value, hosts: Value, skip: Value, names: Value| json!({"files": files, "hosts": hosts, "skip": skip, "names": names});
        for args in [
            all(
                json!({"src/lib.rs": "a", "src/main.rs": "b"}),
                json!(null),
                json!([]),
                json!({}),
            ),
            all(
                json!({}),
                json!({"::1": 1, "10.0.0.1": 2}),
                json!(["a", "b/c"]),
                json!({}),
            ),
            all(
                json!({"a": "x"}),
                json!(null),
                json!([]),
                json!({"a": 1, "a/": 2}),
            ),
        ] {
            as_serde_reads::<WriteFiles>(args).unwrap();
        }
        // A `HashSet` writes its elements back in any order: what serde
        // reads is compared.
        let args = json!({
            "ops": [{"op": "Pick", "items": [{"a": 1, "s": ""}, {"a": 2, "s": ""}]}],
            "first": all(json!({"a": "x"}), json!(null), json!([]), json!({}))
        });
        let read: Batch = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(accepted::<Batch>(args), read);
        // serde reads the first variant, merging: refused, not read as the
        // second.
        let args = json!({"files": {"a": 1, "a/": 2}});
        let read: Paths = serde_json::from_value(args.clone()).unwrap();
        assert!(matches!(&read, Paths::Files { files } if files.len() == 1));
        assert!(Paths::from_model(args).is_err());
        as_serde_reads::<Paths>(json!({"files": {"a": 1, "b": 2}})).unwrap();
    }
}

/// Found by a review: an internally tagged newtype around a type whose
/// schema takes anything reads every member beside the tag; schemars wrote
/// its branch as the tag alone, which closing read as no fields.
mod internally_tagged_any {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(transparent)]
    pub struct Raw {
        pub value: Value,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "action")]
    pub enum Action {
        Custom(Value),
        Boxed(Box<Value>),
        #[serde(alias = "raw")]
        Wrapped(Raw),
        Stop,
        Go {
            to: String,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Plan {
        pub steps: Vec<Action>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Flat {
        pub id: u32,
        #[serde(flatten)]
        pub action: Action,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MaybeFlat {
        pub id: u32,
        #[serde(flatten)]
        pub action: Option<Action>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "kind")]
    pub enum Outer {
        Inner(Action),
        Other { y: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsOuter {
        pub o: Outer,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum NumberOrAny {
        Number { n: u32 },
        Any(Value),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct FlatAny {
        pub id: u32,
        #[serde(flatten)]
        pub u: NumberOrAny,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "action")]
    pub enum TaggedAny {
        Custom(NumberOrAny),
        Stop,
    }

    /// Found by a review: a `Value` variant of an untagged enum (`true`)
    /// evaluates nothing, so the object around the union was left open; a
    /// member beside the earlier variant's was dropped.
    #[test]
    fn an_untagged_value_variant_leaves_the_earlier_one_closed() {
        let args = json!({"id": 1, "n": 1, "x": 2});
        let read: FlatAny = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(read.u, NumberOrAny::Number { n: 1 }, "serde drops `x`");
        rejected_only_at::<FlatAny>(args, "/x");
        as_serde_reads::<FlatAny>(json!({"id": 1, "n": 1})).unwrap();
        as_serde_reads::<FlatAny>(json!({"id": 1, "m": "s", "x": [2]})).unwrap();
        rejected_only_at::<TaggedAny>(json!({"action": "Custom", "n": 1, "x": 2}), "/x");
        as_serde_reads::<TaggedAny>(json!({"action": "Custom", "n": 1})).unwrap();
        as_serde_reads::<TaggedAny>(json!({"action": "Custom", "x": 2})).unwrap();
    }

    /// Found by a review: the open branch left the object around it open,
    /// so a member sent with another variant was dropped.
    #[test]
    fn the_other_variants_stay_closed_around_it() {
        rejected_only_at::<Flat>(json!({"id": 1, "action": "Stop", "x": 1}), "/x");
        rejected_only_at::<Flat>(json!({"id": 1, "action": "Go", "to": "t", "x": 1}), "/x");
        as_serde_reads::<Flat>(json!({"id": 1, "action": "Custom", "x": 1})).unwrap();
        as_serde_reads::<Flat>(json!({"id": 1, "action": "Go", "to": "t"})).unwrap();
        rejected_only_at::<HoldsOuter>(
            json!({"o": {"kind": "Inner", "action": "Stop", "x": 1}}),
            "/o/x",
        );
        as_serde_reads::<HoldsOuter>(json!({"o": {"kind": "Inner", "action": "Custom", "x": 1}}))
            .unwrap();
        rejected_only_at::<MaybeFlat>(json!({"id": 1, "action": "Stop", "x": 1}), "/x");
        as_serde_reads::<MaybeFlat>(json!({"id": 1})).unwrap();
        as_serde_reads::<MaybeFlat>(json!({"id": 1, "action": "Stop"})).unwrap();
        // Flattened as an `Option`, the enum's union sits beside an empty
        // branch: the newtype's branch is opened there too.
        as_serde_reads::<MaybeFlat>(json!({"id": 1, "action": "Custom", "x": 1})).unwrap();
        as_serde_reads::<MaybeFlat>(json!({"id": 1, "action": "Wrapped", "x": [1]})).unwrap();
    }

    #[test]
    fn every_member_beside_the_tag_is_read_into_it() {
        for args in [
            json!({"action": "Custom", "x": 1, "y": [true]}),
            json!({"action": "Boxed", "x": {"deep": null}}),
            json!({"action": "Wrapped", "x": "s"}),
            json!({"action": "Custom"}),
            json!({"action": "Go", "to": "a"}),
            json!({"action": "Stop"}),
        ] {
            as_serde_reads::<Action>(args).unwrap();
        }
        let args = json!({"action": "raw", "x": 2});
        let read: Action = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(accepted::<Action>(args), read);
        assert_eq!(
            accepted::<Plan>(json!({"steps": [{"action": "Custom", "q": "a &amp; b"}]})).steps,
            [Action::Custom(json!({"q": "a & b"}))]
        );
        // A unit or struct variant still refuses what serde would drop.
        rejected_only_at::<Action>(json!({"action": "Stop", "x": 1}), "/x");
        rejected_only_at::<Action>(json!({"action": "Go", "to": "a", "x": 1}), "/x");
    }
}

/// Found by a review of the closing changes: open parts reached through a
/// reference, flattened maps after a map or inside an adjacently tagged
/// variant's content, a flattened map through a type alias, and variant
/// aliases of an enum flattened as an `Option`.
mod closing_review {
    use super::*;
    use std::path::PathBuf;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[tool_args(open)]
    pub struct Loose {
        pub o: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "action")]
    pub enum Act {
        Stop { why: u32 },
        Loose(Loose),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct FlatAct {
        pub x: u32,
        #[serde(flatten)]
        pub act: Act,
    }

    #[test]
    fn an_open_struct_behind_a_reference_leaves_the_other_branches_closed() {
        rejected_only_at::<FlatAct>(
            json!({"x": 1, "action": "Stop", "why": 2, "junk": 3}),
            "/junk",
        );
        as_serde_reads::<FlatAct>(json!({"x": 1, "action": "Stop", "why": 2})).unwrap();
        // `open` is the author's word that extra members may be ignored.
        accepted::<FlatAct>(json!({"x": 1, "action": "Loose", "o": 2, "more": 3}));
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct AfterMap {
        #[serde(flatten)]
        pub names: BTreeMap<String, u32>,
        #[serde(flatten)]
        pub paths: BTreeMap<PathBuf, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        V {
            #[serde(flatten)]
            paths: BTreeMap<PathBuf, u32>,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsAdjacent {
        pub e: Adjacent,
    }

    pub type Paths = BTreeMap<PathBuf, u32>;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct AliasedFlat {
        pub x: u32,
        #[serde(flatten)]
        pub paths: Paths,
    }

    #[test]
    fn flattened_maps_read_what_serde_gives_them() {
        // A map before takes nothing: the later one reads every member.
        let read: AfterMap = serde_json::from_value(json!({"a": 1, "a/": 2})).unwrap();
        assert_eq!(read.paths.len(), 1, "serde merges");
        assert!(AfterMap::from_model(json!({"a": 1, "a/": 2})).is_err());
        assert_eq!(
            accepted::<AfterMap>(json!({"a": 1, "b/c": 2})).paths.len(),
            2
        );
        // In the content object, the tag's and content's names are members.
        rejected_only_at::<HoldsAdjacent>(
            json!({"e": {"t": "V", "c": {"t": 1, "t/": 2}}}),
            "/e/c/t~1",
        );
        as_serde_reads::<HoldsAdjacent>(json!({"e": {"t": "V", "c": {"t": 1, "c": 2}}})).unwrap();
        rejected_only_at::<AliasedFlat>(json!({"x": 1, "p": 1, "p/": 2}), "/p~1");
        as_serde_reads::<AliasedFlat>(json!({"x": 1, "p": 1, "q": 2})).unwrap();
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "action")]
    pub enum Aliased {
        #[serde(alias = "stop")]
        Stop {
            why: u32,
        },
        Go,
        #[serde(alias = "custom")]
        Custom(Value),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum External {
        #[serde(alias = "stop")]
        Stop {
            why: u32,
        },
        Go,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MaybeAliased {
        pub x: u32,
        #[serde(flatten)]
        pub a: Option<Aliased>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct MaybeExternal {
        pub x: u32,
        #[serde(flatten)]
        pub a: Option<External>,
    }

    #[test]
    fn variant_aliases_of_an_enum_flattened_as_an_option() {
        for args in [
            json!({"x": 1, "action": "stop", "why": 1}),
            json!({"x": 1, "action": "custom", "k": 1}),
            json!({"x": 1, "action": "Stop", "why": 1}),
        ] {
            let read: MaybeAliased = serde_json::from_value(args.clone()).unwrap();
            assert_eq!(accepted::<MaybeAliased>(args), read);
        }
        let args = json!({"x": 1, "stop": {"why": 1}});
        let read: MaybeExternal = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(accepted::<MaybeExternal>(args), read);
        rejected_only_at::<MaybeAliased>(json!({"x": 1, "action": "stop", "why": 1, "z": 2}), "/z");
    }
}

/// Found by a review: an open struct flattened into one struct variant
/// opened every variant of the enum (its `open` was applied across the
/// enum's schema).
mod open_inside_a_variant {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[tool_args(open)]
    pub struct Loose {
        pub o: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    pub enum Internal {
        A {
            #[serde(flatten)]
            loose: Loose,
            k: u32,
        },
        B {
            b: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum External {
        A {
            #[serde(flatten)]
            loose: Loose,
            k: u32,
        },
        B {
            b: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Untagged {
        A {
            #[serde(flatten)]
            loose: Loose,
            k: u32,
        },
        B {
            b: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Holds {
        pub i: Internal,
        pub e: External,
        pub u: Untagged,
    }

    #[test]
    fn the_other_variants_stay_closed() {
        let ok = json!({"i": {"t": "B", "b": 1}, "e": {"B": {"b": 1}}, "u": {"b": 1}});
        as_serde_reads::<Holds>(ok.clone()).unwrap();
        let mut args = ok.clone();
        args["i"]["z"] = json!(3);
        rejected_only_at::<Holds>(args, "/i/z");
        let mut args = ok.clone();
        args["e"]["B"]["z"] = json!(3);
        rejected_only_at::<Holds>(args, "/e/B/z");
        let mut args = ok;
        args["u"]["k"] = json!(2);
        let read: Holds = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(read.u, Untagged::B { b: 1 }, "serde drops `k`");
        assert!(Holds::from_model(args).is_err());
        // The open variant still takes what it was opened for.
        accepted::<Holds>(json!({
            "i": {"t": "A", "o": 1, "k": 2, "more": 3},
            "e": {"A": {"o": 1, "k": 2, "more": 3}},
            "u": {"o": 1, "k": 2}
        }));
    }
}

/// Found by the stop 21 review: a field's annotations (its aliases, its
/// verbatim mark, the whole check of an `Option` it flattens) were looked
/// up in the enum's top-level union only. An enum flattened as an `Option`
/// puts its union beside an empty branch, so they were never applied there:
/// an alias was refused, a verbatim field entity-decoded, and a member of a
/// flattened `Option` dropped with its `None`.
mod fields_of_a_variant_flattened_as_an_option {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Extra {
        pub e: u32,
        pub f: u32,
    }

    /// The same enum in one representation (`$repr`), and a struct that
    /// flattens it as an `Option`.
    macro_rules! go_or_stop {
        ($(#[$repr:meta])* $name:ident, $with:ident) => {
            #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
            $(#[$repr])*
            pub enum $name {
                Go {
                    #[serde(alias = "pace")]
                    speed: u32,
                    #[tool_args(verbatim)]
                    raw: Option<String>,
                    #[serde(flatten)]
                    extra: Option<Extra>,
                },
                Stop {
                    why: u32,
                },
            }

            #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
            pub struct $with {
                pub x: u32,
                #[serde(flatten)]
                pub act: Option<$name>,
            }
        };
    }

    go_or_stop!(
        #[serde(tag = "t")]
        Internal,
        WithInternal
    );
    go_or_stop!(
        #[serde(tag = "t", content = "c")]
        Adjacent,
        WithAdjacent
    );
    go_or_stop!(External, WithExternal);

    /// `go` is the variant's members as each form writes them around.
    fn each_form(go: Value, check: impl Fn(&str, Value)) {
        let mut internal = json!({"x": 1, "t": "Go"});
        internal
            .as_object_mut()
            .unwrap()
            .extend(go.as_object().unwrap().clone());
        check("internal", internal);
        check("adjacent", json!({"x": 1, "t": "Go", "c": go.clone()}));
        check("external", json!({"x": 1, "Go": go}));
    }

    /// `$check::<T>($args...)` with `T` the struct of the form `$form`.
    macro_rules! on_form {
        ($form:expr, $check:ident($($arg:expr),*)) => {
            match $form {
                "internal" => $check::<WithInternal>($($arg),*),
                "adjacent" => $check::<WithAdjacent>($($arg),*),
                _ => $check::<WithExternal>($($arg),*),
            }
        };
    }

    #[test]
    fn an_alias_is_read_as_serde_reads_it() {
        each_form(json!({"pace": 3}), |form, args| on_form!(form, same(args)));
    }

    #[test]
    fn a_member_of_a_flattened_option_is_never_dropped() {
        each_form(json!({"speed": 3, "e": 1}), |form, args| {
            // serde reads `extra` as `None` and drops `e`: refused where
            // `Extra`'s own form fails, at the missing `f`.
            on_form!(form, as_serde_reads(args.clone())).unwrap();
            let pointer = match form {
                "internal" => "/f",
                "adjacent" => "/c/f",
                _ => "/Go/f",
            };
            on_form!(form, rejected_only_at(args, pointer));
        });
        each_form(json!({"speed": 3, "e": 1, "f": 2}), |form, args| {
            on_form!(form, same(args))
        });
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum Other {
        P { p: u32 },
        Q { q: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum Aliased {
        #[serde(alias = "run")]
        Go(bool),
        Stop(u32),
    }

    /// Two flattened enums: each union is a part of the object's `allOf`.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct TwoEnums {
        pub x: u32,
        #[serde(flatten)]
        pub other: Other,
        #[serde(flatten)]
        pub act: Internal,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct TwoOptions {
        pub x: u32,
        #[serde(flatten)]
        pub other: Option<Other>,
        #[serde(flatten)]
        pub act: Option<Aliased>,
    }

    /// Found by the generated types (`tests/generated_contract.rs`): the
    /// variants of an enum flattened beside another one were looked for in
    /// the object's own union only, so their aliases, field aliases and
    /// verbatim marks were missing.
    #[test]
    fn beside_another_flattened_enum() {
        same::<TwoEnums>(json!({"x": 1, "k": "P", "p": 2, "t": "Go", "pace": 3}));
        same::<TwoOptions>(json!({"x": 1, "k": "Q", "q": 2, "run": true}));
        same::<TwoOptions>(json!({"x": 1, "run": false}));
        let read = accepted::<TwoEnums>(
            json!({"x": 1, "k": "P", "p": 2, "t": "Go", "speed": 3, "raw": "a &amp; b"}),
        );
        assert_eq!(
            read.act,
            Internal::Go {
                speed: 3,
                raw: Some("a &amp; b".into()),
                extra: None
            }
        );
        rejected_only_at::<TwoEnums>(
            json!({"x": 1, "k": "P", "p": 2, "t": "Go", "speed": 3, "e": 1}),
            "/f",
        );
    }

    #[test]
    fn a_verbatim_field_keeps_its_references() {
        let args = json!({"x": 1, "t": "Go", "speed": 3, "raw": "a &amp; b"});
        let read = accepted::<WithInternal>(args);
        assert_eq!(
            read.act,
            Some(Internal::Go {
                speed: 3,
                raw: Some("a &amp; b".into()),
                extra: None
            })
        );
        let args = json!({"x": 1, "t": "Go", "c": {"speed": 3, "raw": "a &amp; b"}});
        let read = accepted::<WithAdjacent>(args);
        assert_eq!(
            read.act,
            Some(Adjacent::Go {
                speed: 3,
                raw: Some("a &amp; b".into()),
                extra: None
            })
        );
        let args = json!({"x": 1, "Go": {"speed": 3, "raw": "a &amp; b"}});
        let read = accepted::<WithExternal>(args);
        assert_eq!(
            read.act,
            Some(External::Go {
                speed: 3,
                raw: Some("a &amp; b".into()),
                extra: None
            })
        );
    }
}

/// Found by the generated types (seed 5): schemars writes a closed struct
/// (`deny_unknown_fields`) into the branch of an internally tagged newtype
/// variant around it, not as a reference to its definition, so the
/// struct's annotations, made on its definition, never reached the branch.
mod a_closed_struct_in_an_internally_tagged_newtype {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Extra {
        pub e: u32,
        pub f: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(deny_unknown_fields)]
    pub struct Closed {
        #[serde(alias = "pace")]
        pub speed: u32,
        #[tool_args(verbatim)]
        pub raw: Option<String>,
        #[serde(flatten)]
        pub extra: Option<Extra>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    pub enum Act {
        Go(Closed),
        Stop,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Call {
        pub act: Act,
        #[serde(flatten)]
        pub also: Option<Act>,
    }

    #[test]
    fn an_alias_is_read_as_serde_reads_it() {
        same::<Act>(json!({"t": "Go", "pace": 3}));
        same::<Call>(json!({"act": {"t": "Go", "pace": 3}, "t": "Go", "pace": 4}));
    }

    #[test]
    fn a_verbatim_field_keeps_its_references() {
        let read = accepted::<Act>(json!({"t": "Go", "speed": 3, "raw": "a &amp; b"}));
        assert_eq!(
            read,
            Act::Go(Closed {
                speed: 3,
                raw: Some("a &amp; b".into()),
                extra: None
            })
        );
    }

    #[test]
    fn a_member_of_a_flattened_option_is_never_dropped() {
        // serde reads `extra` as `None` and drops `e`.
        as_serde_reads::<Act>(json!({"t": "Go", "speed": 3, "e": 1})).unwrap();
        rejected_only_at::<Act>(json!({"t": "Go", "speed": 3, "e": 1}), "/f");
        rejected_only_at::<Call>(
            json!({"act": {"t": "Stop"}, "t": "Go", "speed": 3, "e": 1}),
            "/f",
        );
        same::<Act>(json!({"t": "Go", "speed": 3, "e": 1, "f": 2}));
        rejected_only_at::<Act>(json!({"t": "Go", "speed": 3, "zz": 1}), "/zz");
    }
}

/// Found by the generated types (seed 8): an untagged enum flattened
/// beside another enum was annotated in the other enum's union (schemars
/// writes the untagged one as `anyOf` beside the tagged one's `oneOf`, or
/// each in a part of `allOf`), so its field aliases were refused and its
/// verbatim fields decoded.
mod an_untagged_enum_beside_another_flattened_enum {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Shape {
        Circle {
            #[serde(alias = "rad")]
            radius: u32,
        },
        Square {
            side: u32,
            #[tool_args(verbatim)]
            label: Option<String>,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum Other {
        P { p: u32 },
        Q { q: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Two {
        pub x: u32,
        #[serde(flatten)]
        pub shape: Shape,
        #[serde(flatten)]
        pub other: Other,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Inner {
        pub y: u32,
        #[serde(flatten)]
        pub other: Other,
    }

    /// The unions end up in `allOf`: one from the enum, one from the
    /// struct that flattens the other.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Nested {
        #[serde(flatten)]
        pub shape: Shape,
        #[serde(flatten)]
        pub inner: Inner,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Options {
        #[serde(flatten)]
        pub other: Option<Other>,
        #[serde(flatten)]
        pub shape: Option<Shape>,
    }

    #[test]
    fn a_field_alias_is_read_as_serde_reads_it() {
        same::<Two>(json!({"x": 1, "rad": 3, "k": "P", "p": 1}));
        same::<Nested>(json!({"rad": 3, "y": 2, "k": "Q", "q": 1}));
        same::<Options>(json!({"rad": 3, "k": "Q", "q": 1}));
        same::<Options>(json!({"rad": 3}));
    }

    #[test]
    fn a_verbatim_field_keeps_its_references() {
        let square = Shape::Square {
            side: 3,
            label: Some("a &amp; b".into()),
        };
        let args = json!({"x": 1, "side": 3, "label": "a &amp; b", "k": "P", "p": 1});
        assert_eq!(accepted::<Two>(args).shape, square);
        let args = json!({"side": 3, "label": "a &amp; b", "y": 2, "k": "P", "p": 1});
        assert_eq!(accepted::<Nested>(args).shape, square);
        let args = json!({"side": 3, "label": "a &amp; b", "k": "P", "p": 1});
        assert_eq!(accepted::<Options>(args).shape, Some(square));
    }
}

/// Found by the generated types (seed 24): the whole check of an enum
/// flattened as an `Option` named the members as schemars wrote them, not
/// the aliases serde also reads them under. A variant sent under its alias
/// with a field under two names (serde fails the enum and drops it) was
/// accepted as `None`, silently.
mod aliases_of_an_enum_flattened_as_an_option {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum External {
        Stop,
        #[serde(alias = "Run")]
        Go {
            #[serde(alias = "pace")]
            speed: u32,
            why: i64,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    pub enum Internal {
        #[serde(alias = "Run")]
        Go {
            #[serde(alias = "pace")]
            speed: u32,
            why: i64,
        },
        Stop,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithExternal {
        pub x: u32,
        #[serde(flatten)]
        pub act: Option<External>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithInternal {
        pub x: u32,
        #[serde(flatten)]
        pub act: Option<Internal>,
    }

    #[test]
    fn a_variant_under_its_alias_is_never_dropped() {
        let twice = json!({"x": 1, "Run": {"pace": 3, "why": 1, "speed": 3}});
        as_serde_reads::<WithExternal>(twice.clone()).unwrap();
        rejected_only_at::<WithExternal>(twice, "/Run");
        let twice = json!({"x": 1, "Go": {"pace": 3, "why": 1, "speed": 3}});
        rejected_only_at::<WithExternal>(twice, "/Go");
        same::<WithExternal>(json!({"x": 1, "Run": {"pace": 3, "why": 1}}));
    }

    #[test]
    fn a_field_under_its_alias_is_never_dropped() {
        let twice = json!({"x": 1, "t": "Run", "pace": 3, "why": 1, "speed": 3});
        as_serde_reads::<WithInternal>(twice.clone()).unwrap();
        assert!(matches!(
            WithInternal::from_model(twice),
            Err(ArgsError::Invalid(_))
        ));
        let alone = json!({"x": 1, "pace": 3});
        as_serde_reads::<WithInternal>(alone.clone()).unwrap();
        assert!(matches!(
            WithInternal::from_model(alone),
            Err(ArgsError::Invalid(_))
        ));
        same::<WithInternal>(json!({"x": 1, "t": "Run", "pace": 3, "why": 1}));
    }
}

/// Found by the generated types (seeds 11, 14, 15, 19): schemars lets the
/// union of a type flattened as an `Option` be left out, but not the unions
/// it moved into `allOf` (a struct flattening a tagged and an untagged
/// enum), so an object sending none of the type was refused where serde
/// reads `None`.
mod unions_inside_a_struct_flattened_as_an_option {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "k")]
    pub enum Tagged {
        P { p: u32 },
        Q { q: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Shape {
        Circle { radius: u32 },
        Square { side: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Spec {
        pub a: u32,
        #[serde(flatten)]
        pub tagged: Tagged,
        #[serde(flatten)]
        pub shape: Shape,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Root {
        pub x: u32,
        #[serde(flatten)]
        pub spec: Option<Spec>,
    }

    #[test]
    fn none_of_it_is_none() {
        same::<Root>(json!({"x": 1}));
        same::<Root>(json!({"x": 1, "a": 2, "k": "P", "p": 1, "radius": 3}));
    }

    #[test]
    fn a_part_of_it_is_refused_not_dropped() {
        for part in [
            json!({"x": 1, "a": 2, "k": "P", "p": 1}),
            json!({"x": 1, "radius": 3}),
            json!({"x": 1, "k": "Q", "q": 1, "side": 3}),
        ] {
            as_serde_reads::<Root>(part.clone()).unwrap();
            assert!(
                matches!(Root::from_model(part.clone()), Err(ArgsError::Invalid(_))),
                "{part}"
            );
        }
    }
}

/// Found by the generated types (seeds 17, 20, 21, 22): a flattened
/// `Option` of a type that reads every member (a struct flattening a map)
/// takes none of them, so what it drops when it fails is there for the
/// flattened fields after it: another flattened `Option` that reads whole,
/// an externally tagged enum (the member named as its variant), the tag of
/// an internally tagged enum.
mod what_a_failing_option_of_a_map_leaves_to_the_fields_after_it {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Rest {
        pub a: u32,
        #[serde(flatten)]
        pub rest: BTreeMap<String, f64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    pub enum Tagged {
        A { x: u32 },
        B,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct TwoOptions {
        pub y: u32,
        #[serde(flatten)]
        pub rest: Option<Rest>,
        #[serde(flatten)]
        pub tagged: Option<Tagged>,
    }

    #[test]
    fn an_option_after_it_that_reads_whole_keeps_its_members() {
        same::<TwoOptions>(json!({"y": 1, "t": "B"}));
        same::<TwoOptions>(json!({"y": 1, "t": "A", "x": 2}));
        // `a` goes with the map, which refuses `"A"` as a number: dropped.
        as_serde_reads::<TwoOptions>(json!({"y": 1, "a": 3, "t": "A", "x": 2})).unwrap();
        assert!(TwoOptions::from_model(json!({"y": 1, "a": 3, "t": "A", "x": 2})).is_err());
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Counted {
        pub x: u32,
        #[serde(flatten)]
        pub m: BTreeMap<String, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum External {
        V {
            v: u32,
        },
        #[serde(alias = "w2")]
        W(u32),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Part {
        pub a: u32,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub external: External,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsPart {
        pub r: u32,
        #[serde(flatten)]
        pub part: Part,
    }

    #[test]
    fn an_externally_tagged_enum_after_it_keeps_its_variant() {
        same::<HoldsPart>(json!({"r": 1, "a": 2, "V": {"v": 3}}));
        same::<HoldsPart>(json!({"r": 1, "a": 2, "W": 3}));
        same::<HoldsPart>(json!({"r": 1, "a": 2, "w2": 3}));
        same::<HoldsPart>(json!({"r": 1, "a": 2, "w2": 3, "x": 1, "z": 1}));
        // `z` goes with the map, which fails without `x`: dropped.
        assert!(HoldsPart::from_model(json!({"r": 1, "a": 2, "W": 3, "z": 1})).is_err());
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum Internal {
        P { p: u32 },
        Q,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct InternalAfter {
        pub a: u32,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub internal: Internal,
    }

    #[test]
    fn an_internally_tagged_enum_after_it_keeps_its_tag() {
        same::<InternalAfter>(json!({"a": 2, "k": "Q"}));
    }
}

/// Found by the generated types (seed 22): serde reads an adjacently
/// tagged newtype variant around an `Option` from its tag alone, as `None`;
/// schemars requires the content.
mod an_adjacently_tagged_option_without_its_content {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        V(Option<u32>),
        #[serde(alias = "v2")]
        W(Option<u32>),
        X(u32),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsAdjacent {
        pub e: Adjacent,
    }

    #[test]
    fn is_the_variant_of_none() {
        same::<HoldsAdjacent>(json!({"e": {"t": "V"}}));
        same::<HoldsAdjacent>(json!({"e": {"t": "V", "c": null}}));
        same::<HoldsAdjacent>(json!({"e": {"t": "v2"}}));
        same::<HoldsAdjacent>(json!({"e": {"t": "V", "c": 3}}));
        // Content that is no `Option` is still required.
        assert!(serde_json::from_value::<HoldsAdjacent>(json!({"e": {"t": "X"}})).is_err());
        rejected_only_at::<HoldsAdjacent>(json!({"e": {"t": "X"}}), "/e/c");
    }
}

/// Found by the generated types (seed 6): an internally tagged newtype
/// variant around a struct that flattens a map. serde takes the tag first
/// and hands the struct the rest; the `$ref` beside the tag held the tag to
/// the map's value schema (`/e/t: expected number`).
mod an_internally_tagged_newtype_around_a_struct_with_a_map {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Numbers {
        pub a: u32,
        #[serde(flatten)]
        pub m: BTreeMap<String, f64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "t")]
    pub enum Internal {
        V(Numbers),
        W { w: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsInternal {
        pub e: Internal,
    }

    #[test]
    fn reads_the_tag_apart_from_the_map() {
        same::<HoldsInternal>(json!({"e": {"t": "V", "a": 1, "k": 2.5}}));
        same::<HoldsInternal>(json!({"e": {"t": "V", "a": 1}}));
        // The map's values are still held to its value schema.
        rejected_only_at::<HoldsInternal>(json!({"e": {"t": "V", "a": 1, "k": "x"}}), "/e/k");
        rejected_only_at::<HoldsInternal>(json!({"e": {"t": "W", "w": 1, "k": 2.5}}), "/e/k");
    }
}

/// Found by the generated types (seeds 17, 22): a tagged enum (no
/// `Option`) beside a flattened `Option` of a map-reading type buffers the
/// members and reads those of the variant its tag names; the `Option`,
/// failing, drops none of those. A member of another variant is still
/// dropped by both, and refused.
mod a_tagged_enum_keeps_its_variants_members {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Counted {
        pub x: u32,
        #[serde(flatten)]
        pub m: BTreeMap<String, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum Internal {
        P { p: u32 },
        R { r: u32 },
        Q,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k", content = "c")]
    pub enum Adjacent {
        P(u32),
        Q,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct InternalAfter {
        pub a: u32,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub internal: Internal,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct AdjacentBefore {
        pub a: u32,
        #[serde(flatten)]
        pub adjacent: Adjacent,
        #[serde(flatten)]
        pub counted: Option<Counted>,
    }

    #[test]
    fn internally_tagged_after_it() {
        same::<InternalAfter>(json!({"a": 2, "k": "P", "p": 1}));
        same::<InternalAfter>(json!({"a": 2, "k": "R", "r": 1}));
        for lossy in [
            json!({"a": 2, "k": "P", "p": 1, "r": 5}),
            json!({"a": 2, "k": "Q", "p": 1}),
        ] {
            as_serde_reads::<InternalAfter>(lossy.clone()).unwrap();
            assert!(InternalAfter::from_model(lossy.clone()).is_err(), "{lossy}");
        }
    }

    #[test]
    fn adjacently_tagged_before_it() {
        same::<AdjacentBefore>(json!({"a": 2, "k": "P", "c": 1}));
        same::<AdjacentBefore>(json!({"a": 2, "k": "Q"}));
        let lossy = json!({"a": 2, "k": "Q", "z": 4});
        as_serde_reads::<AdjacentBefore>(lossy.clone()).unwrap();
        assert!(
            AdjacentBefore::from_model(lossy.clone()).is_err(),
            "{lossy}"
        );
    }
}

/// Found by the generated types (seeds 34, 43): inside an untagged enum a
/// branch that passes where serde's reading of its variant fails vouches for
/// members serde drops when it reads a later variant instead (one that
/// ignores them). Two such failures JSON Schema does not see: an integer
/// written `900.0`, and a field sent under two of its names (serde:
/// `duplicate field`).
mod what_serde_refuses_in_an_earlier_untagged_variant {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Spec {
        #[serde(alias = "b1")]
        pub b: i64,
        pub c: bool,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Item {
        V1 {
            #[serde(alias = "s1")]
            s: Spec,
            n: u32,
        },
        V2 {
            m: Option<u32>,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Num {
        A {
            i: i64,
            j: bool,
        },
        B {
            #[serde(default)]
            k: f64,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Holds {
        pub item: Item,
        pub num: Num,
    }

    #[test]
    fn an_integer_written_with_a_fraction() {
        let lossy =
            json!({"item": {"s": {"b": 1, "c": true}, "n": 3}, "num": {"i": 900.0, "j": true}});
        as_serde_reads::<Holds>(lossy.clone()).unwrap();
        rejected_only_at::<Holds>(lossy, "/num/i");
        same::<Holds>(
            json!({"item": {"s": {"b": 1, "c": true}, "n": 3}, "num": {"i": 900, "j": true}}),
        );
    }

    #[test]
    fn a_field_under_two_of_its_names() {
        let lossy =
            json!({"item": {"s1": {"b": 1, "b1": 1, "c": true}, "n": 3}, "num": {"k": 1.5}});
        as_serde_reads::<Holds>(lossy.clone()).unwrap();
        assert!(matches!(
            Holds::from_model(lossy),
            Err(ArgsError::Invalid(_))
        ));
        // Outside an untagged enum serde's own refusal stands.
        assert!(serde_json::from_value::<Spec>(json!({"b": 1, "b1": 1, "c": true})).is_err());
        assert!(Spec::from_model(json!({"b": 1, "b1": 1, "c": true})).is_err());
        same::<Holds>(json!({"item": {"s1": {"b1": 1, "c": true}, "n": 3}, "num": {"k": 1.5}}));
    }
}

/// Found by the generated types (seeds 28, 30): a field of a flattened
/// struct after a failing flattened `Option` of a map-reading type, sent
/// under its alias, is read by that struct (the alias is declared after the
/// `Option`'s entry is made), not dropped.
mod an_alias_read_by_a_later_flattened_struct {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Counted {
        pub x: u32,
        #[serde(flatten)]
        pub m: BTreeMap<String, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Later {
        #[serde(alias = "b1")]
        pub b: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Holds {
        pub a: String,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub later: Later,
    }

    #[test]
    fn is_kept() {
        same::<Holds>(json!({"a": "s", "b1": 3}));
        same::<Holds>(json!({"a": "s", "b": 3}));
        same::<Holds>(json!({"a": "s", "b1": 3, "x": 1, "z": 2}));
        let lossy = json!({"a": "s", "b1": 3, "z": 2});
        as_serde_reads::<Holds>(lossy.clone()).unwrap();
        assert!(Holds::from_model(lossy).is_err());
    }
}

/// Found by generated seed 39: a flattened `Option` of a struct that itself
/// flattens a map, before a flattened map. schemars keeps the first field's
/// value schema for the members no one names (the `Option`'s `u32`), but
/// the later map reads every such member, and the `Option` is `None` when
/// one is no `u32`: the map's value schema is the one that holds.
mod a_map_after_an_option_that_reads_a_map {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Counts {
        pub named: BTreeMap<String, Vec<String>>,
        #[serde(flatten)]
        pub counts: BTreeMap<String, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Labels {
        pub q: u32,
        #[serde(flatten)]
        pub counts: Option<Counts>,
        #[serde(flatten)]
        pub labels: BTreeMap<String, String>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct LabelsFirst {
        pub q: u32,
        #[serde(flatten)]
        pub labels: BTreeMap<String, String>,
        #[serde(flatten)]
        pub counts: Option<Counts>,
    }

    #[test]
    fn holds_the_members_to_the_map_beside() {
        for args in [
            json!({"q": 1, "k": "x y"}),
            json!({"q": 1, "k": "5", "named": "s"}),
            json!({"q": 1}),
        ] {
            as_serde_reads::<Labels>(args.clone()).unwrap();
            same::<Labels>(args.clone());
            as_serde_reads::<LabelsFirst>(args.clone()).unwrap();
            same::<LabelsFirst>(args);
        }
        // The map refuses what is no string, whatever the `Option` reads.
        for args in [
            json!({"q": 1, "k": 5}),
            json!({"q": 1, "named": {"a": ["s"]}, "k": 5}),
        ] {
            assert!(serde_json::from_value::<Labels>(args.clone()).is_err());
            assert!(Labels::from_model(args.clone()).is_err());
            assert!(serde_json::from_value::<LabelsFirst>(args.clone()).is_err());
            assert!(LabelsFirst::from_model(args).is_err());
        }
        rejected_only_at::<Labels>(json!({"q": 1, "k": 5}), "/k");
    }
}

/// Found by generated seed 38: an untagged enum flattened before a
/// flattened `Option` of a map-reading struct. The `Option` sees the
/// members the enum's variant read and fails on them (it is `None`), but
/// the variant keeps them: which variant serde reads is decided per call,
/// by the one branch of the union that takes it (each refuses what an
/// earlier variant reads).
mod an_untagged_enum_keeps_its_variants_members {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Shape {
        Counted { xs: Vec<f64>, n: u32 },
        Weighted { zs: Vec<Weight>, w: f64 },
    }

    /// A definition the branch references: the branch is checked against
    /// the document it is in.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Weight {
        pub at: f64,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Flags {
        pub named: BTreeMap<String, bool>,
        #[serde(flatten)]
        pub rest: BTreeMap<String, bool>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Extra {
        pub p: f64,
        #[serde(flatten)]
        pub flags: Flags,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Plot {
        pub q: f64,
        #[serde(flatten)]
        pub shape: Shape,
        #[serde(flatten)]
        pub extra: Option<Extra>,
    }

    #[test]
    fn the_variant_serde_reads_keeps_them() {
        for args in [
            json!({"q": 1.0, "zs": [{"at": 0.5}], "w": 1.0}),
            json!({"q": 1.0, "xs": [0.5], "n": 1}),
        ] {
            as_serde_reads::<Plot>(args.clone()).unwrap();
            same::<Plot>(args);
        }
        // serde reads `Counted` (`zs` and `w` are dropped, the `Option`
        // being `None`); with `n` written `900.0`, `Weighted` (`xs`, `n`
        // dropped); and the `Option`'s own members are dropped.
        for (args, dropped) in [
            (
                json!({"q": 1.0, "xs": [0.5], "n": 1, "zs": [{"at": 1.0}], "w": 1.0}),
                &["/w", "/zs"][..],
            ),
            (
                json!({"q": 1.0, "xs": [0.5], "n": 900.0, "zs": [{"at": 1.0}], "w": 1.0}),
                &["/n", "/xs"][..],
            ),
            (
                json!({"q": 1.0, "zs": [{"at": 0.5}], "w": 1.0, "p": 1.0, "named": {}}),
                &["/named", "/p"][..],
            ),
        ] {
            as_serde_reads::<Plot>(args.clone()).unwrap();
            let mut pointers = invalid_pointers::<Plot>(args.clone());
            pointers.sort();
            assert_eq!(pointers, dropped, "{args}");
        }
    }
}

/// Found by the generated types (seed 123): an enum beside a flattened
/// `Option` of a map-reading type keeps its variant's members, and serde's
/// variant reads each field under its aliases too. The aliases a type
/// deriving `ToolArgs` declares were not among the members recorded from
/// schemars' schema, so a field sent under its alias was taken for one of
/// the `Option`'s (a false rejection).
mod a_variant_beside_an_option_reads_its_aliases {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Counted {
        pub x: u32,
        #[serde(flatten)]
        pub m: BTreeMap<String, bool>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum Tagged {
        P {
            #[serde(alias = "pp", alias = "ppp")]
            p: BTreeMap<String, i64>,
        },
        Q,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Untagged {
        R {
            #[serde(alias = "rr")]
            r: u32,
        },
        S {
            s: String,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct ByTag {
        pub a: u32,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub tagged: Tagged,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct ByBranch {
        pub a: u32,
        #[serde(flatten)]
        pub untagged: Untagged,
        #[serde(flatten)]
        pub counted: Option<Counted>,
    }

    #[test]
    fn a_tagged_variant() {
        for args in [
            json!({"a": 1, "k": "P", "ppp": {"n": -3}}),
            json!({"a": 1, "k": "P", "pp": {}}),
            json!({"a": 1, "k": "P", "p": {"n": 2}}),
        ] {
            let read: ByTag = serde_json::from_value(args.clone()).unwrap();
            assert_eq!(read.counted, None, "{args}");
            assert_eq!(
                ByTag::from_model(args.clone()).unwrap().value,
                read,
                "{args}"
            );
        }
        // Another variant does not read the alias: the `Option` drops it.
        let lossy = json!({"a": 1, "k": "Q", "pp": {}});
        as_serde_reads::<ByTag>(lossy.clone()).unwrap();
        assert_eq!(invalid_pointers::<ByTag>(lossy), ["/pp"]);
    }

    #[test]
    fn an_untagged_variant() {
        let args = json!({"a": 1, "rr": 4});
        let read: ByBranch = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(read.untagged, Untagged::R { r: 4 });
        assert_eq!(ByBranch::from_model(args).unwrap().value, read);
        // serde reads `S`: nothing reads `rr`.
        let lossy = json!({"a": 1, "rr": 4.5, "s": "x"});
        as_serde_reads::<ByBranch>(lossy.clone()).unwrap();
        assert_eq!(invalid_pointers::<ByBranch>(lossy), ["/rr"]);
    }
}

/// Found by the generated types (seed 103): the untagged keeper inside a
/// type that is itself flattened as an `Option`. There the enum's union
/// carries the `Option`'s "none of it" branch after its own, so it was not
/// recognised, and the variant kept only the members every variant
/// requires (a field with a default, sent, was taken for the inner
/// `Option`'s: a false rejection).
mod an_untagged_enum_inside_an_option {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Counted {
        pub x: bool,
        #[serde(flatten)]
        pub m: BTreeMap<String, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Inner {
        #[serde(default)]
        pub d: u32,
        pub e: bool,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Shape {
        V {
            s: String,
            #[serde(flatten)]
            inner: Inner,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Top {
        pub a: u32,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub shape: Shape,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Outer {
        pub b: String,
        #[serde(flatten)]
        pub top: Option<Top>,
    }

    #[test]
    fn the_variant_keeps_its_fields() {
        for args in [
            json!({"b": "q", "a": 1, "s": "x", "d": 5, "e": true}),
            json!({"b": "q"}),
        ] {
            as_serde_reads::<Outer>(args.clone()).unwrap();
            same::<Outer>(args);
        }
        // `d` left to its default.
        same::<Outer>(json!({"b": "q", "a": 1, "s": "x", "e": false}));
        // Without `e` no variant reads: `Top` is `None`, all of it dropped.
        let lossy = json!({"b": "q", "a": 1, "s": "x", "d": 5});
        as_serde_reads::<Outer>(lossy.clone()).unwrap();
        assert!(Outer::from_model(lossy).is_err());
    }
}

/// Found by the `--wide` generated types (seed 7): a struct that flattens
/// an enum and a map, after a flattened `Option` that reads every member.
/// The struct was taken for an enum, keeping only its own fields; its map
/// reads every member left (a false rejection).
mod a_struct_flattening_an_enum_and_a_map {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Counted {
        pub x: bool,
        #[serde(flatten)]
        pub m: BTreeMap<String, f64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum Tagged {
        P { p: u32 },
        Q,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Part {
        pub a: u32,
        #[serde(flatten)]
        pub tagged: Tagged,
        #[serde(flatten)]
        pub rest: BTreeMap<String, Value>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Root {
        pub b: String,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub part: Part,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Shape {
        S { s: f64 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Numbers {
        pub a: u32,
        #[serde(flatten)]
        pub shape: Shape,
        #[serde(flatten)]
        pub rest: BTreeMap<String, f64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Strict {
        pub b: String,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub numbers: Numbers,
    }

    #[test]
    fn its_map_keeps_what_the_option_drops() {
        for args in [
            json!({"b": "q", "a": 1, "k": "Q", "z": 10.75}),
            json!({"b": "q", "a": 1, "k": "P", "p": 2, "z": [true]}),
        ] {
            let read: Root = serde_json::from_value(args.clone()).unwrap();
            assert_eq!(read.counted, None);
            assert_eq!(Root::from_model(args).unwrap().value, read);
        }
        let args = json!({"b": "q", "a": 1, "s": 1.5, "z": 2.5});
        let read: Strict = serde_json::from_value(args.clone()).unwrap();
        assert_eq!(read.counted, None);
        assert_eq!(Strict::from_model(args).unwrap().value, read);
        // What the map refuses, serde refuses too.
        let refused = json!({"b": "q", "a": 1, "s": 1.5, "z": "text"});
        assert!(serde_json::from_value::<Strict>(refused.clone()).is_err());
        assert!(Strict::from_model(refused).is_err());
    }
}

/// Found by the `--wide` generated types (seed 28), a silent loss: a
/// flattened map beside a flattened adjacently (or externally) tagged enum
/// reads the members of the object holding the enum, never those of a
/// variant's own object. It was taken to keep the members of a flattened
/// `Option` inside the variant, whose checks were then left out: `545.0`
/// for an integer made serde drop the `Option`, and the call was accepted.
mod a_map_beside_an_enum_never_sees_its_variants_object {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Inner {
        #[serde(default)]
        pub a: u32,
        pub b: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        V {
            x: u32,
            #[serde(flatten)]
            o: Option<Inner>,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum External {
        W {
            x: u32,
            #[serde(flatten)]
            o: Option<Inner>,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithAdjacent {
        pub y: u32,
        #[serde(flatten)]
        pub e: Adjacent,
        #[serde(flatten)]
        pub m: BTreeMap<String, u8>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithExternal {
        pub y: u32,
        #[serde(flatten)]
        pub m: BTreeMap<String, Value>,
        #[serde(flatten)]
        pub e: External,
    }

    /// The `Option` one flattening further in, and the map before the enum.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Mid {
        pub x: u32,
        #[serde(flatten)]
        pub o: Option<Inner>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t", content = "c")]
    pub enum Deeper {
        V {
            #[serde(flatten)]
            mid: Mid,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithDeeper {
        pub y: u32,
        #[serde(flatten)]
        pub m: BTreeMap<String, Value>,
        #[serde(flatten)]
        pub e: Deeper,
    }

    #[test]
    fn one_flattening_further_in() {
        let lossy = json!({"y": 0, "t": "V", "c": {"x": 1, "a": 545.0, "b": 2}});
        let read: WithDeeper = serde_json::from_value(lossy.clone()).unwrap();
        assert_eq!(
            read.e,
            Deeper::V {
                mid: Mid { x: 1, o: None }
            }
        );
        assert_eq!(invalid_pointers::<WithDeeper>(lossy), ["/c/a"]);
        same::<WithDeeper>(json!({"y": 0, "t": "V", "c": {"x": 1, "b": 2}}));
    }

    #[test]
    fn the_options_checks_stay() {
        let lossy = json!({"y": 0, "t": "V", "c": {"x": 1, "a": 545.0, "b": 2}});
        let read: WithAdjacent = serde_json::from_value(lossy.clone()).unwrap();
        assert_eq!(read.e, Adjacent::V { x: 1, o: None });
        assert_eq!(invalid_pointers::<WithAdjacent>(lossy), ["/c/a"]);
        same::<WithAdjacent>(json!({"y": 0, "t": "V", "c": {"x": 1, "a": 5, "b": 2}}));

        let lossy = json!({"y": 0, "W": {"x": 1, "a": 545.0, "b": 2}});
        let read: WithExternal = serde_json::from_value(lossy.clone()).unwrap();
        assert_eq!(read.e, External::W { x: 1, o: None });
        assert_eq!(invalid_pointers::<WithExternal>(lossy), ["/W/a"]);
    }
}

/// A struct's own field and a member of a struct it flattens share a name:
/// serde hands the member to the own field, wherever it is declared, and the
/// flattened struct never sees it. schemars merged the flattened member's
/// schema over the field's (and wrote the name twice in `required`, which no
/// validator compiles).
mod an_own_field_named_like_a_flattened_member {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Meta {
        #[serde(default)]
        pub id: String,
        pub live: bool,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Before {
        pub id: u32,
        #[serde(flatten)]
        pub meta: Meta,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct BeforeAnOption {
        pub live: Option<u32>,
        #[serde(flatten)]
        pub meta: Option<Meta>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Required {
        pub id: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct BothRequire {
        pub id: u32,
        #[serde(flatten)]
        pub inner: Required,
    }

    #[test]
    fn keeps_its_own_schema() {
        assert_eq!(
            Before::input_schema()["properties"]["id"]["type"],
            "integer"
        );
        let read = accepted::<Before>(json!({"id": 7, "live": true}));
        assert_eq!(read.id, 7);
        assert_eq!(read.meta.id, "");
        rejected_only_at::<Before>(json!({"id": "x", "live": true}), "/id");
    }

    #[test]
    fn before_a_flattened_option() {
        same::<BeforeAnOption>(json!({"live": 1}));
        same::<BeforeAnOption>(json!({}));
        rejected_only_at::<BeforeAnOption>(json!({"live": true}), "/live");
        // `meta` never gets `live`: it can never be whole, and an `id` sent
        // for it would be dropped.
        rejected_only_at::<BeforeAnOption>(json!({"live": 1, "id": "x"}), "/id");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Counted {
        #[serde(default)]
        pub id: u32,
        pub n: u32,
    }

    /// Two flattened structs with a member of one name: the first takes it.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct TwoFlattened {
        #[serde(flatten)]
        pub meta: Meta,
        #[serde(flatten)]
        pub counted: Counted,
    }

    /// The same, with an own field of that name after both: it wins.
    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct OwnAfterBoth {
        #[serde(flatten)]
        pub meta: Option<Meta>,
        #[serde(flatten)]
        pub counted: Counted,
        pub id: bool,
    }

    #[test]
    fn the_first_flattened_struct_takes_it() {
        let read = accepted::<TwoFlattened>(json!({"id": "x", "live": true, "n": 1}));
        assert_eq!(read.meta.id, "x");
        assert_eq!(read.counted.id, 0);
        rejected_only_at::<TwoFlattened>(json!({"id": 3, "live": true, "n": 1}), "/id");
        let read = accepted::<OwnAfterBoth>(json!({"id": true, "live": true, "n": 1}));
        assert!(read.id);
        rejected_only_at::<OwnAfterBoth>(json!({"id": "x", "n": 1}), "/id");
    }

    #[test]
    fn required_by_both_is_required_once() {
        let required = &BothRequire::input_schema()["required"];
        assert_eq!(required, &json!(["id"]));
        // serde never hands `inner` its `id`: no call reads.
        assert!(serde_json::from_value::<BothRequire>(json!({"id": 1})).is_err());
        assert!(BothRequire::from_model(json!({"id": 1})).is_err());
    }
}

/// A flattened struct whose map is inside a flattened `Option` of its own
/// keeps no member it does not name: when that `Option` fails, its map
/// keeps nothing. It was taken to keep every member, so the members of a
/// flattened `Option` after it were held to that map's value schema (a
/// false rejection, found by `--wide` generated seed 66).
mod a_map_inside_an_option_keeps_nothing_for_the_fields_after {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Inner {
        pub req: u32,
        #[serde(flatten)]
        pub m: BTreeMap<String, i8>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Mid {
        pub own: u32,
        #[serde(flatten)]
        pub o: Option<Inner>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct After {
        pub big: u32,
        pub s: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Root {
        #[serde(flatten)]
        pub mid: Mid,
        #[serde(flatten)]
        pub after: Option<After>,
    }

    #[test]
    fn the_option_after_it_is_checked_as_its_own() {
        let call = json!({"own": 1, "big": 433, "s": "x"});
        let read: Root = serde_json::from_value(call.clone()).unwrap();
        assert_eq!(read.mid.o, None);
        assert!(read.after.is_some());
        same::<Root>(call);
        for call in [
            json!({"own": 1, "big": 433}),
            json!({"own": 1, "req": 2, "big": 5, "s": "x"}),
            json!({"own": 1, "req": 2, "k": 5}),
            json!({"own": 1}),
        ] {
            as_serde_reads::<Root>(call).unwrap();
        }
    }
}

/// A struct that flattens an externally tagged enum keeps the variant it
/// reads under the variant's alias too: serde hands the variant's member to
/// the enum whichever of its names was sent, and a flattened `Option` after
/// the struct never sees it. The member was taken for one the `Option`
/// would drop (a false rejection at the alias, found by `--wide` generated
/// seed 100).
mod a_variant_alias_of_an_enum_a_struct_flattens {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Filter {
        pub x: f64,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub enum Kind {
        #[serde(alias = "by_alias")]
        Named(Filter),
        Other(u8),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Target {
        pub own: f32,
        #[serde(flatten)]
        pub kind: Kind,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Part {
        pub req: (String, f64),
        #[serde(flatten)]
        pub rest: BTreeMap<String, String>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Root {
        #[serde(flatten)]
        pub target: Target,
        #[serde(flatten)]
        pub part: Option<Part>,
    }

    #[test]
    fn the_option_after_it_does_not_count_the_alias_as_dropped() {
        let call = json!({"own": 1.5, "by_alias": {"x": 2.0}});
        let read: Root = serde_json::from_value(call.clone()).unwrap();
        assert_eq!(read.target.kind, Kind::Named(Filter { x: 2.0 }));
        assert_eq!(read.part, None);
        same::<Root>(call);
        same::<Root>(json!({"own": 1.5, "Named": {"x": 2.0}}));
        // A call under the alias is read as its twin under the wire name
        // (serde reads both alike), which is checked against serde.
        for call in [
            json!({"own": 1.5, "by_alias": {"x": 2.0}, "req": ["a", 1.0]}),
            json!({"own": 1.5, "by_alias": {"x": 2.0}, "req": ["a", 1.0], "k": "v"}),
            json!({"own": 1.5, "by_alias": {"x": 2.0}, "k": "v"}),
            json!({"own": 1.5, "by_alias": {"x": 2.0}, "Other": 3}),
        ] {
            let text = call.to_string().replace("by_alias", "Named");
            let twin: Value = serde_json::from_str(&text).unwrap();
            as_serde_reads::<Root>(twin.clone()).unwrap();
            let by_alias: Root = serde_json::from_value(call.clone()).unwrap();
            assert_eq!(by_alias, serde_json::from_value(twin.clone()).unwrap());
            match (Root::from_model(call.clone()), Root::from_model(twin)) {
                (Ok(a), Ok(b)) => assert_eq!(a.value, b.value),
                (Err(ArgsError::Invalid(_)), Err(ArgsError::Invalid(_))) => {}
                (a, b) => panic!("{call}: {a:?}, under the wire name {b:?}"),
            }
        }
        as_serde_reads::<Root>(json!({"own": 1.5, "Other": 3, "k": "v"})).unwrap();
    }
}

/// Found by the generated types (seed 48): the adjacently tagged `Option`
/// variant of an enum that derives only `JsonSchema` has no derive of ours
/// to say its content may be left out; the definition's shape says it.
mod an_adjacently_tagged_option_of_a_schema_only_enum {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        U,
        V(Option<bool>),
        W(Option<Inner>),
        X(u32),
        Y { y: Option<f64> },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Inner {
        pub i: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct HoldsAdjacent {
        pub e: Adjacent,
        pub list: Vec<Adjacent>,
    }

    #[test]
    fn is_the_variant_of_none() {
        for e in [
            json!({"t": "V"}),
            json!({"t": "V", "c": null}),
            json!({"t": "V", "c": true}),
            json!({"t": "W"}),
            json!({"t": "W", "c": {"i": 1}}),
            json!({"t": "U"}),
            json!({"t": "Y", "c": {}}),
        ] {
            same::<HoldsAdjacent>(json!({"e": e.clone(), "list": [e]}));
        }
    }

    #[test]
    fn content_serde_needs_is_still_required() {
        for e in [json!({"t": "X"}), json!({"t": "Y"})] {
            assert!(serde_json::from_value::<Adjacent>(e.clone()).is_err());
            rejected_only_at::<HoldsAdjacent>(json!({"e": e, "list": []}), "/e/c");
        }
        rejected_only_at::<HoldsAdjacent>(
            json!({"e": {"t": "W", "c": {"i": "1"}}, "list": []}),
            "/e/c/i",
        );
    }
}

/// The same, for such an enum flattened into a struct (its union written
/// into the struct's own object, as the `Option` of one is beside an empty
/// branch).
mod an_adjacently_tagged_option_of_a_flattened_schema_only_enum {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        U,
        V(Option<bool>),
        X(u32),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "k", content = "d")]
    pub enum Other {
        P(Option<u32>),
        Q(String),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Flat {
        pub a: u32,
        #[serde(flatten)]
        pub e: Adjacent,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Two {
        #[serde(flatten)]
        pub e: Adjacent,
        #[serde(flatten)]
        pub o: Other,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Maybe {
        pub a: u32,
        #[serde(flatten)]
        pub e: Option<Adjacent>,
    }

    #[test]
    fn is_the_variant_of_none() {
        same::<Flat>(json!({"a": 1, "t": "V"}));
        same::<Flat>(json!({"a": 1, "t": "V", "c": false}));
        same::<Two>(json!({"t": "V", "k": "P"}));
        same::<Two>(json!({"t": "U", "k": "P", "d": 2}));
        same::<Maybe>(json!({"a": 1, "t": "V"}));
        same::<Maybe>(json!({"a": 1}));
    }

    #[test]
    fn content_serde_needs_is_still_required() {
        assert!(serde_json::from_value::<Flat>(json!({"a": 1, "t": "X"})).is_err());
        rejected_only_at::<Flat>(json!({"a": 1, "t": "X"}), "/c");
        assert!(serde_json::from_value::<Two>(json!({"t": "V", "k": "Q"})).is_err());
        rejected_only_at::<Two>(json!({"t": "V", "k": "Q"}), "/d");
    }
}

/// Found by the generated types (`--wide` seed 182, larger draws): a tagged
/// enum flattened beside a flattened `Option` of a type that reads every
/// member keeps the members of the variant its tag names, under a variant
/// alias too. The alias's tag value named no variant it kept, so its
/// content was counted as a member the failing `Option` drops.
mod a_variant_alias_of_a_tagged_enum_beside_an_option_reading_everything {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(deny_unknown_fields)]
    pub struct Inner {
        pub a: i8,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t", content = "c")]
    pub enum Tagged {
        #[serde(rename = "v", alias = "v2")]
        V(Inner),
        W,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum Internal {
        #[serde(alias = "P2")]
        P {
            p: u32,
        },
        Q,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Rest {
        pub need: u32,
        #[serde(flatten)]
        pub any: BTreeMap<String, i64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Mid {
        pub m: f64,
        #[serde(flatten)]
        pub e: Tagged,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Nested {
        #[serde(flatten)]
        pub mid: Mid,
        #[serde(flatten)]
        pub rest: Option<Rest>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Beside {
        #[serde(flatten)]
        pub e: Internal,
        #[serde(flatten)]
        pub rest: Option<Rest>,
    }

    #[test]
    fn keeps_the_variant_under_its_alias() {
        for tag in ["v", "v2"] {
            let call = json!({"m": 1.5, "t": tag, "c": {"a": 1}});
            assert_eq!(accepted::<Nested>(call.clone()).rest, None);
            same::<Nested>(call);
        }
        for tag in ["P", "P2"] {
            let call = json!({"k": tag, "p": 3});
            assert_eq!(accepted::<Beside>(call.clone()).rest, None);
            same::<Beside>(call);
        }
        // A member no variant the tag names reads is still the `Option`'s,
        // which drops it.
        assert!(serde_json::from_value::<Beside>(json!({"k": "P2", "p": 3, "z": 1})).is_ok());
        assert!(Beside::from_model(json!({"k": "P2", "p": 3, "z": 1})).is_err());
        assert!(Nested::from_model(json!({"m": 1.5, "t": "v2", "c": {"a": 1}, "z": 1})).is_err());
    }
}

/// Generated `--wide` seed 198 (with `--types 64 --calls 48`): an untagged
/// enum flattened beside a flattened `Option` of a type that reads every
/// member, one of whose variants flattens a tagged enum. That variant's
/// branch holds the tagged enum's members in a union inside it, not among
/// its own properties, so no union of the object matched what the enum
/// reads: the enum kept nothing, and every member of the variant serde
/// reads counted as one the failing `Option` drops.
mod an_untagged_enum_whose_variant_flattens_a_tagged_one_beside_an_option {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "tk", content = "ck")]
    pub enum Adjacent {
        P(String, i64),
        Q(char),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum SchemaOnly {
        A {
            x: u8,
            y: f64,
        },
        B {
            z: Vec<u32>,
        },
        C {
            w: i8,
            #[serde(flatten)]
            t: Adjacent,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Derived {
        A {
            x: u8,
            y: f64,
        },
        B {
            z: Vec<u32>,
        },
        C {
            w: i8,
            #[serde(flatten)]
            t: Adjacent,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Rest {
        pub need: u32,
        #[serde(flatten)]
        pub any: BTreeMap<String, f32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithSchemaOnly {
        pub a: String,
        #[serde(flatten)]
        pub e: SchemaOnly,
        #[serde(flatten)]
        pub rest: Option<Rest>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WithDerived {
        pub a: String,
        #[serde(flatten)]
        pub e: Derived,
        #[serde(flatten)]
        pub rest: Option<Rest>,
    }

    fn check<T>()
    where
        T: ToolArgs + Serialize + for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
    {
        // The variant serde reads keeps its members, the tagged enum's too.
        for call in [
            json!({"a": "s", "z": [1]}),
            json!({"a": "s", "x": 1, "y": 2.5}),
            json!({"a": "s", "w": 1, "tk": "Q", "ck": "c"}),
            json!({"a": "s", "w": 1, "tk": "P", "ck": ["c", 2]}),
        ] {
            same::<T>(call.clone());
            as_serde_reads::<T>(call).unwrap();
        }
        // What the `Option` would read and drops, or no variant reads, is
        // still refused.
        for (call, pointer) in [
            (json!({"a": "s", "z": [1], "need": 1}), "/need"),
            (json!({"a": "s", "z": [1], "q": 1}), "/q"),
            (
                json!({"a": "s", "w": 1, "tk": "Q", "ck": "c", "need": 1}),
                "/need",
            ),
        ] {
            assert!(
                invalid_pointers::<T>(call.clone()).contains(&pointer.to_owned()),
                "{call}"
            );
            as_serde_reads::<T>(call).unwrap();
        }
    }

    #[test]
    fn keeps_what_the_variant_reads() {
        check::<WithSchemaOnly>();
        check::<WithDerived>();
    }
}

/// A field alias of a type that derives only `JsonSchema` was an undeclared
/// field (schemars does not write aliases), refused where serde reads it.
/// It is now learned from the type's own `Deserialize` wherever serde reads
/// the struct from the reader it is handed, and declared as a derive would.
mod an_alias_of_a_type_that_derives_only_json_schema {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Leaf {
        #[serde(alias = "amount", alias = "qty")]
        pub count: u32,
        #[serde(default, alias = "text")]
        pub note: Option<String>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub enum Shape {
        Dot,
        Box {
            #[serde(alias = "w")]
            width: u8,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "kind")]
    pub enum Internal {
        Leafy {
            #[serde(alias = "c")]
            count: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Call {
        pub leaf: Leaf,
        pub leaves: Vec<Leaf>,
        pub by_name: BTreeMap<String, Option<Box<Leaf>>>,
        pub shape: Shape,
        #[serde(default)]
        pub internal: Option<Internal>,
    }

    #[test]
    fn reads_it_as_serde_does() {
        let call = json!({
            "leaf": {"amount": 1},
            "leaves": [{"qty": 2, "text": "x"}, {"count": 3}],
            "by_name": {"a": {"amount": 4}, "b": null},
            "shape": {"Box": {"w": 5}}
        });
        same::<Call>(call.clone());
        assert_eq!(accepted::<Call>(call).leaves[0].note.as_deref(), Some("x"));
        // Two names of one field: serde's own refusal stands, as for a
        // derived type's (outside untagged enums, where the schema refuses
        // them).
        match Call::from_model(
            json!({"leaf": {"amount": 1, "count": 1}, "leaves": [], "by_name": {}, "shape": "Dot"}),
        ) {
            Err(ArgsError::Deserialize { pointer, message }) => {
                assert_eq!(pointer, "/leaf");
                assert!(message.contains("duplicate field `count`"), "{message}");
            }
            other => panic!("expected serde's refusal, got {other:?}"),
        }
        // A name serde does not read is still refused, and so is a value of
        // the wrong type under an alias.
        assert_eq!(
            invalid_pointers::<Call>(
                json!({"leaf": {"amt": 1}, "leaves": [], "by_name": {}, "shape": "Dot"})
            ),
            ["/leaf/amt", "/leaf/count"]
        );
        assert!(
            Call::from_model(
                json!({"leaf": {"qty": "1"}, "leaves": [], "by_name": {}, "shape": "Dot"})
            )
            .is_err()
        );
        // An internally tagged variant is read from serde's buffer, never
        // handed to the reader the aliases are learned with: its alias is
        // still refused (the README's limit), never misread.
        let buffered = json!({"leaf": {"count": 1}, "leaves": [], "by_name": {}, "shape": "Dot",
            "internal": {"kind": "Leafy", "c": 1}});
        assert!(serde_json::from_value::<Call>(buffered.clone()).is_ok());
        assert!(Call::from_model(buffered).is_err());
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Page<T> {
        #[serde(alias = "rows")]
        pub items: Vec<T>,
        #[serde(default, alias = "next")]
        pub cursor: Option<String>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct TwoPages {
        pub ids: Page<u32>,
        pub leaves: Option<Page<Leaf>>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "kind")]
    pub enum Buffered {
        Paged { page: Page<bool> },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct PagesAndBuffered {
        pub ids: Page<u32>,
        #[serde(default)]
        pub buffered: Option<Buffered>,
    }

    /// The instances of a generic type share serde's list of names; each
    /// met is counted apart, so each of their definitions is declared.
    #[test]
    fn reads_the_aliases_of_each_instance_of_a_generic_type() {
        for call in [
            json!({"ids": {"rows": [1], "next": "c"}, "leaves": {"items": [{"qty": 2}], "next": "d"}}),
            json!({"ids": {"items": [1]}, "leaves": {"rows": [{"count": 2}]}}),
            json!({"ids": {"rows": []}, "leaves": null}),
        ] {
            same::<TwoPages>(call);
        }
        assert_eq!(
            invalid_pointers::<TwoPages>(json!({"ids": {"row": [1]}})),
            ["/ids/row", "/ids/items"]
        );
        rejected_only_at::<TwoPages>(json!({"ids": {"rows": ["1"]}}), "/ids/rows/0");
        // An instance read only from serde's buffer (inside an internally
        // tagged variant) is never met: two definitions, one type met, and
        // neither is declared (an undeclared alias is refused, never read
        // as another struct's).
        let met = json!({"ids": {"rows": [1]}});
        assert!(serde_json::from_value::<PagesAndBuffered>(met.clone()).is_ok());
        assert_eq!(
            invalid_pointers::<PagesAndBuffered>(met),
            ["/ids/rows", "/ids/items"]
        );
        same::<PagesAndBuffered>(
            json!({"ids": {"items": [1]}, "buffered": {"kind": "Paged", "page": {"items": [true]}}}),
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Common {
        pub trace: bool,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Scoped {
        #[serde(default)]
        pub leaf: Option<Leaf>,
        #[serde(flatten)]
        pub common: Common,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Flattening {
        #[serde(default)]
        pub leaf: Option<Leaf>,
        #[serde(default)]
        pub scoped: Vec<Scoped>,
        #[serde(flatten)]
        pub common: Common,
    }

    /// serde reads a struct that flattens from a map and names only the
    /// required fields it misses; the schema names its optional ones, so
    /// the types they hold are reached too (the root's and a nested
    /// one's).
    #[test]
    fn reads_the_aliases_below_an_optional_field_of_a_struct_that_flattens() {
        for call in [
            json!({"leaf": {"amount": 1, "text": "x"}, "trace": true}),
            json!({"scoped": [{"leaf": {"qty": 2}, "trace": false}, {"trace": true}], "trace": true}),
            json!({"leaf": null, "scoped": [], "trace": false}),
        ] {
            same::<Flattening>(call);
        }
        assert_eq!(
            invalid_pointers::<Flattening>(json!({"leaf": {"amt": 1}, "trace": true})),
            ["/leaf/amt", "/leaf/count"]
        );
        rejected_only_at::<Flattening>(
            json!({"scoped": [{"leaf": {"qty": 2}, "trace": false, "zz": 1}], "trace": true}),
            "/scoped/0/zz",
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Query {
        #[serde(alias = "q")]
        pub text: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Paged<T> {
        pub items: Vec<T>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Holder {
        pub query: Query,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Unannotated {
        pub page: Paged<Query>,
        pub holder: Holder,
    }

    /// A `ToolArgs` type its derive cannot annotate (a type argument of a
    /// generic derived type; a field of a type that derives only
    /// `JsonSchema`) has its aliases learned like a schema-only type's.
    #[test]
    fn reads_the_aliases_of_a_tool_args_type_its_derive_does_not_annotate() {
        for call in [
            json!({"page": {"items": [{"q": "a"}, {"text": "b"}]}, "holder": {"query": {"q": "c"}}}),
            json!({"page": {"items": []}, "holder": {"query": {"text": "c"}}}),
        ] {
            same::<Unannotated>(call);
        }
        rejected_only_at::<Unannotated>(
            json!({"page": {"items": [{"q": "a", "zz": 1}]}, "holder": {"query": {"q": "c"}}}),
            "/page/items/0/zz",
        );
    }

    #[test]
    fn shows_only_the_written_names_to_a_model() {
        let text = Call::input_schema().to_string();
        for alias in ["\"amount\"", "\"qty\"", "\"text\"", "\"w\""] {
            assert!(!text.contains(alias), "{alias} in {text}");
        }
        // Validation reads them, learned from the type's `Deserialize`.
        let validating = Call::validator().schema().to_string();
        assert!(validating.contains("\"amount\"") && validating.contains("\"w\""));
    }
}

/// serde reads an untagged or internally tagged enum flattened into a
/// struct from every member the struct did not take, those of the fields
/// flattened after it included, and a variant that denies unknown fields
/// refuses the ones it does not read. schemars writes the enum with the
/// denial taken off (and an untagged newtype as a reference to its closed
/// definition, which refuses even the struct's own fields).
mod denying_inside_a_flattened_enum {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct Strict {
        pub a: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(deny_unknown_fields)]
    pub struct StrictT {
        pub a: String,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Sib {
        pub e: u32,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Either {
        A(Strict),
        C {
            #[serde(default)]
            d: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct OwnBeside {
        pub own: u8,
        #[serde(flatten)]
        pub f: Either,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct AfterStruct {
        #[serde(flatten)]
        pub g: Sib,
        #[serde(flatten)]
        pub f: Either,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct BeforeStruct {
        #[serde(flatten)]
        pub f: Either,
        #[serde(flatten)]
        pub g: Sib,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct OptionBeside {
        pub own: u8,
        #[serde(flatten)]
        pub f: Option<Either>,
        #[serde(flatten)]
        pub g: Sib,
    }

    /// The untagged newtype's branch refers to `Strict`'s closed
    /// definition: it refused the struct's own field and the members a
    /// flattened struct before it takes, which serde never offers it.
    #[test]
    fn an_untagged_newtype_of_a_denying_struct_reads_beside_what_serde_takes_first() {
        same::<OwnBeside>(json!({"own": 1, "a": "x"}));
        same::<AfterStruct>(json!({"e": 1, "a": "x"}));
        for call in [
            json!({"own": 1, "a": "x"}),
            json!({"own": 1, "d": 2}),
            json!({"own": 1, "a": "x", "d": 2}),
            json!({"own": 1, "a": "x", "zz": 2}),
        ] {
            as_serde_reads::<OwnBeside>(call).unwrap();
        }
        for call in [json!({"e": 1, "a": "x"}), json!({"e": 1, "d": 2})] {
            as_serde_reads::<AfterStruct>(call.clone()).unwrap();
            // Before the struct, `Strict` is offered `e` and refuses it.
            as_serde_reads::<BeforeStruct>(call.clone()).unwrap();
            let mut with_own = call;
            with_own["own"] = json!(3);
            as_serde_reads::<OptionBeside>(with_own).unwrap();
        }
        same::<AfterStruct>(json!({"e": 1}));
        same::<BeforeStruct>(json!({"e": 1}));
        same::<OptionBeside>(json!({"own": 1, "e": 1}));
        rejected_only_at::<BeforeStruct>(json!({"e": 1, "a": "x"}), "/a");
        rejected_only_at::<OptionBeside>(json!({"own": 1, "e": 1, "a": "x"}), "/a");
        rejected_only_at::<OwnBeside>(json!({"own": 1, "a": "x", "zz": 2}), "/zz");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "t")]
    pub enum Tagged {
        V(StrictT),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum Outer {
        A {
            b: bool,
            #[serde(flatten)]
            p: Tagged,
        },
        C {
            #[serde(default)]
            d: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Nested {
        pub own: u8,
        #[serde(flatten)]
        pub f: Outer,
        #[serde(flatten)]
        pub g: Option<Sib>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged, deny_unknown_fields)]
    pub enum Denying {
        A {
            a: String,
        },
        C {
            #[serde(default)]
            d: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct DenyingEnum {
        pub own: u8,
        #[serde(flatten)]
        pub f: Denying,
        #[serde(flatten)]
        pub g: Option<Sib>,
    }

    /// serde's first variant fails on the later field's member and the
    /// next, which ignores the rest, is read: the first variant's members
    /// were dropped while the schema took that variant (a silent loss).
    #[test]
    fn a_denying_variant_is_not_taken_as_read_beside_a_later_flattened_field() {
        assert_eq!(
            invalid_pointers::<Nested>(json!({"own": 1, "b": true, "t": "V", "a": "x", "e": 1})),
            ["/b", "/t", "/a"]
        );
        same::<Nested>(json!({"own": 1, "b": true, "t": "V", "a": "x"}));
        for call in [
            json!({"own": 1, "b": true, "t": "V", "a": "x", "e": 1}),
            json!({"own": 1, "b": true, "t": "V", "a": "x"}),
            json!({"own": 1, "d": 3, "e": 1}),
        ] {
            as_serde_reads::<Nested>(call).unwrap();
        }
        same::<Nested>(json!({"own": 1, "e": 1}));
        for call in [json!({"own": 1, "a": "x"}), json!({"own": 1, "d": 3})] {
            as_serde_reads::<DenyingEnum>(call).unwrap();
        }
        // Every variant denies `e`, which serde offers them before `g`: serde
        // refuses the call, and so does the schema.
        for call in [
            json!({"own": 1, "a": "x", "e": 1}),
            json!({"own": 1, "d": 3, "e": 1}),
        ] {
            assert!(serde_json::from_value::<DenyingEnum>(call.clone()).is_err());
            assert!(!invalid_pointers::<DenyingEnum>(call).is_empty());
        }
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Single {
        pub own: u8,
        #[serde(flatten)]
        pub p: Tagged,
        #[serde(flatten)]
        pub g: Sib,
    }

    /// The rejection names the member the variant refuses (an unknown one
    /// stays reported as unknown).
    #[test]
    fn a_member_a_denying_variant_refuses_is_reported_at_its_pointer() {
        let call = json!({"own": 1, "t": "V", "a": "x", "e": 1, "zz": 2});
        let Err(ArgsError::Invalid(violations)) = Single::from_model(call) else {
            panic!("accepted");
        };
        let at: Vec<(&str, &str)> = violations
            .iter()
            .map(|v| (v.pointer.as_str(), v.keyword.as_str()))
            .collect();
        assert_eq!(
            at,
            [("/e", "propertyNames"), ("/zz", "unevaluatedProperties")]
        );
        assert!(violations.0[0].message.contains("denies unknown fields"));
        // serde refuses it too: `StrictT` is offered `e` before `g` reads it.
        let read = serde_json::from_value::<Single>(json!({"own": 1, "t": "V", "a": "x", "e": 1}));
        assert!(read.unwrap_err().to_string().contains("unknown field `e`"));
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k", deny_unknown_fields)]
    pub enum Units {
        On,
        Off,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct UnitsBefore {
        #[serde(flatten)]
        pub u: Units,
        #[serde(flatten)]
        pub g: Sib,
    }

    /// schemars writes an internally tagged unit variant closed where its
    /// enum denies unknown fields; serde reads it from a map whatever else
    /// the map holds (found by `gen-contract-types.py --deny` seed 1).
    #[test]
    fn a_unit_variant_of_a_denying_tagged_enum_reads_beside_a_later_field() {
        as_serde_reads::<UnitsBefore>(json!({"k": "On", "e": 1})).unwrap();
        rejected_only_at::<UnitsBefore>(json!({"k": "On", "e": 1, "zz": 1}), "/zz");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(untagged)]
    pub enum TakenInVariant {
        A {
            #[serde(flatten)]
            s: Sib,
            #[serde(flatten)]
            p: Tagged,
        },
        C {
            #[serde(default)]
            d: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum TakenInTagged {
        A {
            #[serde(flatten)]
            s: Sib,
            #[serde(flatten)]
            p: Tagged,
        },
        C {
            #[serde(default)]
            d: u32,
        },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct InVariants {
        pub own: u8,
        #[serde(flatten)]
        pub u: TakenInVariant,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct InTagged {
        pub own: u8,
        #[serde(flatten)]
        pub t: TakenInTagged,
    }

    /// A flattened struct of a variant takes its members before the
    /// variant's next flattened field, as in a struct: the denying newtype
    /// is never offered them (the other variant's fields see none of it).
    #[test]
    fn a_flattened_struct_of_a_variant_takes_its_members_first() {
        same::<InVariants>(json!({"own": 1, "e": 1, "t": "V", "a": "x"}));
        same::<InTagged>(json!({"own": 1, "k": "A", "e": 1, "t": "V", "a": "x"}));
        same::<InTagged>(json!({"own": 1, "k": "C", "d": 2}));
        rejected_only_at::<InTagged>(
            json!({"own": 1, "k": "A", "e": 1, "t": "V", "a": "x", "d": 2}),
            "/d",
        );
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Middle {
        pub x: u32,
        #[serde(flatten)]
        pub f: Either,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Around {
        pub own: u8,
        #[serde(flatten)]
        pub m: Middle,
    }

    /// A struct that flattens the enum takes its own fields before the
    /// enum sees the members: they are not offered to the denying newtype.
    #[test]
    fn a_struct_flattening_the_enum_takes_its_fields_first() {
        same::<Around>(json!({"own": 1, "x": 2, "a": "s"}));
        same::<Around>(json!({"own": 1, "x": 2, "d": 3}));
        rejected_only_at::<Around>(json!({"own": 1, "x": 2, "a": "s", "zz": 3}), "/zz");
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Content {
        pub m: Option<bool>,
        #[serde(flatten)]
        pub p: Tagged,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    #[serde(tag = "k")]
    pub enum Wrapping {
        V(Content),
        U,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Wrapped {
        pub x: Wrapping,
        pub y: Content,
        pub z: Option<u8>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct WrappedFlat {
        pub own: u8,
        #[serde(flatten)]
        pub w: Wrapping,
    }

    /// A definition that flattens the denying enum, referred to beside an
    /// internally tagged enum's tag: serde reads the tag first, and the
    /// definition's branch is never offered it (found by
    /// `gen-contract-types.py --deny` seed 12, larger draws).
    #[test]
    fn a_definition_read_beside_a_tag_is_not_offered_the_tag() {
        same::<Wrapped>(
            json!({"x": {"k": "V", "m": true, "t": "V", "a": "s"}, "y": {"t": "V", "a": "z"}}),
        );
        same::<WrappedFlat>(json!({"own": 1, "k": "V", "t": "V", "a": "s"}));
        rejected_only_at::<Wrapped>(
            json!({"x": {"k": "V", "t": "V", "a": "s", "zz": 1}, "y": {"t": "V", "a": "z"}}),
            "/x/zz",
        );
        rejected_only_at::<Wrapped>(
            json!({"x": {"k": "U"}, "y": {"k": "V", "t": "V", "a": "z"}}),
            "/y/k",
        );
    }

    /// The denial is a keyword any validator reads; the forms shown to a
    /// model leave it out (strict mode does not support it).
    #[test]
    fn the_denial_is_plain_json_schema() {
        let schema = OwnBeside::input_schema();
        let text = schema.to_string();
        assert!(
            text.contains(r#""propertyNames":{"enum":["a","own"]}"#),
            "{text}"
        );
        assert!(!text.contains("x-toolargs-not-offered"), "{text}");
        let plain = toolargs::validate::Validator::new(schema).unwrap();
        assert!(plain.validate(&json!({"own": 1, "a": "x"})).is_ok());
        assert!(
            plain
                .validate(&json!({"own": 1, "a": "x", "zz": 1}))
                .is_err()
        );
    }
}

/// A flattened `Option` of a struct whose own flattened `Option` and map
/// both read maps, beside a flattened adjacently tagged enum: the derive
/// left the map's value schema to the object under `additionalProperties`,
/// which held the enum's tag and content to it; schemars writes it as
/// `unevaluatedProperties` beside a union, which exempts what the enum
/// reads (found by `gen-contract-types.py --learned` seed 13, larger draws).
mod map_value_schema_beside_a_flattened_enum {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Inner {
        pub z: Option<bool>,
        #[serde(flatten)]
        pub flags: BTreeMap<String, bool>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Counts {
        pub a: u32,
        #[serde(flatten)]
        pub inner: Option<Inner>,
        #[serde(flatten)]
        pub counts: BTreeMap<String, i64>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        V(u32),
        W { x: bool },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Root {
        pub own: u8,
        #[serde(flatten)]
        pub counts: Option<Counts>,
        #[serde(flatten)]
        pub e: Adjacent,
    }

    #[test]
    fn the_enum_beside_keeps_its_members_from_the_map() {
        same::<Root>(json!({"own": 1, "t": "V", "c": 5}));
        same::<Root>(json!({"own": 1, "t": "W", "c": {"x": true}}));
        // `Counts` is offered the tag too, refuses it, and is read as `None`:
        // what it read is dropped.
        rejected_only_at::<Root>(json!({"own": 1, "a": 2, "t": "V", "c": 5}), "/a");
        assert!(serde_json::from_value::<Root>(json!({"own": 1, "a": 2, "k": 3})).is_err());
    }
}

/// A flattened `Option` of a struct reading a map, beside a later flattened
/// struct that flattens both an adjacently tagged and an untagged enum: the
/// struct's form holds two unions, and only the first one (the tagged
/// enum's) was asked what it keeps, so the untagged variant's members,
/// which the `Option` reads and drops when it fails, were counted as lost
/// (found by `gen-contract-types.py` seed 215, larger draws: 5 calls).
mod every_union_of_a_struct_beside_keeps_its_members {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Counted {
        pub need: f64,
        #[serde(flatten)]
        pub counts: BTreeMap<String, u32>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Pair {
        P { m: u32, n: u32 },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent {
        V(u32),
        W { x: bool },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    pub struct Later {
        pub s: String,
        #[serde(flatten)]
        pub pair: Pair,
        #[serde(flatten)]
        pub adjacent: Adjacent,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Root {
        pub own: u8,
        #[serde(flatten)]
        pub counted: Option<Counted>,
        #[serde(flatten)]
        pub later: Later,
    }

    #[test]
    fn the_untagged_enum_keeps_what_the_option_drops() {
        // `Counted` fails (no `need`, and `s` is no `u32`): `None`, and
        // `Later` reads `m` and `n` through `Pair`.
        same::<Root>(json!({"own": 1, "s": "a", "m": 2, "n": 3, "t": "V", "c": 4}));
        same::<Root>(json!({"own": 1, "s": "a", "m": 2, "n": 3, "t": "W", "c": {"x": true}}));
        // What nothing but `Counted` reads is still dropped with it.
        rejected_only_at::<Root>(
            json!({"own": 1, "s": "a", "m": 2, "n": 3, "t": "V", "c": 4, "k": 5}),
            "/k",
        );
    }
}

/// An integer past 64 bits for a `u128` or `i128` field. The checked value
/// (a `serde_json::Value`) holds it as the nearest `f64`, so validation and
/// the policy would see another number than serde reads from the text:
/// `18446744073709551617` is checked as 2^64. It is refused, at its
/// pointer, rather than checked rounded and handed on exact (a bound or a
/// policy could pass a number the body never gets); within 64 bits the
/// value is read exactly.
mod wide_integers {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, ToolArgs)]
    pub struct Amounts {
        pub big: u128,
        pub low: i128,
    }

    #[test]
    fn within_64_bits_they_are_read_exactly() {
        let call = format!(r#"{{"big": {}, "low": {}}}"#, u64::MAX, i64::MIN);
        let parsed = Amounts::from_model(call.as_str()).expect("within 64 bits");
        assert_eq!(
            parsed.value,
            Amounts {
                big: u128::from(u64::MAX),
                low: i128::from(i64::MIN),
            }
        );
    }

    #[test]
    fn past_64_bits_they_are_refused_at_their_pointer_never_rounded() {
        for (call, pointer) in [
            (r#"{"big": 18446744073709551616, "low": 0}"#, "/big"),
            (r#"{"big": 18446744073709551617, "low": 0}"#, "/big"),
            (r#"{"big": 0, "low": -9223372036854775809}"#, "/low"),
        ] {
            // serde reads the text exactly: the refusal is ours, on purpose.
            assert!(serde_json::from_str::<Amounts>(call).is_ok(), "{call}");
            match Amounts::from_model(call) {
                Err(ArgsError::Deserialize { pointer: at, .. }) => {
                    assert_eq!(at, pointer, "{call}")
                }
                other => panic!("{call}: {other:?}"),
            }
            // The toolbox refuses it the same way, at the same pointer.
            let mut tools = Toolbox::new();
            tools
                .tool_sync("pay", "Pays.", |_: Amounts| Ok::<_, String>("paid"))
                .expect("registers");
            let whole = json!({"name": "pay", "arguments": call}).to_string();
            let call = read(&whole)
                .and_then(ReadCalls::into_calls)
                .expect("a call")
                .remove(0);
            match tools.check(&(), call) {
                Err(CallError::Rejected(Rejection::InvalidArguments(invalid))) => {
                    let pointers: Vec<&str> = invalid
                        .violations
                        .iter()
                        .map(|v| v.pointer.as_str())
                        .collect();
                    assert_eq!(pointers, [pointer], "{whole}");
                }
                other => panic!("{whole}: {other:?}"),
            }
        }
    }
}

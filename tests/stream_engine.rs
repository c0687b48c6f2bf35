//! The streaming engine on hand-written calls: events, snapshots, early
//! rejections and the final result, each compared with `from_model` on the
//! whole text.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use toolargs::stream::{ArgsStream, Certainty, Event};
use toolargs::{ArgsError, ToolArgs};

/// Search documents.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
struct Search {
    query: String,
    tags: Vec<String>,
    limit: Option<u32>,
    filter: Option<Filter>,
    documents: Vec<Document>,
    mode: Mode,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
struct Filter {
    since: String,
    authors: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
struct Document {
    title: String,
    labels: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Mode {
    Fast,
    Thorough,
}

fn stream_bytes(text: &str) -> ArgsStream<Search> {
    let mut call = ArgsStream::<Search>::new();
    for byte in text.as_bytes() {
        call.push_bytes(std::slice::from_ref(byte));
    }
    call
}

/// Feeds one byte at a time and returns the bytes received when the first
/// rejection appeared (certain only, or `provisional` too), with it.
fn first_early<T: ToolArgs>(text: &str, provisional: bool) -> Option<(usize, ArgsError)> {
    let mut call = ArgsStream::<T>::new();
    for byte in text.as_bytes() {
        call.push_bytes(std::slice::from_ref(byte));
        let early = if provisional {
            call.provisional()
        } else {
            call.rejection()
        };
        if let Some(early) = early {
            return Some((early.received, early.rejection));
        }
    }
    None
}

fn first_rejection(text: &str) -> Option<(usize, ArgsError)> {
    first_early::<Search>(text, false)
}

fn violations(error: &ArgsError) -> Vec<toolargs::validate::Violation> {
    match error {
        ArgsError::Invalid(v) => v.0.clone(),
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}

const GOOD: &str = r#"{"query": "Ember &amp;amp; Oak", "tags": "[\"wood\"]", "limit": 3, "filter": {"since": "2026", "authors": ["Ana"]}, "documents": [{"title": "a&lt;b", "labels": []}], "mode": "fast"}"#;

#[test]
fn the_final_result_is_from_model_on_the_whole_text() {
    let mut call = stream_bytes(GOOD);
    assert_eq!(call.finish(), Search::from_model(GOOD));
    assert!(call.rejection().is_none());
    assert!(call.provisional().is_none());
}

#[test]
fn members_are_reported_normalized_as_they_complete() {
    let mut call = stream_bytes(GOOD);
    let events: Vec<Event> = call.events().collect();
    let values: Vec<(String, serde_json::Value)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Value { location, value } | Event::Whole { location, value } => {
                Some((location.to_string(), value.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        values,
        [
            ("/query".to_owned(), json!("Ember & Oak")),
            ("/tags".to_owned(), json!(["wood"])),
            ("/limit".to_owned(), json!(3)),
            // `Option<Filter>` holding an object: the union is decided by
            // that shape, so members come one by one as elsewhere.
            ("/filter/since".to_owned(), json!("2026")),
            ("/filter/authors/0".to_owned(), json!("Ana")),
            ("/documents/0/title".to_owned(), json!("a<b")),
            ("/mode".to_owned(), json!("fast")),
        ]
    );
    let closed: Vec<String> = events
        .iter()
        .filter(|e| matches!(e, Event::Closed { .. }))
        .map(|e| e.location().to_string())
        .collect();
    assert_eq!(
        closed,
        [
            "/filter/authors",
            "/filter",
            "/documents/0/labels",
            "/documents/0",
            "/documents",
            ""
        ]
    );
}

#[test]
fn a_snapshot_shows_the_open_string_so_far() {
    let text = r#"{"query": "Ember", "documents": [{"title": "caf"#;
    let mut call = ArgsStream::<Search>::new();
    call.push(text);
    // Half of a two-byte character: not shown until complete.
    call.push_bytes(&"é".as_bytes()[..1]);
    let snapshot = call.snapshot().expect("a value began");
    assert_eq!(
        snapshot.value,
        json!({"query": "Ember", "documents": [{"title": "caf"}]})
    );
    let open: Vec<String> = snapshot.open.iter().map(|l| l.to_string()).collect();
    assert_eq!(
        open,
        ["", "/documents", "/documents/0", "/documents/0/title"]
    );
    call.push_bytes(&"é".as_bytes()[1..]);
    assert_eq!(
        call.snapshot().unwrap().value,
        json!({"query": "Ember", "documents": [{"title": "café"}]})
    );
}

#[test]
fn an_unknown_key_at_the_root_is_certain_once_the_key_is_complete() {
    let text = r#"{"query": "x", "colour": 5, "tags": [], "documents": [], "mode": "fast"}"#;
    let (received, early) = first_rejection(text).expect("rejected early");
    assert_eq!(received, text.find("colour").unwrap() + "colour\"".len());
    let whole = violations(&Search::from_model(text).unwrap_err());
    let early = violations(&early);
    assert_eq!(early.len(), 1);
    assert!(whole.contains(&early[0]), "{early:?} not in {whole:?}");
    assert_eq!(early[0].pointer, "/colour");
}

#[test]
fn a_wrong_member_value_holds_unless_its_key_is_sent_again() {
    let text = r#"{"query": "x", "tags": ["a", 7], "documents": [], "mode": "fast"}"#;
    let mut call = ArgsStream::<Search>::new();
    let cut = text.find('7').unwrap() + 2;
    call.push(&text[..cut]);
    let early = call.provisional().expect("provisional rejection");
    assert_eq!(early.certainty, Certainty::UnlessRepeated);
    assert!(call.rejection().is_none());
    let whole = violations(&Search::from_model(text).unwrap_err());
    assert!(whole.contains(&violations(&early.rejection)[0]));
    // Sending `tags` again replaces the array: this rejection no longer
    // holds. The call is still refused, as serde refuses it: `tags` is
    // sent twice (`duplicate field`), and the whole text says so too.
    let rest = r#", "tags": [], "documents": [], "mode": "fast"}"#;
    call.push(rest);
    assert!(call.provisional().is_none());
    let whole = format!("{}{rest}", &text[..cut]);
    let finished = call.finish();
    assert_eq!(finished, Search::from_model(whole.as_str()));
    let pointers: Vec<String> = violations(&finished.unwrap_err())
        .iter()
        .map(|v| v.pointer.clone())
        .collect();
    assert_eq!(pointers, ["/tags"]);
}

#[test]
fn a_string_outside_an_enum_is_refused_after_decoding() {
    // `&#102;ast` decodes to `fast`: not refused.
    let ok = r#"{"mode": "&#102;ast", "query": "x", "tags": [], "documents": []}"#;
    let mut call = stream_bytes(ok);
    assert!(call.provisional().is_none());
    assert!(call.finish().is_ok());
    let bad = r#"{"mode": "slow", "query": "x", "tags": [], "documents": []}"#;
    let mut call = stream_bytes(bad);
    let early = call.provisional().expect("refused");
    let whole = violations(&call.finish().unwrap_err());
    assert!(whole.contains(&violations(&early.rejection)[0]));
}

#[test]
fn a_syntax_error_is_the_parsers_own_at_once() {
    let text = "{\"query\": \"x\",\n \"tags\": [1,, 2]}";
    let (received, early) = first_rejection(text).expect("rejected early");
    assert_eq!(received, text.find(",,").unwrap() + 2);
    assert_eq!(early, Search::from_model(text).unwrap_err());
}

#[test]
fn too_deep_is_certain_at_the_first_bracket_past_the_limit() {
    let options = toolargs::normalizer::Options::default().max_depth(4);
    let text = r#"{"documents": [[[[[]]]]]}"#;
    let mut call = ArgsStream::<Search>::with_options(options);
    call.push(text);
    let early = call.rejection().expect("too deep");
    assert_eq!(
        early.rejection,
        Search::from_model_with(text, &options).unwrap_err()
    );
}

#[test]
fn too_large_is_certain_at_the_first_fragment_past_the_limit() {
    // Every limit, the crossing inside a string or not, in 1-, 3- and
    // 8-byte fragments: the fragment that takes the text past the limit
    // makes it certain, naming the bytes received with it, and no earlier
    // one does; the end is `from_model_with`'s with the same limit.
    let text = r#"{"query": "a long query, read while it streams", "tags": ["x"], "mode": "fast"}"#;
    for limit in 0..=text.len() {
        let options = toolargs::normalizer::Options::default().max_bytes(limit);
        for delta in [1, 3, 8] {
            let mut call = ArgsStream::<Search>::with_options(options);
            let mut received = 0;
            for fragment in text.as_bytes().chunks(delta) {
                call.push_bytes(fragment);
                received += fragment.len();
                let early = call
                    .rejection()
                    .filter(|early| matches!(early.rejection, ArgsError::Limit(_)));
                if received <= limit {
                    assert_eq!(
                        early, None,
                        "limit {limit}, {delta}-byte, {received} received"
                    );
                    continue;
                }
                let early = early.unwrap_or_else(|| panic!("limit {limit}, {delta}-byte"));
                let crossed = received.min(limit / delta * delta + delta);
                assert_eq!(early.received, crossed, "limit {limit}, {delta}-byte");
                assert_eq!(
                    early.rejection,
                    ArgsError::Limit(toolargs::normalizer::NormalizeError::TooLarge {
                        bytes: crossed,
                        limit
                    })
                );
            }
            assert_eq!(
                call.finish(),
                Search::from_model_with(text, &options),
                "limit {limit}, {delta}-byte"
            );
        }
    }
}

#[test]
fn a_session_follows_interleaved_calls_by_index() {
    use toolargs::stream::ArgsSession;
    use toolargs::stream::wire::CallDelta;
    let texts = [
        GOOD,
        r#"{"query": "x", "tags": [], "documents": [], "mode": "fast", "zz": 1}"#,
    ];
    let mut session = ArgsSession::<Search>::default();
    for (index, name) in [(7u64, "search"), (2, "search")] {
        let begin = CallDelta::Begin {
            index,
            id: Some(format!("call_{index}")),
            name: Some(name[..3].to_owned()),
        };
        assert!(session.apply(&begin).is_none(), "no arguments yet");
        session.apply(&CallDelta::Name {
            index,
            fragment: name[3..].to_owned(),
        });
    }
    // Fragments of both calls, alternating, three bytes at a time.
    let pieces: Vec<Vec<String>> = texts
        .iter()
        .map(|t| {
            t.as_bytes()
                .chunks(3)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect()
        })
        .collect();
    let longest = pieces.iter().map(Vec::len).max().unwrap();
    let mut early_at = None;
    for i in 0..longest {
        for (index, own) in [(7u64, &pieces[0]), (2, &pieces[1])] {
            if let Some(fragment) = own.get(i) {
                let call = session
                    .apply(&CallDelta::Arguments {
                        index,
                        fragment: fragment.clone(),
                    })
                    .expect("arguments began");
                if index == 2 && early_at.is_none() && call.rejection().is_some() {
                    early_at = Some(call.received());
                }
            }
        }
    }
    session.apply(&CallDelta::End { index: 7 });
    session.apply(&CallDelta::End { index: 2 });
    assert_eq!(session.indexes().collect::<Vec<_>>(), [7, 2]);
    assert_eq!(session.name(2), Some("search"));
    assert_eq!(session.id(7), Some("call_7"));
    assert!(session.ended(7) && session.ended(2));
    assert_eq!(session.finish(7).unwrap(), Search::from_model(texts[0]));
    assert_eq!(session.finish(2).unwrap(), Search::from_model(texts[1]));
    // The undeclared root key is certain once complete, before the end.
    let key_end = texts[1].find("\"zz\"").unwrap() + 4;
    assert!(early_at.is_some_and(|at| at >= key_end && at < texts[1].len()));
    assert!(session.finish(99).is_none());
}

#[test]
fn an_args_session_lends_each_call_the_events_it_would_record() {
    use std::collections::BTreeMap;
    use toolargs::stream::ArgsSession;
    use toolargs::stream::wire::CallDelta;
    let texts = [
        GOOD,
        r#"{"query": "a &amp; b", "tags": "[\"x\"]", "documents": [], "mode": "slow"}"#,
    ];
    for size in [1, 2, 3, 7] {
        let mut recording = ArgsSession::<Search>::default();
        let mut lending = ArgsSession::<Search>::default().without_events();
        // Both calls begin, then their fragments alternate, then both end.
        let mut deltas: Vec<CallDelta> = (0..2)
            .map(|index| CallDelta::Begin {
                index,
                id: None,
                name: Some("search".into()),
            })
            .collect();
        let pieces: Vec<Vec<&[u8]>> = texts
            .iter()
            .map(|t| t.as_bytes().chunks(size).collect())
            .collect();
        for i in 0..pieces[0].len().max(pieces[1].len()) {
            for (index, own) in (0u64..).zip(&pieces) {
                if let Some(piece) = own.get(i) {
                    deltas.push(CallDelta::Arguments {
                        index,
                        fragment: String::from_utf8_lossy(piece).into_owned(),
                    });
                }
            }
        }
        deltas.extend((0..2).map(|index| CallDelta::End { index }));
        let mut want: BTreeMap<u64, Vec<Event>> = BTreeMap::new();
        let mut lent: BTreeMap<u64, Vec<Event>> = BTreeMap::new();
        for delta in &deltas {
            let index = delta.index();
            if let Some(call) = recording.apply(delta) {
                want.entry(index).or_default().extend(call.events());
            }
            let own = lent.entry(index).or_default();
            if let Some(call) = lending.apply_with(delta, |event| own.push(event.to_event())) {
                assert_eq!(call.events().count(), 0, "nothing recorded");
            }
        }
        assert!(want.values().all(|events| !events.is_empty()));
        assert_eq!(lent, want, "{size}-byte fragments");
        for index in [0, 1] {
            assert_eq!(lending.finish(index), recording.finish(index));
        }
    }
}

#[test]
fn a_string_at_the_root_is_shown_open_and_decoded_when_complete() {
    // An object sent as one JSON string: the root location declares an
    // object, so the complete string is decoded (RT-TOOL-8's root rule).
    let inner = r#"{"query": "x", "tags": [], "documents": [], "mode": "fast"}"#;
    let text = serde_json::to_string(inner).unwrap();
    let mut call = ArgsStream::<Search>::new();
    call.push(&text[..10]);
    let snapshot = call.snapshot().unwrap();
    assert_eq!(snapshot.open.len(), 1);
    assert!(snapshot.value.is_string());
    call.push(&text[10..]);
    let events: Vec<Event> = call.events().collect();
    assert_eq!(
        events,
        [Event::Value {
            location: toolargs::path::Pointer::root(),
            value: serde_json::from_str(inner).unwrap(),
        }]
    );
    assert_eq!(call.finish(), Search::from_model(text.as_str()));
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
struct Even {
    label: String,
    #[serde(deserialize_with = "even")]
    n: u32,
}

fn even<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let n = <u32 as Deserialize>::deserialize(deserializer)?;
    if n % 2 == 0 {
        Ok(n)
    } else {
        Err(serde::de::Error::custom(format!("{n} is odd")))
    }
}

#[test]
fn a_value_the_type_refuses_after_validation_is_refused_where_the_whole_text_says() {
    for text in [
        r#"{"label": "a &amp; b", "n": 3}"#,
        r#"{"label": "plain", "n": 3}"#,
        r#"{"label": "plain", "n": 4}"#,
    ] {
        let whole = Even::from_model(text);
        for bytes in [false, true] {
            let mut call = ArgsStream::<Even>::new();
            for (at, character) in text.char_indices() {
                let piece = &text[at..at + character.len_utf8()];
                if bytes {
                    call.push_bytes(piece.as_bytes());
                } else {
                    call.push(piece);
                }
            }
            assert_eq!(call.finish(), whole, "{text}");
        }
    }
    match Even::from_model(r#"{"label": "x", "n": 3}"#).unwrap_err() {
        ArgsError::Deserialize { pointer, message } => {
            assert_eq!(pointer, "/n");
            assert!(message.contains("3 is odd"), "{message}");
        }
        other => panic!("expected Deserialize, got {other:?}"),
    }
}

/// Unions whose branch the container's shape decides.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
struct Decided {
    filter: Option<Filter>,
    either: DocumentThenMode,
    #[serde(default)]
    holder: Option<Holder>,
    #[serde(default)]
    opts: Option<Opts>,
    #[serde(default)]
    drawn: Option<Drawn>,
}

/// A struct with a unit-enum member: in an `Option`, that member is what
/// the plan and the report read to take the branch.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
struct Opts {
    mode: Mode,
    filter: Filter,
}

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
struct Holder {
    one: OneMember,
    name: String,
}

/// One required member: the shape of an externally tagged variant, which
/// the plan applies as a union's branch only to an object holding it.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
struct OneMember {
    ports: Vec<u16>,
}

/// Untagged: an array (a document, then a mode) or a string.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(untagged)]
enum DocumentThenMode {
    Pair(Document, Mode),
    Name(String),
}

fn first_provisional<T: ToolArgs>(text: &str) -> Option<(usize, ArgsError)> {
    first_early::<T>(text, true)
}

/// `text`, fed one byte at a time, is rejected at the closing quote of its
/// key `"zz"`, at `pointer`, with a violation the whole text gets too.
fn rejected_early_at_the_unknown_key<T: ToolArgs + std::fmt::Debug>(text: &str, pointer: &str) {
    let (received, rejection) = first_provisional::<T>(text).expect("rejected early");
    assert_eq!(received, text.find(r#""zz""#).unwrap() + 4);
    let early = violations(&rejection);
    assert_eq!(early[0].pointer, pointer);
    let whole = violations(&T::from_model(text).unwrap_err());
    assert!(whole.contains(&early[0]), "{early:?} not in {whole:?}");
}

#[test]
fn an_option_of_a_struct_is_checked_as_its_object_arrives() {
    let text = r#"{"filter": {"since": "2026", "zz": 1, "authors": []}, "either": "x"}"#;
    rejected_early_at_the_unknown_key::<Decided>(text, "/filter/zz");
}

#[test]
fn a_union_branch_with_enum_items_is_not_decided_early() {
    // The unknown key comes first; the mode after it fails its `enum`, and
    // the whole call is then reported at the union, not at the key. A
    // rejection at the key would not be the whole call's.
    let text = r#"{"filter": null, "either": [{"title": "a", "labels": [], "zz": 1}, "warp"]}"#;
    let whole = violations(&Decided::from_model(text).unwrap_err());
    assert_eq!(whole[0].pointer, "/either");
    let early = first_provisional::<Decided>(text);
    assert!(early.is_none(), "rejected early: {early:?}");
    // The same call with a valid mode: the document's unknown key is what
    // fails, but the branch is still not taken early.
    let valid_mode = text.replace("warp", "fast");
    let whole = violations(&Decided::from_model(valid_mode.as_str()).unwrap_err());
    assert_eq!(whole[0].pointer, "/either/0/zz");
}

#[test]
fn a_member_below_a_decided_union_is_normalized_as_the_whole_call_is() {
    // `ports` arrives as JSON text: normalization decodes it there, so it
    // is no type error, early or at the end.
    let text =
        r#"{"filter": null, "either": "x", "holder": {"one": {"ports": "[1, 2]"}, "name": "a"}}"#;
    assert!(first_provisional::<Decided>(text).is_none());
    let mut call = ArgsStream::<Decided>::new();
    call.push(text);
    assert_eq!(call.finish(), Decided::from_model(text));
    assert!(Decided::from_model(text).is_ok());
}

/// Internally tagged: the tag member picks the variant.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Drawn {
    Circle { radius: u32, center: Filter },
    Square { side: u32 },
}

#[test]
fn a_tagged_union_is_checked_once_its_tag_is_complete() {
    let text =
        r#"{"type": "circle", "center": {"since": "2026", "zz": 1, "authors": []}, "radius": 2}"#;
    rejected_early_at_the_unknown_key::<Drawn>(text, "/center/zz");
    // Before the tag, nothing below is decided.
    let untagged_first =
        r#"{"center": {"since": "2026", "zz": 1, "authors": []}, "type": "circle", "radius": 2}"#;
    assert!(first_provisional::<Drawn>(untagged_first).is_none());
}

#[test]
fn a_finding_below_a_tag_falls_when_the_tag_is_sent_again() {
    // Under `circle`, `center` is declared and `zz` below it is not; the
    // tag sent again as `square` makes `center` itself the unknown member.
    let text = r#"{"type": "circle", "center": {"since": "2026", "zz": 1, "authors": []}, "type": "square", "side": 2}"#;
    let mut call = ArgsStream::<Drawn>::new();
    let cut = text.rfind(r#""type""#).unwrap();
    call.push(&text[..cut]);
    let early = call.provisional().expect("found below the first tag");
    assert_eq!(early.certainty, Certainty::UnlessRepeated);
    assert!(call.rejection().is_none());
    call.push(&text[cut..]);
    assert!(call.provisional().is_none() && call.rejection().is_none());
    let whole = violations(&Drawn::from_model(text).unwrap_err());
    assert!(whole.iter().all(|v| v.pointer != "/center/zz"));
    assert_eq!(call.finish(), Drawn::from_model(text));
}

/// Externally tagged: the object's one key names the variant.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Act {
    Create { name: String, filter: Filter },
    Delete { id: u32 },
    Noop,
}

#[test]
fn an_externally_tagged_variant_is_checked_once_its_key_is_complete() {
    let text = r#"{"create": {"name": "a", "filter": {"since": "x", "zz": 1, "authors": []}}}"#;
    rejected_early_at_the_unknown_key::<Act>(text, "/create/filter/zz");
}

#[test]
fn a_finding_below_a_variant_key_falls_when_another_key_arrives() {
    // With a second variant key the object matches no variant, and the
    // whole call is reported at the union.
    let text = r#"{"create": {"name": "a", "zz": 1, "filter": {"since": "x", "authors": []}}, "delete": {"id": 1}}"#;
    let mut call = ArgsStream::<Act>::new();
    let cut = text.find(r#""delete""#).unwrap();
    call.push(&text[..cut]);
    let early = call.provisional().expect("found below the variant key");
    assert_eq!(violations(&early.rejection)[0].pointer, "/create/zz");
    call.push(&text[cut..]);
    assert!(call.provisional().is_none() && call.rejection().is_none());
    let whole = violations(&Act::from_model(text).unwrap_err());
    assert!(whole.iter().all(|v| v.pointer != "/create/zz"), "{whole:?}");
    assert_eq!(call.finish(), Act::from_model(text));
}

#[test]
fn an_option_of_a_struct_with_an_enum_member_is_checked_once_that_member_is() {
    let text = r#"{"filter": null, "either": "x", "opts": {"mode": "fast", "filter": {"since": "x", "zz": 1, "authors": []}}}"#;
    rejected_early_at_the_unknown_key::<Decided>(text, "/opts/filter/zz");
    // A mode outside the enum: the whole call's report is inside the
    // option's branch, at the member (and at the unknown key beside it);
    // the stream, which cannot yet tell the branch, waits for the end.
    let wrong = text.replace("fast", "warp");
    assert!(first_provisional::<Decided>(&wrong).is_none());
    let whole = violations(&Decided::from_model(wrong.as_str()).unwrap_err());
    let pointers: Vec<&str> = whole.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(pointers, ["/opts/mode", "/opts/filter/zz"], "{whole:?}");
    let mut call = ArgsStream::<Decided>::new();
    call.push(&wrong);
    assert_eq!(call.finish(), Decided::from_model(wrong.as_str()));
}

#[test]
fn an_option_of_a_tagged_enum_is_checked_once_its_tag_is_complete() {
    let text = r#"{"filter": null, "either": "x", "drawn": {"type": "circle", "center": {"since": "x", "zz": 1, "authors": []}, "radius": 1}}"#;
    rejected_early_at_the_unknown_key::<Decided>(text, "/drawn/center/zz");
}

/// One string member, for calls whose text goes wrong before any schema
/// matters.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
struct Note {
    s: String,
}

/// The first certain rejection, with the bytes received then, and the
/// final result.
type Streamed<T> = (
    Option<(usize, ArgsError)>,
    Result<toolargs::tool_args::Parsed<T>, ArgsError>,
);

/// `text` fed in `fragments` (as text where a fragment is whole
/// characters, as bytes otherwise).
fn streamed<T: ToolArgs>(fragments: &[&[u8]]) -> Streamed<T> {
    let mut call = ArgsStream::<T>::new();
    let mut first = None;
    for fragment in fragments {
        match std::str::from_utf8(fragment) {
            Ok(text) => call.push(text),
            Err(_) => call.push_bytes(fragment),
        }
        if first.is_none() {
            first = call.rejection().map(|e| (e.received, e.rejection));
        }
    }
    (first, call.finish())
}

/// In every two-way split of `text` (a cut inside a character included)
/// and in one-byte deltas, the call is rejected early with the very error
/// the whole text gets (compared with `from_model`, not with a wording),
/// as soon as the fragment holding byte `shown - 1` arrives.
fn rejected_as_the_whole_text_once_shown<T: ToolArgs + std::fmt::Debug>(text: &str, shown: usize) {
    let whole = T::from_model(text).expect_err("the text is not JSON");
    assert!(matches!(whole, ArgsError::Syntax(_)), "{text:?}: {whole:?}");
    let bytes = text.as_bytes();
    for cut in 0..=bytes.len() {
        let (first, result) = streamed::<T>(&[&bytes[..cut], &bytes[cut..]]);
        let expected = if cut >= shown { cut } else { bytes.len() };
        assert_eq!(
            first,
            Some((expected, whole.clone())),
            "{text:?} cut at {cut}"
        );
        assert_eq!(result.unwrap_err(), whole, "{text:?} cut at {cut}");
    }
    let deltas: Vec<&[u8]> = bytes.chunks(1).collect();
    let (first, result) = streamed::<T>(&deltas);
    assert_eq!(first, Some((shown, whole.clone())), "{text:?} in bytes");
    assert_eq!(result.unwrap_err(), whole);
}

#[test]
fn a_syntax_error_at_a_character_is_the_whole_texts_in_every_split() {
    // Trailing non-ASCII after the root, a fullwidth colon, a byte order
    // mark: the error is known once the character is complete.
    rejected_as_the_whole_text_once_shown::<Note>("{\"s\":\"x\"}é", 11);
    rejected_as_the_whole_text_once_shown::<Note>("{\"s\"\u{ff1a}\"x\"}", 7);
    rejected_as_the_whole_text_once_shown::<Note>("\u{feff}{\"s\":\"x\"}", 3);
    rejected_as_the_whole_text_once_shown::<Note>("[1, €]", 7);
    // A number the parser refuses: once the byte after it shows its end.
    rejected_as_the_whole_text_once_shown::<Note>("[1e400, 2]", 7);
    rejected_as_the_whole_text_once_shown::<Note>("{\"s\":\"x\"} \u{1F600}", 14);
}

#[test]
fn an_invalid_escape_is_rejected_in_every_split_once_the_parser_words_it() {
    // The parser reads four bytes after `\u` before it says which error:
    // the call is rejected at the fourth, wherever the text was cut.
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\u00G1"}"#, 12);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\uG000"}"#, 12);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\u0Gé"}"#, 12);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"a\x"}"#, 9);
}

#[test]
fn a_lone_surrogate_escape_is_rejected_at_the_byte_that_shows_it() {
    // A high surrogate followed by something other than `\u`, or by a `\u`
    // escape that is not a low surrogate; a low surrogate alone. The error
    // is the whole text's, whatever its wording.
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\ud800x"}"#, 13);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\ud800\u0041"}"#, 18);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\ud800\n"}"#, 14);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\ud800"}"#, 13);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\udc00 and more"}"#, 12);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"\uDBFFé":1}"#, 10);
    rejected_as_the_whole_text_once_shown::<Note>(r#"{"s":"\ud83d\ud83d"}"#, 18);
    // A pair is no error.
    let pair = r#"{"s":"\ud83d\ude00"}"#;
    assert!(Note::from_model(pair).is_ok());
    assert_eq!(
        streamed::<Note>(&pair.as_bytes().chunks(1).collect::<Vec<_>>()).0,
        None
    );
}

#[test]
fn a_snapshot_names_the_open_string_in_a_later_array_item() {
    let mut call = ArgsStream::<Search>::new();
    call.push(r#"{"tags":["a","b"#);
    let snapshot = call.snapshot().expect("a value began");
    assert_eq!(snapshot.value, json!({"tags": ["a", "b"]}));
    let open: Vec<String> = snapshot.open.iter().map(|l| l.to_string()).collect();
    assert_eq!(open, ["", "/tags", "/tags/1"]);
    call.push(r#"", "c"#);
    let open: Vec<String> = call
        .snapshot()
        .unwrap()
        .open
        .iter()
        .map(|l| l.to_string())
        .collect();
    assert_eq!(open, ["", "/tags", "/tags/2"]);
    // Below an object in an array, the string's own array counts.
    let mut call = ArgsStream::<Search>::new();
    call.push(r#"{"documents":[{"title":"t","labels":[]},{"title":"u","labels":["x","y"#);
    let open: Vec<String> = call
        .snapshot()
        .unwrap()
        .open
        .iter()
        .map(|l| l.to_string())
        .collect();
    assert_eq!(
        open,
        [
            "",
            "/documents",
            "/documents/1",
            "/documents/1/labels",
            "/documents/1/labels/1"
        ]
    );
}

#[test]
fn bytes_that_are_not_utf8_get_the_parsers_error_on_the_bytes() {
    // Outside a string, at the first byte that shows it; in a string, at
    // its closing quote: the error `finish` gives, in every split.
    for (text, shown) in [
        (&b"{\"s\": \"x\"}\xff"[..], 11),
        (&b"{\"s\": \"x\"} \xc3A"[..], 13),
        (&b"{\"s\": \"x\xff y\", \"t\": 1}"[..], 12),
        (&b"[\"\xed\xa0\x80\"]"[..], 6),
    ] {
        let whole = streamed::<Note>(&[text]).1.unwrap_err();
        assert!(matches!(whole, ArgsError::Syntax(_)));
        for cut in 0..=text.len() {
            let (first, result) = streamed::<Note>(&[&text[..cut], &text[cut..]]);
            let expected = if cut >= shown { cut } else { text.len() };
            assert_eq!(
                first,
                Some((expected, whole.clone())),
                "{text:?} cut at {cut}"
            );
            assert_eq!(result.unwrap_err(), whole);
        }
    }
}

/// A Rust integer refuses a number written with a fraction or an exponent
/// (`5.0`, `5e0`), which JSON Schema's `integer` takes: the contract model
/// says so, and the stream says it as the number completes, in the words
/// the whole call gets. A float field takes `5.0`.
#[test]
fn an_integer_written_with_a_fraction_is_refused_as_the_number_completes() {
    #[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
    struct Measure {
        count: u32,
        ratio: f64,
        items: Vec<Item>,
    }
    #[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
    struct Item {
        size: Option<i64>,
    }
    for (text, number) in [
        (r#"{"count": 5.0, "ratio": 1, "items": []}"#, "5.0"),
        (r#"{"ratio": 1.5, "count": 5e0, "items": []}"#, "5e0"),
        (
            r#"{"count": 1, "ratio": 2.0, "items": [{"size": 1}, {"size": -2.5}]}"#,
            "-2.5",
        ),
    ] {
        // The number ends at the byte after it.
        let after = text.find(number).unwrap() + number.len() + 1;
        let (received, early) = first_early::<Measure>(text, true).expect("refused early");
        assert_eq!(received, after, "{text}");
        let whole = violations(&Measure::from_model(text).unwrap_err());
        let early = violations(&early);
        assert_eq!(early.len(), 1);
        assert!(
            whole.contains(&early[0]),
            "{text}: {early:?} not in {whole:?}"
        );
        // Certain once the enclosing objects close without the key again.
        let (_, certain) = first_early::<Measure>(text, false).expect("certain at the end");
        assert_eq!(violations(&certain), early);
    }
    // A float field takes `5.0`; an integer field `5`: nothing early.
    let fine = r#"{"count": 5, "ratio": 5.0, "items": [{"size": 7}]}"#;
    assert!(first_early::<Measure>(fine, true).is_none());
    assert!(Measure::from_model(fine).is_ok());
}

/// Internally tagged, with an enum member in a branch: the tag cannot pick
/// the branch for the members below it (a bad `mode` is reported at the
/// union), but a tag no branch allows fails every branch at the tag, which
/// the whole call reports whatever follows: refused as the tag completes.
#[test]
fn a_tag_outside_every_branch_is_refused_as_it_completes() {
    #[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Job {
        Scan { mode: Mode, depth: u32 },
        Stop { reason: String },
    }
    for (text, tag) in [
        (
            r#"{"type": "zzz", "mode": "warp", "depth": "x", "zz": 1}"#,
            r#""zzz""#,
        ),
        (r#"{"reason": 1, "type": "Scan"}"#, r#""Scan""#),
        (r#"{"type": 5, "mode": "fast"}"#, "5"),
    ] {
        // A string completes at its closing quote; a number at the byte
        // after it.
        let end = text.find(tag).unwrap() + tag.len() + usize::from(!tag.starts_with('"'));
        let (received, early) = first_early::<Job>(text, true).expect("refused early");
        assert_eq!(received, end, "{text}");
        let whole = violations(&Job::from_model(text).unwrap_err());
        assert_eq!(violations(&early), whole, "{text}");
        assert_eq!(whole[0].pointer, "/type");
    }
    // Sent again with a good value, the tag no longer fails: the finding
    // was provisional, and falls.
    let again = r#"{"type": "zzz", "type": "stop", "reason": "x"}"#;
    let mut call = ArgsStream::<Job>::new();
    call.push(again);
    assert!(call.provisional().is_none() && call.rejection().is_none());
    assert_eq!(call.finish(), Job::from_model(again));
    // A tag a branch allows picks that branch: the bad `mode` after it is
    // refused at `/mode` as it completes, as the whole call reports it.
    let good_tag = r#"{"type": "scan", "mode": "warp", "depth": 1}"#;
    let (received, early) = first_early::<Job>(good_tag, true).expect("refused early");
    assert_eq!(received, good_tag.find("warp").unwrap() + 5);
    let whole = violations(&Job::from_model(good_tag).unwrap_err());
    assert_eq!(violations(&early), whole);
    assert_eq!((&*whole[0].pointer, &*whole[0].keyword), ("/mode", "enum"));
}

/// Internally tagged, a variant with a unit-enum member: the tag picks the
/// variant whatever that member holds.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Task {
    Scan {
        mode: Mode,
        depth: u32,
        #[tool_args(verbatim)]
        #[serde(default)]
        labels: Vec<String>,
    },
    Stop {
        reason: String,
    },
}

#[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
struct Tasks {
    task: Option<Task>,
    #[serde(default)]
    picked: Option<Picked>,
}

/// Adjacently tagged, a variant whose content is a unit enum.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
enum Picked {
    Pick(Mode),
    Count(u32),
}

/// The violation a call of `T` gets at `pointer`, whole and streamed: in
/// every two-way split and in one-byte deltas, the stream refuses it once
/// byte `shown - 1` has arrived, with the whole call's violation there
/// (pointer, keyword, message), provisional until the objects close.
fn refused_once_shown<T: ToolArgs + std::fmt::Debug + PartialEq>(
    text: &str,
    shown: usize,
    pointer: &str,
) {
    let whole = violations(&T::from_model(text).unwrap_err());
    let expected = whole
        .iter()
        .find(|v| v.pointer == pointer)
        .unwrap_or_else(|| panic!("{text}: nothing at {pointer} in {whole:?}"))
        .clone();
    let (received, early) = first_early::<T>(text, true).expect("refused early");
    assert_eq!(received, shown, "{text}");
    assert_eq!(violations(&early)[0], expected, "{text}");
    let bytes = text.as_bytes();
    for cut in 0..=bytes.len() {
        let mut call = ArgsStream::<T>::new();
        call.push_bytes(&bytes[..cut]);
        let first = call
            .provisional()
            .map(|e| violations(&e.rejection)[0].clone());
        assert_eq!(first.is_some(), cut >= shown, "{text} cut at {cut}");
        call.push_bytes(&bytes[cut..]);
        let last = call.rejection().expect("certain once the objects close");
        assert_eq!(
            violations(&last.rejection)[0],
            expected,
            "{text} cut at {cut}"
        );
        assert_eq!(call.finish(), T::from_model(text), "{text} cut at {cut}");
    }
}

/// Class 6 of the streaming issue, its second half: a tag a branch allows
/// picks it as soon as it completes, also where the branch has an enum
/// member, and the whole call is reported inside that branch.
#[test]
fn a_good_tag_decides_its_branch_as_it_completes_also_beside_an_enum_member() {
    let text = r#"{"type": "scan", "mode": "warp", "depth": 1}"#;
    let whole = violations(&Task::from_model(text).unwrap_err());
    assert_eq!(whole.len(), 1, "{whole:?}");
    assert_eq!((&*whole[0].pointer, &*whole[0].keyword), ("/mode", "enum"));
    assert_eq!(
        whole[0].message,
        r#"expected one of "fast", "thorough", found string "warp""#
    );
    let shown = text.find("warp").unwrap() + 5;
    refused_once_shown::<Task>(text, shown, "/mode");
    // Another member after a good tag and mode, likewise.
    let depth = r#"{"type": "scan", "mode": "fast", "depth": "x"}"#;
    refused_once_shown::<Task>(depth, depth.len() - 1, "/depth");
    // Inside an `Option`, and adjacently tagged with an enum as content.
    let inside = r#"{"task": {"type": "scan", "depth": 1, "mode": "warp"}}"#;
    refused_once_shown::<Tasks>(inside, inside.find("warp").unwrap() + 5, "/task/mode");
    let adjacent = r#"{"task": null, "picked": {"t": "pick", "c": "warp"}}"#;
    refused_once_shown::<Tasks>(adjacent, adjacent.find("warp").unwrap() + 5, "/picked/c");
    // A finding below another member falls when the enum member arrives
    // (which, outside its enum, makes the whole call read the object
    // otherwise); the member's own finding stands.
    let before = r#"{"type": "scan", "depth": "x", "mode": "warp"}"#;
    let mut call = ArgsStream::<Task>::new();
    let cut = before.find(r#""mode""#).unwrap();
    call.push(&before[..cut]);
    let early = call.provisional().expect("found at /depth");
    assert_eq!(violations(&early.rejection)[0].pointer, "/depth");
    call.push(&before[cut..]);
    let last = call.rejection().expect("found at /mode");
    let whole = violations(&Task::from_model(before).unwrap_err());
    assert_eq!(violations(&last.rejection)[0].pointer, "/mode");
    assert!(whole.contains(&violations(&last.rejection)[0]), "{whole:?}");
    // The normalizer reads the enum member as a tag too: outside its enum,
    // it makes the whole call bind the object otherwise, where `labels` is
    // not the variant's verbatim field and its references are decoded. So
    // what is found in `labels` falls when `mode` arrives, and after a
    // `mode` outside its enum (before the tag or after it) no other member
    // is checked.
    let cases = [
        (
            r#"{"type": "scan", "labels": "a&amp;b", "mode": "warp", "depth": 1}"#,
            true,
        ),
        (
            r#"{"mode": "warp", "type": "scan", "labels": "a&amp;b", "depth": 1}"#,
            false,
        ),
        (
            r#"{"type": "scan", "mode": "warp", "labels": "a&amp;b", "depth": 1}"#,
            false,
        ),
    ];
    for (text, labels_first) in cases {
        let whole = violations(&Task::from_model(text).unwrap_err());
        let pointers: Vec<&str> = whole.iter().map(|v| v.pointer.as_str()).collect();
        assert!(
            pointers.contains(&"/labels") && pointers.contains(&"/mode"),
            "{whole:?}"
        );
        let mut call = ArgsStream::<Task>::new();
        let mut seen = Vec::new();
        for byte in text.as_bytes() {
            call.push_bytes(std::slice::from_ref(byte));
            if let Some(early) = call.provisional() {
                seen.push(violations(&early.rejection)[0].pointer.clone());
            }
        }
        assert_eq!(
            seen.first().map(String::as_str) == Some("/labels"),
            labels_first,
            "{text}: {seen:?}"
        );
        match call.rejection() {
            Some(last) => assert!(whole.contains(&violations(&last.rejection)[0]), "{text}"),
            None => assert!(seen.is_empty(), "{text}: {seen:?}"),
        }
        assert_eq!(call.finish(), Task::from_model(text));
    }
    // The tag sent again outside every variant is still refused as it
    // completes.
    let outside = r#"{"type": "scan", "mode": "fast", "type": "zzz", "depth": 1}"#;
    refused_once_shown::<Task>(outside, outside.find("zzz").unwrap() + 4, "/type");
    // The tag sent again: the finding below it falls.
    let again = r#"{"type": "scan", "mode": "warp", "type": "stop", "reason": "x"}"#;
    let mut call = ArgsStream::<Task>::new();
    call.push(again);
    assert!(call.provisional().is_none() && call.rejection().is_none());
    assert_eq!(call.finish(), Task::from_model(again));
    // A tag normalization changes is left to the end, where the whole call
    // reads it decoded and reports inside its branch.
    let encoded = r#"{"type": "sc&#97;n", "mode": "warp", "depth": 1}"#;
    assert!(first_early::<Task>(encoded, true).is_none());
    let whole = violations(&Task::from_model(encoded).unwrap_err());
    assert_eq!(whole[0].pointer, "/mode");
    // A member outside its enum, sent encoded: the branch is read
    // otherwise by the whole call, so nothing below another member is
    // decided after it.
    let member_encoded = r#"{"type": "scan", "mode": "w&#97;rp", "depth": "x"}"#;
    assert!(first_early::<Task>(member_encoded, true).is_none());
    assert!(Task::from_model(member_encoded).is_err());
}

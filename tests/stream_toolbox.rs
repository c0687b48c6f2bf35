//! Streamed calls against a toolbox: sessions keyed by the provider's index
//! (interleaved calls, names in fragments), unknown tools, early rejections
//! worded as `Toolbox::check` words them, and the final outcome equal to
//! `Toolbox::check` on the whole call, for every split of the arguments.

#[path = "support/stream_sound.rs"]
mod stream_sound;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use toolargs::ToolArgs;
use toolargs::call::{Arguments, ToolCall, WireFormat};
use toolargs::export::Dialect;
use toolargs::rejection::{CallError, Rejection};
use toolargs::stream::wire::CallDelta;
use toolargs::stream::{Certainty, ToolStreams};
use toolargs::toolbox::Toolbox;

/// Refund part or all of an order.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
#[allow(dead_code)] // the body reads the amount only
struct Refund {
    order_id: String,
    amount_cents: u32,
    reason: Option<String>,
}

fn toolbox(dialect: Dialect) -> Toolbox {
    let mut tools = Toolbox::with_dialect(dialect);
    tools
        .tool_sync("refund", "Refund an order.", |r: Refund| {
            Ok::<_, String>(r.amount_cents)
        })
        .unwrap();
    tools
        .dynamic_tool_sync(
            "lookup",
            "Look orders up.",
            json!({
                "type": "object",
                "properties": {
                    "ids": {"type": "array", "items": {"type": "string"}},
                    "status": {"enum": ["open", "closed"]}
                },
                "required": ["ids"],
                "additionalProperties": false
            }),
            Ok::<_, String>,
        )
        .unwrap();
    tools
}

/// `Toolbox::check` on the whole call, as comparable text.
fn whole(tools: &Toolbox, name: &str, text: &str) -> String {
    let call = ToolCall {
        id: Some("c".into()),
        name: name.into(),
        arguments: Arguments::Text(text.into()),
        format: WireFormat::OpenAiChat,
    };
    outcome(tools.check(&(), call))
}

fn outcome(result: Result<toolargs::toolbox::Checked<'_>, CallError>) -> String {
    match result {
        Ok(checked) => format!("ok {} {}", checked.tool(), checked.arguments()),
        Err(error) => format!("err {:?}", error.rejection()),
    }
}

const CALLS: &[(&str, &str)] = &[
    ("refund", r#"{"order_id": "A&amp;1", "amount_cents": 20}"#),
    ("refund", r#"{"order_id": "A1", "amount_cents": "20"}"#),
    ("refund", r#"{"order_id": "A1", "amount": 20}"#),
    ("refund", r#"{"order_id": "A1", "amount_cents": 20,}"#),
    ("lookup", r#"{"ids": "[\"a\", \"b\"]", "status": "open"}"#),
    ("lookup", r#"{"ids": ["a"], "status": "pending"}"#),
    ("lookup", r#"{"ids": ["a", 3]}"#),
    ("lookp", r#"{"ids": []}"#),
    ("refund", ""),
];

/// Two calls interleaved fragment by fragment, the first split at `cut`,
/// names sent in two pieces.
fn interleaved(a: (&str, &str), b: (&str, &str), cut: usize) -> Vec<CallDelta> {
    let (name_a, text_a) = a;
    let (name_b, text_b) = b;
    let half = name_a.len() / 2;
    let mut deltas = vec![
        CallDelta::Begin {
            index: 0,
            id: Some("call_a".into()),
            name: Some(name_a[..half].into()),
        },
        CallDelta::Begin {
            index: 1,
            id: Some("call_b".into()),
            name: Some(name_b.into()),
        },
        CallDelta::Name {
            index: 0,
            fragment: name_a[half..].into(),
        },
    ];
    let mut cut = cut.min(text_a.len());
    while !text_a.is_char_boundary(cut) {
        cut -= 1;
    }
    let pieces_b: Vec<String> = text_b
        .as_bytes()
        .chunks(3)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    deltas.push(CallDelta::Arguments {
        index: 0,
        fragment: text_a[..cut].into(),
    });
    for piece in &pieces_b {
        deltas.push(CallDelta::Arguments {
            index: 1,
            fragment: piece.clone(),
        });
    }
    deltas.push(CallDelta::Arguments {
        index: 0,
        fragment: text_a[cut..].into(),
    });
    deltas.push(CallDelta::End { index: 1 });
    deltas.push(CallDelta::End { index: 0 });
    deltas
}

#[test]
fn every_split_ends_as_the_whole_call_and_early_rejections_are_its_own() {
    for dialect in [Dialect::Canonical, Dialect::OpenAiStrict] {
        let tools = toolbox(dialect);
        let streams = ToolStreams::new(&tools);
        for a in CALLS {
            let b = ("lookup", r#"{"ids": ["x"]}"#);
            for cut in 0..=a.1.len() {
                let mut session = streams.session(WireFormat::OpenAiChat);
                let mut early = None;
                for delta in interleaved(*a, b, cut) {
                    if let Some(call) = session.apply(&delta)
                        && early.is_none()
                        && call.name() == a.0
                        && call.id() == Some("call_a")
                    {
                        early = call.rejection();
                    }
                }
                assert!(session.ended(0) && session.ended(1));
                let got = outcome(session.finish(0, &()).unwrap());
                let want = whole(&tools, a.0, a.1);
                assert_eq!(got, want, "{dialect:?} {a:?} cut at {cut}");
                assert_eq!(
                    outcome(session.finish(1, &()).unwrap()),
                    whole(&tools, b.0, b.1)
                );
                if let Some(early) = early {
                    assert_eq!(early.certainty, Certainty::Certain);
                    let whole = tools
                        .check(
                            &(),
                            ToolCall {
                                id: None,
                                name: a.0.into(),
                                arguments: Arguments::Text(a.1.into()),
                                format: WireFormat::OpenAiChat,
                            },
                        )
                        .expect_err("rejected early, so rejected whole");
                    if let Err(e) =
                        stream_sound::early_rejection_is_sound(&early.rejection, whole.rejection())
                    {
                        panic!("{dialect:?} {a:?} cut at {cut}: {e}");
                    }
                }
            }
        }
    }
}

#[test]
fn an_unknown_tool_is_rejected_when_its_arguments_begin() {
    let tools = toolbox(Dialect::Canonical);
    let streams = ToolStreams::new(&tools);
    let mut session = streams.session(WireFormat::OpenAiResponses);
    let begin = CallDelta::Begin {
        index: 3,
        id: None,
        name: Some("refnd".into()),
    };
    assert!(session.apply(&begin).is_none(), "the name may still grow");
    let call = session
        .apply(&CallDelta::Arguments {
            index: 3,
            fragment: "{".into(),
        })
        .expect("arguments began");
    let early = call.rejection().expect("unknown tool");
    let Rejection::UnknownTool(unknown) = &early.rejection else {
        panic!("{early:?}")
    };
    assert_eq!(unknown.closest, ["refund"]);
    assert_eq!(early.received, 0);
    let mut session = streams.session(WireFormat::OpenAiResponses);
    session.apply(&begin);
    session.apply(&CallDelta::Arguments {
        index: 3,
        fragment: "{}".into(),
    });
    let error = session.finish(3, &()).unwrap().unwrap_err();
    assert_eq!(error.rejection(), Some(&early.rejection));
}

#[test]
fn a_forbidden_key_is_worded_as_the_toolbox_words_it() {
    let tools = toolbox(Dialect::Canonical);
    let streams = ToolStreams::new(&tools);
    let mut call = streams.call(None, "refund", WireFormat::Anthropic);
    call.push(r#"{"order_id": "A1", "amount": "#);
    let early = call.rejection().expect("certain");
    let text = r#"{"order_id": "A1", "amount": 20}"#;
    let Err(error) = tools.check(
        &(),
        ToolCall {
            id: None,
            name: "refund".into(),
            arguments: Arguments::Text(text.into()),
            format: WireFormat::Anthropic,
        },
    ) else {
        panic!("rejected")
    };
    let (Rejection::InvalidArguments(early), Some(Rejection::InvalidArguments(whole))) =
        (&early.rejection, error.rejection())
    else {
        panic!("invalid arguments")
    };
    assert!(whole.violations.contains(&early.violations[0]));
    assert!(
        Rejection::InvalidArguments(early.clone())
            .model_message()
            .contains("/amount: unknown field `amount`")
    );
}

#[test]
fn lent_events_are_the_recorded_ones() {
    let tools = toolbox(Dialect::Canonical);
    let streams = ToolStreams::new(&tools);
    for (name, text) in [
        (
            "refund",
            r#"{"order_id": "A&amp;1", "amount_cents": 250, "reason": "late"}"#,
        ),
        ("lookup", r#"{"ids": "[\"a\", \"b\"]", "status": "open"}"#),
        ("lookup", r#"{"ids": ["a"], "status": "lost"}"#),
    ] {
        let mut recorded = streams.call(None, name, WireFormat::OpenAiChat);
        let mut lending = streams
            .call(None, name, WireFormat::OpenAiChat)
            .without_events();
        let (mut want, mut lent) = (Vec::new(), Vec::new());
        for (at, character) in text.char_indices() {
            let piece = &text[at..at + character.len_utf8()];
            recorded.push(piece);
            want.extend(recorded.events());
            lending.push_with(piece, |event| lent.push(event.to_event()));
            assert_eq!(lending.events().count(), 0, "{text}: nothing recorded");
        }
        recorded.end();
        want.extend(recorded.events());
        lending.end_with(|event| lent.push(event.to_event()));
        assert!(!want.is_empty());
        assert_eq!(lent, want, "{name} {text}");
        assert_eq!(
            outcome(lending.finish(&())),
            outcome(recorded.finish(&())),
            "{text}"
        );
    }
}

#[test]
fn a_session_lends_each_call_the_events_it_would_record() {
    use std::collections::BTreeMap;
    use toolargs::stream::Event;
    let tools = toolbox(Dialect::Canonical);
    let streams = ToolStreams::new(&tools);
    let b = ("lookup", r#"{"ids": "[\"x\"]", "status": "open"}"#);
    for a in CALLS {
        for cut in 0..=a.1.len() {
            let mut recording = streams.session(WireFormat::OpenAiChat);
            let mut lending = streams.session(WireFormat::OpenAiChat).without_events();
            let mut want: BTreeMap<u64, Vec<Event>> = BTreeMap::new();
            let mut lent: BTreeMap<u64, Vec<Event>> = BTreeMap::new();
            for delta in interleaved(*a, b, cut) {
                let index = delta.index();
                if let Some(call) = recording.apply(&delta) {
                    want.entry(index).or_default().extend(call.events());
                }
                let own = lent.entry(index).or_default();
                if let Some(call) = lending.apply_with(&delta, |event| own.push(event.to_event())) {
                    assert_eq!(call.events().count(), 0, "{a:?}: nothing recorded");
                }
            }
            want.retain(|_, events| !events.is_empty());
            lent.retain(|_, events| !events.is_empty());
            assert!(want.contains_key(&1), "the second call has events");
            assert_eq!(lent, want, "{a:?} cut at {cut}");
            for index in [0, 1] {
                assert_eq!(
                    outcome(lending.finish(index, &()).unwrap()),
                    outcome(recording.finish(index, &()).unwrap()),
                    "{a:?} cut at {cut}"
                );
            }
        }
    }
}

#[test]
fn a_syntax_error_is_the_toolbox_s_own_in_every_split() {
    // Cut anywhere, a character or an escape included: the early rejection
    // is exactly what `Toolbox::check` says on the whole call, whatever its
    // wording, once the text so far decides it.
    let tools = toolbox(Dialect::Canonical);
    let streams = ToolStreams::new(&tools);
    let texts = [
        "{\"order_id\": \"A1\"}é",
        "{\"order_id\"\u{ff1a} \"A1\"}",
        "\u{feff}{\"order_id\": \"A1\"}",
        r#"{"order_id": "\u00G1", "amount_cents": 1}"#,
        r#"{"order_id": "\ud800x", "amount_cents": 1}"#,
        r#"{"order_id": "\ud800\u0041", "amount_cents": 1}"#,
        r#"{"order_id": "\udc00 A1", "amount_cents": 1}"#,
    ];
    for text in texts {
        let whole = tools
            .check(
                &(),
                ToolCall {
                    id: None,
                    name: "refund".into(),
                    arguments: Arguments::Text(text.into()),
                    format: WireFormat::OpenAiChat,
                },
            )
            .expect_err("not JSON");
        let whole = whole.rejection().expect("a rejection").clone();
        assert!(matches!(whole, Rejection::Syntax(_)), "{text:?}: {whole:?}");
        let bytes = text.as_bytes();
        for cut in 0..=bytes.len() {
            let mut call = streams.call(None, "refund", WireFormat::OpenAiChat);
            call.push_bytes(&bytes[..cut]);
            let first = call.rejection();
            call.push_bytes(&bytes[cut..]);
            let early = first.or_else(|| call.rejection());
            let early = early.unwrap_or_else(|| panic!("{text:?} cut at {cut}: not rejected"));
            assert_eq!(early.rejection, whole, "{text:?} cut at {cut}");
            assert_eq!(early.certainty, Certainty::Certain);
            let got = call.finish(&()).expect_err("rejected");
            assert_eq!(got.rejection(), Some(&whole), "{text:?} cut at {cut}");
        }
    }
}

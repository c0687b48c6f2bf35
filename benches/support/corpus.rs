//! A deterministic corpus of tool calls for the benchmarks: small, medium
//! (nested arrays and objects) and large (long text), each clean and damaged
//! the ways models damage arguments (stringified arrays and objects, doubly
//! escaped text). Generated from a fixed seed, so every run measures the
//! same bytes.

#![allow(dead_code)]

use serde_json::{Value, json};

/// The schema every corpus call is checked against (what schemars emits for
/// the `SearchArgs` type of the derive benches, closed).
pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "limit": {"type": ["integer", "null"], "minimum": 0},
            "filter": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]},
            "documents": {"type": "array", "items": {"$ref": "#/$defs/Document"}},
        },
        "required": ["query", "tags", "documents"],
        "additionalProperties": false,
        "$defs": {
            "Filter": {
                "type": "object",
                "properties": {
                    "since": {"type": "string"},
                    "authors": {"type": "array", "items": {"type": "string"}}
                },
                "required": ["since", "authors"],
                "additionalProperties": false
            },
            "Document": {
                "type": "object",
                "properties": {
                    "title": {"type": "string"},
                    "body": {"type": "string"},
                    "labels": {"type": "array", "items": {"type": "string"}}
                },
                "required": ["title", "body", "labels"],
                "additionalProperties": false
            }
        }
    })
}

/// A small linear congruential generator: reproducible without a dependency.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[(self.next() as usize) % words.len()]
    }
}

const WORDS: &[&str] = &[
    "rust", "schema", "tool", "model", "argument", "Ember", "Oak", "json", "serde", "agent",
    "call", "repair", "validate", "policy", "AT&T", "café", "naïve", "résumé", "data", "vector",
];

fn sentence(rng: &mut Lcg, words: usize) -> String {
    (0..words)
        .map(|_| rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How big a call is.
#[derive(Clone, Copy, Debug)]
pub enum Size {
    /// A query and a few tags (~150 bytes).
    Small,
    /// Nested documents with labels and a filter (~2 KB).
    Medium,
    /// Long document bodies (~60 KB).
    Large,
}

impl Size {
    /// All sizes, smallest first.
    pub const ALL: [Size; 3] = [Size::Small, Size::Medium, Size::Large];

    /// The name used in benchmark ids.
    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
        }
    }
}

/// One clean call of the given size (seeded by `seed`).
pub fn clean(size: Size, seed: u64) -> Value {
    let mut rng = Lcg(seed ^ 0x9E37_79B9_7F4A_7C15);
    let (docs, body_words, labels) = match size {
        Size::Small => (0, 0, 0),
        Size::Medium => (8, 20, 4),
        Size::Large => (12, 800, 6),
    };
    let documents: Vec<Value> = (0..docs)
        .map(|_| {
            json!({
                "title": sentence(&mut rng, 4),
                "body": sentence(&mut rng, body_words),
                "labels": (0..labels).map(|_| rng.pick(WORDS)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let filter = match size {
        Size::Small => Value::Null,
        _ => json!({"since": "2026-01-01", "authors": ["Ana", "Bo", "Chen"]}),
    };
    json!({
        "query": sentence(&mut rng, 5),
        "tags": (0..3).map(|_| rng.pick(WORDS)).collect::<Vec<_>>(),
        "limit": 10,
        "filter": filter,
        "documents": documents,
    })
}

fn escape_twice(text: &str) -> String {
    let once = text.replace('&', "&amp;");
    let twice = once.replace('&', "&amp;");
    twice.replace('"', "&amp;quot;")
}

/// The same call as models damage it: `tags` and `filter` stringified,
/// every document's labels stringified, titles and the query escaped twice.
pub fn damaged(size: Size, seed: u64) -> Value {
    let mut call = clean(size, seed);
    let map = call.as_object_mut().expect("an object");
    let query = map["query"].as_str().unwrap().to_owned() + " & \"more\"";
    map["query"] = Value::String(escape_twice(&query));
    map["tags"] = Value::String(map["tags"].to_string());
    if !map["filter"].is_null() {
        map["filter"] = Value::String(map["filter"].to_string());
    }
    for doc in map["documents"].as_array_mut().unwrap() {
        let doc = doc.as_object_mut().unwrap();
        let title = doc["title"].as_str().unwrap().to_owned() + " & co";
        doc["title"] = Value::String(escape_twice(&title));
        doc["labels"] = Value::String(doc["labels"].to_string());
    }
    call
}

/// Text for the decoder benchmarks: no `&` at all, prose whose `&`s start
/// no reference (`AT&T` about one word in twenty, the corpus's own text),
/// one reference every ~200 bytes, and one every few bytes.
pub fn decoder_texts() -> [(&'static str, String); 4] {
    let mut rng = Lcg(7);
    let prose = sentence(&mut rng, 2000);
    let plain = prose.replace('&', "and");
    let sparse = plain
        .split(' ')
        .enumerate()
        .map(|(i, w)| {
            if i % 30 == 0 {
                format!("{w} &amp;")
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let dense = plain
        .split(' ')
        .map(|w| format!("&lt;{w}&gt;&#x27;"))
        .collect::<Vec<_>>()
        .join("&nbsp;");
    [
        ("plain", plain),
        ("prose", prose),
        ("sparse", sparse),
        ("dense", dense),
    ]
}

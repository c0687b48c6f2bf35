//! Allocation accounting with a counting global allocator: normalizing clean
//! arguments allocates nothing, and each repair costs a small, bounded number
//! of allocations. What the plan adds to a walk stays off the heap too:
//! `patternProperties` keys matched by the validator's engine (after the
//! first call on a thread has sized the engine's per-thread buffers), and
//! verbatim locations looked up through `$ref` and unions.
//!
//! Everything runs in one `#[test]` so no other test thread allocates while
//! the counter is read.

use serde_json::{Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use toolargs::{Normalizer, plan::VERBATIM_KEYWORD};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to `System`; counting does not
// touch the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

/// The schema schemars emits for a realistic search tool: a closed struct
/// with strings, a vector, an optional nested struct (`anyOf` with `$ref`),
/// a map and an enum.
fn search_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "SearchArgs",
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 0},
            "filter": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]},
            "weights": {"type": "object", "additionalProperties": {"type": "number"}},
            "order": {"$ref": "#/$defs/Order"}
        },
        "required": ["query", "tags", "order"],
        "additionalProperties": false,
        "$defs": {
            "Filter": {
                "type": "object",
                "properties": {
                    "since": {"type": "string"},
                    "authors": {"type": "array", "items": {"type": "string"}}
                },
                "additionalProperties": false
            },
            "Order": {"type": "string", "enum": ["relevance", "date"]}
        }
    })
}

#[test]
fn allocation_accounting() {
    clean_pattern_members_allocate_nothing();
    clean_verbatim_members_allocate_nothing();
    let normalizer = Normalizer::compile(&search_schema()).unwrap();
    let mut clean = json!({
        "query": "rust AT&T json schema",
        "tags": ["rust", "serde", "a & b"],
        "limit": 10,
        "filter": {"since": "2026-01-01", "authors": ["Ana", "Bo"]},
        "weights": {"title": 2.0, "body": 1.0},
        "order": "date"
    });
    let expected = clean.clone();
    let n = allocations_during(|| {
        let report = normalizer.normalize(&mut clean).unwrap();
        assert!(report.is_clean());
        std::mem::forget(report); // a clean report owns no heap memory
    });
    assert_eq!(clean, expected);
    assert_eq!(n, 0, "normalizing clean arguments allocated {n} times");

    // A lone two-pass entity repair: one string per changing pass, the
    // pointer, the report's vector.
    let mut one = json!({"query": "Ember &amp;amp; Oak", "tags": [], "order": "date"});
    let n = allocations_during(|| {
        let report = normalizer.normalize(&mut one).unwrap();
        assert_eq!(report.len(), 1);
    });
    eprintln!("one reference repair: {n} allocations");
    assert!(n <= 4, "one two-pass reference repair took {n} allocations");

    // Many repairs: two allocations each (decoded text, pointer), plus the
    // report vector's growth.
    let tags: Vec<String> = (0..100).map(|i| format!("t&amp;{i}")).collect();
    let mut many = json!({"query": "q", "tags": tags, "order": "date"});
    let n = allocations_during(|| {
        let report = normalizer.normalize(&mut many).unwrap();
        assert_eq!(report.len(), 100);
    });
    eprintln!("100 reference repairs: {n} allocations");
    assert!(
        n <= 100 * 2 + 16,
        "100 reference repairs took {n} allocations"
    );

    // A stringified array: parsing it allocates its elements.
    let mut decoded = json!({"query": "q", "tags": "[\"a\",\"b\"]", "order": "date"});
    let n = allocations_during(|| {
        normalizer.normalize(&mut decoded).unwrap();
    });
    eprintln!("decoding a two-element array: {n} allocations");
    assert!(n <= 6, "decoding a two-element array took {n} allocations");
}

fn clean_verbatim_members_allocate_nothing() {
    let normalizer = Normalizer::compile(&json!({
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "content": {"anyOf": [{"$ref": "#/$defs/Html"}, {"type": "null"}]},
            "parts": {"type": "array", "items": {"$ref": "#/$defs/Html"}}
        },
        "$defs": {"Html": {"type": "string", VERBATIM_KEYWORD: true}}
    }))
    .unwrap();
    // Verbatim strings may hold references: they are left alone, which
    // costs nothing either.
    let mut args = json!({
        "path": "notes/index.html",
        "content": "&lt;p&gt;Tom &amp; Jerry&lt;/p&gt;",
        "parts": ["&lt;br&gt;", "plain"]
    });
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for _ in 0..100 {
        let report = normalizer.normalize(&mut args).unwrap();
        assert!(report.repairs.is_empty());
    }
    let allocations = ALLOCATIONS.load(Ordering::SeqCst) - before;
    assert_eq!(allocations, 0, "clean verbatim members allocated");
}

fn clean_pattern_members_allocate_nothing() {
    let normalizer = Normalizer::compile(&json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "patternProperties": {
            r"^\d+$": {"type": "array", "items": {"type": "string"}},
            "^(?!x-)[a-z_]+$": {"type": "integer"},
            "^x-": {"type": "string"}
        },
        "additionalProperties": {"type": "boolean"}
    }))
    .unwrap();
    let mut args = json!({
        "name": "plain",
        "3": ["a", "b"],
        "\u{663}": true,
        "count_of_things": 4,
        "x-trace-identifier": "abc",
        "UPPER": false
    });
    // Warm-up: sizes the per-thread buffers the matcher lends names through.
    normalizer.normalize(&mut args).unwrap();
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for _ in 0..100 {
        let report = normalizer.normalize(&mut args).unwrap();
        assert!(report.repairs.is_empty());
    }
    let allocations = ALLOCATIONS.load(Ordering::SeqCst) - before;
    assert_eq!(allocations, 0, "clean pattern members allocated");
}

//! What the plan adds to a walk keeps the clean path free of allocations:
//! `patternProperties` keys matched by the validator's engine (after the
//! first call on a thread has sized the engine's per-thread buffers), and
//! verbatim locations (`x-toolargs-verbatim`) looked up through `$ref` and
//! unions. Everything runs in one test so no other test thread allocates
//! while the counter is read.

use serde_json::json;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use toolargs_core::{Normalizer, VERBATIM_KEYWORD};

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

#[test]
fn clean_arguments_allocate_nothing() {
    clean_pattern_members_allocate_nothing();
    clean_verbatim_members_allocate_nothing();
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

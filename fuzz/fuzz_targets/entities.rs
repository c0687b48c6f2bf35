//! The reference decoder: `decode_until_stable` is exactly `decode_once`
//! repeated until a pass returns `Cow::Borrowed`, a bound of k passes is the
//! first k of them, a pass borrows iff it changes nothing, and each changing
//! pass shortens the text by at least one character (why the unbounded loop
//! ends).
//!
//! Input: byte 0 picks the mode and byte 1 the pass bound; the rest is the
//! text (lossily made UTF-8, so every input is used).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::borrow::Cow;
use toolargs::entities::EntityMode;
use toolargs::entities::{decode_once, decode_until_stable};

fuzz_target!(|data: &[u8]| {
    let [flags, bound, rest @ ..] = data else {
        return;
    };
    let mode = if flags & 1 == 0 {
        EntityMode::Attribute
    } else {
        EntityMode::Text
    };
    let text = String::from_utf8_lossy(rest);
    let text: &str = &text;

    // The reference loop: every pass, until one borrows.
    let mut passes: Vec<String> = Vec::new();
    let mut current = text.to_owned();
    loop {
        match decode_once(&current, mode) {
            Cow::Borrowed(same) => {
                assert_eq!(same, current, "a borrowed pass is not its input");
                break;
            }
            Cow::Owned(next) => {
                assert_ne!(next, current, "an owned pass changed nothing");
                assert!(
                    next.chars().count() < current.chars().count(),
                    "a changing pass did not shorten {current:?} (gave {next:?})"
                );
                passes.push(next.clone());
                current = next;
            }
        }
    }
    let n = u32::try_from(passes.len()).expect("fewer passes than characters");

    // Unbounded: the whole loop.
    let full = decode_until_stable(text, mode, u32::MAX);
    assert_eq!(full.passes, n);
    assert_eq!(full.text, current.as_str());
    assert!(!full.bound_reached);
    assert_eq!(matches!(full.text, Cow::Borrowed(_)), n == 0);
    assert_eq!(full.changed(), n > 0);

    // Bounded by k: the first k passes; the bound is reported reached when
    // it stopped a loop that had started and would have gone on.
    let k = u32::from(*bound % 12);
    let bounded = decode_until_stable(text, mode, k);
    let expect_passes = n.min(k);
    assert_eq!(bounded.passes, expect_passes);
    let expect_text = match expect_passes {
        0 => text,
        p => passes[p as usize - 1].as_str(),
    };
    assert_eq!(bounded.text, expect_text);
    assert_eq!(matches!(bounded.text, Cow::Borrowed(_)), expect_passes == 0);
    assert_eq!(
        bounded.bound_reached,
        k > 0 && n > k,
        "bound_reached for k={k}, n={n}"
    );
});

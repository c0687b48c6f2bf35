//! HTML character references: one decoding pass, and the bounded
//! repeat-until-stable loop RT-TOOL-8 asks for.
//!
//! The table and the tokenizer rules come from `htmlize`, which follows the
//! HTML Standard (2,231 names, numeric references through the windows-1252
//! table) and passes every html5lib case in both modes. What lives here is
//! ours: the choice of mode, the pass bound, the guarantee that text with
//! nothing to decode is handed back borrowed, without allocating, and the
//! pre-filter ([`has_reference_candidate`]) that keeps prose full of `AT&T`,
//! `R&D` and `a & b` away from the tokenizer.

use std::borrow::Cow;
use std::sync::LazyLock;

/// Which of the HTML Standard's two rules applies to a legacy named reference
/// written without its `;`.
///
/// The difference matters for URLs: in [`EntityMode::Attribute`] the query
/// string `?a=1&region=us&copy=2` survives, because `&reg` and `&copy` are
/// followed by an ASCII alphanumeric or `=`. [`EntityMode::Text`] decodes them
/// (`&region` becomes `®ion`), as an HTML text node or Python's
/// `html.unescape` would.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum EntityMode {
    /// The attribute-value rule (the default).
    #[default]
    Attribute,
    /// The text (data state) rule.
    Text,
}

impl EntityMode {
    fn context(self) -> htmlize::Context {
        match self {
            EntityMode::Attribute => htmlize::Context::Attribute,
            EntityMode::Text => htmlize::Context::General,
        }
    }

    /// The mode's name as the command-line options spell it (`attribute`, `text`).
    pub fn as_str(self) -> &'static str {
        match self {
            EntityMode::Attribute => "attribute",
            EntityMode::Text => "text",
        }
    }
}

impl std::str::FromStr for EntityMode {
    type Err = UnknownEntityMode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "attribute" => Ok(EntityMode::Attribute),
            "text" => Ok(EntityMode::Text),
            other => Err(UnknownEntityMode(other.to_owned())),
        }
    }
}

/// A mode name other than `attribute` or `text`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown entity mode `{0}`: expected `attribute` or `text`")]
pub struct UnknownEntityMode(pub String);

/// The first two bytes after `&` of every named reference in htmlize's
/// table, as one bit per pair: a `&` whose next two bytes form no such pair
/// cannot start a named reference in either mode, whatever follows.
///
/// Two bytes is where prose parts from the table: `&T` and `&D` begin names
/// (`&THORN;`, `&Dagger;`), so a one-byte test would pass `AT&T` and `R&D` on
/// to the tokenizer, but no name is one letter long, so `&T` followed by a
/// space, a quote or the end of the text is rejected here.
struct NameStarts {
    /// For each ASCII first byte, the set of ASCII second bytes (bit
    /// `b % 64` of word `b / 64`: two words test cheaper than one `u128`).
    second: [[u64; 2]; 128],
    /// The table holds a name the pairs cannot describe (one byte long, or
    /// not ASCII). The HTML Standard's has none; should a table ever have
    /// one, every `&` becomes a candidate instead of a name being missed.
    unsure: bool,
    /// What finds each `&`.
    amps: Amps,
}

impl NameStarts {
    fn from_table() -> Self {
        let mut starts = NameStarts {
            second: [[0; 2]; 128],
            unsure: false,
            amps: Amps::new(),
        };
        for key in htmlize::ENTITIES.keys() {
            // Keys are spelled with their `&` (`b"&amp;"`, `b"&amp"`).
            match **key {
                [b'&', first, second, ..] if first < 128 && second < 128 => {
                    starts.second[usize::from(first)][usize::from(second / 64)] |=
                        1 << (second % 64);
                }
                _ => starts.unsure = true,
            }
        }
        starts
    }

    fn admits(&self, after_amp: &[u8]) -> bool {
        match *after_amp {
            [first, second, ..] if first < 128 && second < 128 => {
                let word = self.second[usize::from(first)][usize::from(second / 64)];
                self.unsure || word & (1 << (second % 64)) != 0
            }
            _ => self.unsure,
        }
    }
}

static NAME_STARTS: LazyLock<NameStarts> = LazyLock::new(NameStarts::from_table);

/// Finds the next `&`: with `memchr`'s AVX2 searcher, chosen once, where
/// the processor has AVX2, else with `memchr::memchr`, which chooses its
/// searcher on every call. Prose with a `&` every hundred bytes restarts
/// the search at each one, and that choice was a fifth of the whole search
/// (callgrind: 57,700 instructions for 62 KB with 491 `&`, 45,900 with the
/// searcher held).
#[derive(Clone, Copy)]
struct Amps {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::One>,
}

impl Amps {
    fn new() -> Self {
        Amps {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::One::new(b'&'),
        }
    }

    #[inline(always)]
    fn find(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = &self.avx2 {
            return avx2.find(bytes);
        }
        memchr::memchr(b'&', bytes)
    }
}

/// Whether a `&` followed by `after_amp` could start a character reference
/// that htmlize decodes, in either [`EntityMode`] ([`has_reference_candidate`]
/// for one `&`): what the tests hold the searching filter to.
#[cfg(test)]
fn may_start_reference(after_amp: &[u8]) -> bool {
    may_start_reference_with(&NAME_STARTS, after_amp)
}

fn may_start_reference_with(starts: &NameStarts, after_amp: &[u8]) -> bool {
    match after_amp {
        [b'#', b'x' | b'X', digit, ..] => digit.is_ascii_hexdigit(),
        [b'#', digit, ..] => digit.is_ascii_digit(),
        _ => starts.admits(after_amp),
    }
}

/// Whether any `&` in `bytes` could start a character reference that
/// htmlize decodes, in either [`EntityMode`]; `false` means decoding `bytes`
/// in either mode changes nothing.
///
/// `false` is certain: no reference starts at any `&`, in either mode, so
/// the text can be left alone without running the tokenizer. `true` only
/// means "maybe" (`&Tab` passes, `&Tabc;` then fails the table lookup). A
/// numeric reference needs a digit after `&#` (a hex digit after `&#x`); a
/// named one, two bytes that begin a name in htmlize's table. Whichever
/// mode's rule applies, a decoded name is spelled out in full right after
/// the `&`, so one filter serves both modes.
#[inline]
pub fn has_reference_candidate(bytes: &[u8]) -> bool {
    // Most strings hold no `&` at all. A short one is tested whole, inlined
    // into the caller, which costs less than the vector search's setup; a
    // longer one is searched by the searcher the table holds.
    if bytes.len() <= SHORT_TEXT && !crate::byte_scan::holds_any(bytes, |b| b == b'&') {
        return false;
    }
    candidate_in(bytes)
}

/// Whether no part of `bytes` has a reference candidate: `true` means
/// [`has_reference_candidate`] is `false` for every slice of `bytes`, so a
/// text searched once vouches for each string cut from it.
///
/// A slice sees less after each `&` than the whole does, and a shorter
/// view never turns a "no" into a "maybe": the two bytes after `&` either
/// lie in the slice and are the same, or fall past its end, where the test
/// says "no" (`&#` then stops being numeric, a name needs two bytes). Only
/// a table with a name the pairs cannot describe breaks that (there a `&`
/// at a slice's end is a candidate), and then nothing is vouched for.
pub(crate) fn no_candidate_in_any_part(bytes: &[u8]) -> bool {
    !NAME_STARTS.unsure && !has_reference_candidate(bytes)
}

/// Texts up to this long are tested for a `&` by comparing every byte.
const SHORT_TEXT: usize = 64;

/// [`has_reference_candidate`] past the short-text test.
fn candidate_in(bytes: &[u8]) -> bool {
    let starts = &*NAME_STARTS;
    let Some(mut at) = starts.amps.find(bytes) else {
        return false;
    };
    loop {
        let after = &bytes[at + 1..];
        if may_start_reference_with(starts, after) {
            return true;
        }
        match starts.amps.find(after) {
            Some(next) => at += 1 + next,
            None => return false,
        }
    }
}

/// Decodes every character reference in `text` once, as the HTML tokenizer
/// would in `mode`.
///
/// A reference produced by decoding is not decoded again (`&amp;lt;` becomes
/// `&lt;`); that is what [`decode_until_stable`] is for. Text with no `&`, or
/// whose every `&` fails the pre-filter ([`has_reference_candidate`]), comes back as
/// `Cow::Borrowed` without reaching htmlize, so prose full of `AT&T` costs
/// one search per `&` and one bit test.
/// Text with a candidate goes to htmlize whole: it decodes into one buffer,
/// and handing it only the tail from the candidate on would cost a second
/// allocation to join the head back.
pub fn decode_once(text: &str, mode: EntityMode) -> Cow<'_, str> {
    if !has_reference_candidate(text.as_bytes()) {
        return Cow::Borrowed(text);
    }
    htmlize::unescape_in(text, mode.context())
}

/// What the repeat-until-stable loop did to one string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The decoded text; borrowed when no pass changed anything.
    pub text: Cow<'a, str>,
    /// How many passes changed the text (0 when nothing was decoded).
    pub passes: u32,
    /// The loop stopped because it reached the pass bound while the text still
    /// held a reference a further pass would decode.
    pub bound_reached: bool,
}

impl Decoded<'_> {
    /// Whether any pass changed the text.
    pub fn changed(&self) -> bool {
        self.passes > 0
    }
}

/// Decodes character references pass after pass until a pass changes nothing
/// or `max_passes` passes have changed the text.
///
/// Every pass that changes the text shortens it by at least one character
/// (the shortest reference, `&lt`, has three), so the loop ends even with
/// `max_passes = u32::MAX`; the bound exists to cap the cost on hostile input
/// at `max_passes` times the length of the text.
pub fn decode_until_stable(text: &str, mode: EntityMode, max_passes: u32) -> Decoded<'_> {
    let mut passes = 0;
    let mut current: Cow<'_, str> = Cow::Borrowed(text);
    while passes < max_passes {
        match decode_once(&current, mode) {
            Cow::Borrowed(_) => {
                return Decoded {
                    text: current,
                    passes,
                    bound_reached: false,
                };
            }
            Cow::Owned(next) => {
                current = Cow::Owned(next);
                passes += 1;
            }
        }
    }
    let bound_reached = passes > 0 && matches!(decode_once(&current, mode), Cow::Owned(_));
    Decoded {
        text: current,
        passes,
        bound_reached,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MODES: [EntityMode; 2] = [EntityMode::Attribute, EntityMode::Text];

    /// Short texts are compared whole, longer ones searched: both agree
    /// with a plain scan for every length around the switch and every
    /// place of a `&` that starts a reference, and one that does not.
    #[test]
    fn finds_a_candidate_in_short_and_long_texts() {
        let plain = |bytes: &[u8]| {
            (0..bytes.len()).any(|i| bytes[i] == b'&' && may_start_reference(&bytes[i + 1..]))
        };
        for len in [0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 66, 100] {
            for at in 0..=len {
                for amp in [&b"&amp;"[..], b"& ", b"&"] {
                    let mut bytes: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    for (k, &b) in amp.iter().enumerate() {
                        if at + k < len {
                            bytes[at + k] = b;
                        }
                    }
                    assert_eq!(
                        has_reference_candidate(&bytes),
                        plain(&bytes),
                        "len {len} at {at} {amp:?}"
                    );
                }
            }
        }
    }

    /// A text without a candidate has none in any slice either, around
    /// every kind of `&` and the slice's ends.
    #[test]
    fn a_text_without_a_candidate_vouches_for_its_slices() {
        let pieces = [
            "&", "&#", "&#x", "&#x1", "&#1", "&a", "&am", "&amp", "&T", "&Ta", "a", "#", "x", "1",
            " ", ";",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = [a, b, c].concat();
                    let bytes = text.as_bytes();
                    if !no_candidate_in_any_part(bytes) {
                        continue;
                    }
                    for start in 0..=bytes.len() {
                        for end in start..=bytes.len() {
                            assert!(
                                !has_reference_candidate(&bytes[start..end]),
                                "{text:?}[{start}..{end}]"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Decoding with the pre-filter must agree with htmlize without it, in
    /// both modes; a `&` the filter wrongly rejected would show up here as
    /// text left undecoded.
    fn assert_agrees(text: &str) {
        for mode in MODES {
            assert_eq!(
                decode_once(text, mode),
                htmlize::unescape_in(text, mode.context()),
                "{text:?} in {mode:?} mode"
            );
        }
    }

    /// Every name of the table, each prefix of it (so `&am`, `&amp`,
    /// `&amp;`), and the name without its `;`.
    fn names_and_prefixes() -> Vec<String> {
        let mut out = Vec::new();
        for key in htmlize::ENTITIES.keys() {
            let key = std::str::from_utf8(key).expect("the table is ASCII");
            for end in 1..=key.len() {
                out.push(key[..end].to_owned());
            }
        }
        out.sort();
        out.dedup();
        out
    }

    #[test]
    fn the_filter_admits_every_name_in_the_table() {
        for key in htmlize::ENTITIES.keys() {
            assert!(may_start_reference(&key[1..]), "{key:?}");
        }
        assert!(
            !NAME_STARTS.unsure,
            "a name the two-byte pairs cannot describe"
        );
    }

    #[test]
    fn every_name_followed_by_every_ascii_byte_decodes_as_htmlize_does() {
        let mut nexts: Vec<String> = (0u8..128).map(|b| char::from(b).to_string()).collect();
        nexts.extend(["".to_owned(), "é".to_owned(), "\u{2028}".to_owned()]);
        for key in htmlize::ENTITIES.keys() {
            let key = std::str::from_utf8(key).expect("the table is ASCII");
            let bare = key.strip_suffix(';').unwrap_or(key);
            for next in &nexts {
                assert_agrees(&format!("{key}{next}"));
                assert_agrees(&format!("x{bare}{next}"));
            }
        }
    }

    #[test]
    fn every_prefix_of_every_name_decodes_as_htmlize_does() {
        let nexts = [
            "", " ", ";", "=", "a", "Z", "0", "&", "#", "\"", "é", "&amp;",
        ];
        for prefix in names_and_prefixes() {
            for next in nexts {
                assert_agrees(&format!("{prefix}{next}"));
                assert_agrees(&format!("AT{prefix}{next} tail"));
            }
        }
    }

    #[test]
    fn every_short_numeric_form_decodes_as_htmlize_does() {
        let bytes: Vec<char> = (0u8..128).map(char::from).chain(['é']).collect();
        for &a in &bytes {
            assert_agrees(&format!("&#{a}"));
            for &b in &bytes {
                assert_agrees(&format!("&#{a}{b}"));
            }
        }
    }

    #[test]
    fn prose_ampersands_never_reach_the_table() {
        for text in [
            "AT&T",
            "R&D",
            "a & b",
            "Q&A",
            "AT&T's",
            "AT&T, R&D and Q&A",
            "&",
            "&#",
            "&#;",
            "&#x;",
            "&#xg",
            "&T",
            "&é",
            "x&\"y\"",
        ] {
            assert!(!has_reference_candidate(text.as_bytes()), "{text}");
        }
        for text in [
            "&lt",
            "a &amp; b",
            "&#1",
            "&#x1",
            "&#Xa",
            "AT&Tab",
            "AT&T &gt;",
        ] {
            assert!(has_reference_candidate(text.as_bytes()), "{text}");
        }
    }

    /// Pieces that make the tokenizer's decisions interesting: names and
    /// their prefixes, `#`, `x`, digits, `;`, `=`, letters and non-ASCII.
    fn pieces() -> Vec<String> {
        let mut pieces: Vec<String> = [
            "&", "#", "x", "X", "0", "9", "f", ";", "=", " ", "T", "a", "é", "\"", "AT&T",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect();
        pieces.extend(names_and_prefixes());
        pieces
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn generated_text_decodes_as_htmlize_does(
            parts in prop::collection::vec(prop::sample::select(pieces()), 0..24)
        ) {
            let text = parts.concat();
            for mode in MODES {
                prop_assert_eq!(
                    decode_once(&text, mode),
                    htmlize::unescape_in(text.as_str(), mode.context())
                );
            }
        }
    }

    #[test]
    fn nothing_to_decode_is_borrowed() {
        for text in ["", "plain", "AT&T", "a & b", "&unknownname;", "&#;"] {
            assert!(
                matches!(decode_once(text, EntityMode::Attribute), Cow::Borrowed(_)),
                "{text}"
            );
            let d = decode_until_stable(text, EntityMode::Text, 8);
            assert!(matches!(d.text, Cow::Borrowed(_)), "{text}");
            assert_eq!(d.passes, 0);
        }
    }

    #[test]
    fn repeats_until_stable() {
        let d = decode_until_stable("Ember &amp;amp; Oak", EntityMode::Attribute, 8);
        assert_eq!(d.text, "Ember & Oak");
        assert_eq!(d.passes, 2);
        assert!(!d.bound_reached);
    }

    #[test]
    fn stops_at_the_bound() {
        let d = decode_until_stable("&amp;amp;amp;lt;", EntityMode::Attribute, 2);
        assert_eq!(d.text, "&amp;lt;");
        assert_eq!(d.passes, 2);
        assert!(d.bound_reached);

        let d = decode_until_stable("&amp;lt;", EntityMode::Attribute, 2);
        assert_eq!(d.text, "<");
        assert!(!d.bound_reached);

        let d = decode_until_stable("&lt;", EntityMode::Attribute, 0);
        assert_eq!(d.text, "&lt;");
        assert_eq!(d.passes, 0);
        assert!(!d.bound_reached);
    }

    #[test]
    fn modes_differ_on_legacy_names_before_alphanumerics() {
        assert_eq!(
            decode_once("?a=1&region=us", EntityMode::Attribute),
            "?a=1&region=us"
        );
        assert_eq!(
            decode_once("?a=1&region=us", EntityMode::Text),
            "?a=1®ion=us"
        );
        assert_eq!("text".parse::<EntityMode>(), Ok(EntityMode::Text));
        assert!("html".parse::<EntityMode>().is_err());
    }
}

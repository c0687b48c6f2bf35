//! HTML character references: one decoding pass, and the bounded
//! repeat-until-stable loop RT-TOOL-8 asks for.
//!
//! The table and the tokenizer rules come from `htmlize`, which follows the
//! HTML Standard (2,231 names, numeric references through the windows-1252
//! table) and passes every html5lib case in both modes. What lives here is
//! ours: the choice of mode, the pass bound, and the guarantee that text with
//! nothing to decode is handed back borrowed, without allocating.

use std::borrow::Cow;

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

/// Decodes every character reference in `text` once, as the HTML tokenizer
/// would in `mode`.
///
/// A reference produced by decoding is not decoded again (`&amp;lt;` becomes
/// `&lt;`); that is what [`decode_until_stable`] is for. Text with no `&`, or
/// with no `&` that starts a reference, comes back as `Cow::Borrowed`.
pub fn decode_once(text: &str, mode: EntityMode) -> Cow<'_, str> {
    if memchr::memchr(b'&', text.as_bytes()).is_none() {
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

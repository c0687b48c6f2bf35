//! The soundness rule of an early rejection, shared by the stream
//! properties, the toolbox's stream tests and the generated contract's
//! judge.

use std::fmt::Debug;
use toolargs::rejection::Rejection;
use toolargs::{ArgsError, normalizer::NormalizeError, tool_args::Parsed};

/// Whether `early`, known before the text was complete, is one the whole
/// text also gets: the same syntax error, one of its violations, or an
/// earlier phase failing on the whole text; a size limit counted on the
/// text so far (as the module docs of `toolargs::stream` allow).
#[allow(dead_code)] // the toolbox's stream tests use the toolbox's rule only
pub fn early_is_sound<T: Debug>(
    early: &ArgsError,
    whole: &Result<Parsed<T>, ArgsError>,
) -> Result<(), String> {
    let whole = match whole {
        Ok(_) => {
            return Err(format!(
                "rejected early ({early}) but the whole text is accepted"
            ));
        }
        Err(whole) => whole,
    };
    match (early, whole) {
        (ArgsError::Invalid(one), ArgsError::Invalid(all))
            if one.0.len() == 1 && all.0.contains(&one.0[0]) =>
        {
            Ok(())
        }
        (ArgsError::Invalid(_), ArgsError::Syntax(_) | ArgsError::Limit(_))
        | (ArgsError::Syntax(_), ArgsError::Limit(_)) => Ok(()),
        // An early `TooLarge` names the bytes received when the limit was
        // crossed; the whole text may hold more.
        (
            ArgsError::Limit(NormalizeError::TooLarge { bytes, limit }),
            ArgsError::Limit(NormalizeError::TooLarge {
                bytes: all,
                limit: same,
            }),
        ) if limit == same && bytes <= all => Ok(()),
        (early, whole) if early == whole => Ok(()),
        (early, whole) => Err(format!("early {early:?}, whole {whole:?}")),
    }
}

/// [`early_is_sound`] in a toolbox's words: `early`, known before the
/// arguments were complete, is one [`Toolbox::check`] gets on the whole
/// call (`whole`, `None` where it is accepted): one of its violations, for
/// the same tool; the same rejection; or an unknown tool or invalid
/// argument where the whole text is not even JSON (the whole call reports
/// its first failing phase, and parsing comes first).
///
/// [`Toolbox::check`]: toolargs::toolbox::Toolbox::check
#[allow(dead_code)] // not every test that includes this module streams to a toolbox
pub fn early_rejection_is_sound(
    early: &Rejection,
    whole: Option<&Rejection>,
) -> Result<(), String> {
    let Some(whole) = whole else {
        return Err(format!(
            "rejected early ({early}) but the whole call is accepted"
        ));
    };
    match (early, whole) {
        (Rejection::InvalidArguments(one), Rejection::InvalidArguments(all))
            if one.tool == all.tool
                && one.violations.len() == 1
                && all.violations.contains(&one.violations[0]) =>
        {
            Ok(())
        }
        (Rejection::InvalidArguments(_) | Rejection::UnknownTool(_), Rejection::Syntax(_)) => {
            Ok(())
        }
        (early, whole) if early == whole => Ok(()),
        (early, whole) => Err(format!("early {early:?}, whole {whole:?}")),
    }
}

/// Whether some object in the text repeats a key, up to where the text
/// stops being JSON (keys seen before a syntax error count: a stream saw
/// them). An early rejection is only "unless repeated" where one does.
#[allow(
    dead_code,
    reason = "the stream properties and the fuzz target read it, not every includer"
)]
pub fn has_repeated_keys(text: &str) -> bool {
    struct Probe(bool);
    impl<'de> serde::de::Visitor<'de> for &mut Probe {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("json")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut seen = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !seen.insert(key) {
                    self.0 = true;
                }
                map.next_value_seed(&mut *self)?;
            }
            Ok(())
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(&mut *self)?.is_some() {}
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }
    }
    impl<'de> serde::de::DeserializeSeed<'de> for &mut Probe {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    let mut probe = Probe(false);
    let mut de = serde_json::Deserializer::from_str(text);
    let _ = serde::de::DeserializeSeed::deserialize(&mut probe, &mut de);
    probe.0
}

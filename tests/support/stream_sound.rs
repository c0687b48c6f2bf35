//! The soundness rule of an early rejection, shared by the stream
//! properties, the toolbox's stream tests and the generated contract's
//! judge.

use std::fmt::Debug;
use toolargs::rejection::Rejection;
use toolargs::{ArgsError, NormalizeError, Parsed};

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

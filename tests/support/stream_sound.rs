//! The soundness rule of an early rejection, shared by the stream
//! properties and the generated contract's judge.

use std::fmt::Debug;
use toolargs::{ArgsError, Parsed};

/// Whether `early`, known before the text was complete, is one the whole
/// text also gets: the same syntax error, one of its violations, or an
/// earlier phase failing on the whole text (as the module docs of
/// `toolargs::stream` allow).
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
        (early, whole) if early == whole => Ok(()),
        (early, whole) => Err(format!("early {early:?}, whole {whole:?}")),
    }
}

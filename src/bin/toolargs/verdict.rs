//! One verdict line of `toolargs check`, and how a checked call becomes
//! one: shared by the line mode (`check`) and the stream mode
//! (`stream_check`), so both write a call's verdict alike.

use crate::lines::Tally;
use serde::Serialize;
use toolargs::rejection::{CallError, Rejection};
use toolargs::report::Repair;
use toolargs::toolbox::Checked;

/// One verdict line.
#[derive(Serialize, Default)]
pub(crate) struct Verdict<'a> {
    /// The input file, when several were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) file: Option<&'a str>,
    pub(crate) line: usize,
    /// Pointer to the call in the line's envelope.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) entry: Option<&'a str>,
    /// The alternative (`choices` / `candidates` index) the call belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) choice: Option<usize>,
    /// With `--stream`: the provider's key for the call in its response.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) index: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tool: Option<&'a str>,
    /// Set only for a line that is a streaming chunk or event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) chunk: Option<bool>,
    /// Set (to 0) only for a line (or, with `--stream`, a stream) that holds
    /// no call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) calls: Option<usize>,
    pub(crate) ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) repairs: Option<&'a [Repair]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<&'a Rejection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    /// For the person running the check, not the model: how to read a line
    /// that belongs to a stream.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<&'static str>,
}

/// Writes the verdict of a checked call, and counts it.
pub(crate) fn outcome(
    at: Verdict<'_>,
    number: usize,
    result: Result<Checked<'_>, CallError>,
    ending: &[u8],
    out: &mut Vec<u8>,
    tally: &mut Tally,
) {
    tally.calls += 1;
    match result {
        Ok(checked) => {
            let repairs = &checked.report().repairs;
            tally.repaired += u64::from(!repairs.is_empty());
            let verdict = Verdict {
                line: number,
                ok: true,
                repairs: Some(repairs),
                ..at
            };
            write(&verdict, ending, out);
        }
        Err(CallError::Rejected(rejection)) => {
            tally.rejected += 1;
            rejected(at, number, &rejection, ending, out);
        }
        // No policy is installed, so nothing is held for approval and no
        // body runs; should that change, the call did not pass.
        Err(other) => {
            tally.rejected += 1;
            let verdict = Verdict {
                line: number,
                message: Some(other.model_message()),
                ..at
            };
            write(&verdict, ending, out);
        }
    }
}

/// Writes a rejected verdict at line `number`.
pub(crate) fn rejected(
    at: Verdict<'_>,
    number: usize,
    rejection: &Rejection,
    ending: &[u8],
    out: &mut Vec<u8>,
) {
    let verdict = Verdict {
        line: number,
        ok: false,
        error: Some(rejection),
        message: Some(rejection.model_message()),
        ..at
    };
    write(&verdict, ending, out);
}

pub(crate) fn write(verdict: &Verdict<'_>, ending: &[u8], out: &mut Vec<u8>) {
    // A verdict holds strings, numbers and the library's own serializable
    // types: writing it into memory cannot fail.
    if serde_json::to_writer(&mut *out, verdict).is_err() {
        out.extend_from_slice(b"{\"ok\":false}");
    }
    out.extend_from_slice(ending);
}

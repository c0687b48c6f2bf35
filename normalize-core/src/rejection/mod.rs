//! Why a tool call did not run, as types: each phase of the pipeline that
//! can turn a call away has its own error, with a message for people
//! (`Display`), a structured form (`Serialize`) for logs and services, and a
//! compact [`model_message`](Rejection::model_message) for the repair turn.
//! The structured forms are specified, for programs in other languages, by
//! JSON Schemas in the repository's `docs/schemas/` (`rejection.schema.json`,
//! `call-error.schema.json`).
//!
//! | phase    | rejection            |
//! |----------|----------------------|
//! | parse    | [`SyntaxError`]      |
//! | resolve  | [`UnknownTool`]      |
//! | validate | [`InvalidArguments`] |
//! | policy   | [`Denied`]           |
//!
//! A policy may also hold a call for a person's decision
//! ([`ApprovalRequired`]), and a body that ran may fail on its own terms
//! ([`ToolFailure`]): neither is a rejection of the arguments, so each is a
//! separate outcome of [`CallError`].

mod approval;
mod denied;
mod invalid_arguments;
mod syntax;
mod tool_failure;
mod unknown_tool;

pub use approval::ApprovalRequired;
pub use denied::Denied;
pub use invalid_arguments::InvalidArguments;
pub use syntax::{SyntaxError, SyntaxKind};
pub use tool_failure::ToolFailure;
pub use unknown_tool::UnknownTool;

use serde::Serialize;

/// A call turned away before its body ran, by the phase that found it wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize)]
#[serde(tag = "rejection", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Rejection {
    /// Not JSON, or not a tool call in a known wire format.
    #[error(transparent)]
    Syntax(SyntaxError),
    /// No tool by that name is registered.
    #[error(transparent)]
    UnknownTool(UnknownTool),
    /// The arguments do not inhabit the tool's schema.
    #[error(transparent)]
    InvalidArguments(InvalidArguments),
    /// The policy refused the call.
    #[error(transparent)]
    Denied(Denied),
}

impl Rejection {
    /// What to tell the model so it can correct the call: names the JSON
    /// paths and expected types, never a bare "invalid arguments".
    pub fn model_message(&self) -> String {
        match self {
            Rejection::Syntax(e) => e.model_message(),
            Rejection::UnknownTool(e) => e.model_message(),
            Rejection::InvalidArguments(e) => e.model_message(),
            Rejection::Denied(e) => e.model_message(),
        }
    }
}

/// Every way a call can end without a result: one of the four rejections,
/// a hold for approval, or the tool's own failure.
#[derive(Debug, thiserror::Error, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[non_exhaustive]
pub enum CallError {
    /// Turned away before the body ran.
    #[error(transparent)]
    Rejected(Rejection),
    /// The policy wants a person to approve the call first; nothing ran.
    /// (Boxed: it carries the arguments, and keeps `CallError` small.)
    #[error(transparent)]
    ApprovalRequired(Box<ApprovalRequired>),
    /// The body ran and returned an error.
    #[error(transparent)]
    Failed(ToolFailure),
}

impl CallError {
    /// The compact message for the model (see [`Rejection::model_message`]).
    pub fn model_message(&self) -> String {
        match self {
            CallError::Rejected(r) => r.model_message(),
            CallError::ApprovalRequired(a) => a.model_message(),
            CallError::Failed(f) => f.model_message(),
        }
    }

    /// The rejection, when the call was turned away.
    pub fn rejection(&self) -> Option<&Rejection> {
        match self {
            CallError::Rejected(r) => Some(r),
            _ => None,
        }
    }
}

macro_rules! into_call_error {
    ($($ty:ident),*) => {$(
        impl From<$ty> for Rejection {
            fn from(e: $ty) -> Self {
                Rejection::$ty(e)
            }
        }
        impl From<$ty> for CallError {
            fn from(e: $ty) -> Self {
                CallError::Rejected(Rejection::$ty(e))
            }
        }
    )*};
}
into_call_error!(UnknownTool, InvalidArguments, Denied);

impl From<SyntaxError> for Rejection {
    fn from(e: SyntaxError) -> Self {
        Rejection::Syntax(e)
    }
}

impl From<SyntaxError> for CallError {
    fn from(e: SyntaxError) -> Self {
        CallError::Rejected(Rejection::Syntax(e))
    }
}

impl From<Rejection> for CallError {
    fn from(r: Rejection) -> Self {
        CallError::Rejected(r)
    }
}

impl From<ApprovalRequired> for CallError {
    fn from(a: ApprovalRequired) -> Self {
        CallError::ApprovalRequired(Box::new(a))
    }
}

impl From<ToolFailure> for CallError {
    fn from(f: ToolFailure) -> Self {
        CallError::Failed(f)
    }
}

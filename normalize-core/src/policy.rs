//! The policy phase: may *this caller* make *this call*?
//!
//! A schema says a call is well-formed; it cannot say the caller may act.
//! The application answers that with a [`Policy`]. The toolbox asks it
//! after normalization and validation and before dispatch, so the policy
//! sees exactly the values the body will receive: `&amp;&amp;` reaches a
//! policy as `&&`, never as text that changes meaning afterwards.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::any::Any;

/// What the policy is asked about.
#[derive(Clone, Copy)]
pub struct PolicyRequest<'a, C: ?Sized> {
    /// The application's caller context (user, tenant, session, ...).
    pub context: &'a C,
    /// The tool the call named (registered: resolution already passed).
    pub tool: &'a str,
    /// The arguments after normalization and validation, as JSON.
    pub arguments: &'a Value,
    typed: Option<&'a (dyn Any + Send)>,
}

impl<'a, C: ?Sized> PolicyRequest<'a, C> {
    /// A request; `typed` is the deserialized arguments of a typed tool.
    pub fn new(
        context: &'a C,
        tool: &'a str,
        arguments: &'a Value,
        typed: Option<&'a (dyn Any + Send)>,
    ) -> Self {
        PolicyRequest {
            context,
            tool,
            arguments,
            typed,
        }
    }

    /// The typed arguments, when the tool was registered with type `T`.
    ///
    /// `None` for a dynamic tool or another type.
    pub fn typed<T: 'static>(&self) -> Option<&'a T> {
        self.typed.and_then(|any| any.downcast_ref::<T>())
    }
}

impl<C: ?Sized> std::fmt::Debug for PolicyRequest<'_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolicyRequest")
            .field("tool", &self.tool)
            .field("arguments", &self.arguments)
            .field("typed", &self.typed.is_some())
            .finish_non_exhaustive()
    }
}

/// The policy's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// Run the call.
    Allow,
    /// Refuse it; the reason is shown to the model.
    Deny {
        /// Why, in words the model (and a person reading logs) can act on.
        reason: String,
    },
    /// Hold it for a person; nothing runs until the application approves.
    RequireApproval {
        /// Why approval is needed.
        reason: String,
    },
}

impl Decision {
    /// A denial with `reason`.
    pub fn deny(reason: impl Into<String>) -> Self {
        Decision::Deny {
            reason: reason.into(),
        }
    }

    /// A hold for approval with `reason`.
    pub fn require_approval(reason: impl Into<String>) -> Self {
        Decision::RequireApproval {
            reason: reason.into(),
        }
    }
}

/// The application's rule for who may call what, with which arguments.
///
/// Any `Fn(&PolicyRequest<C>) -> Decision` closure is a policy.
pub trait Policy<C: ?Sized>: Send + Sync {
    /// Decides on one call.
    fn evaluate(&self, request: &PolicyRequest<'_, C>) -> Decision;
}

impl<C: ?Sized, F> Policy<C> for F
where
    F: Fn(&PolicyRequest<'_, C>) -> Decision + Send + Sync,
{
    fn evaluate(&self, request: &PolicyRequest<'_, C>) -> Decision {
        self(request)
    }
}

/// The policy that allows every call (the default).
#[derive(Debug, Clone, Copy, Default)]
pub struct AllowAll;

impl<C: ?Sized> Policy<C> for AllowAll {
    fn evaluate(&self, _request: &PolicyRequest<'_, C>) -> Decision {
        Decision::Allow
    }
}

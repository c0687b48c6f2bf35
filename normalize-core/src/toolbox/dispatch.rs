//! Running a call through the pipeline: parse the arguments, resolve the
//! tool, normalize, validate, ask the policy, dispatch.

use super::Toolbox;
use super::tool::{Tool, Typed};
use crate::call::{Arguments, ToolCall};
use crate::observe::{self, failure_records, repair_records};
use crate::policy::{Decision, PolicyRequest};
use crate::rejection::{
    ApprovalRequired, CallError, Denied, InvalidArguments, SyntaxError, SyntaxKind, ToolFailure,
    UnknownTool,
};
use crate::repeated_keys::Read;
use crate::report::Report;
use crate::validate::Violations;
use serde::Serialize;
use serde_json::Value;

/// A call that passed every check and the policy: ready to run.
pub struct Checked<'t> {
    tool: &'t Tool,
    call_id: Option<String>,
    arguments: Value,
    typed: Option<Typed>,
    report: Report,
}

impl Checked<'_> {
    /// The tool that will run.
    pub fn tool(&self) -> &str {
        &self.tool.name
    }

    /// The arguments the body will receive (normalized, valid).
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// What normalization repaired.
    pub fn report(&self) -> &Report {
        &self.report
    }
}

impl std::fmt::Debug for Checked<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checked")
            .field("tool", &self.tool.name)
            .field("call_id", &self.call_id)
            .field("arguments", &self.arguments)
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

/// A call that ran to completion.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Completed {
    /// The tool that ran.
    pub tool: String,
    /// The call's id in its wire format, if it had one.
    pub call_id: Option<String>,
    /// What the body returned, as JSON.
    pub output: Value,
    /// What normalization repaired before the body ran.
    pub report: Report,
}

impl<C: ?Sized> Toolbox<C> {
    /// Runs every phase before dispatch: parse the arguments, resolve the
    /// tool, normalize, validate, consult the policy.
    ///
    /// # Errors
    ///
    /// A [`CallError`]: one of the four rejections, or
    /// [`CallError::ApprovalRequired`].
    pub fn check(&self, context: &C, call: ToolCall) -> Result<Checked<'_>, CallError> {
        let name = call.name.clone();
        let checked = self.check_inner(context, call);
        if let Err(error) = &checked {
            self.observe_failure(&name, error);
        }
        checked
    }

    fn check_inner(&self, context: &C, call: ToolCall) -> Result<Checked<'_>, CallError> {
        // Parse: arguments sent as JSON text.
        if let Arguments::Text(text) = &call.arguments {
            self.options
                .check_size(text.len())
                .map_err(|e| SyntaxError::limit(SyntaxKind::Arguments, &e))?;
        }
        let (arguments, may_need_repair, read) = call
            .arguments
            .into_value_inspected(self.options.max_depth)?;
        self.check_arguments(
            context,
            call.id,
            &call.name,
            arguments,
            may_need_repair,
            read,
        )
    }

    /// [`Toolbox::check`] on arguments already parsed (by a stream, as the
    /// text arrived), with the facts the scan of their text gives and what
    /// its reading noted ([`Read`]).
    pub(crate) fn check_parsed(
        &self,
        context: &C,
        id: Option<String>,
        name: &str,
        arguments: Value,
        may_need_repair: bool,
        read: Read,
    ) -> Result<Checked<'_>, CallError> {
        let checked = self.check_arguments(context, id, name, arguments, may_need_repair, read);
        if let Err(error) = &checked {
            self.observe_failure(name, error);
        }
        checked
    }

    /// Every phase after parsing.
    fn check_arguments(
        &self,
        context: &C,
        id: Option<String>,
        name: &str,
        mut arguments: Value,
        may_need_repair: bool,
        mut read: Read,
    ) -> Result<Checked<'_>, CallError> {
        // Resolve.
        let tool = self
            .find(name)
            .ok_or_else(|| UnknownTool::new(name, self.names()))?;
        // Normalize (RT-TOOL-8): repairs only, never rejects, but stops at
        // the depth bound.
        // Text whose scan proved no repair can apply is not walked.
        let report = if may_need_repair {
            tool.normalize(&mut arguments, &self.options)
                .map_err(|e| invalid(tool, Violations(vec![e.to_violation()])))?
        } else {
            Report::default()
        };
        for record in repair_records(&tool.name, &report) {
            observe::emit(self.observer.as_deref(), &record);
        }
        // Validate against the exported schema, then (strict dialect) turn
        // the strict shape back into the declared one and validate that
        // against the declared schema too: strict mode changes what the
        // model is shown, never what is enforced (`minLength`, `pattern`
        // and the other keywords strict mode cannot show still hold, and
        // their rejections name the declared shape's pointers).
        // A repeated key is judged by the shape the model sent, which the
        // canonical dialect validates (a strict shape's validator has no
        // type model, and lets the last member stand).
        read.plain_numbers &= report.is_clean();
        tool.validator
            .validate_call(&arguments, &read)
            .map_err(|v| invalid(tool, v))?;
        if let Some(strict) = &tool.strict {
            strict
                .restore(&mut arguments)
                .map_err(|v| invalid(tool, v))?;
        }
        if let Some(declared) = &tool.declared_validator {
            declared
                .validate(&arguments)
                .map_err(|v| invalid(tool, v))?;
        }
        let typed = tool
            .body
            .decode(&arguments)
            .map_err(|v| invalid(tool, Violations(vec![v])))?;
        // Policy: sees exactly what the body will receive.
        let decision = self.policy.evaluate(&PolicyRequest::new(
            context,
            &tool.name,
            &arguments,
            typed.as_deref(),
        ));
        match decision {
            Decision::Allow => Ok(Checked {
                tool,
                call_id: id,
                arguments,
                typed,
                report,
            }),
            Decision::Deny { reason } => Err(Denied {
                tool: tool.name.clone(),
                reason,
            }
            .into()),
            Decision::RequireApproval { reason } => Err(ApprovalRequired {
                tool: tool.name.clone(),
                call_id: id,
                reason,
                arguments,
            }
            .into()),
        }
    }

    /// Runs the body of a checked call.
    ///
    /// # Errors
    ///
    /// [`CallError::Failed`] when the body returns an error.
    pub async fn dispatch(&self, checked: Checked<'_>) -> Result<Completed, CallError> {
        let Checked {
            tool,
            call_id,
            arguments,
            typed,
            report,
        } = checked;
        match tool.body.run(arguments, typed).await {
            Ok(output) => Ok(Completed {
                tool: tool.name.clone(),
                call_id,
                output,
                report,
            }),
            Err(message) => {
                let error = CallError::Failed(ToolFailure {
                    tool: tool.name.clone(),
                    message,
                });
                self.observe_failure(&tool.name, &error);
                Err(error)
            }
        }
    }

    /// The whole pipeline for one call.
    ///
    /// # Errors
    ///
    /// A [`CallError`]: a rejection, a hold for approval, or the tool's own
    /// failure.
    pub async fn call(&self, context: &C, call: ToolCall) -> Result<Completed, CallError> {
        let checked = self.check(context, call)?;
        self.dispatch(checked).await
    }

    /// [`Toolbox::call`] for synchronous code: drives the body's future on
    /// the current thread. Do not use it inside an async runtime's worker
    /// (it blocks that thread); a body that needs a particular runtime's
    /// reactor must be called with [`Toolbox::call`] inside that runtime.
    ///
    /// # Errors
    ///
    /// As [`Toolbox::call`].
    pub fn call_blocking(&self, context: &C, call: ToolCall) -> Result<Completed, CallError> {
        pollster::block_on(self.call(context, call))
    }

    /// Runs a call the policy held, once a person approved it: the stored
    /// arguments are checked against the tool's declared schema and the
    /// body runs; the policy is not consulted again. Keep approvals where
    /// the model cannot alter them.
    ///
    /// # Errors
    ///
    /// [`CallError`]: unknown tool, invalid arguments, or the tool's own
    /// failure.
    pub async fn call_approved(&self, approval: &ApprovalRequired) -> Result<Completed, CallError> {
        let tool = self
            .find(&approval.tool)
            .ok_or_else(|| UnknownTool::new(&approval.tool, self.names()))?;
        let validator = tool.declared_validator.as_ref().unwrap_or(&tool.validator);
        let checked = validator
            .validate(&approval.arguments)
            .map_err(|v| invalid(tool, v))
            .and_then(|()| {
                tool.body
                    .decode(&approval.arguments)
                    .map_err(|v| invalid(tool, Violations(vec![v])))
            });
        let typed = match checked {
            Ok(typed) => typed,
            Err(error) => {
                self.observe_failure(&tool.name, &error);
                return Err(error);
            }
        };
        self.dispatch(Checked {
            tool,
            call_id: approval.call_id.clone(),
            arguments: approval.arguments.clone(),
            typed,
            report: Report::default(),
        })
        .await
    }

    /// [`Toolbox::call_approved`] for synchronous code (same caveats as
    /// [`Toolbox::call_blocking`]).
    ///
    /// # Errors
    ///
    /// As [`Toolbox::call_approved`].
    pub fn call_approved_blocking(
        &self,
        approval: &ApprovalRequired,
    ) -> Result<Completed, CallError> {
        pollster::block_on(self.call_approved(approval))
    }

    fn observe_failure(&self, tool: &str, error: &CallError) {
        for record in failure_records(tool, error) {
            observe::emit(self.observer.as_deref(), &record);
        }
    }
}

fn invalid(tool: &Tool, violations: Violations) -> CallError {
    InvalidArguments::new(tool.name.clone(), violations).into()
}

//! The policy phase: after normalization and validation, before dispatch;
//! it sees what the body will receive.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use toolargs::ToolArgs;
use toolargs::call::ToolCall;
use toolargs::policy::{Decision, PolicyRequest};
use toolargs::rejection::{CallError, Rejection};
use toolargs::toolbox::Toolbox;

/// Run a shell command.
#[derive(Debug, Deserialize, JsonSchema, ToolArgs)]
struct Shell {
    command: String,
}

struct Caller {
    may_run_shell: bool,
}

fn shell_toolbox(seen: Arc<Mutex<Vec<String>>>) -> Toolbox<Caller> {
    let mut toolbox = Toolbox::new().policy(move |request: &PolicyRequest<'_, Caller>| {
        let typed = request.typed::<Shell>().expect("typed arguments");
        seen.lock().unwrap().push(typed.command.clone());
        assert_eq!(
            request.arguments["command"],
            Value::String(typed.command.clone())
        );
        if !request.context.may_run_shell {
            Decision::deny("this caller may not run shell commands")
        } else if typed.command.contains("&&") {
            Decision::require_approval("chained commands need a person's approval")
        } else {
            Decision::Allow
        }
    });
    toolbox
        .tool_sync("shell", "Run a shell command.", |args: Shell| {
            Ok::<_, String>(format!("ran {}", args.command))
        })
        .unwrap();
    toolbox
}

#[test]
fn the_policy_sees_normalized_arguments() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let toolbox = shell_toolbox(seen.clone());
    let caller = Caller {
        may_run_shell: true,
    };
    // Escaped as a model might send it: `&amp;&amp;` must reach the policy
    // as `&&`, not pass it as harmless text and run as `&&`.
    let error = toolbox
        .call_blocking(
            &caller,
            ToolCall::new("shell", json!({"command": "ls &amp;&amp; rm -rf /tmp/x"})),
        )
        .unwrap_err();
    assert_eq!(seen.lock().unwrap().as_slice(), ["ls && rm -rf /tmp/x"]);
    let CallError::ApprovalRequired(approval) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(
        approval.arguments,
        json!({"command": "ls && rm -rf /tmp/x"})
    );
    assert_eq!(
        error.model_message(),
        "The call to `shell` is waiting for a person's approval (chained commands need a person's approval). It has not run yet; do not retry it."
    );
    // Once a person approves, the stored call runs without asking the
    // policy again.
    let done = toolbox.call_approved_blocking(approval).unwrap();
    assert_eq!(done.output, json!("ran ls && rm -rf /tmp/x"));
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[test]
fn denial_carries_the_reason() {
    let toolbox = shell_toolbox(Arc::new(Mutex::new(Vec::new())));
    let error = toolbox
        .call_blocking(
            &Caller {
                may_run_shell: false,
            },
            ToolCall::new("shell", json!({"command": "ls"})),
        )
        .unwrap_err();
    let CallError::Rejected(Rejection::Denied(denied)) = &error else {
        panic!("{error:?}");
    };
    assert_eq!(denied.reason, "this caller may not run shell commands");
    assert_eq!(
        error.model_message(),
        "The call to `shell` was denied: this caller may not run shell commands. Do not retry the same call."
    );
    assert_eq!(
        serde_json::to_value(&error).unwrap(),
        json!({"outcome": "rejected", "rejection": "denied", "tool": "shell", "reason": "this caller may not run shell commands"})
    );
}

#[test]
fn the_policy_never_sees_invalid_or_unknown_calls() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let toolbox = shell_toolbox(seen.clone());
    let caller = Caller {
        may_run_shell: true,
    };
    let invalid = toolbox
        .call_blocking(&caller, ToolCall::new("shell", json!({"command": ["ls"]})))
        .unwrap_err();
    assert!(matches!(
        invalid,
        CallError::Rejected(Rejection::InvalidArguments(_))
    ));
    let unknown = toolbox
        .call_blocking(&caller, ToolCall::new("sh", json!({"command": "ls"})))
        .unwrap_err();
    assert!(matches!(
        unknown,
        CallError::Rejected(Rejection::UnknownTool(_))
    ));
    assert!(seen.lock().unwrap().is_empty());
    let done = toolbox
        .call_blocking(&caller, ToolCall::new("shell", json!({"command": "ls"})))
        .unwrap();
    assert_eq!(done.output, json!("ran ls"));
}

#[test]
fn dynamic_tools_give_the_policy_json_only() {
    let mut toolbox: Toolbox<()> = Toolbox::new().policy(|request: &PolicyRequest<'_, ()>| {
        assert!(request.typed::<Shell>().is_none());
        if request.arguments["path"]
            .as_str()
            .is_some_and(|p| p.starts_with("/etc"))
        {
            Decision::deny("/etc is off limits")
        } else {
            Decision::Allow
        }
    });
    toolbox
        .dynamic_tool_sync(
            "read",
            "Read a file.",
            json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
            |args: Value| Ok::<_, String>(args["path"].clone()),
        )
        .unwrap();
    let error = toolbox
        .call_blocking(
            &(),
            ToolCall::new("read", json!({"path": "&#x2F;etc/passwd"})),
        )
        .unwrap_err();
    assert!(
        matches!(error, CallError::Rejected(Rejection::Denied(_))),
        "{error:?}"
    );
}

//! A second bench type, for the clean path's reach: an externally tagged
//! enum, a field with an alias and a map, as agent tools write them.

#![allow(dead_code)]

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;
use toolargs::ToolArgs;

/// Run an action in a workspace.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
pub struct ActionArgs {
    /// The command line, as the user wrote it.
    #[serde(alias = "cmd")]
    pub command: String,
    /// What to do.
    pub action: Action,
    /// Environment variables for the action.
    pub env: BTreeMap<String, String>,
    /// How often to try again.
    pub retries: Option<u8>,
}

/// One action.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Stop what runs.
    Stop,
    /// Wait so many seconds.
    Wait(u32),
    /// Run a program.
    Run {
        /// The program.
        path: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

/// A clean call with `variables` environment entries.
pub fn clean(variables: usize) -> String {
    let env: serde_json::Map<String, serde_json::Value> = (0..variables)
        .map(|i| (format!("VAR_{i}"), format!("value number {i}").into()))
        .collect();
    serde_json::json!({
        "command": "cargo test --workspace",
        "action": {"run": {"path": "/usr/bin/cargo", "args": ["test", "--workspace"]}},
        "env": env,
        "retries": 2
    })
    .to_string()
}

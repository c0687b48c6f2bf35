//! The derived type whose schema is `corpus::schema()`: what a Rust tool
//! author writes for the corpus's search tool.

#![allow(dead_code)]

use schemars::JsonSchema;
use serde::Deserialize;
use toolargs::ToolArgs;

/// Search documents.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
pub struct SearchArgs {
    pub query: String,
    pub tags: Vec<String>,
    pub limit: Option<u32>,
    pub filter: Option<Filter>,
    pub documents: Vec<Document>,
}

/// Which documents to keep.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
pub struct Filter {
    pub since: String,
    pub authors: Vec<String>,
}

/// One document.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, ToolArgs)]
pub struct Document {
    pub title: String,
    pub body: String,
    pub labels: Vec<String>,
}

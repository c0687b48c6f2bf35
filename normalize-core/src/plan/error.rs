//! Why a JSON Schema could not be compiled into a plan.

/// A schema the plan compiler cannot use. Every variant names the JSON
/// pointer of the offending subschema (`""` is the root).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaError {
    /// A subschema that is neither an object nor a boolean.
    #[error("schema at `#{at}` is {found}, expected an object or a boolean")]
    NotASchema {
        /// Where the value sits.
        at: String,
        /// The JSON type found instead.
        found: &'static str,
    },
    /// A keyword whose value has the wrong JSON type.
    #[error("keyword `{keyword}` at `#{at}` must be {expected}, found {found}")]
    KeywordType {
        /// The subschema holding the keyword.
        at: String,
        /// The keyword.
        keyword: &'static str,
        /// What the keyword must hold.
        expected: &'static str,
        /// What it holds.
        found: &'static str,
    },
    /// A `type` name that is not one of JSON Schema's seven.
    #[error("unknown type name `{name}` at `#{at}`")]
    UnknownType {
        /// The subschema holding the keyword.
        at: String,
        /// The name found.
        name: String,
    },
    /// A `$ref` that does not point into this document (another file, a URL,
    /// or a plain-name anchor).
    #[error("`$ref` `{reference}` at `#{at}` is not a local JSON pointer (`#` or `#/...`)")]
    NonLocalRef {
        /// The subschema holding the `$ref`.
        at: String,
        /// The reference as written.
        reference: String,
    },
    /// A local `$ref` whose pointer names nothing in the document.
    #[error("`$ref` `{reference}` at `#{at}` points at nothing")]
    DanglingRef {
        /// The subschema holding the `$ref`.
        at: String,
        /// The reference as written.
        reference: String,
    },
    /// A `patternProperties` key that the validator does not accept as an
    /// ECMA-262 regular expression (the plan matches keys with the
    /// validator's own engine, so the two reject the same patterns).
    #[error("pattern `{pattern}` at `#{at}` does not compile: {reason}")]
    Pattern {
        /// The subschema holding `patternProperties`.
        at: String,
        /// The pattern as written.
        pattern: String,
        /// The validator builder's explanation.
        reason: String,
    },
}

//! Why a JSON Schema could not be compiled into a grammar.

/// A schema (or a set of tools) the grammar compiler cannot use. Every
/// schema variant names the JSON pointer of the offending subschema (`""` is
/// the root).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GrammarError {
    /// A subschema that is neither an object nor a boolean.
    #[error("schema at `{at}` is {found}, expected an object or a boolean")]
    NotASchema {
        /// Where the value sits.
        at: String,
        /// The JSON type found instead.
        found: &'static str,
    },
    /// A keyword whose value has the wrong JSON type or range.
    #[error("keyword `{keyword}` at `{at}` must be {expected}")]
    KeywordType {
        /// The subschema holding the keyword.
        at: String,
        /// The keyword.
        keyword: &'static str,
        /// What the keyword must hold.
        expected: &'static str,
    },
    /// A `type` name that is not one of JSON Schema's seven.
    #[error("unknown type name `{name}` at `{at}`")]
    UnknownType {
        /// The subschema holding the keyword.
        at: String,
        /// The name found.
        name: String,
    },
    /// A `$ref` that does not point into this document.
    #[error("`$ref` `{reference}` at `{at}` is not a local JSON pointer (`#` or `#/...`)")]
    NonLocalRef {
        /// The subschema holding the `$ref`.
        at: String,
        /// The reference as written.
        reference: String,
    },
    /// A local `$ref` whose pointer names nothing in the document.
    #[error("`$ref` `{reference}` at `{at}` points at nothing")]
    DanglingRef {
        /// The subschema holding the `$ref`.
        at: String,
        /// The reference as written.
        reference: String,
    },
    /// Subschemas nested deeper than the compiler follows.
    #[error("schema at `{at}` is nested deeper than {limit} levels")]
    TooDeep {
        /// The subschema where the limit was reached.
        at: String,
        /// The limit.
        limit: usize,
    },
    /// The schema admits no finite JSON value (for example a required
    /// property whose schema is `false`, or a recursive type that requires
    /// itself inside itself with no way out),
    /// so the grammar would accept nothing.
    #[error("schema at `{at}` admits no value, so no grammar can produce one")]
    Unsatisfiable {
        /// The subschema that admits nothing.
        at: String,
    },
    /// `$ref`s that lead back to where they started through nothing but
    /// references (and union branches), so the schema they name is never
    /// reached: JSON Schema gives it no meaning, and the grammar could only
    /// drop what uses it without a word.
    #[error("`$ref` loop {} never reaches a schema", arrows(.chain))]
    RefLoop {
        /// The subschema where the loop starts.
        at: String,
        /// The references followed, as written: the first names the
        /// subschema at `at` and so does the last.
        chain: Vec<String>,
    },
    /// One tool's schema of a whole-call grammar could not be compiled.
    #[error("tool `{name}`: {source}")]
    Tool {
        /// The tool's name.
        name: String,
        /// Why its schema could not be compiled.
        #[source]
        source: Box<GrammarError>,
    },
    /// Two tools of a whole-call grammar share a name.
    #[error("tool name `{name}` appears twice")]
    DuplicateTool {
        /// The repeated name.
        name: String,
    },
    /// A whole-call grammar with no tool: nothing could be called.
    #[error("a call grammar needs at least one tool")]
    NoTools,
}

/// `a` → `b` → `a`.
fn arrows(chain: &[String]) -> String {
    let quoted: Vec<String> = chain.iter().map(|r| format!("`{r}`")).collect();
    quoted.join(" → ")
}

//! What a grammar does not enforce: the keywords that stay the validator's
//! job, each named by the schema location that holds it.

use std::fmt;

/// One schema keyword the grammar does not enforce (fully).
///
/// A grammar constrains what a model can *write*; it is not a validator.
/// Every keyword listed here is still checked by validation, and only there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unenforced {
    /// JSON pointer (RFC 6901) of the subschema holding the keyword, in the
    /// schema document (`""` is the root schema, `/properties/amount` a
    /// member's schema).
    pub pointer: String,
    /// The keyword, as written in the schema.
    pub keyword: String,
    /// Why the grammar leaves it to the validator.
    pub reason: String,
}

impl fmt::Display for Unenforced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{pointer}: `{}`: {}", self.keyword, self.reason)
    }
}

/// How the grammar compiler treats a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Not a constraint (titles, descriptions, definitions containers...).
    Annotation,
    /// Compiled into the grammar (the compiler reports partial cases itself).
    Compiled,
    /// A constraint the grammar never enforces; the text says why.
    Ignored(&'static str),
    /// A keyword this compiler does not know.
    Unknown,
}

/// The role of `keyword` in a subschema.
pub(crate) fn role(keyword: &str) -> Role {
    match keyword {
        "title" | "description" | "default" | "examples" | "$comment" | "$schema" | "$id"
        | "$anchor" | "$defs" | "definitions" | "deprecated" | "readOnly" | "writeOnly"
        | "contentEncoding" | "contentMediaType" | "contentSchema" => Role::Annotation,
        "type"
        | "enum"
        | "const"
        | "properties"
        | "required"
        | "additionalProperties"
        | "items"
        | "prefixItems"
        | "additionalItems"
        | "minItems"
        | "maxItems"
        | "pattern"
        | "minLength"
        | "maxLength"
        | "anyOf"
        | "oneOf"
        | "allOf"
        | "$ref" => Role::Compiled,
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            Role::Ignored("numeric ranges are not expressed in the grammar")
        }
        "multipleOf" => Role::Ignored("divisibility is not expressed in the grammar"),
        "uniqueItems" => Role::Ignored("a grammar cannot compare array items with each other"),
        "contains" | "minContains" | "maxContains" => {
            Role::Ignored("counting matching items is not expressed in the grammar")
        }
        "not" => Role::Ignored("complements of schemas are not expressed in the grammar"),
        "if" | "then" | "else" => {
            Role::Ignored("conditional schemas are not expressed in the grammar")
        }
        "dependentRequired" | "dependentSchemas" | "dependencies" => {
            Role::Ignored("cross-field rules are not expressed in the grammar")
        }
        "patternProperties" => Role::Ignored(
            "members named by a pattern are not generated; when the object is open they are \
             accepted as extra members with any value",
        ),
        "propertyNames" => Role::Ignored("names of extra members are not constrained"),
        "minProperties" | "maxProperties" => {
            Role::Ignored("member counts are not expressed in the grammar")
        }
        "unevaluatedProperties" | "unevaluatedItems" => {
            Role::Ignored("evaluation-dependent keywords are not expressed in the grammar")
        }
        "format" => Role::Ignored("formats are not expressed in the grammar"),
        _ => Role::Unknown,
    }
}

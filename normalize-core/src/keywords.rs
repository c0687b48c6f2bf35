//! Every keyword toolargs writes into a schema, named once. Each starts
//! with [`PREFIX`], which JSON Schema validators ignore and no provider
//! reads; where a keyword is written and read is found by its constant.
//! Only [`VERBATIM_KEYWORD`] is a portable annotation, shown to models and
//! read by any toolargs schema consumer; the others live in the validator's
//! schema or in a step of building it, never in a shown schema.

/// What every keyword of ours starts with.
pub(crate) const PREFIX: &str = "x-toolargs-";

/// The annotation keyword that marks a location *verbatim*:
/// `"x-toolargs-verbatim": true` on a subschema.
///
/// Some tools carry markup on purpose: a `write_file` tool's `content`
/// holding `&lt;p&gt;`, an XML payload with `Tom &amp; Jerry`. Decoding
/// character references there (RT-TOOL-8's default) would change the file
/// the model meant to write. A verbatim location opts out of that one
/// repair, for every string at the location and every string nested below
/// it (array items, object members, the contents of a JSON-decoded string);
/// JSON-string decoding still follows the schema, so an array sent as a
/// string is still decoded.
///
/// The mark lives in the schema, as an annotation keyword validators ignore,
/// so every consumer of the same schema honours it: the dynamic
/// [`Normalizer`](crate::Normalizer), the code `#[derive(ToolArgs)]`
/// generates (from `#[tool_args(verbatim)]`), and the command-line tool.
/// With plain schemas write it yourself; with schemars,
/// `#[schemars(extend("x-toolargs-verbatim" = true))]`. It is read through
/// `$ref` and `allOf` (any part marked marks the location) and through
/// `anyOf`/`oneOf` (any branch that applies to the value found there). Its
/// value must be a boolean; `false` is the same as no mark.
///
/// A declared literal is verbatim without a mark: a string that a
/// location's `const` or `enum` allows and that holds `&` (a variant renamed
/// `"R&amp;D"`, a tag `"a&lt;b"`), sent exactly, is kept as sent. Decoding it
/// would make a declared value impossible to send, whatever the model
/// wrote; any other string there is decoded as RT-TOOL-8 says, and where
/// the location also takes a string of any content (an untagged enum's
/// `String` variant beside the literal) nothing is kept.
///
/// ```
/// use toolargs_core::{Normalizer, plan::VERBATIM_KEYWORD};
/// use serde_json::json;
///
/// let normalizer = Normalizer::compile(&json!({
///     "type": "object",
///     "properties": {
///         "path": {"type": "string"},
///         "content": {"type": "string", VERBATIM_KEYWORD: true}
///     }
/// }))?;
/// let mut args = json!({"path": "a&amp;b.html", "content": "<p>Tom &amp; Jerry</p>"});
/// normalizer.normalize(&mut args)?;
/// assert_eq!(args, json!({"path": "a&b.html", "content": "<p>Tom &amp; Jerry</p>"}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const VERBATIM_KEYWORD: &str = "x-toolargs-verbatim";

/// The annotation keyword on an alias's property: the field's wire name.
/// Consumers that show one name per field (strict exports, grammars) skip
/// such properties; validation accepts them.
pub(crate) const ALIAS_OF: &str = "x-toolargs-alias-of";

/// The mark a denying branch gets while its schema is built: the names
/// serde does not offer it (`crate::__private::denial`).
pub(crate) const NOT_OFFERED: &str = "x-toolargs-not-offered";

/// A flattened `Option`'s whole reading, its value an array of indices into
/// the validator's table (`crate::validate::flattened_wholes`).
pub(crate) const WHOLE: &str = "x-toolargs-whole";

/// Where a branch's own document keeps the schema it was taken from
/// (`crate::validate::flattened_wholes`).
pub(crate) const DOCUMENT: &str = "x-toolargs-document";

/// Entries that merge once read (a map's keys, a set's elements), its value
/// an index into the validator's table (`crate::validate::distinct_entries`).
pub(crate) const DISTINCT: &str = "x-toolargs-distinct";

/// The keyword beside `"type": "integer"` where serde reads a Rust integer
/// and no model says so (a serde reading of the crate's `untagged` module, a
/// field of a type that derives only `JsonSchema`, learned by
/// `crate::compile::learned_aliases`): `true` takes no number written with
/// a fraction or an exponent (`2.0`), which JSON Schema calls an integer and
/// serde's integer types refuse.
pub(crate) const WRITTEN_AS_INTEGER: &str = "x-toolargs-written-as-integer";

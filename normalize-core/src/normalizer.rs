//! The RT-TOOL-8 normalizer: repairs a model's arguments in place against a
//! compiled schema and reports what it repaired.

use crate::deep;
use crate::entities::{EntityMode, decode_until_stable};
use crate::json_text::{self, JsonTextError};
use crate::path::Path;
use crate::plan::{JsonType, Loc, SchemaError, SchemaPlan, TypeSet};
use crate::rejection::{SyntaxError, SyntaxKind};
use crate::report::{RepairKind, Report};
use serde_json::Value;
use std::borrow::Cow;

/// How normalization decodes character references and how deep it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Attribute-value rule (default) or text rule for legacy names.
    pub entities: EntityMode,
    /// Decoding passes allowed per string (default 8). `u32::MAX` means
    /// "until stable"; the loop always ends because each changing pass
    /// shortens the text.
    pub max_passes: u32,
    /// Deepest nesting of arrays and objects normalization walks, counting
    /// what JSON-decoded strings add (default 128, serde_json's own parsing
    /// limit).
    ///
    /// For normalization, a bound on work and memory, not on the stack:
    /// parsing, the walk and writing repairs back into a text grow their
    /// stack on the heap as they go deeper, so for them any bound,
    /// `usize::MAX` included, is safe on any thread, a 2 MiB async worker
    /// included. Time and memory grow
    /// linearly with the size of the arguments whatever their depth. A
    /// `serde_json::Value` the crate hands out ([`crate::json::read`])
    /// drops recursively: see there.
    ///
    /// The later phases of `from_model` and the toolbox are other crates'
    /// recursive code: the schema validator and serde's deserialization of
    /// a recursive type take stack per level of the value. A bound in the
    /// thousands there still calls for a thread with a larger stack.
    pub max_depth: usize,
    /// Largest arguments text accepted by the entry points that parse text
    /// (`from_model`, the tool registry, the command-line tool), in bytes
    /// (default 8 MiB). See [`Options::check_size`].
    pub max_bytes: usize,
    /// What reaching [`Options::max_passes`] with references left means.
    pub pass_bound: PassBound,
}

/// What to do when a string still holds character references after
/// [`Options::max_passes`] passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PassBound {
    /// Keep the partly decoded text and record `bound_reached` in the report
    /// (RT-TOOL-8 allows bounding the passes).
    #[default]
    Record,
    /// Fail with [`NormalizeError::PassBound`]: a service that would rather
    /// reject a call than pass on text escaped more deeply than any model
    /// plausibly meant.
    Reject,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            entities: EntityMode::Attribute,
            max_passes: DEFAULT_MAX_PASSES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_bytes: DEFAULT_MAX_BYTES,
            pass_bound: PassBound::Record,
        }
    }
}

/// The default bound on character-reference decoding passes.
pub const DEFAULT_MAX_PASSES: u32 = 8;
/// The default bound on nesting depth.
pub const DEFAULT_MAX_DEPTH: usize = 128;
/// The default bound on the size of an arguments text.
pub const DEFAULT_MAX_BYTES: usize = 8 << 20;

impl Options {
    /// Sets the entity mode.
    #[must_use]
    pub fn entities(mut self, mode: EntityMode) -> Self {
        self.entities = mode;
        self
    }

    /// Sets the pass bound.
    #[must_use]
    pub fn max_passes(mut self, passes: u32) -> Self {
        self.max_passes = passes;
        self
    }

    /// Sets the depth bound.
    #[must_use]
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// Sets the size bound on arguments text.
    #[must_use]
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// Sets what reaching the pass bound means.
    #[must_use]
    pub fn pass_bound(mut self, pass_bound: PassBound) -> Self {
        self.pass_bound = pass_bound;
        self
    }

    /// Fails when an arguments text of `bytes` bytes is over
    /// [`Options::max_bytes`]; entry points call it before parsing.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::TooLarge`].
    pub fn check_size(&self, bytes: usize) -> Result<(), NormalizeError> {
        if bytes > self.max_bytes {
            return Err(NormalizeError::TooLarge {
                bytes,
                limit: self.max_bytes,
            });
        }
        Ok(())
    }
}

/// Normalization stopped before finishing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NormalizeError {
    /// The arguments (or JSON decoded from one of their strings) nest deeper
    /// than [`Options::max_depth`]. Repairs made before stopping stay in
    /// place; each is one the rules allow.
    #[error("arguments nest deeper than {limit} levels at `{pointer}`")]
    TooDeep {
        /// Where the limit was crossed.
        pointer: String,
        /// The limit in force.
        limit: usize,
    },
    /// The arguments text is larger than [`Options::max_bytes`].
    #[error("arguments are {bytes} bytes, more than the limit of {limit}")]
    TooLarge {
        /// Size of the text.
        bytes: usize,
        /// The limit in force.
        limit: usize,
    },
    /// A string still held character references after
    /// [`Options::max_passes`] passes, and [`Options::pass_bound`] is
    /// [`PassBound::Reject`].
    #[error("text at `{pointer}` is still escaped after {limit} decoding passes")]
    PassBound {
        /// The string's location.
        pointer: String,
        /// The pass bound in force.
        limit: u32,
    },
    /// The derived type's contract does not compile, so its normalizer
    /// has no plan to walk ([`crate::contract`]).
    #[error(transparent)]
    Contract(crate::contract::ContractError),
}

impl NormalizeError {
    /// The crossed limit as a validation failure at its pointer, so a
    /// caller (or a model) reads it like every other rejected argument.
    pub fn to_violation(&self) -> crate::validate::Violation {
        let (pointer, keyword, expected, found) = match self {
            NormalizeError::TooDeep { pointer, limit } => (
                pointer.clone(),
                "maxDepth",
                format!("at most {limit} levels of nesting"),
                "deeper nesting".to_owned(),
            ),
            NormalizeError::TooLarge { bytes, limit } => (
                String::new(),
                "maxBytes",
                format!("at most {limit} bytes of arguments"),
                format!("{bytes} bytes"),
            ),
            NormalizeError::PassBound { pointer, limit } => (
                pointer.clone(),
                "maxPasses",
                format!("text that decodes within {limit} passes"),
                "text still escaped after the last pass".to_owned(),
            ),
            NormalizeError::Contract(error) => (
                String::new(),
                "contract",
                "a tool whose contract compiles".to_owned(),
                error.to_string(),
            ),
        };
        crate::validate::Violation {
            message: format!("expected {expected}, found {found}"),
            pointer,
            keyword: keyword.to_owned(),
            expected,
            found,
        }
    }
}

/// A schema plan and options: normalizes any number of arguments values,
/// from any number of threads.
///
/// ```
/// use toolargs_core::Normalizer;
/// use serde_json::json;
///
/// let normalizer = Normalizer::compile(&json!({
///     "type": "object",
///     "properties": {"tags": {"type": "array", "items": {"type": "string"}}}
/// }))?;
/// let mut args = json!({"tags": "[\"Tom &amp;amp; Jerry\"]"});
/// let report = normalizer.normalize(&mut args)?;
/// assert_eq!(args, json!({"tags": ["Tom & Jerry"]}));
/// assert_eq!(report.repairs.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Normalizer {
    plan: SchemaPlan,
    options: Options,
}

impl Normalizer {
    /// A normalizer over an already compiled plan.
    pub fn new(plan: SchemaPlan, options: Options) -> Self {
        Normalizer { plan, options }
    }

    /// Compiles `schema` and uses the default options.
    ///
    /// # Errors
    ///
    /// The [`SchemaError`] of [`SchemaPlan::compile`].
    pub fn compile(schema: &Value) -> Result<Self, SchemaError> {
        Ok(Normalizer::new(
            SchemaPlan::compile(schema)?,
            Options::default(),
        ))
    }

    /// The same plan with other options.
    #[must_use]
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The compiled plan.
    pub fn plan(&self) -> &SchemaPlan {
        &self.plan
    }

    /// Repairs `arguments` in place and reports what was repaired.
    ///
    /// Clean arguments (no JSON-in-a-string where the schema declares a
    /// container, no character reference) are walked without allocating.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::TooDeep`] when the arguments nest deeper than
    /// [`Options::max_depth`].
    pub fn normalize(&self, arguments: &mut Value) -> Result<Report, NormalizeError> {
        let mut report = Report::default();
        let mut repairer = Repairer::new(&self.options, &mut report);
        repairer.walk(&self.plan, &self.plan.root(), arguments, &Path::ROOT, 0)?;
        Ok(report)
    }

    /// Normalizes arguments given as JSON text and writes the repairs back
    /// into that text: every byte the repairs did not touch (numbers as
    /// written, spacing, key order, escapes) stays as it came, so a log
    /// keeps its bytes. Text that no repair can apply to is only checked to be JSON and comes back borrowed, without a value
    /// ever being built. The nesting bound is [`Options::max_depth`], and
    /// parsing, like the walk, is safe at any depth the bound allows.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolargs_core::Normalizer;
    ///
    /// let normalizer = Normalizer::compile(&json!({
    ///     "type": "object",
    ///     "properties": {"tags": {"type": "array"}, "n": {"type": "number"}}
    /// }))?;
    /// let (text, report) = normalizer.normalize_text(r#"{"n": 1.50, "tags": "[\"a\"]"}"#)?;
    /// assert_eq!(text, r#"{"n": 1.50, "tags": ["a"]}"#);
    /// assert_eq!(report.repairs.len(), 1);
    /// let (text, report) = normalizer.normalize_text(r#"{"n": 1e2}"#)?;
    /// assert!(matches!(text, std::borrow::Cow::Borrowed(_)) && report.is_clean());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`NormalizeTextError`]: the text is not JSON or nests too deep, or
    /// normalization stopped ([`NormalizeError`]).
    pub fn normalize_text<'t>(
        &self,
        text: &'t str,
    ) -> Result<(Cow<'t, str>, Report), NormalizeTextError> {
        let max_depth = self.options.max_depth;
        let facts = json_text::inspect(text);
        let not_json = |e: JsonTextError| {
            NormalizeTextError::Syntax(SyntaxError::of_text(SyntaxKind::Arguments, e, text))
        };
        if !facts.may_need_repair {
            json_text::check_with_facts(text, facts, max_depth).map_err(not_json)?;
            return Ok((Cow::Borrowed(text), Report::default()));
        }
        let mut value = json_text::from_str_with_facts(text, facts, max_depth).map_err(not_json)?;
        let outcome = match self.normalize(&mut value) {
            Ok(report) => crate::splice::splice(text, &value, &report)
                .map(|spliced| (Cow::Owned(spliced), report))
                .map_err(|e| NormalizeTextError::Splice { offset: e.offset }),
            Err(e) => Err(e.into()),
        };
        // The value may nest as deep as the text: dropped without recursion.
        deep::drop_value(value);
        outcome
    }
}

/// Why [`Normalizer::normalize_text`] gave no text back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NormalizeTextError {
    /// The text is not JSON, or nests deeper than [`Options::max_depth`]:
    /// a [`SyntaxError`] of kind [`SyntaxKind::Arguments`], as a call's
    /// arguments get (the line and column where the parser stopped, a lone
    /// surrogate escape named at the escape itself; none for the nesting).
    #[error(transparent)]
    Syntax(SyntaxError),
    /// Normalization stopped (a limit in [`Options`]).
    #[error(transparent)]
    Normalize(#[from] NormalizeError),
    /// The repairs could not be written back into the text. The text was
    /// parsed just before, so this means a defect, reported rather than
    /// hidden.
    #[error(
        "the repairs could not be written back: the text is not well-formed JSON at byte {offset}"
    )]
    Splice {
        /// Byte offset where writing back stopped.
        offset: usize,
    },
}

/// One normalization in progress: the options and the report being built.
///
/// [`Normalizer`] drives it over a plan; the code `#[derive(ToolArgs)]`
/// generates drives it field by field, so both share every repair rule.
#[derive(Debug)]
pub struct Repairer<'r> {
    options: &'r Options,
    report: &'r mut Report,
    /// Inside a verbatim location ([`crate::VERBATIM_KEYWORD`]): no string
    /// below it is entity-decoded, whatever its own schema says.
    verbatim: bool,
}

impl<'r> Repairer<'r> {
    /// Starts a normalization that records into `report`.
    pub fn new(options: &'r Options, report: &'r mut Report) -> Self {
        Repairer {
            options,
            report,
            verbatim: false,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        self.options
    }

    /// Fails when a container at `depth` (the root is at 0) would cross the
    /// depth bound.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::TooDeep`].
    pub fn enter(&self, depth: usize, path: &Path<'_>) -> Result<(), NormalizeError> {
        if depth >= self.options.max_depth {
            return Err(NormalizeError::TooDeep {
                pointer: path.to_pointer(),
                limit: self.options.max_depth,
            });
        }
        Ok(())
    }

    /// Walks the members of the container at `depth` with `walk`: refused
    /// past the depth limit ([`Repairer::enter`]), and on a stack with room
    /// for them at any depth ([`crate::deep::guard`]).
    pub(crate) fn descend<R>(
        &mut self,
        depth: usize,
        path: &Path<'_>,
        walk: impl FnOnce(&mut Self) -> Result<R, NormalizeError>,
    ) -> Result<R, NormalizeError> {
        self.enter(depth, path)?;
        deep::guard(depth, || walk(self))
    }

    /// Normalizes `value` against location `loc` of `plan`.
    ///
    /// A location the plan finds [verbatim](SchemaPlan::verbatim) for the
    /// value (after JSON-string decoding) leaves its strings, and every
    /// string below it, entity-encoded as sent.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::TooDeep`].
    pub fn walk(
        &mut self,
        plan: &SchemaPlan,
        loc: &Loc,
        value: &mut Value,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), NormalizeError> {
        if matches!(value, Value::String(_))
            && !self.decode_json(value, plan.declared(loc), path, depth)?
        {
            if !self.verbatim && !plan.verbatim(loc, value) {
                self.decode_references(value, path)?;
            }
            return Ok(());
        }
        if !matches!(value, Value::Array(_) | Value::Object(_)) {
            return Ok(());
        }
        self.descend(depth, path, |this| {
            let entered = !this.verbatim && plan.verbatim(loc, value);
            this.verbatim |= entered;
            let walked = this.walk_members(plan, loc, value, path, depth);
            if entered {
                this.verbatim = false;
            }
            walked
        })
    }

    fn walk_members(
        &mut self,
        plan: &SchemaPlan,
        loc: &Loc,
        value: &mut Value,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), NormalizeError> {
        let bound = plan.bind(loc, value);
        match value {
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let child = plan.item(&bound, i);
                    self.walk(plan, &child, item, &path.index(i), depth + 1)?;
                }
            }
            Value::Object(members) => {
                for (key, member) in members.iter_mut() {
                    let child = plan.member(&bound, key);
                    self.walk(plan, &child, member, &path.key(key), depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Both repairs for a value at a location declaring `declared`: a
    /// string holding JSON of a declared container shape is decoded,
    /// any other string has its references decoded. Returns whether the
    /// value (now) is something to walk into, i.e. not a string leaf.
    ///
    /// # Errors
    ///
    /// As [`Repairer::decode_json`] and [`Repairer::decode_references`].
    pub fn repair_string(
        &mut self,
        value: &mut Value,
        declared: TypeSet,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<bool, NormalizeError> {
        if !matches!(value, Value::String(_)) {
            return Ok(true);
        }
        if self.decode_json(value, declared, path, depth)? {
            return Ok(true);
        }
        self.decode_references(value, path)?;
        Ok(false)
    }

    /// Replaces a string with the array or object it encodes when `declared`
    /// asks for that shape (RT-TOOL-8's three conditions). Returns whether it
    /// did; the caller then normalizes the decoded value in turn.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::TooDeep`] when the decoded value would cross the
    /// depth bound.
    pub fn decode_json(
        &mut self,
        value: &mut Value,
        declared: TypeSet,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<bool, NormalizeError> {
        let Value::String(text) = value else {
            return Ok(false);
        };
        if !declared.wants_json() {
            return Ok(false);
        }
        let shape = match crate::byte_scan::first_after_whitespace(text) {
            Some(b'[') if declared.contains(JsonType::Array) => JsonType::Array,
            Some(b'{') if declared.contains(JsonType::Object) => JsonType::Object,
            _ => return Ok(false),
        };
        let room = self.options.max_depth.saturating_sub(depth);
        match json_text::from_str(text, room) {
            Ok(decoded) => {
                *value = decoded;
                self.report
                    .push(path.pointer(), RepairKind::JsonDecoded { into: shape });
                Ok(true)
            }
            Err(JsonTextError::TooDeep { .. }) => Err(NormalizeError::TooDeep {
                pointer: path.to_pointer(),
                limit: self.options.max_depth,
            }),
            Err(JsonTextError::Syntax(_)) => Ok(false),
        }
    }

    /// Decodes the character references of a string leaf until stable (or
    /// the pass bound). Does nothing to other values, nor to any string while
    /// a [`Repairer::walk`] is inside a verbatim location.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::PassBound`] when the bound is reached with
    /// references left and [`Options::pass_bound`] is [`PassBound::Reject`].
    pub fn decode_references(
        &mut self,
        value: &mut Value,
        path: &Path<'_>,
    ) -> Result<(), NormalizeError> {
        let Value::String(text) = value else {
            return Ok(());
        };
        if self.verbatim {
            return Ok(());
        }
        let decoded = decode_until_stable(text, self.options.entities, self.options.max_passes);
        let (passes, bound_reached) = (decoded.passes, decoded.bound_reached);
        if bound_reached && self.options.pass_bound == PassBound::Reject {
            return Err(NormalizeError::PassBound {
                pointer: path.to_pointer(),
                limit: self.options.max_passes,
            });
        }
        if let Cow::Owned(new) = decoded.text {
            *text = new;
            self.report.push(
                path.pointer(),
                RepairKind::ReferencesDecoded {
                    passes,
                    bound_reached,
                },
            );
        }
        Ok(())
    }
}

//! [`Options`]: how normalization decodes references and how far it goes,
//! with the defaults; [`NormalizeError`]: a limit crossed. Read by the
//! normalizer, the walk and every entry point that takes options.

use crate::entities::EntityMode;

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

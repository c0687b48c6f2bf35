//! [`Repairer`]: one normalization in progress, the RT-TOOL-8 walk that
//! both the dynamic [`super::Normalizer`] and the code `#[derive(ToolArgs)]`
//! generates drive. Public for generated code (through `__private`), not
//! part of the crate's API.

use super::options::{NormalizeError, Options, PassBound};
use crate::deep;
use crate::entities::decode_until_stable;
use crate::json_text::{self, JsonTextError};
use crate::path::Path;
use crate::plan::{JsonType, Loc, SchemaPlan, TypeSet};
use crate::report::{RepairKind, Report};
use serde_json::Value;
use std::borrow::Cow;

/// One normalization in progress: the options and the report being built.
///
/// [`Normalizer`](super::Normalizer) drives it over a plan; the code `#[derive(ToolArgs)]`
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

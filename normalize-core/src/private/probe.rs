//! Choosing, per field type and at compile time, between a nested type's own
//! generated normalizer (it implements `ToolArgs`) and the containing type's
//! plan (any other `JsonSchema` type), without the user annotating anything.
//!
//! Method resolution tries `Probe<T>` by value before auto-referencing, so
//! [`ViaToolArgs`] (implemented for `Probe<T>` when `T: ToolArgs`) wins over
//! [`ViaPlan`] (implemented for every `&Probe<T>`). In a generic context
//! where `T: ToolArgs` is not known, the plan is used, which gives the same
//! result.

use super::adjust::adjust_def;
use super::walk::any;
use crate::normalizer::{NormalizeError, Repairer};
use crate::path::Path;
use crate::tool_args::ToolArgs;
use core::marker::PhantomData;
use serde_json::{Map, Value};

/// A zero-sized stand-in for a field type, to call [`ViaToolArgs`] or
/// [`ViaPlan`] on.
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> Probe<T> {
    /// The probe for `T`.
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T: ?Sized> Default for Probe<T> {
    fn default() -> Self {
        Probe::new()
    }
}

/// Chosen when the field type implements `ToolArgs`.
pub trait ViaToolArgs {
    /// Whether the type has its own generated normalizer.
    fn __toolargs_is_tool_args(&self) -> bool;
    /// Runs the type's own normalizer.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::TooDeep`].
    fn __toolargs_normalize_in(
        &self,
        repairer: &mut Repairer<'_>,
        value: &mut Value,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), NormalizeError>;
    /// Applies the type's schema adjustments to its definition.
    fn __toolargs_adjust(&self, defs: &mut Map<String, Value>, seen: &mut Vec<String>);
}

impl<T: ToolArgs> ViaToolArgs for Probe<T> {
    fn __toolargs_is_tool_args(&self) -> bool {
        true
    }
    fn __toolargs_normalize_in(
        &self,
        repairer: &mut Repairer<'_>,
        value: &mut Value,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), NormalizeError> {
        T::normalize_in(repairer, value, path, depth)
    }
    fn __toolargs_adjust(&self, defs: &mut Map<String, Value>, seen: &mut Vec<String>) {
        adjust_def::<T>(defs, seen);
    }
}

/// Chosen for every other type: the containing type walks its plan.
pub trait ViaPlan {
    /// Always `false`: the containing type's plan handles this field.
    fn __toolargs_is_tool_args(&self) -> bool;
    /// Only reached if [`ViaPlan::__toolargs_is_tool_args`] is ignored:
    /// references in every string leaf, as a location that declares
    /// nothing.
    ///
    /// # Errors
    ///
    /// [`NormalizeError::TooDeep`].
    fn __toolargs_normalize_in(
        &self,
        repairer: &mut Repairer<'_>,
        value: &mut Value,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), NormalizeError>;
    /// Nothing to adjust: the type's schema is its own `JsonSchema`'s.
    fn __toolargs_adjust(&self, defs: &mut Map<String, Value>, seen: &mut Vec<String>);
}

impl<T: ?Sized> ViaPlan for &Probe<T> {
    fn __toolargs_is_tool_args(&self) -> bool {
        false
    }
    fn __toolargs_normalize_in(
        &self,
        repairer: &mut Repairer<'_>,
        value: &mut Value,
        path: &Path<'_>,
        depth: usize,
    ) -> Result<(), NormalizeError> {
        any(repairer, value, path, depth)
    }
    fn __toolargs_adjust(&self, _defs: &mut Map<String, Value>, _seen: &mut Vec<String>) {}
}

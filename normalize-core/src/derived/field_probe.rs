//! Choosing, per field type and at compile time, between a nested type's own
//! generated normalizer (it implements `ToolArgs`) and the containing type's
//! plan (any other `JsonSchema` type), without the user annotating anything.
//!
//! Method resolution tries `Probe<T>` by value before auto-referencing, so
//! [`ViaToolArgs`] (implemented for `Probe<T>` when `T: ToolArgs`) wins over
//! [`ViaPlan`] (implemented for every `&Probe<T>`). In a generic context
//! where `T: ToolArgs` is not known, the plan is used, which gives the same
//! result.
//!
//! The same pattern asks of a flattened field's type what the `flatten`
//! module needs: its schema when it implements `JsonSchema` and
//! `Deserialize` ([`ViaJsonSchema`] over [`ViaNoSchema`]), and how serde
//! reads the `T` of an `Option<T>` ([`ViaOption`] over [`ViaNotOption`]),
//! and how a map or set field reads its entries ([`ViaEntries`] over
//! [`ViaNoEntries`]).

use super::walkers::any;
use crate::compile::annotate::Annotator;
use crate::compile::flatten::{FieldSchema, Flattened};
use crate::contract::{Modeled, Node};
use crate::normalizer::{NormalizeError, Repairer};
use crate::path::Path;
use crate::tool_args::ToolArgs;
use crate::validate::distinct_entries::RepeatFn;
use crate::validate::flattened_wholes::Reader;
use core::marker::PhantomData;
use serde_json::Value;

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
    /// Annotates the type's own definition in the document.
    fn __toolargs_annotate_nested(&self, annotator: &mut Annotator<'_>);
    /// Applies the type's field annotations to `schema`, the schema of a
    /// struct that flattens it.
    fn __toolargs_annotate_flattened(&self, schema: &mut Value, annotator: &mut Annotator<'_>);
    /// [`ToolArgs::__keeps_every_member`].
    fn __toolargs_keeps_every_member(&self) -> Option<bool>;
}

impl<T: ToolArgs> ViaToolArgs for Probe<T> {
    fn __toolargs_keeps_every_member(&self) -> Option<bool> {
        T::__keeps_every_member()
    }
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
        T::__normalize_in(repairer, value, path, depth)
    }
    fn __toolargs_annotate_nested(&self, annotator: &mut Annotator<'_>) {
        annotator.nested::<T>();
    }
    fn __toolargs_annotate_flattened(&self, schema: &mut Value, annotator: &mut Annotator<'_>) {
        T::__annotate(schema, annotator);
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
    /// Nothing to annotate: the type's schema is its own `JsonSchema`'s.
    fn __toolargs_annotate_nested(&self, annotator: &mut Annotator<'_>);
    /// What the schema alone shows of a type that derives only
    /// `JsonSchema`: an adjacently tagged `Option` variant of a flattened
    /// enum may leave its content out.
    fn __toolargs_annotate_flattened(&self, schema: &mut Value, annotator: &mut Annotator<'_>);
    /// Not known: the schema says.
    fn __toolargs_keeps_every_member(&self) -> Option<bool>;
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
    fn __toolargs_annotate_nested(&self, _annotator: &mut Annotator<'_>) {}
    fn __toolargs_annotate_flattened(&self, schema: &mut Value, _annotator: &mut Annotator<'_>) {
        crate::compile::schema_only::relax_flattened(schema);
    }
    fn __toolargs_keeps_every_member(&self) -> Option<bool> {
        None
    }
}

/// Chosen for a flattened field whose type implements `JsonSchema` and
/// `Deserialize`: what the `flatten` module asks of it.
pub trait ViaJsonSchema {
    /// The type's flattened reading.
    fn __toolargs_flattened(&self) -> Flattened;
    /// What schemars writes for a field of the type.
    fn __toolargs_field_schema(&self) -> FieldSchema;
}

impl<T: schemars::JsonSchema + serde::de::DeserializeOwned> ViaJsonSchema for Probe<T> {
    fn __toolargs_flattened(&self) -> Flattened {
        Flattened::of::<T>()
    }
    fn __toolargs_field_schema(&self) -> FieldSchema {
        Some(|generator| generator.subschema_for::<T>().to_value())
    }
}

/// Chosen where the type is not known to implement `JsonSchema` (a type
/// parameter of a generic derived type): the schema is left as schemars
/// wrote it.
pub trait ViaNoSchema {
    /// Nothing known of the type.
    fn __toolargs_flattened(&self) -> Flattened;
    /// Nothing known of the type.
    fn __toolargs_field_schema(&self) -> FieldSchema;
}

impl<T: ?Sized> ViaNoSchema for &Probe<T> {
    fn __toolargs_flattened(&self) -> Flattened {
        Flattened::UNKNOWN
    }
    fn __toolargs_field_schema(&self) -> FieldSchema {
        None
    }
}

/// Chosen for a field of type `Option<T>` (written so, or through an
/// alias): how serde reads its `T` flattened.
pub trait ViaOption {
    /// `read_whole::<T>`, and whether serde's flattening takes what `T`
    /// reads.
    fn __toolargs_whole_reader(&self) -> Option<Reader>;
}

impl<T: serde::de::DeserializeOwned> ViaOption for Probe<Option<T>> {
    fn __toolargs_whole_reader(&self) -> Option<Reader> {
        use crate::validate::flattened_read::{read_whole, reading_of};
        Some(Reader {
            read: read_whole::<T>,
            reading: reading_of::<T>(),
        })
    }
}

/// Chosen for every other field type: nothing to read.
pub trait ViaNotOption {
    /// `None`.
    fn __toolargs_whole_reader(&self) -> Option<Reader>;
}

impl<T: ?Sized> ViaNotOption for &Probe<T> {
    fn __toolargs_whole_reader(&self) -> Option<Reader> {
        None
    }
}

/// Chosen for a map or set field whose type reads it (`BTreeMap`,
/// `HashMap`, `BTreeSet`, `HashSet`): whether two entries it was sent
/// become one.
pub trait ViaEntries {
    /// `first_repeat::<M>`.
    fn __toolargs_repeats(&self) -> Option<RepeatFn>;
}

impl<M: super::entries::Entries> ViaEntries for Probe<M> {
    fn __toolargs_repeats(&self) -> Option<RepeatFn> {
        Some(super::entries::first_repeat::<M>)
    }
}

/// Chosen for any other type (and where the type is not known to be read,
/// in a generic context): nothing to check.
pub trait ViaNoEntries {
    /// `None`.
    fn __toolargs_repeats(&self) -> Option<RepeatFn>;
}

impl<T: ?Sized> ViaNoEntries for &Probe<T> {
    fn __toolargs_repeats(&self) -> Option<RepeatFn> {
        None
    }
}

/// Chosen for a type that implements `JsonSchema`: whether its schema
/// takes any value (`serde_json::Value`, a newtype or `Box` around it).
pub trait ViaSchemaOf {
    /// Whether the type's schema is `true` or has no keyword that
    /// constrains.
    fn __toolargs_takes_anything(&self) -> bool;
    /// Whether the type is an `Option` (schemars says so for serde's
    /// reading of a missing value as `None`).
    fn __toolargs_is_option(&self) -> bool;
}

impl<T: schemars::JsonSchema> ViaSchemaOf for Probe<T> {
    fn __toolargs_is_option(&self) -> bool {
        T::_schemars_private_is_option()
    }

    fn __toolargs_takes_anything(&self) -> bool {
        let schema = T::json_schema(&mut schemars::SchemaGenerator::default());
        match schema.as_value() {
            Value::Bool(takes) => *takes,
            // Annotations only (a reference says what its target says).
            Value::Object(map) => map.keys().all(|keyword| {
                keyword.starts_with("x-")
                    || (keyword != "$ref"
                        && crate::closing::ANNOTATIONS.contains(&keyword.as_str()))
            }),
            _ => false,
        }
    }
}

/// Chosen where the type is not known to implement `JsonSchema` (a type
/// parameter): the branch stays as schemars wrote it.
pub trait ViaUnknownSchema {
    /// `false`.
    fn __toolargs_takes_anything(&self) -> bool;
    /// `false`.
    fn __toolargs_is_option(&self) -> bool;
}

impl<T: ?Sized> ViaUnknownSchema for &Probe<T> {
    fn __toolargs_is_option(&self) -> bool {
        false
    }

    fn __toolargs_takes_anything(&self) -> bool {
        false
    }
}

/// Chosen when the field type has a contract model ([`Modeled`]).
pub trait ViaModeled {
    /// The type's node.
    fn __toolargs_node(&self) -> &'static Node;
}

impl<T: Modeled + ?Sized> ViaModeled for Probe<T> {
    fn __toolargs_node(&self) -> &'static Node {
        T::node()
    }
}

/// Chosen for every other type: nothing is known of it.
pub trait ViaUnmodeled {
    /// [`Node::Unknown`].
    fn __toolargs_node(&self) -> &'static Node;
}

impl<T: ?Sized> ViaUnmodeled for &Probe<T> {
    fn __toolargs_node(&self) -> &'static Node {
        &Node::Unknown
    }
}

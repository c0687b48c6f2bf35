//! What the code `#[derive(ToolArgs)]` generates runs: the walkers its
//! normalizer is made of ([`walkers`]), the probes that pick, per field
//! type, a nested type's own normalizer or the plan ([`field_probe`]), how
//! a map or set field reads its entries ([`entries`]), and the entry points
//! of a type's compiled contract (built once per type, kept for the rest of
//! the program). Generated code reaches all of it through
//! `crate::__private`, which only re-exports.

pub(crate) mod entries;
pub(crate) mod field_probe;
pub(crate) mod walkers;

use crate::compile::Compiled;
use crate::compile::annotate::Annotator;
use crate::contract::ContractError;
use crate::normalizer::Options;
use crate::tool_args::ToolArgs;
use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock, RwLock};

/// `T::from_model_with` by the full path alone, never the clean one: how
/// tests prove the two paths give the same result.
///
/// # Errors
///
/// As [`ToolArgs::from_model_with`].
pub fn from_model_full<T: ToolArgs>(
    raw: crate::tool_args::RawArgs<'_>,
    options: &Options,
) -> Result<crate::tool_args::Parsed<T>, crate::tool_args::ArgsError> {
    crate::tool_args::from_model_full(raw, options)
}

impl Compiled {
    /// `T`'s contract ([`Compiled::build`] with what `T`'s derive
    /// generated).
    ///
    /// # Errors
    ///
    /// As [`Compiled::build`].
    pub fn of<T: ToolArgs>() -> Result<Compiled, ContractError> {
        Compiled::build::<T>(T::__annotate, T::__node())
    }
}

impl Annotator<'_> {
    /// Annotates `T`'s definition, once ([`Annotator::nested_type`]).
    pub fn nested<T: ToolArgs>(&mut self) {
        self.nested_type(
            TypeId::of::<T>(),
            |generator| generator.subschema_for::<T>(),
            T::__annotate,
        );
    }
}

/// The [`Compiled`] of a non-generic type, kept in the `static` the derive
/// declares for it.
pub fn once<T: ToolArgs>(
    cell: &'static OnceLock<Result<Compiled, ContractError>>,
) -> Result<&'static Compiled, &'static ContractError> {
    cell.get_or_init(Compiled::of::<T>).as_ref()
}

/// The [`Compiled`] of a generic type, one per monomorphization (a `static`
/// inside a generic function is shared by all of them, so these are keyed by
/// `TypeId`). Each is built once and lives for the rest of the program.
pub fn per_type<T: ToolArgs>() -> Result<&'static Compiled, &'static ContractError> {
    static REGISTRY: Registry = LazyLock::new(RwLock::default);
    let key = TypeId::of::<T>();
    if let Some(found) = REGISTRY
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&key)
    {
        return found.as_ref();
    }
    // Built outside the lock: building may ask for other types' schemas.
    let built = Compiled::of::<T>();
    let mut registry = REGISTRY
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    registry
        .entry(key)
        .or_insert_with(|| Box::leak(Box::new(built)))
        .as_ref()
}

/// Each generic type's compiled contract (or why it failed), by `TypeId`.
type Registry = LazyLock<RwLock<HashMap<TypeId, &'static Result<Compiled, ContractError>>>>;

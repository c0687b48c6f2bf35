//! The contract of a derived type: what its schema, its validator and its
//! normalization plan are compiled from, and how compiling them can fail.
//!
//! A derived type compiles its contract the first time it is used. That
//! can fail only when schemars (or a hand-written `JsonSchema`) produced a
//! schema the validator or the plan compiler refuses, which is a bug in a
//! `JsonSchema` implementation, not bad input. It is still reported as a
//! value, [`ContractError`], never a panic: at registration
//! ([`crate::toolbox::Toolbox::tool`]), from
//! [`ToolArgs::try_input_schema`](crate::ToolArgs::try_input_schema), and
//! as [`ArgsError::Contract`](crate::ArgsError::Contract) from
//! [`ToolArgs::from_model`](crate::ToolArgs::from_model).

pub(crate) mod error;
pub mod model;

pub use error::ContractError;
pub use model::{
    EnumModel, FieldModel, Modeled, Node, Scalar, StructModel, Tagging, VariantContent,
    VariantModel,
};

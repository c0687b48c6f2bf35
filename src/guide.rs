//! Each page is a markdown file in `docs/guide/`, included here as the
//! documentation of an empty module, so its Rust examples compile and run
//! as doctests. The pages hold no items of their own.

#[doc = include_str!("../docs/guide/derive.md")]
pub mod derive {}

#[doc = include_str!("../docs/guide/contract.md")]
pub mod contract {}

#[doc = include_str!("../docs/guide/repairs.md")]
pub mod repairs {}

#[doc = include_str!("../docs/guide/calls.md")]
pub mod calls {}

#[doc = include_str!("../docs/guide/streaming.md")]
pub mod streaming {}

#[doc = include_str!("../docs/guide/integrations.md")]
pub mod integrations {}

#[doc = include_str!("../docs/guide/grammars.md")]
pub mod grammars {}

#[doc = include_str!("../docs/guide/conformance.md")]
pub mod conformance {}

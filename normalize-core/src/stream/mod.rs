//! Tool calls checked while they stream.
//!
//! Providers send a call's arguments as text fragments; [`wire`] turns each
//! provider's stream events into [`wire::CallDelta`]s keyed by the
//! provider's own call index.

pub mod wire;

//! Support for the fuzz targets: bounded JSON values and schemas built from
//! the fuzzer's bytes, and the invariants normalization must keep.
#![forbid(unsafe_code)]

pub mod invariants;
pub mod json_gen;

#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub use normalize_core::*;

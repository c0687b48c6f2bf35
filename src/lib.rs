pub use normalize_core::*;

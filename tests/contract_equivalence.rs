//! Two normalizers, one meaning, over the contract's 73 types: the
//! normalizer `#[derive(ToolArgs)]` generates and the dynamic plan compiled
//! from the type's finished schema (closed, with aliases, verbatim marks and
//! renamed definitions) give identical values, reports and errors on
//! damaged inputs built from the schema, under every option set.
#![allow(dead_code)]

mod contract;

use contract::types::*;
use toolargs::testing::assert_normalizer_matches_schema;

macro_rules! equivalence {
    ($($test:ident: $ty:ty $(, unions $unions:expr)? $(, aliases $aliases:expr)?;)*) => {
        $(
            #[test]
            fn $test() {
                assert_normalizer_matches_schema::<$ty>();
            }
        )*
    };
}

contract_types!(equivalence);

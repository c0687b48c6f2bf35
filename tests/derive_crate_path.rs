//! `#[tool_args(crate = "...")]`: a crate that re-exports `toolargs` under
//! another path points the derive at it.

mod runtime {
    /// The re-export a wrapper crate would make.
    pub mod reexported {
        pub use toolargs::__private;
    }
}

use schemars::JsonSchema;
use serde::Deserialize;
use toolargs::ToolArgs;

#[derive(Deserialize, JsonSchema, ToolArgs, Debug)]
#[tool_args(crate = "crate::runtime::reexported")]
struct Args {
    tags: Vec<String>,
}

#[test]
fn derive_uses_the_given_path() {
    let parsed = Args::from_model(r#"{"tags": "[\"a &amp;amp; b\"]"}"#).unwrap();
    assert_eq!(parsed.value.tags, ["a & b"]);
    assert_eq!(parsed.report.len(), 2);
}

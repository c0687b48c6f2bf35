//! Misuses of `#[derive(ToolArgs)]` fail to compile with one error at the
//! offending span (snapshots in `tests/ui/*.stderr`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}

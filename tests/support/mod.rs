//! Shared by the conformance tests: where the shared conformance data lives.

#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/conformance/` beside the repository, or the directory named by
/// `TOOLARGS_CONFORMANCE_DIR`.
pub fn conformance_dir() -> PathBuf {
    match std::env::var_os("TOOLARGS_CONFORMANCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"),
    }
}

/// The RT-TOOL-8 cases (JSON lines): the shared file, else the copy the
/// repository keeps.
pub fn rt_tool_8_text() -> String {
    std::fs::read_to_string(conformance_dir().join("rt-tool-8.jsonl")).unwrap_or_else(|_| {
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/rt-tool-8.jsonl"
        ))
        .expect("tests/data/rt-tool-8.jsonl")
    })
}

/// The lines of a shared conformance file, or `None` (after saying what was
/// not checked) when the file is absent outside CI. In CI (`CI` set) an
/// absent file fails the test.
pub fn shared_lines(name: &str, what: &str) -> Option<Vec<String>> {
    let path = conformance_dir().join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text.lines().map(str::to_owned).collect()),
        Err(err) => {
            if std::env::var_os("CI").is_some() {
                panic!("{} is required in CI: {err}", path.display());
            }
            eprintln!(
                "SKIPPED: {what} not checked: {} is absent ({err})",
                path.display()
            );
            None
        }
    }
}

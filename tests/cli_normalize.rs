//! The command-line normalizer (`examples/normalize.rs`), run as a process:
//! the RT-TOOL-8 cases through `--cases`, byte fidelity and error lines in
//! `--schema` mode, exit statuses.

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `cargo test` builds the examples next to the test binaries; when this
/// test runs alone (`--test cli_normalize`), build the example first.
fn normalize_bin() -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target profile dir");
    let bin = dir
        .join("examples")
        .join(format!("normalize{}", std::env::consts::EXE_SUFFIX));
    BUILT.call_once(|| {
        if !bin.exists() {
            let status = Command::new(env!("CARGO"))
                .args(["build", "--features", "cli", "--example", "normalize"])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .status()
                .expect("running cargo");
            assert!(status.success(), "building the normalize example failed");
        }
    });
    assert!(bin.exists(), "{} was not built", bin.display());
    bin
}

fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let mut child = Command::new(normalize_bin())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn normalize");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn cases_mode_matches_every_rt_tool_8_case() {
    let text = support::rt_tool_8_text();
    let (stdout, stderr, code) = run(&["--cases", "-"], &text);
    assert_eq!(code, 0, "stderr: {stderr}");
    let inputs: Vec<&str> = text.lines().collect();
    let outputs: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        inputs.len(),
        outputs.len(),
        "one output line per input line"
    );
    for (input, output) in inputs.iter().zip(&outputs) {
        let case: serde_json::Value = serde_json::from_str(input).unwrap();
        let got: serde_json::Value = serde_json::from_str(output).unwrap();
        assert_eq!(got["id"], case["id"], "ids are echoed in order");
        assert_eq!(got["arguments"], case["expected"], "case {}", case["id"]);
    }
}

#[test]
fn schema_mode_keeps_unrepaired_text_and_reports_bad_lines() {
    let dir = std::env::temp_dir().join(format!("toolargs-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schema = dir.join("schema.json");
    std::fs::write(
        &schema,
        r#"{"type":"object","properties":{"tags":{"type":"array"}}}"#,
    )
    .unwrap();
    let input = "{\"z\": 1.50, \"tags\": \"[1]\", \"a\":1e5}\nnot json\n{\"b\" : \"&amp;amp;\", \"n\": -0}\n";
    let (stdout, stderr, code) = run(&["--schema", schema.to_str().unwrap()], input);
    assert_eq!(code, 1, "a bad line makes the exit status 1");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], "{\"z\": 1.50, \"tags\": [1], \"a\":1e5}");
    assert!(
        lines[1].starts_with("{\"error\":\"line 2: not JSON"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "{\"b\" : \"&\", \"n\": -0}");
    assert!(stderr.contains("line 2"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verbatim_fields_are_not_entity_decoded_in_both_modes() {
    // The tool compiles the schema into a plan, and the plan reads the mark:
    // `content` keeps its references, `path` is decoded, and the verbatim
    // array sent as a string is still JSON-decoded with its items kept.
    let schema = r#"{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string","x-toolargs-verbatim":true},"lines":{"type":"array","items":{"type":"string"},"x-toolargs-verbatim":true}}}"#;
    let arguments =
        r#"{"path":"a&amp;b","content":"&lt;p&gt;Tom &amp; Jerry","lines":"[\"&lt;br&gt;\"]"}"#;
    let expected = serde_json::json!({
        "path": "a&b",
        "content": "&lt;p&gt;Tom &amp; Jerry",
        "lines": ["&lt;br&gt;"]
    });

    let case = format!(r#"{{"id":"v","schema":{schema},"arguments":{arguments}}}"#);
    let (stdout, stderr, code) = run(&["--cases", "-"], &format!("{case}\n"));
    assert_eq!(code, 0, "stderr: {stderr}");
    let got: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(got["id"], "v");
    assert_eq!(got["arguments"], expected);

    let dir = std::env::temp_dir().join(format!("toolargs-cli-verbatim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("schema.json");
    std::fs::write(&path, schema).unwrap();
    let (stdout, stderr, code) = run(
        &["--schema", path.to_str().unwrap()],
        &format!("{arguments}\n"),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let got: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(got, expected);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cases_mode_reports_errors_per_line_and_continues() {
    let input = concat!(
        "{\"id\": 1, \"schema\": 5, \"arguments\": {}}\n",
        "{\"id\": \"x\", \"schema\": {}, \"arguments\": \"&lt;\", \"options\": {\"entities\": \"text\", \"max_passes\": 1}}\n",
        "[1\n",
        "{\"id\": 2, \"schema\": {\"$ref\": \"other.json\"}, \"arguments\": {}}\n",
    );
    let (stdout, _, code) = run(&["--cases"], input);
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["id"], 1);
    assert!(lines[0]["error"].as_str().unwrap().starts_with("line 1:"));
    assert_eq!(lines[1]["arguments"], "<");
    assert!(lines[2]["error"].as_str().unwrap().starts_with("line 3:"));
    assert_eq!(lines[3]["id"], 2);
    assert!(
        lines[3]["error"]
            .as_str()
            .unwrap()
            .contains("not a local JSON pointer")
    );
}

#[test]
fn deep_and_huge_inputs_do_not_crash() {
    let deep = format!(
        "{{\"schema\": {{}}, \"arguments\": {}{}}}\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let too_deep = format!("{}{}\n", "[".repeat(20000), "]".repeat(20000));
    let (stdout, _, code) = run(&["--cases"], &(deep + &too_deep));
    assert_eq!(code, 1);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].contains("\"arguments\":[[[["));
    assert!(lines[1].contains("error") && lines[1].contains("line 2"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&[], "").2, 2);
    assert_eq!(run(&["--schema", "/nonexistent/schema.json"], "").2, 2);
}

//! The `toolargs` command as a Unix filter: a co-process that answers each
//! line before the next is written, several input files, a byte order
//! mark, blank lines, the summary on standard error, and `--cases` lines
//! that are not objects.

mod cli_support;

use cli_support::{REFUND, scratch, toolargs, write};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long one answer may take before the test calls the command hung.
const ANSWER: Duration = Duration::from_secs(20);

/// Runs `toolargs ARGS` as a co-process: writes each line, then waits for
/// its answer (one output line) before writing the next, with the input
/// pipe still open. Fails (never hangs) when an answer does not come.
fn converse(args: &[&str], lines: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn toolargs");
    let mut input = child.stdin.take().expect("stdin");
    let output = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            if tx.send(line.expect("the command writes UTF-8")).is_err() {
                return;
            }
        }
    });
    let mut answers = Vec::new();
    for line in lines {
        input.write_all(line.as_bytes()).unwrap();
        input.write_all(b"\n").unwrap();
        input.flush().unwrap();
        match rx.recv_timeout(ANSWER) {
            Ok(answer) => answers.push(answer),
            Err(_) => {
                child.kill().ok();
                child.wait().ok();
                panic!(
                    "{args:?}: no answer to `{line}` within {ANSWER:?} while the input stays open"
                );
            }
        }
    }
    drop(input);
    let status = child.wait().expect("wait for toolargs");
    assert!(status.code().is_some(), "{args:?} ended by a signal");
    answers
}

#[test]
fn each_line_is_answered_while_the_input_stays_open() {
    let dir = scratch("coprocess");
    let schema = write(&dir, "refund.json", REFUND);
    let lines = [
        r#"{"order_id":"ord_000001","amount_cents":5,"reason":"late","tags":"[\"a\"]"}"#,
        r#"{"order_id":"ord_000002","amount_cents":"5","reason":"late"}"#,
        r#"{"order_id":"ord_000003","amount_cents":7,"reason":"other"}"#,
    ];
    for jobs in ["1", "2"] {
        let answers = converse(&["check", "--schema", &schema, "--jobs", jobs], &lines);
        let verdicts: Vec<serde_json::Value> = answers
            .iter()
            .map(|a| serde_json::from_str(a).unwrap())
            .collect();
        assert_eq!(verdicts[0]["ok"], true, "--jobs {jobs}");
        assert_eq!(verdicts[1]["ok"], false, "--jobs {jobs}");
        assert_eq!(verdicts[2]["line"], 3, "--jobs {jobs}");
        let answers = converse(&["normalize", "--schema", &schema, "--jobs", jobs], &lines);
        assert_eq!(
            answers[0],
            r#"{"order_id":"ord_000001","amount_cents":5,"reason":"late","tags":["a"]}"#
        );
        assert_eq!(answers[1..], lines[1..], "--jobs {jobs}");
        let case = r#"{"id":1,"schema":{"type":"array"},"arguments":"[1]"}"#;
        let answers = converse(&["normalize", "--cases", "--jobs", jobs], &[case, case]);
        assert_eq!(answers.len(), 2);
        assert!(
            answers[1].starts_with(r#"{"id":1,"arguments":[1]"#),
            "{answers:?}"
        );
    }
}

#[test]
fn a_large_file_still_gives_the_same_output_with_any_jobs() {
    // From a file, batches stay full; the output is the same either way.
    let dir = scratch("large-file");
    let schema = write(&dir, "refund.json", REFUND);
    let text = cli_support::mixed_lines(3_000);
    let input = write(&dir, "in.jsonl", &text);
    let one = toolargs(&["check", "--schema", &schema, "--quiet", &input], b"");
    let two = toolargs(
        &["check", "--schema", &schema, "--quiet", "-j", "2", &input],
        b"",
    );
    let piped = toolargs(
        &["check", "--schema", &schema, "--quiet", "-j", "2"],
        text.as_bytes(),
    );
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stdout, piped.stdout);
    assert_eq!(one.json_lines().len(), 3_000);
}

#[test]
fn check_ends_with_a_summary_on_stderr_unless_quiet() {
    let dir = scratch("summary");
    let schema = write(&dir, "refund.json", REFUND);
    let input = concat!(
        r#"{"order_id":"ord_000001","amount_cents":5,"reason":"late","tags":"[\"a\"]"}"#,
        "\n",
        r#"{"order_id":"ord_000002","amount_cents":"5","reason":"late"}"#,
        "\n",
        r#"{"order_id":"ord_000003","amount_cents":7,"reason":"other"}"#,
        "\n\n",
    );
    let out = toolargs(&["check", "--schema", &schema], input.as_bytes());
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "toolargs check: 4 lines, 3 calls, 1 repaired, 1 rejected, 1 error\n"
    );
    // In a pipe there is no progress display: nothing but the summary.
    assert!(!out.stderr.contains('\r'));
    let quiet = toolargs(&["check", "--schema", &schema, "-q"], input.as_bytes());
    assert_eq!(quiet.stderr, "");
    assert_eq!(quiet.stdout, out.stdout);
    assert_eq!(quiet.code, 1);
}

#[test]
fn a_blank_line_is_an_error_line_in_every_subcommand() {
    let dir = scratch("blank");
    let schema = write(&dir, "refund.json", REFUND);
    let tools = toolargs(&["export", "--schema", &schema, "--provider", "mcp"], b"");
    let tools = write(&dir, "tools.json", tools.text());
    let input = b"\n  \r\n";
    let normalize = toolargs(&["normalize", "--schema", &schema], input);
    assert_eq!(normalize.code, 1);
    let lines = normalize.json_lines();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .starts_with("line 1: a blank line")
    );
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .starts_with("line 2: a blank line")
    );
    let cases = toolargs(&["normalize", "--cases"], input);
    assert_eq!(cases.code, 1);
    assert!(
        cases.json_lines()[0]["error"]
            .as_str()
            .unwrap()
            .contains("blank line")
    );
    for source in [["--schema", &schema], ["--tools", &tools]] {
        let check = toolargs(&["check", source[0], source[1], "-q"], input);
        assert_eq!(check.code, 1, "{source:?}");
        for verdict in check.json_lines() {
            assert_eq!(verdict["ok"], false, "{source:?}");
            assert_eq!(verdict["error"]["rejection"], "syntax", "{source:?}");
            assert!(
                verdict["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("blank line")
            );
        }
    }
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_file_is_skipped() {
    let dir = scratch("bom");
    let schema = write(&dir, "refund.json", REFUND);
    let line = r#"{"order_id":"ord_000001","amount_cents":5,"reason":"late"}"#;
    let with_mark = format!("\u{feff}{line}\n{line}\n");
    let input = write(&dir, "bom.jsonl", &with_mark);
    let check = toolargs(&["check", "--schema", &schema, "-q", &input], b"");
    assert_eq!(check.code, 0, "{}", check.text());
    let normalize = toolargs(&["normalize", "--schema", &schema], with_mark.as_bytes());
    assert_eq!(normalize.code, 0, "{}", normalize.stderr);
    assert_eq!(normalize.text(), format!("{line}\n{line}\n"));
    let case = "\u{feff}{\"schema\":{},\"arguments\":1}\n";
    assert_eq!(toolargs(&["normalize", "--cases"], case.as_bytes()).code, 0);
}

#[test]
fn several_files_are_read_in_order_and_named() {
    let dir = scratch("files");
    let schema = write(&dir, "refund.json", REFUND);
    let good = r#"{"order_id":"ord_000001","amount_cents":5,"reason":"late"}"#;
    let a = write(&dir, "a.jsonl", &format!("{good}\n{{\n"));
    let b = write(&dir, "b.jsonl", &format!("{good}\n"));
    for jobs in ["1", "2"] {
        let check = toolargs(
            &["check", "--schema", &schema, "-q", "-j", jobs, &a, &b],
            b"",
        );
        assert_eq!(check.code, 1);
        let verdicts = check.json_lines();
        let places: Vec<(&str, u64)> = verdicts
            .iter()
            .map(|v| (v["file"].as_str().unwrap(), v["line"].as_u64().unwrap()))
            .collect();
        assert_eq!(places, [(a.as_str(), 1), (a.as_str(), 2), (b.as_str(), 1)]);
        let normalize = toolargs(&["normalize", "--schema", &schema, "-j", jobs, &a, &b], b"");
        let lines: Vec<&str> = normalize.text().lines().collect();
        assert_eq!(lines[0], good);
        assert!(
            lines[1].contains(&format!("{a}: line 2: not JSON")),
            "{lines:?}"
        );
        assert_eq!(lines[2], good);
        assert!(normalize.stderr.contains(&format!("{a}: line 2: not JSON")));
    }
    // One file (or standard input) alone is not named.
    let one = toolargs(&["check", "--schema", &schema, "-q", &b], b"");
    assert!(one.json_lines()[0].get("file").is_none());
    // `-` among files is standard input.
    let mixed = toolargs(
        &["check", "--schema", &schema, "-q", &b, "-"],
        format!("{good}\n").as_bytes(),
    );
    assert_eq!(mixed.json_lines()[1]["file"], "-");
    // A missing file is a usage-level error before any output.
    let missing = toolargs(
        &["check", "--schema", &schema, &b, "/nonexistent/x.jsonl"],
        b"",
    );
    assert_eq!(missing.code, 2);
    assert!(missing.stdout.is_empty());
    assert!(
        missing.stderr.contains("/nonexistent/x.jsonl"),
        "{}",
        missing.stderr
    );
}

#[test]
fn a_cases_line_must_be_an_object() {
    // serde's derive would read `Case` from an array of its fields in order.
    let input = concat!(
        r#"[1, {"type": "array"}, "[1]"]"#,
        "\n",
        r#"{"id": 2, "schema": {"type": "array"}, "arguments": "[1]"}"#,
        "\n"
    );
    let out = toolargs(&["normalize", "--cases"], input.as_bytes());
    assert_eq!(out.code, 1);
    let lines = out.json_lines();
    assert_eq!(lines[0]["id"], serde_json::Value::Null);
    assert_eq!(
        lines[0]["error"],
        "line 1: not a case: a case is a JSON object, found an array"
    );
    assert_eq!(lines[1]["arguments"], serde_json::json!([1]));
}

#[test]
fn a_cases_line_is_read_at_any_depth_up_to_the_commands_limit() {
    // 202 levels (the case, its schema, the const): past serde_json's own
    // limit of 128, within the command's; then 10,003, past it.
    let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    let input = format!(
        "{{\"id\": 1, \"schema\": {{\"const\": {}}}, \"arguments\": \"&lt;\"}}\n\
         {{\"id\": 2, \"schema\": {{\"const\": {}}}, \"arguments\": 1}}\n",
        deep(200),
        deep(10_001),
    );
    let out = toolargs(&["normalize", "--cases"], input.as_bytes());
    assert_eq!(out.code, 1);
    let lines = out.json_lines();
    assert_eq!(lines[0]["arguments"], "<", "{:?}", lines[0]);
    assert_eq!(lines[1]["id"], serde_json::Value::Null);
    assert_eq!(
        lines[1]["error"],
        "line 2: not a case: JSON nests 10003 levels deep, more than the limit of 10000"
    );
}

#[test]
fn a_lone_surrogate_is_named_at_its_escape() {
    let dir = scratch("surrogate");
    let schema = write(&dir, "refund.json", REFUND);
    let out = toolargs(
        &["normalize", "--schema", &schema],
        b"{\"note\": \"\\ud800\"}\n",
    );
    assert_eq!(
        out.json_lines()[0]["error"],
        r"line 1: not JSON: lone surrogate \uD800 at line 1 column 11"
    );
    let case = b"{\"schema\": {\"title\": \"ab\\udc00\"}, \"arguments\": 1}\n";
    let out = toolargs(&["normalize", "--cases"], case);
    assert_eq!(
        out.json_lines()[0]["error"],
        r"line 1: not a case: lone surrogate \uDC00 at line 1 column 25"
    );
}

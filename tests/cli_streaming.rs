//! How `toolargs` streams JSON Lines, whatever the subcommand: line endings
//! kept, the size limit enforced line by line, the report bounded, and
//! `--jobs N` writing exactly what one thread writes.

mod cli_support;

use cli_support::{REFUND, mixed_lines, scratch, toolargs, write};

#[test]
fn crlf_line_endings_survive_in_every_line_mode() {
    let dir = scratch("crlf");
    let schema = write(&dir, "refund.json", REFUND);
    let input = "{\"tags\": \"[1]\"}\r\n{\"note\":\"a&amp;b\"}\n{}\r\nnot json\r\n{}";
    let out = toolargs(&["normalize", "--schema", &schema], input.as_bytes());
    assert_eq!(out.code, 1, "{}", out.stderr);
    let text = out.text();
    assert!(
        text.starts_with(
            "{\"tags\": [1]}\r\n{\"note\":\"a&b\"}\n{}\r\n{\"error\":\"line 4: not JSON"
        ),
        "{text:?}"
    );
    // The line after the error keeps its ending too, and a last line without
    // one gets `\n`.
    assert!(text.ends_with("\r\n{}\n"), "{text:?}");
    assert_eq!(text.matches("\r\n").count(), 3, "{text:?}");

    let case = "{\"id\":1,\"schema\":{},\"arguments\":\"&lt;\"}\r\n{\"id\":2,\"schema\":{},\"arguments\":1}\n";
    let out = toolargs(&["normalize", "--cases"], case.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.text().split_inclusive('\n').collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].ends_with("}\r\n") && lines[0].contains("\"arguments\":\"<\""));
    assert!(lines[1].ends_with("}\n") && !lines[1].ends_with("\r\n"));

    let calls = "{\"order_id\":\"ord_000001\",\"amount_cents\":1,\"reason\":\"late\"}\r\n{}\n";
    let out = toolargs(&["check", "--schema", &schema], calls.as_bytes());
    assert_eq!(out.code, 1, "the second call lacks required members");
    let lines: Vec<&str> = out.text().split_inclusive('\n').collect();
    assert!(
        lines[0].ends_with("\r\n") && lines[0].contains("\"ok\":true"),
        "{lines:?}"
    );
    assert!(
        lines[1].ends_with("}\n") && lines[1].contains("\"ok\":false"),
        "{lines:?}"
    );
}

#[test]
fn a_line_over_max_bytes_gets_an_error_line_and_the_next_lines_go_on() {
    let dir = scratch("max-bytes");
    let schema = write(&dir, "refund.json", REFUND);
    let long = format!("{{\"note\":\"{}\"}}", "x".repeat(300_000));
    let input = format!("{{\"tags\":\"[2]\"}}\n{long}\r\n{{\"tags\":\"[3]\"}}\n");
    let out = toolargs(
        &["normalize", "--schema", &schema, "--max-bytes", "1000"],
        input.as_bytes(),
    );
    assert_eq!(out.code, 1);
    let lines: Vec<&str> = out.text().split_inclusive('\n').collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "{\"tags\":[2]}\n");
    let limit = format!(
        "{{\"error\":\"line 2: arguments are {} bytes, more than the limit of 1000\"}}\r\n",
        long.len()
    );
    assert_eq!(lines[1], limit);
    assert_eq!(lines[2], "{\"tags\":[3]}\n");
    assert!(out.stderr.contains("line 2"), "{}", out.stderr);

    // The default limit (8 MiB) lets the same line through.
    let out = toolargs(&["normalize", "--schema", &schema], input.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);

    // --cases and check enforce it the same way.
    let case = format!(
        "{{\"id\":7,\"schema\":{{}},\"arguments\":{long}}}\n{{\"id\":8,\"schema\":{{}},\"arguments\":1}}\n"
    );
    let out = toolargs(
        &["normalize", "--cases", "--max-bytes", "500"],
        case.as_bytes(),
    );
    let lines = out.json_lines();
    assert_eq!(out.code, 1);
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("more than the limit of 500")
    );
    assert_eq!(lines[1]["id"], 8);
    let valid = r#"{"order_id":"ord_000001","amount_cents":1,"reason":"late"}"#;
    let calls = format!("{valid}\n{long}\n{valid}\n");
    let out = toolargs(
        &["check", "--schema", &schema, "--max-bytes", "500"],
        calls.as_bytes(),
    );
    let lines = out.json_lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["error"]["rejection"], "syntax");
    assert!(
        lines[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("limit of 500")
    );
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(lines[2]["ok"], true, "{}", lines[2]);
}

#[test]
fn max_repairs_bounds_the_report_and_counts_what_it_left_out() {
    let items: Vec<String> = (0..50).map(|i| format!("\"&amp;{i}\"")).collect();
    let case = format!(
        "{{\"id\":\"many\",\"schema\":{{\"type\":\"array\",\"items\":{{\"type\":\"string\"}}}},\"arguments\":[{}]}}\n",
        items.join(",")
    );
    let out = toolargs(
        &["normalize", "--cases", "--max-repairs", "10"],
        case.as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let line = &out.json_lines()[0];
    assert_eq!(line["repairs"].as_array().unwrap().len(), 10);
    assert_eq!(line["repairs"][9]["pointer"], "/9");
    assert_eq!(line["repairs_omitted"], 40);
    assert_eq!(
        line["arguments"].as_array().unwrap().len(),
        50,
        "the arguments are whole"
    );
    assert_eq!(line["arguments"][49], "&49");

    // Under the bound, nothing is left out and the output has no count.
    let out = toolargs(&["normalize", "--cases"], case.as_bytes());
    let line = &out.json_lines()[0];
    assert_eq!(line["repairs"].as_array().unwrap().len(), 50);
    assert!(line.get("repairs_omitted").is_none(), "{line}");
    let out = toolargs(
        &["normalize", "--cases", "--max-repairs", "0"],
        case.as_bytes(),
    );
    let line = &out.json_lines()[0];
    assert_eq!(line["repairs"], serde_json::json!([]));
    assert_eq!(line["repairs_omitted"], 50);
}

#[test]
fn jobs_write_exactly_what_one_thread_writes() {
    let dir = scratch("jobs");
    let schema = write(&dir, "refund.json", REFUND);
    let lines = 4_000;
    let input = mixed_lines(lines);
    let tools = toolargs(&["export", "--schema", &schema, "--provider", "mcp"], b"");
    assert_eq!(tools.code, 0, "{}", tools.stderr);
    let tools = write(&dir, "tools.json", tools.text());
    let calls: String = input
        .split_inclusive('\n')
        .map(|l| {
            let (body, ending) = l.split_at(l.trim_end_matches(['\r', '\n']).len());
            // Each arguments line becomes a call (bad JSON stays bad).
            format!("{{\"name\":\"refund\",\"arguments\":{body}}}{ending}")
        })
        .collect();
    let cases: String = input
        .split_inclusive('\n')
        .enumerate()
        .map(|(i, l)| {
            let (body, ending) = l.split_at(l.trim_end_matches(['\r', '\n']).len());
            format!(
                "{{\"id\":{i},\"schema\":{},\"arguments\":{body}}}{ending}",
                REFUND.replace('\n', "")
            )
        })
        .collect();
    let runs: [(&[&str], &str); 4] = [
        (&["normalize", "--schema", &schema], &input),
        (&["normalize", "--cases"], &cases),
        (&["check", "--schema", &schema], &input),
        (&["check", "--tools", &tools], &calls),
    ];
    for (args, input) in runs {
        let one = toolargs(&[args, &["--jobs", "1"]].concat(), input.as_bytes());
        let three = toolargs(&[args, &["--jobs", "3"]].concat(), input.as_bytes());
        assert_eq!(one.code, 1, "{args:?}: the mix holds bad lines");
        assert_eq!(three.code, one.code, "{args:?}");
        assert!(
            one.stdout.split(|&b| b == b'\n').count() > lines,
            "{args:?}: one line (or more) per input line"
        );
        assert!(
            one.stdout == three.stdout,
            "{args:?}: --jobs 3 differs from --jobs 1"
        );
    }
}

#[test]
fn an_unreadable_input_file_is_exit_2_and_a_closed_pipe_is_not_an_error() {
    let dir = scratch("input");
    let schema = write(&dir, "refund.json", REFUND);
    let missing = dir.join("missing.jsonl");
    let out = toolargs(
        &["normalize", "--schema", &schema, missing.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("missing.jsonl"), "{}", out.stderr);

    // A reader that stops early (`| head -1`) closes the pipe: status 0.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_toolargs"))
        .args(["normalize", "--schema", &schema, "--jobs", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        use std::io::Write;
        for _ in 0..200_000 {
            if stdin.write_all(b"{\"tags\":\"[1]\"}\n").is_err() {
                break;
            }
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 13];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    assert_eq!(&first, b"{\"tags\":[1]}\n");
    drop(stdout);
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_line_no_repair_can_touch_is_still_checked_as_json() {
    let dir = scratch("clean-lines");
    let schema = write(&dir, "refund.json", REFUND);
    // Each line is one the scan proves clean (no reference, no string that
    // starts like JSON, no `\u` escape), so no value is built for it; the
    // parser must still refuse what building a value refuses.
    let input = concat!(
        "{\"note\": \"AT&T, R&D\", \"amount_cents\": 1.50e3}\n",
        "{\"amount_cents\": 1e400}\n",
        "{\"note\": \"tab\there\"}\n",
        "[1,]\n",
        "{\"note\": \"x\"} {}\n",
        "{\"note\": \"x\", \"note\": \"y\"}\n",
    );
    let out = toolargs(&["normalize", "--schema", &schema], input.as_bytes());
    assert_eq!(out.code, 1);
    let lines: Vec<&str> = out.text().lines().collect();
    assert_eq!(
        lines[0],
        "{\"note\": \"AT&T, R&D\", \"amount_cents\": 1.50e3}"
    );
    assert!(
        lines[1].starts_with("{\"error\":\"line 2: not JSON: number out of range"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("{\"error\":\"line 3: not JSON: control character"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].starts_with("{\"error\":\"line 4: not JSON"),
        "{}",
        lines[3]
    );
    assert!(
        lines[4].starts_with("{\"error\":\"line 5: not JSON: trailing characters"),
        "{}",
        lines[4]
    );
    // A repeated key is JSON (the last one wins when a value is built).
    assert_eq!(lines[5], "{\"note\": \"x\", \"note\": \"y\"}");
}

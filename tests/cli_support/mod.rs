//! Running the built `toolargs` binary in the command-line tests.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// What one run of the command returned.
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub code: i32,
}

impl Output {
    /// Standard output as text.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.stdout).expect("the command writes UTF-8")
    }

    /// Every output line parsed as JSON.
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        self.text()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }
}

/// Runs `toolargs ARGS` with `stdin` on its standard input.
pub fn toolargs(args: &[&str], stdin: &[u8]) -> Output {
    toolargs_in(None, args, stdin)
}

/// [`toolargs`] run in `dir`, so that the file names it echoes are the
/// relative names given, the same on every machine.
pub fn toolargs_in(dir: Option<&std::path::Path>, args: &[&str], stdin: &[u8]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolargs"));
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toolargs");
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    // Written from another thread: the command may fill its output pipe
    // before it has read all of its input.
    let feeder = std::thread::spawn(move || input.write_all(&stdin));
    let out = child.wait_with_output().expect("wait for toolargs");
    // The command may stop reading early (a usage error): a closed pipe then
    // is not a failure of the test.
    let _ = feeder.join();
    Output {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// A fresh directory for one test's files, removed when dropped (also
/// when the test fails).
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// A fresh directory for one test's files.
pub fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("toolargs-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    Scratch(dir)
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write test file");
    path.to_str().expect("UTF-8 path").to_owned()
}

/// The refund tool's schema the tests share.
pub const REFUND: &str = r#"{
  "type": "object",
  "properties": {
    "order_id": {"type": "string", "pattern": "^ord_[0-9]{6}$"},
    "amount_cents": {"type": "integer", "minimum": 1, "maximum": 50000},
    "reason": {"enum": ["damaged", "late", "other"]},
    "tags": {"type": "array", "items": {"type": "string"}},
    "note": {"type": "string"}
  },
  "required": ["order_id", "amount_cents", "reason"],
  "additionalProperties": false
}"#;

/// A deterministic mix of argument lines for REFUND: clean, damaged
/// (stringified arrays, escaped text), invalid (wrong types, unknown keys),
/// not JSON, and some with CRLF endings.
pub fn mixed_lines(count: usize) -> String {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::new();
    for i in 0..count {
        let r = next();
        let order = format!("ord_{:06}", r % 1_000_000);
        let line = match r % 7 {
            0 | 1 => format!(
                r#"{{"order_id":"{order}","amount_cents":{},"reason":"late","note":"AT&T ok"}}"#,
                r % 50_000 + 1
            ),
            2 => format!(
                r#"{{"order_id":"{order}","amount_cents":1.50e2,"reason":"other","tags":"[\"a\",\"b &amp;amp; c\"]"}}"#
            ),
            3 => format!(
                r#"{{"order_id": "{order}", "amount_cents": 7, "reason": "damaged", "note": "Tom &amp;amp; Jerry #{i}"}}"#
            ),
            4 => format!(r#"{{"order_id":"x{i}","amount_cents":"20","reason":"late","extra":1}}"#),
            5 => format!(r#"{{"order_id":"{order}","amount_cents":3,"reason":"late""#),
            _ => {
                format!(r#"{{"order_id":"{order}","amount_cents":{i},"reason":"late","tags":[]}}"#)
            }
        };
        text.push_str(&line);
        text.push_str(if r % 5 == 0 { "\r\n" } else { "\n" });
    }
    text
}

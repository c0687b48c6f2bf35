//! The command's documented transcripts, run: every ```` ```console ````
//! block of `docs/command.md` and of the README is a shell session whose
//! `$ ` lines are run (by bash, in a scratch directory holding the files of
//! `tests/data/cli_docs/`, with the built `toolargs` first on `PATH`) and
//! whose other lines are what those commands print, standard output and
//! standard error together, exactly. So a transcript cannot drift from what
//! the command prints.
//!
//! After a deliberate change of output, `TOOLARGS_DOCS=overwrite cargo test
//! --test cli_docs` writes what the command prints into the documents;
//! review the diff before committing it.
//!
//! The blocks are shell sessions (`cat`, redirections, `echo $?`, pipes),
//! which is why this is a small harness of our own rather than trycmd, whose
//! transcripts run one program without a shell.

mod cli_support;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Ends each command's output in the session's combined output.
const MARK: &str = "\u{1e}toolargs-docs-end";

/// One command of a transcript and what it must print.
#[derive(Debug)]
struct Step {
    /// Line of the `$ ` in the document.
    line: usize,
    command: String,
    expected: String,
}

/// The ```` ```console ```` blocks of `text`, each a list of steps.
fn sessions(text: &str) -> Vec<Vec<Step>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Step>> = None;
    for (i, line) in text.lines().enumerate() {
        match &mut current {
            None if line.trim_end() == "```console" => current = Some(Vec::new()),
            None => {}
            Some(_) if line.trim_end() == "```" => blocks.extend(current.take()),
            Some(steps) => {
                if let Some(command) = line.strip_prefix("$ ") {
                    steps.push(Step {
                        line: i + 1,
                        command: command.to_owned(),
                        expected: String::new(),
                    });
                } else {
                    let step = steps
                        .last_mut()
                        .unwrap_or_else(|| panic!("line {}: output before any `$ `", i + 1));
                    step.expected.push_str(line);
                    step.expected.push('\n');
                }
            }
        }
    }
    assert!(current.is_none(), "a ```console block is not closed");
    blocks
}

/// Runs one session in a fresh copy of the fixtures and compares each
/// step's output; returns what each step printed.
fn run(doc: &str, steps: &[Step], failures: &mut Vec<String>) -> Vec<String> {
    let dir = cli_support::scratch(&format!("docs-{}", steps[0].line));
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cli_docs");
    for entry in std::fs::read_dir(&fixtures).expect("tests/data/cli_docs") {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_toolargs"));
    let mut script = String::from("exec 2>&1\n");
    for step in steps {
        // `$?` after the mark is still the step's own status.
        script.push_str(&format!(
            "{}\n__status=$?; printf '%s\\n' '{MARK}'; (exit $__status)\n",
            step.command
        ));
    }
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(&*dir)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin.parent().unwrap().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
        .expect("run bash");
    let text = String::from_utf8_lossy(&out.stdout);
    let mark = format!("{MARK}\n");
    let mut outputs = text.split(&mark);
    let mut printed = Vec::new();
    for step in steps {
        let got = outputs
            .next()
            .unwrap_or("<no output: the session ended early>\n");
        if got != step.expected {
            failures.push(format!(
                "{doc}:{}: `$ {}`\n--- documented\n{}--- printed\n{}",
                step.line, step.command, step.expected, got
            ));
        }
        printed.push(got.to_owned());
    }
    printed
}

/// `text` with each step's documented output replaced by `printed`, the
/// outputs of the steps in document order.
fn overwrite(text: &str, printed: &[String]) -> String {
    let mut out = String::new();
    let mut outputs = printed.iter();
    let mut in_block = false;
    for line in text.lines() {
        if !in_block {
            in_block = line.trim_end() == "```console";
        } else if line.trim_end() == "```" {
            in_block = false;
        } else if line.starts_with("$ ") {
            out.push_str(line);
            out.push('\n');
            let printed = outputs.next().expect("one output per step");
            out.push_str(printed);
            // A transcript cannot show output without a final line ending.
            if !printed.is_empty() && !printed.ends_with('\n') {
                out.push('\n');
            }
            continue;
        } else {
            // A documented output line: replaced by what was printed.
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn check(doc: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{doc}: {e}"));
    let mut failures = Vec::new();
    let blocks = sessions(&text);
    let mut printed = Vec::new();
    for steps in blocks.iter().filter(|steps| !steps.is_empty()) {
        printed.extend(run(doc, steps, &mut failures));
    }
    if !failures.is_empty() && std::env::var_os("TOOLARGS_DOCS").is_some_and(|v| v == "overwrite") {
        std::fs::write(&path, overwrite(&text, &printed)).unwrap();
        return blocks.iter().map(Vec::len).sum();
    }
    assert!(
        failures.is_empty(),
        "{} transcript step(s) differ from what the command prints:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
    blocks.iter().map(Vec::len).sum()
}

#[test]
fn the_command_guide_prints_what_it_says() {
    let steps = check("docs/command.md");
    assert!(steps >= 10, "the guide runs {steps} commands");
}

#[test]
fn the_readme_prints_what_it_says() {
    check("README.md");
}

#[test]
fn a_transcript_that_drifts_is_caught() {
    let text = "```console\n$ echo one\none\n$ echo two; false\ntwo\n$ echo $?\n1\n```\n";
    let blocks = sessions(text);
    assert_eq!(blocks.len(), 1);
    let mut failures = Vec::new();
    run("inline", &blocks[0], &mut failures);
    assert!(failures.is_empty(), "{failures:?}");
    let drifted = "```console\n$ echo one\nOne\n$ true\n```\n";
    let printed = run("inline", &sessions(drifted)[0], &mut failures);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(
        overwrite(drifted, &printed),
        "```console\n$ echo one\none\n$ true\n```\n"
    );
}

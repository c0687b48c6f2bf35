//! RT-TOOL-8 cases through the public API. Reads the shared file when it is
//! there (it may have grown) and the copy in `tests/data/` otherwise.

mod support;

use serde::Deserialize;
use serde_json::Value;
use toolargs::{Normalizer, entities::EntityMode, normalizer::Options};

#[derive(Deserialize)]
struct Case {
    id: String,
    schema: Value,
    arguments: Value,
    #[serde(default)]
    options: CaseOptions,
    expected: Value,
}

#[derive(Deserialize, Default)]
struct CaseOptions {
    entities: Option<EntityMode>,
    max_passes: Option<u32>,
}

fn cases() -> Vec<String> {
    support::rt_tool_8_text()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn rt_tool_8_cases() {
    let lines = cases();
    assert!(
        lines.len() >= 31,
        "expected at least the 31 published cases"
    );
    let mut failures = Vec::new();
    for line in &lines {
        let case: Case = serde_json::from_str(line).expect("a case");
        let mut options = Options::default();
        if let Some(mode) = case.options.entities {
            options = options.entities(mode);
        }
        if let Some(passes) = case.options.max_passes {
            options = options.max_passes(passes);
        }
        let normalizer = match Normalizer::compile(&case.schema) {
            Ok(n) => n.with_options(options),
            Err(e) => {
                failures.push(format!("{}: schema did not compile: {e}", case.id));
                continue;
            }
        };
        let mut args = case.arguments.clone();
        match normalizer.normalize(&mut args) {
            Ok(_) if args == case.expected => {}
            Ok(_) => failures.push(format!(
                "{}: got {args}, expected {}",
                case.id, case.expected
            )),
            Err(e) => failures.push(format!("{}: {e}", case.id)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} RT-TOOL-8 cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

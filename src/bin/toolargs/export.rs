//! `toolargs export`: each provider's tool definitions for a schema or a
//! tools file, built by the same toolbox that validates calls, so what a
//! provider is shown is what `toolargs check` enforces.

use crate::fatal::Fatal;
use clap::ValueEnum;
use serde_json::{Map, Value};
use std::io::Write;
use toolargs::export::{Dialect, Provider};
use toolargs::normalizer::Options;

/// Which provider's definitions to print.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Every provider, as one object keyed by the names below.
    All,
    /// OpenAI Chat Completions `tools`.
    OpenaiChat,
    /// OpenAI Responses `tools`.
    OpenaiResponses,
    /// Anthropic Messages `tools`.
    Anthropic,
    /// An MCP `tools/list` result.
    Mcp,
    /// A Gemini tool (`functionDeclarations`).
    Gemini,
}

impl Target {
    /// The provider, or `None` for all of them.
    fn provider(self) -> Option<Provider> {
        match self {
            Target::All => None,
            Target::OpenaiChat => Some(Provider::OpenAiChat),
            Target::OpenaiResponses => Some(Provider::OpenAiResponses),
            Target::Anthropic => Some(Provider::Anthropic),
            Target::Mcp => Some(Provider::Mcp),
            Target::Gemini => Some(Provider::Gemini),
        }
    }
}

/// Print the tool definitions of a schema or a tools file for one provider
/// or all of them.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub source: crate::tools_file::Source,
    /// The provider whose definition format to write.
    #[arg(long, value_enum, default_value = "all")]
    pub provider: Target,
    /// Export the OpenAI strict form (`"strict": true` for OpenAI; every
    /// provider is shown the strict schema that `check --strict` validates).
    #[arg(long)]
    pub strict: bool,
    /// One line of JSON instead of indented JSON.
    #[arg(long)]
    pub compact: bool,
}

/// Prints the definitions on `out`.
///
/// # Errors
///
/// The file cannot be read, a tool cannot be registered (an invalid name, a
/// schema that does not compile or has no strict form), or writing failed.
pub fn run(args: &ExportArgs, out: &mut dyn Write) -> Result<bool, Fatal> {
    let tools = args.source.load()?;
    let dialect = if args.strict {
        Dialect::OpenAiStrict
    } else {
        Dialect::Canonical
    };
    let toolbox = args.source.toolbox(&tools, dialect, Options::default())?;
    let value = match args.provider.provider() {
        Some(provider) => toolbox.export(provider),
        None => Value::Object(
            Target::value_variants()
                .iter()
                .filter_map(|target| {
                    let provider = target.provider()?;
                    let key = target.to_possible_value()?.get_name().to_owned();
                    Some((key, toolbox.export(provider)))
                })
                .collect::<Map<String, Value>>(),
        ),
    };
    if args.compact {
        serde_json::to_writer(&mut *out, &value)
    } else {
        serde_json::to_writer_pretty(&mut *out, &value)
    }
    .map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(true)
}

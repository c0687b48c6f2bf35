//! Errors that stop a subcommand before or while it streams, and the exit
//! status each one means.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// What ends a run early. A bad input *line* is not one of these: it gets
/// its own output line and the run goes on.
#[derive(Debug, thiserror::Error)]
pub enum Fatal {
    /// A schema or tools file that cannot be read or is not JSON.
    #[error("{path}: {message}")]
    Unreadable {
        /// The file given on the command line.
        path: String,
        /// Why it could not be used.
        message: String,
    },
    /// A schema (or a tool in a tools file) that does not compile.
    #[error("{path}: {message}")]
    Schema {
        /// The file given on the command line.
        path: String,
        /// What the compiler said.
        message: String,
    },
    /// Reading the input or writing the output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl Fatal {
    /// The exit status: 2 for everything but a closed output pipe, which is
    /// how a reader such as `head` says it has read enough (status 0).
    pub fn exit_code(&self, program: &str) -> ExitCode {
        if matches!(self, Fatal::Io(e) if e.kind() == io::ErrorKind::BrokenPipe) {
            return ExitCode::SUCCESS;
        }
        eprintln!("{program}: {self}");
        ExitCode::from(2)
    }
}

/// Runs `body` with buffered standard output on a thread whose stack holds
/// the deepest nesting the subcommands accept, and turns its outcome into
/// the exit status: 0 when every line passed, 1 when one failed, 2 (or 0 for
/// a closed pipe) for a [`Fatal`] error.
pub fn main_with(
    program: &'static str,
    body: impl FnOnce(&mut dyn Write) -> Result<bool, Fatal> + Send + 'static,
) -> ExitCode {
    let worker = std::thread::Builder::new()
        .stack_size(crate::lines::STACK_BYTES)
        .spawn(move || {
            let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
            let all_ok = body(&mut out)?;
            out.flush()?;
            Ok(all_ok)
        });
    let outcome = match worker {
        Ok(worker) => worker
            .join()
            .unwrap_or_else(|_| Err(Fatal::Io(io::Error::other("a worker thread panicked")))),
        Err(e) => Err(Fatal::Io(e)),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(fatal) => fatal.exit_code(program),
    }
}

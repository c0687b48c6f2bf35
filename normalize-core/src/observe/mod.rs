//! What the models get wrong, as records a service can log and count.
//!
//! Every normalization repair and every failed call becomes a [`Record`]
//! (tool, JSON pointer, kind). An [`Observer`] receives them as the toolbox
//! works; a [`Ledger`] is an observer that aggregates them by tool and
//! path; a [`RetryBudget`] tells a conversation loop when to stop asking
//! the model to try again. With the `tracing` feature each record is also
//! emitted as a `tracing` event (target `toolargs`).

mod budget;
mod ledger;
mod record;

pub use budget::{DEFAULT_RETRY_LIMIT, RetryBudget, RetryVerdict, StopReason};
pub use ledger::{Ledger, PathSummary};
pub use record::{Record, RecordKind, failure_records, repair_records};

/// Receives records as calls are processed. Implementations must be cheap
/// and must not panic: they run inside every call.
pub trait Observer: Send + Sync {
    /// One record.
    fn record(&self, record: &Record);
}

/// Sends `record` to `observer` (if any) and, with the `tracing` feature,
/// to `tracing`.
pub(crate) fn emit(observer: Option<&dyn Observer>, record: &Record) {
    #[cfg(feature = "tracing")]
    record::trace(record);
    if let Some(observer) = observer {
        observer.record(record);
    }
}

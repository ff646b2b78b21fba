//! Progress of long runs. The library's long loops (`pith eval`, `pith train`, `pith bench`) say here
//! which phase they are in and when a step of it is done; a front end that wants to show it (the CLI's
//! progress bar on a terminal) installs an [`Observer`] once. With none installed, as in the service,
//! the tests and other library users, a report costs one atomic load.
//!
//! Why a process-wide observer rather than a callback parameter: progress crosses every layer of a run
//! (cross-validation trains models, training extracts pages), and threading a callback through each
//! signature would couple them all to a display concern that none of them acts on.

use std::sync::OnceLock;

/// Receives progress reports. Called from worker threads, so it must be cheap and thread-safe.
pub trait Observer: Send + Sync {
    /// A new phase starts: its name and, when known, how many steps it has.
    fn phase(&self, name: &str, total: Option<u64>);
    /// `n` more steps of the current phase are done.
    fn advance(&self, n: u64);
}

static OBSERVER: OnceLock<Box<dyn Observer>> = OnceLock::new();

/// Install the process's observer; `false` when one was installed already (the first one stays).
pub fn observe(observer: Box<dyn Observer>) -> bool {
    OBSERVER.set(observer).is_ok()
}

/// Report the start of a phase.
pub fn phase(name: &str, total: Option<u64>) {
    if let Some(o) = OBSERVER.get() {
        o.phase(name, total);
    }
}

/// Report steps done in the current phase.
pub fn advance(n: u64) {
    if let Some(o) = OBSERVER.get() {
        o.advance(n);
    }
}

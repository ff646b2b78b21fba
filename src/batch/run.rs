//! The pipeline: one reader thread sends items into a bounded channel, worker threads extract them
//! and send lines into a second bounded channel, and the calling thread writes the lines. The channels
//! hold at most a few pages per worker, so memory stays bounded whatever the archive's size. Lines
//! come out in completion order; each names its record.

use std::collections::HashSet;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use super::item::{Counts, Item};
use super::lines::line;
use super::read::Feed;
use crate::engine::{Engine, Options};
use crate::error::Error;
use crate::site::SiteStore;

/// How a run extracts: the options of every page, the workers, and the sites' templates when they
/// were learned first.
#[derive(Clone, Copy)]
pub struct Work<'a> {
    pub engine: &'a Engine,
    pub options: Options,
    /// Worker threads (at least one).
    pub jobs: usize,
    pub sites: Option<&'a SiteStore>,
}

/// What a run did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Summary {
    /// Lines written.
    pub written: u64,
    /// Of those, error lines.
    pub errors: u64,
    /// What was skipped without a line.
    pub counts: Counts,
}

/// Run the pipeline. `read` sends the items into the feed it is given (on a thread of its own; items
/// whose key is in `done` are skipped there) and returns when the inputs are exhausted or the feed
/// refuses; `write` receives each line, and whether it is a result (false: an error line).
pub fn run<R, W>(work: Work<'_>, done: &HashSet<String>, read: R, mut write: W) -> Result<Summary, Error>
where
    R: FnOnce(&mut Feed<'_>) -> Result<(), Error> + Send,
    W: FnMut(&[u8], bool) -> Result<(), Error>,
{
    let jobs = work.jobs.max(1);
    let (page_tx, page_rx) = sync_channel::<Item>(jobs * 2);
    let (line_tx, line_rx) = sync_channel::<(Vec<u8>, bool)>(jobs * 4);
    // Shared by the workers alone: when they are gone (the writer failed), the reader's next send
    // fails and it stops too.
    let page_rx = Arc::new(Mutex::new(page_rx));
    let mut summary = Summary::default();
    std::thread::scope(|s| -> Result<(), Error> {
        let reader = s.spawn(move || {
            let mut send = |item: Item| page_tx.send(item).is_ok();
            let mut feed = Feed::new(done, &mut send);
            read(&mut feed).map(|()| feed.counts)
        });
        for _ in 0..jobs {
            let (rx, tx) = (page_rx.clone(), line_tx.clone());
            s.spawn(move || extract_all(work, &rx, &tx));
        }
        drop((line_tx, page_rx));
        for (line, ok) in line_rx {
            write(&line, ok)?;
            summary.written += 1;
            summary.errors += u64::from(!ok);
        }
        summary.counts = reader.join().map_err(|_| Error::Config("the input reader panicked".into()))??;
        Ok(())
    })?;
    Ok(summary)
}

/// Extract items until the channel closes.
fn extract_all(work: Work<'_>, rx: &Mutex<Receiver<Item>>, tx: &SyncSender<(Vec<u8>, bool)>) {
    each(rx, |item| tx.send(line(work.engine, item, work.options, work.sites)).is_ok());
}

/// Take what a channel shared between workers brings, one at a time, until it closes or `f` answers
/// false (its own receiver is gone).
pub(super) fn each<T>(rx: &Mutex<Receiver<T>>, mut f: impl FnMut(T) -> bool) {
    loop {
        let next = match rx.lock() {
            Ok(r) => r.recv(),
            Err(_) => return,
        };
        let Ok(item) = next else { return };
        if !f(item) {
            return;
        }
    }
}

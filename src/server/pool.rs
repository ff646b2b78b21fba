//! The bounded extraction pool. Extraction is CPU-bound and must not run on the async workers, so it
//! runs under `spawn_blocking`, gated by two semaphores:
//!
//! * `admission` (workers + queue depth permits) is taken with `try_acquire`: when it is exhausted the
//!   request is answered 503 at once, instead of queueing without end while the caller times out;
//! * `workers` (one permit per worker) is awaited, so at most `workers` extractions run at a time and
//!   the rest wait in a queue of bounded length.
//!
//! Permits move into the blocking closure, so a caller that disconnects does not free a worker whose
//! thread is still busy.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use tokio::sync::Semaphore;

use super::error::ApiError;

pub struct Pool {
    admission: Arc<Semaphore>,
    workers: Arc<Semaphore>,
    pub worker_count: usize,
    pub queue_depth: usize,
    retry_after_secs: u64,
    /// Jobs admitted and waiting for a worker.
    pub queued: AtomicI64,
    /// Jobs running.
    pub running: Arc<AtomicI64>,
}

/// Decrements a gauge when dropped (also when the waiting future is cancelled).
struct Gauge<'a>(&'a AtomicI64);

impl Drop for Gauge<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Pool {
    pub fn new(worker_count: usize, queue_depth: usize, retry_after_secs: u64) -> Pool {
        Pool {
            admission: Arc::new(Semaphore::new(worker_count + queue_depth)),
            workers: Arc::new(Semaphore::new(worker_count)),
            worker_count,
            queue_depth,
            retry_after_secs,
            queued: AtomicI64::new(0),
            running: Arc::new(AtomicI64::new(0)),
        }
    }

    /// Run `job` on a worker, or answer 503 if the queue is full.
    pub async fn run<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let admitted = self.admission.clone().try_acquire_owned().map_err(|_| ApiError::Unavailable {
            detail: format!(
                "the extraction pool is full ({} running, {} queued); retry later",
                self.worker_count, self.queue_depth
            ),
            retry_after_secs: self.retry_after_secs,
        })?;
        self.queued.fetch_add(1, Ordering::Relaxed);
        let waiting = Gauge(&self.queued);
        let worker = self.workers.clone().acquire_owned().await.map_err(|_| ApiError::Unavailable {
            detail: "the extraction pool is closed".into(),
            retry_after_secs: self.retry_after_secs,
        })?;
        drop(waiting);
        let running = self.running.clone();
        running.fetch_add(1, Ordering::Relaxed);
        let handle = tokio::task::spawn_blocking(move || {
            let out = job();
            running.fetch_sub(1, Ordering::Relaxed);
            drop((worker, admitted));
            out
        });
        handle.await.map_err(|e| ApiError::Internal(format!("extraction task failed: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn full_pool_answers_503_at_once() {
        let pool = Arc::new(Pool::new(1, 0, 2));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let p = pool.clone();
        let first = tokio::spawn(async move { p.run(move || rx.recv().is_ok()).await });
        while pool.running.load(Ordering::Relaxed) == 0 {
            tokio::task::yield_now().await;
        }
        let second = pool.run(|| true).await;
        assert!(matches!(second, Err(ApiError::Unavailable { retry_after_secs: 2, .. })));
        tx.send(()).unwrap();
        assert!(first.await.unwrap().unwrap());
        assert!(pool.run(|| true).await.unwrap());
    }
}

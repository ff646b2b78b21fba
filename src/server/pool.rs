//! The bounded extraction pool. Extraction is CPU-bound and must not run on the async workers, so it
//! runs under `spawn_blocking`, gated by two semaphores:
//!
//! * `admission` (workers + queue depth permits) is taken with `try_acquire`: when it is exhausted the
//!   request is answered 503 at once, instead of queueing without end while the caller times out;
//! * `memory` (one permit per KiB of `pool.memory_budget_bytes`) is awaited next, for the request's
//!   expected peak ([`expected_peak`]: a constant plus a multiple of its input size), so that two
//!   large pages do not run side by side when together they would pass the budget: the second waits
//!   for the first instead of both being killed with the process;
//! * `workers` (one permit per worker) is awaited, so at most `workers` extractions run at a time and
//!   the rest wait in a queue of bounded length.
//!
//! Permits move into the blocking closure, so a caller that disconnects does not free a worker whose
//! thread is still busy.
//!
//! **The small-page lane.** Both semaphores are fair (first come, first served), so an ordinary page
//! that arrives behind a large one waits for it: in a soak with 4–8 MB pages among ordinary ones, a
//! 29 KB extraction took 173 ms at p99 and up to 1 s (with the lane: 9.7 ms at p99). A page of at most [`LANE_MAX_INPUT_BYTES`] that
//! cannot start at once runs instead on one extra thread with its own memory reserve
//! ([`lane_reserve_bytes`], outside `pool.memory_budget_bytes`), when that lane is free.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use tokio::sync::Semaphore;

use super::error::ApiError;

/// Memory an extraction may hold at its peak besides what grows with its input.
pub const PEAK_BASE_BYTES: u64 = 4 << 20;

/// Peak bytes per input byte: the worst that `pith adversarial` measured for `auto` over its hostile
/// classes (150.5 MB per MB with the binary's jemalloc, 122.6 with glibc's malloc, for content
/// foster-parented out of a table), rounded up. Real pages stay near a fifth of it; the work budget
/// (`limits.dom`: nodes per byte of input) keeps hostile pages from going further.
pub const PEAK_PER_INPUT_BYTE: u64 = 160;

/// What an extraction of `input_bytes` bytes is expected to hold at its peak, at worst.
pub fn expected_peak(input_bytes: usize) -> u64 {
    PEAK_BASE_BYTES + PEAK_PER_INPUT_BYTE * input_bytes as u64
}

/// Pages this small (or smaller) may take the small-page lane.
pub const LANE_MAX_INPUT_BYTES: usize = 256 << 10;

/// Memory the small-page lane holds at most (one page of [`LANE_MAX_INPUT_BYTES`]), beside the budget.
pub fn lane_reserve_bytes() -> u64 {
    expected_peak(LANE_MAX_INPUT_BYTES)
}

/// Pages this large (or larger) are followed by [`release_free_memory`].
const RELEASE_AFTER_INPUT_BYTES: usize = 1 << 20;

/// Give the allocator's free pages back to the system. A large page's extraction frees hundreds of
/// MB in pieces, which the allocator may keep. With glibc's malloc, in a 10-minute soak with 4–8 MB
/// pages among ordinary ones (`scripts/soak.py`, the pod's settings, cache bypassed) the process grew
/// from 455 MiB (median of the run's second fifth) to 603 MiB (last fifth), 625 MiB at most, past the
/// pod's 512 MiB; with `malloc_trim` after every page of 1 MB or more: 152 → 201 MiB, 345 MiB at most.
/// The `pith` binary allocates with jemalloc, whose arenas are purged here the same way; the glibc
/// call stays for programs that embed the library with the system allocator.
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
    #[cfg(not(target_env = "msvc"))]
    // SAFETY: `arena.<MALLCTL_ARENAS_ALL>.purge` takes no input and writes no output (all pointers
    // null); the name is a NUL-terminated string.
    unsafe {
        tikv_jemalloc_sys::mallctl(
            c"arena.4096.purge".as_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
        );
    }
}

pub struct Pool {
    admission: Arc<Semaphore>,
    /// The small-page lane: one extraction at a time, beside the workers.
    lane: Arc<Semaphore>,
    /// KiB of the memory budget.
    memory: Arc<Semaphore>,
    memory_kib: u32,
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
    pub fn new(worker_count: usize, queue_depth: usize, memory_budget_bytes: u64, retry_after_secs: u64) -> Pool {
        let memory_kib = u32::try_from(memory_budget_bytes / 1024).unwrap_or(u32::MAX).max(1);
        Pool {
            admission: Arc::new(Semaphore::new(worker_count + queue_depth)),
            lane: Arc::new(Semaphore::new(1)),
            memory: Arc::new(Semaphore::new(memory_kib as usize)),
            memory_kib,
            workers: Arc::new(Semaphore::new(worker_count)),
            worker_count,
            queue_depth,
            retry_after_secs,
            queued: AtomicI64::new(0),
            running: Arc::new(AtomicI64::new(0)),
        }
    }

    /// KiB of the memory budget free now.
    pub fn memory_free_bytes(&self) -> u64 {
        self.memory.available_permits() as u64 * 1024
    }

    /// Run `job` (an extraction of `input_bytes` bytes) on a worker once its expected memory fits the
    /// budget, or answer 503 if the queue is full. A request expected to need more than the whole
    /// budget waits until it has the budget to itself.
    pub async fn run<T, F>(&self, input_bytes: usize, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let kib = u32::try_from(expected_peak(input_bytes).div_ceil(1024)).unwrap_or(u32::MAX).min(self.memory_kib);
        if input_bytes <= LANE_MAX_INPUT_BYTES {
            // Start at once on a free worker, else on the free lane, else wait like any other page.
            let now = (self.admission.clone().try_acquire_owned(), self.memory.clone().try_acquire_many_owned(kib));
            if let (Ok(admitted), Ok(memory)) = now
                && let Ok(worker) = self.workers.clone().try_acquire_owned()
            {
                return self.spawn(job, (worker, memory, admitted), input_bytes).await;
            }
            if let Ok(lane) = self.lane.clone().try_acquire_owned() {
                return self.spawn(job, lane, input_bytes).await;
            }
        }
        let admitted = self.admission.clone().try_acquire_owned().map_err(|_| ApiError::Unavailable {
            detail: format!(
                "the extraction pool is full ({} running, {} queued); retry later",
                self.worker_count, self.queue_depth
            ),
            retry_after_secs: self.retry_after_secs,
        })?;
        self.queued.fetch_add(1, Ordering::Relaxed);
        let waiting = Gauge(&self.queued);
        let closed = || ApiError::Unavailable {
            detail: "the extraction pool is closed".into(),
            retry_after_secs: self.retry_after_secs,
        };
        let memory = self.memory.clone().acquire_many_owned(kib).await.map_err(|_| closed())?;
        let worker = self.workers.clone().acquire_owned().await.map_err(|_| closed())?;
        drop(waiting);
        self.spawn(job, (worker, memory, admitted), input_bytes).await
    }

    /// Run `job` on a blocking thread, holding `permits` until it ends. After a large page the
    /// allocator is asked to give its free memory back ([`release_free_memory`]).
    async fn spawn<T, F, P>(&self, job: F, permits: P, input_bytes: usize) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
        P: Send + 'static,
    {
        let running = self.running.clone();
        running.fetch_add(1, Ordering::Relaxed);
        let handle = tokio::task::spawn_blocking(move || {
            let out = job();
            if input_bytes >= RELEASE_AFTER_INPUT_BYTES {
                release_free_memory();
            }
            running.fetch_sub(1, Ordering::Relaxed);
            drop(permits);
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
        let pool = Arc::new(Pool::new(1, 0, 1 << 30, 2));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let p = pool.clone();
        let first = tokio::spawn(async move { p.run(10, move || rx.recv().is_ok()).await });
        while pool.running.load(Ordering::Relaxed) == 0 {
            tokio::task::yield_now().await;
        }
        // A small page that cannot start at once takes the lane; a large one is refused.
        let (lane_tx, lane_rx) = std::sync::mpsc::channel::<()>();
        let p = pool.clone();
        let on_lane = tokio::spawn(async move { p.run(10, move || lane_rx.recv().is_ok()).await });
        while pool.running.load(Ordering::Relaxed) < 2 {
            tokio::task::yield_now().await;
        }
        let large = pool.run(LANE_MAX_INPUT_BYTES + 1, || true).await;
        assert!(matches!(large, Err(ApiError::Unavailable { retry_after_secs: 2, .. })));
        // With the lane busy too, a small page is refused as well.
        let second = pool.run(10, || true).await;
        assert!(matches!(second, Err(ApiError::Unavailable { retry_after_secs: 2, .. })));
        tx.send(()).unwrap();
        lane_tx.send(()).unwrap();
        assert!(first.await.unwrap().unwrap());
        assert!(on_lane.await.unwrap().unwrap());
        assert!(pool.run(10, || true).await.unwrap());
    }

    #[tokio::test]
    async fn large_pages_wait_for_memory_not_only_for_workers() {
        // Two workers, a budget that holds one large page's expected peak but not two.
        let large = 1 << 20;
        let budget = expected_peak(large) * 3 / 2;
        let pool = Arc::new(Pool::new(2, 4, budget, 1));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let p = pool.clone();
        let first = tokio::spawn(async move { p.run(large, move || rx.recv().is_ok()).await });
        while pool.running.load(Ordering::Relaxed) == 0 {
            tokio::task::yield_now().await;
        }
        assert!(pool.memory_free_bytes() < expected_peak(large));
        // A small page still runs beside it; a second large one waits, queued, although a worker is free.
        assert!(pool.run(1000, || true).await.unwrap());
        let p = pool.clone();
        let second = tokio::spawn(async move { p.run(large, || true).await });
        while pool.queued.load(Ordering::Relaxed) == 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(pool.running.load(Ordering::Relaxed), 1);
        tx.send(()).unwrap();
        assert!(first.await.unwrap().unwrap());
        assert!(second.await.unwrap().unwrap());
        // A page expected to need more than the whole budget runs alone instead of never.
        assert!(pool.run(100 << 20, || true).await.unwrap());
        assert_eq!(pool.memory_free_bytes(), budget / 1024 * 1024);
    }

    #[tokio::test]
    async fn a_small_page_does_not_wait_behind_a_large_one() {
        // One worker busy with a large page, a second large page waiting for the memory budget: an
        // ordinary page runs on the lane at once instead of queueing behind both.
        let large = 1 << 20;
        let pool = Arc::new(Pool::new(1, 4, expected_peak(large), 1));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let p = pool.clone();
        let first = tokio::spawn(async move { p.run(large, move || rx.recv().is_ok()).await });
        while pool.running.load(Ordering::Relaxed) == 0 {
            tokio::task::yield_now().await;
        }
        let p = pool.clone();
        let second = tokio::spawn(async move { p.run(large, || true).await });
        while pool.queued.load(Ordering::Relaxed) == 0 {
            tokio::task::yield_now().await;
        }
        let small = tokio::time::timeout(std::time::Duration::from_secs(5), pool.run(29 << 10, || true)).await;
        assert!(matches!(small, Ok(Ok(true))), "the small page waited");
        tx.send(()).unwrap();
        assert!(first.await.unwrap().unwrap());
        assert!(second.await.unwrap().unwrap());
    }
}

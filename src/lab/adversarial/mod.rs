//! `pith adversarial`: hostile pages, and what they cost.
//!
//! [`corpus`] has one generator per hostile class (attributes, nesting, implied end tags, form and table
//! contexts, many siblings, long text and entity runs, many classes, a huge title, unclosed raw-text
//! elements...). [`measure`] runs one case — a class at a size — through [`Engine::extract`] with the
//! service's default request and reports its time and the growth of the process's peak resident set.
//! Because the peak of a process only ever grows, [`check`] runs every case in a child process of its
//! own (the `pith` binary, re-invoked with `adversarial --case`), compares each figure per MB of input
//! with a bound and reports them all: a benchmark with generous bounds, not a timed unit test.
//! [`fuzz`] is the mutation loop over [`Engine::extract`].

pub mod corpus;
pub mod fuzz;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::{algorithms::Algorithm, engine::Engine, engine::Request, error::Error};
pub use corpus::{CLASSES, Class, class};

/// One case measured in its own process.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Measurement {
    pub class: String,
    pub algorithm: String,
    pub bytes: usize,
    /// Wall-clock milliseconds of `Engine::extract`.
    pub ms: f64,
    /// Peak resident set (VmHWM) minus the resident set before the page was generated, KiB: the page
    /// itself and everything the extraction allocated at its peak.
    pub peak_kib: u64,
    /// `ok`, or the error's code (`page-too-complex` is an answer, not a failure).
    pub outcome: String,
}

impl Measurement {
    fn mb(&self) -> f64 {
        (self.bytes as f64 / 1e6).max(1e-6)
    }
    pub fn ms_per_mb(&self) -> f64 {
        self.ms / self.mb()
    }
    pub fn peak_mb_per_mb(&self) -> f64 {
        self.peak_kib as f64 / 1024.0 / self.mb()
    }
}

/// A `/proc/self/status` field in KiB (Linux; `None` elsewhere).
fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Generate `class` at `bytes` bytes and extract it once with the service's default request (text,
/// HTML and blocks), in this process. Meant for a fresh process: the peak resident set is the
/// process's, so an earlier, larger allocation would hide this one.
pub fn measure(engine: &Engine, class: &Class, bytes: usize, algorithm: Algorithm) -> Measurement {
    let base = status_kib("VmRSS:").unwrap_or(0);
    let page = class.generate(bytes);
    let req = Request::with_options(page.as_bytes(), crate::engine::Options::for_algorithm(algorithm));
    let t = Instant::now();
    let result = engine.extract(&req);
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let peak = status_kib("VmHWM:").unwrap_or(0);
    let outcome = match &result {
        Ok(_) => "ok".to_string(),
        Err(e) => e.code().to_string(),
    };
    drop(result);
    Measurement {
        class: class.name.to_string(),
        algorithm: algorithm.to_string(),
        bytes: page.len(),
        ms,
        peak_kib: peak.saturating_sub(base),
        outcome,
    }
}

/// Bounds per MB of input, and a constant allowance for small pages.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub ms_per_mb: f64,
    pub peak_mb_per_mb: f64,
    /// Added to both bounds: the cost of any page, however small.
    pub base_ms: f64,
    pub base_mb: f64,
}

/// A case's verdict against the bounds.
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    #[serde(flatten)]
    pub m: Measurement,
    pub ms_per_mb: f64,
    pub peak_mb_per_mb: f64,
    pub within: bool,
}

impl Bounds {
    pub fn judge(&self, m: Measurement) -> Verdict {
        let mb = m.bytes as f64 / 1e6;
        let within = m.ms <= self.base_ms + self.ms_per_mb * mb
            && (m.peak_kib as f64 / 1024.0) <= self.base_mb + self.peak_mb_per_mb * mb
            && matches!(m.outcome.as_str(), "ok" | "page-too-complex");
        Verdict { ms_per_mb: m.ms_per_mb(), peak_mb_per_mb: m.peak_mb_per_mb(), within, m }
    }
}

/// Run every (class, size, algorithm) case in a child process of `exe` (`pith adversarial --case`),
/// one at a time, and judge each. `on_case` sees each verdict as it comes.
pub fn check(
    exe: &Path,
    classes: &[&Class],
    sizes: &[usize],
    algorithms: &[Algorithm],
    bounds: Bounds,
    timeout: Duration,
    mut on_case: impl FnMut(&Verdict),
) -> Result<Vec<Verdict>, Error> {
    let mut out = Vec::new();
    for c in classes {
        for &bytes in sizes {
            for a in algorithms {
                let mut child = Command::new(exe)
                    .args(["adversarial", "--case", c.name, "--bytes", &bytes.to_string(), "--algorithm"])
                    .arg(a.to_string())
                    .stdout(Stdio::piped())
                    .spawn()?;
                // A case that hangs is killed at the timeout and reported, never waited on forever.
                let started = Instant::now();
                let status = loop {
                    if let Some(status) = child.try_wait()? {
                        break Some(status);
                    }
                    if started.elapsed() > timeout {
                        child.kill()?;
                        child.wait()?;
                        break None;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                };
                let mut stdout = Vec::new();
                if let Some(mut out) = child.stdout.take() {
                    out.read_to_end(&mut stdout)?;
                }
                let m: Measurement = if status.is_some_and(|s| s.success()) {
                    serde_json::from_slice(&stdout).map_err(|e| {
                        Error::Config(format!("{} at {bytes} bytes: unreadable measurement: {e}", c.name))
                    })?
                } else {
                    // A crash (or an abort on stack overflow) is a failed case, reported as such.
                    Measurement {
                        class: c.name.to_string(),
                        algorithm: a.to_string(),
                        bytes,
                        peak_kib: 0,
                        ms: started.elapsed().as_secs_f64() * 1000.0,
                        outcome: match status {
                            Some(status) => format!("crashed ({status})"),
                            None => format!("timed out after {} s", timeout.as_secs()),
                        },
                    }
                };
                let v = bounds.judge(m);
                on_case(&v);
                out.push(v);
            }
        }
    }
    Ok(out)
}

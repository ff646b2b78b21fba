//! A mutation fuzzer over [`Engine::extract`] that runs on stable Rust: real pages from the datasets
//! are the seeds, and each case is a seed changed by a few mutations chosen to reach the parser's and
//! the algorithms' awkward corners (tags opened in the wrong context, raw-text elements left open,
//! runs of a slice repeated hundreds of times, cut bytes, NULs and invalid UTF-8, spliced pages).
//!
//! A case fails when the extraction panics, or when it takes longer than the time bound allows for
//! its size (the same per-MB bound as the adversarial corpus). Each failure is written to a directory
//! so that it can become a fixture. The loop is deterministic for a given seed and case count; a time
//! limit makes it stop earlier on a slow machine.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{engine::Engine, engine::Request, error::Error};

/// Snippets inserted at random places.
const SNIPPETS: &[&str] = &[
    "<table>",
    "<tr><td>",
    "</table>",
    "<select><option>",
    "<textarea>",
    "<title>",
    "<script>",
    "<style>",
    "<noscript>",
    "<template>",
    "<iframe>",
    "<svg><foreignObject><p>",
    "<math><mi>",
    "<plaintext>",
    "<xmp>",
    "<!--",
    "-->",
    "<![CDATA[",
    "</p>",
    "<p>",
    "<li>",
    "<dd>",
    "<a href=/x>",
    "</a>",
    "<b><i><u>",
    "</b>",
    "<div>",
    "</div>",
    "<form><input name=x>",
    "<frameset>",
    "<body onload=x>",
    "<html lang=zh>",
    "<head>",
    "<meta charset=gbk>",
    "<meta http-equiv=content-type content='text/html; charset=big5'>",
    "&amp;",
    "&#x0;",
    "&#1114112;",
    "&",
    "&notin",
    "<",
    ">",
    "\"",
    "'",
    "\0",
    "\u{feff}",
    "中文",
    " class=\"comment nav footer\"",
    " style=\"display:none\"",
    " hidden",
];

/// xorshift64*: small, fast and reproducible; the fuzzer, and the tests that draw random inputs
/// (`eval::lcs`'s), need no better. The seed must not be 0 (the sequence would stay at 0).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

/// Change `page` by one mutation (another seed is at hand for splicing).
fn mutate(rng: &mut Rng, page: &mut Vec<u8>, other: &[u8]) {
    let len = page.len();
    let at = rng.below(len + 1);
    match rng.below(8) {
        // Insert a snippet.
        0 | 1 => {
            let s = SNIPPETS[rng.below(SNIPPETS.len())].as_bytes();
            page.splice(at..at, s.iter().copied());
        }
        // Repeat a short slice many times (the shape of most hostile pages).
        2 => {
            let n = 1 + rng.below(64.min(len - at.min(len)).max(1));
            let slice = page[at..(at + n).min(len)].to_vec();
            let times = 1 + rng.below(2000);
            let repeated: Vec<u8> = slice.iter().copied().cycle().take(slice.len() * times).collect();
            page.splice(at..at, repeated);
        }
        // Repeat a snippet many times.
        3 => {
            let s = SNIPPETS[rng.below(SNIPPETS.len())].as_bytes();
            let times = 1 + rng.below(5000);
            let repeated: Vec<u8> = s.iter().copied().cycle().take(s.len() * times).collect();
            page.splice(at..at, repeated);
        }
        // Delete a range.
        4 => {
            let end = (at + rng.below(4096)).min(len);
            page.drain(at..end);
        }
        // Cut the page short.
        5 => page.truncate(at),
        // Overwrite bytes with arbitrary ones (invalid UTF-8 included).
        6 => {
            let end = (at + 1 + rng.below(16)).min(len);
            for b in &mut page[at..end] {
                *b = rng.next() as u8;
            }
        }
        // Splice in part of another page.
        _ => {
            let from = rng.below(other.len());
            let end = (from + rng.below(64 * 1024)).min(other.len());
            page.splice(at..at, other[from..end].iter().copied());
        }
    }
}

/// What went wrong with one case.
#[derive(Debug, Clone)]
pub struct Finding {
    pub kind: &'static str,
    pub bytes: usize,
    pub ms: f64,
    pub path: Option<PathBuf>,
}

/// How a fuzz run went.
#[derive(Debug, Clone, Default)]
pub struct FuzzReport {
    pub cases: usize,
    pub bytes: usize,
    pub too_complex: usize,
    pub worst_ms_per_mb: f64,
    pub findings: Vec<Finding>,
}

/// Settings of a run.
#[derive(Debug, Clone)]
pub struct FuzzOptions {
    pub seed: u64,
    /// Stop after this many cases...
    pub max_cases: usize,
    /// ...or after this long, whichever comes first.
    pub max_time: Duration,
    /// Mutations per case, at most.
    pub max_mutations: usize,
    pub bounds: super::Bounds,
    /// Where failing cases are written.
    pub out: Option<PathBuf>,
}

/// Run the loop over `seeds` (raw page bytes).
pub fn fuzz(engine: &Engine, seeds: &[Vec<u8>], opts: &FuzzOptions) -> Result<FuzzReport, Error> {
    let mut report = FuzzReport::default();
    if seeds.is_empty() {
        return Err(Error::Config("the fuzzer needs at least one seed page".into()));
    }
    let mut rng = Rng(opts.seed | 1);
    let start = Instant::now();
    while report.cases < opts.max_cases && start.elapsed() < opts.max_time {
        let mut page = seeds[rng.below(seeds.len())].clone();
        let other = &seeds[rng.below(seeds.len())];
        for _ in 0..1 + rng.below(opts.max_mutations.max(1)) {
            mutate(&mut rng, &mut page, other);
        }
        // Past the engine's input limit there is nothing to learn.
        page.truncate(engine.limits.max_input_bytes);
        let t = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| engine.extract(&Request::new(&page))));
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        report.cases += 1;
        report.bytes += page.len();
        let mb = page.len() as f64 / 1e6;
        if mb > 0.01 {
            report.worst_ms_per_mb = report.worst_ms_per_mb.max(ms / mb);
        }
        let kind = match result {
            Err(_) => Some("crash"),
            Ok(Err(Error::TooComplex(_))) => {
                report.too_complex += 1;
                None
            }
            Ok(_) if ms > opts.bounds.base_ms + opts.bounds.ms_per_mb * mb => Some("slow"),
            Ok(_) => None,
        };
        if let Some(kind) = kind {
            let path = match &opts.out {
                Some(dir) => Some(save(dir, kind, &page)?),
                None => None,
            };
            report.findings.push(Finding { kind, bytes: page.len(), ms, path });
        }
    }
    Ok(report)
}

/// Write a failing case as `<kind>-<hash>.html`.
fn save(dir: &Path, kind: &str, page: &[u8]) -> Result<PathBuf, Error> {
    std::fs::create_dir_all(dir)?;
    let hash = page.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let path = dir.join(format!("{kind}-{hash:016x}.html"));
    std::fs::write(&path, page)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_are_reproducible_and_stay_in_bounds() {
        let seed = b"<html><body><p>Hello <b>world</b></p></body></html>".to_vec();
        let run = |s: u64| {
            let mut rng = Rng(s);
            let mut page = seed.clone();
            for _ in 0..200 {
                mutate(&mut rng, &mut page, &seed);
                page.truncate(1 << 20);
            }
            page
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }
}

//! Extraction without Python: one page, or many on worker threads, each answered as the JSON
//! `pith extract --format json` prints (or a failure).
//!
//! Nothing here touches a Python object, so the callers run it with the GIL released. A panic inside
//! pith is caught per page and becomes that page's failure: it never unwinds into the interpreter,
//! and in a batch it costs one page, not the batch.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::errors::{Failure, PANIC, panic_message};
use crate::pages::Page;
use crate::sites::LearnedSites;

/// One page's answer: the serialized `pith::Extraction`, or why there is none.
pub type Answer = Result<String, Failure>;

/// Extract one page and serialize the result. With `sites` (an `Extractor` that learns site
/// templates), a page with an http(s) URL is extracted with its site's template as learned so far,
/// then teaches it, from the same parse.
pub fn extract(engine: &pith::Engine, page: &Page<'_>, options: pith::Options, sites: Option<&LearnedSites>) -> Answer {
    let request = pith::Request {
        url: page.url.as_deref(),
        charset: page.charset.as_deref(),
        ..pith::Request::with_options(&page.bytes, options)
    };
    let site = sites.and_then(|s| LearnedSites::site_of(page.url.as_deref()).map(|site| (s, site)));
    let result = catch_unwind(AssertUnwindSafe(|| match &site {
        None => engine.extract(&request),
        Some((sites, site)) => {
            let template = sites.snapshot(site);
            let (extraction, signatures) =
                engine.extract_and_sign(&pith::Request { site: Some(&template), ..request })?;
            sites.learn(site, &signatures);
            Ok(extraction)
        }
    }))
    .map_err(|payload| Failure::new(PANIC, panic_message(payload.as_ref())))?;
    let extraction = result?;
    // Serialized here, on the worker, so that only the cheap parse into a dict waits for the GIL.
    serde_json::to_string(&extraction)
        .map_err(|e| Failure::new(PANIC, format!("internal error: the result did not serialize: {e}")))
}

/// Extract every page on `jobs` threads (the calling one among them), answers in input order.
/// Threads take the next page as they finish one, so a slow page does not hold up a fixed share.
pub fn extract_all(
    engine: &pith::Engine,
    pages: &[Page<'_>],
    options: pith::Options,
    sites: Option<&LearnedSites>,
    jobs: usize,
) -> Vec<Answer> {
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(page) = pages.get(i) else { return done };
            done.push((i, extract(engine, page, options, sites)));
        }
    };
    let mut answers: Vec<Option<Answer>> = Vec::new();
    answers.resize_with(pages.len(), || None);
    let helpers = jobs.clamp(1, pages.len().max(1)) - 1;
    std::thread::scope(|scope| {
        // A thread that cannot be started is simply one helper fewer: the others take its pages.
        let handles: Vec<_> = (0..helpers)
            .filter_map(|k| std::thread::Builder::new().name(format!("pith-{k}")).spawn_scoped(scope, work).ok())
            .collect();
        for (i, answer) in work() {
            answers[i] = Some(answer);
        }
        for handle in handles {
            // Each page's panic is caught inside `extract`, so a worker ends normally; were one to
            // fail all the same, its pages are reported below instead of being lost.
            if let Ok(done) = handle.join() {
                for (i, answer) in done {
                    answers[i] = Some(answer);
                }
            }
        }
    });
    answers
        .into_iter()
        .map(|a| a.unwrap_or_else(|| Err(Failure::new(PANIC, "internal error: a worker thread failed"))))
        .collect()
}

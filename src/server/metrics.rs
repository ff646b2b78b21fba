//! Prometheus metrics, written out by hand in the text exposition format (version 0.0.4): a handful
//! of counters and histograms behind short mutexes, with the names in one place.
//!
//! Why not the official `prometheus-client` crate (measured with 0.25.2 on the 2-core dev machine, the
//! same two request families registered and encoded): it only writes OpenMetrics, which changes what
//! scrapers and scripts see under our `text/plain; version=0.0.4` contract: counters are typed under
//! the base name (`# TYPE pith_http_requests counter` above `pith_http_requests_total` samples),
//! bucket bounds read `le="1.0"` instead of `le="1"`, `le` comes before the family's labels
//! (`{le="+Inf",route="/v1/extract"}`, where the tests and users' scripts match
//! `{route="/v1/extract",le="+Inf"}`), and a `# EOF` line ends the text. Serving that would mean
//! either a second content type or rewriting its output. Its cost is small (a cold release build of
//! the crate and its dependencies: 16 s; encoding: 4.9 µs per scrape), so the reason is the format:
//! revisit when it can write the 0.0.4 text format.
//!
//! | metric | kind | labels |
//! |---|---|---|
//! | `pith_http_requests_total` | counter | route, status |
//! | `pith_http_request_duration_seconds` | histogram | route |
//! | `pith_fetches_total` | counter | outcome |
//! | `pith_fetch_duration_seconds` | histogram | |
//! | `pith_cache_hits_total`, `pith_cache_misses_total` | counter | |
//! | `pith_cache_entries`, `pith_cache_size_bytes` | gauge | |
//! | `pith_site_templates`, `pith_site_templates_size_bytes` | gauge | |
//! | `pith_extraction_duration_seconds` | histogram | |
//! | `pith_renders_total` | counter | outcome (`ok` or a render problem code) |
//! | `pith_render_duration_seconds` | histogram | |
//! | `pith_render_browsers_launched_total`, `pith_render_browsers_replaced_total`, `pith_render_proxy_refused_total` | counter | |
//! | `pith_pool_queue_depth`, `pith_pool_running`, `pith_pool_workers`, `pith_pool_queue_capacity` | gauge | |

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

const LATENCY_BUCKETS: &[f64] = &[0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

#[derive(Debug, Clone)]
struct Histogram {
    counts: Vec<u64>,
    sum: f64,
    count: u64,
}

impl Histogram {
    fn new() -> Self {
        Histogram { counts: vec![0; LATENCY_BUCKETS.len()], sum: 0.0, count: 0 }
    }

    fn observe(&mut self, v: f64) {
        for (c, b) in self.counts.iter_mut().zip(LATENCY_BUCKETS) {
            if v <= *b {
                *c += 1;
            }
        }
        self.sum += v;
        self.count += 1;
    }

    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        for (c, b) in self.counts.iter().zip(LATENCY_BUCKETS) {
            let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{b}\"}} {c}");
        }
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {}", self.count);
        let braces = if labels.is_empty() { String::new() } else { format!("{{{labels}}}") };
        let _ = writeln!(out, "{name}_sum{braces} {}", self.sum);
        let _ = writeln!(out, "{name}_count{braces} {}", self.count);
    }
}

#[derive(Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    request_duration: Mutex<BTreeMap<String, Histogram>>,
    fetches: Mutex<BTreeMap<&'static str, u64>>,
    fetch_duration: Mutex<Option<Histogram>>,
    extraction_duration: Mutex<Option<Histogram>>,
    renders: Mutex<BTreeMap<&'static str, u64>>,
    render_duration: Mutex<Option<Histogram>>,
    cache_hits: AtomicU64,
    cache_misses: AtomicU64,
}

/// Point-in-time values gathered by the `/metrics` handler from the cache and the pool.
pub struct Gauges {
    pub cache_entries: u64,
    pub cache_bytes: u64,
    /// Sites with a template, and the templates' weighted bytes (see `server::site_templates`).
    pub site_templates: u64,
    pub site_templates_bytes: u64,
    pub pool_queued: i64,
    pub pool_running: i64,
    pub pool_workers: usize,
    pub pool_queue_capacity: usize,
    /// The browser pool's counters.
    pub render: crate::browser::PoolStats,
}

impl Metrics {
    pub fn request(&self, route: &str, status: u16, seconds: f64) {
        *self
            .requests
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry((route.to_string(), status))
            .or_default() += 1;
        self.request_duration
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(route.to_string())
            .or_insert_with(Histogram::new)
            .observe(seconds);
    }

    /// One fetch; `outcome` is `ok` or a [`super::fetch::FetchError::outcome`] label.
    pub fn fetch(&self, outcome: &'static str, seconds: f64) {
        *self.fetches.lock().unwrap_or_else(std::sync::PoisonError::into_inner).entry(outcome).or_default() += 1;
        self.fetch_duration
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_or_insert_with(Histogram::new)
            .observe(seconds);
    }

    /// A result answered from the cache.
    pub fn cache_hit(&self) {
        self.cache_hits.fetch_add(1, Ordering::Relaxed);
    }

    /// A result computed: the cache missed or was bypassed.
    pub fn cache_miss(&self) {
        self.cache_misses.fetch_add(1, Ordering::Relaxed);
    }

    pub fn extraction(&self, seconds: f64) {
        self.extraction_duration
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_or_insert_with(Histogram::new)
            .observe(seconds);
    }

    /// One page through the browser; `outcome` is `ok` or a render problem code. Browser time is
    /// observed for rendered pages only.
    pub fn rendered_page(&self, outcome: &'static str, seconds: f64) {
        *self.renders.lock().unwrap_or_else(std::sync::PoisonError::into_inner).entry(outcome).or_default() += 1;
        if outcome == "ok" {
            self.render_duration
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get_or_insert_with(Histogram::new)
                .observe(seconds);
        }
    }

    pub fn render(&self, g: &Gauges) -> String {
        let mut out = String::new();
        let head = |out: &mut String, name: &str, kind: &str, help: &str| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
        };
        head(&mut out, "pith_http_requests_total", "counter", "HTTP requests by route and status.");
        for ((route, status), n) in self.requests.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            let _ = writeln!(out, "pith_http_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}");
        }
        head(&mut out, "pith_http_request_duration_seconds", "histogram", "HTTP request latency by route.");
        for (route, h) in self.request_duration.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            h.write(&mut out, "pith_http_request_duration_seconds", &format!("route=\"{route}\""));
        }
        head(&mut out, "pith_fetches_total", "counter", "Origin fetches by outcome.");
        for (outcome, n) in self.fetches.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            let _ = writeln!(out, "pith_fetches_total{{outcome=\"{outcome}\"}} {n}");
        }
        head(&mut out, "pith_fetch_duration_seconds", "histogram", "Origin fetch time, redirects and body included.");
        self.fetch_duration
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .unwrap_or_else(Histogram::new)
            .write(&mut out, "pith_fetch_duration_seconds", "");
        head(&mut out, "pith_extraction_duration_seconds", "histogram", "Engine time per extraction.");
        self.extraction_duration
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .unwrap_or_else(Histogram::new)
            .write(&mut out, "pith_extraction_duration_seconds", "");
        head(&mut out, "pith_renders_total", "counter", "Pages through the headless browser by outcome.");
        for (outcome, n) in self.renders.lock().unwrap_or_else(std::sync::PoisonError::into_inner).iter() {
            let _ = writeln!(out, "pith_renders_total{{outcome=\"{outcome}\"}} {n}");
        }
        head(
            &mut out,
            "pith_render_duration_seconds",
            "histogram",
            "Browser time per rendered page (scripts and layout).",
        );
        self.render_duration
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .unwrap_or_else(Histogram::new)
            .write(&mut out, "pith_render_duration_seconds", "");
        let counters = [
            ("pith_cache_hits_total", "Results answered from the cache.", self.cache_hits.load(Ordering::Relaxed)),
            (
                "pith_cache_misses_total",
                "Results computed (cache missed or bypassed).",
                self.cache_misses.load(Ordering::Relaxed),
            ),
            ("pith_render_browsers_launched_total", "Browser processes started.", g.render.launched),
            ("pith_render_browsers_replaced_total", "Browsers recycled or replaced after a hang.", g.render.replaced),
            (
                "pith_render_proxy_refused_total",
                "Browser connections the checking proxy refused (non-public address or port).",
                g.render.proxy_refused,
            ),
        ];
        for (name, help, v) in counters {
            head(&mut out, name, "counter", help);
            let _ = writeln!(out, "{name} {v}");
        }
        let gauges = [
            ("pith_cache_entries", "Entries in the result cache.", g.cache_entries as f64),
            ("pith_cache_size_bytes", "Approximate bytes held by the result cache.", g.cache_bytes as f64),
            ("pith_site_templates", "Sites with a learned template.", g.site_templates as f64),
            (
                "pith_site_templates_size_bytes",
                "Bytes the site templates are counted for (each at least its share of max_mib).",
                g.site_templates_bytes as f64,
            ),
            ("pith_pool_queue_depth", "Extractions waiting for a worker.", g.pool_queued as f64),
            ("pith_pool_running", "Extractions running.", g.pool_running as f64),
            ("pith_pool_workers", "Extraction worker threads.", g.pool_workers as f64),
            ("pith_pool_queue_capacity", "Most extractions allowed to wait.", g.pool_queue_capacity as f64),
        ];
        for (name, help, v) in gauges {
            head(&mut out, name, "gauge", help);
            let _ = writeln!(out, "{name} {v}");
        }
        out
    }
}

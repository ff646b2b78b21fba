//! A bounded pool of browser processes.
//!
//! * `render.browsers` slots, each holding at most one browser, started on first use (pith starts
//!   fast and costs no memory for a browser it never needs).
//! * A semaphore of `render.max_pages` bounds the pages open across all browsers; a request waits for
//!   a page at most `queue_timeout_ms`, then is refused as busy.
//! * Each page gets a fresh browser context (no cookies, cache or storage shared between pages),
//!   disposed of afterwards.
//! * A browser is replaced after `recycle_after_pages` pages, and at once when it misses a deadline on a
//!   browser-level call or its pipe closes (a crash): pages in flight on it then fail, later ones get
//!   a new browser. The old process group is killed when the last page using it lets go.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{Mutex, OnceCell, Semaphore};
use tokio::time::Instant;

use super::RenderError;
use super::cdp::{Cdp, CdpError};
use super::config::RenderConfig;
use super::page::{PageError, Tab};
use super::process::{self, Process};
use super::proxy::{Policy, Proxy};

/// Largest message accepted from a browser (a layout snapshot of a 10 MB page is far below it).
const MAX_MESSAGE: usize = 512 * 1024 * 1024;

/// One browser process and its connection.
pub struct Browser {
    // Field order matters: the connection closes before the process is killed.
    pub cdp: Cdp,
    pub process: Process,
    served: AtomicUsize,
    broken: AtomicBool,
}

impl Browser {
    fn retire(&self, why: &str) {
        if !self.broken.swap(true, Ordering::SeqCst) {
            tracing::warn!(pid = self.process.pid(), why, "browser replaced");
            self.process.kill();
        }
    }

    fn usable(&self, recycle_after: usize) -> bool {
        !self.broken.load(Ordering::SeqCst)
            && !self.cdp.is_closed()
            && self.served.load(Ordering::SeqCst) < recycle_after.max(1)
    }
}

/// Counters for `/metrics`, the log and the tests.
#[derive(Debug, Default, Serialize, Clone, Copy, PartialEq, Eq)]
pub struct PoolStats {
    pub launched: u64,
    pub pages: u64,
    pub failed: u64,
    pub replaced: u64,
    /// Connections the render proxy opened, and the ones it refused (non-public address, port).
    pub proxy_allowed: u64,
    pub proxy_refused: u64,
}

#[derive(Default)]
struct Counters {
    launched: AtomicU64,
    pages: AtomicU64,
    failed: AtomicU64,
    replaced: AtomicU64,
}

pub struct Pool {
    cfg: RenderConfig,
    binary: PathBuf,
    proxy: OnceCell<Proxy>,
    slots: Vec<Mutex<Option<Arc<Browser>>>>,
    pages: Semaphore,
    next: AtomicUsize,
    counters: Counters,
}

/// The flags every browser gets. Each closes a door a page could use, or a source of background
/// traffic and work that a renderer does not need.
fn flags(cfg: &RenderConfig, proxy: SocketAddr) -> Vec<String> {
    let mut f: Vec<String> = [
        "--headless",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-breakpad",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--disable-features=Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions",
        "--disable-dev-shm-usage",
        "--mute-audio",
        "--hide-scrollbars",
        "--metrics-recording-only",
        "--password-store=basic",
        "--use-mock-keychain",
        // WebRTC may send UDP around any proxy; allow it only through one (there is none for UDP).
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        "--webrtc-ip-handling-policy=disable_non_proxied_udp",
        // Whatever is not proxied cannot resolve a name either.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--proxy-bypass-list=<-loopback>",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    f.push(format!("--proxy-server=http://{proxy}"));
    f.push(format!("--window-size={},{}", cfg.viewport_width, cfg.viewport_height));
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if !cfg.sandbox || root {
        f.push("--no-sandbox".to_string());
    }
    f
}

impl Pool {
    pub fn new(cfg: RenderConfig, binary: PathBuf) -> Pool {
        let slots = (0..cfg.browsers.max(1)).map(|_| Mutex::new(None)).collect();
        let pages = Semaphore::new(cfg.max_pages.max(1));
        Pool {
            cfg,
            binary,
            proxy: OnceCell::new(),
            slots,
            pages,
            next: AtomicUsize::new(0),
            counters: Counters::default(),
        }
    }

    pub fn config(&self) -> &RenderConfig {
        &self.cfg
    }

    pub fn stats(&self) -> PoolStats {
        let c = &self.counters;
        PoolStats {
            launched: c.launched.load(Ordering::Relaxed),
            pages: c.pages.load(Ordering::Relaxed),
            failed: c.failed.load(Ordering::Relaxed),
            replaced: c.replaced.load(Ordering::Relaxed),
            proxy_allowed: self.proxy.get().map_or(0, |p| p.counters.allowed.load(Ordering::Relaxed)),
            proxy_refused: self.proxy.get().map_or(0, |p| p.counters.refused.load(Ordering::Relaxed)),
        }
    }

    /// Process ids of the running browsers (main processes).
    pub async fn pids(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for s in &self.slots {
            if let Some(b) = s.lock().await.as_ref() {
                out.push(b.process.pid());
            }
        }
        out
    }

    /// Kill every browser now (shutdown; pages in flight fail).
    pub async fn shutdown(&self) {
        for s in &self.slots {
            if let Some(b) = s.lock().await.take() {
                b.retire("shutdown");
            }
        }
    }

    async fn proxy(&self) -> Result<&Proxy, RenderError> {
        self.proxy
            .get_or_try_init(|| async {
                let policy = Policy {
                    allow_private_networks: self.cfg.allow_private_networks,
                    allow_private_hosts: self.cfg.allow_private_hosts.clone(),
                    ports: self.cfg.allowed_ports.clone(),
                    max_bytes: self.cfg.max_connection_bytes,
                    connect_timeout: Duration::from_millis(self.cfg.call_timeout_ms.min(10_000)),
                    idle_timeout: Duration::from_millis(self.cfg.page_timeout_ms),
                };
                Proxy::start(policy)
                    .await
                    .map_err(|e| RenderError::Browser(format!("cannot start the render proxy: {e}")))
            })
            .await
    }

    async fn launch(&self) -> Result<Browser, RenderError> {
        let proxy = self.proxy().await?.addr();
        let args = flags(&self.cfg, proxy);
        let started = process::spawn(&self.binary, &args, &self.cfg.profile_root)
            .await
            .map_err(|e| RenderError::Browser(format!("cannot start {}: {e}", self.binary.display())))?;
        let cdp = Cdp::start(started.from_browser, started.to_browser, MAX_MESSAGE)
            .map_err(|e| RenderError::Browser(format!("cannot open the browser pipe: {e}")))?;
        let browser =
            Browser { cdp, process: started.process, served: AtomicUsize::new(0), broken: AtomicBool::new(false) };
        let wait = Duration::from_millis(self.cfg.launch_timeout_ms);
        let hello = browser.cdp.call_unit(None, "Browser.getVersion", serde_json::json!({}), wait).await;
        if let Err(e) = hello {
            let tail = browser.process.stderr_tail();
            return Err(RenderError::Browser(format!("{} did not start ({e}): {tail}", self.binary.display())));
        }
        let _ = browser
            .cdp
            .call_unit(None, "Browser.setDownloadBehavior", serde_json::json!({ "behavior": "deny" }), wait)
            .await;
        self.counters.launched.fetch_add(1, Ordering::Relaxed);
        tracing::info!(pid = browser.process.pid(), binary = %self.binary.display(), "browser started");
        Ok(browser)
    }

    /// A usable browser from the next slot, started if the slot is empty or its browser is spent.
    async fn browser(&self) -> Result<Arc<Browser>, RenderError> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.slots.len();
        let mut slot = self.slots[i].lock().await;
        if let Some(b) = slot.as_ref()
            && b.usable(self.cfg.recycle_after_pages)
        {
            b.served.fetch_add(1, Ordering::SeqCst);
            return Ok(b.clone());
        }
        if slot.take().is_some() {
            self.counters.replaced.fetch_add(1, Ordering::Relaxed);
        }
        let b = Arc::new(self.launch().await?);
        b.served.fetch_add(1, Ordering::SeqCst);
        *slot = Some(b.clone());
        Ok(b)
    }

    /// Run `work` on a fresh tab within the page deadline; the tab is always disposed of.
    pub async fn with_tab<T>(
        &self,
        work: impl AsyncFnOnce(&mut Tab<'_>) -> Result<T, PageError>,
    ) -> Result<T, RenderError> {
        let queued = Duration::from_millis(self.cfg.queue_timeout_ms);
        let _permit = match tokio::time::timeout(queued, self.pages.acquire()).await {
            Ok(Ok(p)) => p,
            _ => return Err(RenderError::Busy),
        };
        let browser = self.browser().await?;
        let proxy = self.proxy().await?.addr();
        let deadline = Instant::now() + Duration::from_millis(self.cfg.page_timeout_ms);
        self.counters.pages.fetch_add(1, Ordering::Relaxed);
        let outcome = tokio::time::timeout_at(deadline + Duration::from_millis(self.cfg.call_timeout_ms), async {
            let mut tab = Tab::open(&browser.cdp, &self.cfg, proxy, deadline).await?;
            let result = work(&mut tab).await;
            let closed = tab.close().await;
            match (result, closed) {
                (Ok(v), Ok(())) => Ok(v),
                (Err(e), _) | (Ok(_), Err(e)) => Err(e),
            }
        })
        .await;
        let result = match outcome {
            Ok(r) => r,
            Err(_) => {
                // Even closing the tab overran: treat the browser as hung.
                browser.retire("a page overran its deadline and could not be closed");
                Err(PageError::Deadline)
            }
        };
        result.map_err(|e| {
            self.counters.failed.fetch_add(1, Ordering::Relaxed);
            match e {
                PageError::Browser(CdpError::Closed) => {
                    browser.retire("its connection closed");
                    RenderError::Browser("the browser closed its connection (crashed or was killed)".into())
                }
                PageError::Browser(e) => {
                    browser.retire("a browser-level call failed");
                    RenderError::Browser(e.to_string())
                }
                PageError::Page(m) => RenderError::Page(m),
                PageError::Deadline => RenderError::Timeout(self.cfg.page_timeout_ms),
            }
        })
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for s in &self.slots {
            if let Ok(mut g) = s.try_lock()
                && let Some(b) = g.take()
            {
                b.retire("pool dropped");
            }
        }
    }
}

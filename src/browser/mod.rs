//! Rendering: a headless browser lays pages out for the visual methods (`vips`, `cehtd-ds`, any
//! algorithm with `render`), and runs a page's scripts when a request asks for `javascript`.
//!
//! | module | job |
//! |---|---|
//! | [`config`] | `[render]` settings; finding the browser binary |
//! | `process` | starting one browser in its own process group, killing it, no orphans |
//! | `cdp` | the DevTools protocol over the browser's pipe, every call with a deadline |
//! | `pool` | bounded browsers, bounded pages, fresh context per page, recycling |
//! | `page` | one page: serve its HTML, answer or refuse its requests, snapshot or read back |
//! | `proxy` | the SSRF-checking proxy all browser traffic goes through |
//! | `prepare` | the page as the browser gets it, elements stamped with arena ids |
//! | `snapshot` | the browser's layout snapshot → [`crate::dom::layout::Layout`] |
//!
//! **Why our own protocol client.** The browser is Debian's `chromium-headless-shell` (or `chromium`),
//! driven over the DevTools protocol. The Rust crates that speak it were weighed: `chromiumoxide`
//! (async, tokio) brings 111,222 lines of generated protocol types (`chromiumoxide_cdp` 0.9.1, counted)
//! to compile for the ten or so commands pith sends, and its event handler owns the connection loop;
//! `headless_chrome` is synchronous (a thread per connection) and generates its protocol types at build
//! time. Both talk to the browser over a WebSocket on a debugging port, which a page's own script could
//! try to reach on loopback. pith needs few commands, full control of request interception
//! (`Fetch.*`), a deadline on every call and a transport nothing else can connect to: `cdp.rs` is a
//! small client over `--remote-debugging-pipe` (NUL-separated JSON on fds 3 and 4), with serde types
//! for just the replies it reads.
//!
//! **Safe by default.** Laying out raw HTML makes no network request at all (see [`page`]); scripts run
//! only when a request asks (`javascript: true`), and then every request leaves through [`proxy`],
//! which refuses non-public addresses. The browser runs sandboxed unless pith runs as root (Chromium
//! refuses its sandbox to root) or `render.sandbox` is false.

pub mod config;

mod cdp;
mod error;
mod page;
mod pool;
mod prepare;
mod process;
mod proxy;
mod snapshot;

use std::time::Instant;

pub use config::{Availability, RenderConfig};
pub use error::RenderError;
pub use page::PLACEHOLDER_URL;
pub use pool::PoolStats;
pub use prepare::{Prepared, prepare, prepare_request};
pub use process::group_members;
pub use proxy::{Policy as ProxyPolicy, vet};

use crate::dom::Document;
use crate::dom::layout::Layout;
use crate::engine::{Engine, Request, StrippedOwned};
use crate::error::Error;
use crate::output::Extraction;
use page::Mode;
use pool::Pool;

/// A page after its scripts ran.
#[derive(Debug, Clone)]
pub struct Scripted {
    /// The document as scripts left it, serialised (UTF-8).
    pub html: String,
    /// The text of the external style sheets it loaded, for the layout pass.
    pub stylesheets: Vec<String>,
    /// Requests the page made, and how many of them were refused.
    pub requests: usize,
    pub blocked: usize,
    pub ms: f64,
}

/// The rendering component: configuration, availability and the browser pool. Cheap to hold when
/// unused: browsers start on the first page.
pub struct Renderer {
    availability: Availability,
    pool: Option<Pool>,
}

/// Run CPU work on a runtime thread without stalling the other tasks of a multi-threaded runtime.
fn cpu<R>(f: impl FnOnce() -> R) -> R {
    match tokio::runtime::Handle::try_current() {
        Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => tokio::task::block_in_place(f),
        _ => f(),
    }
}

impl Renderer {
    pub fn new(cfg: RenderConfig) -> Renderer {
        let availability = cfg.availability();
        let pool = match &availability {
            Availability::Ready(binary) => Some(Pool::new(cfg, binary.clone())),
            _ => None,
        };
        Renderer { availability, pool }
    }

    pub fn availability(&self) -> &Availability {
        &self.availability
    }

    pub fn is_ready(&self) -> bool {
        self.pool.is_some()
    }

    pub fn stats(&self) -> PoolStats {
        self.pool.as_ref().map(Pool::stats).unwrap_or_default()
    }

    /// Main-process ids of the running browsers.
    pub async fn browser_pids(&self) -> Vec<u32> {
        match &self.pool {
            Some(p) => p.pids().await,
            None => Vec::new(),
        }
    }

    /// Kill every browser (on shutdown).
    pub async fn shutdown(&self) {
        if let Some(p) = &self.pool {
            p.shutdown().await;
        }
    }

    fn pool(&self) -> Result<&Pool, RenderError> {
        self.pool.as_ref().ok_or_else(|| RenderError::Unavailable(self.availability.reason()))
    }

    /// Lay the page out: the boxes of the arena `engine` builds from the same bytes (the same for
    /// every algorithm). `extra_css` is style sheet text to apply before the page's own `<style>`
    /// elements.
    pub async fn layout(
        &self,
        engine: &Engine,
        bytes: &[u8],
        charset: Option<&str>,
        extra_css: &[String],
    ) -> Result<Layout, RenderError> {
        let req = Request { charset, ..Request::new(bytes) };
        Ok(self.lay_out(engine, &req, extra_css).await?.0)
    }

    /// Lay out the page `req` names, and keep what extraction continues from: the stripped page and
    /// the arena the layout describes.
    async fn lay_out(
        &self,
        engine: &Engine,
        req: &Request<'_>,
        extra_css: &[String],
    ) -> Result<(Layout, StrippedOwned, Document), RenderError> {
        let pool = self.pool()?;
        let t0 = Instant::now();
        // Only owned parts cross the awaits below (the stripped page's text is not `Send` as it is).
        let (doc, html, stripped) =
            cpu(|| prepare_request(engine, req, extra_css).map(|p| (p.doc, p.html, p.stripped.into_owned())))?;
        let cfg = pool.config();
        let snap = pool
            .with_tab(async |tab| {
                tab.load(&html, PLACEHOLDER_URL, Mode::Layout, cfg).await?;
                tab.snapshot().await
            })
            .await?;
        let viewport = (cfg.viewport_width as f32, cfg.viewport_height as f32);
        let mut layout = cpu(|| snapshot::to_layout(&doc, &snap, viewport));
        layout.render_ms = t0.elapsed().as_secs_f64() * 1000.0;
        Ok((layout, stripped, doc))
    }

    /// Run the page's scripts and read back the document they leave. `url` (http or https only) is the
    /// address the page runs at, so its relative requests go where the page expects.
    pub async fn run_scripts(
        &self,
        engine: &Engine,
        bytes: &[u8],
        charset: Option<&str>,
        url: Option<&str>,
    ) -> Result<Scripted, RenderError> {
        let pool = self.pool()?;
        let t0 = Instant::now();
        check_web_input(engine, bytes)?;
        let text = cpu(|| crate::text::decode::decode(bytes, charset))?.text.into_owned();
        let url = url.filter(|u| u.starts_with("http://") || u.starts_with("https://")).unwrap_or(PLACEHOLDER_URL);
        let cfg = pool.config();
        let (html, stylesheets, requests, blocked) = pool
            .with_tab(async |tab| {
                let loaded = tab.load(&text, url, Mode::Scripts, cfg).await?;
                let (html, sheets) = tab.read_dom(&loaded).await?;
                Ok((html, sheets, loaded.requests, loaded.blocked))
            })
            .await?;
        Ok(Scripted { html, stylesheets, requests, blocked, ms: t0.elapsed().as_secs_f64() * 1000.0 })
    }
}

/// A page ready for extraction with its layout: what [`Renderer::render`] returns. Owned, so the
/// extraction itself can run wherever the caller runs CPU work (the service's extraction pool); it
/// carries the page as the engine's stages 1–2 left it for the browser, so that extraction goes on
/// from there.
#[derive(Debug)]
pub struct Rendered {
    /// The page as its scripts left it, when they ran (UTF-8); extraction reads these bytes.
    pub scripted: Option<Scripted>,
    pub layout: Layout,
    /// Milliseconds in the browser: scripts and layout.
    pub ms: f64,
    /// The page after stages 1–2, and the arena the layout describes.
    stripped: StrippedOwned,
    doc: Document,
}

impl Rendered {
    /// Extract with the layout, going on from the stripped page the browser was given. `req` is the
    /// request the page was rendered for (its options; its bytes were read already).
    pub fn extract(self, engine: &Engine, req: &Request<'_>) -> Result<Extraction, Error> {
        // The total counts stages 1–2, which ran before the browser.
        let t0 = Instant::now().checked_sub(self.stripped.took()).unwrap_or_else(Instant::now);
        let page = engine.parse_laid_out(self.stripped, self.doc, &self.layout)?;
        let mut out = engine.finish(req, page, Some(&self.layout), t0);
        out.timings_ms.render = Some(self.ms);
        Ok(out)
    }
}

impl Renderer {
    /// Run the page's scripts when `javascript` is true, then lay out the page (or the document the
    /// scripts left) for `req.options.algorithm`: everything [`Rendered::extract`] needs.
    pub async fn render(&self, engine: &Engine, req: &Request<'_>, javascript: bool) -> Result<Rendered, RenderError> {
        let scripted = match javascript {
            true => Some(self.run_scripts(engine, req.bytes, req.charset, req.url).await?),
            false => None,
        };
        let (bytes, charset, css) = match &scripted {
            Some(s) => (s.html.as_bytes(), Some("utf-8"), s.stylesheets.as_slice()),
            None => (req.bytes, req.charset, &[][..]),
        };
        let (layout, stripped, doc) = self.lay_out(engine, &Request { bytes, charset, ..*req }, css).await?;
        let ms = layout.render_ms + scripted.as_ref().map_or(0.0, |s| s.ms);
        Ok(Rendered { scripted, layout, ms, stripped, doc })
    }
}

fn check_web_input(engine: &Engine, bytes: &[u8]) -> Result<(), Error> {
    crate::engine::check_input(bytes, engine.limits.max_input_bytes)
}

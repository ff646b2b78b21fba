//! What every handler shares: built once at startup, cloned cheaply (all `Arc`s) into each request.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::cache::ResultCache;
use super::metrics::Metrics;
use super::pool::Pool;
use super::rate_limit::RateLimiter;
use super::site_templates::SiteTemplateCache;
use crate::browser::Renderer;
use crate::configuration::Config;
use crate::engine::Engine;
use crate::fetch::Fetcher;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub engine: Arc<Engine>,
    pub fetcher: Arc<Fetcher>,
    pub cache: Arc<ResultCache>,
    /// The sites' templates learned from the pages extracted (empty and unused unless enabled).
    pub site_templates: Arc<SiteTemplateCache>,
    pub pool: Arc<Pool>,
    pub metrics: Arc<Metrics>,
    pub limiter: Option<Arc<RateLimiter>>,
    /// The headless-browser pool for `render`/`javascript` requests and the visual methods; browsers
    /// start on the first such request.
    pub renderer: Arc<Renderer>,
    /// Set when a shutdown signal arrives; `/readyz` then answers 503.
    pub shutting_down: Arc<AtomicBool>,
}

impl AppState {
    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::Relaxed)
    }
}

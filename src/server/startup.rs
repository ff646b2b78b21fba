//! Building the application (state, router, listener) and running it until a shutdown signal.
//!
//! Shutdown, on SIGTERM/SIGINT (or the future given to [`Application::run_with_shutdown`]):
//! 1. `/readyz` starts answering 503 and, for `server.drain_delay_ms`, requests are still served so a
//!    load balancer can notice and stop routing here;
//! 2. the listener closes and idle connections are dropped, in-flight requests continue;
//! 3. after `server.shutdown_grace_ms` whatever is still running is abandoned and the process exits.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware::from_fn_with_state;
use axum::routing::{get, post};
use reqwest::dns::Resolve;
use tokio::net::TcpListener;

use super::cache::ResultCache;
use super::metrics::Metrics;
use super::pool::Pool;
use super::rate_limit::{self, RateLimiter};
use super::routes::{algorithms, batch, extract, front_page, health, metrics, openapi};
use super::site_templates::SiteTemplateCache;
use super::state::AppState;
use super::telemetry;
use crate::browser::{Availability, Renderer};
use crate::configuration::Config;
use crate::engine::Engine;
use crate::fetch::{Fetcher, SystemResolver};

/// Why the service could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("engine: {0}")]
    Engine(#[from] crate::error::Error),
    #[error("http client: {0}")]
    Client(#[from] reqwest::Error),
    #[error("{0}")]
    RateLimit(String),
    #[error("cannot listen on {addr}: {source}")]
    Listen { addr: SocketAddr, source: std::io::Error },
}

/// A bound, ready-to-run service.
pub struct Application {
    listener: TcpListener,
    state: AppState,
}

/// Everything shared by the handlers, from the configuration.
pub fn build_state(config: Config) -> Result<AppState, StartupError> {
    build_state_with_resolver(config, Arc::new(SystemResolver))
}

/// Like [`build_state`], with the fetcher's names looked up by `resolver` (still behind the SSRF
/// guard, see [`super::fetch::GuardedResolver`]).
pub fn build_state_with_resolver(config: Config, resolver: Arc<dyn Resolve>) -> Result<AppState, StartupError> {
    let mut engine = Engine::with_defaults()?;
    engine.limits.max_input_bytes = config.extract.max_input_bytes;
    engine.params = config.params.clone();
    // Before the listener opens: the first client must not wait for the tables built on first use.
    match engine.warm_up() {
        Ok(out) => tracing::info!(ms = out.timings_ms.total, "engine warmed up"),
        Err(e) => tracing::warn!(error = %e, "warm-up page failed; the first request builds the tables"),
    }
    let fetcher = Fetcher::with_resolver(&config.fetch, resolver)?;
    let pool = Pool::new(
        config.pool.worker_count(),
        config.pool.queue_depth,
        config.pool.memory_budget_bytes,
        config.pool.retry_after_secs,
    );
    let limiter = match config.rate_limit.enabled {
        true => Some(Arc::new(RateLimiter::new(&config.rate_limit).map_err(StartupError::RateLimit)?)),
        false => None,
    };
    let renderer = Renderer::new(config.render.clone());
    match renderer.availability() {
        Availability::Ready(binary) => tracing::info!(browser = %binary.display(), "rendering available"),
        other => {
            tracing::warn!(reason = %other.reason(), "rendering unavailable: render and javascript requests will be refused")
        }
    }
    Ok(AppState {
        renderer: Arc::new(renderer),
        engine: Arc::new(engine),
        fetcher: Arc::new(fetcher),
        cache: Arc::new(ResultCache::new(&config.cache)),
        site_templates: Arc::new(SiteTemplateCache::new(&config.site_templates)),
        pool: Arc::new(pool),
        metrics: Arc::new(Metrics::default()),
        limiter,
        shutting_down: Arc::new(AtomicBool::new(false)),
        config: Arc::new(config),
    })
}

/// The routes and their middleware (outermost last): body limit, rate limit, the front page's
/// problems shown as HTML (outside the rate limit, so a person who is limited sees a page, not JSON),
/// then observation, so refused and limited requests are logged and counted too.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(front_page::page).post(front_page::submit))
        .route("/v1/extract", post(extract::extract))
        .route("/v1/extract/batch", post(batch::batch))
        .route("/v1/algorithms", get(algorithms::algorithms))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(metrics::metrics))
        .route("/openapi.yaml", get(openapi::openapi))
        .fallback(health::not_found)
        .method_not_allowed_fallback(health::method_not_allowed)
        .layer(DefaultBodyLimit::max(state.config.server.body_limit_bytes))
        .layer(from_fn_with_state(state.limiter.clone(), rate_limit::limit))
        .layer(from_fn_with_state(state.clone(), front_page::problems_as_pages))
        .layer(from_fn_with_state(state.clone(), telemetry::observe))
        .with_state(state)
}

impl Application {
    /// Load the engine, build the state and bind the listener (port 0 picks a free port).
    pub async fn build(config: Config) -> Result<Application, StartupError> {
        Application::build_with_resolver(config, Arc::new(SystemResolver)).await
    }

    /// Like [`Application::build`], with URL fetches looking names up through `resolver`; the SSRF
    /// guard checks whatever it answers.
    pub async fn build_with_resolver(config: Config, resolver: Arc<dyn Resolve>) -> Result<Application, StartupError> {
        let addr = config.server.listen;
        let state = build_state_with_resolver(config, resolver)?;
        let listener = TcpListener::bind(addr).await.map_err(|source| StartupError::Listen { addr, source })?;
        Ok(Application { listener, state })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serve until SIGTERM or SIGINT.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.run_with_shutdown(shutdown_signal()).await
    }

    /// Serve until `signal` completes, then shut down as described in the module documentation.
    pub async fn run_with_shutdown(self, signal: impl Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        let state = self.state.clone();
        let renderer = state.renderer.clone();
        let drain = Duration::from_millis(state.config.server.drain_delay_ms);
        let grace = Duration::from_millis(state.config.server.shutdown_grace_ms);
        let (closed_tx, closed_rx) = tokio::sync::oneshot::channel::<()>();
        let flag = state.shutting_down.clone();
        let begin_shutdown = async move {
            signal.await;
            flag.store(true, Ordering::Relaxed);
            tracing::info!(drain_ms = drain.as_millis() as u64, "shutdown requested: not ready, draining");
            tokio::time::sleep(drain).await;
            tracing::info!(grace_ms = grace.as_millis() as u64, "closing the listener; finishing in-flight requests");
            let _ = closed_tx.send(());
        };
        tracing::info!(addr = %self.local_addr(), workers = state.pool.worker_count, "pith serve listening");
        let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
        let serve = axum::serve(self.listener, app).with_graceful_shutdown(begin_shutdown).into_future();
        tokio::pin!(serve);
        // Either the server ends by itself (no request in flight when the listener closed) or the
        // listener closes first and in-flight requests get the grace period. Both end in one log line.
        let ended = tokio::select! {
            r = &mut serve => Some(r),
            _ = closed_rx => None,
        };
        let result = match ended {
            Some(r) => r,
            None => match tokio::time::timeout(grace, serve).await {
                Ok(r) => r,
                Err(_) => {
                    tracing::warn!("in-flight requests still running at the shutdown deadline; exiting anyway");
                    renderer.shutdown().await;
                    return Ok(());
                }
            },
        };
        renderer.shutdown().await;
        tracing::info!("shutdown complete");
        result
    }
}

/// Resolves on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
///
/// The handlers are installed when this function is called, not when the returned future is first
/// polled: axum polls the shutdown future from a task of its own, and a SIGTERM arriving before that
/// task ran would otherwise meet the default action and kill the process without a graceful shutdown.
/// Must be called inside the Tokio runtime.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let (term, int) = {
        use tokio::signal::unix::{SignalKind, signal};
        (signal(SignalKind::terminate()).ok(), signal(SignalKind::interrupt()).ok())
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = wait(term) => {}
                _ = wait(int) => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

//! Optional per-client-IP rate limit (off by default): a token bucket per address, refilled at
//! `rate_limit.per_second` up to `rate_limit.burst`. Over the limit the answer is 429 with
//! `Retry-After`. Behind a proxy every client shares the proxy's address, so leave it off there and
//! limit at the proxy instead. Health, readiness and metrics probes are never limited.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::state::AppState;
use crate::configuration::RateLimitConfig;

/// Buckets are forgotten once this many exist and they are full again.
const SWEEP_AT: usize = 65_536;

pub struct RateLimiter {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    pub fn new(cfg: &RateLimitConfig) -> RateLimiter {
        RateLimiter { per_second: cfg.per_second, burst: f64::from(cfg.burst), buckets: Mutex::default() }
    }

    /// Take a token for `ip`; on refusal, the seconds until one is available.
    pub fn check(&self, ip: IpAddr) -> Result<(), u64> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= SWEEP_AT {
            let (rate, burst) = (self.per_second, self.burst);
            buckets.retain(|_, (t, at)| *t + now.duration_since(*at).as_secs_f64() * rate < burst);
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / self.per_second).ceil().max(1.0) as u64)
        }
    }
}

/// Middleware: refuse over-limit clients before any work.
pub async fn limit(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if let Some(limiter) = &state.limiter {
        let exempt = matches!(req.uri().path(), "/healthz" | "/readyz" | "/metrics");
        let ip = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        if !exempt
            && let Some(ip) = ip
            && let Err(secs) = limiter.check(ip)
        {
            return ApiError::TooManyRequests { retry_after_secs: secs }.into_response();
        }
    }
    next.run(req).await
}

//! Optional per-client-IP rate limit (off by default): a token bucket per address, refilled at
//! `rate_limit.per_second` up to `rate_limit.burst`, kept by `governor` (GCRA, the token bucket's
//! equivalent in one timestamp per address). Over the limit the answer is 429 with `Retry-After`.
//! Behind a proxy every client shares the proxy's address, so leave it off there and limit at the
//! proxy instead. Health, readiness and metrics probes are never limited.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use super::error::ApiError;
use crate::configuration::RateLimitConfig;

/// Every this many checks, addresses whose bucket is full again are forgotten, so the table holds
/// the recently active clients rather than every address ever seen.
const SWEEP_EVERY: u64 = 65_536;

pub struct RateLimiter {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    checks: AtomicU64,
}

impl RateLimiter {
    /// The limiter, or why the settings cannot make a quota (a zero burst, or a rate that is not
    /// positive or too small to express as an interval).
    pub fn new(cfg: &RateLimitConfig) -> Result<RateLimiter, String> {
        let unusable =
            || format!("rate_limit: per_second = {} and burst = {} make no quota", cfg.per_second, cfg.burst);
        let burst = NonZeroU32::new(cfg.burst).ok_or_else(unusable)?;
        let period = Duration::try_from_secs_f64(1.0 / cfg.per_second).map_err(|_| unusable())?;
        let quota = Quota::with_period(period).ok_or_else(unusable)?.allow_burst(burst);
        Ok(RateLimiter { limiter: DefaultKeyedRateLimiter::keyed(quota), checks: AtomicU64::new(0) })
    }

    /// Take a token for `ip`; on refusal, the whole seconds until one is available (at least 1).
    pub fn check(&self, ip: IpAddr) -> Result<(), u64> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        self.limiter.check_key(&ip).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            wait.as_secs_f64().ceil().max(1.0) as u64
        })
    }
}

/// Middleware: refuse over-limit clients before any work. Its state is the limiter alone (none when
/// rate limiting is off), so this file needs nothing of the service's shared state.
pub async fn limit(State(limiter): State<Option<Arc<RateLimiter>>>, req: Request, next: Next) -> Response {
    if let Some(limiter) = &limiter {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(per_second: f64, burst: u32) -> Result<RateLimiter, String> {
        RateLimiter::new(&RateLimitConfig { enabled: true, per_second, burst })
    }

    #[test]
    fn a_burst_then_refusal_with_the_wait_per_address() {
        let l = limiter(0.5, 2).unwrap();
        let (a, b): (IpAddr, IpAddr) = ("192.0.2.1".parse().unwrap(), "2001:db8::1".parse().unwrap());
        assert_eq!((l.check(a), l.check(a)), (Ok(()), Ok(())));
        // One token every two seconds: the next is about two seconds away.
        assert_eq!(l.check(a), Err(2));
        assert_eq!(l.check(b), Ok(()), "another address has its own bucket");
    }

    #[test]
    fn settings_that_make_no_quota_are_refused() {
        assert!(limiter(20.0, 0).is_err());
        assert!(limiter(0.0, 5).is_err());
        assert!(limiter(1e-300, 5).is_err());
        assert!(limiter(20.0, 40).is_ok());
    }
}

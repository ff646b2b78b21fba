//! `pith serve`: the HTTP service. URL or HTML in, JSON out, safe to put in front of a crawler. Its
//! settings are [`crate::configuration::Config`] (shared with the CLI).
//!
//! | module | what lives there |
//! |---|---|
//! | [`startup`] | building the state and router, binding, running, graceful shutdown |
//! | [`routes`] | the handlers: extract, batch, algorithms, health, metrics, OpenAPI |
//! | [`jobs`] | the job runner both extract routes share: cache → fetch → pool → engine |
//! | [`cache`] | the moka result cache |
//! | [`site_templates`] | the sites' templates the service learns (`[site_templates]`) |
//! | [`pool`] | the bounded blocking pool extraction runs on |
//! | [`error`] | `ApiError` and its `application/problem+json` rendering |
//! | [`metrics`] | Prometheus counters and histograms, in the 0.0.4 text format |
//! | [`rate_limit`] | the optional per-client-IP token bucket (`governor`) |
//! | [`telemetry`] | the tracing subscriber and the one-line-per-request log |
//! | [`state`] | what every handler shares |
//! | [`wire`] | the wire types: the request as sent, the options it is checked into, the answer |

pub mod cache;
pub mod error;
pub mod jobs;
pub mod metrics;
pub mod pool;
pub mod rate_limit;
pub mod routes;
pub mod site_templates;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod wire;

pub use startup::{Application, StartupError};

/// Run the service with `config` until SIGTERM/SIGINT: install logging, build, serve, shut down.
pub async fn serve(config: crate::configuration::Config) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    telemetry::init(&config.log);
    let app = Application::build(config).await?;
    app.run_until_stopped().await?;
    Ok(())
}

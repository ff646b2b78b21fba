//! The application's configuration: one typed struct, read in three layers, used by the HTTP service
//! (every section) and by the CLI (the algorithm parameters, `[params]`), so neither reaches into the
//! other for it.
//!
//! 1. `config/default.toml`, embedded with `include_str!` so `pith serve` works with no files around;
//! 2. an optional `--config FILE` with any subset of the same keys;
//! 3. `PITH_<SECTION>__<KEY>` environment variables (`__` separates nesting levels).
//!
//! The layering is `figment`'s: each layer is a provider merged over the one before, so every layer
//! uses the same key names, a misspelt key is an error rather than a silently ignored setting, and an
//! error names the key and the layer its bad value came from (a `PITH_` variable, or the TOML file
//! by path). Files are parsed with the `toml` crate the rest of pith uses, through a small
//! [`figment::providers::Format`].

use std::net::SocketAddr;
use std::path::Path;

use figment::Figment;
use figment::providers::{Env, Format};
use serde::Deserialize;

/// The embedded defaults; also the documentation of every setting.
pub use crate::algorithms::contract::params::DEFAULT_TOML;

/// Prefix of the environment variables that override settings.
pub const ENV_PREFIX: &str = "PITH_";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub server: ServerConfig,
    pub pool: PoolConfig,
    pub extract: ExtractConfig,
    pub fetch: crate::fetch::FetchConfig,
    pub cache: CacheConfig,
    /// Learning site templates from the pages the service extracts (`[site_templates]`, off by default).
    pub site_templates: SiteTemplatesConfig,
    pub rate_limit: RateLimitConfig,
    pub log: LogConfig,
    /// The headless browser (`[render]`).
    #[serde(default)]
    pub render: crate::browser::RenderConfig,
    /// Every algorithm's parameters (the `[params]` table); absent keys keep the papers' values.
    #[serde(default)]
    pub params: crate::algorithms::Params,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    pub listen: SocketAddr,
    pub body_limit_bytes: usize,
    pub max_batch_items: usize,
    pub batch_concurrency: usize,
    pub drain_delay_ms: u64,
    pub shutdown_grace_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolConfig {
    /// 0 = one per CPU; see [`PoolConfig::worker_count`].
    pub workers: usize,
    pub queue_depth: usize,
    /// Expected peak memory of the extractions running at once, in bytes (see `server::pool`).
    pub memory_budget_bytes: u64,
    pub retry_after_secs: u64,
}

impl PoolConfig {
    /// The number of extraction threads, with 0 resolved to the CPU count.
    pub fn worker_count(&self) -> usize {
        if self.workers == 0 { std::thread::available_parallelism().map_or(2, |n| n.get()) } else { self.workers }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractConfig {
    pub default_algorithm: crate::algorithms::Algorithm,
    pub max_input_bytes: usize,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    pub enabled: bool,
    pub capacity_bytes: u64,
    pub ttl_secs: u64,
}

/// The service's site templates (see `server::site_templates`). Off by default: a template changes
/// a page's answer by what the replica saw of its site before, which a caller must opt into.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteTemplatesConfig {
    pub enabled: bool,
    /// Sites with a template at most.
    pub max_sites: u64,
    /// Memory for all templates together, in MiB.
    pub max_mib: u64,
    /// Seconds a template lives after it last learned a page: a site's template is learned again
    /// when it has changed its chrome.
    pub ttl_secs: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimitConfig {
    pub enabled: bool,
    pub per_second: f64,
    pub burst: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogConfig {
    pub format: LogFormat,
    pub level: String,
}

/// A configuration that could not be read, merged or checked.
#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct ConfigError(pub String);

impl Default for Config {
    /// The embedded defaults alone (no file, no environment).
    fn default() -> Self {
        Config::extract(Figment::from(Toml::string(DEFAULT_TOML))).expect("the embedded config/default.toml is valid")
    }
}

impl Config {
    /// Defaults, then `file`, then the process's `PITH_*` environment.
    pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
        let mut layers = Figment::from(Toml::string(DEFAULT_TOML));
        if let Some(path) = file {
            layers = layers.merge(Toml::file_exact(path));
        }
        Config::extract(layers.merge(environment()))
    }

    fn extract(layers: Figment) -> Result<Config, ConfigError> {
        let config: Config = layers.extract().map_err(|e| ConfigError(e.to_string()))?;
        config.check()?;
        Ok(config)
    }

    /// Reject values that parse but cannot work.
    fn check(&self) -> Result<(), ConfigError> {
        let bad = |m: &str| Err(ConfigError(m.to_string()));
        if self.server.max_batch_items == 0 || self.server.batch_concurrency == 0 {
            return bad("server.max_batch_items and server.batch_concurrency must be at least 1");
        }
        if self.rate_limit.enabled && (self.rate_limit.per_second <= 0.0 || self.rate_limit.burst == 0) {
            return bad("rate_limit.per_second and rate_limit.burst must be positive");
        }
        let t = &self.site_templates;
        if t.enabled && (t.max_sites == 0 || t.max_mib == 0 || t.ttl_secs == 0) {
            return bad(
                "site_templates.max_sites, site_templates.max_mib and site_templates.ttl_secs must be positive",
            );
        }
        Ok(())
    }
}

/// TOML through the `toml` crate pith already builds (figment's own TOML provider pins an older one).
struct Toml;

impl Format for Toml {
    type Error = toml::de::Error;
    const NAME: &'static str = "TOML";

    fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Self::Error> {
        toml::from_str(text)
    }
}

/// `PITH_<SECTION>__<KEY>` variables. Values are read as figment values (`true`, `5000`, `["a", "b"]`),
/// else as strings. Variables whose first segment is not a section of the defaults, or that have no
/// key after it, are ignored (other tools may use the prefix too: `PITH_TEST_LOG`); a wrong key inside
/// a known section is an error.
fn environment() -> Env {
    Env::prefixed(ENV_PREFIX)
        .filter(|name| {
            name.as_str().split_once("__").is_some_and(|(section, key)| {
                !key.is_empty() && SECTIONS.iter().any(|s| section.eq_ignore_ascii_case(s))
            })
        })
        .split("__")
}

/// The top-level tables of `config/default.toml`, the only first segments `PITH_*` variables may use.
const SECTIONS: &[&str] =
    &["server", "pool", "extract", "fetch", "cache", "site_templates", "rate_limit", "log", "render", "params"];

#[cfg(test)]
// figment's `Jail` closures must return its (large) `figment::Error`.
#[allow(clippy::result_large_err)]
mod tests {

    #[test]
    fn the_engine_reads_the_params_table_as_the_configuration_does() {
        use crate::algorithms::Params;
        let configured = serde_json::to_value(Params::configured().unwrap()).unwrap();
        assert_eq!(configured, serde_json::to_value(Config::default().params).unwrap());
        let file = "[server]\nlisten = \"0.0.0.0:1\"\n[params.auto]\nlead_chars = 7\n";
        assert_eq!(Params::from_settings(file).unwrap().auto.lead_chars, 7);
        assert!(Params::from_settings("[params.auto]\nno_such_key = 1\n").is_err());
    }

    #[test]
    fn algorithm_params_come_from_the_params_table_and_the_environment() {
        use crate::algorithms::auto::NoArticleText;
        let c = Config::from_layers(None, std::iter::empty()).unwrap();
        assert_eq!(c.params.auto.no_article_text, NoArticleText::Full);
        let env = [("PITH_PARAMS__AUTO__NO_ARTICLE_TEXT".to_string(), "lead".to_string())];
        let c = Config::from_layers(Some("[params.anchor_ratio]\nmin_chars = 3\n"), env).unwrap();
        assert_eq!(c.params.auto.no_article_text, NoArticleText::Lead);
        assert_eq!(c.params.anchor_ratio.min_chars, 3);
        assert!(Config::from_layers(Some("[params.auto]\nno_such_key = 1\n"), std::iter::empty()).is_err());
    }
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    impl Config {
        /// [`Config::load`] with `file` as the file's text and `env` as the whole environment, inside
        /// a figment jail (a private working directory and environment, one test at a time).
        fn from_layers(
            file: Option<&str>,
            env: impl IntoIterator<Item = (String, String)>,
        ) -> Result<Config, ConfigError> {
            let mut out = None;
            figment::Jail::expect_with(|jail| {
                jail.clear_env();
                for (name, value) in env {
                    jail.set_env(name, value);
                }
                if let Some(text) = file {
                    jail.create_file("pith.toml", text)?;
                }
                out = Some(Config::load(file.map(|_| Path::new("pith.toml"))));
                Ok(())
            });
            out.expect("the jail ran")
        }
    }

    #[test]
    fn environment_values_are_typed_and_errors_name_their_layer() {
        let c = Config::from_layers(
            None,
            env(&[
                ("PITH_FETCH__ALLOW_PRIVATE_HOSTS", r#"["intranet.example", "wiki.internal"]"#),
                ("PITH_RATE_LIMIT__PER_SECOND", "5"),
                ("PITH_LOG__LEVEL", "info,pith=debug"),
                ("PITH_FETCH__USER_AGENT", "crawler/2 (+https://example.org/bot)"),
                ("PITH_TEST_LOG", "1"),
                ("PITH_SERVER", "x"),
            ]),
        )
        .unwrap();
        assert_eq!(c.fetch.allow_private_hosts, ["intranet.example", "wiki.internal"]);
        assert_eq!(c.rate_limit.per_second, 5.0);
        assert_eq!(c.log.level, "info,pith=debug");
        assert_eq!(c.fetch.user_agent, "crawler/2 (+https://example.org/bot)");
        let e = Config::from_layers(None, env(&[("PITH_FETCH__MAX_BYTES", "lots")])).unwrap_err();
        assert!(e.0.contains("MAX_BYTES") && e.0.contains("`PITH_` environment"), "{e}");
        let e = Config::from_layers(Some("[pool]\nworkers = \"two\"\n"), env(&[])).unwrap_err();
        assert!(e.0.contains("pith.toml"), "{e}");
        figment::Jail::expect_with(|jail| {
            jail.clear_env();
            assert!(Config::load(Some(Path::new("missing.toml"))).is_err(), "a named file must exist");
            Ok(())
        });
    }

    #[test]
    fn sections_are_the_tables_of_the_defaults() {
        let defaults: toml::Table = DEFAULT_TOML.parse().unwrap();
        let mut tables: Vec<&str> = defaults.keys().map(String::as_str).collect();
        let mut sections = SECTIONS.to_vec();
        tables.sort_unstable();
        sections.sort_unstable();
        assert_eq!(tables, sections);
    }

    #[test]
    fn defaults_parse() {
        let c = Config::default();
        assert_eq!(c.server.body_limit_bytes, 10 * 1024 * 1024);
        assert!(!c.fetch.allow_private_networks);
        assert!(!c.rate_limit.enabled);
        assert!(!c.site_templates.enabled, "site templates are opt-in");
        let on = Config::from_layers(None, env(&[("PITH_SITE_TEMPLATES__ENABLED", "true")])).unwrap();
        assert!(on.site_templates.enabled);
        assert!(
            Config::from_layers(
                None,
                env(&[("PITH_SITE_TEMPLATES__MAX_MIB", "0"), ("PITH_SITE_TEMPLATES__ENABLED", "true")])
            )
            .is_err()
        );
        // The file states the same auto thresholds as the code's defaults.
        assert_eq!(c.params.auto.type_thresholds, crate::algorithms::contract::params::TypeThresholds::CROSS_VALIDATED);
        assert_eq!(
            c.params.auto.block_threshold,
            crate::algorithms::contract::params::AutoParams::default().block_threshold
        );
        let listing =
            Config::from_layers(None, env(&[("PITH_PARAMS__AUTO__TYPE_THRESHOLDS__LISTING", "0.7")])).unwrap();
        assert_eq!(listing.params.auto.type_thresholds.listing, Some(0.7));
    }

    #[test]
    fn file_then_env_override() {
        let c = Config::from_layers(
            Some("[server]\nlisten = \"127.0.0.1:1\"\n[pool]\nworkers = 3\n"),
            env(&[
                ("PITH_FETCH__ALLOW_PRIVATE_NETWORKS", "true"),
                ("PITH_SERVER__LISTEN", "127.0.0.1:9999"),
                ("PITH_LOG__FORMAT", "json"),
                ("PITH_UNRELATED", "x"),
                ("OTHER", "y"),
            ]),
        )
        .unwrap();
        assert!(c.fetch.allow_private_networks);
        assert_eq!(c.server.listen.port(), 9999);
        assert_eq!(c.pool.workers, 3);
        assert_eq!(c.log.format, LogFormat::Json);
    }

    #[test]
    fn misspelt_keys_are_errors() {
        assert!(Config::from_layers(Some("[fetch]\nallow_private = true\n"), env(&[])).is_err());
        assert!(Config::from_layers(None, env(&[("PITH_FETCH__MAX_BYTE", "1")])).is_err());
        assert!(Config::from_layers(None, env(&[("PITH_EXTRACT__DEFAULT_ALGORITHM", "nope")])).is_err());
    }
}

//! Service configuration: one typed struct, read in three layers.
//!
//! 1. `config/default.toml`, embedded with `include_str!` so `pith serve` works with no files around;
//! 2. an optional `--config FILE` with any subset of the same keys;
//! 3. `PITH_<SECTION>__<KEY>` environment variables (`__` separates nesting levels).
//!
//! Layers are merged as TOML tables before deserialising, so every layer uses the same key names and a
//! misspelt key is an error rather than a silently ignored setting.

use std::net::SocketAddr;
use std::path::Path;

use serde::Deserialize;

/// The embedded defaults; also the documentation of every setting.
pub const DEFAULT_TOML: &str = include_str!("../../config/default.toml");

/// Prefix of the environment variables that override settings.
pub const ENV_PREFIX: &str = "PITH_";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub server: ServerConfig,
    pub pool: PoolConfig,
    pub extract: ExtractConfig,
    pub fetch: FetchConfig,
    pub cache: CacheConfig,
    pub rate_limit: RateLimitConfig,
    pub log: LogConfig,
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
    pub default_algorithm: crate::Algorithm,
    pub max_input_bytes: usize,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchConfig {
    pub connect_timeout_ms: u64,
    pub read_timeout_ms: u64,
    pub total_timeout_ms: u64,
    pub max_redirects: usize,
    pub max_bytes: usize,
    pub user_agent: String,
    pub allow_private_networks: bool,
    pub allow_private_hosts: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    pub enabled: bool,
    pub capacity_bytes: u64,
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
        Config::from_layers(None, std::iter::empty()).expect("the embedded config/default.toml is valid")
    }
}

impl Config {
    /// Defaults, then `file`, then the process's `PITH_*` environment.
    pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
        let text = match file {
            Some(p) => {
                Some(std::fs::read_to_string(p).map_err(|e| ConfigError(format!("cannot read {}: {e}", p.display())))?)
            }
            None => None,
        };
        Config::from_layers(text.as_deref(), std::env::vars())
    }

    /// Defaults, then the TOML text of a file, then `(name, value)` environment pairs. Variables not
    /// starting with `PITH_`, or whose first segment is not a section of the defaults, are ignored
    /// (other tools may use the prefix too); a wrong key inside a known section is an error.
    pub fn from_layers(
        file: Option<&str>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let mut table: toml::Table =
            DEFAULT_TOML.parse().map_err(|e| ConfigError(format!("embedded defaults: {e}")))?;
        if let Some(text) = file {
            let over: toml::Table = text.parse().map_err(|e| ConfigError(format!("config file: {e}")))?;
            merge(&mut table, over);
        }
        for (name, value) in env {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else { continue };
            let path: Vec<String> = rest.split("__").map(str::to_ascii_lowercase).collect();
            if path.len() < 2 || !table.get(&path[0]).is_some_and(toml::Value::is_table) {
                continue;
            }
            set_path(&mut table, &path, env_value(&value)).map_err(|e| ConfigError(format!("{name}: {e}")))?;
        }
        let config: Config =
            toml::Value::Table(table).try_into().map_err(|e: toml::de::Error| ConfigError(e.to_string()))?;
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
        Ok(())
    }
}

/// Read an environment value as a TOML value (so `true` and `5000` are typed), else as a string.
fn env_value(raw: &str) -> toml::Value {
    match format!("v = {raw}").parse::<toml::Table>() {
        Ok(mut t) => t.remove("v").unwrap_or_else(|| toml::Value::String(raw.to_string())),
        Err(_) => toml::Value::String(raw.to_string()),
    }
}

/// Deep-merge `over` into `base`: tables merge key by key, anything else replaces.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

fn set_path(table: &mut toml::Table, path: &[String], value: toml::Value) -> Result<(), String> {
    let (last, parents) = path.split_last().expect("path has at least two segments");
    let mut t = table;
    for p in parents {
        let v = t.entry(p.clone()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        t = v.as_table_mut().ok_or_else(|| format!("{p} is not a section"))?;
    }
    t.insert(last.clone(), value);
    Ok(())
}

#[cfg(test)]
mod tests {

    #[test]
    fn algorithm_params_come_from_the_params_table_and_the_environment() {
        use crate::algorithms::auto::NoArticleText;
        let c = Config::from_layers(None, std::iter::empty()).unwrap();
        assert_eq!(c.params.auto.no_article_text, NoArticleText::Lead);
        let env = [("PITH_PARAMS__AUTO__NO_ARTICLE_TEXT".to_string(), "full".to_string())];
        let c = Config::from_layers(Some("[params.anchor_ratio]\nmin_chars = 3\n"), env).unwrap();
        assert_eq!(c.params.auto.no_article_text, NoArticleText::Full);
        assert_eq!(c.params.anchor_ratio.min_chars, 3);
        assert!(Config::from_layers(Some("[params.auto]\nno_such_key = 1\n"), std::iter::empty()).is_err());
    }
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn defaults_parse() {
        let c = Config::default();
        assert_eq!(c.server.body_limit_bytes, 10 * 1024 * 1024);
        assert!(!c.fetch.allow_private_networks);
        assert!(!c.rate_limit.enabled);
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

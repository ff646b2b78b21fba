//! Result cache (moka): crawlers re-send the same pages, and extraction costs far more than a lookup.
//!
//! Keys are (source, algorithm, options). The source is the normalised URL for fetched pages, and a
//! 128-bit keyed hash of the bytes (plus the given address and charset, which change the result) for
//! HTML sent in the request; the hash keys are random per process so nobody can aim a collision at
//! another caller's entry. Capacity is counted in bytes of results (a weigher), entries expire after a
//! TTL, and a request with `Cache-Control: no-cache` skips the lookup (its fresh result is stored).

use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;
use std::time::Duration;

use moka::future::Cache;

use super::wire::JobOptions;
use crate::configuration::CacheConfig;
use crate::fetch::FetchInfo;
use crate::output::Extraction;

/// Where the page came from, as far as the cache is concerned.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Source {
    /// A fetched page: its normalised URL (fragment dropped; scheme and host lower-cased, default
    /// port removed by `url`).
    Url(String),
    /// Bytes from the request, with the address and charset that came with them.
    Content { hash: u128, url: Option<String>, charset: Option<String> },
}

/// What an answer depends on: where the page came from, the job's options, and the site template
/// it was answered with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub source: Source,
    pub options: JobOptions,
    /// Pages the site's template had learned when the answer was made (0 without one): a template
    /// only ever adds pages until it is full, so within a replica the count names its state (a
    /// template expired and learned again reaches the same counts from other pages: close enough for
    /// an entry that expires itself), and an answer made with fewer pages is not served once the
    /// template knows more (see `jobs`).
    pub site_pages: usize,
}

/// A cached answer: the result, and how it was fetched when it was.
#[derive(Debug)]
pub struct Cached {
    pub result: Extraction,
    pub fetch: Option<FetchInfo>,
}

pub struct ResultCache {
    inner: Option<Cache<Key, Arc<Cached>>>,
    hashers: (RandomState, RandomState),
}

impl ResultCache {
    pub fn new(cfg: &CacheConfig) -> ResultCache {
        let inner = cfg.enabled.then(|| {
            Cache::builder()
                .max_capacity(cfg.capacity_bytes)
                .weigher(|k: &Key, v: &Arc<Cached>| weight(k, v))
                .time_to_live(Duration::from_secs(cfg.ttl_secs))
                .build()
        });
        ResultCache { inner, hashers: (RandomState::new(), RandomState::new()) }
    }

    pub fn enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// A 128-bit keyed hash of request bytes.
    pub fn content_hash(&self, bytes: &[u8]) -> u128 {
        (u128::from(self.hashers.0.hash_one(bytes)) << 64) | u128::from(self.hashers.1.hash_one(bytes))
    }

    pub async fn get(&self, key: &Key) -> Option<Arc<Cached>> {
        self.inner.as_ref()?.get(key).await
    }

    pub async fn insert(&self, key: Key, value: Arc<Cached>) {
        if let Some(c) = &self.inner {
            c.insert(key, value).await;
        }
    }

    /// (entries, weighted size in bytes), for `/metrics`. Runs moka's pending maintenance first so
    /// the numbers are current.
    pub async fn usage(&self) -> (u64, u64) {
        usage(self.inner.as_ref()).await
    }
}

/// (entries, weighted size) of an optional moka cache, its pending maintenance run first so the
/// numbers are current: what `/metrics` reports of every cache the service keeps.
pub(super) async fn usage<K, V>(cache: Option<&Cache<K, V>>) -> (u64, u64)
where
    K: std::hash::Hash + Eq + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
{
    match cache {
        Some(c) => {
            c.run_pending_tasks().await;
            (c.entry_count(), c.weighted_size())
        }
        None => (0, 0),
    }
}

/// Approximate bytes held by one entry.
fn weight(k: &Key, v: &Cached) -> u32 {
    let key = match &k.source {
        Source::Url(u) => u.len(),
        Source::Content { url, .. } => 16 + url.as_ref().map_or(0, String::len),
    };
    let r = &v.result;
    let blocks: usize = r.blocks.iter().map(|b| 96 + b.path.len() + b.scores.len() * 48).sum();
    let fetch = v.fetch.as_ref().map_or(0, |f| 64 + f.final_url.len());
    let total = 256 + key + r.content.text.len() + r.content.html.len() + blocks + fetch;
    u32::try_from(total).unwrap_or(u32::MAX)
}

//! Fetching pages for `{"url": ...}` requests, safely enough to sit in front of a crawler.
//!
//! * **SSRF guard.** Only `http`/`https`. Every address a host name resolves to is checked by
//!   [`GuardedResolver`], a `reqwest` resolver hook, so the check applies to the address actually
//!   connected to (not the host string, which DNS can point anywhere). IP-literal hosts never reach a
//!   resolver, so [`Fetcher::check_url`] checks them directly. Redirects are followed by hand
//!   (`redirect::Policy::none()`), so every hop goes through both checks again. Proxies from the
//!   environment are ignored: through a proxy the resolver would only ever see the proxy's address.
//! * **Bounded cost.** Connect, read and total timeouts; a redirect limit; the body is read chunk by
//!   chunk after decompression and refused as soon as it passes `fetch.max_bytes`, so neither an
//!   endless body nor a gzip bomb can exhaust memory.
//! * **Faithful decoding.** The `Content-Type` charset is handed to the decoder; content types that
//!   are not HTML are refused before the body is read.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header;
use serde::{Deserialize, Serialize};
use url::Url;

/// The fetcher's settings (`[fetch]` in the configuration).
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

/// What the caller learns about a fetch (the `fetch` member of a result).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FetchInfo {
    /// The origin's status code for the final hop.
    pub status: u16,
    /// The address after redirects; relative links resolve against it.
    pub final_url: String,
    pub content_type: Option<String>,
    /// Bytes of body received, after decompression.
    pub bytes: usize,
    /// Milliseconds from the first request to the last body byte.
    pub ms: f64,
}

/// A fetched page.
#[derive(Debug)]
pub struct Fetched {
    pub body: Vec<u8>,
    /// The `charset` parameter of `Content-Type`, when it names an encoding the decoder knows.
    pub charset: Option<String>,
    pub info: FetchInfo,
}

/// Why a fetch failed; each maps to one status code and one `fetch` outcome metric label.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("{0}")]
    BadUrl(String),
    #[error("{0}")]
    Refused(String),
    #[error("the origin did not answer within {0} ms")]
    Timeout(u64),
    #[error("the origin answered {0}")]
    Status(u16),
    #[error("the origin sent {0:?}, not HTML")]
    NotHtml(String),
    #[error("the origin sent more than {0} bytes (after decompression); fetch.max_bytes stops there")]
    TooLarge(usize),
    #[error("more than {0} redirects")]
    TooManyRedirects(usize),
    #[error("could not fetch the page: {0}")]
    Failed(String),
}

impl FetchError {
    /// Label for the `pith_fetches_total{outcome=...}` metric.
    pub fn outcome(&self) -> &'static str {
        match self {
            FetchError::BadUrl(_) => "bad_url",
            FetchError::Refused(_) => "refused",
            FetchError::Timeout(_) => "timeout",
            FetchError::Status(_) => "origin_status",
            FetchError::NotHtml(_) => "not_html",
            FetchError::TooLarge(_) => "too_large",
            FetchError::TooManyRedirects(_) => "redirects",
            FetchError::Failed(_) => "error",
        }
    }
}

pub use crate::net::is_public;

/// The default name lookup behind the guard: the system resolver (`getaddrinfo`, through tokio).
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// The resolver hook: asks the inner resolver once, then refuses the name if any of its addresses
/// is not public (a name mixing public and private addresses is a rebinding trick).
///
/// The answer is collected once and the very addresses that were checked are what the connector is
/// handed: there is no second lookup between the check and the connect, so a name whose DNS answer
/// changes (public for the check, 127.0.0.1 a moment later) cannot slip through. Every new
/// connection (every redirect hop to another host included) asks again and is checked again.
pub struct GuardedResolver {
    inner: Arc<dyn Resolve>,
    allow_private_networks: bool,
    /// Names exempt from the check (`fetch.allow_private_hosts`), lower-case.
    allow_private_hosts: Vec<String>,
}

impl GuardedResolver {
    /// Guard `inner` with the rules of `cfg` (`allow_private_networks`, `allow_private_hosts`).
    pub fn new(inner: Arc<dyn Resolve>, cfg: &FetchConfig) -> GuardedResolver {
        GuardedResolver {
            inner,
            allow_private_networks: cfg.allow_private_networks,
            allow_private_hosts: cfg.allow_private_hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
        }
    }
}

/// The error the resolver returns; found again in the `reqwest` error's source chain.
#[derive(Debug, thiserror::Error)]
#[error("{host} resolves to {ip}, an address in a refused range (fetch.allow_private_networks is off)")]
pub struct RefusedAddress {
    host: String,
    ip: IpAddr,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_ascii_lowercase();
        let allow = self.allow_private_networks || self.allow_private_hosts.contains(&host);
        let answer = self.inner.resolve(name);
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = answer.await?.collect();
            if !allow && let Some(bad) = addrs.iter().find(|a| !is_public(a.ip())) {
                return Err(Box::new(RefusedAddress { host, ip: bad.ip() }) as _);
            }
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// The HTTP client with its rules; one per process.
pub struct Fetcher {
    client: reqwest::Client,
    cfg: FetchConfig,
}

impl Fetcher {
    pub fn new(cfg: &FetchConfig) -> Result<Fetcher, reqwest::Error> {
        Fetcher::with_resolver(cfg, Arc::new(SystemResolver))
    }

    /// Like [`Fetcher::new`], with names looked up by `resolver` (a caching or DNS-over-HTTPS
    /// resolver, or a scripted one in tests). The SSRF guard wraps it: every address it answers is
    /// checked, and only checked addresses are connected to.
    pub fn with_resolver(cfg: &FetchConfig, resolver: Arc<dyn Resolve>) -> Result<Fetcher, reqwest::Error> {
        let client = reqwest::Client::builder()
            .user_agent(cfg.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .connect_timeout(Duration::from_millis(cfg.connect_timeout_ms))
            .read_timeout(Duration::from_millis(cfg.read_timeout_ms))
            .dns_resolver(Arc::new(GuardedResolver::new(resolver, cfg)))
            .build()?;
        Ok(Fetcher { client, cfg: cfg.clone() })
    }

    /// Check a URL before connecting: scheme, and the address when the host is an IP literal.
    pub fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::Refused(format!("scheme {:?} is not allowed; only http and https", url.scheme())));
        }
        let ip = match url.host() {
            None => return Err(FetchError::BadUrl(format!("{url} has no host"))),
            Some(url::Host::Ipv4(v4)) => IpAddr::V4(v4),
            Some(url::Host::Ipv6(v6)) => IpAddr::V6(v6),
            Some(url::Host::Domain(_)) => return Ok(()), // checked by the resolver hook
        };
        if !self.cfg.allow_private_networks && !is_public(ip) {
            return Err(FetchError::Refused(format!(
                "{ip} is an address in a refused range (fetch.allow_private_networks is off)"
            )));
        }
        Ok(())
    }

    /// Fetch a page under the total deadline.
    pub async fn fetch(&self, url: &Url) -> Result<Fetched, FetchError> {
        let total = self.cfg.total_timeout_ms;
        match tokio::time::timeout(Duration::from_millis(total), self.fetch_inner(url.clone())).await {
            Ok(r) => r,
            Err(_) => Err(FetchError::Timeout(total)),
        }
    }

    async fn fetch_inner(&self, mut url: Url) -> Result<Fetched, FetchError> {
        let start = Instant::now();
        let mut hops = 0;
        let mut resp = loop {
            self.check_url(&url)?;
            let resp = self.client.get(url.clone()).send().await.map_err(|e| self.classify(e))?;
            let location = resp.headers().get(header::LOCATION).and_then(|l| l.to_str().ok());
            match location {
                Some(loc) if resp.status().is_redirection() => {
                    if hops == self.cfg.max_redirects {
                        return Err(FetchError::TooManyRedirects(hops));
                    }
                    hops += 1;
                    url = url.join(loc).map_err(|e| FetchError::Failed(format!("bad redirect location: {e}")))?;
                }
                _ => break resp,
            }
        };
        let status = resp.status().as_u16();
        if !resp.status().is_success() {
            return Err(FetchError::Status(status));
        }
        let content_type = resp.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
        let charset = match &content_type {
            Some(ct) => {
                let (mime, charset) = split_content_type(ct);
                if !matches!(mime.as_str(), "text/html" | "application/xhtml+xml" | "") {
                    return Err(FetchError::NotHtml(mime));
                }
                charset.filter(|c| encoding_rs::Encoding::for_label(c.as_bytes()).is_some())
            }
            None => None,
        };
        let max = self.cfg.max_bytes;
        if resp.content_length().is_some_and(|n| n > max as u64) {
            return Err(FetchError::TooLarge(max));
        }
        let mut body = Vec::new();
        while let Some(chunk) = resp.chunk().await.map_err(|e| self.classify(e))? {
            if body.len() + chunk.len() > max {
                return Err(FetchError::TooLarge(max));
            }
            body.extend_from_slice(&chunk);
        }
        let info = FetchInfo {
            status,
            final_url: url.to_string(),
            content_type,
            bytes: body.len(),
            ms: start.elapsed().as_secs_f64() * 1000.0,
        };
        Ok(Fetched { body, charset, info })
    }

    /// Turn a `reqwest` error into ours, finding the resolver's refusal in the source chain.
    fn classify(&self, e: reqwest::Error) -> FetchError {
        let mut src: Option<&(dyn std::error::Error + 'static)> = Some(&e);
        while let Some(s) = src {
            if let Some(r) = s.downcast_ref::<RefusedAddress>() {
                return FetchError::Refused(r.to_string());
            }
            src = s.source();
        }
        if e.is_timeout() {
            return FetchError::Timeout(self.cfg.read_timeout_ms.min(self.cfg.total_timeout_ms));
        }
        let mut src = std::error::Error::source(&e);
        let mut msg = e.to_string();
        while let Some(s) = src {
            msg.push_str(": ");
            msg.push_str(&s.to_string());
            src = s.source();
        }
        FetchError::Failed(msg)
    }
}

/// `text/html; charset=GBK` → (`text/html`, `Some("GBK")`). Also used for request bodies.
pub fn split_content_type(ct: &str) -> (String, Option<String>) {
    let mut parts = ct.split(';');
    let mime = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim().eq_ignore_ascii_case("charset").then(|| v.trim().trim_matches('"').to_string())
    });
    (mime, charset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers the n-th lookup with `answers[n]` (the last answer ever after) and counts lookups: a
    /// DNS server that rebinds a name between two questions.
    struct Scripted {
        answers: Vec<Vec<IpAddr>>,
        calls: Arc<std::sync::atomic::AtomicUsize>,
    }

    impl Scripted {
        fn new(answers: &[&[&str]]) -> (Arc<Scripted>, Arc<std::sync::atomic::AtomicUsize>) {
            let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let answers = answers.iter().map(|a| a.iter().map(|ip| ip.parse().unwrap()).collect()).collect();
            (Arc::new(Scripted { answers, calls: calls.clone() }), calls)
        }
    }

    impl Resolve for Scripted {
        fn resolve(&self, _: Name) -> Resolving {
            let n = self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let answer: Vec<SocketAddr> =
                self.answers[n.min(self.answers.len() - 1)].iter().map(|ip| SocketAddr::new(*ip, 0)).collect();
            Box::pin(async move { Ok(Box::new(answer.into_iter()) as Addrs) })
        }
    }

    fn calls(c: &std::sync::atomic::AtomicUsize) -> usize {
        c.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// A loopback listener that counts accepted connections and answers each with a small page.
    async fn counting_listener() -> (u16, Arc<std::sync::atomic::AtomicUsize>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = accepted.clone();
        tokio::spawn(async move {
            while let Ok((mut sock, _)) = listener.accept().await {
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                tokio::spawn(async move {
                    let mut buf = [0u8; 4096];
                    let _ = sock.read(&mut buf).await;
                    let body = "<html><body><p>internal secret</p></body></html>";
                    let head = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                        body.len()
                    );
                    let _ = sock.write_all(format!("{head}{body}").as_bytes()).await;
                });
            }
        });
        (port, accepted)
    }

    #[tokio::test]
    async fn the_checked_answer_is_the_one_handed_to_the_connector() {
        let cfg = crate::configuration::Config::default().fetch;
        let (dns, lookups) = Scripted::new(&[&["8.8.8.8"], &["127.0.0.1"]]);
        let guard = GuardedResolver::new(dns, &cfg);
        let name = || "rebind.test".parse::<Name>().unwrap();
        let first: Vec<SocketAddr> = guard.resolve(name()).await.unwrap().collect();
        assert_eq!(first, ["8.8.8.8:0".parse::<SocketAddr>().unwrap()]);
        assert_eq!(calls(&lookups), 1, "one question per resolution, no second look");
        // The rebound answer is checked on its own the next time a connection needs the name.
        let second = guard.resolve(name()).await.err().expect("loopback is refused");
        assert!(second.downcast_ref::<RefusedAddress>().is_some(), "{second}");
        assert_eq!(calls(&lookups), 2);
        // An answer mixing a public and a private address is refused as a whole.
        let (dns, _) = Scripted::new(&[&["8.8.8.8", "::1"]]);
        assert!(GuardedResolver::new(dns, &cfg).resolve(name()).await.is_err());
    }

    #[tokio::test]
    async fn rebinding_between_check_and_connect_never_reaches_loopback() {
        let (port, accepted) = counting_listener().await;
        let url = Url::parse(&format!("http://rebind.test:{port}/")).unwrap();
        let mut cfg = crate::configuration::Config::default().fetch;
        cfg.connect_timeout_ms = 300;
        // Public for the first question, loopback for every later one: a fetcher that looked the
        // name up once to check it and again to connect would reach the listener here.
        let (dns, lookups) = Scripted::new(&[&["8.8.8.8"], &["127.0.0.1"]]);
        let f = Fetcher::with_resolver(&cfg, dns).unwrap();
        let first = f.fetch(&url).await;
        assert!(matches!(first, Err(FetchError::Failed(_) | FetchError::Timeout(_))), "{first:?}");
        assert_eq!(calls(&lookups), 1);
        let second = f.fetch(&url).await;
        assert!(matches!(second, Err(FetchError::Refused(_))), "{second:?}");
        assert_eq!(calls(&lookups), 2);
        assert_eq!(calls(&accepted), 0, "nothing connected to loopback");
        // The listener does count: the same name, allowed by configuration, reaches it.
        cfg.allow_private_hosts = vec!["rebind.test".into()];
        let (dns, _) = Scripted::new(&[&["127.0.0.1"]]);
        let ok = Fetcher::with_resolver(&cfg, dns).unwrap().fetch(&url).await;
        assert!(ok.is_ok(), "{ok:?}");
        assert_eq!(calls(&accepted), 1);
    }

    #[test]
    fn ipv6_and_numeric_ipv4_spellings_of_private_addresses_are_refused() {
        let f = Fetcher::new(&crate::configuration::Config::default().fetch).unwrap();
        for s in [
            "http://[::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:7f00:1]/",
            "http://[::127.0.0.1]/",
            "http://[64:ff9b::7f00:1]/",
            "http://[64:ff9b::a9fe:a9fe]/",
            "http://[64:ff9b:1::a00:1]/",
            "http://[2002:a9fe:a9fe::1]/",
            "http://[fe80::1]/",
            "http://[fc00::1]/",
            "http://[fd00::2]/",
            "http://[100::1]/",
            "http://2130706433/",
            "http://0177.0.0.1/",
            "http://0x7f.0.0.1/",
            "http://0x7f000001/",
            "http://017700000001/",
            "http://127.1/",
            "http://0x7f.1/",
            "http://127.0.0.1./",
            "http://0xa9.0xfe.0xa9.0xfe/",
            "http://0/",
        ] {
            let url = Url::parse(s).unwrap();
            assert!(!matches!(url.host(), Some(url::Host::Domain(_))), "{s} parses as a name, not an address");
            assert!(matches!(f.check_url(&url), Err(FetchError::Refused(_))), "{s} should be refused");
        }
        for s in ["http://134744072/", "http://[2606:4700::1111]/", "http://[64:ff9b::808:808]/"] {
            assert!(f.check_url(&Url::parse(s).unwrap()).is_ok(), "{s} is public");
        }
    }

    #[test]
    fn content_type_parts() {
        assert_eq!(split_content_type("text/html; charset=\"GBK\""), ("text/html".into(), Some("GBK".into())));
        assert_eq!(split_content_type("Application/PDF"), ("application/pdf".into(), None));
    }

    #[test]
    fn literal_hosts_and_schemes_are_checked() {
        let f = Fetcher::new(&crate::configuration::Config::default().fetch).unwrap();
        let u = |s: &str| Url::parse(s).unwrap();
        assert!(matches!(f.check_url(&u("http://127.0.0.1/")), Err(FetchError::Refused(_))));
        assert!(matches!(f.check_url(&u("http://[::ffff:a9fe:a9fe]/")), Err(FetchError::Refused(_))));
        assert!(matches!(f.check_url(&u("file:///etc/passwd")), Err(FetchError::Refused(_))));
        assert!(f.check_url(&u("https://example.com/")).is_ok());
    }
}

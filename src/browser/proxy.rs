//! The checking proxy every browser request goes through when a page runs its scripts.
//!
//! Blocking addresses inside the browser (request interception, host-resolver rules) is a list of
//! known ways out; a page that finds another one (a WebSocket, a redirect, a prefetch, DNS rebinding)
//! would reach the network unchecked. Here the browser's only route is an HTTP proxy on loopback that
//! pith runs itself: `CONNECT host:port` (HTTPS, WebSockets) and absolute-form requests (plain HTTP).
//! For each, the proxy resolves the host itself, refuses the request when *any* address is not public
//! ([`crate::net::is_public`]) or the port is not allowed, and then connects to the checked address, so
//! a second DNS answer cannot redirect the connection. Redirects are new requests through the same
//! door. Connections carry a byte cap and an idle deadline.
//!
//! Anyone on the machine can connect to a loopback port, so this proxy is also reachable by other
//! local processes; it grants them nothing a process on the host does not already have (it only
//! connects to public addresses), and in the container it is reachable by pith alone.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full, Limited};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the proxy allows.
#[derive(Debug, Clone)]
pub struct Policy {
    pub allow_private_networks: bool,
    /// Names exempt from the address rule (lower-case, exact).
    pub allow_private_hosts: Vec<String>,
    /// Allowed destination ports; empty: any.
    pub ports: Vec<u16>,
    /// Bytes one connection may carry, both directions together.
    pub max_bytes: u64,
    pub connect_timeout: Duration,
    /// A connection with no traffic for this long is closed.
    pub idle_timeout: Duration,
}

/// Counts, for the log and the tests.
#[derive(Debug, Default)]
pub struct Counters {
    pub allowed: AtomicU64,
    pub refused: AtomicU64,
}

/// A running proxy; stops when dropped.
pub struct Proxy {
    addr: SocketAddr,
    pub counters: Arc<Counters>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Listen on an ephemeral loopback port.
    pub async fn start(policy: Policy) -> std::io::Result<Proxy> {
        let listener = TcpListener::bind((IpAddr::from([127, 0, 0, 1]), 0)).await?;
        let addr = listener.local_addr()?;
        let counters = Arc::new(Counters::default());
        let policy = Arc::new(policy);
        let c = counters.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let policy = policy.clone();
                let c = c.clone();
                tokio::spawn(async move {
                    let svc = service_fn(move |req| handle(req, policy.clone(), c.clone()));
                    let conn = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), svc)
                        .with_upgrades();
                    let _ = conn.await;
                });
            }
        });
        Ok(Proxy { addr, counters, task })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

type Body = BoxBody<Bytes, Box<dyn std::error::Error + Send + Sync>>;

fn text(status: StatusCode, msg: String) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(msg)).map_err(|e| match e {}).boxed());
    *r.status_mut() = status;
    r
}

/// Resolve `host` and check every address; the first one is the one to connect to.
pub async fn vet(host: &str, port: u16, p: &Policy) -> Result<SocketAddr, String> {
    if !p.ports.is_empty() && !p.ports.contains(&port) {
        return Err(format!("port {port} is not allowed"));
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = match bare.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => match tokio::time::timeout(p.connect_timeout, tokio::net::lookup_host((bare, port))).await {
            Ok(Ok(a)) => a.collect(),
            Ok(Err(e)) => return Err(format!("{bare} does not resolve: {e}")),
            Err(_) => return Err(format!("{bare} did not resolve in time")),
        },
    };
    let first = *addrs.first().ok_or_else(|| format!("{bare} has no address"))?;
    let named = bare.parse::<IpAddr>().is_err();
    let exempt =
        p.allow_private_networks || (named && p.allow_private_hosts.iter().any(|h| h.eq_ignore_ascii_case(bare)));
    if !exempt && let Some(bad) = addrs.iter().find(|a| !crate::net::is_public(a.ip())) {
        return Err(format!("{bare} resolves to {}, a non-public address", bad.ip()));
    }
    Ok(first)
}

async fn connect(host: &str, port: u16, p: &Policy) -> Result<TcpStream, (StatusCode, String)> {
    let addr = vet(host, port, p).await.map_err(|e| (StatusCode::FORBIDDEN, e))?;
    match tokio::time::timeout(p.connect_timeout, TcpStream::connect(addr)).await {
        Ok(Ok(s)) => Ok(s),
        Ok(Err(e)) => Err((StatusCode::BAD_GATEWAY, format!("cannot connect to {addr}: {e}"))),
        Err(_) => Err((StatusCode::GATEWAY_TIMEOUT, format!("{addr} did not accept in time"))),
    }
}

async fn handle(req: Request<Incoming>, p: Arc<Policy>, c: Arc<Counters>) -> Result<Response<Body>, Infallible> {
    let target = req.uri().authority().map(|a| (a.host().to_string(), a.port_u16()));
    let Some((host, port)) = target else {
        c.refused.fetch_add(1, Ordering::Relaxed);
        return Ok(text(StatusCode::BAD_REQUEST, "a proxy request names its host".into()));
    };
    let tunnel = req.method() == Method::CONNECT;
    if !tunnel && req.uri().scheme_str() != Some("http") {
        c.refused.fetch_add(1, Ordering::Relaxed);
        return Ok(text(StatusCode::FORBIDDEN, "only http and CONNECT".into()));
    }
    let port = port.unwrap_or(if tunnel { 443 } else { 80 });
    let upstream = match connect(&host, port, &p).await {
        Ok(s) => s,
        Err((status, why)) => {
            c.refused.fetch_add(1, Ordering::Relaxed);
            tracing::debug!(%host, port, %why, "render proxy refused");
            return Ok(text(status, why));
        }
    };
    c.allowed.fetch_add(1, Ordering::Relaxed);
    if tunnel {
        tokio::spawn(async move {
            if let Ok(up) = hyper::upgrade::on(req).await {
                splice(TokioIo::new(up), upstream, p.max_bytes, p.idle_timeout).await;
            }
        });
        return Ok(Response::new(Empty::new().map_err(|e| match e {}).boxed()));
    }
    Ok(forward(req, upstream, &p).await.unwrap_or_else(|e| text(StatusCode::BAD_GATEWAY, e)))
}

/// Plain HTTP: one request to the checked address, in origin form, hop-by-hop headers removed.
async fn forward(req: Request<Incoming>, upstream: TcpStream, p: &Policy) -> Result<Response<Body>, String> {
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(TokioIo::new(upstream)).await.map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    let (mut parts, body) = req.into_parts();
    let path = parts.uri.path_and_query().map_or("/", |pq| pq.as_str()).to_string();
    parts.uri = path.parse().map_err(|e: hyper::http::uri::InvalidUri| e.to_string())?;
    for h in ["connection", "proxy-connection", "keep-alive", "proxy-authorization", "te", "trailer", "upgrade"] {
        parts.headers.remove(h);
    }
    let req = Request::from_parts(parts, body);
    let resp = tokio::time::timeout(p.idle_timeout, sender.send_request(req))
        .await
        .map_err(|_| "the origin did not answer in time".to_string())?
        .map_err(|e| e.to_string())?;
    let (parts, body) = resp.into_parts();
    let limited = Limited::new(body, p.max_bytes as usize).map_err(|e| e as Box<dyn std::error::Error + Send + Sync>);
    Ok(Response::from_parts(parts, limited.boxed()))
}

/// Copy both ways until either side closes, the byte cap is reached, or nothing moves for `idle`.
async fn splice<A, B>(a: A, b: B, max: u64, idle: Duration)
where
    A: AsyncRead + AsyncWrite + Unpin,
    B: AsyncRead + AsyncWrite + Unpin,
{
    let (mut ar, mut aw) = tokio::io::split(a);
    let (mut br, mut bw) = tokio::io::split(b);
    let moved = Arc::new(AtomicU64::new(0));
    let one = copy_capped(&mut ar, &mut bw, moved.clone(), max, idle);
    let two = copy_capped(&mut br, &mut aw, moved, max, idle);
    tokio::select! {
        _ = one => {}
        _ = two => {}
    }
}

async fn copy_capped<R, W>(r: &mut R, w: &mut W, moved: Arc<AtomicU64>, max: u64, idle: Duration)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match tokio::time::timeout(idle, r.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) | Err(_) => break,
            Ok(Ok(n)) => n,
        };
        if moved.fetch_add(n as u64, Ordering::Relaxed) + n as u64 > max {
            break;
        }
        if w.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = w.shutdown().await;
}

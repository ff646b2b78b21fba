//! A local origin server (axum on 127.0.0.1:0) with one route per fetch situation.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::sync::Notify;

/// The Chinese article served GBK-encoded by `/gbk`.
pub const GBK_TEXT: &str = "北京市今天召开新闻发布会，介绍了城市交通建设的最新进展和明年的工作计划。";

#[derive(Default)]
pub struct OriginState {
    pub port: AtomicUsize,
    /// Requests to `/counted`.
    pub counted: AtomicUsize,
    /// TCP connections accepted.
    pub connections: AtomicUsize,
    /// Signalled when `/held` is entered.
    pub held_entered: Notify,
    /// `/held` answers once this is signalled.
    pub release: Notify,
}

pub struct Origin {
    pub addr: SocketAddr,
    pub state: Arc<OriginState>,
    /// Whether the origin also listens on `[::1]` (same port); false where the host has no IPv6.
    pub ipv6: bool,
}

impl Origin {
    /// Listen on 127.0.0.1 and, where the host allows, on `[::1]` with the same port, so every
    /// spelling of loopback (`127.1`, `[::ffff:7f00:1]`, `[::1]`...) would reach this origin.
    pub async fn start() -> Origin {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let listener6 = tokio::net::TcpListener::bind(("::1", addr.port())).await.ok();
        let state = Arc::new(OriginState::default());
        state.port.store(addr.port() as usize, Ordering::Relaxed);
        let app = Router::new()
            .route("/article", get(article))
            .route("/counted", get(counted))
            .route("/gbk", get(gbk))
            .route("/scripted", get(|| async { html(include_str!("../fixtures/pages/javascript.html").to_string()) }))
            .route("/redirect", get(|| async { redirect("/article") }))
            .route("/redirect-loop", get(|| async { redirect("/redirect-loop") }))
            .route("/to-loopback", get(to_loopback))
            .route("/to-metadata", get(|| async { redirect("http://169.254.169.254/latest/meta-data/") }))
            .route("/redirect-to", get(redirect_to))
            .route("/slow", get(slow))
            .route("/held", get(held))
            .route("/endless", get(endless))
            .route("/bomb", get(bomb))
            .route("/missing", get(|| async { (StatusCode::NOT_FOUND, "no such page") }))
            .route("/doc.pdf", get(pdf))
            .with_state(state.clone());
        let ipv6 = listener6.is_some();
        if let Some(l6) = listener6 {
            let counter = state.clone();
            let l6 = l6.tap_io(move |_| {
                counter.connections.fetch_add(1, Ordering::SeqCst);
            });
            let app = app.clone();
            tokio::spawn(async move { axum::serve(l6, app).await.unwrap() });
        }
        let counter = state.clone();
        let listener = listener.tap_io(move |_| {
            counter.connections.fetch_add(1, Ordering::SeqCst);
        });
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Origin { addr, state, ipv6 }
    }

    /// TCP connections accepted so far, on either address.
    pub fn connections(&self) -> usize {
        self.state.connections.load(Ordering::SeqCst)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The same page under the name `localhost` (resolved, so it goes through the resolver hook).
    pub fn localhost_url(&self, path: &str) -> String {
        format!("http://localhost:{}{path}", self.addr.port())
    }
}

fn html(body: String) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

fn redirect(to: &str) -> Response {
    (StatusCode::FOUND, [(header::LOCATION, to.to_string())]).into_response()
}

async fn article() -> Response {
    html(super::article_html("Budget agreed"))
}

async fn counted(State(s): State<Arc<OriginState>>) -> Response {
    s.counted.fetch_add(1, Ordering::SeqCst);
    html(super::article_html("Counted page"))
}

/// `/redirect-to?to=URL`: a redirect to anywhere.
async fn redirect_to(Query(q): Query<HashMap<String, String>>) -> Response {
    redirect(q.get("to").map(String::as_str).unwrap_or("/article"))
}

async fn to_loopback(State(s): State<Arc<OriginState>>) -> Response {
    redirect(&format!("http://127.0.0.1:{}/article", s.port.load(Ordering::Relaxed)))
}

/// GBK bytes; the charset is only in the header (no `<meta>`), so only the header can decode it.
async fn gbk() -> Response {
    let page = format!(
        "<html><head><title>新闻</title></head><body><div><p>{GBK_TEXT}</p><p>{GBK_TEXT}</p><p>{GBK_TEXT}</p></div></body></html>"
    );
    let (bytes, _, _) = encoding_rs::GBK.encode(&page);
    ([(header::CONTENT_TYPE, "text/html; charset=gbk")], bytes.into_owned()).into_response()
}

async fn slow() -> Response {
    tokio::time::sleep(Duration::from_secs(30)).await;
    html(super::article_html("Too late"))
}

async fn held(State(s): State<Arc<OriginState>>) -> Response {
    s.held_entered.notify_one();
    s.release.notified().await;
    html(super::article_html("Held page"))
}

/// An HTML body that never ends.
async fn endless() -> Response {
    let chunk = Bytes::from("<p>".to_string() + &"more text ".repeat(1000) + "</p>");
    let stream = futures_util::stream::repeat_with(move || Ok::<_, Infallible>(chunk.clone()));
    ([(header::CONTENT_TYPE, "text/html")], Body::from_stream(stream)).into_response()
}

/// 16 MiB of HTML that compresses to a few KiB (the tests cap fetches at 1 MiB).
async fn bomb() -> Response {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let block = "<p>".repeat(1 << 16);
    for _ in 0..(16 * 1024 * 1024 / block.len()) {
        gz.write_all(block.as_bytes()).unwrap();
    }
    let body = gz.finish().unwrap();
    ([(header::CONTENT_TYPE, "text/html"), (header::CONTENT_ENCODING, "gzip")], body).into_response()
}

async fn pdf() -> Response {
    ([(header::CONTENT_TYPE, "application/pdf")], b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n".to_vec()).into_response()
}

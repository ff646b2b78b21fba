//! Test helpers: [`TestApp`] runs the real service on 127.0.0.1:0 and checks every answer against
//! `openapi.yaml`; [`Origin`] is a small local web server with the pages the fetch tests need.

#![allow(dead_code)]

pub mod origin;
pub mod schema;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use pith::configuration::Config;
use pith::fetch::SystemResolver;
use pith::server::Application;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::HeaderMap;
use serde_json::Value;

pub use origin::Origin;

static SPEC: OnceLock<schema::Spec> = OnceLock::new();

pub fn spec() -> &'static schema::Spec {
    SPEC.get_or_init(schema::Spec::load)
}

/// A running service.
pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    pub server: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

/// An answer, already checked against the spec.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: bytes::Bytes,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The problem's code (the end of its `type`), checking the problem's shape on the way.
    pub fn problem_code(&self) -> String {
        assert_eq!(self.header("content-type"), Some("application/problem+json"), "{self:?}");
        let p = self.json();
        assert_eq!(p["status"], self.status);
        p["type"].as_str().unwrap().strip_prefix("urn:pith:problem:").unwrap().to_string()
    }
}

/// A client for loopback only (no proxies from the environment).
pub fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(20)).build().unwrap()
}

impl TestApp {
    /// Start the service with the defaults, changed by `configure`.
    pub async fn spawn(configure: impl FnOnce(&mut Config)) -> TestApp {
        TestApp::spawn_with_resolver(configure, Arc::new(SystemResolver)).await
    }

    /// Like [`TestApp::spawn`], with the fetcher's names looked up by `resolver`.
    pub async fn spawn_with_resolver(configure: impl FnOnce(&mut Config), resolver: Arc<dyn Resolve>) -> TestApp {
        let mut config = Config::default();
        config.server.listen = "127.0.0.1:0".parse().unwrap();
        config.pool.workers = 2;
        configure(&mut config);
        if std::env::var_os("PITH_TEST_LOG").is_some() {
            pith::server::telemetry::init(&config.log);
        }
        let app = Application::build_with_resolver(config, resolver).await.expect("the service starts");
        let addr = app.local_addr();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(app.run_with_shutdown(async move {
            let _ = rx.await;
        }));
        TestApp { addr, client: client(), shutdown: Some(tx), server: Some(server) }
    }

    /// Like [`TestApp::spawn`] with private networks allowed, as fetch tests against [`Origin`] need.
    pub async fn spawn_private(configure: impl FnOnce(&mut Config)) -> TestApp {
        TestApp::spawn(|c| {
            c.fetch.allow_private_networks = true;
            configure(c)
        })
        .await
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Begin a graceful shutdown (what SIGTERM does).
    pub fn shutdown(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }

    /// Send a request and check the answer against the spec.
    pub async fn send(&self, req: reqwest::RequestBuilder) -> Resp {
        let req = req.build().unwrap();
        let (method, path) = (req.method().to_string(), req.url().path().to_string());
        let json_request = req.headers().get("content-type").is_some_and(|v| v == "application/json");
        let request_valid = match req.body().and_then(|b| b.as_bytes()) {
            Some(body) if json_request => spec().request_is_valid(&method, &path, body),
            _ => None,
        };
        let res = self.client.execute(req).await.expect("the service answers");
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let body = res.bytes().await.unwrap();
        let ct = headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        if spec().has_operation(&method, &path) {
            spec().check_response(&method, &path, status, &ct, &body);
            spec().check_response_headers(&method, &path, status, &headers);
            // The codes that say "this request is not the documented shape" must only answer bodies
            // the spec rejects too; otherwise a client generated from the spec gets refused.
            if status == 400 && request_valid == Some(true) {
                let code =
                    serde_json::from_slice::<Value>(&body).ok().and_then(|p| p["type"].as_str().map(String::from));
                let shape = ["malformed-json", "missing-input", "bad-formats"].map(|c| format!("urn:pith:problem:{c}"));
                assert!(
                    !code.as_ref().is_some_and(|c| shape.contains(c)),
                    "{method} {path}: the spec accepts this body but the service answered {code:?}"
                );
            }
        }
        Resp { status, headers, body }
    }

    pub async fn get(&self, path: &str) -> Resp {
        self.send(self.client.get(self.url(path))).await
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> Resp {
        self.send(
            self.client
                .post(self.url(path))
                .header("content-type", "application/json")
                .body(serde_json::to_vec(body).unwrap()),
        )
        .await
    }

    pub async fn extract(&self, body: Value) -> Resp {
        self.post_json("/v1/extract", &body).await
    }

    pub async fn post_raw(&self, path_and_query: &str, content_type: &str, body: impl Into<reqwest::Body>) -> Resp {
        self.send(self.client.post(self.url(path_and_query)).header("content-type", content_type).body(body)).await
    }

    /// The value of one unlabelled metric line in `/metrics`.
    pub async fn metric(&self, name: &str) -> f64 {
        let text = String::from_utf8(self.get("/metrics").await.body.to_vec()).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')))
            .unwrap_or_else(|| panic!("metric {name} missing"))
            .parse()
            .unwrap()
    }
}

/// An article page long enough for every algorithm to find its content.
pub fn article_html(title: &str) -> String {
    let para = "The committee met on Tuesday to discuss the new budget, and after a long debate the members \
                agreed on a plan that funds the library, repairs the bridge and hires two more teachers.";
    let body: String = (0..6).map(|i| format!("<p>{para} Paragraph {i}.</p>")).collect();
    format!(
        "<!doctype html><html lang=en><head><title>{title}</title></head><body>\
         <nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About</a></nav>\
         <article><h1>{title}</h1>{body}</article>\
         <footer><a href=/privacy>Privacy</a> <a href=/terms>Terms</a></footer></body></html>"
    )
}

/// A DNS server for tests: each name has a script of answers, the n-th question about a name gets
/// the n-th answer (the last one ever after), so a name can be rebound between two questions.
/// Unknown names fail to resolve. Counts the questions per name.
#[derive(Default)]
pub struct ScriptedDns {
    scripts: HashMap<String, Vec<Vec<IpAddr>>>,
    asked: std::sync::Mutex<HashMap<String, Arc<AtomicUsize>>>,
}

impl ScriptedDns {
    pub fn answer(mut self, name: &str, answers: &[&[&str]]) -> ScriptedDns {
        let answers = answers.iter().map(|a| a.iter().map(|ip| ip.parse().unwrap()).collect()).collect();
        self.scripts.insert(name.to_string(), answers);
        self
    }

    /// How many times `name` was looked up.
    pub fn asked(&self, name: &str) -> usize {
        self.counter(name).load(Ordering::SeqCst)
    }

    fn counter(&self, name: &str) -> Arc<AtomicUsize> {
        self.asked.lock().unwrap().entry(name.to_string()).or_default().clone()
    }
}

impl Resolve for ScriptedDns {
    fn resolve(&self, name: Name) -> Resolving {
        let n = self.counter(name.as_str()).fetch_add(1, Ordering::SeqCst);
        let answer: Option<Vec<SocketAddr>> = self
            .scripts
            .get(name.as_str())
            .map(|s| s[n.min(s.len() - 1)].iter().map(|ip| SocketAddr::new(*ip, 0)).collect());
        Box::pin(async move {
            match answer {
                Some(a) => Ok(Box::new(a.into_iter()) as Addrs),
                None => Err("no such name".into()),
            }
        })
    }
}

//! A DevTools-protocol client over the browser's debugging pipe.
//!
//! The browser is started with `--remote-debugging-pipe`: it reads commands from its fd 3 and writes
//! replies and events to its fd 4, one JSON message per NUL-terminated record. No debugging port is
//! ever opened, so nothing on the machine (a page's own script included) can connect to the browser.
//!
//! One reader task routes what arrives: a reply to the call waiting on its id, an event to the
//! subscriber of its session. Every call carries a deadline; a reply that never comes costs the caller
//! its deadline, not a hang. Replies are handed over as raw JSON and decoded by the caller into its own
//! type, so a 50 MB layout snapshot is parsed once, straight into the structs that use it.

use std::collections::HashMap;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::pipe;
use tokio::sync::{mpsc, oneshot};

/// Why a call failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CdpError {
    #[error("the browser connection is closed")]
    Closed,
    #[error("the browser did not answer {0} in time")]
    Timeout(String),
    #[error("{method}: {message} ({code})")]
    Protocol { method: String, code: i64, message: String },
    #[error("cannot read the browser's answer to {method}: {error}")]
    Decode { method: String, error: String },
}

/// An event from one session.
#[derive(Debug)]
pub struct Event {
    pub method: String,
    pub params: Box<RawValue>,
}

/// Events are queued per session up to this many; past it the session's deadline takes over.
const EVENT_QUEUE: usize = 4096;

type Reply = Result<Box<RawValue>, (i64, String)>;

#[derive(Default)]
struct Shared {
    pending: Mutex<HashMap<u64, oneshot::Sender<Reply>>>,
    /// Subscribers by session id ("" for the browser's own events).
    sessions: Mutex<HashMap<String, mpsc::Sender<Event>>>,
    closed: AtomicBool,
}

impl Shared {
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        // Dropping the senders wakes every waiting caller with "closed".
        if let Ok(mut p) = self.pending.lock() {
            p.clear();
        }
        if let Ok(mut s) = self.sessions.lock() {
            s.clear();
        }
    }
}

/// A connection to one browser.
pub struct Cdp {
    writer: tokio::sync::Mutex<pipe::Sender>,
    shared: Arc<Shared>,
    next_id: AtomicU64,
    reader: tokio::task::JoinHandle<()>,
}

#[derive(Deserialize)]
struct Envelope<'a> {
    id: Option<u64>,
    #[serde(borrow)]
    method: Option<std::borrow::Cow<'a, str>>,
    #[serde(rename = "sessionId")]
    session_id: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow)]
    result: Option<&'a RawValue>,
    error: Option<ErrorBody>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct ErrorBody {
    code: i64,
    message: String,
}

impl Cdp {
    /// Start the client on the pipe ends (`read` receives the browser's fd 4, `write` feeds its fd 3).
    /// Must be called inside a tokio runtime, which runs the reader task. Messages longer than
    /// `max_message` bytes close the connection.
    pub fn start(read: OwnedFd, write: OwnedFd, max_message: usize) -> std::io::Result<Cdp> {
        let rx = pipe::Receiver::from_owned_fd(read)?;
        let tx = pipe::Sender::from_owned_fd(write)?;
        let shared = Arc::new(Shared::default());
        let reader = tokio::spawn(read_loop(rx, shared.clone(), max_message));
        Ok(Cdp { writer: tokio::sync::Mutex::new(tx), shared, next_id: AtomicU64::new(1), reader })
    }

    pub fn is_closed(&self) -> bool {
        self.shared.closed.load(Ordering::SeqCst)
    }

    /// Receive the events of `session` ("" for browser-level events) from now on.
    pub fn subscribe(&self, session: &str) -> mpsc::Receiver<Event> {
        let (tx, rx) = mpsc::channel(EVENT_QUEUE);
        if let Ok(mut s) = self.shared.sessions.lock() {
            s.insert(session.to_string(), tx);
        }
        rx
    }

    pub fn unsubscribe(&self, session: &str) {
        if let Ok(mut s) = self.shared.sessions.lock() {
            s.remove(session);
        }
    }

    /// Send `method` with `params` (in `session`, or to the browser) and decode the reply's `result`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        session: Option<&str>,
        method: &str,
        params: serde_json::Value,
        deadline: Duration,
    ) -> Result<T, CdpError> {
        let raw = self.call_raw(session, method, params, deadline).await?;
        serde_json::from_str(raw.get())
            .map_err(|e| CdpError::Decode { method: method.to_string(), error: e.to_string() })
    }

    /// [`Cdp::call`] for commands whose result is not needed.
    pub async fn call_unit(
        &self,
        session: Option<&str>,
        method: &str,
        params: serde_json::Value,
        deadline: Duration,
    ) -> Result<(), CdpError> {
        self.call_raw(session, method, params, deadline).await.map(drop)
    }

    async fn call_raw(
        &self,
        session: Option<&str>,
        method: &str,
        params: serde_json::Value,
        deadline: Duration,
    ) -> Result<Box<RawValue>, CdpError> {
        if self.is_closed() {
            return Err(CdpError::Closed);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut msg = serde_json::json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = serde_json::Value::String(s.to_string());
        }
        let mut bytes = serde_json::to_vec(&msg)
            .map_err(|e| CdpError::Decode { method: method.to_string(), error: e.to_string() })?;
        bytes.push(0);
        let (tx, rx) = oneshot::channel();
        self.shared.pending.lock().map_err(|_| CdpError::Closed)?.insert(id, tx);
        let exchange = async {
            {
                let mut w = self.writer.lock().await;
                w.write_all(&bytes).await.map_err(|_| CdpError::Closed)?;
            }
            match rx.await {
                Ok(Ok(v)) => Ok(v),
                Ok(Err((code, message))) => Err(CdpError::Protocol { method: method.to_string(), code, message }),
                Err(_) => Err(CdpError::Closed),
            }
        };
        let out = tokio::time::timeout(deadline, exchange).await;
        if let Ok(mut p) = self.shared.pending.lock() {
            p.remove(&id);
        }
        out.unwrap_or_else(|_| Err(CdpError::Timeout(method.to_string())))
    }
}

impl Drop for Cdp {
    fn drop(&mut self) {
        self.reader.abort();
        self.shared.close();
    }
}

async fn read_loop(mut rx: pipe::Receiver, shared: Arc<Shared>, max_message: usize) {
    let mut buf: Vec<u8> = Vec::with_capacity(64 * 1024);
    let mut scanned = 0usize;
    let mut chunk = vec![0u8; 256 * 1024];
    loop {
        let n = match rx.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        buf.extend_from_slice(&chunk[..n]);
        // Records end with NUL; only the newly arrived bytes need searching.
        let mut start = 0usize;
        let mut from = scanned;
        while let Some(k) = memchr::memchr(0, &buf[from..]) {
            let end = from + k;
            dispatch(&buf[start..end], &shared);
            start = end + 1;
            from = start;
        }
        buf.drain(..start);
        scanned = buf.len();
        if buf.len() > max_message {
            tracing::warn!(bytes = buf.len(), "browser message over the size limit; closing the connection");
            break;
        }
    }
    shared.close();
}

fn dispatch(msg: &[u8], shared: &Shared) {
    let Ok(env) = serde_json::from_slice::<Envelope<'_>>(msg) else {
        tracing::debug!("unreadable message from the browser");
        return;
    };
    if let Some(id) = env.id {
        let reply = match (env.result, env.error) {
            (_, Some(e)) => Err((e.code, e.message)),
            (Some(r), None) => Ok(r.to_owned()),
            (None, None) => RawValue::from_string("{}".to_string()).map_err(|e| (0, e.to_string())),
        };
        let waiter = shared.pending.lock().ok().and_then(|mut p| p.remove(&id));
        if let Some(w) = waiter {
            let _ = w.send(reply);
        }
        return;
    }
    if let Some(method) = env.method {
        let session = env.session_id.as_deref().unwrap_or("");
        let params = env.params.map(|p| p.to_owned());
        let sub = shared.sessions.lock().ok().and_then(|s| s.get(session).cloned());
        if let (Some(sub), Some(params)) = (sub, params) {
            // A full queue means the session stopped listening; its own deadline ends it.
            let _ = sub.try_send(Event { method: method.into_owned(), params });
        }
    }
}

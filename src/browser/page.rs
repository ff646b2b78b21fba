//! One page in one fresh browser context: load the HTML pith hands over, answer the browser's
//! requests, then take a layout snapshot or read back the DOM scripts built.
//!
//! The page is loaded by navigating to its address (or a placeholder) with request interception on:
//! the browser's request for the document itself is answered by pith with the page's HTML, so the
//! document never comes from the network. Every later request is paused for a verdict:
//!
//! * **layout** (no scripts): every request fails. Scripts are disabled in the page, the document is
//!   served with a Content-Security-Policy that allows no fetches and a `sandbox` directive, and the
//!   context's traffic would go through the checking proxy anyway: three independent walls.
//! * **scripts**: requests for `http`/`https` continue through the context's proxy, which checks every
//!   destination ([`super::proxy`]); any other scheme, navigations of the main frame away from the
//!   page, and requests past `max_subrequests` fail.

use std::net::SocketAddr;
use std::time::Duration;

use base64::Engine as _;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::cdp::{Cdp, CdpError, Event};
use super::config::RenderConfig;
use super::snapshot::{Captured, STYLES};

/// The policy of the layout pass's document: nothing may be fetched, nothing may run.
const LAYOUT_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; \
                          base-uri 'none'; form-action 'none'; sandbox";

/// Address used when the page has none: a name under `.invalid`, which never resolves.
pub const PLACEHOLDER_URL: &str = "http://page.invalid/";

/// What went wrong with one page.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The browser itself failed or missed a deadline on a browser-level call: replace it.
    #[error("browser: {0}")]
    Browser(CdpError),
    /// The page's own session failed or timed out; the browser may still be fine.
    #[error("page: {0}")]
    Page(String),
    #[error("the page took longer than its deadline")]
    Deadline,
}

/// Whether the page's scripts run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Layout,
    Scripts,
}

/// An open tab in its own browser context.
pub struct Tab<'a> {
    cdp: &'a Cdp,
    context: String,
    target: String,
    session: String,
    events: mpsc::Receiver<Event>,
    call: Duration,
    deadline: Instant,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ContextId {
    browser_context_id: String,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TargetId {
    target_id: String,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SessionId {
    session_id: String,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Navigated {
    error_text: Option<String>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Paused {
    request_id: String,
    request: PausedRequest,
    frame_id: Option<String>,
    resource_type: Option<String>,
}
#[derive(Deserialize)]
struct PausedRequest {
    url: String,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct World {
    execution_context_id: i64,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Evaluated {
    result: RemoteObject,
    exception_details: Option<serde_json::Value>,
}
#[derive(Deserialize)]
struct RemoteObject {
    value: Option<serde_json::Value>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SheetAdded {
    header: SheetHeader,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SheetHeader {
    style_sheet_id: String,
    origin: String,
    #[serde(default)]
    is_inline: bool,
}
#[derive(Deserialize)]
struct SheetText {
    text: String,
}

/// Page script run in an isolated world (the page's own globals cannot interfere): fill `<style>`
/// elements whose rules were inserted through the CSS object model, then serialise the document.
const READ_DOM: &str = r#"(() => {
  for (const s of document.querySelectorAll('style')) {
    try {
      const rules = s.sheet && s.sheet.cssRules;
      if (rules && rules.length && !s.textContent.trim()) s.textContent = Array.from(rules, r => r.cssText).join('\n');
    } catch (e) {}
  }
  return (document.doctype ? '<!DOCTYPE html>' : '') + document.documentElement.outerHTML;
})()"#;

/// Most bytes of external stylesheet text carried over from a scripted page.
const MAX_SHEET_BYTES: usize = 4 * 1024 * 1024;

fn map_session(e: CdpError) -> PageError {
    match e {
        CdpError::Closed => PageError::Browser(CdpError::Closed),
        other => PageError::Page(other.to_string()),
    }
}

impl<'a> Tab<'a> {
    /// A fresh context (its own cookies, cache and storage; traffic through `proxy`) with one tab.
    pub async fn open(
        cdp: &'a Cdp,
        cfg: &RenderConfig,
        proxy: SocketAddr,
        deadline: Instant,
    ) -> Result<Tab<'a>, PageError> {
        let call = Duration::from_millis(cfg.call_timeout_ms);
        let ctx: ContextId = cdp
            .call(
                None,
                "Target.createBrowserContext",
                json!({ "disposeOnDetach": true, "proxyServer": format!("http://{proxy}"), "proxyBypassList": "<-loopback>" }),
                call,
            )
            .await
            .map_err(PageError::Browser)?;
        let made = async {
            let t: TargetId = cdp
                .call(
                    None,
                    "Target.createTarget",
                    json!({ "url": "about:blank", "browserContextId": ctx.browser_context_id }),
                    call,
                )
                .await?;
            let s: SessionId = cdp
                .call(None, "Target.attachToTarget", json!({ "targetId": t.target_id, "flatten": true }), call)
                .await?;
            Ok::<_, CdpError>((t, s))
        }
        .await;
        let (t, s) = match made {
            Ok(x) => x,
            Err(e) => {
                let _ = dispose(cdp, &ctx.browser_context_id, call).await;
                return Err(PageError::Browser(e));
            }
        };
        let events = cdp.subscribe(&s.session_id);
        Ok(Tab {
            cdp,
            context: ctx.browser_context_id,
            target: t.target_id,
            session: s.session_id,
            events,
            call,
            deadline,
        })
    }

    /// Dispose of the context and everything in it. A browser that cannot do this within the call
    /// deadline is reported broken.
    pub async fn close(self) -> Result<(), PageError> {
        self.cdp.unsubscribe(&self.session);
        dispose(self.cdp, &self.context, self.call).await.map_err(PageError::Browser)
    }

    fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    async fn send(&self, method: &str, params: serde_json::Value) -> Result<(), PageError> {
        let wait = self.call.min(self.remaining());
        self.cdp.call_unit(Some(&self.session), method, params, wait).await.map_err(map_session)
    }

    async fn ask<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<T, PageError> {
        let wait = self.call.min(self.remaining());
        self.cdp.call(Some(&self.session), method, params, wait).await.map_err(map_session)
    }

    /// Load `html` as the document at `url`, answering requests as `mode` says, until the load event
    /// (or, with scripts, `js_wait_ms`), then with scripts wait `js_settle_ms` more.
    pub async fn load(&mut self, html: &str, url: &str, mode: Mode, cfg: &RenderConfig) -> Result<Loaded, PageError> {
        self.send("Page.enable", json!({})).await?;
        if mode == Mode::Layout {
            self.send("Emulation.setScriptExecutionDisabled", json!({ "value": true })).await?;
        } else {
            self.send("DOM.enable", json!({})).await?;
            self.send("CSS.enable", json!({})).await?;
        }
        self.send(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": cfg.viewport_width, "height": cfg.viewport_height, "deviceScaleFactor": 1, "mobile": false }),
        )
        .await?;
        self.send("Fetch.enable", json!({ "patterns": [{ "urlPattern": "*", "requestStage": "Request" }] })).await?;
        let mut state = Loaded::default();
        let nav_wait = self.call.min(self.remaining());
        let cdp = self.cdp;
        let session = self.session.clone();
        let nav = cdp.call::<Navigated>(Some(&session), "Page.navigate", json!({ "url": url }), nav_wait);
        tokio::pin!(nav);
        let mut navigated = false;
        let mut load_by = match mode {
            Mode::Layout => self.deadline,
            Mode::Scripts => (Instant::now() + Duration::from_millis(cfg.js_wait_ms)).min(self.deadline),
        };
        let mut settling = false;
        loop {
            tokio::select! {
                r = &mut nav, if !navigated => {
                    navigated = true;
                    match r {
                        Ok(Navigated { error_text: Some(e) }) if !e.is_empty() => return Err(PageError::Page(format!("navigation failed: {e}"))),
                        Ok(_) => {}
                        Err(e) => return Err(map_session(e)),
                    }
                    if state.loaded && !settling { break; }
                }
                ev = self.events.recv() => {
                    let Some(ev) = ev else { return Err(PageError::Browser(CdpError::Closed)) };
                    match ev.method.as_str() {
                        "Fetch.requestPaused" => self.answer(&ev, html, mode, cfg, &mut state).await?,
                        "Page.loadEventFired" => {
                            state.loaded = true;
                            if mode == Mode::Scripts && !settling {
                                settling = true;
                                load_by = (Instant::now() + Duration::from_millis(cfg.js_settle_ms)).min(self.deadline);
                            } else if navigated && mode == Mode::Layout {
                                break;
                            }
                        }
                        "CSS.styleSheetAdded" => {
                            if let Ok(a) = serde_json::from_str::<SheetAdded>(ev.params.get())
                                && a.header.origin == "regular" && !a.header.is_inline
                            {
                                state.sheets.push(a.header.style_sheet_id);
                            }
                        }
                        "Inspector.targetCrashed" => return Err(PageError::Page("the page crashed the renderer".into())),
                        _ => {}
                    }
                }
                _ = tokio::time::sleep_until(load_by) => {
                    // Layout: the load event is late (a stalled request); lay out what is there. Scripts:
                    // the wait (or the settling time) is over.
                    if Instant::now() >= self.deadline { return Err(PageError::Deadline); }
                    break;
                }
            }
        }
        Ok(state)
    }

    async fn answer(
        &self,
        ev: &Event,
        html: &str,
        mode: Mode,
        cfg: &RenderConfig,
        st: &mut Loaded,
    ) -> Result<(), PageError> {
        let Ok(p) = serde_json::from_str::<Paused>(ev.params.get()) else { return Ok(()) };
        let main_document =
            p.resource_type.as_deref() == Some("Document") && p.frame_id.as_deref() == Some(self.target.as_str());
        if main_document && !st.served {
            st.served = true;
            let mut headers = vec![json!({ "name": "Content-Type", "value": "text/html; charset=utf-8" })];
            if mode == Mode::Layout {
                headers.push(json!({ "name": "Content-Security-Policy", "value": LAYOUT_CSP }));
            }
            let body = base64::engine::general_purpose::STANDARD.encode(html.as_bytes());
            return self
                .send(
                    "Fetch.fulfillRequest",
                    json!({ "requestId": p.request_id, "responseCode": 200, "responseHeaders": headers, "body": body }),
                )
                .await;
        }
        st.requests += 1;
        let web = p.request.url.starts_with("http://") || p.request.url.starts_with("https://");
        let allowed = mode == Mode::Scripts && !main_document && web && st.requests <= cfg.max_subrequests;
        let answered = if allowed {
            self.cdp
                .call_unit(
                    Some(&self.session),
                    "Fetch.continueRequest",
                    json!({ "requestId": p.request_id }),
                    self.wait(),
                )
                .await
        } else {
            st.blocked += 1;
            // A refused navigation of the page itself is aborted, not failed: a failed one would commit
            // the browser's error page in place of the document being read.
            let reason = if main_document { "Aborted" } else { "BlockedByClient" };
            let params = json!({ "requestId": p.request_id, "errorReason": reason });
            self.cdp.call_unit(Some(&self.session), "Fetch.failRequest", params, self.wait()).await
        };
        match answered {
            // The request was cancelled while paused (its frame navigated or went away, a script
            // aborted it): the browser no longer knows its id. Nothing is left to allow or refuse.
            Err(CdpError::Protocol { code: -32602, message, .. }) if message.contains("InterceptionId") => {
                tracing::debug!(url = %p.request.url, "paused request gone before it was answered");
                Ok(())
            }
            other => other.map_err(map_session),
        }
    }

    /// How long one call may take: the call deadline, within what is left of the page's.
    fn wait(&self) -> Duration {
        self.call.min(self.remaining())
    }

    /// Every laid-out element's box and styles.
    pub async fn snapshot(&self) -> Result<Captured, PageError> {
        self.ask("DOMSnapshot.captureSnapshot", json!({ "computedStyles": STYLES })).await
    }

    /// The document as scripts left it, and the text of the external stylesheets it loaded.
    pub async fn read_dom(&self, loaded: &Loaded) -> Result<(String, Vec<String>), PageError> {
        let w: World =
            self.ask("Page.createIsolatedWorld", json!({ "frameId": self.target, "worldName": "pith" })).await?;
        let r: Evaluated = self
            .ask(
                "Runtime.evaluate",
                json!({ "expression": READ_DOM, "contextId": w.execution_context_id, "returnByValue": true }),
            )
            .await?;
        if let Some(e) = r.exception_details {
            return Err(PageError::Page(format!("reading the document failed: {e}")));
        }
        let html = match r.result.value {
            Some(serde_json::Value::String(s)) => s,
            _ => return Err(PageError::Page("reading the document returned no text".into())),
        };
        let mut sheets = Vec::new();
        let mut total = 0usize;
        for id in &loaded.sheets {
            let Ok(t) = self.ask::<SheetText>("CSS.getStyleSheetText", json!({ "styleSheetId": id })).await else {
                continue;
            };
            total += t.text.len();
            if total > MAX_SHEET_BYTES {
                break;
            }
            sheets.push(t.text);
        }
        Ok((html, sheets))
    }
}

async fn dispose(cdp: &Cdp, context: &str, call: Duration) -> Result<(), CdpError> {
    cdp.call_unit(None, "Target.disposeBrowserContext", json!({ "browserContextId": context }), call).await
}

/// What happened while a page loaded.
#[derive(Debug, Default)]
pub struct Loaded {
    pub loaded: bool,
    served: bool,
    /// Requests the page made after its document (answered or refused).
    pub requests: usize,
    /// Requests refused.
    pub blocked: usize,
    sheets: Vec<String>,
}

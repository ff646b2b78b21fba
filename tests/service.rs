//! The HTTP service end to end: the real app on 127.0.0.1, a local origin server, real HTTP. Every
//! answer to a documented endpoint is checked against `openapi.yaml` by `TestApp::send`.

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use common::{Origin, ScriptedDns, TestApp, article_html, origin::GBK_TEXT, spec};
use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(15);

/// The decoder may report GBK as its superset gb18030 (as the WHATWG encoding standard decodes it).
fn is_gbk_family(charset: &Value) -> bool {
    charset.as_str().is_some_and(|c| c.eq_ignore_ascii_case("gbk") || c.eq_ignore_ascii_case("gb18030"))
}

// ---------- extract: HTML in ----------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extract_json_html() {
    let app = TestApp::spawn(|_| {}).await;
    let r = app.extract(json!({ "html": article_html("Budget agreed") })).await;
    assert_eq!(r.status, 200, "{r:?}");
    let v = r.json();
    assert!(v["content"]["text"].as_str().unwrap().contains("agreed on a plan"));
    assert!(v["content"]["html"].as_str().unwrap().contains("<p>"));
    assert_eq!(v["title"], "Budget agreed");
    assert_eq!(v["algorithm"], "auto");
    assert_eq!(v["cache"], "miss");
    assert!(v.get("fetch").is_none());
    assert!(!v["blocks"].as_array().unwrap().is_empty());
    assert!(r.header("x-request-id").is_some_and(|id| id.len() >= 16));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extract_options_and_request_id() {
    let app = TestApp::spawn(|_| {}).await;
    let body = json!({ "html": article_html("T"), "url": "https://news.example.net/a/b", "algorithm": "cetd-ds",
                       "formats": ["html"], "blocks": false });
    let r = app
        .send(
            app.client
                .post(app.url("/v1/extract"))
                .header("content-type", "application/json")
                .header("x-request-id", "crawler-42")
                .body(body.to_string()),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("x-request-id"), Some("crawler-42"));
    let v = r.json();
    assert_eq!(v["algorithm"], "cetd-ds");
    assert_eq!(v["url"], "https://news.example.net/a/b");
    assert_eq!(v["content"]["text"], "");
    assert!(!v["content"]["html"].as_str().unwrap().is_empty());
    assert_eq!(v["blocks"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn include_comments_per_request_json_and_query() {
    // Every block kept, so only the comment rule decides (see tests/engine.rs).
    let app = TestApp::spawn(|c| {
        c.params.auto.block_threshold = 0.0;
        c.params.auto.no_article_text = pith::NoArticleText::Full;
    })
    .await;
    let page = include_str!("fixtures/pages/comments.html");
    let comment = "We tried this on our farm last season";
    let text = |r: &common::Resp| r.json()["content"]["text"].as_str().unwrap_or_default().to_string();
    let default = app.extract(json!({ "html": page })).await;
    assert_eq!(default.status, 200, "{default:?}");
    assert!(!text(&default).contains(comment));
    // A different option is a different cache entry, not the answer cached above.
    let with = app.extract(json!({ "html": page, "include_comments": true })).await;
    assert_eq!(with.json()["cache"], "miss");
    assert!(text(&with).contains(comment));
    let raw = app.post_raw("/v1/extract?include_comments=true", "text/html", page.as_bytes().to_vec()).await;
    assert!(text(&raw).contains(comment));
    // A JSON body takes the query's options where its own fields are silent; its fields win.
    let mixed = json!({ "html": page }).to_string();
    assert!(
        text(&app.post_raw("/v1/extract?include_comments=true", "application/json", mixed).await).contains(comment)
    );
    let json_wins = json!({ "html": page, "include_comments": false }).to_string();
    let r = app.post_raw("/v1/extract?include_comments=true", "application/json", json_wins).await;
    assert!(!text(&r).contains(comment));
    let bad = app.post_raw("/v1/extract?include_comments=maybe", "text/html", page.as_bytes().to_vec()).await;
    assert_eq!((bad.status, bad.problem_code()), (400, "bad-query".to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_without_an_article_give_their_content_unless_lead_is_asked_for() {
    let app = TestApp::spawn(|_| {}).await;
    let page = include_str!("fixtures/pages/listing.html");
    let text = |r: &common::Resp| r.json()["content"]["text"].as_str().unwrap_or_default().to_string();
    let item = "Training centre adds evening classes";
    let full = app.extract(json!({ "html": page })).await;
    assert_eq!(full.status, 200, "{full:?}");
    assert!(text(&full).contains(item), "{full:?}");
    assert_eq!(full.json()["has_article"]["is_article"], false);
    assert_ne!(full.json()["page_type"]["label"], "article");
    let lead = app.extract(json!({ "html": page, "no_article_text": "lead" })).await;
    assert_eq!(lead.json()["cache"], "miss");
    assert!(text(&lead).len() < 100 && !text(&lead).is_empty(), "{lead:?}");
    let raw = app.post_raw("/v1/extract?no_article_text=lead", "text/html", page.as_bytes().to_vec()).await;
    assert_eq!(text(&raw), text(&lead));
    let bad = app.post_raw("/v1/extract?no_article_text=some", "text/html", page.as_bytes().to_vec()).await;
    assert_eq!((bad.status, bad.problem_code()), (400, "bad-query".to_string()));
    let bad = app.extract(json!({ "html": page, "no_article_text": "some" })).await;
    assert_eq!(bad.status, 400, "{bad:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extract_raw_html_with_charset_and_query() {
    let app = TestApp::spawn(|_| {}).await;
    let page = format!("<html><body><article><p>{GBK_TEXT}</p><p>{GBK_TEXT}</p></article></body></html>");
    let (bytes, _, _) = encoding_rs::GBK.encode(&page);
    let r = app
        .post_raw(
            "/v1/extract?algorithm=auto&blocks=false&url=https://example.cn/n",
            "text/html; charset=GBK",
            bytes.into_owned(),
        )
        .await;
    assert_eq!(r.status, 200, "{r:?}");
    let v = r.json();
    assert!(is_gbk_family(&v["charset"]), "{v}");
    assert!(v["content"]["text"].as_str().unwrap().contains("北京市"));
    assert_eq!(v["blocks"], json!([]));
    assert_eq!(v["url"], "https://example.cn/n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extract_markdown_in_json_and_query_forms() {
    let app = TestApp::spawn(|_| {}).await;
    let page = article_html("Budget agreed").replace("agreed on a plan", "agreed on a <a href=/plan>plan</a>");
    let r = app.extract(json!({ "html": page, "url": "https://news.example.net/a/b", "formats": ["markdown"] })).await;
    assert_eq!(r.status, 200, "{r:?}");
    let v = r.json();
    let md = v["content"]["markdown"].as_str().expect("content.markdown");
    assert!(md.starts_with("# Budget agreed\n"), "{md}");
    // Links resolved against the page's URL; text and HTML not asked for.
    assert!(md.contains("[plan](https://news.example.net/plan)"), "{md}");
    assert_eq!(v["content"]["text"], "");
    assert_eq!(v["content"]["html"], "");
    // Not asked for: absent, and the cache keeps the two answers apart.
    let plain = app.extract(json!({ "html": page, "url": "https://news.example.net/a/b" })).await.json();
    assert!(plain["content"].get("markdown").is_none(), "{plain}");
    let raw = app.post_raw("/v1/extract?formats=text,markdown&blocks=false", "text/html", page.into_bytes()).await;
    assert_eq!(raw.status, 200, "{raw:?}");
    let v = raw.json();
    assert!(v["content"]["markdown"].as_str().is_some_and(|m| m.contains("Budget agreed")), "{v}");
    assert!(!v["content"]["text"].as_str().unwrap().is_empty());
    // The explanation page, in the JSON and the query form.
    let r =
        app.extract(json!({ "html": article_html("Budget agreed"), "formats": ["explain"], "blocks": false })).await;
    assert_eq!(r.status, 200, "{r:?}");
    let v = r.json();
    let page = v["content"]["explain"].as_str().expect("content.explain");
    assert!(page.starts_with("<!doctype html>") && page.contains("class=\"b kept\""), "{page}");
    assert_eq!(v["blocks"], json!([]));
    let raw = app.post_raw("/v1/extract?formats=explain", "text/html", article_html("T").into_bytes()).await;
    assert!(raw.json()["content"]["explain"].as_str().is_some_and(|p| p.contains("block_p = ")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extract_client_errors() {
    let app = TestApp::spawn(|c| {
        c.server.body_limit_bytes = 64 * 1024;
    })
    .await;
    let page = article_html("x");
    let cases: Vec<(Resp, u16, &str)> = vec![
        (app.post_raw("/v1/extract", "application/json", "{not json").await, 400, "malformed-json"),
        (app.extract(json!({ "algorithm": "auto" })).await, 400, "missing-input"),
        (app.extract(json!({ "html": page, "surprise": 1 })).await, 400, "malformed-json"),
        (app.extract(json!({ "url": "not a url" })).await, 400, "bad-url"),
        (app.extract(json!({ "html": page, "charset": "klingon" })).await, 400, "unknown-charset"),
        (app.extract(json!({ "html": "  \n " })).await, 400, "empty-input"),
        (app.extract(json!({ "html": page, "formats": [] })).await, 400, "bad-formats"),
        (app.post_raw("/v1/extract?colour=red", "text/html", page.clone()).await, 400, "bad-query"),
        (app.extract(json!({ "html": page, "algorithm": "magic" })).await, 422, "unknown-algorithm"),
        (app.extract(json!({ "html": page, "algorithm": "template" })).await, 422, "no-template"),
        (app.post_raw("/v1/extract", "text/html", b"%PDF-1.7 binary".to_vec()).await, 422, "not-html"),
        (app.post_raw("/v1/extract", "text/plain", page.clone()).await, 415, "unsupported-media-type"),
        (app.send(app.client.post(app.url("/v1/extract")).body(page.clone())).await, 415, "unsupported-media-type"),
        (app.post_raw("/v1/extract", "text/html", "x".repeat(100 * 1024)).await, 413, "too-large"),
        (app.extract(json!({ "html": "x".repeat(100 * 1024) })).await, 413, "too-large"),
        (app.extract(json!({ "url": "file:///etc/passwd" })).await, 403, "url-refused"),
        (app.extract(json!({ "url": "gopher://example.com/" })).await, 403, "url-refused"),
    ];
    for (i, (r, status, code)) in cases.into_iter().enumerate() {
        assert_eq!(r.status, status, "case {i}: {r:?}");
        assert_eq!(r.problem_code(), code, "case {i}");
        let detail = r.json()["detail"].as_str().unwrap().to_string();
        assert!(!detail.contains("src/") && !detail.contains("panicked"), "case {i}: {detail}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_input_limit_is_413() {
    let app = TestApp::spawn(|c| c.extract.max_input_bytes = 1000).await;
    let r = app.extract(json!({ "html": article_html("long") })).await;
    assert_eq!(r.status, 413);
    assert_eq!(r.problem_code(), "too-large");
}

/// `null` in an optional field is the field left out: the same answer, field by field, in a single
/// request and in a batch item; `url` and `html` both null is a missing input, as both left out is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn null_fields_mean_absent() {
    let app = TestApp::spawn(|c| c.cache.enabled = false).await;
    let page = article_html("Null is absent");
    let comparable = |r: &Resp| {
        assert_eq!(r.status, 200, "{r:?}");
        let mut v = r.json();
        v.as_object_mut().unwrap().remove("timings_ms");
        v
    };
    let fields = [
        "url",
        "algorithm",
        "formats",
        "blocks",
        "charset",
        "include_comments",
        "no_article_text",
        "render",
        "javascript",
    ];
    let absent = comparable(&app.extract(json!({ "html": page })).await);
    for field in fields {
        let given = comparable(&app.extract(json!({ "html": page, field: null })).await);
        assert_eq!(given, absent, "{field}: null");
    }
    // All of them null at once, in a batch item too.
    let mut all = json!({ "html": page });
    for field in fields {
        all[field] = Value::Null;
    }
    assert_eq!(comparable(&app.extract(all.clone()).await), absent);
    let r = app.post_json("/v1/extract/batch", &json!({ "items": [all] })).await;
    let mut item = r.json()["results"][0]["ok"].clone();
    item.as_object_mut().unwrap().remove("timings_ms");
    item.as_object_mut().unwrap().remove("cache");
    let mut want = absent.clone();
    want.as_object_mut().unwrap().remove("cache");
    assert_eq!(item, want);
    // An empty string where a value is optional is the field left out too.
    for field in ["url", "algorithm", "charset"] {
        let given = comparable(&app.extract(json!({ "html": page, field: "" })).await);
        assert_eq!(given, absent, "{field}: \"\"");
    }
    let r = app.extract(json!({ "url": "", "site_context": false })).await;
    assert_eq!((r.status, r.problem_code().as_str()), (400, "missing-input"));
    // A fetch with `html: null` is a fetch; both null is a missing input, and says which fields.
    let r = app.extract(json!({ "url": null, "html": null, "algorithm": null })).await;
    assert_eq!((r.status, r.problem_code().as_str()), (400, "missing-input"));
    let detail = r.json()["detail"].as_str().unwrap().to_string();
    assert!(detail.contains("`url`") && detail.contains("`html`"), "{detail}");
    let r = app.extract(json!({ "url": "file:///etc/passwd", "html": null })).await;
    assert_eq!((r.status, r.problem_code().as_str()), (403, "url-refused"));
}

/// An empty query value is the parameter left out (as `null` is in JSON): every query parameter of
/// `POST /v1/extract`, alone and all at once, gives the answer the bare request gives; a name the API
/// does not know is refused even when empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_query_values_mean_absent() {
    let app = TestApp::spawn(|c| c.cache.enabled = false).await;
    let page = article_html("Empty is absent");
    let comparable = |r: &Resp| {
        assert_eq!(r.status, 200, "{r:?}");
        let mut v = r.json();
        v.as_object_mut().unwrap().remove("timings_ms");
        v
    };
    let names = [
        "url",
        "algorithm",
        "formats",
        "blocks",
        "include_comments",
        "no_article_text",
        "render",
        "javascript",
        "site_context",
    ];
    let absent = comparable(&app.post_raw("/v1/extract", "text/html", page.clone()).await);
    for name in names {
        let given = comparable(&app.post_raw(&format!("/v1/extract?{name}="), "text/html", page.clone()).await);
        assert_eq!(given, absent, "{name}=");
    }
    let all = names.map(|n| format!("{n}=")).join("&");
    assert_eq!(comparable(&app.post_raw(&format!("/v1/extract?{all}"), "text/html", page.clone()).await), absent);
    // The JSON form reads the same query.
    let r =
        app.post_raw("/v1/extract?algorithm=&formats=", "application/json", json!({ "html": page }).to_string()).await;
    assert_eq!(comparable(&r), comparable(&app.extract(json!({ "html": page })).await));
    // Empty, then given: the value counts once.
    let r = app.post_raw("/v1/extract?algorithm=&algorithm=cetd-ds", "text/html", page.clone()).await;
    assert_eq!((r.status, r.json()["algorithm"].clone()), (200, json!("cetd-ds")));
    let r = app.post_raw("/v1/extract?colour=", "text/html", page.clone()).await;
    assert_eq!((r.status, r.problem_code().as_str()), (400, "bad-query"));
}

use common::Resp;

// ---------- extract: URL in ----------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_page_with_private_networks_allowed() {
    let origin = Origin::start().await;
    let app = TestApp::spawn_private(|_| {}).await;
    let r = app.extract(json!({ "url": origin.url("/redirect") })).await;
    assert_eq!(r.status, 200, "{r:?}");
    let v = r.json();
    assert!(v["content"]["text"].as_str().unwrap().contains("agreed on a plan"));
    let f = &v["fetch"];
    assert_eq!(f["status"], 200);
    assert_eq!(f["final_url"], origin.url("/article"));
    assert_eq!(v["url"], origin.url("/article"));
    assert!(f["content_type"].as_str().unwrap().starts_with("text/html"));
    assert!(f["bytes"].as_u64().unwrap() > 500);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_gbk_page_decoded_by_header_charset() {
    let origin = Origin::start().await;
    let app = TestApp::spawn_private(|_| {}).await;
    let r = app.extract(json!({ "url": origin.url("/gbk") })).await;
    assert_eq!(r.status, 200, "{r:?}");
    let v = r.json();
    assert!(is_gbk_family(&v["charset"]), "{v}");
    assert!(v["content"]["text"].as_str().unwrap().contains(GBK_TEXT), "{v}");
    assert_eq!(v["title"], "新闻");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_failures_map_to_statuses() {
    let origin = Origin::start().await;
    let app = TestApp::spawn_private(|c| {
        c.fetch.max_bytes = 1024 * 1024;
        c.fetch.total_timeout_ms = 700;
        c.fetch.max_redirects = 3;
    })
    .await;
    let cases = [
        ("/missing", 502, "origin-status", Some("404")),
        ("/doc.pdf", 422, "not-html", Some("application/pdf")),
        ("/endless", 502, "origin-too-large", None),
        ("/bomb", 502, "origin-too-large", None),
        ("/redirect-loop", 502, "too-many-redirects", None),
        ("/slow", 504, "origin-timeout", None),
    ];
    for (path, status, code, detail) in cases {
        let r = app.extract(json!({ "url": origin.url(path) })).await;
        assert_eq!(r.status, status, "{path}: {r:?}");
        assert_eq!(r.problem_code(), code, "{path}");
        if let Some(d) = detail {
            assert!(r.json()["detail"].as_str().unwrap().contains(d), "{path}: {r:?}");
        }
    }
    // Nothing listens on port 9 of the loopback interface.
    let r = app.extract(json!({ "url": "http://127.0.0.1:9/" })).await;
    assert_eq!((r.status, r.problem_code().as_str()), (502, "origin-unreachable"));
    let text = String::from_utf8(app.get("/metrics").await.body.to_vec()).unwrap();
    for outcome in ["origin_status", "not_html", "too_large", "redirects", "timeout", "error"] {
        assert!(text.contains(&format!("pith_fetches_total{{outcome=\"{outcome}\"}}")), "{outcome}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssrf_refused_with_default_config() {
    let origin = Origin::start().await;
    let app = TestApp::spawn(|_| {}).await;
    for url in [
        origin.url("/article"),                            // IP literal, loopback
        origin.localhost_url("/article"),                  // a name resolving to loopback (resolver hook)
        "http://169.254.169.254/latest/meta-data/".into(), // cloud metadata
        "http://[::1]:80/".into(),
        "http://[::ffff:127.0.0.1]/".into(),
        "http://0x7f.1/".into(), // 127.0.0.1 spelt oddly
        "http://10.0.0.1/".into(),
    ] {
        let r = app.extract(json!({ "url": url })).await;
        assert_eq!(r.status, 403, "{url}: {r:?}");
        assert_eq!(r.problem_code(), "url-refused");
    }
    assert_eq!(origin.state.counted.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssrf_checked_again_on_every_redirect() {
    let origin = Origin::start().await;
    // `localhost` is allowed by name; anything it redirects to is checked on its own.
    let app = TestApp::spawn(|c| c.fetch.allow_private_hosts = vec!["localhost".into()]).await;
    let ok = app.extract(json!({ "url": origin.localhost_url("/redirect") })).await;
    assert_eq!(ok.status, 200, "{ok:?}");
    for path in ["/to-loopback", "/to-metadata"] {
        let r = app.extract(json!({ "url": origin.localhost_url(path) })).await;
        assert_eq!(r.status, 403, "{path}: {r:?}");
        assert_eq!(r.problem_code(), "url-refused");
    }
}

/// Every spelling of the loopback address that reaches `origin`'s port (IPv6 only where it listens
/// on `[::1]`), then spellings of refused IPv6 ranges that no local listener can stand in for.
fn loopback_spellings(origin: &Origin) -> (Vec<String>, Vec<String>) {
    let p = origin.addr.port();
    let mut reachable: Vec<String> =
        ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "2130706433", "0177.0.0.1", "0x7f.0.0.1", "127.1"]
            .iter()
            .map(|h| format!("http://{h}:{p}/counted"))
            .collect();
    if origin.ipv6 {
        reachable.push(format!("http://[::1]:{p}/counted"));
    }
    let elsewhere = ["[64:ff9b::7f00:1]", "[64:ff9b:1::a00:1]", "[fe80::1]", "[fd00::2]", "[fc00::1]"]
        .iter()
        .map(|h| format!("http://{h}:{p}/counted"))
        .collect();
    (reachable, elsewhere)
}

fn assert_refused(r: &Resp, what: &str) {
    assert_eq!(r.status, 403, "{what}: {r:?}");
    assert_eq!(r.problem_code(), "url-refused", "{what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssrf_ipv6_and_numeric_ipv4_spellings_refused_without_connecting() {
    let target = Origin::start().await;
    let app = TestApp::spawn(|_| {}).await;
    let (reachable, elsewhere) = loopback_spellings(&target);
    for url in reachable.iter().chain(&elsewhere) {
        assert_refused(&app.extract(json!({ "url": url })).await, url);
    }
    assert_eq!(target.connections(), 0, "a refused URL never connects");
    // The same spellings do reach the listener when private networks are allowed, so the refusals
    // above are the guard's doing and the connection count can tell.
    let open = TestApp::spawn_private(|_| {}).await;
    for url in &reachable {
        let r = open.extract(json!({ "url": url })).await;
        assert_eq!(r.status, 200, "{url}: {r:?}");
    }
    assert!(target.connections() > 0); // spellings of one address share a pooled connection
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssrf_redirects_to_every_spelling_are_refused() {
    let origin = Origin::start().await;
    let target = Origin::start().await;
    // The first hop (`localhost`, allowed by name) is fine; each hop after it is checked on its own.
    let app = TestApp::spawn(|c| c.fetch.allow_private_hosts = vec!["localhost".into()]).await;
    let via = |to: &str| {
        let to: String = url::form_urlencoded::byte_serialize(to.as_bytes()).collect();
        origin.localhost_url(&format!("/redirect-to?to={to}"))
    };
    let (reachable, elsewhere) = loopback_spellings(&target);
    let p = target.addr.port();
    let others = [format!("http://169.254.169.254:{p}/"), format!("http://10.0.0.1:{p}/")];
    for to in reachable.iter().chain(&elsewhere).chain(&others) {
        assert_refused(&app.extract(json!({ "url": via(to) })).await, to);
    }
    assert!(origin.connections() > 0);
    assert_eq!(target.connections(), 0, "no redirect target was connected to");
    // A redirect the guard allows does reach the target.
    let ok = app.extract(json!({ "url": via(&target.localhost_url("/counted")) })).await;
    assert_eq!(ok.status, 200, "{ok:?}");
    assert!(target.connections() > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssrf_dns_rebinding_between_check_and_connect_cannot_reach_loopback() {
    let origin = Origin::start().await;
    let target = Origin::start().await;
    // `rebind.test` answers a public address the first time and loopback ever after: a service that
    // checked one answer and connected with another would fetch the target's page.
    let dns = Arc::new(
        ScriptedDns::default()
            .answer("rebind.test", &[&["8.8.8.8"], &["127.0.0.1"]])
            .answer("localhost", &[&["127.0.0.1"]]),
    );
    let app = TestApp::spawn_with_resolver(
        |c| {
            c.fetch.connect_timeout_ms = 300;
            c.fetch.allow_private_hosts = vec!["localhost".into()];
        },
        dns.clone(),
    )
    .await;
    let url = format!("http://rebind.test:{}/counted", target.addr.port());
    // The checked (public) answer is the one connected to; it does not answer here.
    let first = app.extract(json!({ "url": url })).await;
    assert!(matches!(first.status, 502 | 504), "{first:?}");
    assert!(matches!(first.problem_code().as_str(), "origin-unreachable" | "origin-timeout"), "{first:?}");
    assert_eq!(dns.asked("rebind.test"), 1, "looked up once for both the check and the connect");
    // The next question gets loopback, which is checked and refused, directly or after a redirect.
    assert_refused(&app.extract(json!({ "url": url })).await, &url);
    assert_eq!(dns.asked("rebind.test"), 2);
    let to: String = url::form_urlencoded::byte_serialize(url.as_bytes()).collect();
    let via = origin.localhost_url(&format!("/redirect-to?to={to}"));
    assert_refused(&app.extract(json!({ "url": via })).await, &via);
    assert_eq!(dns.asked("rebind.test"), 3);
    assert!(origin.connections() > 0);
    assert_eq!(target.connections(), 0, "loopback was never connected to");
    assert_eq!(target.state.counted.load(Ordering::SeqCst), 0);
}

// ---------- cache ----------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_hits_on_second_call_and_no_cache_bypasses() {
    let origin = Origin::start().await;
    let app = TestApp::spawn_private(|_| {}).await;
    let req = json!({ "url": origin.url("/counted#section") });
    let first = app.extract(req.clone()).await;
    assert_eq!(first.json()["cache"], "miss");
    let second = app.extract(json!({ "url": origin.url("/counted") })).await;
    assert_eq!(second.json()["cache"], "hit", "fragment dropped from the key");
    assert_eq!(second.json()["fetch"], first.json()["fetch"]);
    assert_eq!(origin.state.counted.load(Ordering::SeqCst), 1);
    let other_options = app.extract(json!({ "url": origin.url("/counted"), "blocks": false })).await;
    assert_eq!(other_options.json()["cache"], "miss");
    let bypass = app
        .send(
            app.client
                .post(app.url("/v1/extract"))
                .header("content-type", "application/json")
                .header("cache-control", "no-cache")
                .body(req.to_string()),
        )
        .await;
    assert_eq!(bypass.json()["cache"], "miss");
    assert_eq!(origin.state.counted.load(Ordering::SeqCst), 3);

    let html = json!({ "html": article_html("cached") });
    assert_eq!(app.extract(html.clone()).await.json()["cache"], "miss");
    assert_eq!(app.extract(html).await.json()["cache"], "hit");
    assert_eq!(app.metric("pith_cache_hits_total").await, 2.0);
    assert!(app.metric("pith_cache_size_bytes").await > 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_can_be_disabled() {
    let app = TestApp::spawn(|c| c.cache.enabled = false).await;
    let html = json!({ "html": article_html("uncached") });
    assert_eq!(app.extract(html.clone()).await.json()["cache"], "miss");
    assert_eq!(app.extract(html).await.json()["cache"], "miss");
}

// ---------- batch ----------

fn mixed_batch(origin: &Origin) -> Value {
    json!({ "items": [
        { "html": article_html("first") },
        { "html": article_html("second"), "algorithm": "magic" },
        { "url": origin.url("/missing") },
        { "url": "not a url" },
        { "url": origin.url("/article"), "blocks": false },
        { "html": " " },
    ]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_mixed_items_in_order() {
    let origin = Origin::start().await;
    let app = TestApp::spawn_private(|_| {}).await;
    let r = app.post_json("/v1/extract/batch", &mixed_batch(&origin)).await;
    assert_eq!(r.status, 200, "{r:?}");
    let results = r.json()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), 6);
    for (i, item) in results.iter().enumerate() {
        assert_eq!(item["index"], i);
    }
    assert_eq!(results[0]["ok"]["title"], "first");
    assert_eq!(results[1]["error"]["status"], 422);
    assert_eq!(results[2]["error"]["status"], 502);
    assert_eq!(results[3]["error"]["status"], 400);
    assert!(results[4]["ok"]["fetch"]["final_url"].is_string());
    assert_eq!(results[5]["error"]["type"], "urn:pith:problem:empty-input");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_limits_and_errors() {
    let app = TestApp::spawn(|c| c.server.max_batch_items = 2).await;
    let too_many = json!({ "items": [{ "html": "a" }, { "html": "b" }, { "html": "c" }] });
    let r = app.post_json("/v1/extract/batch", &too_many).await;
    assert_eq!((r.status, r.problem_code().as_str()), (413, "too-large"));
    let r = app.post_json("/v1/extract/batch", &json!({ "things": [] })).await;
    assert_eq!((r.status, r.problem_code().as_str()), (400, "malformed-json"));
    let r = app.post_raw("/v1/extract/batch", "text/html", "<p>x</p>").await;
    assert_eq!((r.status, r.problem_code().as_str()), (415, "unsupported-media-type"));
    let r = app.post_json("/v1/extract/batch", &json!({ "items": [] })).await;
    assert_eq!(r.json(), json!({ "results": [] }));
    // An item that breaks the item schema makes the request malformed, named by its index.
    for (item, code) in [
        (json!({ "colour": "red" }), "malformed-json"),
        (json!({ "html": "<p>x</p>", "include_comments": {} }), "malformed-json"),
        (json!({}), "missing-input"),
        (json!({ "url": null, "html": null }), "missing-input"),
        (json!({ "html": "" }), "empty-input"),
        (json!({ "url": "" }), "missing-input"),
        (json!({ "html": "<p>x</p>", "formats": [] }), "bad-formats"),
    ] {
        let r = app.post_json("/v1/extract/batch", &json!({ "items": [{ "html": "<p>a</p>" }, item] })).await;
        assert_eq!((r.status, r.problem_code().as_str()), (400, code));
        assert!(r.json()["detail"].as_str().unwrap().starts_with("item 1:"), "{r:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_ndjson_streams_each_result_when_ready() {
    let origin = Origin::start().await;
    let app = TestApp::spawn_private(|_| {}).await;
    let body = json!({ "items": [ { "url": origin.url("/held") }, { "html": article_html("quick") } ] });
    let mut res = app
        .client
        .post(app.url("/v1/extract/batch"))
        .header("content-type", "application/json")
        .header("accept", "application/x-ndjson")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/x-ndjson");
    // Item 0 waits on the origin, so item 1's line must arrive first, while item 0 is still open.
    let mut buf = Vec::new();
    let first_line = tokio::time::timeout(TIMEOUT, async {
        loop {
            if let Some(n) = buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = buf.drain(..=n).collect();
                return serde_json::from_slice::<Value>(&line).unwrap();
            }
            buf.extend_from_slice(&res.chunk().await.unwrap().expect("a line before the end"));
        }
    })
    .await
    .expect("the quick item streams before the held one finishes");
    assert_eq!(first_line["index"], 1);
    assert_eq!(first_line["ok"]["title"], "quick");
    spec().assert_valid(spec().schema("BatchItem"), &first_line, "first NDJSON line");
    origin.state.release.notify_one();
    while let Some(chunk) = tokio::time::timeout(TIMEOUT, res.chunk()).await.unwrap().unwrap() {
        buf.extend_from_slice(&chunk);
    }
    let rest: Vec<Value> =
        buf.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect();
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0]["index"], 0);
    assert_eq!(rest[0]["ok"]["title"], "Held page");
    spec().check_response("POST", "/v1/extract/batch", 200, "application/x-ndjson", &buf);
}

// ---------- rendering switched off ----------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rendering_off_is_a_problem_and_the_server_stays_ready() {
    let app = TestApp::spawn(|c| c.render.enabled = false).await;
    let page = article_html("Not rendered");
    // Asked for in JSON, in the query, implied by javascript and by the visual algorithms: all 501.
    let asks = [
        json!({ "html": page, "render": true }),
        json!({ "html": page, "javascript": true }),
        json!({ "html": page, "algorithm": "vips" }),
        json!({ "html": page, "algorithm": "cehtd-ds", "render": false }),
    ];
    for body in asks {
        let r = app.extract(body.clone()).await;
        assert_eq!(r.status, 501, "{body}: {r:?}");
        assert_eq!(r.header("content-type"), Some("application/problem+json"));
        assert_eq!(r.problem_code(), "render-unavailable", "{body}");
        assert!(r.json()["detail"].as_str().unwrap().contains("render.enabled"), "{r:?}");
    }
    let raw = app.post_raw("/v1/extract?render=true", "text/html", page.clone()).await;
    assert_eq!((raw.status, raw.problem_code().as_str()), (501, "render-unavailable"));
    let bad = app.post_raw("/v1/extract?javascript=maybe", "text/html", page.clone()).await;
    assert_eq!((bad.status, bad.problem_code().as_str()), (400, "bad-query"));
    // A JSON body takes render and javascript from the query where it is silent (null is silent too).
    let body = serde_json::to_vec(&json!({ "html": page })).unwrap();
    for q in ["render=true", "javascript=true"] {
        let r = app.post_raw(&format!("/v1/extract?{q}"), "application/json", body.clone()).await;
        assert_eq!((r.status, r.problem_code().as_str()), (501, "render-unavailable"), "{q}");
    }
    let own = serde_json::to_vec(&json!({ "html": page, "render": false })).unwrap();
    assert_eq!(app.post_raw("/v1/extract?render=true", "application/json", own).await.status, 200);
    for q in ["render=true", "javascript=true"] {
        let null = serde_json::to_vec(&json!({ "html": page, "render": null, "javascript": null })).unwrap();
        let r = app.post_raw(&format!("/v1/extract?{q}"), "application/json", null).await;
        assert_eq!((r.status, r.problem_code().as_str()), (501, "render-unavailable"), "{q} with null fields");
    }
    // A batch: the item that needs the browser fails alone.
    let r = app
        .post_json("/v1/extract/batch", &json!({ "items": [{ "html": page }, { "html": page, "render": true }] }))
        .await;
    assert_eq!(r.status, 200);
    let results = r.json()["results"].clone();
    assert!(results[0]["ok"].is_object());
    assert_eq!(results[1]["error"]["status"], 501);
    // Without rendering the rest of the service works, and says what it cannot do.
    assert_eq!(app.extract(json!({ "html": page })).await.status, 200);
    assert_eq!(app.get("/readyz").await.json(), json!({ "status": "ready" }));
    let v = app.get("/v1/algorithms").await.json();
    assert_eq!(v["render"]["available"], false);
    for a in v["algorithms"].as_array().unwrap() {
        let visual = a["name"] == "vips" || a["name"] == "cehtd-ds";
        assert_eq!(a["needs_render"], visual, "{a}");
        assert_eq!(a["available"], !visual, "{a}");
    }
}

// ---------- the front page (GET / and POST /, for people) ----------

/// A form body as a browser sends it (`application/x-www-form-urlencoded`).
fn form(fields: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish()
}

async fn post_form(app: &TestApp, fields: &[(&str, &str)]) -> Resp {
    app.post_raw("/", "application/x-www-form-urlencoded", form(fields)).await
}

fn html_of(r: &Resp) -> String {
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"), "{r:?}");
    let csp = r.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("default-src 'none'") && csp.contains("form-action 'self'"), "{csp}");
    String::from_utf8(r.body.to_vec()).unwrap()
}

/// Text as the page escapes it, to find a detail the API gave in JSON.
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const FIXTURE: &str = include_str!("fixtures/pages/article.html");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn front_page_form_lists_the_algorithms() {
    let app = TestApp::spawn(|_| {}).await;
    let r = app.get("/").await;
    assert_eq!(r.status, 200);
    let page = html_of(&r);
    assert!(page.contains("<form method=\"post\" action=\"/\""), "{page}");
    assert!(page.contains("name=\"url\"") && page.contains("<textarea name=\"html\""));
    for a in pith::algorithms::ALGORITHMS {
        assert!(page.contains(&format!("<option value=\"{}\"", a.name())), "{a} missing");
    }
    assert!(page.contains("<option value=\"auto\" selected"), "the default is chosen");
    assert!(!page.contains("<script"), "the page works without scripts");
    // Other paths keep their answers: the 404 fallback is still a problem document.
    let r = app.get("/no/such/thing").await;
    assert_eq!((r.status, r.problem_code().as_str()), (404, "not-found"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn front_page_shows_the_extraction_of_a_pasted_page() {
    let app = TestApp::spawn(|_| {}).await;
    let fields = [("url", ""), ("html", FIXTURE), ("algorithm", "auto"), ("formats", "text"), ("formats", "markdown")];
    let r = post_form(&app, &fields).await;
    assert_eq!(r.status, 200, "{r:?}");
    let page = html_of(&r);
    let text = page.split("<pre class=\"text\">").nth(1).and_then(|t| t.split("</pre>").next()).unwrap_or_default();
    assert!(text.contains("More than two hundred farmers gathered"), "{page}");
    assert!(!text.contains("Copyright 2026"), "the footer is dropped");
    assert!(page.contains("<pre class=\"markdown\"># Farmers learn new rice methods"), "{page}");
    assert!(page.contains("<dd>Farmers learn new rice methods</dd>"), "metadata title");
    assert!(page.contains("<dt>Has an article</dt><dd>probability 0.") && page.contains("<dt>Page type</dt>"));
    // The explanation, escaped whole into a sandboxed frame's srcdoc.
    assert!(page.contains("<iframe class=\"explain\" sandbox title="), "{page}");
    assert!(page.contains("srcdoc=\"&lt;!doctype html&gt;"), "{page}");
    assert!(page.contains("class=&quot;b kept&quot;") && page.contains("class=&quot;b dropped&quot;"));
    assert!(!page.contains("<pre class=\"html\">"), "HTML was not asked for");
    // The form comes back filled in, and the same request is the same job: a cache hit.
    assert!(page.contains("&lt;h1&gt;Farmers learn new rice methods&lt;/h1&gt;"), "the textarea keeps the page");
    assert!(page.contains("value=\"markdown\" checked") && !page.contains("value=\"html\" checked"));
    let again = html_of(&post_form(&app, &fields).await);
    assert!(again.contains("cache hit"), "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn front_page_escapes_everything_the_page_brings() {
    let app = TestApp::spawn(|_| {}).await;
    let hostile = "<html><head><title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>\
        <meta name=author content='\"&gt;&lt;script&gt;alert(2)&lt;/script&gt;'>\
        <script>alert(3)</script></head><body><article><h1>Rice &lt;script&gt;alert(4)&lt;/script&gt;</h1>\
        <p>More than two hundred farmers gathered in the county town on Monday for a week of training, and \
        &lt;/pre&gt;&lt;script&gt;alert(5)&lt;/script&gt;&lt;img src=x onerror=alert(6)&gt; was typed by one.</p>\
        <p>Instructors showed how to raise seedlings in trays, how to time fertiliser, and how to spot blast \
        disease early &lt;/textarea&gt;&lt;script&gt;alert(7)&lt;/script&gt; in the field.</p>\
        </article></body></html>";
    let r =
        post_form(&app, &[("html", hostile), ("formats", "text"), ("formats", "markdown"), ("formats", "html")]).await;
    assert_eq!(r.status, 200, "{r:?}");
    let page = html_of(&r).to_lowercase();
    assert!(!page.contains("<script") && !page.contains("<img"), "{page}");
    assert!(page.contains("&lt;script&gt;alert(5)&lt;/script&gt;"), "the text is shown, escaped: {page}");
    assert!(page.contains("&amp;lt;script&amp;gt;alert(5)"), "escaped again inside srcdoc");
    assert!(page.matches("</textarea>").count() == 1 && page.matches("<iframe").count() == 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn front_page_refusals_are_the_apis_shown_as_pages() {
    let app = TestApp::spawn(|_| {}).await;
    // A loopback address: the fetcher's SSRF guard refuses it here as in the API, same status and words.
    let url = "http://127.0.0.1:9/admin";
    let api = app.extract(json!({ "url": url })).await;
    assert_eq!((api.status, api.problem_code().as_str()), (403, "url-refused"));
    let detail = api.json()["detail"].as_str().unwrap().to_string();
    let r = post_form(&app, &[("url", url), ("html", "")]).await;
    assert_eq!(r.status, 403);
    let page = html_of(&r);
    assert!(page.contains(&escaped(&detail)) && page.contains("urn:pith:problem:url-refused"), "{page}");
    assert!(page.contains(&format!("value=\"{url}\"")), "the form keeps the address");
    // Empty: a browser sends every field, filled or not.
    for body in [form(&[("url", ""), ("html", "  "), ("formats", "text")]), String::new()] {
        let r = app.post_raw("/", "application/x-www-form-urlencoded", body).await;
        assert_eq!(r.status, 400, "{r:?}");
        assert!(html_of(&r).contains("urn:pith:problem:missing-input"));
    }
    let r = post_form(&app, &[("html", FIXTURE), ("algorithm", "nope")]).await;
    assert_eq!(r.status, 422);
    assert!(html_of(&r).contains("urn:pith:problem:unknown-algorithm"));
    let r = post_form(&app, &[("html", FIXTURE), ("colour", "red")]).await;
    assert_eq!(r.status, 400);
    let r = app.post_raw("/", "application/json", json!({ "html": FIXTURE }).to_string()).await;
    assert_eq!(r.status, 415);
    assert!(html_of(&r).contains("urn:pith:problem:unsupported-media-type"));
    let r = app.send(app.client.delete(app.url("/"))).await;
    assert_eq!(r.status, 405);
    assert!(html_of(&r).contains("urn:pith:problem:method-not-allowed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn front_page_keeps_the_services_limits() {
    let app = TestApp::spawn(|c| {
        c.server.body_limit_bytes = 8 * 1024;
        c.rate_limit.enabled = true;
        c.rate_limit.per_second = 0.01;
        c.rate_limit.burst = 2;
    })
    .await;
    let big = "<p>word</p>".repeat(1000);
    let r = post_form(&app, &[("html", &big)]).await;
    assert_eq!(r.status, 413, "{r:?}");
    assert!(html_of(&r).contains("server.body_limit_bytes"));
    assert_eq!(post_form(&app, &[("html", FIXTURE)]).await.status, 200);
    // Limited before the handler runs, and still a page, with the API's Retry-After.
    let r = post_form(&app, &[("html", FIXTURE)]).await;
    assert_eq!(r.status, 429);
    assert!(r.header("retry-after").is_some_and(|s| s.parse::<u64>().is_ok_and(|n| n >= 1)));
    assert!(html_of(&r).contains("urn:pith:problem:rate-limited"));
}

/// Serve `body` with `headers` to every request on a port of its own: Chromium cannot send a form
/// from its command line, and a saved file would lose the answer's headers (its CSP among them).
fn replay(body: Vec<u8>, headers: Vec<(String, String)>) -> std::net::SocketAddr {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.read(&mut [0u8; 8192]);
            let mut head = format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
            for (k, v) in &headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(&body));
        }
    });
    addr
}

/// The result page as Chromium draws it under the page's own CSP: the result area is there (its
/// blue heading bar), the explanation frame draws its kept and dropped blocks (green and red) inside
/// the sandbox, and the text shown is the extracted text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn front_page_result_as_chromium_draws_it() {
    let Some(browser) = browser::chromium() else { return };
    let app = TestApp::spawn(|_| {}).await;
    let r = post_form(&app, &[("html", FIXTURE), ("formats", "text"), ("formats", "markdown")]).await;
    assert_eq!(r.status, 200, "{r:?}");
    let keep = ["content-type", "content-security-policy", "x-content-type-options"];
    let headers = keep.iter().filter_map(|k| Some((k.to_string(), r.header(k)?.to_string()))).collect();
    let addr = replay(r.body.to_vec(), headers);
    let dir = std::env::temp_dir().join(format!("pith-front-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("http://{addr}/");

    let (w, h, px) = browser::screenshot_url(&browser, &url, &dir.join("front.png"), 1000, 2400);
    assert!(w >= 800 && h >= 2000, "{w}x{h}");
    // The result's heading bar, #0a5ad4.
    let bar = px.chunks(4).filter(|p| p[0] < 40 && (70..=110).contains(&p[1]) && p[2] > 190).count();
    assert!(bar > 10_000, "result heading drawn: {bar} blue pixels");
    // The explanation frame, as in tests/explain_page.rs: kept blocks green, dropped ones red.
    let green = px.chunks(4).filter(|p| p[1] as i32 > p[0] as i32 + 40 && p[1] as i32 > p[2] as i32 + 30).count();
    let red = px.chunks(4).filter(|p| p[0] as i32 > p[1] as i32 + 40 && p[0] as i32 > p[2] as i32 + 40).count();
    assert!(green > 20_000, "kept blocks drawn in the frame: {green} green pixels");
    assert!(red > 5_000, "dropped blocks drawn in the frame: {red} red pixels");

    let dom = browser::dump_dom(&browser, &url, &dir.join("dom.html"));
    let text = dom.split("<pre class=\"text\">").nth(1).and_then(|t| t.split("</pre>").next()).unwrap_or_default();
    assert!(text.contains("More than two hundred farmers gathered in the county town"), "{dom}");
    assert!(dom.contains("<iframe class=\"explain\" sandbox=\"\""), "{dom}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------- the small endpoints ----------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn algorithms_health_ready_openapi_metrics() {
    let app = TestApp::spawn(|_| {}).await;
    let r = app.get("/v1/algorithms").await;
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["default"], "auto");
    let names: Vec<&str> = v["algorithms"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), pith::algorithms::ALGORITHMS.len());
    assert!(names.contains(&"auto") && names.contains(&"bayes"));

    assert_eq!(app.get("/healthz").await.json(), json!({ "status": "ok" }));
    assert_eq!(app.get("/readyz").await.json(), json!({ "status": "ready" }));

    let r = app.get("/openapi.yaml").await;
    assert_eq!(r.header("content-type"), Some("application/yaml"));
    let doc = common::schema::yaml_to_json(std::str::from_utf8(&r.body).unwrap());
    assert_eq!(doc["openapi"].as_str(), Some("3.1.0"));

    app.extract(json!({ "html": article_html("m") })).await;
    let r = app.get("/metrics").await;
    assert!(r.header("content-type").unwrap().starts_with("text/plain"));
    let text = String::from_utf8(r.body.to_vec()).unwrap();
    for needle in [
        "pith_http_requests_total{route=\"/v1/extract\",status=\"200\"} 1",
        "pith_http_request_duration_seconds_bucket{route=\"/v1/extract\",le=\"+Inf\"} 1",
        "pith_extraction_duration_seconds_count 1",
        "pith_cache_misses_total 1",
        "pith_pool_queue_depth 0",
        "pith_pool_workers 2",
        "# TYPE pith_fetch_duration_seconds histogram",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }

    let r = app.get("/no/such/thing").await;
    assert_eq!((r.status, r.problem_code().as_str()), (404, "not-found"));
    let r = app.send(app.client.delete(app.url("/v1/extract"))).await;
    assert_eq!((r.status, r.problem_code().as_str()), (405, "method-not-allowed"));
}

/// The contract checker itself refuses what the spec forbids, so the checks above can fail.
#[test]
fn spec_checker_refuses_what_the_spec_forbids() {
    let refused = |schema: &str, v: Value| {
        std::panic::catch_unwind(|| spec().assert_valid(spec().schema(schema), &v, schema)).is_err()
    };
    assert!(!refused("Status", json!({ "status": "ok" })));
    assert!(refused("Status", json!({ "status": "fine" })));
    assert!(refused("Problem", json!({ "type": "urn:pith:problem:x", "title": "t", "status": "400", "detail": "d" })));
    let problem = json!({ "type": "urn:pith:problem:x", "title": "t", "status": 400, "detail": "d" });
    assert!(!refused("BatchItem", json!({ "index": 0, "error": problem })));
    assert!(refused("BatchItem", json!({ "index": -1, "error": problem })));
    assert!(refused("BatchItem", json!({ "index": 0, "error": problem, "extra": true })));
    assert_eq!(spec().request_is_valid("POST", "/v1/extract", br#"{"html": "<p>x</p>", "colour": 1}"#), Some(false));
    assert_eq!(spec().request_is_valid("POST", "/v1/extract", br#"{"html": "<p>x</p>"}"#), Some(true));
    assert_eq!(spec().request_is_valid("POST", "/v1/extract", br#"{"html": "<p>x</p>", "blocks": null}"#), Some(true));
    assert_eq!(spec().request_is_valid("POST", "/v1/extract", br#"{"url": null, "html": null}"#), Some(false));
    assert_eq!(spec().request_is_valid("POST", "/v1/extract", br#"{"html": ""}"#), Some(false));
    // An empty `url` is left out: beside `html` it is valid, alone it gives no input.
    assert_eq!(spec().request_is_valid("POST", "/v1/extract", br#"{"html": "<p>x</p>", "url": ""}"#), Some(true));
    assert_eq!(spec().request_is_valid("POST", "/v1/extract", br#"{"url": ""}"#), Some(false));
}

// ---------- runtime ----------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limit_per_client_ip() {
    let app = TestApp::spawn(|c| {
        c.rate_limit.enabled = true;
        c.rate_limit.per_second = 0.01;
        c.rate_limit.burst = 2;
    })
    .await;
    let html = json!({ "html": article_html("r") });
    assert_eq!(app.extract(html.clone()).await.status, 200);
    assert_eq!(app.extract(html.clone()).await.status, 200);
    let r = app.extract(html).await;
    assert_eq!((r.status, r.problem_code().as_str()), (429, "rate-limited"));
    assert!(r.header("retry-after").unwrap().parse::<u64>().unwrap() >= 1);
    assert_eq!(app.get("/healthz").await.status, 200, "probes are not limited");
    // Every other endpoint is limited, and documents its 429 (checked by `TestApp::send`).
    for path in ["/v1/algorithms", "/openapi.yaml"] {
        assert_eq!(app.get(path).await.status, 429, "{path}");
    }
}

/// A page big enough to keep the only worker busy for a while.
fn big_page() -> String {
    let row = "<div class=row><p>Some words in a paragraph that goes on for a while <a href=/x>a link</a> \
               and then some more words.</p><span>side</span></div>";
    format!("<html><body>{}</body></html>", row.repeat(30_000))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saturated_pool_answers_503_with_retry_after() {
    let app = TestApp::spawn(|c| {
        c.pool.workers = 1;
        c.pool.queue_depth = 0;
        c.pool.retry_after_secs = 3;
        c.cache.enabled = false;
    })
    .await;
    let big = json!({ "html": big_page(), "blocks": false, "formats": ["text"] });
    let small = json!({ "html": article_html("small") });
    let mut saw_503 = false;
    for _attempt in 0..5 {
        let client = common::client();
        let url = app.url("/v1/extract");
        let body = big.to_string();
        let busy = tokio::spawn(async move {
            client.post(url).header("content-type", "application/json").body(body).send().await.unwrap().status()
        });
        // Wait until the big page is on the worker, then ask for more.
        let running = tokio::time::timeout(TIMEOUT, async {
            while !busy.is_finished() {
                if app.metric("pith_pool_running").await == 1.0 {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            false
        })
        .await
        .unwrap();
        if running {
            // Another large page finds the pool full; an ordinary one still runs, on the small-page
            // lane, instead of waiting behind the large one.
            let r = app.extract(big.clone()).await;
            if r.status == 503 {
                assert_eq!(r.problem_code(), "unavailable");
                assert_eq!(r.header("retry-after"), Some("3"));
                saw_503 = true;
            }
            assert_eq!(app.extract(small.clone()).await.status, 200);
        }
        assert_eq!(busy.await.unwrap(), 200);
        if saw_503 {
            break;
        }
    }
    assert!(saw_503, "the pool never looked full");
    assert_eq!(app.extract(small).await.status, 200, "free again once the big page is done");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_in_flight_request() {
    let origin = Origin::start().await;
    let mut app = TestApp::spawn_private(|c| {
        c.server.drain_delay_ms = 1000;
        c.server.shutdown_grace_ms = 10_000;
    })
    .await;
    let client = common::client();
    let url = app.url("/v1/extract");
    let body = json!({ "url": origin.url("/held") }).to_string();
    let in_flight = tokio::spawn(async move {
        let r = client.post(url).header("content-type", "application/json").body(body).send().await.unwrap();
        (r.status().as_u16(), r.text().await.unwrap())
    });
    tokio::time::timeout(TIMEOUT, origin.state.held_entered.notified()).await.expect("request reached the origin");
    app.shutdown();
    // Draining: not ready, but still answering.
    let not_ready = tokio::time::timeout(TIMEOUT, async {
        loop {
            let r = app.get("/readyz").await;
            if r.status == 503 {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .unwrap();
    assert_eq!(not_ready.problem_code(), "unavailable");
    assert!(not_ready.header("retry-after").is_some());
    origin.state.release.notify_one();
    let (status, text) = tokio::time::timeout(TIMEOUT, in_flight).await.unwrap().unwrap();
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("Held page"));
    let server = app.server.take().unwrap();
    tokio::time::timeout(TIMEOUT, server).await.expect("server stops").unwrap().unwrap();
    assert!(common::client().get(app.url("/healthz")).send().await.is_err(), "listener closed");
}

// ---------- the binary ----------

/// `pith serve` as deployed: settings from `PITH_*` variables, JSON logs, SIGTERM ends it cleanly.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pith_serve_binary_reads_env_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};

    let mut child = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("PITH_LOG__FORMAT", "json")
        .env("PITH_LOG__LEVEL", "info")
        .env("PITH_POOL__WORKERS", "1")
        .env_remove("RUST_LOG")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let v: Value = serde_json::from_str(&line).unwrap_or_else(|_| panic!("log line is not JSON: {line}"));
            if tx.send(v).is_err() {
                break;
            }
        }
    });
    let next_log = |what: &str| {
        let deadline = std::time::Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let v = rx.recv_timeout(left).unwrap_or_else(|_| panic!("no log line for {what}"));
            if v["message"] == what {
                return v;
            }
        }
    };
    let started = next_log("pith serve listening");
    assert_eq!(started["workers"], 1, "PITH_POOL__WORKERS applies");
    let addr = started["addr"].as_str().unwrap().to_string();
    let r = common::client().get(format!("http://{addr}/healthz")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let logged = next_log("request");
    assert_eq!((logged["route"].as_str(), logged["status"].as_u64()), (Some("/healthz"), Some(200)));
    assert!(logged["request_id"].is_string() && logged["ms"].is_number());

    let killed = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    next_log("shutdown complete");
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

// ---------- site templates ----------

#[path = "common/site.rs"]
mod site;

/// Post page `k` of the generated site with its address: Chinese pages as GBK bytes (a raw body with
/// the options in the query), English ones as JSON.
async fn post_site_page(app: &TestApp, k: usize, site_context: Option<bool>) -> Value {
    let r = if k.is_multiple_of(2) {
        let flag = site_context.map_or(String::new(), |b| format!("&site_context={b}"));
        let path = format!("/v1/extract?formats=text&blocks=false&url={}{flag}", site::url(k));
        app.post_raw(&path, "text/html; charset=GBK", site::page(k)).await
    } else {
        let html = String::from_utf8(site::page(k)).unwrap();
        let mut body = json!({ "html": html, "url": site::url(k), "formats": ["text"], "blocks": false });
        if let Some(b) = site_context {
            body["site_context"] = json!(b);
        }
        app.extract(body).await
    };
    assert_eq!(r.status, 200, "page {k}: {r:?}");
    r.json()
}

fn assert_article_without_chrome(k: usize, v: &Value) {
    let text = v["content"]["text"].as_str().unwrap();
    for p in site::article(k).1 {
        assert!(text.contains(p.as_str()), "page {k} lost its article:\n{text}");
    }
    for chrome in site::CHROME {
        assert!(!text.contains(chrome), "page {k} kept {chrome:?}:\n{text}");
    }
}

/// With `[site_templates]` on, the service learns the site from the pages it is sent: after a few,
/// answers say `template` and leave the menu, hot list and footer out, each article whole. A page sent
/// again is a cache hit while the template is unchanged, and answered anew once it learned more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn site_templates_learned_from_the_pages_sent_leave_the_sites_chrome_out() {
    let app = TestApp::spawn(|c| c.site_templates.enabled = true).await;
    let mut removed = 0;
    for k in 0..30 {
        let v = post_site_page(&app, k, None).await;
        assert_eq!(v["cache"], "miss");
        assert_eq!(v["template"]["pages"], k, "page {k}: every page before it was learned: {v}");
        removed += v["template"]["blocks_removed"].as_u64().unwrap();
        if k >= 5 {
            assert_article_without_chrome(k, &v);
        }
    }
    assert!(removed > 0);
    assert_eq!(app.metric("pith_site_templates").await, 1.0);
    // The last page again: the template learned only that page since, which is never its own evidence.
    let again = post_site_page(&app, 29, None).await;
    assert_eq!((&again["cache"], &again["template"]["pages"]), (&json!("hit"), &json!(29)));
    // An early page again: answered anew, from all the site's other pages.
    let early = post_site_page(&app, 2, None).await;
    assert_eq!((&early["cache"], &early["template"]["pages"]), (&json!("miss"), &json!(29)));
    assert_article_without_chrome(2, &early);
    // Opting out, in JSON, in the query and in a batch item: the page on its own, no `template`.
    for k in [3, 4] {
        let alone = post_site_page(&app, k, Some(false)).await;
        assert!(alone.get("template").is_none(), "{alone}");
    }
    let html = String::from_utf8(site::page(7)).unwrap();
    let items = json!({ "items": [
        { "html": html, "url": site::url(7), "site_context": false, "formats": ["text"] },
        { "html": html, "url": site::url(7), "site_context": null, "formats": ["text"] },
        { "html": html, "formats": ["text"] },
    ] });
    let r = app.post_json("/v1/extract/batch", &items).await;
    assert_eq!(r.status, 200, "{r:?}");
    let results = r.json()["results"].as_array().unwrap().clone();
    let template = |i: usize| results.iter().find(|x| x["index"] == i).unwrap()["ok"].get("template").cloned();
    assert_eq!(template(0), None);
    assert_eq!(template(1).map(|t| t["pages"].clone()), Some(json!(29)));
    assert_eq!(template(2), None, "HTML without an address has no site");
}

/// Off by default: no answer says `template`, however many pages of a site come.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn site_templates_are_off_by_default() {
    let app = TestApp::spawn(|_| {}).await;
    for k in 0..6 {
        let v = post_site_page(&app, k, None).await;
        assert!(v.get("template").is_none(), "page {k}: {v}");
    }
    assert_eq!(app.metric("pith_site_templates").await, 0.0);
}

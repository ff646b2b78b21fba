//! `render` and `javascript` over HTTP against a real headless browser: the service lays pages out,
//! runs their scripts, serves the visual methods and reports the browser in `/v1/algorithms` and
//! `/metrics`. (Rendering switched off is tested in tests/service.rs; the network walls in
//! tests/render_escape.rs.)

mod common;

use common::{Origin, TestApp};
use serde_json::json;

const ARTICLE: &str = include_str!("fixtures/pages/article.html");
const SCRIPTED: &str = include_str!("fixtures/pages/javascript.html");

/// The app with rendering, or `None` (with a note) when no browser is installed; in CI a missing
/// browser fails the test instead.
async fn app(configure: impl FnOnce(&mut pith::configuration::Config)) -> Option<TestApp> {
    let probe = pith::browser::RenderConfig::default().availability();
    if !probe.is_ready() {
        assert!(std::env::var_os("CI").is_none(), "CI must have a browser: {}", probe.reason());
        eprintln!("skipped: {}", probe.reason());
        return None;
    }
    Some(
        TestApp::spawn(|c| {
            c.render.js_wait_ms = 3000;
            c.render.js_settle_ms = 200;
            configure(c)
        })
        .await,
    )
}

/// The article fixture with a paragraph only a style sheet hides.
fn article_with_hidden_promo() -> String {
    ARTICLE.replacen("</head>", "<style>.promo { display: none }</style></head>", 1).replacen(
        "</p>",
        "</p><p class=\"promo\">Subscribe to the farming newsletter for offers on seed and fertiliser today.</p>",
        1,
    )
}

fn text(r: &common::Resp) -> String {
    r.json()["content"]["text"].as_str().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn render_and_visual_methods_over_http() {
    let Some(app) = app(|_| {}).await else { return };
    let v = app.get("/v1/algorithms").await.json();
    assert_eq!(v["render"]["available"], true, "{v}");
    assert!(v["algorithms"].as_array().unwrap().iter().all(|a| a["available"] == true), "{v}");

    // Without rendering the style sheet is not applied, so the promotion is in the content; with it,
    // the browser's layout leaves it out (any algorithm, auto included).
    let page = article_with_hidden_promo();
    let plain = app.extract(json!({ "html": page, "algorithm": "cetd-ds" })).await;
    assert_eq!(plain.status, 200, "{plain:?}");
    assert!(text(&plain).contains("Subscribe to the farming newsletter"), "{}", text(&plain));
    assert!(plain.json()["timings_ms"].get("render").is_none());
    for algorithm in ["cetd-ds", "auto"] {
        let r = app.extract(json!({ "html": page, "algorithm": algorithm, "render": true })).await;
        assert_eq!(r.status, 200, "{r:?}");
        assert!(text(&r).contains("two hundred farmers"), "{algorithm}: {}", text(&r));
        assert!(!text(&r).contains("Subscribe to the farming newsletter"), "{algorithm}: {}", text(&r));
        assert!(r.json()["timings_ms"]["render"].as_f64().is_some_and(|ms| ms > 0.0));
    }
    // The visual methods render without being asked, in both request shapes.
    let r = app.extract(json!({ "html": ARTICLE, "algorithm": "vips" })).await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(text(&r).contains("two hundred farmers"), "{}", text(&r));
    assert!(r.json()["blocks"].as_array().unwrap().iter().any(|b| b["scores"].get("doc").is_some()));
    let r = app.post_raw("/v1/extract?algorithm=cehtd-ds&formats=text", "text/html", ARTICLE).await;
    assert_eq!(r.status, 200, "{r:?}");
    assert!(text(&r).contains("two hundred farmers"), "{}", text(&r));

    assert!(app.metric("pith_render_browsers_launched_total").await >= 1.0);
    let metrics = String::from_utf8(app.get("/metrics").await.body.to_vec()).unwrap();
    assert!(metrics.contains("pith_renders_total{outcome=\"ok\"} 4"), "{metrics}");
    assert_eq!(app.get("/readyz").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_only_page_over_http() {
    let Some(app) = app(|c| c.fetch.allow_private_networks = true).await else { return };
    let plain = app.extract(json!({ "html": SCRIPTED })).await;
    assert_eq!(plain.status, 200);
    assert!(!text(&plain).contains("seed bank opened"));
    // JSON, raw body with query parameters, and a fetched page: the scripts build the article.
    let json_ask =
        app.extract(json!({ "html": SCRIPTED, "javascript": true, "url": "https://news.example/seed" })).await;
    let raw_ask = app.post_raw("/v1/extract?javascript=true&algorithm=cehtd-ds", "text/html", SCRIPTED).await;
    let origin = Origin::start().await;
    let fetched = app.extract(json!({ "url": origin.url("/scripted"), "javascript": true })).await;
    for r in [&json_ask, &raw_ask, &fetched] {
        assert_eq!(r.status, 200, "{r:?}");
        assert!(text(r).contains("A community seed bank opened in the valley"), "{}", text(r));
        assert!(!text(r).contains("Subscribe now"), "{}", text(r));
    }
    assert!(fetched.json()["fetch"]["final_url"].as_str().unwrap().ends_with("/scripted"));
}

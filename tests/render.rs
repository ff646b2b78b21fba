//! The rendering component against a real headless browser.

use pith::render::{RenderConfig, Renderer};

/// The renderer, or `None` (with a note) when no browser is installed. CI installs one, and there a
/// missing browser fails the test instead.
fn renderer(cfg: RenderConfig) -> Option<Renderer> {
    let r = Renderer::new(cfg);
    if !r.is_ready() {
        assert!(std::env::var_os("CI").is_none(), "CI must have a browser: {}", r.availability().reason());
        eprintln!("skipped: {}", r.availability().reason());
        return None;
    }
    Some(r)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lays_out_a_page() {
    let Some(r) = renderer(RenderConfig::default()) else { return };
    let engine = pith::Engine::untrained().unwrap();
    let page = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pages/article.html")).unwrap();
    let layout = r.layout(&engine, &page, None, pith::Algorithm::CehtdDs, &[]).await.unwrap();
    let n = layout.boxes.iter().filter(|b| b.is_some()).count();
    eprintln!("{n} boxes, page {:?}, {:.1} ms", layout.page, layout.render_ms);
    assert!(n > 10);
}

//! The headless-browser renderer for the rendering tests (`tests/render.rs`, `tests/render_escape.rs`).

use pith::browser::{RenderConfig, Renderer};

/// The renderer, or `None` (with a note) when no browser is installed. CI installs one, and there a
/// missing browser fails the test instead.
pub fn renderer(cfg: RenderConfig) -> Option<Renderer> {
    let r = Renderer::new(cfg);
    if !r.is_ready() {
        assert!(std::env::var_os("CI").is_none(), "CI must have a browser: {}", r.availability().reason());
        eprintln!("skipped: {}", r.availability().reason());
        return None;
    }
    Some(r)
}

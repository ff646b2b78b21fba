//! Headless Chromium for the page tests (`tests/explain_page.rs`, `tests/eval_report.rs`, the front
//! page in `tests/service.rs`): find a browser, take a screenshot, read its pixels, dump the DOM.
//!
//! Chromium comes from the system (`.ci/run` installs Debian's `chromium-headless-shell`, which the rendering tests use too); `PITH_CHROMIUM` names
//! another binary. Without one a test fails under CI and is skipped, with a message, elsewhere.

// Each test binary that includes this file uses some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The browser to use, or `None` (after checking that this is not CI) when there is none.
pub fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PITH_CHROMIUM").map(PathBuf::from).or_else(|| {
        let path = std::env::var_os("PATH")?;
        ["chromium", "chromium-browser", "google-chrome", "headless_shell", "chromium-headless-shell"]
            .iter()
            .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must have chromium (see .ci/run)");
        eprintln!("skipped: no chromium on PATH (set PITH_CHROMIUM)");
    }
    found
}

/// Screenshot `page` (a file) at `width`×`height` and return its pixels as RGBA rows.
pub fn screenshot(browser: &Path, page: &Path, png: &Path, width: u32, height: u32) -> (u32, u32, Vec<u8>) {
    screenshot_url(browser, &format!("file://{}", page.display()), png, width, height)
}

/// Like [`screenshot`], for any address: a page served over HTTP is drawn under its response headers
/// (its Content-Security-Policy among them), which a file is not.
pub fn screenshot_url(browser: &Path, url: &str, png: &Path, width: u32, height: u32) -> (u32, u32, Vec<u8>) {
    let status = headless(browser, png)
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(url)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("chromium runs");
    assert!(status.success(), "chromium failed: {status}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).expect("screenshot written")));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG frame");
    buf.truncate(info.buffer_size());
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf.chunks(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect(),
        other => panic!("unexpected PNG colour type {other:?}"),
    };
    (info.width, info.height, rgba)
}

/// The document at `url` as Chromium serialises it after loading (`--dump-dom`).
pub fn dump_dom(browser: &Path, url: &str, scratch: &Path) -> String {
    let out =
        headless(browser, scratch).arg("--dump-dom").arg(url).stderr(Stdio::null()).output().expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {}", out.status);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A headless run with its own profile directory beside `file`.
fn headless(browser: &Path, file: &Path) -> Command {
    let mut c = Command::new(browser);
    c.args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run"])
        .arg(format!("--user-data-dir={}", file.with_extension("profile").display()));
    c
}

//! The rendering component against a real headless browser: layout, the visual methods, scripts,
//! the pool's recycling and deadlines, and no browser left behind when pith is killed.
//! (The network walls are tested in tests/render_escape.rs.)

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "common/renderer.rs"]
mod renderer;

use pith::browser::{RenderConfig, RenderError, Renderer};
use pith::{Algorithm, Engine, Options, Request};
use renderer::renderer;

const ARTICLE: &[u8] = include_bytes!("fixtures/pages/article.html");
const SCRIPTED: &[u8] = include_bytes!("fixtures/pages/javascript.html");

fn engine() -> Engine {
    Engine::with_defaults().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn visual_methods_extract_the_article() {
    let Some(r) = renderer(RenderConfig::default()) else { return };
    let e = engine();
    for algorithm in [Algorithm::CehtdDs, Algorithm::Vips] {
        let layout = r.layout(&e, ARTICLE, None, &[]).await.unwrap();
        assert!(layout.boxes.iter().filter(|b| b.is_some()).count() > 10);
        let out =
            e.extract_rendered(&Request::with_options(ARTICLE, Options::for_algorithm(algorithm)), &layout).unwrap();
        let text = &out.content.text;
        assert!(text.contains("two hundred farmers"), "{algorithm}: {text}");
        assert!(!text.contains("Hidden promotional"), "{algorithm}");
        assert!(out.timings_ms.render.is_some_and(|ms| ms > 0.0));
        // Block scores carry the visual measures.
        let keys: Vec<&str> = out.blocks.iter().flat_map(|b| b.scores.keys().map(|k| k.as_ref())).collect();
        let want = if algorithm == Algorithm::Vips { "doc" } else { "vi" };
        assert!(keys.contains(&want), "{algorithm}: {keys:?}");
    }
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scripts_build_the_page_and_render_hides_what_css_hides() {
    let Some(r) = renderer(RenderConfig { js_wait_ms: 3000, js_settle_ms: 200, ..RenderConfig::default() }) else {
        return;
    };
    let e = engine();
    let req = Request::with_options(SCRIPTED, Options::for_algorithm(Algorithm::CectdDs));
    // Without scripts the article does not exist.
    let plain = e.extract(&req).unwrap();
    assert!(!plain.content.text.contains("seed bank opened"));
    // With them it does; the style sheet's hidden promotion stays out once the page is laid out.
    let scripted = r.run_scripts(&e, SCRIPTED, None, Some("https://news.example/seed-bank")).await.unwrap();
    assert!(scripted.html.contains("community seed bank"));
    let bytes = scripted.html.as_bytes();
    let layout = r.layout(&e, bytes, Some("utf-8"), &scripted.stylesheets).await.unwrap();
    let out = e.extract_rendered(&Request { charset: Some("utf-8"), ..Request { bytes, ..req } }, &layout).unwrap();
    assert!(out.content.text.contains("A community seed bank opened in the valley"), "{}", out.content.text);
    assert!(!out.content.text.contains("Subscribe now"), "{}", out.content.text);
    // The visual methods on the scripted page.
    let layout = r.layout(&e, bytes, Some("utf-8"), &scripted.stylesheets).await.unwrap();
    let vis = e
        .extract_rendered(
            &Request {
                charset: Some("utf-8"),
                ..Request::with_options(bytes, Options::for_algorithm(Algorithm::CehtdDs))
            },
            &layout,
        )
        .unwrap();
    assert!(vis.content.text.contains("seed bank"), "{}", vis.content.text);
    r.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsers_are_recycled_and_a_hung_page_costs_only_its_deadline() {
    let cfg = RenderConfig {
        recycle_after_pages: 2,
        call_timeout_ms: 1500,
        page_timeout_ms: 5000,
        js_wait_ms: 500,
        js_settle_ms: 100,
        ..RenderConfig::default()
    };
    let Some(r) = renderer(cfg) else { return };
    let e = engine();
    for _ in 0..5 {
        r.layout(&e, ARTICLE, None, &[]).await.unwrap();
    }
    let s = r.stats();
    assert_eq!(s.pages, 5);
    assert!(s.launched >= 3, "a browser serves at most 2 pages: {s:?}");
    // A page whose script never yields: reading it back misses the call deadline; the error is
    // the page's, in bounded time, and the pool goes on working.
    let hang = b"<html><body><p>x</p><script>for (;;) {}</script></body></html>";
    let t = Instant::now();
    let err = r.run_scripts(&e, hang, None, None).await.unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
    assert!(matches!(err, RenderError::Page(_) | RenderError::Timeout(_) | RenderError::Browser(_)), "{err}");
    r.layout(&e, ARTICLE, None, &[]).await.unwrap();
    let pids = r.browser_pids().await;
    r.shutdown().await;
    // Shutdown leaves nothing running.
    for pid in pids {
        assert!(wait_gone(pid, Duration::from_secs(5)), "browser {pid} still running after shutdown");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unavailable_rendering_is_an_error_not_a_hang() {
    let off = Renderer::new(RenderConfig { enabled: false, ..RenderConfig::default() });
    assert!(!off.is_ready());
    let err = off.layout(&engine(), ARTICLE, None, &[]).await.unwrap_err();
    assert_eq!(err.code(), "render-unavailable");
    assert!(err.to_string().contains("render.enabled"), "{err}");
    let missing = Renderer::new(RenderConfig { browser: "/nonexistent/chromium".into(), ..RenderConfig::default() });
    let err = missing.layout(&engine(), ARTICLE, None, &[]).await.unwrap_err();
    assert!(err.to_string().contains("/nonexistent/chromium"), "{err}");
}

/// True once no live process in `pgid`'s group remains (zombies awaiting their reaper do not count).
fn wait_gone(pgid: u32, within: Duration) -> bool {
    let t = Instant::now();
    while t.elapsed() < within {
        if pith::browser::group_members(pgid).is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// `kill -9` of pith takes its browser down too.
#[test]
fn killing_pith_leaves_no_browser_behind() {
    if Renderer::new(RenderConfig::default()).availability().reason().starts_with("no headless") {
        assert!(std::env::var_os("CI").is_none(), "CI must have a browser");
        return;
    }
    let root = std::env::temp_dir().join(format!("pith-orphan-test-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    // A page that never finishes: its scripts spin, and every wait is long.
    let page = root.join("spin.html");
    std::fs::write(&page, "<html><body><p>x</p><script>for (;;) {}</script></body></html>").unwrap();
    let mut pith = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["extract", "--javascript", "--format", "text"])
        .arg(&page)
        .env("PITH_RENDER__PROFILE_ROOT", &root)
        .env("PITH_RENDER__JS_WAIT_MS", "60000")
        .env("PITH_RENDER__CALL_TIMEOUT_MS", "60000")
        .env("PITH_RENDER__PAGE_TIMEOUT_MS", "60000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the browser to start (its command line names the profile under `root`).
    let t = Instant::now();
    let browser = loop {
        if let Some(pid) = process_with(&root.to_string_lossy()) {
            break pid;
        }
        assert!(t.elapsed() < Duration::from_secs(30), "no browser started");
        std::thread::sleep(Duration::from_millis(100));
    };
    // Let it fork its helpers. Then stop the browser, so that it cannot notice its pipe closing (a
    // hung browser would not either): only the kernel's parent-death signal can end it now.
    std::thread::sleep(Duration::from_millis(1500));
    let members = pith::browser::group_members(browser);
    assert!(members.len() > 1, "the browser runs its helpers in its own group: {members:?}");
    // SAFETY: signalling a process id we just found; no memory is involved.
    unsafe {
        libc::kill(browser as i32, libc::SIGSTOP);
    }
    // Kill pith without a chance to clean up.
    pith.kill().unwrap();
    pith.wait().unwrap();
    assert!(
        wait_gone(browser, Duration::from_secs(10)),
        "browser processes outlived pith: {:?}",
        pith::browser::group_members(browser)
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// The pid of a live process whose command line contains `needle`.
fn process_with(needle: &str) -> Option<u32> {
    std::fs::read_dir("/proc").ok()?.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok()).find(|pid| {
        let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        String::from_utf8_lossy(&cmd).contains(needle) && pith::browser::group_members(*pid).contains(pid)
    })
}

/// The command line: the visual methods render by themselves, `--javascript` runs the page's scripts,
/// and with rendering switched off the answer is a message and exit status 2, not a hang.
#[test]
fn cli_extracts_with_the_browser() {
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pith"));
        cmd.args(args).stdin(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    let article = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pages/article.html");
    let scripted = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pages/javascript.html");
    let off = run(&["extract", "--algorithm", "vips", article], &[("PITH_RENDER__ENABLED", "false")]);
    assert_eq!(off.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&off.stderr).contains("render.enabled"), "{off:?}");
    if renderer(RenderConfig::default()).is_none() {
        return;
    }
    for algorithm in ["vips", "cehtd-ds"] {
        let out = run(&["extract", "--algorithm", algorithm, "--format", "text", article], &[]);
        assert!(out.status.success(), "{algorithm}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("two hundred farmers"), "{algorithm}: {out:?}");
    }
    let plain = run(&["extract", "--format", "text", scripted], &[]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("seed bank opened"));
    let js = run(&["extract", "--javascript", "--format", "text", scripted], &[("PITH_RENDER__JS_SETTLE_MS", "100")]);
    assert!(js.status.success(), "{js:?}");
    assert!(String::from_utf8_lossy(&js.stdout).contains("A community seed bank opened"), "{js:?}");
}

//! The `pith` binary: success paths and clear failures (message on stderr, non-zero exit, no panic).

use std::process::{Command, Output, Stdio};

fn pith(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pith")).args(args).stdin(Stdio::null()).output().expect("pith runs")
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn assert_clean_failure(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "should fail: {err}");
    assert!(err.contains(needle), "stderr {err:?} lacks {needle:?}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn extract_json_text_and_html() {
    let out = pith(&["extract", &fixture("pages/article.html")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["url", "title", "lang", "charset", "algorithm", "content", "has_article", "blocks", "timings_ms"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert!(v["content"]["text"].as_str().unwrap().contains("two hundred farmers"));
    let text = pith(&["extract", "--format", "text", "--algorithm", "cectd-ds", &fixture("pages/article.html")]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("two hundred farmers"));
    let html = pith(&["extract", "-f", "html", &fixture("pages/article.html")]);
    assert!(String::from_utf8_lossy(&html.stdout).contains("<p>"));
}

#[test]
fn algorithms_lists_every_name() {
    let out = pith(&["algorithms"]);
    let s = String::from_utf8_lossy(&out.stdout);
    for name in [
        "auto",
        "cetd-ds",
        "cectd-ds",
        "cectd-s",
        "p-value",
        "bayes",
        "anchor-ratio",
        "line-density",
        "dom-stats",
        "template",
    ] {
        assert!(s.lines().any(|l| l.starts_with(name)), "{name} missing from {s}");
    }
}

#[test]
fn site_rules_from_a_directory() {
    let dir = std::env::temp_dir().join(format!("pith-cli-sites-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("local.toml"), "[[rule]]\nname = 'local'\nhosts = ['news.local.test']\ncontent = ['h1']\n")
        .unwrap();
    let page = fixture("pages/article.html");
    let args = ["extract", "-a", "template", "-f", "text", "--url", "https://news.local.test/a", page.as_str()];
    // Without the directory no rule serves the host; with it, the rule's content is the answer.
    assert_clean_failure(&pith(&args), "no site template");
    let out = pith(&[&args[..], &["--sites", dir.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Farmers learn new rice methods");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn clear_errors() {
    assert_clean_failure(&pith(&["extract", "/no/such/file.html"]), "cannot read");
    assert_clean_failure(
        &pith(&["extract", "--algorithm", "magic", &fixture("pages/article.html")]),
        "unknown algorithm",
    );
    assert_clean_failure(
        &pith(&["extract", "--charset", "klingon", &fixture("pages/article.html")]),
        "unknown charset",
    );
    let dir = std::env::temp_dir().join(format!("pith-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.html");
    std::fs::write(&empty, b"").unwrap();
    assert_clean_failure(&pith(&["extract", empty.to_str().unwrap()]), "empty input");
    let png = dir.join("x.png");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    assert_clean_failure(&pith(&["extract", png.to_str().unwrap()]), "binary input");
    // Past the work budget (a start tag per three bytes, more than it allows): exit 2, no output.
    let complex = dir.join("complex.html");
    std::fs::write(&complex, "<b>".repeat(pith::Limits::default().dom.node_budget(3_000_000) + 1)).unwrap();
    let out = pith(&["extract", complex.to_str().unwrap()]);
    assert_clean_failure(&out, "page too complex");
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

//! `pith eval --report FILE.html` end to end on a tiny dataset: the page is written with its charts
//! beside the peers' figures, every worst page it links has its explanation page beside it, and a
//! headless Chromium screenshot shows the bars and the reliability diagram in their colours.
//!
//! The dataset's folder is named `wcxb-dev`, so the report takes the peers' figures the anchors give
//! for that name (the pages themselves are made up here).

#[path = "common/browser.rs"]
mod browser;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const ARTICLE: &str = "<html><head><title>Library hours</title></head><body><nav><a href=/>Home</a> \
    <a href=/x>News</a> <a href=/y>Sport</a></nav><article><h1>Library opens later</h1><p>The council voted \
    on Tuesday to extend the library opening hours until nine in the evening, after a petition signed by \
    more than two thousand residents of the town and the villages around it.</p><p>The change takes effect \
    next month and costs about forty thousand pounds a year, paid from the culture budget.</p><p>Staff will \
    be added on weekday evenings, and the reading room will host homework clubs twice a week.</p></article>\
    <footer><a href=/p>Privacy</a> <a href=/c>Contact</a></footer></body></html>";
const ARTICLE_GOLD: &str = "Library opens later\nThe council voted on Tuesday to extend the library opening hours \
    until nine in the evening, after a petition signed by more than two thousand residents of the town and the \
    villages around it.\nThe change takes effect next month and costs about forty thousand pounds a year, paid \
    from the culture budget.\nStaff will be added on weekday evenings, and the reading room will host homework \
    clubs twice a week.";

fn listing() -> String {
    let items: String = (1..=12)
        .map(|k| format!("<li><a href=\"/story/{k}\">Story number {k} about the county fair and the harvest</a></li>"))
        .collect();
    format!(
        "<html><head><title>News</title></head><body><nav><a href=/>Home</a></nav><h1>Latest news</h1><ul>{items}</ul></body></html>"
    )
}

type FixturePage = (&'static str, Vec<u8>, Option<&'static str>, bool, &'static str, &'static str);

/// A four-page dataset in `dir/wcxb-dev`: two articles, a listing, and a page the engine refuses.
fn write_dataset(dir: &Path) -> PathBuf {
    let ds = dir.join("wcxb-dev");
    std::fs::create_dir_all(ds.join("html")).unwrap();
    let listing = listing();
    // id, bytes, gold, has_article, page type, url
    let pages: [FixturePage; 4] = [
        ("a1", ARTICLE.as_bytes().to_vec(), Some(ARTICLE_GOLD), true, "article", "https://example.org/news/a1"),
        (
            "a2",
            ARTICLE.replace("nine", "ten").into_bytes(),
            Some(ARTICLE_GOLD),
            true,
            "article",
            "https://example.org/a2",
        ),
        (
            "l1",
            listing.into_bytes(),
            Some("Latest news\nStory number 1 about the county fair"),
            false,
            "listing",
            "https://example.org/",
        ),
        (
            "bin",
            vec![0x89, b'P', b'N', b'G', 0, 0, 0, 0, 1, 2, 3, 0],
            Some("some gold text"),
            false,
            "product",
            "https://example.org/b?x=1&y=<2>",
        ),
    ];
    let mut jsonl = String::new();
    for (id, bytes, gold, label, t, url) in pages {
        let line = serde_json::json!({"id": id, "url": url, "lang": "en", "has_article": label, "gold": gold,
            "page_type": t, "source": "test"});
        jsonl.push_str(&line.to_string());
        jsonl.push('\n');
        let f = std::fs::File::create(ds.join("html").join(format!("{id}.html.gz"))).unwrap();
        let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
        gz.write_all(&bytes).unwrap();
        gz.finish().unwrap();
    }
    std::fs::write(ds.join("pages.jsonl"), jsonl).unwrap();
    ds
}

/// Run `pith eval --report` into `dir/report.html`; returns the page and the table pith printed.
fn run_report(dir: &Path) -> (PathBuf, String, String) {
    let ds = write_dataset(dir);
    let report = dir.join("report.html");
    let out = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["eval", "--algorithm", "auto", "--jobs", "1", "--report-worst", "3", "--dataset"])
        .arg(&ds)
        .arg("--report")
        .arg(&report)
        .output()
        .expect("pith runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&report).expect("report written");
    (report, html, String::from_utf8_lossy(&out.stdout).into_owned())
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pith-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn eval_report_writes_the_page_and_the_worst_pages_explanations() {
    let dir = temp("eval-report");
    let (_, html, stdout) = run_report(&dir);
    // The usual table still goes to stdout.
    assert!(stdout.contains("Industry benchmark F1"), "{stdout}");

    assert!(html.starts_with("<!doctype html>") && !html.contains("<script") && !html.contains("src="));
    // pith beside the peers on the same metric, per dataset and per page type.
    assert!(html.contains("wcxb-dev · bag-of-words F1 · 4 gold pages"), "{html}");
    assert!(html.contains(">rs_trafilatura</text>") && html.contains(">pith auto</text>"));
    assert!(html.contains("wcxb-dev · listing · bag-of-words F1 · 1 pages"));
    assert!(html.contains("Has-article reliability") && html.contains("4 labelled pages"));
    // Worst pages: three rows, the refused page with its error instead of a link, the others linked
    // to explanation pages that exist beside the report.
    assert!(html.contains("<td>bin</td>") && html.contains("error: "));
    let hrefs: Vec<&str> = html.split("href=\"report-explain/").skip(1).map(|s| &s[..s.find('"').unwrap()]).collect();
    assert_eq!(hrefs.len(), 2, "{html}");
    for name in hrefs {
        let page = std::fs::read_to_string(dir.join("report-explain").join(name)).expect("explanation written");
        assert!(page.starts_with("<!doctype html>") && page.contains("class=\"b "), "{name}");
    }
    // The refused page's address (always among the worst) is escaped and linked.
    assert!(html.contains("<a href=\"https://example.org/b?x=1&amp;y=&lt;2&gt;\">"), "{html}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// How far a pixel is from a colour given as `#rrggbb`.
fn distance(p: &[u8], hex: &str) -> i32 {
    let c = |k: usize| i32::from(u8::from_str_radix(&hex[1 + 2 * k..3 + 2 * k], 16).unwrap());
    (0..3).map(|k| (i32::from(p[k]) - c(k)).abs()).max().unwrap_or(0)
}

#[test]
fn eval_report_shows_bars_and_the_reliability_diagram_in_chromium() {
    let Some(browser) = browser::chromium() else { return };
    let dir = temp("eval-report-shot");
    let (report, _, _) = run_report(&dir);
    let (w, h, px) = browser::screenshot(&browser, &report, &dir.join("report.png"), 1100, 2400);
    let (w, h) = (w as usize, h as usize);
    let at = |x: usize, y: usize| &px[(y * w + x) * 4..(y * w + x) * 4 + 4];
    let count = |hex: &str| px.chunks(4).filter(|p| distance(p, hex) <= 6).count();
    // pith's bars in its blue, the peers' in grey, the best peer's darker.
    let ours = count("#1f6fd1");
    let peers = count("#b4b8be");
    let best = count("#6b7178");
    eprintln!("pixels: pith {ours}, peers {peers}, best peer {best}");
    assert!(ours > 3_000, "{ours} pixels of pith's blue");
    assert!(peers > 3_000, "{peers} pixels of the peers' grey");
    assert!(best > 500, "{best} pixels of the best peer's grey");
    // The bars are 12 px high; only the reliability diagram's bars run tall: the labelled articles'
    // bin (share 1) is a blue column over 100 px.
    let tallest = (0..w)
        .map(|x| {
            let (mut run, mut best) = (0, 0);
            for y in 0..h {
                run = if distance(at(x, y), "#1f6fd1") <= 6 { run + 1 } else { 0 };
                best = best.max(run);
            }
            best
        })
        .max()
        .unwrap_or(0);
    eprintln!("tallest blue column {tallest} px");
    assert!(tallest > 100, "tallest blue column {tallest} px");
    let _ = std::fs::remove_dir_all(&dir);
}

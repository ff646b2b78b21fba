//! The explanation page (`pith extract --format explain-html`) as a browser shows it: headless
//! Chromium takes a screenshot, and its pixels must show kept blocks shaded green and dropped blocks
//! shaded red, not only the HTML say so.
//!
//! The browser: see `common/browser.rs`.

#[path = "common/browser.rs"]
mod browser;

use std::path::Path;
use std::process::Command;

use browser::{chromium, screenshot};

#[test]
fn explain_page_shows_kept_blocks_green_and_dropped_blocks_red() {
    let Some(browser) = chromium() else { return };
    let dir = std::env::temp_dir().join(format!("pith-explain-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pages/article.html");
    let out = Command::new(env!("CARGO_BIN_EXE_pith"))
        .args(["extract", "--format", "explain-html"])
        .arg(&fixture)
        .output()
        .expect("pith runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = dir.join("explain.html");
    std::fs::write(&page, &out.stdout).expect("write page");

    let (w, h, px) = screenshot(&browser, &page, &dir.join("explain.png"), 1000, 1600);
    assert!(w >= 800 && h >= 800, "{w}x{h}");
    // Kept blocks: green over the white page (green well above red and blue); dropped: red.
    let class = |p: &[u8]| {
        let (r, g, b) = (i32::from(p[0]), i32::from(p[1]), i32::from(p[2]));
        if g > r + 40 && g > b + 30 {
            Some('G')
        } else if r > g + 40 && r > b + 40 {
            Some('R')
        } else {
            None
        }
    };
    let green = px.chunks(4).filter(|p| class(p) == Some('G')).count();
    let red = px.chunks(4).filter(|p| class(p) == Some('R')).count();
    // The fixture keeps a headline and four paragraphs and drops the navigation and the footer.
    assert!(green > 20_000, "kept blocks shaded: {green} green pixels");
    assert!(red > 5_000, "dropped blocks shaded: {red} red pixels");
    // Down the blocks' left edge: the legend's "kept" swatch, then the page in order: navigation
    // dropped, article kept, related links and footer dropped.
    let x = 23usize;
    let mut bands: Vec<char> = Vec::new();
    for row in 0..h as usize {
        let k = (row * w as usize + x) * 4;
        if let Some(c) = class(&px[k..k + 4])
            && bands.last() != Some(&c)
        {
            bands.push(c);
        }
    }
    assert_eq!(bands, vec!['G', 'R', 'G', 'R'], "colour bands down the left edge");

    // The plain extraction of the same page is not shaded: the colours come from the explanation.
    let plain = dir.join("plain.html");
    let out = Command::new(env!("CARGO_BIN_EXE_pith")).args(["extract", "--format", "html"]).arg(&fixture).output();
    std::fs::write(&plain, out.expect("pith runs").stdout).expect("write page");
    let (_, _, px) = screenshot(&browser, &plain, &dir.join("plain.png"), 1000, 1600);
    let coloured = px.chunks(4).filter(|p| (i32::from(p[1]) - i32::from(p[0])).abs() > 40).count();
    assert!(coloured < 500, "{coloured} coloured pixels on the unexplained page");
    let _ = std::fs::remove_dir_all(&dir);
}

//! The Markdown output read back by a CommonMark parser (pulldown-cmark, with GitHub tables) gives
//! the same text as `content.text`, whitespace aside: the two are rendered from the same kept nodes
//! and the Markdown escapes everything a reader would take for syntax.

use std::path::Path;

use pith::MarkdownOptions;
use pith::{Engine, Request};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use rayon::prelude::*;

/// The text a CommonMark reader sees in `md`: text and code, blocks separated by spaces, image
/// descriptions left out (`content.text` has no alt text).
fn read_back(md: &str) -> String {
    let mut out = String::new();
    let mut in_image = 0;
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match ev {
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image -= 1,
            Event::Text(t) | Event::Code(t) if in_image == 0 => out.push_str(&t),
            Event::Html(h) | Event::InlineHtml(h) => {
                // Raw HTML means something was not escaped: keep it visible to the comparison.
                out.push_str("<HTML:");
                out.push_str(&h);
                out.push('>');
            }
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            // Tight lists have no paragraph events: an item's text meets a nested list directly.
            Event::Start(Tag::List(_) | Tag::Item | Tag::Paragraph | Tag::Heading { .. }) => out.push(' '),
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::List(_)
                | TagEnd::BlockQuote(_)
                | TagEnd::CodeBlock
                | TagEnd::Table
                | TagEnd::TableHead
                | TagEnd::TableRow
                | TagEnd::TableCell,
            ) => out.push(' '),
            _ => {}
        }
    }
    out
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn engine() -> Engine {
    Engine::with_defaults().expect("embedded models load")
}

/// `None` when the Markdown reads back as the text; otherwise where and how they differ.
fn mismatch(engine: &Engine, bytes: &[u8], url: Option<&str>, algorithm: &str) -> Option<String> {
    let algorithm: pith::Algorithm = algorithm.parse().expect("a known algorithm");
    let options = pith::Options {
        blocks: false,
        markdown: Some(MarkdownOptions::default()),
        ..pith::Options::for_algorithm(algorithm)
    };
    let r = engine.extract(&Request { url, ..Request::with_options(bytes, options) }).ok()?;
    let md = r.content.markdown.as_deref().unwrap_or("");
    let (a, b) = (norm(&r.content.text), norm(&read_back(md)));
    if a == b {
        return None;
    }
    let at = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let ctx = |s: &str| s.chars().skip(at.saturating_sub(40)).take(90).collect::<String>();
    Some(format!("text …{}…\nmd   …{}…", ctx(&a), ctx(&b)))
}

#[test]
fn markdown_reads_back_as_the_text_on_constructed_pages() {
    let e = engine();
    let pages = [
        "<html><body><article><h1>A *starred* [title] #1</h1><p>Price: 5 * 3 = 15 &amp; <b>bold</b>, <i> spaced </i>.</p>\
         <p>1. Not a list. - nor this + that</p><ul><li>one<ul><li>nested <a href='/x'>link</a></li></ul></li>\
         <li><p>para item</p><p>second para</p></li></ul><ol><li>first</li><li>second</li></ol>\
         <blockquote><p>quoted <code>x`y</code></p><ul><li>in quote</li></ul></blockquote>\
         <pre class='language-rust'>fn main() {\n    println!(\"```\");\n}</pre>\
         <table><tr><th>name</th><th>value</th></tr><tr><td>a|b</td><td><b>2</b> <br>lines</td></tr></table>\
         <p>under_score back\\slash &lt;tag&gt; &amp;amp; ~tilde~ `tick`</p><h2>Ends with #</h2>\
         <p><img src='p.png' alt='a [pic]'> caption</p><p>line<br>break<br></p><hr><p>-- dashes</p>\
         </article></body></html>",
        // A caption written after the rows: HTML parses it there, after them, and so must the Markdown.
        "<html><body><article><h1>Hammocks compared</h1><p>Our scores for every hammock we tested this year, \
         with prices and weights.</p><table><tbody><tr><th>Product</th><th>Price</th></tr><tr><td>Blackbird</td>\
         <td>$175</td></tr><tr><td>Tempest</td><td>$75</td></tr></tbody><caption><p>Scores are rated on a \
         5-point scale.</p></caption></table><p>Both hang well in the rain and pack small.</p></article></body></html>",
        // A product description only in the structured data: its paragraphs come first in every format.
        "<html><head><script type='application/ld+json'>{\"@type\":\"Product\",\"description\":\"<p>Thrown on the \
         wheel, this *stoneware* mug holds 350 ml.</p><p>Each glaze is mixed by hand, so no two mugs share one \
         colour. Dishwasher safe.</p>\"}</script></head><body><main><h1>Stoneware mug</h1><p>EUR 24.00</p>\
         <button>Add to cart</button><div hidden><p>Thrown on the wheel.</p></div></main></body></html>",
        "<html><body><main><p>农民培训，技术推广。“好”</p><p>2024年3月5日 发布</p><ul><li></li><li>x</li></ul></main></body></html>",
    ];
    for p in pages {
        for algorithm in ["auto", "cetd-ds", "p-value", "line-density", "dom-stats"] {
            if let Some(m) = mismatch(&e, p.as_bytes(), Some("https://ex.test/a/"), algorithm) {
                panic!("{algorithm}:\n{m}");
            }
        }
    }
}

#[test]
fn markdown_reads_back_as_the_text_on_the_fixture_pages() {
    let e = engine();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pages");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fixture pages") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("readable");
        if let Some(m) = mismatch(&e, &bytes, Some("https://ex.test/"), "auto") {
            panic!("{}:\n{m}", path.display());
        }
        n += 1;
    }
    assert!(n >= 3, "only {n} fixture pages");
}

/// Every page of the developer datasets, when they are there (`../shared/datasets`).
#[test]
fn markdown_reads_back_as_the_text_on_the_datasets() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    if !root.is_dir() {
        assert!(std::env::var_os("CI").is_none(), "CI needs ../shared/datasets");
        eprintln!("skipped: {} is missing", root.display());
        return;
    }
    let e = engine();
    let mut failures = Vec::new();
    let mut pages = 0;
    for name in ["wcxb-dev", "zh-cwce", "readability-tests", "tiptopjaw-2026"] {
        let ds = pith::lab::dataset::Dataset::open(&root.join(name)).expect("dataset opens");
        pages += ds.pages.len();
        let bad: Vec<String> = ds
            .pages
            .par_iter()
            .filter_map(|p| {
                let bytes = ds.html(p).ok()?;
                mismatch(&e, &bytes, p.url.as_deref(), "auto").map(|m| format!("{name}/{}:\n{m}", p.id))
            })
            .collect();
        failures.extend(bad);
    }
    assert!(
        failures.is_empty(),
        "{} of {pages} pages differ; first:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

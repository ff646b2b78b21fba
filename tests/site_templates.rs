//! Site templates end to end: a site's template learned from its other pages, the site model that
//! reads it, and what a page teaches its site on each path that learns one.

use pith::{Engine, Options, Request};

fn engine() -> Engine {
    Engine::with_defaults().expect("embedded config loads")
}

#[path = "common/site.rs"]
mod site;

/// A site's template learned from its other pages removes what all its pages share (menu, hot list,
/// footer, in Chinese and English, GBK and UTF-8 alike) and keeps each page's article whole; the
/// template of that site changes nothing on a page of another site.
#[test]
fn site_template_removes_shared_chrome_and_keeps_each_article() {
    use pith::site::SiteTemplate;
    let e = engine();
    let pages: Vec<Vec<u8>> = (0..30).map(site::page).collect();
    let urls: Vec<String> = (0..30).map(site::url).collect();
    let mut template = SiteTemplate::new();
    for (bytes, url) in pages.iter().zip(&urls) {
        let sig = e.page_signatures(&Request { url: Some(url), ..Request::new(bytes) }).unwrap();
        assert!(template.learn(&sig), "{url}: {} signatures", sig.signatures.len());
    }
    let options = Options { html: false, blocks: false, ..Options::default() };
    let mut removed_somewhere = false;
    let mut chrome_alone = 0;
    for (k, (bytes, url)) in pages.iter().zip(&urls).enumerate() {
        let req = Request { url: Some(url), ..Request::with_options(bytes, options) };
        let alone = e.extract(&req).unwrap();
        let with = e.extract(&Request { site: Some(&template), ..req }).unwrap();
        let used = with.template.expect("a template was given");
        assert_eq!(used.pages, 29, "page {k}: every other page of the site is evidence, the page itself not");
        removed_somewhere |= used.blocks_removed > 0;
        chrome_alone += usize::from(site::CHROME.iter().any(|c| alone.content.text.contains(c)));
        let (title, paragraphs) = site::article(k);
        for p in &paragraphs {
            assert!(with.content.text.contains(p.as_str()), "page {k} lost its article:\n{}", with.content.text);
        }
        for chrome in site::CHROME {
            assert!(!with.content.text.contains(chrome), "page {k} kept {chrome:?}:\n{}", with.content.text);
        }
        assert!(with.content.text.len() <= alone.content.text.len(), "page {k}");
        assert!(title.len() > 10);
    }
    assert!(removed_somewhere);
    assert!(chrome_alone >= 10, "only {chrome_alone} pages keep chrome without the template: the test proves nothing");
    // A page of another site: the template recognises none of its blocks.
    let other = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pages/article.html")).unwrap();
    let req = Request { url: Some("https://other.example/a"), ..Request::with_options(&other, options) };
    let alone = e.extract(&req).unwrap();
    let with = e.extract(&Request { site: Some(&template), ..req }).unwrap();
    assert_eq!(with.content.text, alone.content.text);
    assert_eq!(with.template.map(|t| t.blocks_removed), Some(0));
}

#[path = "common/portal.rs"]
mod portal;

/// A portal's structure, learned from its 40 pages: on its article pages the frame lines whose words
/// change from page to page (`来源：X`, `责任编辑：Y`) go and every paragraph stays; its list pages
/// keep every entry of their lists.
#[test]
fn site_model_drops_a_portal_frame_and_keeps_articles_and_lists() {
    use pith::site::SiteTemplate;
    let e = engine();
    assert!(e.models.site.is_trained(), "the shipped site model is trained");
    let pages: Vec<Vec<u8>> = (0..portal::PAGES).map(portal::page).collect();
    let urls: Vec<String> = (0..portal::PAGES).map(portal::url).collect();
    let mut template = SiteTemplate::new();
    for (bytes, url) in pages.iter().zip(&urls) {
        let sig = e.page_signatures(&Request { url: Some(url), ..Request::new(bytes) }).unwrap();
        assert!(template.learn(&sig), "{url}");
    }
    let options = Options { html: false, blocks: false, ..Options::default() };
    let mut frames_alone = 0;
    for (k, (bytes, url)) in pages.iter().zip(&urls).enumerate() {
        let req = Request { url: Some(url), ..Request::with_options(bytes, options) };
        let alone = e.extract(&req).unwrap();
        let with = e.extract(&Request { site: Some(&template), ..req }).unwrap();
        let text = &with.content.text;
        if portal::is_list(k) {
            for item in portal::list_items(k) {
                let title = item.rsplit_once(' ').map_or(item.as_str(), |(t, _)| t);
                assert!(text.contains(title), "list page {k} lost {title:?}:\n{text}");
            }
            continue;
        }
        let (_, paragraphs) = portal::article(k);
        for p in &paragraphs {
            assert!(text.contains(p.as_str()), "page {k} lost a paragraph:\n{text}");
        }
        let frame = portal::frame(k);
        frames_alone += usize::from(frame.iter().any(|f| alone.content.text.contains(f.as_str())));
        for f in &frame {
            assert!(!text.contains(f.as_str()), "page {k} kept {f:?}:\n{text}");
        }
    }
    assert!(frames_alone >= 10, "only {frames_alone} pages keep a frame line alone: the test proves nothing");
}

/// What a page teaches its site is the same whether `auto` gives it from the blocks it cut while
/// extracting (the service's path) or a cut of its own makes it (batch, `--site-pages`): a site
/// learned one way answers pages asked the other way. With a site behind the page too, where the
/// site's rule has read the keys first.
#[test]
fn auto_signs_a_page_as_a_cut_of_its_own_does() {
    let engine = engine();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pages");
    let mut site = pith::site::SiteTemplate::new();
    let pages: Vec<Vec<u8>> =
        ["article.html", "comments.html", "javascript.html", "listing.html", "news-article.html", "zh-news.html"]
            .iter()
            .map(|f| std::fs::read(dir.join(f)).expect("fixture"))
            .collect();
    for bytes in &pages {
        site.learn(&engine.page_signatures(&Request::new(bytes)).expect("signed"));
    }
    let mut with_template = 0;
    for bytes in &pages {
        let alone = Request::new(bytes);
        let cut = engine.page_signatures(&alone).expect("signed");
        assert!(!cut.signatures.is_empty());
        assert_eq!(engine.extract_and_sign(&alone).expect("extracted").1, cut);
        let with_site = Request { site: Some(&site), ..Request::new(bytes) };
        let (extraction, signed) = engine.extract_and_sign(&with_site).expect("extracted");
        assert_eq!(signed, cut);
        with_template += usize::from(extraction.template.is_some());
    }
    assert!(with_template > 0);
}

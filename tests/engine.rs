//! The engine end to end: charsets, hostile input, every algorithm, site rules, fingerprints (site
//! templates learned from a site's pages: `site_templates.rs`).

use std::time::{Duration, Instant};

use pith::{Algorithm, Engine, Error, Options, Request};

const ARTICLE: &[u8] = include_bytes!("fixtures/pages/article.html");
const LISTING: &[u8] = include_bytes!("fixtures/pages/listing.html");
const NEWS: &str = include_str!("fixtures/pages/news-article.html");

fn engine() -> Engine {
    Engine::with_defaults().expect("embedded config loads")
}

fn extract(bytes: &[u8], algorithm: &str) -> Result<pith::Extraction, Error> {
    engine().extract(&Request::with_options(bytes, Options::for_algorithm(algorithm.parse()?)))
}

#[test]
fn every_charset_decodes_to_the_right_text() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/charsets");
    let stems = [
        ("gbk", "gb18030"),
        ("gb2312", "gb18030"),
        ("gb18030", "gb18030"),
        ("big5", "Big5"),
        ("shift_jis", "Shift_JIS"),
        ("euc-kr", "EUC-KR"),
        ("windows-874", "windows-874"),
        ("tis-620", "windows-874"),
        ("windows-1251", "windows-1251"),
        ("utf-8", "UTF-8"),
    ];
    // Decoding is under test, not the has-article judgement of these three-sentence pages: keep the
    // text of pages judged non-articles whole.
    let mut e = engine();
    e.params.auto.no_article_text = pith::NoArticleText::Full;
    for (stem, charset) in stems {
        let expected = std::fs::read_to_string(dir.join(format!("{stem}.expected.txt"))).unwrap();
        for variant in ["html", "nometa.html"] {
            let bytes = std::fs::read(dir.join(format!("{stem}.{variant}"))).unwrap();
            let r = e.extract(&Request::new(&bytes)).unwrap();
            assert_eq!(r.charset, charset, "{stem}.{variant}");
            assert!(r.content.text.contains(expected.trim()), "{stem}.{variant}: {:?}", r.content.text);
            assert!(!r.content.text.contains('\u{FFFD}'), "{stem}.{variant} has replacement characters");
        }
    }
}

/// A GBK page (no declaration) saved inside a wrapper whose attribute holds three U+FFFD as UTF-8
/// (`EF BF BD`) before 40 KB of GBK text: the page is GBK, not windows-1252 mojibake.
#[test]
fn a_gbk_page_that_opens_with_a_few_utf8_bytes_decodes_as_gbk() {
    let post = "<div class=post><p>主题: 【2005年中国农业技术交流会】水稻育秧和病虫害防治的经验，欢迎各位网友回帖讨论。</p>\
                <p>回复：楼主说得好，我们村今年也用了这个办法，秧苗长得又壮又齐，产量比去年高了一成。</p></div>";
    let body = post.repeat(40 * 1024 / post.len() + 1);
    let mut page = b"<html><head><title>forum</title></head><body><div class=\"saved\" title=\"".to_vec();
    page.extend_from_slice("\u{FFFD}\u{FFFD}\u{FFFD}".as_bytes());
    page.extend_from_slice(b"\">");
    page.extend_from_slice(&encoding_rs::GBK.encode(&body).0);
    page.extend_from_slice(b"</div></body></html>");
    let mut e = engine();
    e.params.auto.no_article_text = pith::algorithms::auto::NoArticleText::Full;
    let r = e.extract(&Request::new(&page)).unwrap();
    assert_eq!(r.charset, "gb18030");
    assert!(r.content.text.contains("主题: 【2005年中国农业技术交流会】"), "{:.200}", r.content.text);
    assert!(!r.content.text.contains("Ö÷Ìâ"));
}

#[test]
fn caller_charset_overrides_detection() {
    let gbk = encoding_rs::GBK
        .encode("<p>县农业局今天举办农民培训班，技术员讲解水稻新品种的种植方法，两百多名农民参加了培训。</p>")
        .0
        .into_owned();
    let r = engine().extract(&Request { charset: Some("gbk"), ..Request::new(&gbk) }).unwrap();
    assert!(r.content.text.contains("农民培训"));
    let err = engine().extract(&Request { charset: Some("no-such-charset"), ..Request::new(&gbk) }).unwrap_err();
    assert!(matches!(err, Error::UnknownCharset(_)));
}

#[test]
fn every_algorithm_runs_and_auto_finds_the_article() {
    for name in pith::algorithms::names() {
        if name == "template" {
            continue;
        }
        if name.parse::<Algorithm>().unwrap().needs().layout {
            // Without a layout the visual methods refuse clearly (tests/render.rs runs them rendered).
            assert!(matches!(extract(ARTICLE, name), Err(Error::NeedsLayout(_))), "{name}");
            continue;
        }
        let r = extract(ARTICLE, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!r.content.text.contains("should never appear"), "{name}");
        assert!(!r.content.text.contains("Hidden promotional"), "{name}");
        assert!((0.0..=1.0).contains(&r.has_article.probability), "{name}");
        assert_eq!(r.algorithm, name);
    }
    let auto = extract(ARTICLE, "auto").unwrap();
    assert!(auto.content.text.contains("two hundred farmers"));
    assert!(auto.content.text.contains("young farmers returning"));
    assert!(!auto.content.text.contains("Agriculture"));
    assert!(!auto.content.text.contains("Privacy"));
    assert!(!auto.content.text.contains("Wheat prices"));
    assert_eq!(auto.title.as_deref(), Some("Farmers learn new rice methods"));
    assert_eq!(auto.lang.as_deref(), Some("en"));
    assert!(auto.content.html.contains("<p>"));
    assert!(!auto.content.html.contains("class="));
    assert!(auto.blocks.iter().any(|b| b.content));
    assert!(auto.blocks.iter().all(|b| b.path.starts_with("/html")));
}

#[test]
fn the_probability_separates_article_from_listing() {
    let a = extract(ARTICLE, "p-value").unwrap();
    let l = extract(LISTING, "p-value").unwrap();
    assert!(
        a.has_article.probability > l.has_article.probability,
        "{} vs {}",
        a.has_article.probability,
        l.has_article.probability
    );
    assert!(a.has_article.is_article);
}

#[test]
fn auto_returns_a_listing_pages_items_and_only_a_lead_on_request() {
    let l = extract(LISTING, "auto").unwrap();
    assert!(!l.has_article.is_article, "{}", l.has_article.probability);
    // The main content of a listing is its items, without the navigation and the footer.
    for item in ["Farmers learn new rice methods", "Training centre adds evening classes"] {
        assert!(l.content.text.contains(item), "{:?}", l.content.text);
    }
    assert!(!l.content.text.contains("Copyright"), "{:?}", l.content.text);
    // The page type agrees with the has-article verdict, and its probabilities make one distribution.
    let t = l.page_type.as_ref().expect("auto answers a page type");
    assert_ne!(t.label, pith::PageType::Article);
    assert_eq!(t.probabilities["article"], l.has_article.probability);
    assert!((t.probabilities.values().sum::<f64>() - 1.0).abs() < 1e-9, "{t:?}");
    let lead = engine()
        .extract(&Request::with_options(
            LISTING,
            Options { no_article_text: Some(pith::NoArticleText::Lead), ..Options::default() },
        ))
        .unwrap();
    assert!(lead.content.text.len() < 100, "{:?}", lead.content.text);
    // Other algorithms answer no page type.
    assert!(extract(LISTING, "cectd-ds").unwrap().page_type.is_none());
}

/// A shop page whose description is only in a closed accordion (hidden until a click) and in its
/// JSON-LD, as many shops ship them.
const HIDDEN_DESCRIPTION: &str = r#"<html><head><title>Stoneware mug - Kiln & Co</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Stoneware mug",
"description":"<p>Thrown on the wheel in our workshop, this stoneware mug holds 350 ml of coffee or tea.</p><p>Each glaze is mixed by hand, so no two mugs share exactly the same colour. Dishwasher and microwave safe.</p>",
"offers":{"@type":"Offer","price":"24.00","priceCurrency":"EUR"}}</script></head>
<body><nav><a href=/>Home</a> <a href=/shop>Shop</a> <a href=/cart>Cart (0)</a></nav>
<main><h1>Stoneware mug</h1><p class=price>&euro;24.00</p><button>Add to cart</button>
<div class=accordion><button aria-expanded=false>Description</button><div hidden>
<p>Thrown on the wheel in our workshop, this stoneware mug holds 350 ml of coffee or tea.</p>
<p>Each glaze is mixed by hand, so no two mugs share exactly the same colour. Dishwasher and microwave safe.</p>
</div></div></main><footer>&copy; Kiln &amp; Co</footer></body></html>"#;

#[test]
fn a_product_description_the_page_hides_comes_from_its_structured_data() {
    let r = extract(HIDDEN_DESCRIPTION.as_bytes(), "auto").unwrap();
    assert!(!r.has_article.is_article, "{}", r.has_article.probability);
    let first = "Thrown on the wheel in our workshop, this stoneware mug holds 350 ml of coffee or tea.";
    assert!(r.content.text.starts_with(first), "{:?}", r.content.text);
    assert!(r.content.text.contains("Dishwasher and microwave safe."), "{:?}", r.content.text);
    assert!(r.content.html.starts_with(&format!("<p>{first}</p>")), "{:?}", r.content.html);
    // Switched off, the answer is what the visible page holds.
    let mut e = engine();
    e.params.auto.product_description_min_words = 0;
    let off = e.extract(&Request::new(HIDDEN_DESCRIPTION.as_bytes())).unwrap();
    assert!(!off.content.text.contains(first), "{:?}", off.content.text);
}

/// A shop page whose structured data "describes" the product with its title, its price and the
/// delivery terms, as some shops generate it for every product.
const TITLE_AS_DESCRIPTION: &str = r#"<html><head><title>Canvas tote bag with leather handles, natural - Kiln & Co</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Canvas tote bag",
"description":"Canvas tote bag with leather handles, natural for 24.00 (02/12/2020) Free delivery for orders over 30.00",
"offers":{"@type":"Offer","price":"24.00","priceCurrency":"EUR"}}</script></head>
<body><nav><a href=/>Home</a> <a href=/shop>Shop</a> <a href=/cart>Cart (0)</a></nav>
<main><h1>Canvas tote bag with leather handles, natural</h1><button>Add to cart</button>
<ul class=specs><li>Outer material: cotton canvas</li><li>Handles: leather</li></ul></main>
<footer>&copy; Kiln &amp; Co</footer></body></html>"#;

#[test]
fn a_description_that_restates_the_title_is_not_added() {
    let r = extract(TITLE_AS_DESCRIPTION.as_bytes(), "auto").unwrap();
    assert!(!r.has_article.is_article, "{}", r.has_article.probability);
    assert!(!r.content.text.contains("Free delivery"), "{:?}", r.content.text);
}

#[test]
fn site_templates_win_and_template_only_mode_says_when_none_matches() {
    let e = engine();
    let page = b"<html><body><nav><a href=/>Home</a></nav><article><p>Rule-chosen text.</p><div class=share>Share this</div></article>\
                 <div class=story><p>Much longer text that a density method would prefer over the article element, with many words and commas, and more words.</p></div></body></html>";
    let r = e.extract(&Request { url: Some("https://www.example.com/a"), ..Request::new(page) }).unwrap();
    assert_eq!(r.content.text, "Rule-chosen text.");
    let t = e
        .extract(&Request {
            url: Some("https://www.example.com/a"),
            ..Request::with_options(page, Options::for_algorithm(Algorithm::Template))
        })
        .unwrap();
    assert_eq!(t.content.text, "Rule-chosen text.");
    let none = e.extract(&Request {
        url: Some("https://other.test/"),
        ..Request::with_options(page, Options::for_algorithm(Algorithm::Template))
    });
    assert!(matches!(none, Err(Error::NoTemplate(_))));
    let no_url = e.extract(&Request::with_options(page, Options::for_algorithm(Algorithm::Template)));
    assert!(matches!(no_url, Err(Error::NoTemplate(_))));
}

#[test]
fn unknown_algorithm_is_refused() {
    assert!(matches!(extract(ARTICLE, "magic"), Err(Error::UnknownAlgorithm { .. })));
}

/// Hostile inputs: each returns a result or a clear error, quickly, without overflowing the stack.
#[test]
fn hundred_thousand_nested_divs() {
    let n = 100_000;
    let page = format!("<html><body>{}deep text{}</body></html>", "<div>".repeat(n), "</div>".repeat(n));
    let t = Instant::now();
    // Two words are no article; with non-articles' text kept whole, `auto` must still find them.
    let mut e = engine();
    e.params.auto.no_article_text = pith::NoArticleText::Full;
    // The visual methods get a layout made up here: every element a full-width box.
    let layout = synthetic_layout(&e, page.as_bytes());
    for name in pith::algorithms::names().into_iter().filter(|&n| n != "template") {
        let algorithm: Algorithm = name.parse().unwrap();
        let req = Request::with_options(page.as_bytes(), Options::for_algorithm(algorithm));
        let r = if algorithm.needs().layout { e.extract_rendered(&req, &layout) } else { e.extract(&req) }
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if name == "auto" {
            assert!(r.content.text.contains("deep text"));
        }
    }
    // A generous bound: this is a hang detector, not a benchmark (a quadratic parse takes minutes).
    assert!(t.elapsed() < Duration::from_secs(120));
}

#[test]
fn fifty_megabyte_page() {
    // One long article under a menu, each paragraph of its own (a page of one paragraph copied
    // 300,000 times is all repetition, which `auto` reads as page furniture; sections of a menu and
    // five paragraphs, repeated, are a listing's alike records to the record features). The test is
    // about the size: the answer holds the article.
    let menu = "<li><a href=/x>menu link</a></li>".repeat(10);
    let mut page = format!("<html><body><ul>{menu}</ul><div>");
    let mut k = 0u32;
    while page.len() < 50 * 1024 * 1024 {
        for _ in 0..5 {
            k += 1;
            page.push_str(&format!(
                "<p>Training for farmers continues in week {k}, with sessions on seedlings, fertiliser and pests.</p>"
            ));
        }
        page.push('\n');
    }
    page.push_str("</div></body></html>");
    assert!(page.len() >= 50 * 1024 * 1024);
    let r = engine()
        .extract(&Request::with_options(page.as_bytes(), Options { html: false, ..Options::default() }))
        .unwrap();
    assert!(r.content.text.contains("Training for farmers"));
    assert!(r.blocks.len() <= 200);
}

#[test]
fn a_megabyte_without_tags() {
    let page = "word ".repeat(200_000);
    // One sentence-less megabyte is not an article to `auto`; the density methods still return it.
    let r = extract(page.as_bytes(), "auto").unwrap();
    assert!(!r.has_article.is_article);
    let r = extract(page.as_bytes(), "cectd-ds").unwrap();
    assert!(r.content.text.starts_with("word word"));
}

#[test]
fn nul_bytes_and_invalid_utf8() {
    let page = b"<html><body><p>before\x00after \xff\xfe\xc3\x28 some invalid bytes, then text.</p></body></html>";
    let r = extract(page, "auto").unwrap();
    assert!(r.content.text.contains("beforeafter"));
    assert!(!r.content.text.contains('\0'));
}

#[test]
fn empty_and_binary_input_are_clear_errors() {
    assert!(matches!(extract(b"", "auto"), Err(Error::EmptyInput)));
    assert!(matches!(extract(b"   \n", "auto"), Err(Error::EmptyInput)));
    assert!(matches!(extract(b"%PDF-1.4 binary", "auto"), Err(Error::BinaryInput(_))));
    assert!(matches!(extract(&[0u8; 1000], "auto"), Err(Error::BinaryInput(_))));
}

#[test]
fn oversized_input_is_refused_by_the_limit() {
    let mut e = engine();
    e.limits.max_input_bytes = 100;
    let r = e.extract(&Request::new(&[b'a'; 101]));
    assert!(matches!(r, Err(Error::TooLarge { size: 101, limit: 100 })));
}

#[test]
fn comment_threads_are_left_out_unless_asked_for() {
    let page = include_bytes!("fixtures/pages/comments.html");
    let mut e = engine();
    // Keep every block the classifier scores, so only the comment rule decides what goes.
    e.params.auto.block_threshold = 0.0;
    e.params.auto.no_article_text = pith::NoArticleText::Full;
    let text = |e: &Engine, include_comments| {
        e.extract(&Request::with_options(page, Options { include_comments, ..Options::default() }))
            .expect("extracts")
            .content
            .text
    };
    let (default, with) = (text(&e, None), text(&e, Some(true)));
    let comment = "We tried this on our farm last season";
    assert!(default.contains("Farmers in the county") && !default.contains(comment), "{default}");
    assert!(with.contains("Farmers in the county") && with.contains(comment), "{with}");
    // The configured default can be turned around per request too.
    e.params.auto.include_comments = true;
    assert!(text(&e, None).contains(comment));
    assert!(!text(&e, Some(false)).contains(comment));
}

/// A layout of the arena the engine builds from `bytes`, without a browser: every element a box of
/// the viewport's width, stacked by document order.
fn synthetic_layout(e: &Engine, bytes: &[u8]) -> pith::layout::Layout {
    use pith::layout::{Display, ElementBox, Layout, Rect};
    let prepared = pith::browser::prepare(e, bytes, None, &[]).unwrap();
    let doc = &prepared.doc;
    let boxes = (0..doc.len())
        .map(|i| {
            doc.nodes[i].element().map(|_| ElementBox {
                rect: Rect::new(0.0, i as f32, 1280.0, 20.0),
                display: Display::Block,
                visible: true,
                font_size: 16.0,
                font_weight: 400,
                background: 0xFFFF_FFFF,
                color: 0xFF,
            })
        })
        .collect();
    Layout {
        boxes,
        viewport: (1280.0, 800.0),
        page: (1280.0, doc.len() as f32 + 20.0),
        fingerprint: pith::layout::fingerprint(doc),
        render_ms: 0.0,
    }
}

#[test]
fn the_work_budget_refuses_in_the_scan_or_in_the_parse() {
    let mut e = engine();
    e.limits.dom.max_nodes = 1000;
    e.limits.dom.bytes_per_node = 1_000_000;
    let refused = |page: &str| matches!(e.extract(&Request::new(page.as_bytes())), Err(Error::TooComplex(_)));
    // 1,200 start tags: refused by the pre-parse count.
    assert!(refused(&"<b>x".repeat(1200)));
    // 600 start tags but 1,200 nodes with their text: refused by the parser's count.
    assert!(refused(&"<p>word ".repeat(600)));
    assert!(e.extract(&Request::new("<p>word ".repeat(300).as_bytes())).is_ok());
    // The page prepared for the browser is held to the same budget, in the scan and in the parse.
    let prepared = |page: &str| pith::browser::prepare(&e, page.as_bytes(), None, &[]);
    assert!(matches!(prepared(&"<b>x".repeat(1200)), Err(Error::TooComplex(_))));
    assert!(matches!(prepared(&"<p>word ".repeat(600)), Err(Error::TooComplex(_))));
    assert!(prepared(&"<p>word ".repeat(300)).is_ok());
    assert_eq!(Error::TooComplex(String::new()).code(), "page-too-complex");
}

#[test]
fn every_hostile_class_extracts_or_is_refused_without_panic() {
    let e = engine();
    for class in pith::lab::adversarial::CLASSES {
        let page = class.generate(30_000);
        match e.extract(&Request::new(page.as_bytes())) {
            Ok(_) | Err(Error::TooComplex(_)) => {}
            Err(other) => panic!("{}: {other}", class.name),
        }
    }
}

/// Pages `pith fuzz` once crashed on; each must extract (all formats) or be
/// refused cleanly, never panic.
#[test]
fn pages_found_by_the_fuzzer_extract() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzz");
    let e = engine();
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).expect("fuzz fixtures") {
        let path = entry.expect("entry").path();
        let bytes = std::fs::read(&path).expect("read");
        for algorithm in [Algorithm::Auto, Algorithm::CetdDs, Algorithm::Bayes, Algorithm::Vips, Algorithm::CehtdDs] {
            let options = Options {
                markdown: Some(Default::default()),
                explain: Some(pith::Explain::Page),
                ..Options::for_algorithm(algorithm)
            };
            let req = Request::with_options(&bytes, options);
            let result = if algorithm.needs().layout {
                e.extract_rendered(&req, &synthetic_layout(&e, &bytes))
            } else {
                e.extract(&req)
            };
            match result {
                Ok(x) => assert!(x.content.text.len() <= bytes.len() * 4, "{}", path.display()),
                Err(Error::TooComplex(_)) => {}
                Err(other) => panic!("{}: {other}", path.display()),
            }
        }
        seen += 1;
    }
    assert!(seen >= 1, "no fuzz fixtures found");
}

#[test]
fn a_pages_type_picks_its_block_threshold() {
    let with = |all: Option<f64>, without: &[&'static str]| {
        let mut e = engine();
        let t = &mut e.params.auto.type_thresholds;
        (t.forum, t.product, t.collection, t.listing, t.documentation, t.service) = (all, all, all, all, all, all);
        e.params.auto.without_rules = without.to_vec();
        move |bytes: &[u8]| {
            e.extract(&Request::with_options(bytes, Options::for_algorithm("auto".parse().unwrap()))).unwrap()
        }
    };
    // The listing's type threshold decides what it keeps: at 0 every block passes, the menu included,
    // once the rule that keeps a listing's main region alone is off.
    let beside = ["records-beside-main"];
    let (listing, keep_all) = (with(None, &[])(LISTING), with(Some(0.0), &beside)(LISTING));
    assert_eq!(listing.page_type.as_ref().map(|t| t.label.name()), Some("listing"));
    assert!(!listing.content.text.contains("Home"), "{:?}", listing.content.text);
    assert!(keep_all.content.text.starts_with("Home"), "{:?}", keep_all.content.text);
    // With it on, the menu (a region of its own beside the listing's items) goes at any threshold.
    let regions_only = with(Some(0.0), &[])(LISTING);
    assert!(regions_only.content.text.starts_with("Farmers learn"), "{:?}", regions_only.content.text);
    // An article has no type threshold: block_threshold alone decides.
    let (article, article_all) = (with(None, &[])(ARTICLE), with(Some(0.0), &[])(ARTICLE));
    assert!(article.has_article.is_article);
    assert_eq!(article.content.text, article_all.content.text);
}

#[test]
fn a_page_with_almost_no_text_answers_with_all_of_it() {
    // No block reaches a threshold above every probability; the heuristic region, built to find a
    // dense core among much text, keeps the sentence and not the link beside it.
    let page = b"<html><body><p>Closed today, back on Monday.</p><a href='/'>Home</a></body></html>";
    let mut e = engine();
    e.params.auto.block_threshold = 1.01;
    e.params.auto.type_thresholds = pith::algorithms::contract::params::TypeThresholds::default();
    let words = |e: &Engine| e.extract(&Request::new(page)).unwrap().content.text;
    assert_eq!(words(&e).split_whitespace().collect::<Vec<_>>(), ["Closed", "today,", "back", "on", "Monday.", "Home"]);
    e.params.auto.small_page_chars = 0;
    assert_eq!(words(&e), "Closed today, back on Monday.");
}

#[test]
fn a_page_without_content_answers_with_nothing_rather_than_its_chrome() {
    // A script shell: the page's content is drawn by JavaScript, and all the HTML holds is the footer.
    let page = b"<html><head><title>Item</title></head><body><div id=root></div><script>render()</script>\
        <div class=site-footer><a href=/ipp>Intellectual Property Protection</a> - <a href=/privacy>Privacy \
        Policy</a> - <a href=/sitemap>Sitemap</a> - <a href=/terms>Terms of Use</a> - <a href=/legal>Legal \
        Information</a></div></body></html>";
    let mut e = engine();
    let text = |e: &Engine| e.extract(&Request::new(page)).unwrap().content.text;
    assert_eq!(text(&e), "");
    // Without the floor, the fallbacks answer with the footer.
    e.params.auto.no_content_below = 0.0;
    assert!(text(&e).contains("Privacy Policy"), "{}", text(&e));
}

/// A Chinese portal's column page (栏目页): a heading, twenty dated notice links, pagination.
fn column_page(traditional: bool) -> String {
    let (notice, heading, home, next, last, site, news) = if traditional {
        (
            "關於做好2024年春季農業生產第{}期技術培訓工作的通知",
            "通知公告",
            "首頁",
            "下一頁",
            "尾頁",
            "農民培訓網",
            "新聞",
        )
    } else {
        (
            "关于做好2024年春季农业生产第{}期技术培训工作的通知",
            "通知公告",
            "首页",
            "下一页",
            "尾页",
            "农民培训网",
            "新闻",
        )
    };
    let items: String = (1..=20)
        .map(|i| {
            format!(
                "<li><a href=\"/notice/2024/03{i:02}.html\">{}</a><span>2024-03-{i:02}</span></li>",
                notice.replace("{}", &i.to_string())
            )
        })
        .collect();
    format!(
        "<html><head><title>{heading} - {site}</title></head><body><div class=top><a href=/>{home}</a> \
         <a href=/news/>{news}</a></div><div class=list><h2>{heading}</h2><ul>{items}</ul><div class=page>\
         <a href=?p=1>{home}</a> <a href=?p=2>{next}</a> <a href=?p=10>{last}</a></div></div></body></html>"
    )
}

#[test]
fn a_chinese_column_page_is_a_listing_in_every_charset() {
    let e = engine();
    for (traditional, charset) in [(false, encoding_rs::GBK), (false, encoding_rs::UTF_8), (true, encoding_rs::BIG5)] {
        let page = column_page(traditional);
        let (bytes, _, unmappable) = charset.encode(&page);
        assert!(!unmappable, "{}", charset.name());
        // No charset declared or given: detected from the bytes.
        let r = e.extract(&Request::new(&bytes)).unwrap();
        let label = r.page_type.as_ref().map(|t| t.label.name());
        assert_eq!(label, Some("listing"), "{}: {:?}", charset.name(), r.page_type);
        assert!(!r.has_article.is_article, "{}", charset.name());
        // Its items are its content.
        let items = r.content.text.matches("2024-03-").count();
        assert_eq!(items, 20, "{}: {}", charset.name(), r.content.text);
    }
}

/// `content.fingerprint`: the same article with a sentence rewritten, or under another site's menus,
/// is at most 3 bits from the original; unrelated pages are at least 20 apart. Present whatever
/// formats are asked for.
#[test]
fn content_fingerprints_find_near_duplicates() {
    let bits = |html: &str| {
        let r = engine().extract(&Request::new(html.as_bytes())).unwrap();
        let f = &r.content.fingerprint;
        assert!(f.len() == 16 && f.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{f}");
        u64::from_str_radix(f, 16).unwrap()
    };
    let apart = |a: u64, b: u64| (a ^ b).count_ones();
    let original = bits(NEWS);
    // One word of one sentence changed, then the whole sentence rewritten.
    let word = NEWS.replace("lent its thousandth packet", "lent its one thousandth packet");
    let sentence = NEWS.replace(
        "Tomatoes have been the most popular loan by far, followed by runner beans, courgettes and",
        "Runner beans have been the most popular loan so far, ahead of tomatoes, courgettes and",
    );
    // Another site's chrome around the same article: menu, related links, footer and name.
    let nav_at = NEWS.find("<nav class=\"main-menu\">").unwrap();
    let nav_end = NEWS.find("</nav>").unwrap() + "</nav>".len();
    let aside_at = NEWS.find("<aside").unwrap();
    let aside_end = NEWS.find("</aside>").unwrap() + "</aside>".len();
    let chrome = [
        &NEWS[..nav_at],
        "<nav class=top><a href=/>Front page</a> <a href=/world/>World</a> <a href=/money/>Money</a> \
         <a href=/culture/>Culture</a> <a href=/travel/>Travel</a> <a href=/subscribe/>Subscribe and save</a></nav>",
        &NEWS[nav_end..aside_at],
        "<aside class=popular><h2>Most read</h2><ol><li><a href=/a>Council approves new cycle lanes</a></li>\
         <li><a href=/b>Five walks to try before the summer crowds arrive</a></li></ol></aside>",
        &NEWS[aside_end..],
    ]
    .concat()
    .replace("Riverside Courier", "Valley Evening Post");
    for (what, page) in [("a word", &word), ("a sentence", &sentence), ("the chrome", &chrome)] {
        assert_ne!(page.as_str(), NEWS, "{what}");
        let d = apart(original, bits(page));
        assert!(d <= 3, "{what} changed: {d} bits apart");
    }
    // Unrelated pages: the shipped fixtures, English and Chinese.
    let others: Vec<u64> = ["article.html", "comments.html", "listing.html", "zh-news.html"]
        .iter()
        .map(|f| {
            bits(&std::fs::read_to_string(format!("{}/tests/fixtures/pages/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap())
        })
        .collect();
    let all: Vec<u64> = std::iter::once(original).chain(others).collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert!(apart(*a, *b) >= 20, "{i}: {a:016x} and {b:016x} are {} bits apart", apart(*a, *b));
        }
    }
    // The same fingerprint when no content format is asked for.
    let bare = Options { text: false, html: false, blocks: false, ..Options::for_algorithm(Algorithm::Auto) };
    let r = engine().extract(&Request::with_options(NEWS.as_bytes(), bare)).unwrap();
    assert!(r.content.text.is_empty());
    assert_eq!(u64::from_str_radix(&r.content.fingerprint, 16).unwrap(), original);
}

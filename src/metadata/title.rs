//! The page's title: chosen among `<title>` and its parts, the `<h1>`s and the declared headlines
//! (JSON-LD, `og:title`, `twitter:title`), with the site's name stripped. Sites put their logo in an
//! `<h1>`, append their name to `<title>` and rewrite it for search engines, so which source names the
//! page is decided here by comparing them.

use super::Declarations;
use super::jsonld::Entity;
use crate::dom::fold_ws as clean;
use crate::dom::{Document, Tag};
// `key`: normalised for containment tests, lower case, letters and digits only.
use crate::text::words::{TITLE_SEPARATORS, alnum_key as key, split_title};

/// Characters from which a declared headline may have been cut to a length limit.
const CUT_HEADLINE_CHARS: usize = 100;

/// The page's title ([`choose_title`]); when that is an `<h1>`, without what follows a separator in
/// it: headings carry suffixes as titles do (`Tips for a first visit - Japan Forum`, `Catering Tips |
/// Cookshack`, `Best movers in 2025 | Top 19 companies`), and the part kept is the one `<title>`'s
/// would be.
pub(super) fn title(
    s: &Declarations,
    doc: &Document,
    main: Option<&Entity>,
    url: Option<&str>,
    article: bool,
) -> Option<String> {
    let (chosen, h1s) = choose_title(s, doc, main, url, article);
    let site = s.meta(&["og:site_name", "application-name"]).map(key);
    chosen.map(|t| if h1s.contains(&t) { strip_site(&t, site.as_deref()) } else { t })
}

/// The title among `<title>`, its parts, the `<h1>`s and the declared headlines; and the `<h1>`s read.
fn choose_title(
    s: &Declarations,
    doc: &Document,
    main: Option<&Entity>,
    url: Option<&str>,
    article: bool,
) -> (Option<String>, Vec<String>) {
    let page_title = s.title.clone().or_else(|| doc.title.clone());
    let h1s: Vec<String> = (doc.body..doc.node(doc.body).end)
        .filter(|&i| doc.node(i).tag() == Some(Tag::H1))
        .map(|i| heading_text(doc, i))
        .filter(|t| !t.is_empty())
        .take(8)
        .collect();
    let declared = main
        .and_then(|e| e.str("headline").or_else(|| e.str("name")))
        .or_else(|| s.meta(&["og:title", "twitter:title", "dc.title", "citation_title"]).map(clean));
    let mut site = s.meta(&["og:site_name", "application-name"]).map(key);
    let declarations: Vec<String> = main
        .into_iter()
        .flat_map(|e| [e.str("headline"), e.str("name")])
        .chain(["og:title", "twitter:title"].iter().map(|k| s.meta(&[k]).map(clean)))
        .flatten()
        .map(|d| strip_site(&d, site.as_deref()))
        .collect();
    if let Some(t) = &page_title {
        let tk = key(t);
        // The article's own title: an `<h1>` that `<title>` repeats (sites put logos in `<h1>` too).
        let mut contained: Vec<&String> = h1s.iter().filter(|h| key(h).len() >= 4 && tk.contains(&key(h))).collect();
        // One that names the site (its `og:site_name`, or the name its address is registered under) is
        // its logo, even when it is the only one: the title is then found among the other sources.
        let host = url.and_then(registered_name);
        let names_site = |h: &str, site: Option<&str>| {
            let k = key(h);
            site == Some(k.as_str()) || host.as_deref() == Some(k.as_str())
        };
        contained.retain(|h| !names_site(h, site.as_deref()));
        // An `<h1>` equal to the last part of `<title>` (`Page - Site`) is the site's logo, and names
        // the part to strip when no `og:site_name` does.
        if let Some(last) = last_part(t)
            && contained.iter().any(|h| key(h) == last)
        {
            contained.retain(|h| key(h) != last);
            site.get_or_insert(last);
        }
        // Of the rest, the longest: a logo or section name is shorter than the headline.
        if let Some(h) = contained.iter().copied().reduce(|a, b| if key(b).len() > key(a).len() { b } else { a }) {
            // The title's own spelling when a part of it is the heading (headings split into styled
            // spans lose the spaces between words).
            let hk = key(h);
            let part = every_part(t).find(|p| key(p) == hk);
            return (Some(part.map_or_else(|| h.clone(), str::to_string)), h1s);
        }
        // An `<h1>` that the page's own declarations repeat (JSON-LD headline or name, `og:title`,
        // `twitter:title`, each without a site suffix) is its title, even where `<title>` words it
        // otherwise: two sources written for readers agree against the one written for search engines.
        if let Some(h) = h1s.iter().find(|h| key(h).len() >= 4 && declarations.iter().any(|d| key(d) == key(h))) {
            return (Some(h.clone()), h1s);
        }
        // An article's single `<h1>` is its headline even when `<title>` words it otherwise (titles are
        // often rewritten for search engines), provided the two share words: an `<h1>` sharing none is
        // more likely a section label or the site's name.
        if article
            && h1s.len() == 1
            && !names_site(&h1s[0], site.as_deref())
            && word_overlap(&h1s[0], &strip_site(t, site.as_deref())) >= 0.2
        {
            return (Some(h1s[0].clone()), h1s);
        }
        if let Some(d) = &declared
            && key(d).len() >= 4
            && tk.contains(&key(d))
        {
            // A declared headline cut to a length limit (structured-data tools cut near 110
            // characters, some with an ellipsis) is read whole from `<title>`'s part that it begins.
            let dk = key(d.trim_end_matches(['…', '.']));
            if d.chars().count() >= CUT_HEADLINE_CHARS || d.ends_with('…') || d.ends_with("...") {
                let whole = every_part(t).filter(|p| key(p).starts_with(&dk)).min_by_key(|p| p.len());
                if let Some(p) = whole.filter(|p| key(p).len() > dk.len()) {
                    return (Some(p.to_string()), h1s);
                }
            }
            return (Some(strip_site(d, site.as_deref())), h1s);
        }
    }
    if h1s.len() == 1 && declared.as_ref().is_some_and(|d| key(d) == key(&h1s[0])) {
        return (Some(h1s[0].clone()), h1s);
    }
    // A `<title>` that is only the site's name says nothing of the page: the declared headline or the
    // single heading does.
    let generic = |t: &str| site.as_deref().is_some_and(|s| key(t) == s) || !t.contains(' ');
    if let Some(t) = page_title.as_deref().map(|t| strip_site(t, site.as_deref()))
        && generic(&t)
    {
        if let Some(d) = declared.as_deref().filter(|d| !generic(d)) {
            return (Some(strip_site(d, site.as_deref())), h1s);
        }
        if h1s.len() == 1 {
            return (Some(h1s[0].clone()), h1s);
        }
    }
    let chosen = page_title
        .map(|t| strip_site(&t, site.as_deref()))
        .or_else(|| declared.map(|d| strip_site(&d, site.as_deref())))
        .or_else(|| h1s.first().cloned());
    (chosen, h1s)
}

/// A heading's text as the reader sees it: a line break is a space between words (`Packaging<br>Design`
/// reads `Packaging Design`), and soft hyphens and zero-width characters, which only tell the browser
/// where it may break a line, are dropped (`Assis&shy;tance` reads `Assistance`).
fn heading_text(doc: &Document, id: crate::dom::NodeId) -> String {
    let mut out = String::new();
    for i in id..doc.node(id).end {
        let (before, after) = match doc.node(i).data {
            crate::dom::NodeData::Text { space_before, space_after, .. } => (space_before, space_after),
            crate::dom::NodeData::Element(ref e) => {
                if e.tag == Tag::Br && !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
                continue;
            }
        };
        if before && !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
        out.push_str(&crate::text::words::visible(doc.text(i)));
        if after {
            out.push(' ');
        }
    }
    // The permalink mark documentation generators put after each heading (`Middleware¶`) is a link
    // to the heading, not a word of it.
    out.trim_end().trim_end_matches('¶').trim_end().to_string()
}

/// The key of the name a site's address is registered under: `archlinux` for `bbs.archlinux.org`,
/// `bbc` for `news.bbc.co.uk` (by the public suffix list).
fn registered_name(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok()?;
    let host = parsed.host_str()?.trim_end_matches('.');
    let domain = psl::domain_str(host)?;
    let name = domain.strip_suffix(psl::suffix_str(host)?)?.trim_end_matches('.');
    Some(key(name)).filter(|k| !k.is_empty())
}

/// The parts of `title` split at each separator in turn (at one at a time, not all at once), trimmed;
/// where a separator does not occur, the whole title.
fn every_part(title: &str) -> impl Iterator<Item = &str> {
    TITLE_SEPARATORS.iter().flat_map(move |sep| split_title(title, sep)).map(str::trim)
}

/// The key of the last of two or more parts of a title (`Page - Site`), where sites put their name.
fn last_part(title: &str) -> Option<String> {
    TITLE_SEPARATORS.iter().find_map(|sep| {
        let parts: Vec<&str> = split_title(title, sep).map(str::trim).filter(|p| !p.is_empty()).collect();
        (parts.len() >= 2).then(|| key(parts[parts.len() - 1]))
    })
}

/// Shared words over all words (Jaccard) of two texts, lower-cased, split at non-alphanumerics.
fn word_overlap(a: &str, b: &str) -> f64 {
    let words = |s: &str| -> std::collections::HashSet<String> {
        s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
    };
    let (a, b) = (words(a), words(b));
    let union = a.union(&b).count();
    if union == 0 { 0.0 } else { a.intersection(&b).count() as f64 / union as f64 }
}

/// `<title>` without its site's name: the longest part between separators, unless the site name
/// says which part it is.
pub(super) fn strip_site(title: &str, site: Option<&str>) -> String {
    for sep in TITLE_SEPARATORS {
        if title.contains(sep) {
            let parts: Vec<&str> = split_title(title, sep).map(str::trim).filter(|p| !p.is_empty()).collect();
            if parts.len() < 2 {
                continue;
            }
            let kept: Vec<&str> =
                parts.iter().copied().filter(|p| site.is_none_or(|s| key(p) != s && !s.contains(&key(p)))).collect();
            let kept = if kept.is_empty() { parts.clone() } else { kept };
            if kept.len() < parts.len() {
                return kept.join(sep);
            }
            // No site name to go by: the first part is the page's own, unless it is much shorter than
            // another (a section name in front).
            let first = kept[0];
            let longest = kept.iter().copied().max_by_key(|p| p.chars().count()).unwrap_or(first);
            return if first.chars().count() * 3 < longest.chars().count() { longest } else { first }.to_string();
        }
    }
    title.to_string()
}

#[cfg(test)]
mod tests {
    use super::registered_name;
    use crate::dom::Document;
    use crate::metadata::{extract, scan};

    fn title_of(html: &str, article: bool) -> Option<String> {
        extract(&scan(html), &Document::parse(html), None, article).title
    }

    #[test]
    fn a_headings_permalink_mark_is_not_part_of_the_title() {
        let page = r##"<title>json — JSON encoder and decoder — Python documentation</title>
            <body><h1>json — JSON encoder and decoder<a class="headerlink" href="#json">¶</a></h1><p>x</p></body>"##;
        assert_eq!(title_of(page, true).as_deref(), Some("JSON encoder and decoder"));
    }

    #[test]
    fn underscores_inside_names_do_not_split_titles() {
        let t = |html: &str| title_of(html, false);
        assert_eq!(
            t("<title>rustc_codegen_gcc: Progress Report #39</title>").as_deref(),
            Some("rustc_codegen_gcc: Progress Report #39")
        );
        assert_eq!(
            t("<title>Module ngx_http_rewrite_module</title>").as_deref(),
            Some("Module ngx_http_rewrite_module")
        );
        // Between parts that are not spaced, `_` still separates them.
        assert_eq!(
            t("<title>关于开展水稻种植培训的通知_通知公告_示例网</title>").as_deref(),
            Some("关于开展水稻种植培训的通知")
        );
    }

    #[test]
    fn a_cut_declared_headline_is_read_whole_from_the_title() {
        let whole = "Fix it Friday: struggling with how to arrange your living room? We help four readers find solutions (including one trick that works)";
        let cut = &whole[..whole.find(" one trick").unwrap()];
        let page = format!(
            r#"<title>{whole} - Farm Blog</title><script type="application/ld+json">{{"@type":"Article","headline":"{cut}"}}</script><body><p>x</p></body>"#
        );
        assert_eq!(title_of(&page, true).as_deref(), Some(whole));
        // A long one that a part of `<title>` repeats whole is not cut: the site's name stays out.
        let long = "Treadmill repair and fitness equipment repair in the county, with maintenance of every machine. Free estimates.";
        let page = format!(
            r#"<title>{long} - Gym Fixers</title><meta property="og:title" content="{long}"><body><p>x</p></body>"#
        );
        assert_eq!(title_of(&page, true).as_deref(), Some(long));
        // A short declared headline is taken as written.
        let page = r#"<title>Rice yields rise in the south - Farm News</title><meta property="og:title" content="Rice yields rise"><body><p>x</p></body>"#;
        assert_eq!(title_of(page, true).as_deref(), Some("Rice yields rise"));
    }

    #[test]
    fn an_articles_only_heading_naming_the_site_is_not_its_title() {
        let page = "<title>What happened with Arch Linux ISO in 2024 / Discussion / Arch Linux Forums</title>\
            <body><h1>Arch Linux</h1><p>x</p></body>";
        let url = Some("https://bbs.archlinux.org/viewtopic.php?id=1");
        let title = |url| extract(&scan(page), &Document::parse(page), url, true).title;
        assert_eq!(title(url).as_deref(), Some("What happened with Arch Linux ISO in 2024"));
        // Without the address nothing says the heading is the site's name.
        assert_eq!(title(None).as_deref(), Some("Arch Linux"));
    }

    #[test]
    fn title_prefers_the_headline_over_logo_headings() {
        // Of two `<h1>`s that `<title>` repeats, the one naming the site is its logo.
        let site = r#"<title>Farm News Daily: Rice</title><meta property="og:site_name" content="Farm News Daily">
            <body><h1>Farm News Daily</h1><h1>Rice</h1></body>"#;
        assert_eq!(title_of(site, false).as_deref(), Some("Rice"));
        // Otherwise the longest: a section label is shorter than the headline.
        let longest = "<title>How to grow rice in dry years - Farm Guide</title>\
            <body><h1>Rice</h1><h1>How to grow rice in dry years</h1></body>";
        assert_eq!(title_of(longest, false).as_deref(), Some("How to grow rice in dry years"));
        // An `<h1>` that is the last part of `<title>` is the site's name, the part to strip.
        let logo = "<title>What is tillage? - The Farming Book</title><body><h1>The Farming Book</h1><p>x</p></body>";
        assert_eq!(title_of(logo, false).as_deref(), Some("What is tillage?"));
    }

    #[test]
    fn heading_text_reads_as_displayed() {
        // A line break separates words; a soft hyphen and a zero-width space are not shown.
        let page = "<title>x</title><body><h1>Cosmetic Packaging<br/><span>Design</span></h1><p>x</p></body>";
        assert_eq!(title_of(page, true).as_deref(), Some("Cosmetic Packaging Design"));
        let page = "<title>y</title><body><h1>Home Repair Assis&shy;tance\u{200b} Program</h1></body>";
        assert_eq!(title_of(page, true).as_deref(), Some("Home Repair Assistance Program"));
    }

    #[test]
    fn a_heading_the_declarations_repeat_is_the_title() {
        // `<title>` words it for search engines; `og:title` (without its site suffix) repeats the `<h1>`.
        let page = r#"<title>Sustainable Sneakers for Men | Allbirds</title>
            <meta property="og:title" content="Men's Sneakers | Allbirds"><meta property="og:site_name" content="Allbirds">
            <body><h1>Men's Sneakers</h1><h1>Table of Contents</h1></body>"#;
        assert_eq!(title_of(page, false).as_deref(), Some("Men's Sneakers"));
        // The JSON-LD headline counts too; without any declaration `<title>` stays.
        let ld = r#"<title>Cleaning costs in San Diego — Cleaning Co.</title>
            <script type="application/ld+json">{"@type":"Article","headline":"What cleaning costs in San Diego"}</script>
            <body><h1>Cleaning Co.</h1><h1>What cleaning costs in San Diego</h1></body>"#;
        assert_eq!(title_of(ld, false).as_deref(), Some("What cleaning costs in San Diego"));
        let bare = "<title>Sustainable Sneakers for Men | Allbirds</title><body><h1>Men's Sneakers</h1></body>";
        assert_eq!(title_of(bare, false).as_deref(), Some("Sustainable Sneakers for Men"));
    }

    #[test]
    fn a_heading_chosen_as_title_loses_its_suffix() {
        let page = "<title>Tips from a first visitor - Japan Forum - Travel Site</title>\
            <body><h1>Tips from a first visitor - Japan Forum</h1><p>x</p></body>";
        assert_eq!(title_of(page, false).as_deref(), Some("Tips from a first visitor"));
        // The suffix named as the site goes whatever its length; a heading without separators stays.
        let site = r#"<title>x</title><meta property="og:site_name" content="Cookshack">
            <body><h1>Catering Tips | Cookshack</h1></body>"#;
        assert_eq!(title_of(site, true).as_deref(), Some("Catering Tips"));
        let plain = "<title>Rice: a guide | Farm</title><body><h1>Rice: a guide</h1></body>";
        assert_eq!(title_of(plain, false).as_deref(), Some("Rice: a guide"));
    }

    #[test]
    fn a_heading_naming_the_site_is_its_logo() {
        // The only `<h1>` that `<title>` repeats is the name of the site's address: the title is the rest.
        let page = "<title>What happened with the ISO / Discussion / Arch Linux Forums</title>\
            <body><h1>Arch Linux</h1><p>x</p></body>";
        let m =
            extract(&scan(page), &Document::parse(page), Some("https://bbs.archlinux.org/viewtopic.php?id=1"), false);
        assert_eq!(m.title.as_deref(), Some("What happened with the ISO"));
        assert_eq!(registered_name("https://news.bbc.co.uk/a").as_deref(), Some("bbc"));
        // Named by `og:site_name`: the declared title, which `<title>` repeats, is the page's.
        let blog = r#"<title>Roger's Blog: Advent of Code week 2</title><meta property="og:site_name" content="Roger's Blog">
            <meta property="og:title" content="Advent of Code week 2"><body><h1>Roger's Blog</h1><h1>Day 7</h1></body>"#;
        assert_eq!(title_of(blog, true).as_deref(), Some("Advent of Code week 2"));
    }

    #[test]
    fn an_articles_single_heading_is_its_headline() {
        let page = "<title>Rice yields: what farmers should know | Farm News</title>\
            <body><h1>What farmers should know about rice yields this year</h1><p>x</p></body>";
        assert_eq!(title_of(page, true).as_deref(), Some("What farmers should know about rice yields this year"));
        // Not on other pages, and not when the heading shares no word with the title.
        assert_eq!(title_of(page, false).as_deref(), Some("Rice yields: what farmers should know"));
        let label = "<title>Rice yields: what farmers should know | Farm News</title><body><h1>Latest</h1></body>";
        assert_eq!(title_of(label, true).as_deref(), Some("Rice yields: what farmers should know"));
    }
}

//! What a page says about itself: the Open Graph type (`<meta property="og:type">`), the schema.org
//! types of its JSON-LD blocks, and whether it declares a publication time.
//!
//! Why: a page's text alone cannot always tell an article from a listing of article teasers; most
//! publishing systems state which one they are. These declarations are signals for the has-article
//! model, weighed against the text measures (they can be wrong or missing, and often are). They are
//! read from the decoded page before pre-strip removes the `<script>` elements that carry JSON-LD,
//! with byte searches only: no parse.

use memchr::memmem;

/// The Open Graph type a page declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OgType {
    #[default]
    Missing,
    Article,
    Website,
    Product,
    Other,
}

/// Declarations found in a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PageMeta {
    pub og_type: OgType,
    /// A JSON-LD `@type` of the article family (Article, NewsArticle, BlogPosting, ...).
    pub ld_article: bool,
    /// A JSON-LD `@type` of a collection (CollectionPage, ItemList, SearchResultsPage, ...).
    pub ld_listing: bool,
    /// A JSON-LD `@type` Product or Offer.
    pub ld_product: bool,
    /// A JSON-LD `@type` of a discussion (DiscussionForumPosting, QAPage, Question, ...).
    pub ld_forum: bool,
    /// A JSON-LD `@type` of technical documentation (TechArticle, APIReference, ...).
    pub ld_docs: bool,
    /// A JSON-LD `@type` of a business or service offered (Service, LocalBusiness, FAQPage, ...).
    pub ld_service: bool,
    /// `article:published_time` or a JSON-LD `datePublished`.
    pub published: bool,
}

/// How many `@type` occurrences are read at most (pages with huge JSON-LD catalogues exist).
const MAX_TYPES: usize = 64;

/// The schema.org types of the article family: the has-article signal `ld_article` here, and the
/// first candidates for the main entity of the `metadata` object (`metadata::jsonld`).
pub const ARTICLE_TYPES: &[&str] = &[
    "Article",
    "NewsArticle",
    "BlogPosting",
    "ScholarlyArticle",
    "TechArticle",
    "Report",
    "AnalysisNewsArticle",
    "OpinionNewsArticle",
    "ReportageNewsArticle",
    "ReviewNewsArticle",
    "BackgroundNewsArticle",
    "LiveBlogPosting",
    "SocialMediaPosting",
    "Recipe",
    "HowTo",
];
const LISTING_TYPES: &[&str] =
    &["CollectionPage", "ItemList", "SearchResultsPage", "OfferCatalog", "ProductGroup", "ProductCollection"];
const PRODUCT_TYPES: &[&str] = &["Product", "Offer", "AggregateOffer"];
const FORUM_TYPES: &[&str] = &["DiscussionForumPosting", "QAPage", "Question", "Answer", "Conversation"];
const DOCS_TYPES: &[&str] = &["TechArticle", "APIReference", "SoftwareSourceCode", "SoftwareApplication"];
const SERVICE_TYPES: &[&str] = &[
    "Service",
    "LocalBusiness",
    "ProfessionalService",
    "HomeAndConstructionBusiness",
    "MedicalBusiness",
    "LegalService",
    "FinancialService",
    "FAQPage",
    "ContactPage",
    "AboutPage",
];

/// Scan a decoded page.
pub fn scan(html: &str) -> PageMeta {
    let b = html.as_bytes();
    let mut m = PageMeta {
        published: memmem::find(b, b"article:published_time").is_some()
            || memmem::find(b, b"\"datePublished\"").is_some(),
        ..PageMeta::default()
    };
    if let Some(at) = memmem::find(b, b"og:type") {
        m.og_type = match tag_content(html, at).map(|v| v.trim().to_ascii_lowercase()) {
            Some(v) if v == "article" || v.starts_with("article") || v.ends_with(".article") => OgType::Article,
            Some(v) if v == "website" => OgType::Website,
            Some(v) if v.contains("product") => OgType::Product,
            Some(_) => OgType::Other,
            None => OgType::Missing,
        };
    }
    for at in memmem::find_iter(b, b"\"@type\"").take(MAX_TYPES) {
        for t in type_values(&html[at + 7..]) {
            m.ld_article |= ARTICLE_TYPES.contains(&t);
            m.ld_listing |= LISTING_TYPES.contains(&t);
            m.ld_product |= PRODUCT_TYPES.contains(&t);
            m.ld_forum |= FORUM_TYPES.contains(&t);
            m.ld_docs |= DOCS_TYPES.contains(&t);
            m.ld_service |= SERVICE_TYPES.contains(&t);
        }
    }
    m
}

/// The `content` attribute of the tag around byte `at`.
fn tag_content(html: &str, at: usize) -> Option<&str> {
    let start = html[..at].rfind('<')?;
    let end = at + html[at..].find('>')?;
    let tag = &html[start..end];
    let lower = tag.to_ascii_lowercase();
    let k = lower.find("content=")? + "content=".len();
    let rest = &tag[k..];
    let quote = rest.chars().next()?;
    if quote == '"' || quote == '\'' {
        let v = &rest[1..];
        Some(&v[..v.find(quote)?])
    } else {
        Some(rest.split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or(""))
    }
}

/// The string value(s) after `"@type"`: `: "X"` or `: ["X", "Y"]`.
fn type_values(rest: &str) -> Vec<&str> {
    let rest = rest.trim_start();
    let Some(rest) = rest.strip_prefix(':') else { return Vec::new() };
    let rest = rest.trim_start();
    let body = if let Some(r) = rest.strip_prefix('[') { &r[..r.find(']').unwrap_or(r.len())] } else { rest };
    let mut out = Vec::new();
    let mut s = body;
    while let Some(q) = s.find('"') {
        let after = &s[q + 1..];
        let Some(e) = after.find('"') else { break };
        out.push(&after[..e]);
        s = &after[e + 1..];
        if !rest.starts_with('[') || out.len() >= 8 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_graph_in_either_attribute_order() {
        let a = scan(r#"<meta property="og:type" content="article"><p>x"#);
        assert_eq!(a.og_type, OgType::Article);
        let b = scan(r#"<meta content='website' property='og:type'/>"#);
        assert_eq!(b.og_type, OgType::Website);
        assert_eq!(scan("<p>nothing</p>"), PageMeta::default());
    }

    #[test]
    fn json_ld_types_single_and_listed() {
        let m =
            scan(r#"<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2024"}</script>"#);
        assert!(m.ld_article && m.published && !m.ld_listing);
        let l = scan(r#"{"@type":["CollectionPage","WebPage"]} {"@type" : "Product"}"#);
        assert!(l.ld_listing && l.ld_product && !l.ld_article);
    }

    #[test]
    fn malformed_declarations_do_not_panic() {
        for s in ["og:type", "<meta og:type", "\"@type\"", "\"@type\":", "\"@type\": [\"", "<a content=\"og:type"] {
            let _ = scan(s);
        }
    }
}

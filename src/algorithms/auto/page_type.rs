//! What kind of page this is: article, forum thread, product, collection, listing, documentation or
//! service page.
//!
//! Why a type at all: an indexer treats a product page or a forum thread differently from an article,
//! and every type has main content of its own. The has-article model already answers "article or
//! not"; this model answers "which of the six other types" over the same page signals plus the ones
//! below, each explainable on its own: declared JSON-LD types, code blocks, post and reply
//! structures, cart and contact calls to action, pagination, forms and tables, and the address's
//! vocabulary (a weak signal: many sites use none of these words).
//!
//! The answer is one distribution: P(article) is the has-article probability, and the six others
//! share the rest in proportion to their one-vs-rest forests' scores. The label is `article` exactly
//! when P(article) reaches the article threshold, else the likeliest other type, so the label and
//! `has_article.is_article` always agree.

use serde::{Deserialize, Serialize};

use super::lexicon::{CART_TEXTS, CONTACT_TEXTS, PAGINATION_TEXTS, POST_NAMES, TYPE_PATH_WORDS};
use crate::Error;
use crate::contract::{NON_ARTICLE_TYPES, NonArticleOdds};
use crate::dom::{Document, Tag};
use crate::meta::PageMeta;

/// The longest text compared against the call-to-action lists (characters of UTF-8).
const SHORT_TEXT: usize = 40;

/// Page signals that tell the non-article types apart, less the address's words ([`url_words`]):
/// what the page itself shows and declares. Counts enter as logarithms, as the has-article signals
/// do. The block classifier reads these too ([`super::features`]), so that a spec table on a product
/// page or a reply on a thread is judged knowing what kind of page holds it; the address stays out
/// of the blocks' view, so that passing it or not changes no block's probability.
pub(super) fn dom_signals(doc: &Document, meta: &PageMeta) -> Vec<(&'static str, f64)> {
    let body = doc.node(doc.body).stats;
    let (mut pre, mut code_chars, mut forms, mut list_items, mut rows, mut posts) =
        (0u32, 0u32, 0u32, 0u32, 0u32, 0u32);
    let (mut cart, mut contact, mut pages, mut in_pre_end) = (0u32, 0u32, 0u32, 0u32);
    for i in doc.body..doc.node(doc.body).end {
        let n = doc.node(i);
        match n.element() {
            Some(e) => {
                match e.tag {
                    // Code: a `pre` and everything in it counted once (a `code` inside a `pre` is the
                    // same block).
                    Tag::Pre if i >= in_pre_end => {
                        pre += 1;
                        code_chars += n.stats.chars;
                        in_pre_end = n.end;
                    }
                    Tag::Code if i >= in_pre_end && n.stats.chars >= 40 => code_chars += n.stats.chars,
                    Tag::Form => forms += 1,
                    Tag::Li => list_items += 1,
                    Tag::Tr => rows += 1,
                    _ => {}
                }
                if n.stats.chars >= 40 && e.id_class.as_deref().is_some_and(|c| POST_NAMES.matches(c)) {
                    posts += 1;
                }
            }
            None => {
                let t = doc.text(i).trim();
                if t.is_empty() || t.len() > SHORT_TEXT * 3 || t.chars().count() > SHORT_TEXT {
                    continue;
                }
                let lower = t.to_lowercase();
                let is = |list: &[&str]| list.iter().any(|w| *w == lower);
                cart += u32::from(is(CART_TEXTS));
                contact += u32::from(is(CONTACT_TEXTS));
                pages += u32::from(n.in_link && (is(PAGINATION_TEXTS) || lower.chars().all(|c| c.is_ascii_digit())));
            }
        }
    }
    let ln = |x: u32| (1.0 + f64::from(x)).ln();
    let flag = |b: bool| f64::from(u8::from(b));
    vec![
        ("code_blocks", ln(pre)),
        ("code_share", f64::from(code_chars.min(body.chars)) / f64::from(body.chars.max(1))),
        ("forms", ln(forms)),
        ("list_items", ln(list_items)),
        ("table_rows", ln(rows)),
        ("post_units", ln(posts)),
        ("cart_texts", ln(cart)),
        ("contact_texts", ln(contact)),
        ("pagination_links", ln(pages)),
        ("ld_forum", flag(meta.ld_forum)),
        ("ld_docs", flag(meta.ld_docs)),
        ("ld_service", flag(meta.ld_service)),
    ]
}

/// One flag per type vocabulary of [`TYPE_PATH_WORDS`]: some path segment is one of its words. A
/// page signal, not a block feature.
pub(super) fn url_words(url: Option<&str>) -> Vec<(&'static str, f64)> {
    let (_, segments) = super::has_article::path_segments(url);
    TYPE_PATH_WORDS
        .iter()
        .map(|(name, words)| (*name, f64::from(u8::from(segments.iter().any(|s| words.contains(&s.as_str()))))))
        .collect()
}

/// Six one-vs-rest forests, one per non-article type, over the page signals (the has-article
/// signals, `dom_signals` and `url_words`), fitted by [`crate::train::page_type`] on pages
/// labelled with a type.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PageTypeModel {
    pub format: String,
    /// Signal names, in the order the forests read them.
    pub signals: Vec<String>,
    /// One forest per type of [`NON_ARTICLE_TYPES`], in that order.
    pub types: Vec<crate::gbdt::Forest>,
    pub trained_on: Vec<String>,
}

impl Default for PageTypeModel {
    fn default() -> Self {
        PageTypeModel {
            format: "pith-page-type-1".into(),
            signals: Vec::new(),
            types: Vec::new(),
            trained_on: Vec::new(),
        }
    }
}

impl PageTypeModel {
    /// Check shapes after loading.
    pub fn validate(&self) -> Result<(), Error> {
        if !self.types.is_empty() && self.types.len() != NON_ARTICLE_TYPES.len() {
            return Err(Error::Config(format!(
                "page-type model: {} forests for {} types",
                self.types.len(),
                NON_ARTICLE_TYPES.len()
            )));
        }
        let names: Vec<&str> = self.signals.iter().map(String::as_str).collect();
        for f in &self.types {
            f.validate(&names).map_err(|e| Error::Config(format!("page-type model: {e}")))?;
        }
        Ok(())
    }

    /// True when the model has been trained.
    pub fn is_trained(&self) -> bool {
        self.types.iter().any(|f| f.is_trained())
    }

    /// The odds of each non-article type given that the page is not an article; signals the model
    /// does not know are ignored, missing ones count as 0.
    pub fn odds(&self, signals: &[(&str, f64)]) -> Option<NonArticleOdds> {
        if !self.is_trained() {
            return None;
        }
        let x: Vec<f32> =
            self.signals.iter().map(|n| signals.iter().find(|(s, _)| s == n).map_or(0.0, |s| s.1) as f32).collect();
        let mut odds = [0.0f64; 6];
        for (o, f) in odds.iter_mut().zip(&self.types) {
            *o = f.predict(&x).max(1e-6);
        }
        let sum: f64 = odds.iter().sum();
        Some(NonArticleOdds(odds.map(|o| o / sum)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &[(&str, f64)], name: &str) -> f64 {
        s.iter().find(|(n, _)| *n == name).map(|x| x.1).unwrap_or(f64::NAN)
    }

    #[test]
    fn signals_see_code_posts_carts_and_pagination() {
        let page = "<html><body><pre><code>fn main() {\n    println!(\"hello, world\");\n}</code></pre>\
            <div class='post reply'>First reply with enough words to count as a post unit here.</div>\
            <div class=message>Second reply with enough words to count as a post unit too.</div>\
            <a href=/cart>Add to cart</a><p>In stock</p>\
            <a href=/2>2</a><a href=/3>3</a><a href=/next>Next</a><span>下一页</span></body></html>";
        let doc = Document::parse(page);
        let mut s = dom_signals(&doc, &PageMeta::default());
        s.extend(url_words(Some("https://example.com/forum/thread/123")));
        assert_eq!(value(&s, "code_blocks"), 2f64.ln());
        assert!(value(&s, "code_share") > 0.1);
        assert_eq!(value(&s, "post_units"), 3f64.ln());
        assert_eq!(value(&s, "cart_texts"), 3f64.ln());
        // The last "下一页" is not a link.
        assert_eq!(value(&s, "pagination_links"), 4f64.ln());
        assert_eq!(value(&s, "url_forum"), 1.0);
        assert_eq!(value(&s, "url_product"), 0.0);
    }

    #[test]
    fn untrained_model_gives_no_odds_and_trained_odds_sum_to_one() {
        let m = PageTypeModel::default();
        assert!(m.odds(&[]).is_none());
        m.validate().unwrap();
        let names = vec!["a".to_string()];
        let rows: Vec<f32> = (0..60).map(|i| (i % 6) as f32).collect();
        let types: Vec<crate::gbdt::Forest> = (0..6)
            .map(|k| {
                let y: Vec<f32> = rows.iter().map(|&v| f32::from(u8::from(v as usize == k))).collect();
                let w = vec![1.0f32; y.len()];
                let p = crate::gbdt::TrainParams {
                    trees: 20,
                    max_depth: 2,
                    learning_rate: 0.3,
                    lambda: 1.0,
                    min_child_weight: 1.0,
                };
                crate::gbdt::train(&crate::gbdt::Data { x: &rows, y: &y, w: &w, features: 1 }, &["a"], &p)
            })
            .collect();
        let m = PageTypeModel { signals: names, types, ..PageTypeModel::default() };
        m.validate().unwrap();
        let odds = m.odds(&[("a", 2.0)]).unwrap();
        assert!((odds.0.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert_eq!(odds.argmax(), 2, "{odds:?}");
    }
}

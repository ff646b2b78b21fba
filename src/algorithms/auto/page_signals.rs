//! The page signals' names: the checked table the page models and the block features that read page
//! signals are held to. The page models look their inputs up by name, and a name the pipeline no
//! longer writes would read as the training mean (or zero) on every page without a word; so every
//! name a model or a feature reads must be in this table, which is read off the producers
//! themselves (on an empty page: each writes the same names on every page), and a model that names
//! another fails to load.

use std::sync::LazyLock;

use super::regions::PageRegions;
use super::{has_article, lexicon, page_type};
use crate::dom::Document;
use crate::error::Error;
use crate::metadata::page_meta::PageMeta;

/// Every page signal the pipeline measures, in the order it lists them: the has-article signals,
/// the page's own (`page_type::dom_signals`), the record regions', the address's words.
pub fn page_signal_names() -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let doc = Document::parse("");
        let meta = PageMeta::default();
        let mut names: Vec<&'static str> =
            has_article::signals(&doc, &[], &[], 0.0, None, &meta, None).into_iter().map(|s| s.0).collect();
        names.extend(page_type::dom_signals(&doc, &meta, &[0; lexicon::ALL_NAME_GROUPS]).into_iter().map(|s| s.0));
        names.extend(PageRegions::default().page_signals(0).into_iter().map(|s| s.0));
        names.extend(page_type::url_words(None).into_iter().map(|s| s.0));
        names
    });
    &NAMES
}

/// Fail when `names` (what `model` reads) holds a name the pipeline does not measure.
pub(super) fn check(model: &str, names: &[String]) -> Result<(), Error> {
    let known = page_signal_names();
    match names.iter().find(|n| !known.contains(&n.as_str())) {
        Some(unknown) => Err(Error::Config(format!(
            "{model}: the signal `{unknown}` is not one the pipeline measures (renamed or removed?); retrain the model"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_each_signal_once_and_every_page_writes_all_of_them() {
        let names = page_signal_names();
        assert!(names.len() > 50, "{}", names.len());
        for (k, n) in names.iter().enumerate() {
            assert!(!names[..k].contains(n), "{n} twice");
        }
        // A page with text, links, a title and an address writes the same names in the same order.
        let html = "<html><head><title>Rice course opens | News</title></head><body><h1>Rice course opens</h1>\
            <p>Two hundred farmers came to the county's first rice course, held over a week.</p>\
            <ul><li><a href=/a>A headline long enough to count</a></li></ul></body></html>";
        let doc = Document::parse(html);
        let meta = crate::metadata::page_meta::scan(html);
        let url = Some("https://news.example/2024/05/rice-course-opens.html");
        let mut written: Vec<&str> =
            has_article::signals(&doc, &super::super::segment::block_owners(&doc), &[doc.body], 0.3, None, &meta, url)
                .into_iter()
                .map(|s| s.0)
                .collect();
        written.extend(page_type::dom_signals(&doc, &meta, &[1; lexicon::ALL_NAME_GROUPS]).into_iter().map(|s| s.0));
        let blocks = super::super::segment::segment(&doc, &super::super::segment::block_owners(&doc));
        let regions = PageRegions::read(&doc, &blocks, &super::super::prose::prose_run(&blocks));
        written.extend(regions.page_signals(doc.node(doc.body).stats.chars).into_iter().map(|s| s.0));
        written.extend(page_type::url_words(url).into_iter().map(|s| s.0));
        assert_eq!(written, names);
    }

    #[test]
    fn a_model_reading_a_signal_nobody_writes_fails_to_load() {
        assert!(check("article model", &["paragraphs".into(), "text_chars".into()]).is_ok());
        let err = check("article model", &["paragraphs".into(), "paragraph_count".into()]).unwrap_err();
        assert!(err.to_string().contains("`paragraph_count`"), "{err}");
    }

    #[test]
    fn the_shipped_models_and_the_block_features_read_only_measured_signals() {
        let models = crate::engine::models::Models::embedded().unwrap();
        let auto = models.auto();
        check("article model", &auto.article.signals).unwrap();
        check("page-type model", &auto.page_type.signals).unwrap();
        let known = page_signal_names();
        for name in super::super::features::page_kind_signals() {
            assert!(known.contains(&name), "block feature reads page signal {name}, which nobody writes");
        }
    }
}

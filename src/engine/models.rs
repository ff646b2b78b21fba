//! Every trained model in one place: where they come from (embedded in the binary, read from a
//! directory, or untrained), how their files are parsed and checked, and the one struct that holds
//! them. The engine and training both go through here.
//!
//! The model types themselves live with the algorithms that read them: the Naive Bayes block model in
//! [`crate::algorithms::bayes`], `auto`'s block classifier and has-article model in
//! [`crate::algorithms::auto`]. A model file is checked against what the code computes when it is
//! loaded (the block classifier's feature names, the Naive Bayes bins), so a stale file is refused at
//! start-up instead of scoring nonsense.

use std::path::Path;

use crate::algorithms::auto::{self, ArticleModel, BlockModel, PageTypeModel, SiteModel};
use crate::algorithms::bayes::BayesModel;
use crate::error::Error;

/// File names, in `config/` and in a directory given with `--models`.
pub const BAYES_FILE: &str = "bayes-model.json";
pub const BLOCKS_FILE: &str = "block-model.json";
pub const ARTICLE_FILE: &str = "article-model.json";
pub const PAGE_TYPE_FILE: &str = "page-type-model.json";
pub const SITE_FILE: &str = "site-model.json";

/// The models shipped in `config/`, embedded so the binary needs no files.
const EMBEDDED_BAYES: &str = include_str!("../../config/bayes-model.json");
const EMBEDDED_BLOCKS: &str = include_str!("../../config/block-model.json");
const EMBEDDED_ARTICLE: &str = include_str!("../../config/article-model.json");
const EMBEDDED_PAGE_TYPE: &str = include_str!("../../config/page-type-model.json");
const EMBEDDED_SITE: &str = include_str!("../../config/site-model.json");

/// The five models.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Models {
    /// The Naive Bayes block model (Wang et al.): `bayes`, and one of `auto`'s measures.
    pub bayes: BayesModel,
    /// `auto`'s two-stage block classifier.
    pub blocks: BlockModel,
    /// `auto`'s has-article model.
    pub article: ArticleModel,
    /// `auto`'s page-type model (the types besides article).
    pub page_type: PageTypeModel,
    /// `auto`'s site model (which recurrences on a site's other pages make a block chrome).
    pub site: SiteModel,
}

impl Models {
    /// The models shipped in `config/`.
    pub fn embedded() -> Result<Models, Error> {
        Ok(Models {
            bayes: parse_bayes(EMBEDDED_BAYES)?,
            blocks: parse_blocks(EMBEDDED_BLOCKS)?,
            article: parse_article(EMBEDDED_ARTICLE)?,
            page_type: parse_page_type(EMBEDDED_PAGE_TYPE)?,
            site: parse_site(EMBEDDED_SITE)?,
        })
    }

    /// Models that know nothing: the starting point of training, which must not depend on the models
    /// it is about to replace. `auto` runs on them with its heuristic region.
    pub fn untrained() -> Models {
        Models::default()
    }

    /// Replace the models found in `dir` (`bayes-model.json`, `block-model.json`,
    /// `article-model.json`, `page-type-model.json`, `site-model.json`); a missing file keeps the model
    /// already held.
    pub fn load_dir(&mut self, dir: &Path) -> Result<(), Error> {
        let read = |name: &str| -> Result<Option<String>, Error> {
            let p = dir.join(name);
            match std::fs::read_to_string(&p) {
                Ok(t) => Ok(Some(t)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(Error::Config(format!("{}: {e}", p.display()))),
            }
        };
        if let Some(t) = read(BAYES_FILE)? {
            self.bayes = parse_bayes(&t)?;
        }
        if let Some(t) = read(BLOCKS_FILE)? {
            self.blocks = parse_blocks(&t)?;
        }
        if let Some(t) = read(ARTICLE_FILE)? {
            self.article = parse_article(&t)?;
        }
        if let Some(t) = read(PAGE_TYPE_FILE)? {
            self.page_type = parse_page_type(&t)?;
        }
        if let Some(t) = read(SITE_FILE)? {
            self.site = parse_site(&t)?;
        }
        Ok(())
    }

    /// Write the five models into `dir` (created if missing) under the names [`Models::load_dir`]
    /// reads.
    pub fn save_dir(&self, dir: &Path) -> Result<(), Error> {
        std::fs::create_dir_all(dir).map_err(|e| Error::Config(format!("{}: {e}", dir.display())))?;
        let write = |name: &str, text: Result<String, serde_json::Error>| -> Result<(), Error> {
            let p = dir.join(name);
            let text = text.map_err(|e| Error::Config(format!("{}: {e}", p.display())))?;
            std::fs::write(&p, text).map_err(|e| Error::Config(format!("{}: {e}", p.display())))
        };
        write(BAYES_FILE, serde_json::to_string(&self.bayes))?;
        write(BLOCKS_FILE, serde_json::to_string(&self.blocks))?;
        write(ARTICLE_FILE, serde_json::to_string(&self.article))?;
        write(PAGE_TYPE_FILE, serde_json::to_string(&self.page_type))?;
        write(SITE_FILE, serde_json::to_string(&self.site))
    }

    /// What `auto` reads.
    pub fn auto(&self) -> auto::ModelRefs<'_> {
        auto::ModelRefs {
            bayes: &self.bayes,
            blocks: &self.blocks,
            article: &self.article,
            page_type: &self.page_type,
            site: &self.site,
        }
    }
}

/// Parse and check a Naive Bayes model file's text.
pub fn parse_bayes(text: &str) -> Result<BayesModel, Error> {
    let m: BayesModel = serde_json::from_str(text).map_err(|e| Error::Config(format!("bayes model: {e}")))?;
    m.validate().map_err(Error::Config)?;
    Ok(m)
}

/// Parse and check a block classifier file's text against the features the code computes.
pub fn parse_blocks(text: &str) -> Result<BlockModel, Error> {
    let m: BlockModel = serde_json::from_str(text).map_err(|e| Error::Config(format!("block model: {e}")))?;
    m.validate().map_err(|e| Error::Config(format!("block model: {e}")))?;
    Ok(m)
}

/// Parse and check a site model file's text against the inputs the code computes.
pub fn parse_site(text: &str) -> Result<SiteModel, Error> {
    let m: SiteModel = serde_json::from_str(text).map_err(|e| Error::Config(format!("site model: {e}")))?;
    m.validate().map_err(|e| Error::Config(format!("site model: {e}")))?;
    Ok(m)
}

/// Parse and check a has-article model file's text.
pub fn parse_article(text: &str) -> Result<ArticleModel, Error> {
    let m: ArticleModel = serde_json::from_str(text).map_err(|e| Error::Config(format!("article model: {e}")))?;
    m.validate()?;
    Ok(m)
}

/// Parse and check a page-type model file's text.
pub fn parse_page_type(text: &str) -> Result<PageTypeModel, Error> {
    let m: PageTypeModel = serde_json::from_str(text).map_err(|e| Error::Config(format!("page-type model: {e}")))?;
    m.validate()?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_models_load_and_a_directory_replaces_only_what_it_holds() {
        let embedded = Models::embedded().unwrap();
        assert!(embedded.blocks.is_trained() && embedded.article.is_trained() && embedded.page_type.is_trained());
        let dir = std::env::temp_dir().join(format!("pith-models-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = serde_json::to_string(&BlockModel::default()).unwrap();
        std::fs::write(dir.join(BLOCKS_FILE), empty).unwrap();
        let mut m = embedded.clone();
        m.load_dir(&dir).unwrap();
        assert!(!m.blocks.is_trained());
        assert_eq!((&m.bayes, &m.article), (&embedded.bayes, &embedded.article));
        std::fs::write(dir.join(BAYES_FILE), "{").unwrap();
        assert!(matches!(m.load_dir(&dir), Err(Error::Config(_))));
        std::fs::remove_dir_all(&dir).ok();
    }
}

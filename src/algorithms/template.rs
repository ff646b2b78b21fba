//! Site templates: the wrapper method of the survey of web content extraction (§1). A rule names the
//! hosts it serves and CSS selectors for the content and for noise to drop. Rules are TOML files in
//! `config/sites/`; the ones shipped there are embedded in the binary, and `pith extract --sites DIR`
//! (or `pith eval --sites DIR`) adds those of another directory.
//!
//! ```toml
//! [[rule]]
//! name = "example"
//! hosts = ["example.com", "*.example.org"]   # "*." also matches the bare domain
//! content = ["article .body"]
//! noise = [".share", ".related"]
//! ```

use std::path::Path;

use scraper::{Html, Selector};
use serde::Deserialize;

use crate::error::Error;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SiteFile {
    #[serde(default)]
    rule: Vec<RuleSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSpec {
    name: String,
    hosts: Vec<String>,
    #[serde(default)]
    content: Vec<String>,
    #[serde(default)]
    noise: Vec<String>,
}

/// A rule with its selectors compiled.
#[derive(Debug, Clone)]
pub struct SiteRule {
    pub name: String,
    hosts: Vec<String>,
    content: Vec<Selector>,
    noise: Vec<Selector>,
}

impl SiteRule {
    /// True when the rule serves `host` (lower-case).
    pub fn matches_host(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| match h.strip_prefix("*.") {
            Some(suffix) => host == suffix || host.ends_with(&format!(".{suffix}")),
            None => host == h,
        })
    }

    /// The scraper nodes the rule's noise selectors pick.
    pub fn noise_nodes(&self, html: &Html) -> Vec<ego_tree::NodeId> {
        self.noise.iter().flat_map(|s| html.select(s).map(|e| e.id())).collect()
    }

    /// The scraper nodes the rule's content selectors pick, in document order.
    pub fn content_nodes(&self, html: &Html) -> Vec<ego_tree::NodeId> {
        self.content.iter().flat_map(|s| html.select(s).map(|e| e.id())).collect()
    }
}

/// All loaded rules.
#[derive(Debug, Default, Clone)]
pub struct Templates {
    rules: Vec<SiteRule>,
}

/// The rule files shipped in `config/sites/`, embedded so the binary works with no files around it.
const EMBEDDED: &[(&str, &str)] = &[("example.toml", include_str!("../../config/sites/example.toml"))];

impl Templates {
    /// The embedded rules.
    pub fn embedded() -> Result<Templates, Error> {
        let mut t = Templates::default();
        for (name, text) in EMBEDDED {
            t.add_toml(name, text)?;
        }
        Ok(t)
    }

    /// Add every `*.toml` file of `dir` (sorted by name, so the order of rules is stable).
    pub fn add_dir(&mut self, dir: &Path) -> Result<(), Error> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| Error::Config(format!("site rules in {}: {e}", dir.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).map_err(|e| Error::Config(format!("{}: {e}", f.display())))?;
            self.add_toml(&f.display().to_string(), &text)?;
        }
        Ok(())
    }

    /// Parse one rule file.
    pub fn add_toml(&mut self, origin: &str, text: &str) -> Result<(), Error> {
        let file: SiteFile = toml::from_str(text).map_err(|e| Error::Config(format!("{origin}: {e}")))?;
        for r in file.rule {
            let compile = |list: &[String]| -> Result<Vec<Selector>, Error> {
                list.iter()
                    .map(|s| {
                        Selector::parse(s)
                            .map_err(|e| Error::Config(format!("{origin}: rule {}: selector {s:?}: {e}", r.name)))
                    })
                    .collect()
            };
            let content = compile(&r.content)?;
            let noise = compile(&r.noise)?;
            self.rules.push(SiteRule {
                hosts: r.hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
                name: r.name,
                content,
                noise,
            });
        }
        Ok(())
    }

    /// The first rule serving the URL's host.
    pub fn find(&self, url: &str) -> Option<&SiteRule> {
        let host = url::Url::parse(url).ok()?.host_str()?.to_ascii_lowercase();
        self.rules.iter().find(|r| r.matches_host(&host))
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_patterns() {
        let mut t = Templates::default();
        t.add_toml("t", "[[rule]]\nname='a'\nhosts=['*.example.org','news.test']\ncontent=['article']\n").unwrap();
        assert!(t.find("https://example.org/x").is_some());
        assert!(t.find("https://www.example.org/x").is_some());
        assert!(t.find("http://news.test/").is_some());
        assert!(t.find("http://badexample.org/").is_none());
        assert!(t.find("not a url").is_none());
    }

    #[test]
    fn bad_selector_is_a_config_error() {
        let mut t = Templates::default();
        assert!(matches!(t.add_toml("t", "[[rule]]\nname='a'\nhosts=['x']\ncontent=['[[[']\n"), Err(Error::Config(_))));
    }

    #[test]
    fn embedded_rules_load() {
        assert!(!Templates::embedded().unwrap().is_empty());
    }
}

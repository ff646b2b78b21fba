//! The kinds of page `auto` tells apart. One enum from the models to the wire: the rules' conditions,
//! the per-type thresholds, the page-type models' order and the datasets' labels all name a type by
//! it, so a misspelt type is a compile error rather than a condition that never holds. On the wire
//! (the answer's `page_type.label`, the datasets' `page_type`) a type is its lower-case name.

use serde::{Deserialize, Serialize};

/// A kind of page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    Article,
    Forum,
    Product,
    Collection,
    Listing,
    Documentation,
    Service,
}

impl PageType {
    /// The types besides `article`, in the order of [`super::NonArticleOdds`] and of the page-type
    /// model's forests.
    pub const NON_ARTICLE: [PageType; 6] = [
        PageType::Forum,
        PageType::Product,
        PageType::Collection,
        PageType::Listing,
        PageType::Documentation,
        PageType::Service,
    ];

    /// Every type, in the order reports list them: `article`, then [`PageType::NON_ARTICLE`].
    pub const ALL: [PageType; 7] = {
        let mut all = [PageType::Article; 7];
        let mut k = 0;
        while k < PageType::NON_ARTICLE.len() {
            all[k + 1] = PageType::NON_ARTICLE[k];
            k += 1;
        }
        all
    };

    /// The type's name on the wire.
    pub const fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Collection => "collection",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
        }
    }

    /// The type called `name` on the wire.
    pub fn named(name: &str) -> Option<PageType> {
        PageType::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl std::fmt::Display for PageType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::PageType;

    #[test]
    fn names_are_the_wire_form_both_ways() {
        for t in PageType::ALL {
            assert_eq!(PageType::named(t.name()), Some(t));
            assert_eq!(serde_json::to_string(&t).unwrap(), format!("\"{t}\""));
            assert_eq!(serde_json::from_str::<PageType>(&format!("\"{t}\"")).unwrap(), t);
        }
        assert_eq!(PageType::named("blog"), None);
        assert_eq!(&PageType::ALL[1..], &PageType::NON_ARTICLE);
    }
}

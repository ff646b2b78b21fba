//! The page's tags and categories: `article:tag` and `article:section` properties, the JSON-LD
//! `keywords` and `articleSection`, and the `keywords` `<meta>` names, without repeats.

use super::Declarations;
use super::jsonld::{self, Entity};
use crate::dom::fold_ws as clean;

pub(super) fn tags(s: &Declarations, main: Option<&Entity>) -> Vec<String> {
    let mut out: Vec<String> = s.meta_all("article:tag").map(clean).collect();
    if out.is_empty()
        && let Some(k) = main.and_then(|e| e.value.get("keywords"))
    {
        out = match k {
            serde_json::Value::String(s) => s.split(',').map(clean).collect(),
            other => jsonld::texts_of(other),
        };
    }
    if out.is_empty()
        && let Some(k) = s.meta(&["keywords", "news_keywords"])
    {
        out = k.split([',', '，', ';']).map(clean).collect();
    }
    dedup(out)
}

pub(super) fn categories(s: &Declarations, main: Option<&Entity>) -> Vec<String> {
    let mut out: Vec<String> = s.meta_all("article:section").map(clean).collect();
    if out.is_empty()
        && let Some(sec) = main.and_then(|e| e.value.get("articleSection"))
    {
        out = jsonld::texts_of(sec);
    }
    dedup(out)
}

fn dedup(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for x in v {
        if !x.is_empty() && x.chars().count() <= 100 && !out.contains(&x) && out.len() < 64 {
            out.push(x);
        }
    }
    out
}

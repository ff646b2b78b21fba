//! JSON-LD (schema.org) blocks: every typed object found, through arrays and `@graph`, and the one
//! that describes the page's main content.
//!
//! Parsed with serde_json (the blocks are data, not code). Publishers' JSON-LD is often slightly
//! broken: HTML comments or CDATA wrappers around it, a trailing semicolon, raw line breaks inside
//! strings; those are repaired before parsing, and a block that still does not parse is skipped.

use serde_json::Value;

/// Objects deeper than this are not visited (serde_json itself stops at 128 levels).
const MAX_DEPTH: usize = 16;
/// Typed objects kept per page.
const MAX_OBJECTS: usize = 256;

/// Types whose object, besides those of the article family ([`crate::metadata::page_meta::ARTICLE_TYPES`]), is the
/// page's main content when present: threads and questions, reviews, videos, events, products,
/// courses, job postings.
const OTHER_MAIN_TYPES: &[&str] = &[
    "DiscussionForumPosting",
    "QAPage",
    "Question",
    "Review",
    "VideoObject",
    "Event",
    "Product",
    "Course",
    "JobPosting",
];

/// One typed object.
#[derive(Debug, Clone)]
pub struct Entity {
    pub types: Vec<String>,
    pub value: Value,
}

impl Entity {
    pub fn is(&self, names: &[&str]) -> bool {
        self.types.iter().any(|t| names.contains(&t.as_str()))
    }

    /// A type of the article family or another that describes a page's main content
    /// ([`OTHER_MAIN_TYPES`]).
    pub fn is_main_type(&self) -> bool {
        self.is(crate::metadata::page_meta::ARTICLE_TYPES) || self.is(OTHER_MAIN_TYPES)
    }

    pub fn str(&self, key: &str) -> Option<String> {
        text_of(self.value.get(key)?)
    }
}

/// Repair the common breakages and parse.
fn parse(raw: &str) -> Option<Value> {
    let mut s = raw.trim();
    for (open, close) in [("<!--", "-->"), ("<![CDATA[", "]]>"), ("//<![CDATA[", "//]]>")] {
        if let Some(x) = s.strip_prefix(open) {
            s = x.trim_end().strip_suffix(close).unwrap_or(x).trim();
        }
    }
    let s = s.trim_end_matches(';');
    serde_json::from_str(s).ok().or_else(|| {
        // Raw control characters inside strings are invalid JSON but common.
        let cleaned: String = s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        serde_json::from_str(&cleaned).ok()
    })
}

/// The `@type` of an object: a string or an array of strings, with any `schema:` or URL prefix removed.
pub fn types_of(v: &Value) -> Vec<String> {
    let strip = |t: &str| t.rsplit(['/', ':']).next().unwrap_or(t).to_string();
    match v.get("@type") {
        Some(Value::String(t)) => vec![strip(t)],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(strip).collect(),
        _ => Vec::new(),
    }
}

/// Every typed object in the blocks, outermost first, in document order.
pub fn entities(blocks: &[String]) -> Vec<Entity> {
    let mut out = Vec::new();
    for b in blocks {
        let Some(v) = parse(b) else { continue };
        // Explicit stack, pushed in reverse so objects come out in document order.
        let mut stack: Vec<(&Value, usize)> = vec![(&v, 0)];
        while let Some((v, depth)) = stack.pop() {
            if depth > MAX_DEPTH || out.len() >= MAX_OBJECTS {
                continue;
            }
            match v {
                Value::Array(a) => stack.extend(a.iter().rev().map(|x| (x, depth + 1))),
                Value::Object(o) => {
                    let types = types_of(v);
                    if !types.is_empty() {
                        out.push(Entity { types, value: v.clone() });
                    }
                    // `@graph` and nested entities (`mainEntity`, `author`...) are visited too.
                    let mut children: Vec<&Value> = o
                        .iter()
                        .filter(|(k, x)| k.as_str() != "@context" && (x.is_object() || x.is_array()))
                        .map(|(_, x)| x)
                        .collect();
                    children.reverse();
                    stack.extend(children.into_iter().map(|x| (x, depth + 1)));
                }
                _ => {}
            }
        }
    }
    out
}

/// A value as text: a string, a number, or an object's `name` / `@value` / `url`.
pub fn text_of(v: &Value) -> Option<String> {
    let s = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Object(o) => return o.get("name").or_else(|| o.get("@value")).and_then(text_of),
        Value::Array(a) => return a.iter().find_map(text_of),
        _ => return None,
    };
    let s = crate::dom::fold_ws(&crate::dom::decode_char_refs(&s));
    (!s.is_empty()).then_some(s)
}

/// Every name in a value that may be one or many (`author`, `keywords`).
pub fn texts_of(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().filter_map(text_of).collect(),
        other => text_of(other).into_iter().collect(),
    }
}

/// An image value: a URL string, an `ImageObject` (`url` or `contentUrl`), or a list of either.
pub fn image_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Object(o) => o.get("url").or_else(|| o.get("contentUrl")).and_then(image_of),
        Value::Array(a) => a.iter().find_map(image_of),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_arrays_and_nesting() {
        let blocks = vec![
            r#"<!-- {"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"P"},
               {"@type":["NewsArticle"],"headline":"H &amp; co","author":[{"@type":"Person","name":"A"},{"name":"B"}]}]} -->"#
                .to_string(),
            "not json".to_string(),
            r#"[{"@type":"schema:Product","image":{"@type":"ImageObject","url":"i.png"}}];"#.to_string(),
        ];
        let e = entities(&blocks);
        let types: Vec<&str> = e.iter().flat_map(|x| x.types.iter().map(String::as_str)).collect();
        assert_eq!(types, ["WebPage", "NewsArticle", "Person", "Product", "ImageObject"]);
        let article = &e[1];
        assert_eq!(article.str("headline").as_deref(), Some("H & co"));
        assert_eq!(texts_of(&article.value["author"]), ["A", "B"]);
        assert_eq!(image_of(&e[3].value["image"]).as_deref(), Some("i.png"));
        // The article, and the product, can be the page's main content; the page, person and image not.
        let main: Vec<bool> = e.iter().map(Entity::is_main_type).collect();
        assert_eq!(main, [false, true, false, true, false]);
    }

    #[test]
    fn deep_json_is_bounded() {
        let deep = format!("{}{}", r#"{"@type":"A","x":"#.repeat(100), "1".to_string() + &"}".repeat(100));
        assert!(entities(&[deep]).len() <= MAX_DEPTH + 1);
    }
}

//! The description of the one product a page declares in its JSON-LD, as paragraphs: not part of the
//! result's `metadata`, but what `auto` falls back on when the visible page hides that description.

use super::{Declarations, jsonld};

/// The description of the one product a page declares in JSON-LD (`@type` Product), as paragraphs:
/// tags removed, character references decoded, one paragraph per line or `<p>` / `<br>` break.
/// `None` when the page declares no product, several (a catalogue, whose first is not the page's
/// subject), or one without a description. `auto` falls back on it when the visible page holds
/// little of it (a description behind a script-driven accordion or a hidden `<main>`).
pub fn product_description(scanned: &Declarations) -> Option<Vec<String>> {
    let ents = jsonld::entities(&scanned.json_ld);
    let mut products = ents.iter().filter(|e| e.is(&["Product"]));
    let one = products.next()?;
    if products.next().is_some() {
        return None;
    }
    let raw = match one.value.get("description")? {
        serde_json::Value::String(s) => s.as_str(),
        _ => return None,
    };
    let paras: Vec<String> = strip_tags(raw)
        .lines()
        .map(|l| crate::dom::fold_ws(&crate::dom::decode_char_refs(l)))
        .filter(|l| !l.is_empty())
        .collect();
    (!paras.is_empty()).then_some(paras)
}

/// Markup in a declared text: tags removed, a line break where a block or `<br>` ended.
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let tag = rest[open + 1..open + close].trim_start_matches('/').to_ascii_lowercase();
        let name = tag.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
        let breaks =
            matches!(name, "br" | "p" | "div" | "li" | "ul" | "ol" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "tr");
        out.push(if breaks { '\n' } else { ' ' });
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::product_description;
    use crate::metadata::scan;

    #[test]
    fn the_one_declared_products_description_in_paragraphs() {
        let one = r#"<html><head><script type="application/ld+json">{"@type":"Product","name":"Mug",
            "description":"<h4>HAND MADE.</h4><p>A stoneware mug &amp; saucer,<br>glazed by hand.</p>\nDishwasher safe."}</script>
            </head><body></body></html>"#;
        assert_eq!(
            product_description(&scan(one)).unwrap(),
            ["HAND MADE.", "A stoneware mug & saucer,", "glazed by hand.", "Dishwasher safe."]
        );
        let two = r#"<script type="application/ld+json">[{"@type":"Product","description":"One mug."},
            {"@type":"Product","description":"Another mug."}]</script>"#;
        assert_eq!(product_description(&scan(two)), None, "a catalogue has no one product");
        let none = r#"<script type="application/ld+json">{"@type":"Product","name":"Mug"}</script>"#;
        assert_eq!(product_description(&scan(none)), None);
    }
}

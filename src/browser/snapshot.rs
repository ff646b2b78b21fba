//! `DOMSnapshot.captureSnapshot` → [`Layout`]: one call returns every node's attributes and every
//! laid-out node's box and computed styles as flat tables over one string table; the `data-pith`
//! stamp on each element names its arena node.

use serde::Deserialize;

use crate::dom::layout::{Display, ElementBox, Layout, Rect, is_transparent, parse_color};
use crate::dom::{Document, NONE, NodeId, STAMP};

/// Computed styles requested, in this order (the snapshot's style rows follow it).
pub const STYLES: [&str; 6] = ["display", "visibility", "font-size", "font-weight", "background-color", "color"];

/// The canvas behind everything: white, opaque.
const CANVAS: u32 = 0xFFFF_FFFF;

#[derive(Deserialize)]
pub struct Captured {
    documents: Vec<DocSnap>,
    strings: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DocSnap {
    nodes: NodeSnap,
    layout: LayoutSnap,
    content_width: Option<f64>,
    content_height: Option<f64>,
}

#[derive(Deserialize)]
struct NodeSnap {
    #[serde(default)]
    attributes: Vec<Vec<i64>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LayoutSnap {
    node_index: Vec<i64>,
    styles: Vec<Vec<i64>>,
    bounds: Vec<Vec<f64>>,
}

/// Convert the main frame's snapshot into a layout of `doc` (the arena the stamps refer to).
pub fn to_layout(doc: &Document, snap: &Captured, viewport: (f32, f32)) -> Layout {
    let mut boxes: Vec<Option<ElementBox>> = vec![None; doc.len()];
    let mut page = viewport;
    if let Some(d) = snap.documents.first() {
        let s = |i: i64| usize::try_from(i).ok().and_then(|i| snap.strings.get(i)).map_or("", String::as_str);
        let stamp = snap.strings.iter().position(|x| x == STAMP).map(|i| i as i64);
        // Arena id of each snapshot node, from its stamp.
        let ids: Vec<NodeId> = d
            .nodes
            .attributes
            .iter()
            .map(|attrs| {
                let Some(stamp) = stamp else { return NONE };
                attrs
                    .chunks_exact(2)
                    .find(|kv| kv[0] == stamp)
                    .and_then(|kv| s(kv[1]).parse::<NodeId>().ok())
                    .filter(|&id| (id as usize) < doc.len() && doc.node(id).element().is_some())
                    .unwrap_or(NONE)
            })
            .collect();
        for (k, &node) in d.layout.node_index.iter().enumerate() {
            let Some(&id) = usize::try_from(node).ok().and_then(|n| ids.get(n)) else { continue };
            if id == NONE {
                continue;
            }
            let b = d.layout.bounds.get(k).map(Vec::as_slice).unwrap_or(&[]);
            let rect = match b {
                [x, y, w, h, ..] => Rect::new(*x as f32, *y as f32, *w as f32, *h as f32),
                _ => continue,
            };
            let st = d.layout.styles.get(k).map(Vec::as_slice).unwrap_or(&[]);
            let style = |i: usize| st.get(i).map_or("", |&v| s(v));
            let entry = ElementBox {
                rect,
                display: Display::from_css(style(0)),
                visible: !matches!(style(1), "hidden" | "collapse"),
                font_size: style(2).trim_end_matches("px").parse().unwrap_or(16.0),
                font_weight: style(3).parse().unwrap_or(400),
                background: parse_color(style(4)),
                color: parse_color(style(5)),
            };
            let slot = &mut boxes[id as usize];
            match slot {
                // Several layout objects for one element (an inline split over lines): their union.
                Some(prev) => prev.rect = prev.rect.union(&rect),
                None => *slot = Some(entry),
            }
        }
        if let (Some(w), Some(h)) = (d.content_width, d.content_height) {
            page = (w as f32, h as f32);
        }
    }
    // The background a reader sees: parents come before children in the arena, so one forward pass
    // hands each transparent element its nearest laid-out ancestor's.
    for i in 0..doc.len() {
        let Some(b) = boxes[i] else { continue };
        if is_transparent(b.background) {
            let inherited = doc.ancestors(i as NodeId).find_map(|a| boxes[a as usize].map(|x| x.background));
            if let Some(slot) = boxes[i].as_mut() {
                slot.background = inherited.unwrap_or(CANVAS);
            }
        }
    }
    Layout { boxes, viewport, page, fingerprint: crate::dom::layout::fingerprint(doc), render_ms: 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_map_boxes_and_backgrounds_inherit() {
        let doc = Document::parse("<body><div><p>x</p></div></body>");
        let div = (0..doc.len() as NodeId).find(|&i| doc.node(i).tag() == Some(crate::dom::Tag::Div)).unwrap();
        let p = div + 1;
        // Strings: 0 "data-pith", 1 div id, 2 p id, 3 "block", 4 "visible", 5 "16px", 6 "400",
        // 7 opaque grey, 8 transparent, 9 black, 10 "700".
        let json = serde_json::json!({
            "documents": [{
                "nodes": { "attributes": [[], [0, 1], [0, 2]] },
                "layout": {
                    "nodeIndex": [0, 1, 2],
                    "styles": [[3, 4, 5, 6, 8, 9], [3, 4, 5, 6, 7, 9], [3, 4, 5, 10, 8, 9]],
                    "bounds": [[0, 0, 800, 600], [10, 20, 300, 40], [10, 20, 300, 19]]
                },
                "contentWidth": 800, "contentHeight": 1200
            }],
            "strings": ["data-pith", div.to_string(), p.to_string(), "block", "visible", "16px", "400",
                        "rgb(200, 200, 200)", "rgba(0, 0, 0, 0)", "rgb(0, 0, 0)", "700"]
        });
        let snap: Captured = serde_json::from_value(json).unwrap();
        let layout = to_layout(&doc, &snap, (800.0, 600.0));
        assert!(layout.fits(&doc));
        assert_eq!(layout.page, (800.0, 1200.0));
        let d = layout.get(div).unwrap();
        assert_eq!(d.rect, Rect::new(10.0, 20.0, 300.0, 40.0));
        assert_eq!(d.background, 0xC8C8_C8FF);
        let pb = layout.get(p).unwrap();
        assert_eq!(pb.font_weight, 700);
        assert_eq!(pb.background, d.background, "transparent p shows the div's grey");
        assert!(layout.get(doc.body).is_none(), "unstamped nodes map to nothing");
    }
}

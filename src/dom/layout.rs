//! What a browser's layout tells the visual methods: every element's box and the few computed styles
//! they read, indexed by arena node id.
//!
//! This is the contract between the rendering component ([`crate::browser`], which drives a headless
//! browser) and the algorithms that need geometry (`vips`, `cehtd-ds`): the algorithms never see the
//! browser, and tests build a `Layout` by hand. A layout belongs to one arena; [`fingerprint`] ties it
//! to that arena so that a layout computed for one parse is never applied to another.

use crate::dom::{Document, NodeId};

/// An axis-aligned box in CSS pixels, page coordinates (origin at the top left of the document).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub const fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
    pub fn area(&self) -> f64 {
        f64::from(self.w.max(0.0)) * f64::from(self.h.max(0.0))
    }
    /// True when the box has no area (an element laid out but occupying no space).
    pub fn is_empty(&self) -> bool {
        self.w <= 0.0 || self.h <= 0.0
    }
    /// The smallest box holding both.
    pub fn union(&self, o: &Rect) -> Rect {
        let x = self.x.min(o.x);
        let y = self.y.min(o.y);
        Rect { x, y, w: self.right().max(o.right()) - x, h: self.bottom().max(o.bottom()) - y }
    }
}

/// The computed `display`, reduced to what the visual methods distinguish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Display {
    /// `inline`: flows with text, no line break of its own.
    #[default]
    Inline,
    /// `inline-block`, `inline-flex`, `inline-grid`, `inline-table`: a box in a line of text.
    InlineBlock,
    /// `block`, `flex`, `grid`, `flow-root`, `list-item` and the rest: starts a new line.
    Block,
    Table,
    TableRow,
    TableCell,
}

impl Display {
    /// Map a computed `display` value.
    pub fn from_css(v: &str) -> Display {
        match v {
            "inline" | "contents" | "ruby" | "ruby-text" => Display::Inline,
            "inline-block" | "inline-flex" | "inline-grid" | "inline-table" | "inline-flow-root" => {
                Display::InlineBlock
            }
            "table" => Display::Table,
            "table-row" | "table-row-group" | "table-header-group" | "table-footer-group" => Display::TableRow,
            "table-cell" => Display::TableCell,
            _ => Display::Block,
        }
    }
    /// True for boxes that flow within a line of text.
    pub fn is_inline(self) -> bool {
        matches!(self, Display::Inline | Display::InlineBlock)
    }
}

/// One rendered element.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ElementBox {
    pub rect: Rect,
    pub display: Display,
    /// False for `visibility: hidden` or `collapse` (laid out, not painted).
    pub visible: bool,
    /// Computed font size, CSS pixels.
    pub font_size: f32,
    /// Computed font weight (400 normal, 700 bold).
    pub font_weight: u16,
    /// The background a reader sees behind the element, RGBA: its own background colour, or, where that
    /// is transparent, the nearest ancestor's.
    pub background: u32,
    /// Text colour, RGBA.
    pub color: u32,
}

/// A page's layout.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// By node id: `None` for text nodes and for elements the browser did not lay out
    /// (`display: none`, or inside such an element).
    pub boxes: Vec<Option<ElementBox>>,
    /// Width and height of the viewport the page was laid out in.
    pub viewport: (f32, f32),
    /// The whole document's width and height.
    pub page: (f32, f32),
    /// [`fingerprint`] of the arena the ids refer to.
    pub fingerprint: u64,
    /// Milliseconds the browser took (serialisation, layout and snapshot).
    pub render_ms: f64,
}

impl Layout {
    /// The element's box, when it was laid out.
    pub fn get(&self, id: NodeId) -> Option<&ElementBox> {
        self.boxes.get(id as usize).and_then(Option::as_ref)
    }

    /// True when this layout was computed for `doc`.
    pub fn fits(&self, doc: &Document) -> bool {
        self.boxes.len() == doc.len() && self.fingerprint == fingerprint(doc)
    }
}

/// The arena identity a layout is tied to (defined with the arena, in the tree layer).
pub use crate::dom::fingerprint;

/// Parse a CSS colour as computed styles write it (`rgb(r, g, b)` or `rgba(r, g, b, a)`) into RGBA.
/// Anything else reads as transparent.
pub fn parse_color(v: &str) -> u32 {
    let inner =
        v.strip_prefix("rgba(").or_else(|| v.strip_prefix("rgb(")).and_then(|s| s.strip_suffix(')')).unwrap_or("");
    let mut parts = inner.split(',').map(str::trim);
    let mut channel = || parts.next().and_then(|p| p.parse::<f32>().ok());
    match (channel(), channel(), channel()) {
        (Some(r), Some(g), Some(b)) => {
            let a = channel().unwrap_or(1.0);
            let byte = |x: f32| x.round().clamp(0.0, 255.0) as u32;
            (byte(r) << 24) | (byte(g) << 16) | (byte(b) << 8) | byte(a * 255.0)
        }
        _ => 0,
    }
}

/// True when an RGBA colour lets what is behind it show through completely.
pub fn is_transparent(rgba: u32) -> bool {
    rgba & 0xFF == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_displays() {
        assert_eq!(parse_color("rgb(255, 0, 16)"), 0xFF00_10FF);
        assert_eq!(parse_color("rgba(0, 0, 0, 0)"), 0);
        assert!(is_transparent(parse_color("rgba(10, 20, 30, 0)")));
        assert!(!is_transparent(parse_color("rgba(10, 20, 30, 0.5)")));
        assert_eq!(parse_color("transparent"), 0);
        assert_eq!(Display::from_css("inline"), Display::Inline);
        assert_eq!(Display::from_css("flex"), Display::Block);
        assert_eq!(Display::from_css("table-cell"), Display::TableCell);
        assert!(Display::from_css("inline-block").is_inline());
    }

    #[test]
    fn fingerprint_follows_the_parse() {
        let a = Document::parse("<body><p>one</p><p>two</p></body>");
        let b = Document::parse("<body><p>one</p><p>two</p></body>");
        let c = Document::parse("<body><p>one</p><div>two</div></body>");
        assert_eq!(fingerprint(&a), fingerprint(&b));
        assert_ne!(fingerprint(&a), fingerprint(&c));
        let layout = Layout { boxes: vec![None; a.len()], fingerprint: fingerprint(&a), ..Layout::default() };
        assert!(layout.fits(&b));
        assert!(!layout.fits(&c));
    }
}

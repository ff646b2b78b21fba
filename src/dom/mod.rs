//! Stage 3: the parsed page as a flat arena in document order, with every node's statistics.
//!
//! html5ever parses into a light working tree (`tree`); `build` then copies it once into a `Vec<Node>`
//! numbered in preorder, so that a node's subtree is the id range `id..node.end`, a parent always has a smaller id
//! than its children, and the bottom-up statistics pass is one reverse loop: no recursion, so a page of
//! 100,000 nested `<div>`s cannot overflow the stack. Every algorithm reads these numbers; none re-parses.

mod build;
mod charref;
mod document;
pub mod layout;
mod self_closed;
mod serialize;
mod tag;
mod text;
mod tokenizer;
pub(crate) mod tree;

use html5ever::tendril::StrTendril;

pub use charref::decode_char_refs;
pub(crate) use document::Refs;
pub use document::{Document, DomLimits, Element, NONE, Node, NodeData, NodeId, Stats};
pub use serialize::{STAMP, fingerprint, parse_stamped, parse_without};
pub use tag::Tag;
pub use text::fold_ws;

/// Parse into scraper's tree (for CSS selectors: site rules) with the same settings as every other
/// parse ([`tree::parse_options`]; self-closed elements empty, as in `self_closed`).
pub fn parse_html(html: &str) -> scraper::Html {
    let tokenizer = tree::html5ever_tokenizer(scraper::HtmlTreeSink::new(scraper::Html::new_document()));
    let input = html5ever::buffer_queue::BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    tree::feed(&tokenizer, &input);
    tokenizer.end();
    html5ever::tree_builder::TreeSink::finish(tokenizer.sink.inner.sink)
}

/// Whether pith's tokenizer and html5ever's own build the same tree for `html`; `Err` names the first
/// node where they differ. Extraction always uses pith's; this is the check `tests/tokenizer.rs` and
/// `examples/html5lib_trees.rs` hold it to.
#[doc(hidden)]
pub fn tokenizers_agree(html: &str) -> Result<(), String> {
    // Unflattened: html5ever's own tokenizer knows no depth limit.
    let ours =
        tree::parse(StrTendril::from_slice(html), usize::MAX, u32::MAX).map_err(|_| "over budget".to_string())?;
    let reference =
        tree::parse_with_html5ever(StrTendril::from_slice(html), usize::MAX).map_err(|_| "over budget".to_string())?;
    let (a, b) = (tree::dump(&ours), tree::dump(&reference));
    if a == b {
        return Ok(());
    }
    let line = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(a.lines().count().min(b.lines().count()));
    let show = |d: &str| d.lines().skip(line.saturating_sub(2)).take(5).collect::<Vec<_>>().join("\n");
    Err(format!("trees differ at node line {line}\n  pith:\n{}\n  html5ever:\n{}", show(&a), show(&b)))
}

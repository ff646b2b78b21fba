//! Letting the page's buffer go once the parser's tree is built (see [`Tree::release_page`]).

use html5ever::tendril::StrTendril;

use super::{Data, Tree};

/// Texts and attribute values are moved into buffers of about this many bytes (see
/// [`Tree::release_page`]): the staging string's size, held beside the page and the copies.
const TEXT_CHUNK: usize = 16 * 1024;

/// A tendril of at most this many bytes keeps them inline, not as a view into the page.
const INLINE: usize = 8;

impl Tree {
    /// Let the page's buffer go: the tokenizer cuts texts and attribute values out of the page as views
    /// into its buffer, so the whole page (markup, attribute names, whitespace and all) stayed alive as
    /// long as the tree, beside the arena being built from it, at the extraction's peak. Every view longer
    /// than a tendril keeps inline is copied into buffers of exactly the pieces' length (a node's pieces
    /// in one, about [`TEXT_CHUNK`] bytes each), and the page's buffer is freed with the last view. The
    /// tree reads the same text before and after.
    pub(super) fn release_page(&mut self) {
        let total: usize = (0..self.nodes.len()).map(|node| self.long_pieces(node)).sum();
        // Until the last view is moved, the page and the copies are both held: worth it only when the
        // copies take less than the arena's room, which is reserved next, beside the tree (else the
        // moment of the move becomes the peak: pages of text and little markup).
        let arena = self.kept_bound.saturating_mul(std::mem::size_of::<crate::dom::Node>());
        if total == 0 || total >= arena {
            return;
        }
        let mut buf = String::with_capacity(total.min(TEXT_CHUNK));
        let mut first = 0;
        for node in 0..self.nodes.len() {
            let need = self.long_pieces(node);
            if need == 0 {
                continue;
            }
            if buf.len() + need > TEXT_CHUNK && !buf.is_empty() {
                self.move_pieces(first..node, &buf);
                buf.clear();
            }
            if buf.is_empty() {
                first = node;
                buf.reserve_exact(need);
            }
            match &self.nodes[node].data {
                Data::Text(s) => buf.push_str(s),
                Data::Element { attrs, .. } => {
                    for a in attrs.iter().filter(|a| a.value.len() > INLINE) {
                        buf.push_str(&a.value);
                    }
                }
                _ => {}
            }
        }
        if !buf.is_empty() {
            self.move_pieces(first..self.nodes.len(), &buf);
        }
    }

    /// Bytes of node `node`'s text or attribute values held as views into the page (longer than
    /// [`INLINE`]).
    fn long_pieces(&self, node: usize) -> usize {
        match &self.nodes[node].data {
            Data::Text(s) if s.len() > INLINE => s.len(),
            Data::Element { attrs, .. } => attrs.iter().map(|a| a.value.len()).filter(|&len| len > INLINE).sum(),
            _ => 0,
        }
    }

    /// Point the long pieces of `nodes` at one buffer holding `text`, their concatenation in order.
    fn move_pieces(&mut self, nodes: std::ops::Range<usize>, text: &str) {
        let all = StrTendril::from_slice(text);
        let mut at = 0u32;
        let mut view = |s: &mut StrTendril| {
            if s.len() > INLINE {
                let len = s.len() as u32;
                // Always in bounds and on character boundaries (the pieces were pushed in this order).
                if let Ok(moved) = all.try_subtendril(at, len) {
                    *s = moved;
                }
                at += len;
            }
        };
        for n in &mut self.nodes[nodes] {
            match &mut n.data {
                Data::Text(s) => view(s),
                Data::Element { attrs, .. } => attrs.iter_mut().for_each(|a| view(&mut a.value)),
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::tree;

    #[test]
    fn the_tree_lets_the_page_go_and_reads_the_same_text() {
        let html = "<div class='a-long-class-name'><p title='a title of some length'>A paragraph of some \
                    length.</p><p>x</p><ul><li><a href='/a/long/address'>a link of some length</a></li>\
                    <li><a href='/another/long/address'>another link</a></li></ul></div>"
            .repeat(20);
        let page = StrTendril::from(html.as_str());
        let range = page.as_ptr() as usize..page.as_ptr() as usize + page.len();
        let t = tree::parse(page.clone(), usize::MAX, u32::MAX).unwrap();
        let mut views = 0;
        for n in &t.nodes {
            let texts: Vec<&StrTendril> = match &n.data {
                Data::Text(s) => vec![s],
                Data::Element { attrs, .. } => attrs.iter().map(|a| &a.value).collect(),
                _ => Vec::new(),
            };
            for s in texts.into_iter().filter(|s| s.len() > INLINE) {
                assert!(!range.contains(&(s.as_ptr() as usize)), "{s:?} still points into the page");
                views += 1;
            }
        }
        assert!(views > 100);
        let reference = tree::parse_with_html5ever(StrTendril::from(html.as_str()), usize::MAX).unwrap();
        assert_eq!(tree::dump(&t), tree::dump(&reference));
    }
}

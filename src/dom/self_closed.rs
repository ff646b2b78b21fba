//! Self-closed elements read as empty: `<iframe src="…"/>`, `<div class="clear"/>`, `<i aria-hidden="true"/>`.
//!
//! The HTML standard ignores the `/` of a start tag outside SVG and MathML: `<div/>` opens a div
//! that holds the rest of its parent, `<a name="top"/>` a link around everything after it, and an
//! `<iframe/>` or `<script/>` swallows the page up to the next `</iframe>` or `</script>` as raw text.
//! Pages written as XHTML (or put through an XML serializer before they were stored) are full of such
//! tags, and the author's meaning is plain: an empty element. Read as the standard says, a forum
//! thread's posts end up inside an `aria-hidden` icon or inside an ad's iframe, and are gone; a
//! portal's article becomes one long link. Libxml2's HTML parser (behind lxml and the Python
//! extractors) reads them as empty, and so does pith: this adapter sits between the tokenizer and
//! html5ever's tree builder, and after a self-closed start tag of an element that is neither void nor
//! foreign it hands the builder the matching end tag. Every parse of a page goes through it (pith's
//! tokenizer, html5ever's own for the reference trees, and scraper's tree for site rules), so all
//! three build the same tree.

use html5ever::tokenizer::{Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{LocalName, local_name};

/// A token sink that closes self-closed elements, in front of `inner` (html5ever's tree builder).
pub(crate) struct EmptySelfClosed<S> {
    pub(crate) inner: S,
}

/// The elements html5ever's tree builder closes as soon as it makes them: the void elements, the
/// legacy ones it treats alike, and `image` (made as an `img`). Their `/` changes nothing.
pub(super) fn builder_closes(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("frame")
            | local_name!("hr")
            | local_name!("image")
            | local_name!("img")
            | local_name!("input")
            | local_name!("keygen")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
    )
}

/// Whether a self-closed start tag of `name` is closed at once: not one the builder closes itself
/// ([`builder_closes`]; `</br>` would read as a second `<br>`), not the document's own `html`, `head`
/// and `body` (their end tags change the builder's mode), and not `svg` or `math`, whose
/// self-closing the standard already honours.
fn closes(name: &LocalName) -> bool {
    !builder_closes(name)
        && !matches!(
            *name,
            local_name!("html") | local_name!("head") | local_name!("body") | local_name!("svg") | local_name!("math")
        )
}

impl<S: TokenSink> TokenSink for EmptySelfClosed<S> {
    type Handle = S::Handle;

    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<S::Handle> {
        match token {
            // Inside SVG or MathML the builder honours the `/` itself.
            Token::TagToken(tag)
                if tag.kind == TagKind::StartTag
                    && tag.self_closing
                    && closes(&tag.name)
                    && !self.inner.adjusted_current_node_present_but_not_in_html_namespace() =>
            {
                let end = Tag {
                    kind: TagKind::EndTag,
                    name: tag.name.clone(),
                    self_closing: false,
                    attrs: Vec::new(),
                    had_duplicate_attributes: false,
                };
                // The start tag may ask for raw or plain text (`<iframe/>`, `<title/>`,
                // `<plaintext/>`); the end tag ends that element at once, so the tokenizer is told
                // what the end tag answers.
                let _ = self.inner.process_token(Token::TagToken(tag), line);
                self.inner.process_token(Token::TagToken(end), line)
            }
            other => self.inner.process_token(other, line),
        }
    }

    fn end(&self) {
        self.inner.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.inner.adjusted_current_node_present_but_not_in_html_namespace()
    }
}

#[cfg(test)]
mod tests {
    use crate::dom::Document;
    use crate::dom::tree::{dump, parse, parse_with_html5ever};
    use html5ever::tendril::StrTendril;

    // (An unquoted value takes the `/` as its own, `<i x=true/>`, so the tags below quote theirs.)

    /// The page's text as the arena holds it (hidden elements left out), texts joined by `|`.
    fn texts(html: &str) -> String {
        let doc = Document::parse(html);
        (0..doc.len() as u32)
            .filter(|&i| doc.node(i).is_text())
            .map(|i| doc.text(i).trim())
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("|")
    }

    /// The tree of `html` as one line per node.
    fn tree(html: &str) -> String {
        parse(StrTendril::from_slice(html), usize::MAX, u32::MAX).map(|t| dump(&t)).unwrap_or_default()
    }

    #[test]
    fn a_self_closed_raw_text_element_swallows_nothing() {
        for tag in ["iframe", "script", "style", "textarea", "title", "noembed", "xmp", "plaintext"] {
            let html = format!("<body><{tag} src=\"/ad\"/><p>First post.</p><p>Second post.</p></body>");
            assert_eq!(texts(&html), "First post.|Second post.", "{tag}");
        }
    }

    #[test]
    fn a_self_closed_hidden_icon_hides_only_itself() {
        let html =
            "<body><label><i aria-hidden=\"true\"/>Search</label><div><p>The thread's first post.</p></div></body>";
        assert_eq!(texts(html), "Search|The thread's first post.");
        // Its siblings stay its siblings: the paragraph is not inside the icon, nor the page in a link.
        // The text is the icon's sibling (one depth), not its child.
        let t = tree(html);
        assert!(t.contains("aria-hidden=\"true\">\n    \"Search\""), "{t}");
        let linked = "<body><a name=\"top\"/><p>Plain text.</p></body>";
        let doc = Document::parse(linked);
        let p = (0..doc.len() as u32).find(|&i| doc.text(i) == "Plain text.").map(|i| doc.node(i).parent);
        assert!(p.is_some_and(|p| !doc.node(p).in_link), "the paragraph is no link");
    }

    #[test]
    fn void_and_foreign_elements_parse_as_the_standard_says() {
        // `<br/>` is one line break (a second `</br>` would make another), and inside SVG the builder
        // closes `<path/>` itself.
        for html in ["<body><p>a<br/>b</p></body>", "<body><svg><g><path d=M0/><rect/></g></svg><p>x</p></body>"] {
            let ours = tree(html);
            let reference =
                parse_with_html5ever(StrTendril::from_slice(html), usize::MAX).map(|t| dump(&t)).unwrap_or_default();
            assert_eq!(ours, reference);
        }
        assert_eq!(tree("<body><p>a<br/>b</p></body>").matches(" br").count(), 1);
        // A self-closed `<svg/>` is an empty SVG element either way, and what follows is HTML.
        assert_eq!(texts("<body><svg/><p>after</p></body>"), "after");
    }
}

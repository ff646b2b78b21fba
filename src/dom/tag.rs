//! The tags the algorithms treat specially, and what each is, in one table.
//!
//! Every tag appears once, in [`tags!`]'s list, with its name and its kinds: whether it starts a new
//! line of text ([`Tag::is_block`]: the renderer's line breaks and `auto`'s blocks), whether it encloses
//! a region of the page's layout ([`Tag::is_container`]: the Naive Bayes method's block tags), whether
//! it is a heading. Two lists of block tags kept apart drifted before; one table cannot.
//!
//! The order of the list is the order of the enum, and it is part of the trained models' inputs:
//! `auto` hashes `tag as u8` into element signatures and codes. Append new tags before `Other` only
//! with retrained models.

/// Starts a new line of text when rendered.
const LINE: u8 = 1;
/// Encloses a region of the page's layout.
const CONTAINER: u8 = 2;
/// A heading, `h1` to `h6`.
const HEADING: u8 = 4;

macro_rules! tags {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $kinds:expr;)*) => {
        /// Tags the algorithms treat specially. Everything else is `Other` (its name is still kept).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Tag {
            $($(#[$doc])* $variant,)*
            Other,
        }

        impl Tag {
            pub(crate) fn from_name(name: &str) -> Tag {
                match name {
                    $($name => Tag::$variant,)*
                    _ => Tag::Other,
                }
            }

            const fn kinds(self) -> u8 {
                match self {
                    $(Tag::$variant => $kinds,)*
                    Tag::Other => 0,
                }
            }
        }
    };
}

tags! {
    Html = "html", LINE;
    Head = "head", 0;
    Title = "title", 0;
    Body = "body", LINE | CONTAINER;
    Div = "div", LINE | CONTAINER;
    P = "p", LINE;
    A = "a", 0;
    Table = "table", LINE | CONTAINER;
    Tbody = "tbody", LINE | CONTAINER;
    Thead = "thead", LINE | CONTAINER;
    Tfoot = "tfoot", LINE | CONTAINER;
    Tr = "tr", LINE | CONTAINER;
    /// Cells sit side by side: they enclose a region but do not break the line.
    Td = "td", CONTAINER;
    Th = "th", CONTAINER;
    Ul = "ul", LINE | CONTAINER;
    Ol = "ol", LINE | CONTAINER;
    Li = "li", LINE;
    Dl = "dl", LINE | CONTAINER;
    Dt = "dt", LINE;
    Dd = "dd", LINE;
    H1 = "h1", LINE | HEADING;
    H2 = "h2", LINE | HEADING;
    H3 = "h3", LINE | HEADING;
    H4 = "h4", LINE | HEADING;
    H5 = "h5", LINE | HEADING;
    H6 = "h6", LINE | HEADING;
    Section = "section", LINE | CONTAINER;
    Article = "article", LINE | CONTAINER;
    Main = "main", LINE | CONTAINER;
    Aside = "aside", LINE | CONTAINER;
    Nav = "nav", LINE | CONTAINER;
    Header = "header", LINE | CONTAINER;
    Footer = "footer", LINE | CONTAINER;
    Span = "span", 0;
    Br = "br", LINE;
    Hr = "hr", LINE;
    Img = "img", 0;
    Pre = "pre", LINE;
    Code = "code", 0;
    Blockquote = "blockquote", LINE | CONTAINER;
    Figure = "figure", LINE;
    Figcaption = "figcaption", LINE;
    /// Many sites wrap the whole page in one form: a container, never noise by itself.
    Form = "form", LINE | CONTAINER;
    Label = "label", 0;
    Meta = "meta", 0;
    Center = "center", LINE | CONTAINER;
    Font = "font", 0;
    Caption = "caption", LINE;
    Address = "address", LINE;
    Details = "details", LINE;
    Summary = "summary", LINE;
    Time = "time", 0;
    /// Shown by browsers without JavaScript, and parsed as markup here (see `dom::tree::parse_options`).
    Noscript = "noscript", LINE | CONTAINER;
}

impl Tag {
    /// Elements that start a new line of text when rendered (and that make up `auto`'s blocks).
    pub fn is_block(self) -> bool {
        self.kinds() & LINE != 0
    }

    /// Elements that enclose a region of the page's layout: tables and their rows and cells,
    /// divisions, the sectioning elements, lists, quotes, forms. The Naive Bayes method (Wang et al.)
    /// blocks a page on these.
    pub fn is_container(self) -> bool {
        self.kinds() & CONTAINER != 0
    }

    pub fn is_heading(self) -> bool {
        self.kinds() & HEADING != 0
    }

    /// Void elements have no end tag in the source.
    pub(crate) fn is_void(name: &str) -> bool {
        matches!(
            name,
            "area"
                | "base"
                | "br"
                | "col"
                | "embed"
                | "hr"
                | "img"
                | "input"
                | "link"
                | "meta"
                | "source"
                | "track"
                | "wbr"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_kinds() {
        for (name, tag) in [("td", Tag::Td), ("h3", Tag::H3), ("time", Tag::Time), ("blink", Tag::Other)] {
            assert_eq!(Tag::from_name(name), tag);
        }
        assert!(Tag::P.is_block() && !Tag::P.is_container());
        assert!(Tag::Td.is_container() && !Tag::Td.is_block());
        assert!(Tag::Div.is_block() && Tag::Div.is_container());
        assert!(Tag::H6.is_heading() && !Tag::Header.is_heading());
        // The discriminants are model inputs: new tags go last, before `Other`.
        assert_eq!((Tag::Html as u8, Tag::Time as u8, Tag::Noscript as u8, Tag::Other as u8), (0, 51, 52, 53));
    }
}

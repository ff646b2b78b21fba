//! The hostile classes: for each, a generator that writes a page of a requested size built to make
//! one stage of an HTML extractor do more than linear work, or hold more than a small multiple of the
//! page in memory. Each generator repeats a small unit (numbered, so no two units are byte-identical
//! and nothing can be deduplicated) between a fixed prefix and suffix, and is deterministic: the same
//! class and size always give the same bytes.

use std::fmt::Write;

/// One hostile class: its name, what it attacks, and how to build it.
#[derive(Debug, Clone, Copy)]
pub struct Class {
    pub name: &'static str,
    /// What the page does and which stage it aims at.
    pub about: &'static str,
    prefix: &'static str,
    suffix: &'static str,
    /// The repeated unit, given its index.
    unit: fn(&mut String, usize),
}

impl Class {
    /// A page of about `bytes` bytes (never less than the prefix, suffix and one unit).
    pub fn generate(&self, bytes: usize) -> String {
        let mut out = String::with_capacity(bytes + 4096);
        out.push_str(self.prefix);
        let end = bytes.saturating_sub(self.suffix.len());
        let mut i = 0;
        while out.len() < end || i == 0 {
            (self.unit)(&mut out, i);
            i += 1;
        }
        out.push_str(self.suffix);
        out
    }
}

const HEAD: &str = "<!doctype html><html><head><meta charset=utf-8><title>Hostile page</title></head><body>";
const TAIL: &str = "</body></html>";
/// A paragraph of real prose, so that text-reading stages have words to chew on.
const PROSE: &str = "The committee met on Tuesday to discuss the budget, and agreed on a plan.";

/// Every class, in the order the reports list them.
pub const CLASSES: &[Class] = &[
    Class {
        name: "attributes-one",
        about: "one element with hundreds of thousands of attributes (duplicate checks in the tokenizer)",
        prefix: "<!doctype html><html><head><title>Hostile page</title></head><body><div",
        suffix: "><p>text</p></div></body></html>",
        unit: |s, i| {
            let _ = write!(s, " data-a{i}=\"v{i}\"");
        },
    },
    Class {
        name: "attributes-many",
        about: "every element with a thousand attributes",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            s.push_str("<p");
            for k in 0..1000 {
                let _ = write!(s, " a{k}=\"{i}\"");
            }
            let _ = write!(s, ">{PROSE} {i}</p>");
        },
    },
    Class {
        name: "attributes-merged",
        about: "repeated <html> and <body> start tags, each adding a new attribute to the one element",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<body data-b{i}=1><html data-h{i}=1>");
        },
    },
    Class {
        name: "classes",
        about: "long class lists full of layout words (nav, comment, footer, article...) on every element",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            s.push_str("<div class=\"");
            for w in ["nav", "comment", "footer", "article", "content", "sidebar", "post", "menu", "share", "related"] {
                let _ = write!(s, "{w}-{i} {w} ");
            }
            let _ = write!(s, "\" id=\"main-content-{i}\">{PROSE}</div>");
        },
    },
    Class {
        name: "nesting-blocks",
        about: "<div>s nested without end (the stack of open elements grows with the page)",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<div>{i}");
        },
    },
    Class {
        name: "nesting-inline",
        about: "inline elements nested without end: <span><em><small>...",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<span>w{i} <em>x <small>y ");
        },
    },
    Class {
        name: "nesting-lists",
        about: "lists nested in list items without end: <ul><li><ul><li>...",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<ul><li>item {i}");
        },
    },
    Class {
        name: "formatting-reopen",
        about: "thousands of formatting elements left open by a closed block, each reopened for every later paragraph",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<div>"),
        suffix: TAIL,
        unit: |s, i| match i {
            0..2000 => {
                let _ = write!(s, "<b id=b{i}>");
            }
            2000 => s.push_str("</div>"),
            _ => {
                let _ = write!(s, "<p>{i}</p>");
            }
        },
    },
    Class {
        name: "formatting-misnested",
        about: "misnested formatting and blocks (<a><div><a>, <b><p></b>) for the adoption agency",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<a href=/{i}><div><b>x{i}<p>y</b>z<a href=/b{i}>w</div>");
        },
    },
    Class {
        name: "implied-p",
        about: "unclosed paragraphs: each <p> closes the one before (many small elements)",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<p>{}", i % 10);
        },
    },
    Class {
        name: "implied-li",
        about: "unclosed <li>, <dt>, <dd> and <option> items (implied end tags)",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<ul><dl>"),
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<li>{i}<dt>t<dd>d");
        },
    },
    Class {
        name: "end-tags",
        about: "stray end tags: </p> makes an empty paragraph each time, </div> and </x> are ignored",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "</p></div></x{}></br>", i % 97);
        },
    },
    Class {
        name: "form-nested",
        about: "nested, unclosed form controls: <form><select><option><textarea><button>...",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<form><fieldset><label>f{i}<select><option>o{i}<button>b<input name=n{i}>");
        },
    },
    Class {
        name: "form-select",
        about: "unclosed <select>s, each a non-content element whose end tag never comes",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<select><option>{i}");
        },
    },
    Class {
        name: "table-foster",
        about: "content directly inside <table> (foster-parented before the table, one node at a time)",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<table>"),
        suffix: "</table></body></html>",
        unit: |s, i| {
            let _ = write!(s, "<div>{i}</div>x<b>y</b>");
        },
    },
    Class {
        name: "table-nested",
        about: "tables nested in cells without end: <table><tr><td><table>...",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<table><tr><td>{i}");
        },
    },
    Class {
        name: "table-cells",
        about: "one huge table of unclosed rows and cells",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<table>"),
        suffix: "</table></body></html>",
        unit: |s, i| {
            let _ = write!(s, "<tr><td>{i}<td>x<th>y");
        },
    },
    Class {
        name: "siblings-cards",
        about: "small link cards side by side (one element per few bytes, mostly links)",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<div class=card><a href=/p/{i}><img src=/i/{i}.jpg alt=p{i}>Item {i}</a></div>");
        },
    },
    Class {
        name: "siblings-names",
        about: "siblings that all have different (custom) element names",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<x-{i}>{i}</x-{i}>");
        },
    },
    Class {
        name: "siblings-breaks",
        about: "one line per <br> (line-based methods), in one block",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<div>"),
        suffix: "</div></body></html>",
        unit: |s, i| {
            let _ = write!(s, "line {i}<br>");
        },
    },
    Class {
        name: "siblings-headings",
        about: "headings and short paragraphs side by side",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<h2>Heading {i}</h2><p>{PROSE}</p>");
        },
    },
    Class {
        name: "text-run",
        about: "one text node of the whole page's size",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<p>"),
        suffix: "</p></body></html>",
        unit: |s, i| {
            let _ = write!(s, "{PROSE} {i} ");
        },
    },
    Class {
        name: "text-cjk",
        about: "one run of Chinese text without spaces or punctuation (one word per character)",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<p>"),
        suffix: "</p></body></html>",
        unit: |s, i| {
            s.push_str("农民培训技术推广新闻发布会城市交通建设");
            s.push(char::from_u32(0x4e00 + (i % 20000) as u32).unwrap_or('中'));
        },
    },
    Class {
        name: "entities",
        about: "character references back to back (named, decimal, hexadecimal, unterminated)",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<p>"),
        suffix: "</p></body></html>",
        unit: |s, i| {
            let _ = write!(s, "&amp;&#x4e2d;&#20013;&lt&nbsp;&#{};&notanentity;", 0x4e00 + i % 1000);
        },
    },
    Class {
        name: "long-attribute",
        about: "a link whose href (and title) is the whole page",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<p><a href=\"/"),
        suffix: "\">link</a> text</p></body></html>",
        unit: |s, i| {
            let _ = write!(s, "seg{i}/");
        },
    },
    Class {
        name: "title-huge",
        about: "a <title> as long as the page, never closed",
        prefix: "<!doctype html><html><head><title>",
        suffix: "",
        unit: |s, i| {
            let _ = write!(s, "{PROSE} {i} ");
        },
    },
    Class {
        name: "script-unclosed",
        about: "a <script> that never closes, after a little content",
        prefix: concat!("<!doctype html><html><head><title>Hostile page</title></head><body>", "<p>text</p><script>"),
        suffix: "",
        unit: |s, i| {
            let _ = writeln!(s, "var a{i} = '<p>' + \"</div>\" < {i};");
        },
    },
    Class {
        name: "raw-unclosed",
        about: "<noscript>, <iframe>, <svg> and <template> opened and never closed, over and over",
        prefix: HEAD,
        suffix: TAIL,
        unit: |s, i| {
            let _ = write!(s, "<noscript>{i}<iframe>x<svg><g>y<template>z");
        },
    },
    Class {
        name: "comments",
        about: "many comments and one that never closes",
        prefix: HEAD,
        suffix: "<!-- never closed <p>lost</p>",
        unit: |s, i| {
            let _ = write!(s, "<!-- c{i} --><p>{i}</p><!--x-->");
        },
    },
];

/// The class called `name`.
pub fn class(name: &str) -> Option<&'static Class> {
    CLASSES.iter().find(|c| c.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_is_sized_deterministic_and_named_once() {
        for c in CLASSES {
            let a = c.generate(20_000);
            assert!(a.len() >= 20_000 && a.len() < 40_000, "{}: {}", c.name, a.len());
            assert_eq!(a, c.generate(20_000), "{}", c.name);
            assert_eq!(CLASSES.iter().filter(|o| o.name == c.name).count(), 1);
        }
        assert!(class("implied-p").is_some() && class("nope").is_none());
    }
}

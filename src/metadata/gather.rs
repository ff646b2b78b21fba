//! Where one page's declarations are read: decided once, before pre-strip, by the one owner of the
//! concept, and carried through stages 2 and 3 by the engine.
//!
//! A page declares things about itself in two forms that pith reads: [`PageMeta`] (the Open Graph and
//! JSON-LD types and a publication time, read by byte searches of the decoded page: signals for the
//! algorithms) and [`Declarations`] (every `<meta>`, `<link rel>`, JSON-LD script, `<time>` and
//! microdata value: what the result's `metadata` object is read from). Pre-strip removes the
//! `<script>` elements that carry JSON-LD, so the declarations are read by whichever pass sees the page
//! whole at the least cost:
//!
//! | way | when | whose time |
//! |---|---|---|
//! | from the parser's tree | pre-strip passes the page through (JSON-LD kept) and the plain parse follows | the parse's |
//! | handlers inside pre-strip's lol_html pass | pre-strip runs its pass over the decoded page | pre-strip's |
//! | a pass of their own over the decoded page | pre-strip rewrote the page before its pass | metadata's |
//! | a pass of their own over the stripped page | passed through, but a site rule's or a layout's parse follows | metadata's |
//!
//! The tree walk costs a few instructions per node where a tokenizer pass of its own cost a few per
//! byte (on 15 l3s-gn1 pages it replaced 41 M instructions of a run's 465 M), hence the four ways.

use std::time::Instant;

use html5ever::tendril::StrTendril;

use super::declarations::{self, Declarations};
use super::page_meta::{self, PageMeta};
use super::scan::{self, Found};
use crate::dom::{Document, DomLimits};
use crate::error::Error;
use crate::text::prestrip::{Admitted, Observers};

/// What an extraction reads of the page's declarations.
#[derive(Debug, Clone, Copy, Default)]
pub struct Wanted {
    /// [`PageMeta`]: the algorithm reads the page's declared types.
    pub page_meta: bool,
    /// [`Declarations`]: the result's `metadata` object is built.
    pub declarations: bool,
}

/// Everything read: what the engine's prepared page carries.
#[derive(Debug, Clone, Default)]
pub struct Declared {
    /// Empty (all missing) unless [`Wanted::page_meta`].
    pub meta: PageMeta,
    /// `None` unless [`Wanted::declarations`].
    pub declarations: Option<Declarations>,
    /// The description of the one product the page declares in JSON-LD, in paragraphs (read only when
    /// the declarations are and the page declares a product; empty otherwise).
    pub product_description: Vec<String>,
}

/// Before and during pre-strip.
enum Way {
    Skip,
    InPrestrip(Found),
    Read(Declarations),
    FromTree,
    AfterPrestrip,
}

/// One page's reading of its declarations through stage 2 (not `Send`: pre-strip's observers share
/// what they collect with it).
pub struct Gathering {
    way: Way,
    meta: PageMeta,
}

/// The reading after stage 2, to be finished by the parse (owned and `Send`: a laid-out page crosses
/// threads between the two).
#[derive(Debug)]
pub struct Gathered {
    declarations: Option<Declarations>,
    /// Read them from the parser's tree.
    from_tree: bool,
    meta: PageMeta,
    /// Milliseconds of a scan of the stripped page after pre-strip.
    late_ms: f64,
}

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

impl Gathering {
    /// Before stage 2: read [`PageMeta`] from the decoded page, and choose the way the declarations
    /// will be read. `plain_parse` is true when stage 3 will be the plain parse (no site rule, no
    /// layout). The observers returned go into pre-strip's pass (empty unless that is the way).
    pub fn start(wanted: Wanted, decoded: &str, admitted: &Admitted<'_>, plain_parse: bool) -> (Gathering, Observers) {
        let meta = if wanted.page_meta { page_meta::scan(decoded) } else { PageMeta::default() };
        let passed_through = admitted.is_unchanged() && !admitted.runs_pass();
        let mut observers = Vec::new();
        let way = if !wanted.declarations {
            Way::Skip
        } else if passed_through {
            if plain_parse { Way::FromTree } else { Way::AfterPrestrip }
        } else if admitted.is_unchanged() {
            let (handlers, found) = scan::handlers(decoded);
            observers = handlers;
            Way::InPrestrip(found)
        } else {
            Way::Read(scan::scan(decoded))
        };
        (Gathering { way, meta }, observers)
    }

    /// After stage 2: collect what pre-strip's pass observed, or scan the stripped page when a parse
    /// other than the plain one follows.
    pub fn after_prestrip(self, stripped: &str) -> Gathered {
        let mut out = Gathered { declarations: None, from_tree: false, meta: self.meta, late_ms: 0.0 };
        match self.way {
            Way::Skip => {}
            Way::InPrestrip(found) => out.declarations = Some(found.finish()),
            Way::Read(d) => out.declarations = Some(d),
            Way::FromTree => out.from_tree = true,
            Way::AfterPrestrip => {
                let t = Instant::now();
                out.declarations = Some(scan::scan(stripped));
                out.late_ms = ms_since(t);
            }
        }
        out
    }
}

impl Gathered {
    /// Milliseconds spent scanning the stripped page after pre-strip (0 on every other way).
    pub fn ms_after_prestrip(&self) -> f64 {
        self.late_ms
    }

    /// Stage 3's plain parse, reading the declarations from the parser's tree when that is the way.
    pub fn parse(&mut self, html: StrTendril, limits: DomLimits) -> Result<Document, Error> {
        if self.from_tree {
            let (doc, found) = Document::parse_observed(html, limits, declarations::collect)?;
            self.declarations = Some(found);
            self.from_tree = false;
            Ok(doc)
        } else {
            Document::parse_tendril(html, limits)
        }
    }

    /// Once the page is parsed: everything read.
    pub fn finish(self) -> Declared {
        let product_description = match &self.declarations {
            Some(d) if self.meta.ld_product => super::product_description(d).unwrap_or_default(),
            _ => Vec::new(),
        };
        Declared { meta: self.meta, declarations: self.declarations, product_description }
    }
}

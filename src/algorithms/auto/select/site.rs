//! What the site repeats on its other pages (rule `site-template`): with a site's model learned from
//! its pages (`crate::site`), a chosen block that the site shows on its other pages, verbatim or only
//! by its shape, is the site's chrome (its menu, hot lists, `来源：X` lines, footer) and is left out.
//!
//! Every block gives the site model five keys, hashed:
//! - its *signature*: its structural path (the owner element and its ancestors: tag names with their
//!   `id` and `class`) and its text with whitespace removed and digits masked, so "12 comments" and
//!   "3 comments", or a date that changes daily, in the same place are the same block;
//! - its *place*: the path alone, runs of digits in ids and classes masked (`post-1234` is `post-0`);
//! - its *lead* and *tail*: the place with the text's first or last three characters, so a frame
//!   whose words change (`来源：中广网` / `来源：新华网`, `Photo: …`) recurs where its words do not;
//! - its *text* alone, wherever on the page it stands.
//!
//! A block whose signature recurs on every other page goes: copied verbatim onto every page of a site,
//! it is the site's. Which of the other recurrences make a block chrome is learned (`SiteModel`,
//! trained by `lab::train::site` on the developer sets' pages of sites with several pages), and the
//! model is asked only about blocks whose text recurs on half the site's other pages or more.

use crate::algorithms::auto::regions::PageRegions;
use crate::algorithms::auto::segment::{Blocks, block_owners, segment};
use crate::algorithms::auto::site_model::{SITE_ROW, SiteModel};
use crate::algorithms::contract::{PageType, SiteTemplateUse};

use super::unchoose::{partly_chosen, unchoose_block};
use crate::dom::{Document, NONE, NodeData, NodeId};
use crate::hash::{Fnv1a, IdMap};
use crate::site::{MIN_OTHER_PAGES, PageSignatures, SiteContext, SiteTemplate};

/// Whatever the site model says, a block is chrome when its signature appears on at least this share
/// of the site's other pages: all of them. Measured with site-grouped 3-fold cross-validation over the ten
/// developer sets (605 pages of sites with 3+ pages): at 1.0 mean LCS precision +0.004, F1 +0.002, no
/// page down by more than 0.05 F1; at 0.8 six pages lost more than 0.05 F1 and at 0.5 nine (one from
/// 0.57 to 0.03): the item cards several of a site's listing pages share went too. And on at least
/// [`MIN_OTHER_PAGES`] of them.
const RECUR_SHARE: f64 = 1.0;

/// The share of the site's other pages on which a block's text must recur (see [`asked`]). Chosen on
/// site-grouped 3-fold cross-validation over the fifteen developer sets, pages of sites with 3+
/// pages (`pith eval --cv 3 --site-context`): asking about every chosen block, 49 to 54 pages lost
/// more than 0.05 F1 (listing and collection cards, product pages); at 0.3, 6 pages and mean F1
/// +0.003; at 0.5, 3 or 4 pages and +0.004 to +0.005.
const ASKED_RECURRENCE: f32 = 0.5;

/// Row positions of the block's size and sentences, and of the recurrences [`asked`] reads.
const CHARS_LN: usize = 0;
const SENTENCES_LN: usize = 13;
const SAME_SIGNATURE: usize = 3;
const SAME_LEAD: usize = 5;
const SAME_TAIL: usize = 6;
const SAME_TEXT: usize = 7;

/// Characters of a block's text its lead and tail keys hold: enough for a label and its colon
/// (`来源：`, `By `), few enough that the words after it do not enter.
const FRAME_CHARS: usize = 3;

/// The kinds of key, in the order [`BlockKeys`] holds them.
const SIGNATURE: usize = 0;
const PLACE: usize = 1;
const LEAD: usize = 2;
const TAIL: usize = 3;
const TEXT: usize = 4;
const KINDS: usize = 5;

/// One block's keys (0: none, for a block without text's lead, tail and text).
type BlockKeys = [u64; KINDS];

/// What the site model reads of the page besides its blocks and the site.
pub(crate) struct PageView<'a> {
    regions: &'a PageRegions,
    is_article: bool,
    /// The page is judged a listing or a collection: its records are its content.
    is_records: bool,
    /// Characters of the chosen blocks.
    chosen_chars: u32,
}

impl<'a> PageView<'a> {
    /// The view of a page judged `is_article` and labelled `label`, whose choice is `chosen`.
    pub(crate) fn new(
        regions: &'a PageRegions,
        is_article: bool,
        label: Option<PageType>,
        blocks: &Blocks,
        chosen: &[bool],
    ) -> PageView<'a> {
        PageView {
            regions,
            is_article,
            is_records: matches!(label, Some(PageType::Listing | PageType::Collection)),
            chosen_chars: blocks.list.iter().filter(|b| partly_chosen(blocks, b, chosen)).map(|b| b.chars).sum(),
        }
    }
}

/// The hash that starts a key of kind `kind` at `place` (see [`keyed`]).
fn key_start(kind: usize, place: u64) -> Fnv1a {
    let mut h = Fnv1a::new();
    h.byte(kind as u8);
    h.bytes(place.to_le_bytes());
    h
}

/// A key of kind `kind` at `place` over `chars` (0 means "no key", so a key is never 0).
fn keyed(kind: usize, place: u64, chars: &[char]) -> u64 {
    let mut h = key_start(kind, place);
    let mut buf = [0u8; 4];
    for c in chars {
        h.bytes(c.encode_utf8(&mut buf).bytes());
    }
    h.finish().max(1)
}

/// A block's signature: its structural path's hash and its masked text's, hashed together (the text is
/// hashed once, for this key and the text key alike).
fn signature(path: u64, text: u64) -> u64 {
    let mut h = Fnv1a::new();
    h.bytes(path.to_le_bytes());
    h.bytes(text.to_le_bytes());
    h.finish()
}

/// Every block's keys, in the blocks' order. Each block's text is read once, whitespace left out and
/// digits masked, into every key that holds it at the same time: no copy of the text is made (this
/// runs on every page a service with site templates extracts, and on every page a site learns from).
fn block_keys(doc: &Document, blocks: &Blocks) -> Vec<BlockKeys> {
    let mut paths: IdMap<NodeId, (u64, u64)> = IdMap::default();
    blocks
        .list
        .iter()
        .map(|b| {
            let (path, place) = *paths.entry(b.owner).or_insert_with(|| path_hashes(doc, b.owner));
            let (mut lead, mut text) = (key_start(LEAD, place), key_start(TEXT, 0));
            // The last FRAME_CHARS characters, for the tail: character n at n % FRAME_CHARS.
            let mut last = ['\0'; FRAME_CHARS];
            let mut n = 0usize;
            let mut buf = [0u8; 4];
            for &t in blocks.texts_of(b) {
                for c in doc.text(t).chars().filter(|c| !c.is_whitespace()) {
                    let c = if c.is_ascii_digit() { '0' } else { c };
                    for byte in c.encode_utf8(&mut buf).bytes() {
                        text.byte(byte);
                        if n < FRAME_CHARS {
                            lead.byte(byte);
                        }
                    }
                    last[n % FRAME_CHARS] = c;
                    n += 1;
                }
            }
            let mut keys = [0; KINDS];
            keys[SIGNATURE] = signature(path, text.finish());
            keys[PLACE] = keyed(PLACE, place, &[]);
            if n > 0 {
                let mut tail = ['\0'; FRAME_CHARS];
                let m = n.min(FRAME_CHARS);
                for (slot, i) in tail.iter_mut().zip(n - m..n) {
                    *slot = last[i % FRAME_CHARS];
                }
                keys[LEAD] = lead.finish().max(1);
                keys[TAIL] = keyed(TAIL, place, &tail[..m]);
                keys[TEXT] = text.finish().max(1);
            }
            keys
        })
        .collect()
}

/// Every key of every block of a page, in the blocks' order: computed once a page, read by the rule
/// and by what the page teaches its site.
pub(crate) struct PageKeys(Vec<BlockKeys>);

impl PageKeys {
    /// The keys of `blocks`, the blocks of `doc` as `auto` cuts them.
    pub(crate) fn of(doc: &Document, blocks: &Blocks) -> PageKeys {
        PageKeys(block_keys(doc, blocks))
    }

    /// The page's signatures, for learning a site model: every key of every block.
    pub(crate) fn signatures(&self) -> PageSignatures {
        let in_order: Vec<u64> = self.0.iter().map(|k| k[SIGNATURE]).collect();
        let all: Vec<u64> = self.0.iter().flat_map(|k| k.iter().copied()).filter(|&k| k != 0).collect();
        PageSignatures::with_keys(&in_order, all)
    }
}

/// The page's signatures, for learning a site model: its blocks as `auto` cuts them, every key of
/// every block. (`auto` gives the same from its own blocks when its context asks, without cutting
/// the page again.)
pub fn page_signatures(doc: &Document) -> PageSignatures {
    let blocks = segment(doc, &block_owners(doc));
    PageKeys::of(doc, &blocks).signatures()
}

/// The element's path from the root (tag names with `id` and `class`), hashed twice: as written, and
/// with each run of digits in ids and classes masked as one.
fn path_hashes(doc: &Document, owner: NodeId) -> (u64, u64) {
    let (mut h, mut masked) = (Fnv1a::new(), Fnv1a::new());
    let mut n = owner;
    while n != NONE {
        let node = doc.node(n);
        if let NodeData::Element(e) = &node.data {
            for h in [&mut h, &mut masked] {
                h.bytes(e.name.as_bytes().iter().copied());
                h.byte(b'#');
            }
            if let Some(ic) = &e.id_class {
                h.bytes(ic.bytes());
                // A run of digits is one mark: `post-12` and `post-345` are one place.
                let mut last_digit = false;
                for b in ic.bytes() {
                    let digit = b.is_ascii_digit();
                    if !(digit && last_digit) {
                        masked.byte(if digit { b'0' } else { b });
                    }
                    last_digit = digit;
                }
            }
            h.byte(b'/');
            masked.byte(b'/');
        }
        n = node.parent;
    }
    (h.finish(), masked.finish())
}

/// The site model's row for block `k`.
fn site_row(
    blocks: &Blocks,
    k: usize,
    keys: &BlockKeys,
    site: &SiteContext<'_>,
    page: &PageView<'_>,
) -> [f32; SITE_ROW] {
    let b = &blocks.list[k];
    let others = site.other_pages().max(1) as f32;
    let top = page.regions.top_region_of(k).map(|r| &page.regions.regions[r as usize]);
    // A key on one other page does not recur: a block must be on [`MIN_OTHER_PAGES`] other pages to
    // be the site's, and a template done learning forgets the keys of one page, so counting them
    // would answer otherwise than while it learns (with two pages learned, an article's headline
    // that one page's hot list names stood at the place of the other's headline and went).
    let recur = |key: u64| match site.others_with(key) {
        n if key == 0 || n < MIN_OTHER_PAGES => 0.0,
        n => n as f32 / others,
    };
    let share = |a: u32, b: u32| if b == 0 { 0.0 } else { a as f32 / b as f32 };
    [
        (1.0 + b.chars as f32).ln(),
        share(b.link_chars, b.chars),
        (1.0 + site.other_pages() as f32).ln(),
        recur(keys[SIGNATURE]),
        recur(keys[PLACE]),
        recur(keys[LEAD]),
        recur(keys[TAIL]),
        recur(keys[TEXT]),
        k as f32 / blocks.list.len().max(1) as f32,
        f32::from(u8::from(page.is_article)),
        f32::from(u8::from(page.is_records)),
        f32::from(u8::from(page.regions.region_of(k).is_some())),
        f32::from(u8::from(page.regions.prose.is_some_and(|(a, b)| (a..=b).contains(&k)))),
        (1.0 + b.scan.sentence_ends as f32).ln(),
        share(b.punct, b.chars),
        f32::from(u8::from(b.in_list)),
        share(b.scan.cjk, b.chars),
        top.map_or(0.0, |r| (r.chars as f32 / page.chosen_chars.max(1) as f32).min(1.0)),
        top.map_or(0.0, |r| share(r.link_chars, r.chars)),
        top.map_or(0.0, |r| (1.0 + r.records as f32).ln()),
    ]
}

/// Whether the site model is asked about a block: its text recurs, whole or by its lead or tail, on
/// at least [`ASKED_RECURRENCE`] of the site's other pages. A block whose words recur nowhere (an
/// article's paragraph, a card's own title) is the page's own whatever its place: asking the model
/// about it only risks losing it. Its place alone does not count: every article paragraph of a site
/// recurs by place.
///
/// A paragraph of running text (a sentence end or more, [`PARAGRAPH_CHARS`] characters or more) is
/// asked about only when it recurs whole: its first or last three characters at its place recur on a
/// news site's every article page ("The …", "… said."), and a frame line is short.
fn asked(row: &[f32; SITE_ROW]) -> bool {
    let paragraph = row[SENTENCES_LN] >= 2f32.ln() && row[CHARS_LN] >= (1.0 + PARAGRAPH_CHARS).ln();
    let shaped = if paragraph { [0.0; 2] } else { [SAME_LEAD, SAME_TAIL].map(|i| row[i]) };
    let text = [row[SAME_SIGNATURE], row[SAME_TEXT], shaped[0], shaped[1]];
    text.into_iter().fold(0.0, f32::max) >= ASKED_RECURRENCE
}

/// The fewest characters of a block [`asked`] reads as a paragraph of running text.
const PARAGRAPH_CHARS: f32 = 80.0;

/// What the page's site knows of its keys (the page itself set aside when the site learned it).
fn page_in_site<'t>(keys: &[BlockKeys], template: &'t SiteTemplate) -> SiteContext<'t> {
    let in_order: Vec<u64> = keys.iter().map(|k| k[SIGNATURE]).collect();
    SiteContext::new(template, PageSignatures::digest_of(&in_order))
}

/// The site model's rows of every chosen block of a page with a site model behind it: the training
/// rows of [`SiteModel`], with each block's index. None when the site knows too few other pages.
pub(crate) fn chosen_rows(
    doc: &Document,
    blocks: &Blocks,
    chosen: &[bool],
    template: &SiteTemplate,
    page: &PageView<'_>,
) -> Vec<(usize, [f32; SITE_ROW])> {
    let keys = block_keys(doc, blocks);
    let site = page_in_site(&keys, template);
    if site.other_pages() < MIN_OTHER_PAGES as usize {
        return Vec::new();
    }
    (0..blocks.list.len())
        .filter(|&k| partly_chosen(blocks, &blocks.list[k], chosen))
        .map(|k| (k, site_row(blocks, k, &keys[k], &site, page)))
        .filter(|(_, row)| asked(row))
        .collect()
}

/// Unchoose the chosen blocks that are the site's: those whose signature recurs on every other page,
/// and those the site model (when trained) calls chrome. Nothing changes when that would
/// leave no chosen text (a duplicate page, a listing whose items all recur still answers with its main
/// region). Returns what the site model did (blocks removed: those with text) and whether any block
/// was unchosen. The rule runs last, after the page's own rules, so that what it reports removing is
/// what the answer would have had without it.
pub(super) fn drop_site_blocks(
    blocks: &Blocks,
    keys: &PageKeys,
    chosen: &mut [bool],
    template: &SiteTemplate,
    model: &SiteModel,
    page: &PageView<'_>,
) -> (SiteTemplateUse, bool) {
    let keys = &keys.0;
    let site = page_in_site(keys, template);
    let others = site.other_pages() as u32;
    let unchanged = SiteTemplateUse { pages: others, blocks_removed: 0 };
    if others < MIN_OTHER_PAGES {
        return (unchanged, false);
    }
    let candidates = (0..blocks.list.len()).filter(|&k| partly_chosen(blocks, &blocks.list[k], chosen));
    let needed = ((f64::from(others) * RECUR_SHARE).ceil() as u32).max(MIN_OTHER_PAGES);
    let going: Vec<usize> = candidates
        .filter(|&k| {
            site.others_with(keys[k][SIGNATURE]) >= needed || {
                model.is_trained() && {
                    let row = site_row(blocks, k, &keys[k], &site, page);
                    asked(&row) && model.is_chrome(&row)
                }
            }
        })
        .collect();
    let kept_elsewhere = blocks
        .list
        .iter()
        .enumerate()
        .any(|(k, b)| b.chars > 0 && partly_chosen(blocks, b, chosen) && going.binary_search(&k).is_err());
    if going.is_empty() || !kept_elsewhere {
        return (unchanged, false);
    }
    let mut removed = 0u32;
    for &k in &going {
        let b = &blocks.list[k];
        removed += u32::from(b.chars > 0);
        unchoose_block(blocks, b, chosen);
    }
    (SiteTemplateUse { pages: others, blocks_removed: removed }, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::SiteTemplate;

    /// The keys the slow way: each block's text copied out, whitespace removed and digits masked, and
    /// every key hashed from the copy.
    fn reference_keys(doc: &Document, blocks: &Blocks) -> Vec<BlockKeys> {
        blocks
            .list
            .iter()
            .map(|b| {
                let (path, place) = path_hashes(doc, b.owner);
                let chars: Vec<char> = blocks
                    .texts_of(b)
                    .iter()
                    .flat_map(|&t| doc.text(t).chars())
                    .filter(|c| !c.is_whitespace())
                    .map(|c| if c.is_ascii_digit() { '0' } else { c })
                    .collect();
                let mut text = key_start(TEXT, 0);
                let mut buf = [0u8; 4];
                for c in &chars {
                    text.bytes(c.encode_utf8(&mut buf).bytes());
                }
                let mut keys = [0; KINDS];
                keys[SIGNATURE] = signature(path, text.finish());
                keys[PLACE] = keyed(PLACE, place, &[]);
                if !chars.is_empty() {
                    let n = chars.len();
                    keys[LEAD] = keyed(LEAD, place, &chars[..n.min(FRAME_CHARS)]);
                    keys[TAIL] = keyed(TAIL, place, &chars[n.saturating_sub(FRAME_CHARS)..]);
                    keys[TEXT] = keyed(TEXT, 0, &chars);
                }
                keys
            })
            .collect()
    }

    #[test]
    fn keys_read_in_one_pass_are_the_keys_of_the_copied_text() {
        let html = "<body><div id=post-12><p>来源：新华网 2024-05-06</p><p>A <b>bold</b> 12 word\u{a0}line</p>\
                    <p>ab</p><p> x </p><p></p><ul><li>One 1</li><li>  Two   22  </li></ul>\
                    <p>\u{1F600} emoji 𝒳 and ünïcödé</p></div></body>";
        let (doc, blocks) = parse(html);
        assert!(blocks.list.len() >= 6);
        assert_eq!(block_keys(&doc, &blocks), reference_keys(&doc, &blocks));
    }

    fn page(article: &str) -> String {
        format!(
            "<html><body><ul class=menu><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
             <div class=main><h1>{article}</h1><p>{article} is the story of the day, told at length.</p></div>\
             <div class=footer><p>Copyright 2024 Example Site. 12 visitors online.</p></div></body></html>"
        )
    }

    fn parse(html: &str) -> (Document, Blocks) {
        let doc = Document::parse(html);
        let blocks = segment(&doc, &block_owners(&doc));
        (doc, blocks)
    }

    #[test]
    fn shared_blocks_go_and_the_page_own_stay() {
        let mut t = SiteTemplate::new();
        for a in ["Alpha", "Beta", "Gamma"] {
            let (doc, _) = parse(&page(a).replace("12 visitors", "47 visitors"));
            t.learn(&page_signatures(&doc));
        }
        let (doc, blocks) = parse(&page("Delta"));
        let mut chosen = vec![true; doc.len()];
        assert_eq!(
            drop_site_blocks(&blocks, &PageKeys::of(&doc, &blocks), &mut chosen, &t, &SiteModel::default(), &no_view()),
            (used(3, 3), true)
        );
        let kept: String = blocks
            .list
            .iter()
            .filter(|b| super::super::unchoose::wholly_chosen(&blocks, b, &chosen))
            .flat_map(|b| blocks.texts_of(b).iter().map(|&t| doc.text(t).to_string()))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(kept.contains("Delta is the story"), "{kept}");
        assert!(!kept.contains("Home") && !kept.contains("Copyright"), "{kept}");
    }

    #[test]
    fn a_page_whose_blocks_all_recur_is_left_whole() {
        let mut t = SiteTemplate::new();
        for a in ["Alpha", "Alpha2", "Alpha3"] {
            let (doc, _) = parse(&page("Same").replace("<ul", &format!("<p>{a}</p><ul")));
            t.learn(&page_signatures(&doc));
        }
        let (doc, blocks) = parse(&page("Same"));
        let mut chosen = vec![true; doc.len()];
        // "Alpha2" and "Alpha3" are one page once digits are masked: two pages learned.
        assert_eq!(
            drop_site_blocks(&blocks, &PageKeys::of(&doc, &blocks), &mut chosen, &t, &SiteModel::default(), &no_view()),
            (used(2, 0), false)
        );
        assert!(chosen.iter().all(|&c| c));
    }

    #[test]
    fn too_few_other_pages_change_nothing() {
        let mut t = SiteTemplate::new();
        let (doc, _) = parse(&page("Alpha"));
        t.learn(&page_signatures(&doc));
        let (doc, blocks) = parse(&page("Beta"));
        let mut chosen = vec![true; doc.len()];
        assert_eq!(
            drop_site_blocks(&blocks, &PageKeys::of(&doc, &blocks), &mut chosen, &t, &SiteModel::default(), &no_view()),
            (used(1, 0), false)
        );
    }

    #[test]
    fn a_frame_whose_words_change_keeps_its_place_and_lead() {
        let keys_of = |post: u32, source: &str| {
            let (doc, blocks) = parse(&format!(
                "<html><body><div id=post-{post}><p>来源：{source}</p><p>The story told at length.</p></div></body></html>"
            ));
            block_keys(&doc, &blocks)
        };
        let (a, b) = (keys_of(12, "新华网"), keys_of(345, "中广网"));
        assert_eq!((a[0][PLACE], a[0][LEAD]), (b[0][PLACE], b[0][LEAD]), "digits of ids masked, same label");
        assert_ne!(a[0][SIGNATURE], b[0][SIGNATURE]);
        assert_ne!(a[0][TAIL], b[0][TAIL]);
        assert_ne!(a[0][TEXT], b[0][TEXT]);
        assert_eq!(a[1][TEXT], b[1][TEXT], "the same text, wherever it stands");
        assert_ne!(a[0][PLACE], a[0][LEAD]);
    }

    #[test]
    fn the_recurrences_asked_about_are_where_the_model_reads_them() {
        use crate::algorithms::auto::SITE_FEATURES;
        let at = |i: usize| SITE_FEATURES[i];
        assert_eq!(
            [at(SAME_SIGNATURE), at(SAME_LEAD), at(SAME_TAIL), at(SAME_TEXT)],
            ["same_signature", "same_lead", "same_tail", "same_text"]
        );
        assert_eq!([at(CHARS_LN), at(SENTENCES_LN)], ["chars_ln", "sentences_ln"]);
    }

    #[test]
    fn a_paragraph_is_asked_about_when_it_recurs_whole_a_frame_line_by_its_lead() {
        // Rows of blocks whose first three characters recur at their place on every other page.
        let row = |chars: f32, sentence_ends: f32, same_text: f32| {
            let mut r = [0f32; SITE_ROW];
            r[CHARS_LN] = (1.0 + chars).ln();
            r[SENTENCES_LN] = (1.0 + sentence_ends).ln();
            r[SAME_LEAD] = 1.0;
            r[SAME_TEXT] = same_text;
            r
        };
        // "The announcement came as the minister was visiting the port, as part of a week's tour."
        assert!(!asked(&row(97.0, 1.0, 0.0)));
        // The same paragraph copied onto every page, a `来源：X` line, a short line with a full stop.
        assert!(asked(&row(97.0, 1.0, 1.0)));
        assert!(asked(&row(12.0, 0.0, 0.0)));
        assert!(asked(&row(40.0, 1.0, 0.0)));
    }

    #[test]
    fn a_template_done_learning_answers_as_one_still_learning() {
        // Three pages learned. A line the fourth page shares with two of them stands at its place on
        // one only: its place, lead and tail are keys of one other page, which compacting forgets.
        let side = |class: &str| format!("<div class={class}><p>Read more stories</p></div><div class=footer>");
        let mut t = SiteTemplate::new();
        for (a, class) in [("Alpha", Some("side")), ("Beta", Some("aside")), ("Gamma", None)] {
            let html = page(a);
            let html = class.map_or(html.clone(), |c| html.replace("<div class=footer>", &side(c)));
            let (doc, _) = parse(&html);
            t.learn(&page_signatures(&doc));
        }
        let mut done = t.clone();
        done.compact();
        let (doc, blocks) = parse(&page("Delta").replace("<div class=footer>", &side("side")));
        let chosen = vec![true; doc.len()];
        let rows = |t: &SiteTemplate| chosen_rows(&doc, &blocks, &chosen, t, &no_view());
        let line = blocks.list.iter().position(|b| doc.text(blocks.texts_of(b)[0]).contains("Read more"));
        assert!(rows(&t).iter().any(|(k, _)| Some(*k) == line), "the line recurs on two of three pages: asked");
        assert_eq!(rows(&t), rows(&done));
    }

    /// A page view for the untrained rule, which reads none of it.
    fn no_view() -> PageView<'static> {
        static REGIONS: std::sync::LazyLock<PageRegions> = std::sync::LazyLock::new(PageRegions::default);
        PageView { regions: &REGIONS, is_article: true, is_records: false, chosen_chars: 0 }
    }

    fn used(pages: u32, blocks_removed: u32) -> SiteTemplateUse {
        SiteTemplateUse { pages, blocks_removed }
    }
}

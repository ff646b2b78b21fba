//! The block features: what the block classifier weighs, each defined once with its name.
//!
//! Every block gets its own text measures, the tags and class/id words of its ancestors, every seed
//! method's verdict on it (composite text density and DensitySum, the P value, the Naive Bayes
//! posterior, the anchor ratio, the heuristic region), its neighbours' measures, where it stands
//! against the page's running text and how often its text recurs on the page, a few page-level
//! figures, and the page's kind ([`PAGE_KIND`]). A feature is a row of [`BASE`] or [`NEIGHBOUR`]: its
//! name and the function that computes it from a [`View`] of the block, side by side, so that a name
//! cannot drift from its value; the name groups, ancestor tags and page kind add one feature per
//! entry of their tables. The trained models name their
//! inputs, and a model whose names differ from [`feature_names`] is refused when it is loaded.
//!
//! Everything a feature reads is computed in a handful of linear passes over the arena before the
//! per-block loop; the functions themselves are arithmetic.

use super::block_measures::{core_distance, covered, repeats, running_text, share, signature, title_overlap};
use super::lexicon::NAME_GROUPS;
use super::name_flags::TAG_FLAGS;
use super::regions::{PageRegions, RegionFigures, side_of};
use super::segment::{Blocks, TextBlock};
use crate::algorithms::anchor_ratio::AnchorRatios;
use crate::algorithms::bayes::BayesBlocks;
use crate::algorithms::pvalue::PValues;
use crate::dom::{Document, NONE, Node, NodeId, Stats, Tag};
use crate::hash::IdMap;
use crate::text::words::WordSet;

/// A feature: its name, and its value for one block.
type Feature = (&'static str, fn(&View<'_>) -> f32);

/// The block's own measures, the seed methods' verdicts and the page's figures, in row order.
const BASE: &[Feature] = &[
    ("chars", |v| ln1(v.b.chars as f64)),
    ("words", |v| ln1(v.b.scan.words as f64)),
    ("chars_per_word", |v| share(v.b.chars, v.b.scan.words.max(1))),
    ("link_density", |v| share(v.b.link_chars, v.b.chars)),
    ("punct_density", |v| share(v.b.punct, v.b.chars)),
    ("sentence_ends", |v| ln1(v.b.scan.sentence_ends as f64)),
    ("terminal_end", |v| flag(v.b.scan.terminal_end)),
    ("upper_start", |v| flag(v.b.scan.upper_start)),
    ("cjk_share", |v| share(v.b.scan.cjk, v.b.chars)),
    ("digit_share", |v| share(v.b.scan.digits, v.b.chars)),
    ("text_nodes", |v| ln1(v.b.text_nodes as f64)),
    ("link_text_share", |v| share(v.b.link_text_nodes, v.b.text_nodes)),
    ("tag", |v| tag_code(v.owner.tag())),
    ("depth", |v| v.owner.depth.saturating_sub(v.page.body.depth) as f32),
    ("owner_chars", |v| ln1(v.owner.stats.chars as f64)),
    ("owner_link_density", |v| share(v.owner.stats.link_chars, v.owner.stats.chars)),
    ("parent_chars", |v| ln1(v.stats(v.parent).chars as f64)),
    ("parent_link_density", |v| share(v.stats(v.parent).link_chars, v.stats(v.parent).chars)),
    ("parent_children", |v| ln1(v.f.children as f64)),
    ("same_siblings", |v| ln1(v.f.same as f64)),
    ("container_chars", |v| ln1(v.stats(v.container).chars as f64)),
    ("container_link_density", |v| share(v.stats(v.container).link_chars, v.stats(v.container).chars)),
    ("ctd", |v| ln1(v.page.density[v.b.owner as usize])),
    ("ctd_parent", |v| ln1(v.page.density[v.parent as usize])),
    ("density_sum", |v| ln1(v.page.density_sum[v.b.owner as usize])),
    ("density_sum_parent", |v| ln1(v.page.density_sum[v.parent as usize])),
    ("cetd_marked", |v| flag(v.f.marked)),
    ("in_max_density_sum", |v| flag(v.page.doc.contains(v.page.fig.max_ds, v.first))),
    ("in_core", |v| flag(v.page.doc.contains(v.page.fig.core, v.first))),
    ("in_region", |v| flag(v.f.region)),
    ("region_keep", |v| v.page.fig.keep_of[v.k]),
    ("p_rel", |v| (v.page.p.p[v.b.owner as usize] / v.page.fig.best_p) as f32),
    ("in_max_p", |v| flag(v.page.doc.contains(v.page.p.best, v.first))),
    ("bayes_p", |v| v.f.nb),
    ("anchor_ratio", |v| v.f.anchor_ratio),
    ("position", |v| share(v.b.offset, v.page.fig.body_chars)),
    ("block_position", |v| v.k as f32 / v.page.fig.n.max(1) as f32),
    ("title_share", |v| v.f.title.0),
    ("title_cover", |v| v.f.title.1),
    ("page_chars", |v| ln1(v.page.fig.body_chars as f64)),
    ("page_link_density", |v| share(v.page.body.stats.link_chars, v.page.fig.body_chars)),
    ("page_blocks", |v| ln1(v.page.fig.n as f64)),
    ("region_share", |v| share(v.page.fig.region_chars, v.page.fig.body_chars)),
    ("block_share", |v| share(v.b.chars, v.page.fig.region_chars.max(1))),
    ("after_title", |v| v.page.fig.title_block.map_or(0.5, |t| flag(v.k >= t))),
    ("blocks_from_title", |v| v.page.fig.title_block.map_or(5.0, |t| ln1(v.k.abs_diff(t) as f64))),
    ("core_distance", |v| ln1(core_distance(v.page.doc, v.b.owner, v.page.fig.core) as f64)),
    ("boilerplate_cues", |v| ln1(v.b.scan.cues as f64)),
    ("dated", |v| flag(v.b.scan.dated)),
    ("parent_dated_share", |v| v.f.dated_share.0),
    ("grandparent_dated_share", |v| v.f.dated_share.1),
    ("running_before", |v| share(v.page.fig.running_before[v.k], v.page.fig.running_total)),
    ("running_after", |v| {
        let own = if running_text(v.b) { v.b.chars } else { 0 };
        ln1(f64::from(v.page.fig.running_total - v.page.fig.running_before[v.k] - own))
    }),
    ("repeats", |v| ln1(f64::from(v.f.repeats))),
];

/// The neighbours' measures, in row order after the name groups and the ancestor tags.
const NEIGHBOUR: &[Feature] = &[
    ("prev_chars", |v| v.chars_at(-1)),
    ("prev_link_density", |v| v.link_density_at(-1)),
    ("prev_keep", |v| v.keep_at(-1)),
    ("next_chars", |v| v.chars_at(1)),
    ("next_link_density", |v| v.link_density_at(1)),
    ("next_keep", |v| v.keep_at(1)),
    ("prev2_chars", |v| v.chars_at(-2)),
    ("next2_chars", |v| v.chars_at(2)),
    ("window_keep_share", |v| {
        let (lo, hi) = (v.k.saturating_sub(3), (v.k + 4).min(v.page.fig.n));
        v.page.fig.keep_of[lo..hi].iter().sum::<f32>() / (hi - lo) as f32
    }),
];

/// Where the block stands in the page's record regions (`regions`: runs of alike siblings, the cards
/// of a listing, the items of a feed, the posts of a thread) and against its longest run of prose, in
/// row order after the page's kind. Repeated structure is what a listing is, and what surrounds an
/// article: a block in a feed after the article's prose is chrome however well it reads.
const RECORD: &[Feature] = &[
    ("in_record", |v| flag(v.region.is_some())),
    ("record_region_records", |v| v.region.map_or(0.0, |(_, f)| ln1(f64::from(f.records)))),
    ("record_similarity", |v| v.region.map_or(0.0, |(_, f)| f.similarity)),
    ("record_siblings", |v| v.region.map_or(0.0, |(_, f)| f32::from(f.k))),
    ("record_link_share", |v| v.region.map_or(0.0, |(_, f)| share(f.link_chars, f.chars))),
    ("record_mean_chars", |v| v.region.map_or(0.0, |(_, f)| ln1(f64::from(f.chars / f.records.max(1))))),
    ("record_region_share", |v| v.region.map_or(0.0, |(_, f)| share(f.chars, v.page.fig.body_chars))),
    ("record_dated_share", |v| v.region.map_or(0.0, |(_, f)| share(f.dated, f.records))),
    ("record_priced_share", |v| v.region.map_or(0.0, |(_, f)| share(f.priced, f.records))),
    ("record_top", |v| v.region.map_or(0.0, |(_, f)| flag(f.top))),
    ("record_first", |v| v.record_place.map_or(0.0, |p| flag(p == 0))),
    ("record_place", |v| v.record_place.map_or(0.0, |p| ln1(f64::from(p)))),
    ("record_block_share", |v| v.record_chars.map_or(0.0, |c| share(v.b.chars, c))),
    ("record_against_prose", |v| v.region.map_or(0.0, |(_, f)| f32::from(f.against(v.page.regions.prose)))),
    ("in_prose_run", |v| v.page.regions.prose.map_or(0.0, |(a, b)| flag((a..=b).contains(&v.k)))),
    ("against_prose_run", |v| f32::from(side_of((v.k, v.k), v.page.regions.prose))),
];

/// Owner tag codes the trees can split on.
fn tag_code(t: Option<Tag>) -> f32 {
    use Tag::*;
    match t {
        Some(P) => 1.0,
        Some(Div) => 2.0,
        Some(Li) => 3.0,
        Some(Td | Th) => 4.0,
        Some(H1) => 5.0,
        Some(H2 | H3) => 6.0,
        Some(H4 | H5 | H6) => 7.0,
        Some(Pre) => 8.0,
        Some(Blockquote) => 9.0,
        Some(Dd | Dt) => 10.0,
        Some(Figcaption | Caption) => 11.0,
        Some(Section | Article | Main) => 12.0,
        Some(Body) => 13.0,
        Some(Header | Footer | Nav | Aside) => 14.0,
        Some(Tr | Table | Tbody | Thead | Tfoot) => 15.0,
        _ => 0.0,
    }
}

/// What kind of page holds the block, the same for every block of a page: a block feature's name
/// and the page signal it copies ([`super::page_type::dom_signals`], or the declared types). A key /
/// value row is a product's specification or a menu, a short dated block a reply or a teaser, and
/// which it is depends on the page around it.
const PAGE_KIND: &[(&str, &str)] = &[
    ("page_code_share", "code_share"),
    ("page_code_blocks", "code_blocks"),
    ("page_forms", "forms"),
    ("page_list_items", "list_items"),
    ("page_table_rows", "table_rows"),
    ("page_post_units", "post_units"),
    ("page_cart_texts", "cart_texts"),
    ("page_contact_texts", "contact_texts"),
    ("page_pagination_links", "pagination_links"),
    ("page_ld_forum", "ld_forum"),
    ("page_ld_docs", "ld_docs"),
    ("page_ld_service", "ld_service"),
    ("page_ld_product", "ld_product"),
    ("page_ld_article", "ld_article"),
    ("page_ld_listing", "ld_listing"),
    ("page_record_text_share", "record_text_share"),
    ("page_record_after_prose_share", "record_after_prose_share"),
];

/// The page signals [`page_kind`] reads by name (the declarations it reads itself aside): each must
/// be one the pipeline writes (`page_signals` checks).
#[cfg(test)]
pub(super) fn page_kind_signals() -> impl Iterator<Item = &'static str> {
    PAGE_KIND.iter().map(|f| f.1).filter(|s| !matches!(*s, "ld_product" | "ld_article" | "ld_listing"))
}

/// The [`PAGE_KIND`] values of a page, in that order, from its page signals and its declarations.
pub fn page_kind(signals: &[(&str, f64)], meta: &crate::metadata::page_meta::PageMeta) -> Vec<f32> {
    use crate::metadata::page_meta::OgType;
    PAGE_KIND
        .iter()
        .map(|(_, s)| match *s {
            "ld_product" => flag(meta.ld_product || meta.og_type == OgType::Product),
            "ld_article" => flag(meta.ld_article || meta.og_type == OgType::Article),
            "ld_listing" => flag(meta.ld_listing),
            _ => signals.iter().find(|(n, _)| n == s).map_or(0.0, |x| x.1 as f32),
        })
        .collect()
}

/// Names of the block features, in the order `features` writes them: the block's own measures and
/// the seed methods' verdicts, the name groups, the ancestor tags, the neighbours' measures, the
/// page's kind.
pub fn feature_names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = BASE.iter().map(|f| f.0).collect();
    v.extend(NAME_GROUPS.iter().map(|(n, _)| *n));
    v.extend(TAG_FLAGS.iter().map(|(n, _)| *n));
    v.extend(NEIGHBOUR.iter().map(|f| f.0));
    v.extend(PAGE_KIND.iter().map(|f| f.0));
    v.extend(RECORD.iter().map(|f| f.0));
    v
}

/// Where the feature `name` sits in a row.
pub fn feature_index(name: &str) -> Option<usize> {
    feature_names().iter().position(|n| *n == name)
}

/// What the page-level passes ([`figures`]) read besides the page: the seed methods' published
/// measures and the heuristic region. The measures a row reads per node (densities, P values) and the
/// record regions are the page's own, given to [`Rows::new`].
pub struct Inputs<'a> {
    /// The CETD-marked nodes and the max-DensitySum node (from
    /// [`crate::algorithms::cetd::DensitySumRun`]).
    pub marked: &'a [NodeId],
    pub max_ds: NodeId,
    /// The heuristic region's core, the region, and the region after pruning (subtree roots and loose
    /// text nodes).
    pub core: NodeId,
    pub region: &'a [NodeId],
    pub keep: &'a [NodeId],
    pub p: &'a PValues,
    pub bayes: &'a BayesBlocks,
    pub anchor_ratios: &'a AnchorRatios<'a>,
    pub title_words: &'a WordSet,
    /// The page's kind ([`page_kind`]), one value per [`PAGE_KIND`] entry.
    pub page_kind: &'a [f32],
    /// Per node, the name groups and tags of it and its ancestors ([`NameFlags::inherited`]).
    pub flags: &'a [u64],
}

/// What the page-level passes computed for the feature rows, once per page: the page's own figures
/// and every block's share of them. The page's measures keep these rather than the rows themselves:
/// a row is written from them when it is read ([`Rows::columns`]), a batch of rows at a time, so a
/// page of a hundred thousand blocks never holds every row at once (the rows of such a page were
/// most of its peak memory: a hundred and fifty values per block against this one small record).
pub struct Figures {
    n: usize,
    body_chars: u32,
    region_chars: u32,
    /// The page's P, kept off zero (the block's P is divided by it).
    best_p: f64,
    /// The max-DensitySum node and the heuristic region's core.
    max_ds: NodeId,
    core: NodeId,
    /// The headline: the first block that holds most of the title's words.
    title_block: Option<usize>,
    /// Per block: characters of running text ([`running_text`]) in the blocks before it; and the page's
    /// total. Chrome gathers after an article's last paragraph (subscription and app prompts, copyright
    /// lines, teaser feeds) in every language, so where a block stands against the running text says
    /// more than its words.
    running_before: Vec<u32>,
    running_total: u32,
    /// Per block: its first text node is in the pruned region (1) or not (0).
    keep_of: Vec<f32>,
    /// The page's kind ([`page_kind`]), one value per [`PAGE_KIND`] entry.
    page_kind: Vec<f32>,
    each: Vec<BlockFigures>,
}

impl Figures {
    /// Per block: its first text node is in the pruned region (1) or not (0), the `region_keep`
    /// feature.
    pub fn region_keep(&self) -> &[f32] {
        &self.keep_of
    }
}

/// One block's share of the page-level passes.
#[derive(Debug, Clone, Copy)]
struct BlockFigures {
    /// The name groups and tags of the owner and its ancestors ([`NameFlags::inherited`]).
    flags: u64,
    /// Share of the title's words in the block, and share of its words that are title words.
    title: (f32, f32),
    /// Share of dated blocks under the owner's parent and under its grandparent.
    dated_share: (f32, f32),
    /// The Naive Bayes posterior of the first text node's block, through the paper's own blocking.
    nb: f32,
    /// AR of the anchor-ratio paper's XPath block around the owner.
    anchor_ratio: f32,
    /// The parent's element children, and how many of them have the owner's signature (repeats).
    children: u32,
    same: u32,
    /// How many other blocks of the page hold the same text (menus printed twice, a teaser's headline
    /// in a feed and a sidebar, "share" labels beside every post).
    repeats: u32,
    /// The first text node is inside a CETD-marked subtree, inside the region.
    marked: bool,
    region: bool,
}

/// Everything a block's row reads: the page, its blocks, the [`Figures`] and the measures kept beside
/// them.
pub struct Rows<'a> {
    doc: &'a Document,
    blocks: &'a Blocks,
    fig: &'a Figures,
    body: &'a Node,
    /// Composite text density and DensitySum per node.
    density: &'a [f64],
    density_sum: &'a [f64],
    p: &'a PValues,
    /// The record regions and the longest prose run.
    regions: &'a PageRegions,
}

/// One block as its features see it: the block, the nodes around it and what was measured for it.
pub struct View<'a> {
    page: &'a Rows<'a>,
    k: usize,
    b: &'a TextBlock,
    f: &'a BlockFigures,
    /// The block's first text node, and its owner element.
    first: NodeId,
    owner: &'a Node,
    /// The owner's parent (the owner itself at `<body>`).
    parent: NodeId,
    /// The nearest ancestor holding at least three times the block's text.
    container: NodeId,
    /// The region of the block's innermost record, its place among the records, and its characters.
    region: Option<(u32, &'a RegionFigures)>,
    record_place: Option<u32>,
    record_chars: Option<u32>,
}

impl View<'_> {
    fn stats(&self, node: NodeId) -> Stats {
        self.page.doc.node(node).stats
    }

    fn neighbour(&self, j: isize) -> Option<&TextBlock> {
        let j = self.k as isize + j;
        (j >= 0 && (j as usize) < self.page.fig.n).then(|| &self.page.blocks.list[j as usize])
    }

    fn chars_at(&self, j: isize) -> f32 {
        self.neighbour(j).map_or(0.0, |o| ln1(o.chars as f64))
    }

    fn link_density_at(&self, j: isize) -> f32 {
        self.neighbour(j).map_or(0.0, |o| share(o.link_chars, o.chars))
    }

    fn keep_at(&self, j: isize) -> f32 {
        let j = self.k as isize + j;
        if j >= 0 && (j as usize) < self.page.fig.n { self.page.fig.keep_of[j as usize] } else { 0.0 }
    }
}

/// `ln(1 + x)` of every whole number below its length, computed once. Most features are logarithms of
/// counts, a dozen per block, and libm's `ln` was 1.3% of `auto`'s instructions; the table gives the
/// very same values.
static LN1: std::sync::LazyLock<Vec<f32>> =
    std::sync::LazyLock::new(|| (0..4096u32).map(|i| (1.0 + f64::from(i)).ln() as f32).collect());

fn ln1(x: f64) -> f32 {
    let x = x.max(0.0);
    match LN1.get(x as usize) {
        Some(&v) if x == x.trunc() => v,
        _ => (1.0 + x).ln() as f32,
    }
}

fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

/// How many features a row has ([`feature_names`]'s length).
const WIDTH: usize =
    BASE.len() + NAME_GROUPS.len() + TAG_FLAGS.len() + NEIGHBOUR.len() + PAGE_KIND.len() + RECORD.len();

/// The page-level passes the feature rows read, every block's share of them kept ([`Figures`]).
pub fn figures(doc: &Document, blocks: &Blocks, inp: &Inputs<'_>) -> Figures {
    let keep = covered(doc, inp.keep);
    let marked = covered(doc, inp.marked);
    let region = covered(doc, inp.region);
    let mut nb = vec![0f32; doc.len()];
    for (b, &pr) in inp.bayes.blocks.iter().zip(&inp.bayes.theme) {
        let pr = pr as f32;
        for &t in &b.texts {
            nb[t as usize] = pr;
        }
    }
    let n = blocks.list.len();
    // Title overlap of headline candidates only: short, and not mostly link text (menus and teaser
    // lists are many and would cost a tokenisation each).
    let titles: Vec<(f32, f32)> = blocks
        .list
        .iter()
        .map(|b| {
            if b.chars <= 300 && b.link_chars * 2 <= b.chars && !inp.title_words.is_empty() {
                title_overlap(doc, blocks.texts_of(b), inp.title_words)
            } else {
                (0.0, 0.0)
            }
        })
        .collect();
    // Share of dated blocks among the blocks under the same parent (and grandparent) of their owner:
    // comment threads and teaser lists stamp every entry, articles once.
    let mut dated_groups: IdMap<NodeId, (u32, u32)> = IdMap::default();
    let up = |o: NodeId| if o == doc.body || doc.node(o).parent == NONE { o } else { doc.node(o).parent };
    for b in &blocks.list {
        let p = up(b.owner);
        for g in [p, up(p)] {
            let e = dated_groups.entry(g).or_default();
            e.0 += u32::from(b.scan.dated);
            e.1 += 1;
        }
    }
    let dated_share = |g: NodeId| dated_groups.get(&g).map_or(0.0, |e| share(e.0, e.1));
    let mut running_before = Vec::with_capacity(n);
    let mut running_total = 0u32;
    for b in &blocks.list {
        running_before.push(running_total);
        if running_text(b) {
            running_total += b.chars;
        }
    }
    let repeats = repeats(doc, blocks);
    // Per parent: its element children, and how many share each signature (counted once per parent,
    // so a parent of a hundred thousand children costs a hundred thousand steps, not their square).
    let mut sibling_sigs: IdMap<NodeId, (u32, IdMap<u64, u32>)> = IdMap::default();
    let each = blocks
        .list
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let parent = parent_of(doc, b.owner);
            let (children, same) = if parent == b.owner {
                (0, 0)
            } else {
                let (kids, counts) = sibling_sigs.entry(parent).or_insert_with(|| {
                    let mut counts: IdMap<u64, u32> = IdMap::default();
                    let mut kids = 0;
                    for c in doc.children(parent).filter(|&c| !doc.node(c).is_text()) {
                        *counts.entry(signature(doc, c)).or_default() += 1;
                        kids += 1;
                    }
                    (kids, counts)
                });
                (*kids, counts.get(&signature(doc, b.owner)).copied().unwrap_or(0))
            };
            let first = blocks.texts[b.first as usize] as usize;
            BlockFigures {
                flags: inp.flags[b.owner as usize],
                title: titles[k],
                dated_share: (dated_share(up(b.owner)), dated_share(up(up(b.owner)))),
                nb: nb[first],
                anchor_ratio: inp.anchor_ratios.ratio(inp.anchor_ratios.xpath_block(b.owner)) as f32,
                children,
                same,
                repeats: repeats[k],
                marked: marked[first],
                region: region[first],
            }
        })
        .collect();
    Figures {
        n,
        body_chars: doc.node(doc.body).stats.chars,
        region_chars: inp.region.iter().map(|&r| doc.node(r).stats.chars).sum(),
        best_p: inp.p.page().max(1e-9),
        max_ds: inp.max_ds,
        core: inp.core,
        title_block: titles.iter().position(|t| t.0 >= 0.5),
        running_before,
        running_total,
        keep_of: blocks.list.iter().map(|b| flag(keep[blocks.texts[b.first as usize] as usize])).collect(),
        page_kind: inp.page_kind.to_vec(),
        each,
    }
}

/// The owner's parent, or the owner itself at `<body>` and at the root.
fn parent_of(doc: &Document, owner: NodeId) -> NodeId {
    let parent = doc.node(owner).parent;
    if parent == NONE || owner == doc.body { owner } else { parent }
}

impl<'a> Rows<'a> {
    /// The rows of `blocks`, from the page's figures and its measures: composite text density and
    /// DensitySum per node, the P values, the record regions.
    pub fn new(
        doc: &'a Document,
        blocks: &'a Blocks,
        fig: &'a Figures,
        density: &'a [f64],
        density_sum: &'a [f64],
        p: &'a PValues,
        regions: &'a PageRegions,
    ) -> Rows<'a> {
        Rows { doc, blocks, fig, body: doc.node(doc.body), density, density_sum, p, regions }
    }

    /// The features of the blocks `rows` (indices into the page's blocks), feature-major: feature `f`
    /// of the `j`-th of `m` rows at `f·m + j`, as the classifier's trees read them, with room for
    /// `extra_columns` more columns after (the classifier's context columns). Written so directly: a
    /// row-major copy transposed afterwards was a second buffer of the same size beside it, and a pass
    /// of its own. A row depends on its block and the page alone, never on the other rows asked for.
    pub fn columns(&self, rows: impl ExactSizeIterator<Item = usize>, extra_columns: usize) -> Vec<f32> {
        let (doc, blocks, fig) = (self.doc, self.blocks, self.fig);
        let m = rows.len();
        let mut columns = Vec::with_capacity(m * (WIDTH + extra_columns));
        columns.resize(m * WIDTH, 0f32);
        // Rows are gathered [`CHUNK_ROWS`] at a time and written out feature by feature, a cache line of
        // each column at once: written one row at a time, each value landed on a line of its own,
        // `WIDTH` lines per row, and the block's own reads evicted them before the next row came
        // (cachegrind: a third of `auto`'s first-level write misses).
        let mut chunk = [[0f32; WIDTH]; CHUNK_ROWS];
        let flush = |columns: &mut [f32], chunk: &[[f32; WIDTH]; CHUNK_ROWS], first: usize, n: usize| {
            for f in 0..WIDTH {
                for (i, r) in chunk[..n].iter().enumerate() {
                    columns[f * m + first + i] = r[f];
                }
            }
        };
        for (j, k) in rows.enumerate() {
            let row = &mut chunk[j % CHUNK_ROWS];
            let b = &blocks.list[k];
            let owner = doc.node(b.owner);
            let parent = parent_of(doc, b.owner);
            let mut container = parent;
            while container != doc.body && doc.node(container).stats.chars < 3 * b.chars.max(1) {
                let up = doc.node(container).parent;
                if up == NONE {
                    break;
                }
                container = up;
            }
            let regions = self.regions;
            let view = View {
                page: self,
                k,
                b,
                f: &fig.each[k],
                first: blocks.texts[b.first as usize],
                owner,
                parent,
                container,
                region: regions.region_of(k),
                record_place: regions.record_of[k].map(|r| regions.place[r as usize]),
                record_chars: regions.record_of[k].map(|r| regions.records.records[r as usize].chars),
            };
            row.fill(0.0);
            let (base, rest) = row.split_at_mut(BASE.len());
            for (slot, (_, value)) in base.iter_mut().zip(BASE) {
                *slot = value(&view);
            }
            let fl = view.f.flags;
            let (groups, rest) = rest.split_at_mut(NAME_GROUPS.len());
            for (g, slot) in groups.iter_mut().enumerate() {
                *slot = ((fl >> g) & 1) as f32;
            }
            let (tags, neighbours) = rest.split_at_mut(TAG_FLAGS.len());
            for (t, slot) in tags.iter_mut().enumerate() {
                *slot = ((fl >> (32 + t)) & 1) as f32;
            }
            let (neighbours, kind) = neighbours.split_at_mut(NEIGHBOUR.len());
            for (slot, (_, value)) in neighbours.iter_mut().zip(NEIGHBOUR) {
                *slot = value(&view);
            }
            let (kind, record) = kind.split_at_mut(PAGE_KIND.len());
            for (slot, &value) in kind.iter_mut().zip(&fig.page_kind) {
                *slot = value;
            }
            for (slot, (_, value)) in record.iter_mut().zip(RECORD) {
                *slot = value(&view);
            }
            if j % CHUNK_ROWS == CHUNK_ROWS - 1 {
                flush(&mut columns, &chunk, j + 1 - CHUNK_ROWS, CHUNK_ROWS);
            }
        }
        if !m.is_multiple_of(CHUNK_ROWS) {
            flush(&mut columns, &chunk, m - m % CHUNK_ROWS, m % CHUNK_ROWS);
        }
        columns
    }
}

/// Rows [`Rows::columns`] gathers before writing them out: sixteen `f32`s fill a cache line.
const CHUNK_ROWS: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_rows_are_as_wide_as_the_names() {
        let names = feature_names();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "a feature name is used twice");
        assert_eq!(
            names.len(),
            BASE.len() + NAME_GROUPS.len() + TAG_FLAGS.len() + NEIGHBOUR.len() + PAGE_KIND.len() + RECORD.len()
        );
        assert_eq!(feature_index("region_keep"), Some(30));
    }

    #[test]
    fn columns_hold_each_row_where_one_row_alone_would() {
        // Rows are written out sixteen at a time: a page of 40-odd blocks has whole chunks and a part.
        let mut html = String::from("<html><body>");
        for i in 0..14 {
            html.push_str(&format!(
                "<h2>Field {i}</h2><p>Rice in field {i} was planted in May and cut in September.</p>\
                 <div><a href=/f{i}>More on field {i}</a></div>"
            ));
        }
        html.push_str("</body></html>");
        let doc = Document::parse(&html);
        let params = crate::algorithms::contract::params::Params::default();
        let ctx = crate::algorithms::contract::Context::of_page(&doc, &params);
        let m = super::super::measure::measure(&ctx, &Default::default());
        let n = m.blocks.list.len();
        assert!(n > 2 * CHUNK_ROWS && !n.is_multiple_of(CHUNK_ROWS), "{n} blocks");
        let rows = m.rows(&doc);
        let all = rows.columns(0..n, 0);
        for k in 0..n {
            let one = rows.columns(k..k + 1, 0);
            let column = |f: usize| all[f * n + k];
            assert_eq!((0..WIDTH).map(column).collect::<Vec<_>>(), one, "row {k}");
        }
    }
}

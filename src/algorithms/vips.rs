//! `vips`: vision-based page segmentation for content extraction, as the survey of extraction methods
//! (§3) describes VIPS (Cai, Yu, Wen & Ma, "VIPS: a vision-based page segmentation algorithm", 2003),
//! in its three steps, repeated until the blocks are coherent enough:
//!
//! 1. **Visual block extraction.** From the sub-page's root down, each DOM node is kept whole as a
//!    block or divided into its children by the original paper's rules, which look at the tag and
//!    the visual cues (size, background colour, font, line breaks, `<hr>`); each kept block gets a
//!    Degree of Coherence (DoC, 1–10). Rules, as numbered in the paper:
//!    R1 no valid (visible, non-empty) child: cut; R2 one valid child, not text: divide; R3 the root of
//!    a sub-page being re-segmented: divide; R4 all children text or virtual text (inline elements
//!    holding only text): keep, DoC 10 with one font size and weight, else 9; R5 a child starts a new
//!    line (a line-break node): divide; R6 a child is `<hr>`: divide; R7 the children's areas sum to
//!    more than the node's: divide; R8 a child's background differs: divide, that child kept whole
//!    this round (DoC 6–8 by tag and size); R9 a text or virtual-text child and a small node: keep
//!    (DoC 5–8 by tag); R10 the largest child is small: keep (DoC by tag and size); R11 the previous
//!    sibling was kept: keep; R12 divide; R13 keep (DoC by tag and size). Which rules apply depends on
//!    the node: inline text nodes 1 2 3 4 5 6 8 9 11 13; `<table>` 1 2 3 8 10 12; `<tr>` 1 2 3 7 9 12;
//!    `<td>` 1 2 3 4 8 9 10 12; `<p>` 1 2 3 4 5 6 8 9 11 13; other tags 1 2 3 4 6 8 9 11 13.
//! 2. **Separators and their weights.** Separators are the horizontal and vertical bands of the
//!    region that no block crosses. Each is weighted 1–10 by the survey's cues: wider gaps weigh more;
//!    an `<hr>` inside the band, different backgrounds on its two sides, and (horizontal bands)
//!    different font sizes or weights, or a smaller font above than below, add weight; blocks of the
//!    same kind on both sides (text next to text in the same font) take weight away.
//! 3. **Content structure.** Blocks are merged across the lightest separators first, up to the
//!    heaviest; built top-down, the region is cut at its heaviest separators and each part is built
//!    the same way. A merged block's DoC is 11 − the weight of the heaviest separator inside it. Every
//!    block whose DoC is below the permitted degree of coherence (`pdoc`) and that can be divided is
//!    treated as a sub-page and segmented again (R3), up to `max_rounds`.
//!
//! **Choosing the content** (the survey: the blocks left after merging are the page's content; VIPS
//! itself stops at segmentation): the final blocks are the topmost blocks of the structure whose DoC
//! reaches `pdoc` (or that cannot be divided). The one with the most non-link text is the main block;
//! its siblings in the content structure (blocks the segmentation merged with it before meeting a
//! heavier separator) join it unless links make up more than `max_link_share` of their text.
//!
//! Where pith departs, and why: the browser reports boxes for elements, not for text runs, so a text
//! node is placed by its parent element, and a node whose own loose text is more than a trace is not
//! divided (its text would have nowhere to go). The paper leaves the DoC values "by tag and size"
//! open; ours are listed in [`doc_by_tag_size`].
//!
//! One file, one job: the three steps above are one algorithm that loops over them until the blocks
//! are coherent, all reading the same block tree and layout; they stay together so that the loop and
//! the paper's rule numbers read in one place.

pub use crate::algorithms::contract::params::VipsParams;
use crate::algorithms::contract::{Block, Content, Context, Outcome, topmost};
use crate::dom::layout::{Display, Layout, Rect};
use crate::dom::{Document, NONE, NodeId, Tag};
use crate::hash::IdMap;

/// What extraction decided for one node.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Decision {
    Cut,
    Divide,
    /// Divide, but keep the children whose background differs whole (R8).
    DivideKeepOdd,
    Keep(u8),
}

/// The page's facts the rules read, computed once.
struct View<'a> {
    doc: &'a Document,
    layout: &'a Layout,
    page_area: f64,
    /// Inline element holding only text and virtual text (the paper's virtual text node).
    virtual_text: Vec<bool>,
    p: &'a VipsParams,
}

impl View<'_> {
    fn rect(&self, i: NodeId) -> Option<Rect> {
        self.layout.get(i).map(|b| b.rect)
    }

    fn valid(&self, i: NodeId) -> bool {
        if self.doc.node(i).is_text() {
            return true;
        }
        self.layout.get(i).is_some_and(|b| b.visible && !b.rect.is_empty())
    }

    fn inline(&self, i: NodeId) -> bool {
        self.layout.get(i).is_some_and(|b| b.display == Display::Inline)
    }

    fn rel(&self, i: NodeId) -> f64 {
        self.rect(i).map_or(0.0, |r| r.area()) / self.page_area
    }

    fn children(&self, i: NodeId) -> Vec<NodeId> {
        self.doc.children(i).filter(|&c| self.valid(c)).collect()
    }

    fn is_text_like(&self, c: NodeId) -> bool {
        self.doc.node(c).is_text() || self.virtual_text[c as usize]
    }

    /// Characters of text directly inside `i` (not in child elements).
    fn loose_chars(&self, i: NodeId) -> u32 {
        self.doc.children(i).filter(|&c| self.doc.node(c).is_text()).map(|c| self.doc.node(c).stats.chars).sum()
    }

    fn font(&self, i: NodeId, parent: NodeId) -> (u32, u16) {
        let b = self.layout.get(if self.doc.node(i).is_text() { parent } else { i });
        b.map_or((0, 0), |b| ((b.font_size * 10.0).round() as u32, b.font_weight))
    }

    /// Font size (tenths of a pixel) and weight of the first (or last) text in `i`'s subtree.
    fn edge_font(&self, i: NodeId, first: bool) -> Option<(u32, u16)> {
        let end = self.doc.node(i).end;
        let holds_text =
            |k: NodeId| !self.doc.node(k).is_text() && self.doc.children(k).any(|c| self.doc.node(c).is_text());
        let pick = |k: NodeId| {
            self.layout.get(k).filter(|b| b.visible).map(|b| ((b.font_size * 10.0).round() as u32, b.font_weight))
        };
        // A bounded look: the text nearest the edge is near the start (or end) of the subtree.
        if first {
            (i..end).take(400).filter(|&k| holds_text(k)).find_map(pick)
        } else {
            (i..end).rev().take(400).filter(|&k| holds_text(k)).find_map(pick)
        }
    }

    fn background(&self, i: NodeId) -> u32 {
        self.layout.get(i).map_or(0, |b| b.background)
    }
}

/// DoC "by tag and size" (R8–R10, R13): text-level tags are most coherent, sectioning least; larger
/// blocks are less coherent than small ones.
pub fn doc_by_tag_size(tag: Tag, rel: f64) -> u8 {
    let base: i32 = match tag {
        Tag::P | Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 | Tag::Li | Tag::Dt | Tag::Dd => 9,
        Tag::A | Tag::Span | Tag::Font | Tag::Pre | Tag::Blockquote | Tag::Figcaption | Tag::Caption => 9,
        Tag::Td | Tag::Th | Tag::Figure | Tag::Address => 8,
        Tag::Table | Tag::Ul | Tag::Ol | Tag::Dl | Tag::Form | Tag::Tr | Tag::Tbody => 7,
        _ => 7,
    };
    let size_penalty = if rel > 0.4 {
        4
    } else if rel > 0.2 {
        3
    } else if rel > 0.08 {
        2
    } else if rel > 0.02 {
        1
    } else {
        0
    };
    (base - size_penalty).clamp(1, 10) as u8
}

/// Which rules apply to a node (see the module doc).
fn rules_for(v: &View<'_>, i: NodeId) -> &'static [u8] {
    let tag = v.doc.node(i).tag().unwrap_or(Tag::Other);
    match tag {
        Tag::Table => &[1, 2, 3, 8, 10, 12],
        Tag::Tr => &[1, 2, 3, 7, 9, 12],
        Tag::Td | Tag::Th => &[1, 2, 3, 4, 8, 9, 10, 12],
        Tag::P => &[1, 2, 3, 4, 5, 6, 8, 9, 11, 13],
        _ if v.inline(i) => &[1, 2, 3, 4, 5, 6, 8, 9, 11, 13],
        _ => &[1, 2, 3, 4, 6, 8, 9, 11, 13],
    }
}

/// Apply the node's rules in order; the first that fires decides.
fn decide(v: &View<'_>, i: NodeId, sub_root: bool, prev_kept: Option<bool>) -> Decision {
    let kids = v.children(i);
    let tag = v.doc.node(i).tag().unwrap_or(Tag::Other);
    let rel = v.rel(i);
    // A node whose own loose text is more than a trace keeps it only by staying whole.
    let loose = v.loose_chars(i);
    let text_bound = loose > 20.max(v.doc.node(i).stats.chars / 20);
    for &rule in rules_for(v, i) {
        let fired = match rule {
            1 => kids.is_empty().then_some(Decision::Cut),
            2 => (kids.len() == 1 && !v.doc.node(kids[0]).is_text()).then_some(Decision::Divide),
            3 => sub_root.then_some(Decision::Divide),
            4 => kids.iter().all(|&c| v.is_text_like(c)).then(|| {
                let f0 = v.font(kids[0], i);
                Decision::Keep(if kids.iter().all(|&c| v.font(c, i) == f0) { 10 } else { 9 })
            }),
            5 => kids.iter().any(|&c| !v.doc.node(c).is_text() && !v.inline(c)).then_some(Decision::Divide),
            6 => kids.iter().any(|&c| v.doc.node(c).tag() == Some(Tag::Hr)).then_some(Decision::Divide),
            7 => {
                let sum: f64 = kids.iter().filter_map(|&c| v.rect(c)).map(|r| r.area()).sum();
                (sum > v.rect(i).map_or(0.0, |r| r.area()) * 1.001).then_some(Decision::Divide)
            }
            8 => {
                let bg = v.background(i);
                kids.iter()
                    .any(|&c| !v.doc.node(c).is_text() && v.background(c) != bg)
                    .then_some(Decision::DivideKeepOdd)
            }
            9 => (kids.iter().any(|&c| v.is_text_like(c)) && rel < v.p.small_block)
                .then(|| Decision::Keep(doc_by_tag_size(tag, rel).clamp(5, 8))),
            10 => {
                let max_child = kids.iter().filter_map(|&c| v.rect(c)).map(|r| r.area()).fold(0.0, f64::max);
                (max_child / v.page_area < v.p.small_block).then(|| Decision::Keep(doc_by_tag_size(tag, rel)))
            }
            11 => (prev_kept == Some(true)).then(|| Decision::Keep(doc_by_tag_size(tag, rel))),
            12 => Some(Decision::Divide),
            13 => Some(Decision::Keep(doc_by_tag_size(tag, rel))),
            _ => None,
        };
        if let Some(d) = fired {
            // Dividing would strand the node's own text: keep it whole instead.
            if matches!(d, Decision::Divide | Decision::DivideKeepOdd) && text_bound && !sub_root {
                return Decision::Keep(doc_by_tag_size(tag, rel));
            }
            return d;
        }
    }
    Decision::Keep(doc_by_tag_size(tag, rel))
}

/// A visual block: one DOM node kept whole.
#[derive(Debug, Clone, Copy)]
struct VBlock {
    node: NodeId,
    rect: Rect,
    doc: u8,
}

/// Step 1 over the sub-page rooted at `root`.
fn extract(v: &View<'_>, root: NodeId, round: usize) -> Vec<VBlock> {
    let mut out = Vec::new();
    // (node, whole: kept whole this round by R8)
    let mut stack: Vec<(NodeId, bool)> = vec![(root, false)];
    // Per parent: whether the previous sibling processed this round was kept (a map: a round touches
    // only its sub-page, and there may be many rounds on a large page).
    let mut kept: IdMap<NodeId, bool> = IdMap::default();
    while let Some((i, whole)) = stack.pop() {
        if v.doc.node(i).is_text() {
            continue;
        }
        let Some(rect) = v.rect(i) else { continue };
        let parent = v.doc.node(i).parent;
        let prev_kept = if i == root || parent == NONE { None } else { kept.get(&parent).copied() };
        let d = if whole {
            Decision::Keep(doc_by_tag_size(v.doc.node(i).tag().unwrap_or(Tag::Other), v.rel(i)).clamp(6, 8))
        } else {
            decide(v, i, i == root && round > 0, prev_kept)
        };
        match d {
            Decision::Cut => {}
            Decision::Keep(doc) => {
                out.push(VBlock { node: i, rect, doc });
                if parent != NONE {
                    kept.insert(parent, true);
                }
            }
            Decision::Divide | Decision::DivideKeepOdd => {
                if parent != NONE {
                    kept.insert(parent, false);
                }
                let bg = v.background(i);
                for c in v.children(i).into_iter().rev() {
                    let odd = d == Decision::DivideKeepOdd && !v.doc.node(c).is_text() && v.background(c) != bg;
                    stack.push((c, odd));
                }
            }
        }
    }
    out
}

/// A band of the region that no block crosses.
#[derive(Debug, Clone, Copy)]
struct Separator {
    horizontal: bool,
    /// Start and end along the band's thickness (y for horizontal bands, x for vertical ones).
    start: f32,
    end: f32,
    weight: u8,
}

/// The gaps between the blocks' extents along one axis, region edges excluded. Touching blocks leave a
/// separator of no thickness.
fn gaps(extents: &mut [(f32, f32)]) -> Vec<(f32, f32)> {
    extents.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    let mut reach = f32::NEG_INFINITY;
    for &(s, e) in extents.iter() {
        if reach > f32::NEG_INFINITY && s >= reach - 0.5 {
            out.push((reach, s.max(reach)));
        }
        reach = reach.max(e);
    }
    out
}

/// Step 2: the separators of a set of blocks, weighted.
fn separators(v: &View<'_>, blocks: &[VBlock], hrs: &[Rect]) -> Vec<Separator> {
    let mut out = Vec::new();
    for horizontal in [true, false] {
        let mut ext: Vec<(f32, f32)> = blocks
            .iter()
            .map(|b| if horizontal { (b.rect.y, b.rect.bottom()) } else { (b.rect.x, b.rect.right()) })
            .collect();
        for (start, end) in gaps(&mut ext) {
            out.push(Separator { horizontal, start, end, weight: weigh(v, blocks, hrs, horizontal, start, end) });
        }
    }
    out
}

fn weigh(v: &View<'_>, blocks: &[VBlock], hrs: &[Rect], horizontal: bool, start: f32, end: f32) -> u8 {
    // The blocks touching the band on each side.
    let near = 2.0;
    let lo = |b: &VBlock| if horizontal { b.rect.bottom() } else { b.rect.right() };
    let hi = |b: &VBlock| if horizontal { b.rect.y } else { b.rect.x };
    let before: Vec<&VBlock> =
        blocks.iter().filter(|b| lo(b) <= start + near && lo(b) >= start - near - 40.0).collect();
    let after: Vec<&VBlock> = blocks.iter().filter(|b| hi(b) >= end - near && hi(b) <= end + near + 40.0).collect();
    let gap = f64::from((end - start).max(0.0));
    let mut w = 1.0 + (gap / 10.0).min(4.0);
    let crosses_hr = hrs.iter().any(|r| {
        let (s, e) = if horizontal { (r.y, r.bottom()) } else { (r.x, r.right()) };
        s >= start - near && e <= end + near
    });
    if crosses_hr {
        w += 3.0;
    }
    let bg = |side: &[&VBlock]| side.first().map(|b| v.background(b.node));
    if let (Some(a), Some(b)) = (bg(&before), bg(&after))
        && a != b
    {
        w += 2.0;
    }
    // Structure: link lists, prose and text-less (media) blocks are different kinds of content.
    let kind = |side: &[&VBlock]| {
        let (c, l) = side.iter().fold((0u32, 0u32), |(c, l), b| {
            let s = &v.doc.node(b.node).stats;
            (c + s.chars, l + s.link_chars)
        });
        if c == 0 {
            0u8
        } else if l * 2 > c {
            1
        } else {
            2
        }
    };
    let (ka, kb) = (kind(&before), kind(&after));
    if !before.is_empty() && !after.is_empty() && ka != kb {
        w += 2.0;
    }
    if horizontal {
        // The text nearest the band on each side: the end of the block above, the start of the one below.
        let above = before
            .iter()
            .max_by(|a, b| a.rect.bottom().total_cmp(&b.rect.bottom()))
            .and_then(|b| v.edge_font(b.node, false));
        let below = after.iter().min_by(|a, b| a.rect.y.total_cmp(&b.rect.y)).and_then(|b| v.edge_font(b.node, true));
        if let (Some(a), Some(b)) = (above, below) {
            if a != b {
                w += 1.0;
            }
            if a.0 < b.0 {
                w += 1.0;
            }
            if a == b && ka == kb {
                w -= 1.0;
            }
        }
    }
    w.round().clamp(1.0, 10.0) as u8
}

/// A node of the content structure.
#[derive(Debug, Clone)]
struct SNode {
    blocks: Vec<VBlock>,
    doc: u8,
    children: Vec<usize>,
}

/// Step 3 for one set of blocks: nodes appended to `tree`, the index of the set's node returned.
/// Iterative (a work list, not recursion), so thousands of blocks cost no stack.
fn construct(v: &View<'_>, blocks: Vec<VBlock>, hrs: &[Rect], tree: &mut Vec<SNode>) -> usize {
    let top = tree.len();
    tree.push(SNode { doc: 10, blocks, children: Vec::new() });
    let mut work = vec![top];
    while let Some(n) = work.pop() {
        if tree[n].blocks.len() == 1 {
            tree[n].doc = tree[n].blocks[0].doc;
            continue;
        }
        let seps = separators(v, &tree[n].blocks, hrs);
        let Some(max) = seps.iter().map(|s| s.weight).max() else {
            // Overlapping blocks with no band between them: one coherent group of its blocks.
            tree[n].doc = tree[n].blocks.iter().map(|b| b.doc).min().unwrap_or(1);
            continue;
        };
        tree[n].doc = 11u8.saturating_sub(max).max(1);
        // Cut along the direction holding the heaviest separator (rows before columns on a tie).
        let horizontal = seps.iter().any(|s| s.weight == max && s.horizontal);
        let mut cuts: Vec<f32> = seps
            .iter()
            .filter(|s| s.weight == max && s.horizontal == horizontal)
            .map(|s| (s.start + s.end) / 2.0)
            .collect();
        cuts.sort_by(f32::total_cmp);
        let mut parts: Vec<Vec<VBlock>> = vec![Vec::new(); cuts.len() + 1];
        for b in &tree[n].blocks {
            let mid = if horizontal { (b.rect.y + b.rect.bottom()) / 2.0 } else { (b.rect.x + b.rect.right()) / 2.0 };
            let k = cuts.partition_point(|&c| c < mid);
            parts[k].push(*b);
        }
        for part in parts.into_iter().filter(|p| !p.is_empty()) {
            let c = tree.len();
            tree.push(SNode { doc: 10, blocks: part, children: Vec::new() });
            tree[n].children.push(c);
            work.push(c);
        }
    }
    top
}

/// The whole segmentation: rounds of steps 1–3 until every block reaches `pdoc` or cannot be divided.
fn segment(v: &View<'_>, hrs: &[Rect]) -> Vec<SNode> {
    let mut tree: Vec<SNode> = Vec::new();
    let body = v.doc.body;
    let first = extract(v, body, 0);
    if first.is_empty() {
        return tree;
    }
    construct(v, first, hrs, &mut tree);
    for round in 1..v.p.max_rounds.max(1) {
        let mut grew = false;
        let leaves: Vec<usize> = (0..tree.len()).filter(|&n| tree[n].children.is_empty()).collect();
        for n in leaves {
            if tree[n].doc >= v.p.pdoc || tree[n].blocks.len() != 1 {
                continue;
            }
            let root = tree[n].blocks[0].node;
            let sub = extract(v, root, round);
            if sub.len() < 2 {
                continue;
            }
            let c = construct(v, sub, hrs, &mut tree);
            tree[n].children.push(c);
            grew = true;
        }
        if !grew {
            break;
        }
    }
    tree
}

/// The final blocks: topmost structure nodes whose DoC reaches `pdoc`, or leaves.
fn final_blocks(tree: &[SNode], pdoc: u8) -> Vec<(usize, usize)> {
    // (node, parent)
    let mut out = Vec::new();
    if tree.is_empty() {
        return out;
    }
    let mut stack = vec![(0usize, usize::MAX)];
    while let Some((n, parent)) = stack.pop() {
        if tree[n].doc >= pdoc || tree[n].children.is_empty() {
            out.push((n, parent));
        } else {
            for &c in tree[n].children.iter().rev() {
                stack.push((c, n));
            }
        }
    }
    out
}

/// `vips`. Without a layout (the engine never calls it so) nothing is extracted.
pub fn run(ctx: &Context<'_>) -> Outcome {
    let doc = ctx.doc;
    let Some(layout) = ctx.layout else { return Outcome::empty() };
    let p = &ctx.params.vips;
    let page_area = (f64::from(layout.page.0) * f64::from(layout.page.1)).max(1.0);
    // Virtual text nodes, bottom-up: an inline element whose valid children are all text or virtual text.
    let mut virtual_text = vec![false; doc.len()];
    for i in (0..doc.len()).rev() {
        let id = i as NodeId;
        if doc.node(id).is_text() || !layout.get(id).is_some_and(|b| b.display == Display::Inline) {
            continue;
        }
        virtual_text[i] = doc.children(id).all(|c| {
            doc.node(c).is_text() || virtual_text[c as usize] || layout.get(c).is_none_or(|b| b.rect.is_empty())
        });
    }
    let v = View { doc, layout, page_area, virtual_text, p };
    let hrs: Vec<Rect> = (0..doc.len() as NodeId)
        .filter(|&i| doc.node(i).tag() == Some(Tag::Hr))
        .filter_map(|i| layout.get(i).map(|b| b.rect))
        .collect();
    let tree = segment(&v, &hrs);
    let finals = final_blocks(&tree, p.pdoc);
    if finals.is_empty() {
        return Outcome::empty();
    }
    let chars = |n: usize| -> (u32, u32) {
        tree[n]
            .blocks
            .iter()
            .fold((0, 0), |(c, l), b| (c + doc.node(b.node).stats.chars, l + doc.node(b.node).stats.link_chars))
    };
    let main = finals
        .iter()
        .copied()
        .max_by_key(|&(n, _)| {
            let (c, l) = chars(n);
            c.saturating_sub(l)
        })
        .unwrap_or(finals[0]);
    let mut chosen: Vec<usize> = vec![main.0];
    if main.1 != usize::MAX && main.1 != 0 {
        for &c in &tree[main.1].children {
            let (all, links) = chars(c);
            if c != main.0 && all > 0 && f64::from(links) <= p.max_link_share * f64::from(all) {
                chosen.push(c);
            }
        }
    }
    let mut nodes: Vec<NodeId> = Vec::new();
    for &n in &chosen {
        collect_nodes(&tree, n, &mut nodes);
    }
    let content = topmost(doc, nodes);
    let (pw, ph) = (f64::from(layout.page.0).max(1.0), f64::from(layout.page.1).max(1.0));
    let mut blocks = Vec::new();
    for (k, &(n, _)) in finals.iter().enumerate() {
        let s = &tree[n];
        let (all, links) = chars(n);
        let is_content = chosen.contains(&n) || chosen.iter().any(|&c| contains(&tree, c, n));
        for b in &s.blocks {
            blocks.push(Block::new(
                b.node,
                vec![
                    ("doc", f64::from(s.doc)),
                    ("block_doc", f64::from(b.doc)),
                    ("group", k as f64),
                    ("x", f64::from(b.rect.x) / pw),
                    ("y", f64::from(b.rect.y) / ph),
                    ("w", f64::from(b.rect.w) / pw),
                    ("h", f64::from(b.rect.h) / ph),
                    ("area", b.rect.area() / page_area),
                    ("link_share", crate::algorithms::contract::ratio(f64::from(links), f64::from(all))),
                ],
                is_content,
                f64::from(doc.node(b.node).stats.non_link_chars()),
            ));
        }
    }
    let probability = crate::algorithms::contract::coverage_probability(doc, &blocks);
    Outcome::new(Content::Nodes(content), probability, blocks)
        .with_signals(vec![("final_blocks", finals.len() as f64), ("structure_nodes", tree.len() as f64)])
}

fn collect_nodes(tree: &[SNode], n: usize, out: &mut Vec<NodeId>) {
    out.extend(tree[n].blocks.iter().map(|b| b.node));
}

/// True when structure node `inner` lies in the subtree of `outer`.
fn contains(tree: &[SNode], outer: usize, inner: usize) -> bool {
    let mut stack = vec![outer];
    while let Some(n) = stack.pop() {
        if n == inner {
            return true;
        }
        stack.extend(tree[n].children.iter().copied());
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::layout::ElementBox;

    fn by_class(doc: &Document, class: &str) -> NodeId {
        (0..doc.len() as NodeId)
            .find(|&i| doc.node(i).element().and_then(|e| e.id_class.as_deref()) == Some(class))
            .unwrap()
    }

    fn el(x: f32, y: f32, w: f32, h: f32, display: Display, bg: u32) -> Option<ElementBox> {
        Some(ElementBox {
            rect: Rect::new(x, y, w, h),
            display,
            visible: true,
            font_size: 16.0,
            font_weight: 400,
            background: bg,
            color: 0xFF,
        })
    }

    #[test]
    fn separators_are_the_uncrossed_bands() {
        let mut ext = vec![(0.0, 100.0), (110.0, 200.0), (200.0, 300.0), (50.0, 90.0)];
        assert_eq!(gaps(&mut ext), vec![(100.0, 110.0), (200.0, 200.0)]);
    }

    #[test]
    fn doc_by_tag_and_size() {
        assert_eq!(doc_by_tag_size(Tag::P, 0.001), 9);
        assert_eq!(doc_by_tag_size(Tag::Div, 0.5), 3);
        assert!(doc_by_tag_size(Tag::Td, 0.05) > doc_by_tag_size(Tag::Table, 0.05));
    }

    /// A page laid out by hand: a header bar, a navigation column on the left, an article in the
    /// middle (headline and three paragraphs), a sidebar of links on the right, and a footer.
    #[test]
    fn segments_a_laid_out_page_and_keeps_the_article() {
        let page = "<html><body><div class=head><a href=/>Site name</a></div>\
            <div class=nav><a href=/a>Alpha</a> <a href=/b>Beta</a> <a href=/c>Gamma</a></div>\
            <div class=main><h1>Farmers learn new rice methods</h1>\
            <p>More than two hundred farmers came to the county training centre this week to learn how to plant rice.</p>\
            <p>The course covered seed selection, water management and the timing of fertiliser for the new varieties.</p>\
            <p>Trainers said yields on the demonstration plots rose by a fifth compared with the old practice.</p></div>\
            <div class=side><a href=/x>Related one</a> <a href=/y>Related two</a></div>\
            <div class=foot><a href=/t>Terms</a> <a href=/p>Privacy</a></div></body></html>";
        let doc = Document::parse(page);
        let mut boxes = vec![None; doc.len()];
        let white = 0xFFFF_FFFF;
        let grey = 0xEEEE_EEFF;
        boxes[doc.body as usize] = el(0.0, 0.0, 1200.0, 1000.0, Display::Block, white);
        let place = |boxes: &mut Vec<Option<ElementBox>>, id: NodeId, r: Rect, bg: u32| {
            boxes[id as usize] = el(r.x, r.y, r.w, r.h, Display::Block, bg);
            // Inline children (links) sit on the first line of their block.
            for c in doc.children(id) {
                if doc.node(c).tag() == Some(Tag::A) {
                    boxes[c as usize] = el(r.x, r.y, 80.0, 18.0, Display::Inline, bg);
                }
            }
        };
        place(&mut boxes, by_class(&doc, "head"), Rect::new(0.0, 0.0, 1200.0, 80.0), grey);
        place(&mut boxes, by_class(&doc, "nav"), Rect::new(0.0, 100.0, 180.0, 700.0), white);
        let main = by_class(&doc, "main");
        place(&mut boxes, main, Rect::new(220.0, 100.0, 700.0, 700.0), white);
        let mut y = 100.0;
        for c in doc.children(main) {
            if doc.node(c).is_text() {
                continue;
            }
            let h = if doc.node(c).tag() == Some(Tag::H1) { 60.0 } else { 100.0 };
            let mut b = el(220.0, y, 700.0, h, Display::Block, white).unwrap();
            if doc.node(c).tag() == Some(Tag::H1) {
                b.font_size = 32.0;
                b.font_weight = 700;
            }
            boxes[c as usize] = Some(b);
            y += h + 16.0;
        }
        place(&mut boxes, by_class(&doc, "side"), Rect::new(960.0, 100.0, 240.0, 700.0), white);
        place(&mut boxes, by_class(&doc, "foot"), Rect::new(0.0, 840.0, 1200.0, 60.0), grey);
        let layout = Layout {
            boxes,
            viewport: (1200.0, 800.0),
            page: (1200.0, 1000.0),
            fingerprint: crate::dom::layout::fingerprint(&doc),
            render_ms: 0.0,
        };
        let params = crate::algorithms::contract::params::Params::default();
        let ctx = Context { layout: Some(&layout), ..Context::of_page(&doc, &params) };
        let out = run(&ctx);
        let Content::Nodes(nodes) = &out.content else { panic!("nodes expected") };
        let text: String = nodes.iter().map(|&n| doc.subtree_text(n)).collect::<Vec<_>>().join(" ");
        assert!(text.contains("two hundred farmers"), "{text}");
        assert!(text.contains("a fifth"), "{text}");
        for noise in ["Related one", "Privacy", "Alpha", "Site name"] {
            assert!(!text.contains(noise), "{noise} in {text}");
        }
        assert!(out.blocks.iter().all(|b| b.scores.iter().any(|(k, _)| *k == "doc")));
    }
}

//! Record regions: the page's repeated structure. A listing is a run of alike cards, a forum thread a
//! run of alike posts, a news portal's teaser feed a run of alike items (headline, snippet, source,
//! date), a shop's "also bought" rail a run of alike product cards; and the main content of an
//! article page is the prose such runs surround. This module finds those runs by the shape of the
//! tree alone, so it holds in every language; `auto` reads them as block and page features.
//!
//! After Liu, Grossman & Zhai, "Mining data records in web pages" (MDR): a *data region* is a run of
//! adjacent *generalized nodes* (groups of k adjacent siblings, k from 1 to a small bound) under one
//! parent whose subtrees are alike; each generalized node is a *data record*. Zhai & Liu's partial
//! tree alignment then aligns the records' fields; pith needs only which blocks belong to which
//! record, so it does not align.
//!
//! Departures, for an engine that must stay linear in the page: MDR compares the tag strings of
//! adjacent generalized nodes by edit distance (quadratic in their size); here a subtree's shape is a
//! 64-bit set of its (tag, parent tag) pairs, hashed, computed for every element in one bottom-up
//! pass, and two records are alike when those sets overlap (Jaccard) and their sizes are close. Every
//! parent's children are read once per (k, offset), so the whole search is a few passes over the
//! page's nodes whatever its shape (a hostile page of 100,000 siblings costs 100,000 comparisons per
//! pass). MDR also admits regions of two records; here a region needs three (two when a record is a
//! group of siblings), since two alike siblings are too common (a headline and its dek) to say
//! "repeated".

use crate::dom::{Document, NONE, NodeId};
use crate::hash::Fnv1a;

/// The most siblings one record groups (MDR's K).
const MAX_K: usize = 3;
/// Records a region needs, for records of one sibling.
const MIN_RECORDS: usize = 3;
/// Records a region needs, for records of several siblings.
const MIN_GROUPED_RECORDS: usize = 2;
/// The least overlap (Jaccard) of two alike records' shapes.
const MIN_SIMILARITY: f32 = 0.7;
/// The most one alike record may outsize the other, in elements.
const MAX_SIZE_RATIO: u32 = 3;
/// Element children a parent needs to be searched. Three would admit a region of three one-sibling
/// records standing alone under their parent; the shipped models were trained with four, and a
/// change here changes the block features, so it waits for a retraining that measures it.
const MIN_CHILDREN: usize = 4;

/// One run of alike records under one parent.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// The element whose children the records are.
    pub parent: NodeId,
    /// Siblings per record.
    pub k: u8,
    /// The mean similarity of adjacent records (0 to 1).
    pub similarity: f32,
    /// The records' places in [`Records::records`]: `first..first + count`.
    pub first: u32,
    pub count: u32,
}

/// One record: the preorder range its siblings span, and its region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub region: u32,
    /// The first node of its first sibling, and one past the last node of its last sibling.
    pub start: NodeId,
    pub end: NodeId,
    /// Characters of text, and of link text, in the record.
    pub chars: u32,
    pub link_chars: u32,
}

/// The page's record regions, in document order of their parents, and their records in document
/// order of their starts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Records {
    pub regions: Vec<Region>,
    pub records: Vec<Record>,
}

impl Records {
    /// The records of region `r`.
    pub fn of(&self, r: &Region) -> &[Record] {
        &self.records[r.first as usize..(r.first + r.count) as usize]
    }

    /// For each of `nodes` (in increasing order), the innermost record holding it: its index in
    /// [`Records::records`]. One sweep over both lists: records nest or are apart, never overlap.
    pub fn innermost(&self, nodes: impl IntoIterator<Item = NodeId>) -> Vec<Option<u32>> {
        let mut order: Vec<u32> = (0..self.records.len() as u32).collect();
        order.sort_unstable_by_key(|&k| self.records[k as usize].start);
        let mut next = 0;
        let mut open: Vec<u32> = Vec::new();
        let mut out = Vec::new();
        for node in nodes {
            while next < order.len() && self.records[order[next] as usize].start <= node {
                let k = order[next];
                while open.last().is_some_and(|&o| self.records[o as usize].end <= self.records[k as usize].start) {
                    open.pop();
                }
                open.push(k);
                next += 1;
            }
            while open.last().is_some_and(|&o| self.records[o as usize].end <= node) {
                open.pop();
            }
            out.push(open.last().copied());
        }
        out
    }
}

/// The bit a (tag, parent tag) pair sets in a shape.
fn pair_bit(name: u64, parent: u64) -> u64 {
    let h = name.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ parent.rotate_left(29);
    1u64 << (h.wrapping_mul(0xBF58_476D_1CE4_E5B9) >> 58)
}

/// Find the page's record regions.
pub fn find(doc: &Document) -> Records {
    let body = doc.body;
    let end = doc.node(body).end;
    let n = doc.len();
    // Every element's name, hashed; and the shape of what is below it: the pairs of its descendants.
    let mut name = vec![0u64; n];
    for i in body..end {
        if let Some(e) = doc.node(i).element() {
            let mut h = Fnv1a::new();
            h.bytes(e.name.as_bytes().iter().copied());
            name[i as usize] = h.finish() | 1;
        }
    }
    let mut below = vec![0u64; n];
    for i in (body + 1..end).rev() {
        let node = doc.node(i);
        if node.is_text() || node.parent == NONE {
            continue;
        }
        let p = node.parent as usize;
        below[p] |= pair_bit(name[i as usize], name[p]) | below[i as usize];
    }
    let mut out = Records::default();
    let mut children: Vec<NodeId> = Vec::new();
    for p in body..end {
        if doc.node(p).is_text() {
            continue;
        }
        children.clear();
        children.extend(doc.children(p).filter(|&c| !doc.node(c).is_text()));
        if children.len() < MIN_CHILDREN {
            continue;
        }
        regions_under(doc, p, &children, &name, &below, &mut out);
    }
    out
}

/// A group of `k` siblings as one record: its shape (each sibling's own pair marked with its place in
/// the group, and what is below it), its size in elements, its characters, and whether it can be a
/// record at all.
struct Group {
    shape: u64,
    size: u32,
    chars: u32,
    can_be_record: bool,
}

fn group(doc: &Document, members: &[NodeId], name: &[u64], below: &[u64]) -> Group {
    let mut g = Group { shape: 0, size: 0, chars: 0, can_be_record: true };
    for (place, &c) in members.iter().enumerate() {
        g.shape |= pair_bit(name[c as usize], place as u64 + 1) | below[c as usize];
        let s = doc.node(c).stats;
        g.size += s.tags + 1;
        g.chars += s.chars;
    }
    g.can_be_record = if let [one] = members {
        can_stand_alone(doc, *one)
    } else {
        // Siblings all of one name are records of one sibling each, or none.
        members.iter().any(|&m| name[m as usize] != name[members[0] as usize])
    };
    g
}

/// Whether one element can be a record by itself: not a paragraph, heading or rule (a run of
/// paragraphs is prose, however alike), and, when it has no element inside, a link, a list item or a
/// term (a menu's links, a bulleted list's items), not a bare text container.
fn can_stand_alone(doc: &Document, element: NodeId) -> bool {
    use crate::dom::Tag;
    let node = doc.node(element);
    match node.tag() {
        Some(t) if t.is_heading() => false,
        Some(Tag::P | Tag::Br | Tag::Hr | Tag::Blockquote | Tag::Pre) => false,
        Some(Tag::A | Tag::Li | Tag::Dt | Tag::Dd | Tag::Tr | Tag::Td | Tag::Th) => true,
        _ => node.stats.tags > 0,
    }
}

/// Whether two records are alike: close in size, their shapes overlapping, both holding text. Small
/// records (a few elements) have few pairs, and must have the same ones.
fn similarity(a: &Group, b: &Group) -> Option<f32> {
    if a.chars == 0 || b.chars == 0 || !a.can_be_record || !b.can_be_record {
        return None;
    }
    let (lo, hi) = (a.size.min(b.size), a.size.max(b.size));
    if hi > lo.saturating_mul(MAX_SIZE_RATIO) {
        return None;
    }
    let union = (a.shape | b.shape).count_ones();
    let sim = if union == 0 { 1.0 } else { (a.shape & b.shape).count_ones() as f32 / union as f32 };
    let needed = if hi <= 3 { 1.0 } else { MIN_SIMILARITY };
    (sim >= needed).then_some(sim)
}

/// The regions among `children` of `parent`: for each record size k and offset, the runs of alike
/// adjacent groups; the (k, offset) whose runs cover the most children wins (the smaller k on ties),
/// and its runs long enough become regions.
fn regions_under(doc: &Document, parent: NodeId, children: &[NodeId], name: &[u64], below: &[u64], out: &mut Records) {
    // (covered children, k, the runs: first group, groups, similarity sum)
    let mut best: (usize, usize, usize, Vec<(usize, usize, f32)>) = (0, 0, 0, Vec::new());
    for k in 1..=MAX_K {
        let min_records = if k == 1 { MIN_RECORDS } else { MIN_GROUPED_RECORDS };
        for offset in 0..k {
            let groups = (children.len() - offset.min(children.len())) / k;
            if groups < min_records {
                continue;
            }
            let at = |j: usize| group(doc, &children[offset + j * k..offset + (j + 1) * k], name, below);
            let mut runs: Vec<(usize, usize, f32)> = Vec::new();
            let mut prev = at(0);
            let (mut start, mut sims) = (0usize, 0.0f32);
            for j in 1..=groups {
                let cur = (j < groups).then(|| at(j));
                match cur.as_ref().and_then(|c| similarity(&prev, c)) {
                    Some(s) => sims += s,
                    None => {
                        if j - start >= min_records {
                            runs.push((start, j - start, sims));
                        }
                        start = j;
                        sims = 0.0;
                    }
                }
                if let Some(c) = cur {
                    prev = c;
                }
            }
            let covered: usize = runs.iter().map(|r| r.1 * k).sum();
            if covered > best.0 {
                best = (covered, k, offset, runs);
            }
        }
    }
    let (_, k, offset, runs) = best;
    for (first, count, sims) in runs {
        let region = out.regions.len() as u32;
        let at = out.records.len() as u32;
        for j in first..first + count {
            let members = &children[offset + j * k..offset + (j + 1) * k];
            let (start, last) = (members[0], members[k - 1]);
            let (mut chars, mut link_chars) = (0, 0);
            for &m in members {
                chars += doc.node(m).stats.chars;
                link_chars += doc.node(m).stats.link_chars;
            }
            out.records.push(Record { region, start, end: doc.node(last).end, chars, link_chars });
        }
        out.regions.push(Region {
            parent,
            k: k as u8,
            similarity: sims / (count - 1).max(1) as f32,
            first: at,
            count: count as u32,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regions(html: &str) -> (Document, Records) {
        let doc = Document::parse(html);
        let r = find(&doc);
        (doc, r)
    }

    fn record_texts(doc: &Document, r: &Records, region: usize) -> Vec<String> {
        r.of(&r.regions[region])
            .iter()
            .map(|rec| {
                (rec.start..rec.end)
                    .filter(|&i| doc.node(i).is_text())
                    .map(|i| doc.text(i).trim())
                    .filter(|t| !t.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn a_teaser_feed_under_an_article_is_one_region_of_its_items() {
        let item = |k: usize| {
            format!(
                "<div class=item><h3><a href=/n{k}>Headline number {k} of the feed</a></h3>\
                 <p>A one-line snippet of story {k}.</p><span>Source {k}</span> <span>2024-05-{k:02}</span></div>"
            )
        };
        // The last item lacks its snippet: records need not be identical.
        let feed: String = (1..=5).map(item).collect::<String>()
            + "<div class=item><h3><a href=/n6>Headline six</a></h3><span>Source</span> <span>2024-05-06</span></div>";
        let html = format!(
            "<body><article><h1>The story</h1><p>First paragraph of the article, long enough.</p>\
             <p>Second paragraph.</p></article><section>{feed}</section></body>"
        );
        let (doc, r) = regions(&html);
        assert_eq!(r.regions.len(), 1, "{r:?}");
        let texts = record_texts(&doc, &r, 0);
        assert_eq!(texts.len(), 6);
        assert!(texts[0].starts_with("Headline number 1") && texts[5].starts_with("Headline six"), "{texts:?}");
        assert_eq!(r.regions[0].k, 1);
        // The article's paragraphs are in no record.
        let p = (0..doc.len() as NodeId).find(|&i| doc.node(i).is_text() && doc.text(i).contains("First paragraph"));
        let article_text = p.unwrap();
        let feed_text = (0..doc.len() as NodeId).find(|&i| doc.text(i).contains("snippet of story 3")).unwrap();
        assert_eq!(r.innermost([article_text, feed_text]), vec![None, Some(2)]);
    }

    #[test]
    fn definition_pairs_are_records_of_two_siblings() {
        let dl: String =
            (1..=4).map(|k| format!("<dt>Term {k}</dt><dd>What term {k} means, in a sentence.</dd>")).collect();
        let (doc, r) = regions(&format!("<body><dl>{dl}</dl></body>"));
        assert_eq!(r.regions.len(), 1, "{r:?}");
        assert_eq!((r.regions[0].k, r.regions[0].count), (2, 4));
        assert_eq!(record_texts(&doc, &r, 0)[1], "Term 2 What term 2 means, in a sentence.");
    }

    #[test]
    fn prose_paragraphs_and_unlike_siblings_are_no_region() {
        // A run of paragraphs is prose, however alike, with links in them or not; so are pairs of
        // paragraphs, and text in bare containers.
        let (_, r) = regions(
            "<body><div><h1>Title</h1><p>One <a href=/a>link</a>.</p><p>Two <a href=/b>links</a>.</p>\
             <p>Three <a href=/c>links</a>.</p><p>Four.</p></div><div><span>a</span><span>b</span><span>c</span></div></body>",
        );
        assert!(r.regions.is_empty(), "{r:?}");
        // Two alike siblings are not yet a region; three alone under their parent are not searched
        // (MIN_CHILDREN); three among four children are one.
        let (_, r) = regions("<body><ul><li>one</li><li>two</li></ul></body>");
        assert!(r.regions.is_empty(), "{r:?}");
        let (_, r) = regions("<body><ul><li>one</li><li>two</li><li>three</li></ul></body>");
        assert!(r.regions.is_empty(), "{r:?}");
        let (_, r) = regions("<body><ul><li>one</li><li>two</li><li>three</li><li><p>A</p><p>B</p></li></ul></body>");
        assert_eq!(r.regions.len(), 1, "{r:?}");
        assert_eq!(r.regions[0].count, 3, "{r:?}");
        // Unlike siblings: a heading, a figure, a table.
        let (_, r) = regions(
            "<body><div><h2>A</h2><figure><img src=a.jpg><figcaption>Cap</figcaption></figure>\
             <table><tr><td>1</td><td>2</td></tr></table></div></body>",
        );
        assert!(r.regions.is_empty(), "{r:?}");
    }

    #[test]
    fn nested_regions_each_record_their_own_and_the_innermost_wins() {
        let post = |k: usize| {
            format!(
                "<div class=post><div class=author>user{k}</div><div class=body><p>Post {k} says something.</p>\
                 <ul><li>tag a</li><li>tag b</li><li>tag c</li><li>tag d</li></ul></div></div>"
            )
        };
        let posts: String = (1..=4).map(post).collect();
        let (doc, r) = regions(&format!("<body><div id=thread>{posts}</div></body>"));
        // The thread's posts, and each post's tag list.
        assert_eq!(r.regions.len(), 5, "{r:?}");
        let find_text =
            |s: &str| (0..doc.len() as NodeId).find(|&i| doc.node(i).is_text() && doc.text(i) == s).unwrap();
        // In document order, as `innermost` asks: post 1's text, then its second tag.
        let inner = r.innermost([find_text("Post 1 says something."), find_text("tag b")]);
        let (a, b) = (inner[0].unwrap() as usize, inner[1].unwrap() as usize);
        assert_eq!(r.records[a].region, 0);
        assert_ne!(r.records[b].region, 0);
    }

    #[test]
    fn a_hundred_thousand_siblings_are_read_in_linear_time() {
        let html = format!("<body><ul>{}</ul></body>", "<li><a href=/x>item</a> note</li>".repeat(100_000));
        let started = std::time::Instant::now();
        let (_, r) = regions(&html);
        assert_eq!(r.regions.len(), 1);
        assert_eq!(r.records.len(), 100_000);
        // A generous bound: the point is that it is not quadratic (that would take minutes).
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    }
}

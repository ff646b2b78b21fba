//! Naive Bayes block classifier, after the seed paper "Chinese web content extraction based on Naive
//! Bayes model" (the Hunan Farmer Training portal's search).
//!
//! Blocks are built bottom-up: every text node belongs to its nearest block-tag ancestor, and
//! neighbouring sibling blocks of the same tag merge. Each block gets four binned features: non-link
//! characters (<20, four bins of 20 up to 100, >100), link characters / all characters (<10%, 10–50%,
//! 50–80%, >=80%), punctuation / link characters (<2%, 2–10%, >=10%; a zero denominator counts as 1) and
//! `<p>` count (0, 1–3, >3). A block is theme content when P(c1|x) >= P(c2|x) with Laplace-smoothed
//! class-conditional probabilities learned by [`crate::lab::train::bayes`].
//!
//! Departures: the paper blocks on table/tr/td/div and suggests more block tags; we add the HTML5
//! sectioning and list containers (section, article, main, aside, nav, header, footer, ul, ol, dl,
//! blockquote, form, center), which modern pages use where older ones used tables: the tags
//! [`Tag::is_container`] names. Sibling merging is
//! limited to blocks of the same tag so that a menu `<ul>` never merges into an article `<div>`.

use serde::{Deserialize, Serialize};

use crate::algorithms::contract::params::BayesParams;
use crate::algorithms::contract::{Block, Content, Context, Outcome, coverage, ratio, topmost};
use crate::dom::{Document, NONE, NodeId, Tag};

/// Number of bins of each feature.
pub const BINS: [usize; 4] = [6, 4, 3, 3];
/// Feature names, in order.
pub const FEATURES: [&str; 4] = ["unlink_chars", "link_ratio", "punct_per_link_char", "p_count"];

/// Bin of non-link characters: <20, \[20,40), \[40,60), \[60,80), \[80,100\], >100.
pub fn bin_unlink(n: u32) -> usize {
    match n {
        0..=19 => 0,
        20..=39 => 1,
        40..=59 => 2,
        60..=79 => 3,
        80..=100 => 4,
        _ => 5,
    }
}

/// Bin of link characters / all characters: [0,10%), [10%,50%), [50%,80%), [80%,100%].
pub fn bin_link_ratio(r: f64) -> usize {
    if r < 0.10 {
        0
    } else if r < 0.50 {
        1
    } else if r < 0.80 {
        2
    } else {
        3
    }
}

/// Bin of punctuation / link characters: [0,2%), [2%,10%), >=10%.
pub fn bin_punct(r: f64) -> usize {
    if r < 0.02 {
        0
    } else if r < 0.10 {
        1
    } else {
        2
    }
}

/// Bin of `<p>` count: 0, 1–3, >3.
pub fn bin_p(n: u32) -> usize {
    match n {
        0 => 0,
        1..=3 => 1,
        _ => 2,
    }
}

/// A block's raw counts.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BlockCounts {
    pub chars: u32,
    pub link_chars: u32,
    pub punct: u32,
    pub p_count: u32,
}

impl BlockCounts {
    /// The four binned features.
    pub fn features(&self) -> [usize; 4] {
        let unlink = self.chars.saturating_sub(self.link_chars);
        [
            bin_unlink(unlink),
            bin_link_ratio(ratio(self.link_chars as f64, self.chars as f64)),
            bin_punct(ratio(self.punct as f64, self.link_chars as f64)),
            bin_p(self.p_count),
        ]
    }
}

/// One block: the block nodes (one, or several merged siblings) and the text nodes they own.
#[derive(Debug, Clone)]
pub struct PageBlock {
    pub nodes: Vec<NodeId>,
    pub texts: Vec<NodeId>,
    pub counts: BlockCounts,
}

/// Bottom-up blocking (the paper's rules 1–3).
pub fn blocks(doc: &Document, merge_siblings: bool) -> Vec<PageBlock> {
    // Nearest block ancestor of every node, computed top-down in one pass (parents come first).
    let mut owner = vec![NONE; doc.len()];
    let body = doc.body;
    for i in body..doc.node(body).end {
        let n = doc.node(i);
        owner[i as usize] = match n.tag() {
            Some(t) if t.is_container() => i,
            _ if i == body => body,
            _ => owner[n.parent as usize],
        };
    }
    // Per owner node, its block's place in `out` (a vector by node id: a hash map here cost more than
    // the loop's own work).
    let mut index: Vec<u32> = vec![u32::MAX; doc.len()];
    let mut out: Vec<PageBlock> = Vec::new();
    for i in body..doc.node(body).end {
        let n = doc.node(i);
        let own = owner[i as usize];
        let is_p = n.tag() == Some(Tag::P);
        if !n.is_text() && !is_p {
            continue;
        }
        let Some(slot) = index.get_mut(own as usize) else { continue };
        if *slot == u32::MAX {
            *slot = out.len() as u32;
            out.push(PageBlock { nodes: vec![own], texts: Vec::new(), counts: BlockCounts::default() });
        }
        let Some(b) = out.get_mut(*slot as usize) else { continue };
        if is_p {
            b.counts.p_count += 1;
        } else {
            b.texts.push(i);
            let s = n.stats;
            b.counts.chars += s.chars;
            b.counts.link_chars += s.link_chars;
            b.counts.punct += s.punct;
        }
    }
    out.retain(|b| b.counts.chars > 0);
    if !merge_siblings {
        return out;
    }
    let mut merged: Vec<PageBlock> = Vec::with_capacity(out.len());
    for b in out {
        if let Some(last) = merged.last_mut() {
            let prev = *last.nodes.last().unwrap_or(&NONE);
            let cur = b.nodes[0];
            if prev != NONE
                && doc.node(prev).next_sibling_element(doc) == Some(cur)
                && doc.node(prev).tag() == doc.node(cur).tag()
            {
                last.nodes.push(cur);
                last.texts.extend(b.texts);
                last.counts.chars += b.counts.chars;
                last.counts.link_chars += b.counts.link_chars;
                last.counts.punct += b.counts.punct;
                last.counts.p_count += b.counts.p_count;
                continue;
            }
        }
        merged.push(b);
    }
    merged
}

/// Class-conditional counts: `counts[class][feature][bin]`, class 0 = theme (c1), 1 = noise (c2).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BayesModel {
    pub format: String,
    pub features: Vec<String>,
    pub bins: Vec<usize>,
    /// Number of training blocks per class.
    pub class_blocks: [u64; 2],
    pub counts: [Vec<Vec<u64>>; 2],
    /// What the model was trained on, for the record.
    pub trained_on: Vec<String>,
    /// A block is labelled theme when at least this share of its words is in the gold text.
    pub label_threshold: f64,
}

impl Default for BayesModel {
    /// An untrained model: uniform priors and counts (every block scores 0.5).
    fn default() -> Self {
        BayesModel {
            format: "pith-bayes-1".into(),
            features: FEATURES.iter().map(|s| s.to_string()).collect(),
            bins: BINS.to_vec(),
            class_blocks: [0, 0],
            counts: [BINS.iter().map(|&n| vec![0; n]).collect(), BINS.iter().map(|&n| vec![0; n]).collect()],
            trained_on: Vec::new(),
            label_threshold: 0.5,
        }
    }
}

impl BayesModel {
    /// Check shapes after loading from JSON.
    pub fn validate(&self) -> Result<(), String> {
        if self.bins != BINS
            || self.counts.iter().any(|c| c.len() != 4 || c.iter().zip(BINS).any(|(v, n)| v.len() != n))
        {
            return Err("bayes model: bins do not match the four features of Wang et al.'s Naive Bayes model".into());
        }
        Ok(())
    }

    /// P(c1 | x): posterior of the theme class, Laplace-smoothed (add one to every bin and class).
    pub fn theme_probability(&self, x: &[usize; 4]) -> f64 {
        let total = (self.class_blocks[0] + self.class_blocks[1]) as f64;
        let mut logp = [0.0f64; 2];
        for (c, lp) in logp.iter_mut().enumerate() {
            *lp = ((self.class_blocks[c] as f64 + 1.0) / (total + 2.0)).ln();
            for (f, &bin) in x.iter().enumerate() {
                let n = self.counts[c][f][bin] as f64;
                let denom = self.class_blocks[c] as f64 + BINS[f] as f64;
                *lp += ((n + 1.0) / denom).ln();
            }
        }
        let m = logp[0].max(logp[1]);
        let e0 = (logp[0] - m).exp();
        let e1 = (logp[1] - m).exp();
        e0 / (e0 + e1)
    }

    /// Add one labelled block.
    pub fn observe(&mut self, x: &[usize; 4], theme: bool) {
        let c = usize::from(!theme);
        self.class_blocks[c] += 1;
        for (f, &bin) in x.iter().enumerate() {
            self.counts[c][f][bin] += 1;
        }
    }
}

/// The method's measures, its public result (which `auto` reads): the page's blocks and each one's
/// posterior P(c1|x).
#[derive(Debug, Clone)]
pub struct BayesBlocks {
    pub blocks: Vec<PageBlock>,
    /// P(c1|x) of each block, in the order of `blocks`.
    pub theme: Vec<f64>,
}

/// Block the page and weigh every block with `model`.
pub fn measure(doc: &Document, params: &BayesParams, model: &BayesModel) -> BayesBlocks {
    let blocks = blocks(doc, params.merge_siblings);
    let theme = blocks.iter().map(|b| model.theme_probability(&b.counts.features())).collect();
    BayesBlocks { blocks, theme }
}

/// `bayes`: every block with P(c1|x) >= P(c2|x) is content.
pub fn run(ctx: &Context<'_>, model: &BayesModel) -> Outcome {
    let doc = ctx.doc;
    let measured = measure(doc, &ctx.params.bayes, model);
    let mut content = Vec::new();
    let mut out_blocks = Vec::with_capacity(measured.blocks.len());
    let mut theme_chars = 0u64;
    for (b, &p) in measured.blocks.iter().zip(&measured.theme) {
        let is_theme = p >= 0.5;
        if is_theme {
            content.extend(b.texts.iter().copied());
            theme_chars += u64::from(b.counts.chars.saturating_sub(b.counts.link_chars));
        }
        out_blocks.push(Block::new(b.nodes[0], vec![("bayes_p", p)], is_theme, p));
    }
    let total = u64::from(doc.node(doc.body).stats.non_link_chars().max(1));
    let probability = coverage(theme_chars as f64, total as f64);
    Outcome::new(Content::Nodes(topmost(doc, content)), probability, out_blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_at_their_edges() {
        assert_eq!([bin_unlink(19), bin_unlink(20), bin_unlink(39), bin_unlink(40)], [0, 1, 1, 2]);
        assert_eq!([bin_unlink(79), bin_unlink(80), bin_unlink(100), bin_unlink(101)], [3, 4, 4, 5]);
        assert_eq!(
            [bin_link_ratio(0.0999), bin_link_ratio(0.10), bin_link_ratio(0.4999), bin_link_ratio(0.50)],
            [0, 1, 1, 2]
        );
        assert_eq!([bin_link_ratio(0.7999), bin_link_ratio(0.80), bin_link_ratio(1.0)], [2, 3, 3]);
        assert_eq!([bin_punct(0.0199), bin_punct(0.02), bin_punct(0.0999), bin_punct(0.10)], [0, 1, 1, 2]);
        assert_eq!([bin_p(0), bin_p(1), bin_p(3), bin_p(4)], [0, 1, 1, 2]);
    }

    #[test]
    fn laplace_smoothing_and_decision() {
        let mut m = BayesModel::default();
        assert!((m.theme_probability(&[0, 0, 0, 0]) - 0.5).abs() < 1e-12);
        for _ in 0..9 {
            m.observe(&[5, 0, 2, 2], true);
            m.observe(&[0, 3, 0, 0], false);
        }
        assert!(m.theme_probability(&[5, 0, 2, 2]) > 0.99);
        assert!(m.theme_probability(&[0, 3, 0, 0]) < 0.01);
        // Hand check with one observation per class: prior (1+1)/(2+2) = 1/2 each;
        // theme likelihood of [5,0,2,2] = (2/7)(2/5)(2/4)(2/4), noise = (1/7)(1/5)(1/4)(1/4): ratio 16.
        let mut one = BayesModel::default();
        one.observe(&[5, 0, 2, 2], true);
        one.observe(&[0, 3, 0, 0], false);
        assert!((one.theme_probability(&[5, 0, 2, 2]) - 16.0 / 17.0).abs() < 1e-12);
    }

    #[test]
    fn blocking_groups_text_by_block_ancestor() {
        let doc = Document::parse(
            "<body><div id=a><p>one, two.</p><p>three</p></div><ul><li><a href=/>x</a></li><li><a href=/>y</a></li></ul></body>",
        );
        let b = blocks(&doc, true);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].counts, BlockCounts { chars: 14, link_chars: 0, punct: 2, p_count: 2 });
        assert_eq!(b[1].counts.link_chars, 2);
    }
}

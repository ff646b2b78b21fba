//! The second look: features from the first-stage probabilities of a block's neighbours and siblings.
//!
//! One block alone is often ambiguous — a short line can be a subheading or a menu entry — while the
//! blocks around it are not: a line between two paragraphs the first stage is sure of is almost
//! always content, a "paragraph" inside a container of link lists almost never. The second stage
//! sees each block's own features plus these, so it can fill gaps in the article and drop islands of
//! noise. It is trained on out-of-fold first-stage probabilities (see `train`), so at training time it
//! sees first-stage mistakes as they happen on new pages.

use super::segment::Blocks;
use crate::dom::{Document, NONE};

/// Names of the context features, in the order [`context_features`] writes them.
pub const CONTEXT: &[&str] = &[
    "s1_p",
    "s1_prev",
    "s1_next",
    "s1_prev2",
    "s1_next2",
    "s1_window3",
    "s1_window10",
    "s1_max_window3",
    "s1_parent",
    "s1_parent_max",
    "s1_grandparent",
    "s1_inside_span",
    "s1_span_distance",
    "s1_page_mass",
    "s1_mass_before",
    "s1_mass_after",
];

/// What the context features need to know of each block besides the probabilities: its size and
/// where it hangs. Kept apart from the page so that training can hold it for thousands of pages.
#[derive(Debug, Clone, Default)]
pub struct Neighbourhood {
    pub chars: Vec<u32>,
    /// The parent and the grandparent of each block's owner element.
    pub parent: Vec<u32>,
    pub grandparent: Vec<u32>,
}

impl Neighbourhood {
    pub fn of(doc: &Document, blocks: &Blocks) -> Neighbourhood {
        let up = |mut a: u32| {
            let q = doc.node(a).parent;
            if q != NONE {
                a = q;
            }
            a
        };
        let mut l = Neighbourhood::default();
        for b in &blocks.list {
            let p = up(b.owner);
            l.chars.push(b.chars);
            l.parent.push(p);
            l.grandparent.push(up(p));
        }
        l
    }
}

/// Context features of every block (row-major, `CONTEXT.len()` per block) from first-stage
/// probabilities `p` (one per block).
pub fn context_features(layout: &Neighbourhood, p: &[f64]) -> Vec<f32> {
    let rows = ContextRows::new(layout, p);
    let mut out = Vec::with_capacity(p.len() * CONTEXT.len());
    for k in 0..layout.chars.len() {
        out.extend_from_slice(&rows.row(k));
    }
    out
}

/// What every block's context features are read from: the page-wide sums over the first-stage
/// probabilities, computed once, so that a block's row ([`ContextRows::row`]) is asked for only when
/// it is needed (stage 2 reads the rows of the blocks stage 1 is unsure of).
pub struct ContextRows<'a> {
    layout: &'a Neighbourhood,
    p: &'a [f64],
    /// Prefix sums of chars and chars·p, for window means and masses.
    cs: Vec<f64>,
    ps: Vec<f64>,
    /// Chars·p, chars and the largest p per parent (1) and grandparent (2) of the blocks' owners.
    groups: crate::hash::IdMap<(u32, u8), (f64, f64, f64)>,
    /// The first and the last confident block.
    span: Option<(usize, usize)>,
    total_mass: f64,
}

/// How many context features a row has.
const WIDTH: usize = 16;
const _: () = assert!(CONTEXT.len() == WIDTH);

impl<'a> ContextRows<'a> {
    pub fn new(layout: &'a Neighbourhood, p: &'a [f64]) -> ContextRows<'a> {
        let n = layout.chars.len();
        let chars = |k: usize| f64::from(layout.chars[k].max(1));
        let mut cs = vec![0.0; n + 1];
        let mut ps = vec![0.0; n + 1];
        for k in 0..n {
            cs[k + 1] = cs[k] + chars(k);
            ps[k + 1] = ps[k] + chars(k) * p[k];
        }
        let mut groups: crate::hash::IdMap<(u32, u8), (f64, f64, f64)> = crate::hash::IdMap::default();
        for (k, &pk) in p.iter().enumerate().take(n) {
            for steps in [1u8, 2] {
                let e = groups.entry((up(layout, k, steps), steps)).or_insert((0.0, 0.0, 0.0));
                e.0 += chars(k) * pk;
                e.1 += chars(k);
                e.2 = e.2.max(pk);
            }
        }
        // The span: from the first to the last confident block with some text. "Confident" is part of
        // the feature's definition, fixed at 0.5 as the models were trained, not the configurable
        // threshold at which blocks are kept.
        let confident = |k: &usize| p[*k] >= 0.5 && layout.chars[*k] >= 30;
        let span = (0..n).find(confident).zip((0..n).rev().find(confident));
        let total_mass = ps[n].max(1e-9);
        ContextRows { layout, p, cs, ps, groups, span, total_mass }
    }

    /// The context features of block `k`, in [`CONTEXT`]'s order.
    pub fn row(&self, k: usize) -> [f32; WIDTH] {
        let (p, cs, ps) = (self.p, &self.cs, &self.ps);
        let n = self.layout.chars.len();
        let window = |k: usize, r: usize| {
            let (lo, hi) = (k.saturating_sub(r), (k + r + 1).min(n));
            (ps[hi] - ps[lo]) / (cs[hi] - cs[lo]).max(1.0)
        };
        let at = |j: isize| {
            let j = k as isize + j;
            if j >= 0 && (j as usize) < n { p[j as usize] as f32 } else { 0.0 }
        };
        let (lo, hi) = (k.saturating_sub(3), (k + 4).min(n));
        let max3 = p[lo..hi].iter().copied().fold(0.0, f64::max);
        let g1 = self.groups.get(&(up(self.layout, k, 1), 1)).copied().unwrap_or_default();
        let g2 = self.groups.get(&(up(self.layout, k, 2), 2)).copied().unwrap_or_default();
        let (inside, distance) = match self.span {
            Some((f, l)) if k >= f && k <= l => (1.0, 0.0),
            Some((f, l)) => (0.0, (if k < f { f - k } else { k - l }) as f32),
            None => (0.0, n as f32),
        };
        [
            p[k] as f32,
            at(-1),
            at(1),
            at(-2),
            at(2),
            window(k, 3) as f32,
            window(k, 10) as f32,
            max3 as f32,
            (g1.0 / g1.1.max(1.0)) as f32,
            g1.2 as f32,
            (g2.0 / g2.1.max(1.0)) as f32,
            inside,
            (1.0 + distance).ln(),
            (ps[n] / cs[n].max(1.0)) as f32,
            (ps[k] / self.total_mass) as f32,
            ((ps[n] - ps[k + 1]) / self.total_mass) as f32,
        ]
    }
}

/// Block `k`'s owner's parent (`steps` 1) or grandparent (2).
fn up(layout: &Neighbourhood, k: usize, steps: u8) -> u32 {
    if steps == 1 { layout.parent[k] } else { layout.grandparent[k] }
}

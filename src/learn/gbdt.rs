//! Gradient-boosted oblivious decision trees for a probability: the learner behind `auto`'s block
//! classifier and its has-article model.
//!
//! Why trees: the seed methods' measures (text density, DensitySum, the P value, the Naive Bayes
//! posterior, the anchor ratio) are each right in some region of the feature space and wrong in
//! another; a few hundred shallow trees learn those regions from labelled pages, where one hand-set
//! weighting cannot.
//!
//! Why *oblivious* trees (every node of one level asks the same question): a tree of depth D is then
//! D comparisons that set the D bits of a leaf index — no branches to mispredict, no pointers to
//! chase — so scoring every block of a page costs a few microseconds, which matters in a service whose
//! budget per page is a fraction of an HTML parse. The shared splits also regularise: a level must
//! help every branch at once. Why this small implementation rather than a library: inference is a
//! loop over flat arrays, and training is deterministic (no sampling, ties broken by feature order),
//! so the same pages always give the same model file.
//!
//! Training is second-order boosting of the logistic loss (soft labels in [0, 1] allowed, per-row
//! weights), one level at a time on histograms of at most [`MAX_BINS`] quantile bins per feature.
//! Thresholds are stored as raw feature values, so prediction never bins.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::learn::memo::Memo;

/// Bins per feature at most.
pub const MAX_BINS: usize = 64;

/// Deepest tree accepted (2^12 leaves).
const MAX_DEPTH: usize = 12;

/// One oblivious tree: level `d` sends a row right when `x[feature[d]] > threshold[d]`, which sets
/// bit `d` of the leaf index.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Tree {
    pub feature: Vec<u32>,
    pub threshold: Vec<f32>,
    /// `2^depth` leaf values.
    pub value: Vec<f32>,
}

impl Tree {
    /// The leaf value `x` falls into.
    #[inline]
    pub fn eval(&self, x: &[f32]) -> f32 {
        let mut leaf = 0usize;
        for (d, (&f, &t)) in self.feature.iter().zip(&self.threshold).enumerate() {
            leaf |= usize::from(x[f as usize] > t) << d;
        }
        self.value[leaf]
    }

    fn check(&self, features: usize) -> Result<(), String> {
        let depth = self.feature.len();
        if depth > MAX_DEPTH || self.threshold.len() != depth || self.value.len() != 1 << depth {
            return Err(format!("tree of {depth} levels has {} leaves", self.value.len()));
        }
        if self.feature.iter().any(|&f| f as usize >= features) {
            return Err("tree splits on a feature the model does not have".into());
        }
        Ok(())
    }
}

/// A trained ensemble.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Forest {
    /// Feature names in input order: a model is refused when they differ from the code's.
    pub features: Vec<String>,
    /// Initial log-odds.
    pub base: f64,
    pub trees: Vec<Tree>,
    /// Total split gain per feature over all trees, for the record (which measures the model leans on).
    #[serde(default)]
    pub gain: Vec<f64>,
    /// The trees laid out for [`Packed`] scoring, built on first use.
    #[serde(skip)]
    packed: Memo<Option<Packed>>,
}

/// Trees of at most [`PACKED_DEPTH`] levels laid out for scoring eight rows at a time: every tree
/// padded to that depth (a padding level asks a question no value answers yes to, `> +inf`) and its
/// leaf values to a fixed table. Eight rows' leaf indices and margins then stay in vector registers
/// across all the trees, where the level-at-a-time loops of [`Forest::predict_columns`] stored and
/// reloaded them for every level and ran most of a page's 40 or 50 rows through their narrower
/// remainder loops.
#[derive(Debug, Clone, PartialEq)]
struct Packed {
    feature: Vec<[u32; PACKED_DEPTH]>,
    threshold: Vec<[f32; PACKED_DEPTH]>,
    value: Vec<[f32; 1 << PACKED_DEPTH]>,
}

/// The depth [`Packed`] pads every tree to (the shipped models' trees have six levels).
const PACKED_DEPTH: usize = 6;
/// Rows scored together by [`Packed`].
const LANES: usize = 8;
/// The most rows [`Forest::predict_columns`] scores with [`Packed`].
const PACKED_MAX_ROWS: usize = 96;

impl Packed {
    /// The packed form, or `None` when a tree is deeper than [`PACKED_DEPTH`].
    fn new(trees: &[Tree]) -> Option<Packed> {
        let mut p = Packed { feature: Vec::new(), threshold: Vec::new(), value: Vec::new() };
        for t in trees {
            if t.feature.len() > PACKED_DEPTH {
                return None;
            }
            let mut feature = [0u32; PACKED_DEPTH];
            let mut threshold = [f32::INFINITY; PACKED_DEPTH];
            feature[..t.feature.len()].copy_from_slice(&t.feature);
            threshold[..t.threshold.len()].copy_from_slice(&t.threshold);
            let mut value = [0f32; 1 << PACKED_DEPTH];
            value[..t.value.len()].copy_from_slice(&t.value);
            p.feature.push(feature);
            p.threshold.push(threshold);
            p.value.push(value);
        }
        Some(p)
    }

    /// Margins (leaf values summed in tree order, as [`Forest::columns`] sums them) for `n` rows given
    /// feature-major.
    #[inline(always)]
    fn margins(&self, columns: &[f32], n: usize) -> Vec<f32> {
        let width = columns.len() / n.max(1);
        let mut out = Vec::with_capacity(n.div_ceil(LANES) * LANES);
        // The last group's rows, padded with zeros to a whole group (their margins are dropped).
        let tail = n % LANES;
        let mut padded = Vec::new();
        if tail > 0 {
            padded = vec![0f32; width * LANES];
            for f in 0..width {
                padded[f * LANES..f * LANES + tail].copy_from_slice(&columns[f * n + n - tail..(f + 1) * n]);
            }
        }
        for g in 0..n.div_ceil(LANES) {
            let whole = (g + 1) * LANES <= n;
            let (src, stride, at) = if whole { (columns, n, g * LANES) } else { (&padded[..], LANES, 0) };
            let mut margin = [0f32; LANES];
            for ((feature, threshold), value) in self.feature.iter().zip(&self.threshold).zip(&self.value) {
                let mut leaf = [0u32; LANES];
                for d in 0..PACKED_DEPTH {
                    let start = feature[d] as usize * stride + at;
                    let Some(v) = src.get(start..).and_then(<[f32]>::first_chunk::<LANES>) else { continue };
                    for i in 0..LANES {
                        leaf[i] |= u32::from(v[i] > threshold[d]) << d;
                    }
                }
                for i in 0..LANES {
                    margin[i] += value[leaf[i] as usize & ((1 << PACKED_DEPTH) - 1)];
                }
            }
            out.extend_from_slice(&margin);
        }
        out.truncate(n);
        out
    }
}

/// The logistic function: log-odds to a probability (the link of every model here).
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl Forest {
    /// Log-odds for one row.
    #[inline]
    pub fn margin(&self, x: &[f32]) -> f64 {
        self.base + self.trees.iter().map(|t| f64::from(t.eval(x))).sum::<f64>()
    }

    /// Probability for one row.
    pub fn predict(&self, x: &[f32]) -> f64 {
        sigmoid(self.margin(x))
    }

    /// Probabilities for `n` rows given feature-major (`columns[f * n + r]`): each tree computes the
    /// leaf index of all rows one level at a time over contiguous values, a loop the compiler turns
    /// into vector instructions. The same results as [`Forest::predict`] row by row, several times
    /// faster on a page's hundreds of blocks.
    pub fn predict_columns(&self, columns: &[f32], n: usize) -> Vec<f64> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked on the line above), the only requirement of a
            // `target_feature` function.
            return unsafe { self.predict_columns_avx2(columns, n) };
        }
        self.columns(columns, n)
    }

    /// [`Forest::predict_columns`] compiled for AVX2: twice the lanes per comparison. The build
    /// targets baseline x86-64 so the binary runs anywhere; this one loop is where wider vectors pay.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn predict_columns_avx2(&self, columns: &[f32], n: usize) -> Vec<f64> {
        self.columns(columns, n)
    }

    #[inline(always)]
    fn columns(&self, columns: &[f32], n: usize) -> Vec<f64> {
        // A page's few dozen blocks go eight at a time through the packed trees; many rows (a long
        // page's hundreds of blocks) keep the level-at-a-time loops, which are the faster of the two
        // once the remainders are small beside the whole (callgrind: 96 rows and fewer is where the
        // packed form saves on l3s-gn1, zh-cwce and wcxb-dev pages alike).
        if n <= PACKED_MAX_ROWS
            && let Some(p) = self.packed.get_or_init(|| Packed::new(&self.trees))
        {
            return p.margins(columns, n).into_iter().map(|m| sigmoid(self.base + f64::from(m))).collect();
        }
        // Leaf values are f32; summing them in f32 keeps the loop narrow (the sum of a few hundred
        // values of about 0.1 loses nothing that matters to a probability).
        let mut margin = vec![0f32; n];
        let mut leaf = vec![0u32; n];
        let mut values = [0f32; 1 << MAX_DEPTH];
        for t in &self.trees {
            // The first level sets each leaf index, so it needs no clearing between trees.
            if t.feature.is_empty() {
                leaf.iter_mut().for_each(|l| *l = 0);
            }
            for (d, (&f, &th)) in t.feature.iter().zip(&t.threshold).enumerate() {
                let col = &columns[f as usize * n..(f as usize + 1) * n];
                if d == 0 {
                    for (l, &v) in leaf.iter_mut().zip(col) {
                        *l = u32::from(v > th);
                    }
                } else {
                    for (l, &v) in leaf.iter_mut().zip(col) {
                        *l |= u32::from(v > th) << d;
                    }
                }
            }
            // A fixed-size table indexed under a mask: no bounds check, so the gather vectorises.
            let k = t.value.len().min(values.len());
            values[..k].copy_from_slice(&t.value[..k]);
            for (m, &l) in margin.iter_mut().zip(&leaf) {
                *m += values[l as usize & ((1 << MAX_DEPTH) - 1)];
            }
        }
        margin.into_iter().map(|m| sigmoid(self.base + f64::from(m))).collect()
    }

    /// True when there is something to predict with.
    pub fn is_trained(&self) -> bool {
        !self.trees.is_empty()
    }

    /// Check a loaded model against the feature names the code computes.
    pub fn validate(&self, names: &[&str]) -> Result<(), String> {
        if !self.is_trained() {
            return Ok(());
        }
        if self.features.len() != names.len() || self.features.iter().zip(names).any(|(a, b)| a != b) {
            return Err(format!(
                "model features ({}) differ from the code's ({}): retrain with `pith train`",
                self.features.len(),
                names.len()
            ));
        }
        self.trees.iter().try_for_each(|t| t.check(names.len()))
    }
}

/// Training settings.
#[derive(Debug, Clone, Copy)]
pub struct TrainParams {
    pub trees: usize,
    pub max_depth: usize,
    pub learning_rate: f64,
    /// L2 penalty on leaf values.
    pub lambda: f64,
    /// Smallest summed hessian (weighted row count, roughly) of a leaf for its split to count.
    pub min_child_weight: f64,
}

impl Default for TrainParams {
    fn default() -> Self {
        TrainParams { trees: 300, max_depth: 6, learning_rate: 0.1, lambda: 1.0, min_child_weight: 5.0 }
    }
}

/// Rows of features, row-major, with labels in [0, 1] and weights.
pub struct Data<'a> {
    pub x: &'a [f32],
    pub y: &'a [f32],
    pub w: &'a [f32],
    pub features: usize,
}

/// Quantile cut points of one feature column (sorted, distinct, at most `MAX_BINS - 1`).
fn cuts(mut col: Vec<f32>) -> Vec<f32> {
    col.retain(|v| v.is_finite());
    col.sort_by(f32::total_cmp);
    col.dedup();
    if col.len() <= MAX_BINS {
        // Few distinct values: cut between every pair (the last value needs no cut).
        col.pop();
        return col;
    }
    let mut out: Vec<f32> = (1..MAX_BINS).map(|k| col[k * col.len() / MAX_BINS]).collect();
    out.dedup();
    out
}

#[inline]
fn bin_of(cuts: &[f32], v: f32) -> u8 {
    // Number of cuts below v: `v <= cuts[b]` exactly when `bin_of(v) <= b`.
    cuts.partition_point(|&c| c < v) as u8
}

/// Grow a forest.
pub fn train(data: &Data<'_>, names: &[&str], p: &TrainParams) -> Forest {
    train_with_margins(data, names, p).0
}

/// Histograms: per leaf, per feature, per bin, (gradient, hessian).
type Hist = Vec<[f64; 2]>;

/// Grow a forest; also return the training rows' final log-odds as tracked on bins.
fn train_with_margins(data: &Data<'_>, names: &[&str], p: &TrainParams) -> (Forest, Vec<f64>) {
    let (n, nf) = (data.y.len(), data.features);
    let depth = p.max_depth.clamp(1, MAX_DEPTH);
    let all_cuts: Vec<Vec<f32>> = (0..nf)
        .into_par_iter()
        .map(|f| {
            let stride = (n / 200_000).max(1);
            cuts((0..n).step_by(stride).map(|i| data.x[i * nf + f]).collect())
        })
        .collect();
    // Column-major bins.
    let bins: Vec<Vec<u8>> =
        (0..nf).into_par_iter().map(|f| (0..n).map(|i| bin_of(&all_cuts[f], data.x[i * nf + f])).collect()).collect();
    let wsum: f64 = data.w.iter().map(|&w| f64::from(w)).sum();
    let ysum: f64 = data.y.iter().zip(data.w).map(|(&y, &w)| f64::from(y) * f64::from(w)).sum();
    let prior = (ysum / wsum.max(1e-12)).clamp(1e-6, 1.0 - 1e-6);
    let base = (prior / (1.0 - prior)).ln();
    let mut margin = vec![base; n];
    let mut grad = vec![0f64; n];
    let mut hess = vec![0f64; n];
    let mut gain = vec![0f64; nf];
    let mut leaf_of = vec![0u32; n];
    let mut trees = Vec::with_capacity(p.trees);
    for _ in 0..p.trees {
        for i in 0..n {
            let q = sigmoid(margin[i]);
            let w = f64::from(data.w[i]);
            grad[i] = (q - f64::from(data.y[i])) * w;
            hess[i] = (q * (1.0 - q)).max(1e-6) * w;
        }
        leaf_of.iter_mut().for_each(|l| *l = 0);
        let mut tree = Tree::default();
        let all_rows: Vec<u32> = (0..n as u32).collect();
        // Level 0: one leaf, every row.
        let mut hists: Vec<Hist> =
            bins.par_iter().map(|col| histogram(col, &all_rows, &leaf_of, 1, &grad, &hess)).collect();
        for d in 0..depth {
            let leaves = 1usize << d;
            let Some((f, b, g)) = best_level_split(&hists, leaves, p) else { break };
            gain[f] += g;
            tree.feature.push(f as u32);
            tree.threshold.push(all_cuts[f][b as usize]);
            let col = &bins[f];
            let mut right: Vec<u32> = Vec::new();
            for (i, l) in leaf_of.iter_mut().enumerate() {
                if col[i] > b {
                    *l |= 1 << d;
                    right.push(i as u32);
                }
            }
            if d + 1 == depth {
                break;
            }
            // Next level's histograms: build the right children's from their rows, and get the left
            // children's by subtracting those from the parents' (half the rows visited).
            hists = bins
                .par_iter()
                .zip(hists.par_iter())
                .map(|(col, parent)| {
                    let mut h = histogram(col, &right, &leaf_of, 2 * leaves, &grad, &hess);
                    for l in 0..leaves {
                        for k in 0..MAX_BINS {
                            let (pe, re) = (parent[l * MAX_BINS + k], h[(l + leaves) * MAX_BINS + k]);
                            h[l * MAX_BINS + k] = [pe[0] - re[0], pe[1] - re[1]];
                        }
                    }
                    h
                })
                .collect();
        }
        // Leaf values from the rows' sums.
        let leaves = 1usize << tree.feature.len();
        let mut sums = vec![[0.0f64; 2]; leaves];
        for i in 0..n {
            let s = &mut sums[leaf_of[i] as usize];
            s[0] += grad[i];
            s[1] += hess[i];
        }
        tree.value = sums.iter().map(|s| (-s[0] / (s[1] + p.lambda) * p.learning_rate) as f32).collect();
        for i in 0..n {
            margin[i] += f64::from(tree.value[leaf_of[i] as usize]);
        }
        trees.push(tree);
    }
    (
        Forest { features: names.iter().map(|s| s.to_string()).collect(), base, trees, gain, packed: Memo::default() },
        margin,
    )
}

/// One feature's histograms over `rows`, a block of `MAX_BINS` bins per leaf.
fn histogram(col: &[u8], rows: &[u32], leaf_of: &[u32], leaves: usize, grad: &[f64], hess: &[f64]) -> Hist {
    let mut h = vec![[0.0; 2]; leaves * MAX_BINS];
    for &i in rows {
        let i = i as usize;
        let e = &mut h[leaf_of[i] as usize * MAX_BINS + col[i] as usize];
        e[0] += grad[i];
        e[1] += hess[i];
    }
    h
}

/// The (feature, bin, gain) that splits every current leaf best in total. A leaf whose smaller side
/// would weigh less than `min_child_weight` contributes no gain (it is split all the same).
fn best_level_split(hists: &[Hist], leaves: usize, p: &TrainParams) -> Option<(usize, u8, f64)> {
    let score = |g: f64, h: f64| g * g / (h + p.lambda);
    hists
        .par_iter()
        .enumerate()
        .map(|(f, h)| {
            let mut best: Option<(usize, u8, f64)> = None;
            let mut total = vec![[0.0f64; 2]; leaves];
            for (l, t) in total.iter_mut().enumerate() {
                for e in &h[l * MAX_BINS..(l + 1) * MAX_BINS] {
                    t[0] += e[0];
                    t[1] += e[1];
                }
            }
            let mut left = vec![[0.0f64; 2]; leaves];
            for b in 0..MAX_BINS - 1 {
                let mut g = 0.0;
                for l in 0..leaves {
                    let e = h[l * MAX_BINS + b];
                    left[l][0] += e[0];
                    left[l][1] += e[1];
                    let (gl, hl) = (left[l][0], left[l][1]);
                    let (gr, hr) = (total[l][0] - gl, total[l][1] - hl);
                    if hl >= p.min_child_weight && hr >= p.min_child_weight {
                        g += score(gl, hl) + score(gr, hr) - score(total[l][0], total[l][1]);
                    }
                }
                if g > 1e-9 && best.is_none_or(|s| g > s.2) {
                    best = Some((f, b as u8, g));
                }
            }
            best
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .fold(None, |acc: Option<(usize, u8, f64)>, c| match acc {
            Some(a) if a.2 >= c.2 => Some(a),
            _ => Some(c),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(n: usize) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        // y = 1 when x0 > 0.5 and x1 < 0.3, or x2 > 0.9; deterministic pseudo-random inputs.
        let mut s = 12345u64;
        let mut r = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % 10_000) as f32 / 10_000.0
        };
        let mut x = Vec::new();
        let mut y = Vec::new();
        for _ in 0..n {
            let v = [r(), r(), r()];
            y.push(if (v[0] > 0.5 && v[1] < 0.3) || v[2] > 0.9 { 1.0 } else { 0.0 });
            x.extend(v);
        }
        (x, y, vec![1.0; n])
    }

    #[test]
    fn learns_an_interaction_and_is_deterministic() {
        let (x, y, w) = data(4000);
        let d = Data { x: &x, y: &y, w: &w, features: 3 };
        let p = TrainParams { trees: 60, max_depth: 3, learning_rate: 0.3, ..TrainParams::default() };
        let f = train(&d, &["a", "b", "c"], &p);
        assert_eq!(f, train(&d, &["a", "b", "c"], &p));
        f.validate(&["a", "b", "c"]).unwrap();
        assert!(f.validate(&["a", "b"]).is_err());
        let wrong = (0..4000).filter(|&i| (f.predict(&x[i * 3..i * 3 + 3]) >= 0.5) != (y[i] == 1.0)).count();
        assert!(wrong < 80, "{wrong} of 4000 misclassified");
        assert!(f.predict(&[0.8, 0.1, 0.2]) > 0.9);
        assert!(f.predict(&[0.2, 0.1, 0.2]) < 0.1);
        assert!(f.predict(&[0.2, 0.8, 0.95]) > 0.9);
        assert!(f.gain.iter().all(|&g| g > 0.0));
    }

    #[test]
    fn column_prediction_equals_row_prediction() {
        let (x, y, w) = data(300);
        let d = Data { x: &x, y: &y, w: &w, features: 3 };
        let f = train(&d, &["a", "b", "c"], &TrainParams { trees: 20, max_depth: 4, ..TrainParams::default() });
        let cols: Vec<f32> = (0..3).flat_map(|c| (0..300).map(move |r| (c, r))).map(|(c, r)| x[r * 3 + c]).collect();
        let by_cols = f.predict_columns(&cols, 300);
        for r in 0..300 {
            assert!((by_cols[r] - f.predict(&x[r * 3..r * 3 + 3])).abs() < 1e-5);
        }
    }

    #[test]
    fn packed_scoring_gives_the_row_by_row_probabilities_for_any_row_count() {
        let (x, y, w) = data(300);
        let d = Data { x: &x, y: &y, w: &w, features: 3 };
        // Depth 3 (padded to the packed depth) and depth 6 (as shipped).
        for depth in [3, 6] {
            let f = train(&d, &["a", "b", "c"], &TrainParams { trees: 20, max_depth: depth, ..TrainParams::default() });
            let p = Packed::new(&f.trees).expect("no tree is deeper than the packed depth");
            for n in [1, 7, 8, 9, 40, 96, 97, 300] {
                let x = &x;
                let cols: Vec<f32> = (0..3).flat_map(|c| (0..n).map(move |r| x[r * 3 + c])).collect();
                let m = p.margins(&cols, n);
                assert_eq!(m.len(), n);
                let by_cols = f.predict_columns(&cols, n);
                for r in 0..n {
                    let row = f.predict(&x[r * 3..r * 3 + 3]);
                    assert!((sigmoid(f.base + f64::from(m[r])) - row).abs() < 1e-5, "depth {depth}, n {n}, row {r}");
                    assert!((by_cols[r] - row).abs() < 1e-5, "depth {depth}, n {n}, row {r}");
                }
            }
        }
        // A deeper tree has no packed form (the level loops score it).
        let deep = Tree { feature: vec![0; 7], threshold: vec![0.0; 7], value: vec![0.0; 128] };
        assert!(Packed::new(&[deep]).is_none());
    }

    #[test]
    fn binned_training_matches_raw_prediction() {
        // The margin tracked on bins during training equals the prediction from raw thresholds.
        let (x, y, w) = data(500);
        let d = Data { x: &x, y: &y, w: &w, features: 3 };
        let (f, margins) =
            train_with_margins(&d, &["a", "b", "c"], &TrainParams { trees: 5, ..TrainParams::default() });
        for i in 0..500 {
            assert!((f.margin(&x[i * 3..i * 3 + 3]) - margins[i]).abs() < 1e-4, "row {i}");
        }
        assert!(f.trees[0].check(3).is_ok());
        let bad = Tree { feature: vec![0], threshold: vec![0.0], value: vec![0.0] };
        assert!(bad.check(3).is_err());
        let outside = Tree { feature: vec![7], threshold: vec![0.0], value: vec![0.0, 1.0] };
        assert!(outside.check(3).is_err());
    }

    #[test]
    fn cuts_are_distinct_quantiles() {
        assert_eq!(cuts(vec![1.0, 1.0, 2.0, 3.0]), vec![1.0, 2.0]);
        let c = cuts((0..1000).map(|i| i as f32).collect());
        assert_eq!(c.len(), MAX_BINS - 1);
        assert!(c.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(bin_of(&c, -5.0), 0);
        assert_eq!(bin_of(&c, 1e9) as usize, c.len());
    }
}

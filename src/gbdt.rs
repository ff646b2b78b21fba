//! Gradient-boosted decision trees for a probability: the learner behind `auto`'s block classifier.
//!
//! Why trees: the seed methods' measures (text density, DensitySum, the P value, the Naive Bayes
//! posterior, the anchor ratio) are each right in some region of the feature space and wrong in
//! another; a few hundred shallow trees learn those regions from labelled pages, where one hand-set
//! weighting cannot. Why this small implementation rather than a library: inference is a loop over
//! flat arrays (no allocation, no dependency), and training is deterministic — no sampling, ties broken
//! by feature order — so the same pages always give the same model file.
//!
//! Training is the usual second-order boosting of the logistic loss (soft labels in [0, 1] allowed,
//! per-row weights), grown depth-wise on histograms of at most [`MAX_BINS`] quantile bins per feature.
//! Split thresholds are stored as raw feature values, so prediction never bins.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Bins per feature at most.
pub const MAX_BINS: usize = 64;

/// One tree as flat arrays; node 0 is the root. A leaf has `feature == -1`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct Tree {
    pub feature: Vec<i32>,
    pub threshold: Vec<f32>,
    pub left: Vec<u32>,
    pub right: Vec<u32>,
    pub value: Vec<f32>,
}

impl Tree {
    /// The leaf value `x` falls into (`x[f] <= threshold` goes left).
    #[inline]
    pub fn eval(&self, x: &[f32]) -> f32 {
        let mut n = 0usize;
        loop {
            let f = self.feature[n];
            if f < 0 {
                return self.value[n];
            }
            n = if x[f as usize] <= self.threshold[n] { self.left[n] } else { self.right[n] } as usize;
        }
    }

    fn check(&self, features: usize) -> Result<(), String> {
        let n = self.feature.len();
        if n == 0 || self.threshold.len() != n || self.left.len() != n || self.right.len() != n || self.value.len() != n
        {
            return Err("tree arrays differ in length or are empty".into());
        }
        for k in 0..n {
            let f = self.feature[k];
            if f >= 0 {
                let (l, r) = (self.left[k] as usize, self.right[k] as usize);
                // Children come after their parent: evaluation always moves forward and ends.
                if f as usize >= features || l <= k || r <= k || l >= n || r >= n {
                    return Err(format!("tree node {k} points outside the tree"));
                }
            }
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
}

fn sigmoid(z: f64) -> f64 {
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
    /// Smallest summed hessian (weighted row count, roughly) a child may have.
    pub min_child_weight: f64,
}

impl Default for TrainParams {
    fn default() -> Self {
        TrainParams { trees: 200, max_depth: 5, learning_rate: 0.1, lambda: 1.0, min_child_weight: 5.0 }
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
    // First cut >= v; values above every cut go to the last bin.
    cuts.partition_point(|&c| c < v) as u8
}

struct Split {
    gain: f64,
    feature: usize,
    bin: u8,
}

/// Grow a forest.
pub fn train(data: &Data<'_>, names: &[&str], p: &TrainParams) -> Forest {
    train_with_margins(data, names, p).0
}

/// Grow a forest; also return the training rows' final log-odds as tracked on bins.
fn train_with_margins(data: &Data<'_>, names: &[&str], p: &TrainParams) -> (Forest, Vec<f64>) {
    let (n, nf) = (data.y.len(), data.features);
    // Column-major bins.
    let all_cuts: Vec<Vec<f32>> = (0..nf)
        .into_par_iter()
        .map(|f| {
            let stride = (n / 200_000).max(1);
            cuts((0..n).step_by(stride).map(|i| data.x[i * nf + f]).collect())
        })
        .collect();
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
    let mut trees = Vec::with_capacity(p.trees);
    for _ in 0..p.trees {
        for i in 0..n {
            let q = sigmoid(margin[i]);
            let w = f64::from(data.w[i]);
            grad[i] = (q - f64::from(data.y[i])) * w;
            hess[i] = (q * (1.0 - q)).max(1e-6) * w;
        }
        let tree = grow(&bins, &all_cuts, &grad, &hess, p, &mut gain, &mut margin);
        trees.push(tree);
    }
    (Forest { features: names.iter().map(|s| s.to_string()).collect(), base, trees, gain }, margin)
}

type Hist = Vec<[f64; 2]>;
/// A node still to grow: its index in the tree, its rows, its depth, and its histograms when known.
type Pending = (usize, Vec<u32>, usize, Option<Vec<Hist>>);

fn histograms(bins: &[Vec<u8>], rows: &[u32], grad: &[f64], hess: &[f64]) -> Vec<Hist> {
    bins.par_iter()
        .map(|col| {
            let mut h = vec![[0.0; 2]; MAX_BINS];
            for &i in rows {
                let e = &mut h[col[i as usize] as usize];
                e[0] += grad[i as usize];
                e[1] += hess[i as usize];
            }
            h
        })
        .collect()
}

fn best_split(hists: &[Hist], g: f64, h: f64, p: &TrainParams) -> Option<Split> {
    let parent = g * g / (h + p.lambda);
    let mut best: Option<Split> = None;
    for (f, hist) in hists.iter().enumerate() {
        let (mut gl, mut hl) = (0.0, 0.0);
        for (b, e) in hist.iter().enumerate().take(MAX_BINS - 1) {
            gl += e[0];
            hl += e[1];
            let (gr, hr) = (g - gl, h - hl);
            if hl < p.min_child_weight || hr < p.min_child_weight {
                continue;
            }
            let gain = gl * gl / (hl + p.lambda) + gr * gr / (hr + p.lambda) - parent;
            if gain > 1e-9 && best.as_ref().is_none_or(|s| gain > s.gain) {
                best = Some(Split { gain, feature: f, bin: b as u8 });
            }
        }
    }
    best
}

fn grow(
    bins: &[Vec<u8>],
    cuts: &[Vec<f32>],
    grad: &[f64],
    hess: &[f64],
    p: &TrainParams,
    gain: &mut [f64],
    margin: &mut [f64],
) -> Tree {
    let mut t = Tree::default();
    let all: Vec<u32> = (0..grad.len() as u32).collect();
    let mut stack: Vec<Pending> = vec![(0, all, 0, None)];
    let push_node = |t: &mut Tree| {
        t.feature.push(-1);
        t.threshold.push(0.0);
        t.left.push(0);
        t.right.push(0);
        t.value.push(0.0);
        t.feature.len() - 1
    };
    push_node(&mut t);
    while let Some((node, rows, depth, hists)) = stack.pop() {
        let g: f64 = rows.iter().map(|&i| grad[i as usize]).sum();
        let h: f64 = rows.iter().map(|&i| hess[i as usize]).sum();
        let mut leaf = |t: &mut Tree| {
            let v = (-g / (h + p.lambda) * p.learning_rate) as f32;
            t.value[node] = v;
            for &i in &rows {
                margin[i as usize] += f64::from(v);
            }
        };
        if depth >= p.max_depth || rows.len() < 2 {
            leaf(&mut t);
            continue;
        }
        let hists = hists.unwrap_or_else(|| histograms(bins, &rows, grad, hess));
        let Some(split) = best_split(&hists, g, h, p) else {
            leaf(&mut t);
            continue;
        };
        gain[split.feature] += split.gain;
        let col = &bins[split.feature];
        let (lrows, rrows): (Vec<u32>, Vec<u32>) = rows.iter().partition(|&&i| col[i as usize] <= split.bin);
        // Histogram subtraction: build the smaller child's, derive the larger's from the parent.
        let small_left = lrows.len() <= rrows.len();
        let small = histograms(bins, if small_left { &lrows } else { &rrows }, grad, hess);
        let large: Vec<Hist> = hists
            .iter()
            .zip(&small)
            .map(|(ph, sh)| ph.iter().zip(sh).map(|(a, b)| [a[0] - b[0], a[1] - b[1]]).collect())
            .collect();
        let (lh, rh) = if small_left { (small, large) } else { (large, small) };
        let l = push_node(&mut t);
        let r = push_node(&mut t);
        t.feature[node] = split.feature as i32;
        t.threshold[node] = cuts[split.feature][split.bin as usize];
        t.left[node] = l as u32;
        t.right[node] = r as u32;
        stack.push((r, rrows, depth + 1, Some(rh)));
        stack.push((l, lrows, depth + 1, Some(lh)));
    }
    t
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
        // Feature 2 matters as much as the others; gain is recorded for all three.
        assert!(f.gain.iter().all(|&g| g > 0.0));
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
        let t = &f.trees[0];
        assert!(t.check(3).is_ok());
        let bad = Tree { feature: vec![0], threshold: vec![0.0], left: vec![0], right: vec![0], value: vec![0.0] };
        assert!(bad.check(3).is_err());
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

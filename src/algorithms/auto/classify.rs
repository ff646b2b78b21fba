//! `auto`'s block classifier: two stages of gradient-boosted trees (see [`crate::learn::gbdt`]).
//!
//! Stage 1 judges each block from its own measures ([`super::feature_names`]); stage 2 judges it again
//! with stage 1's verdicts on its neighbours and siblings added ([`super::context::CONTEXT`]). Both are
//! learned by `pith train` and shipped in `config/block-model.json`.

use serde::{Deserialize, Serialize};

use super::context::{CONTEXT, Neighbourhood, context_features};
use super::measure::{Measured, transpose_into};
use crate::dom::Document;
use crate::learn::gbdt::Forest;

/// Both stages. A model without stage 2 uses stage 1's probabilities; an untrained one leaves `auto`
/// with its heuristic region.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct BlockModel {
    pub stage1: Forest,
    #[serde(default)]
    pub stage2: Forest,
    /// What the model was trained on, for the record.
    #[serde(default)]
    pub trained_on: Vec<String>,
}

/// Stage-1 probabilities this close to 0 or 1 are final: stage 2 is not asked.
const SURE: f64 = 0.05;

/// Input names of stage 2: stage 1's features, then the context features.
pub fn stage2_names() -> Vec<&'static str> {
    let mut v = super::feature_names();
    v.extend(CONTEXT);
    v
}

/// Stage 2's rows: each block's stage-1 features followed by its context features.
pub fn stage2_rows(features: &[f32], context: &[f32], blocks: usize) -> Vec<f32> {
    let (nf, nc) = (features.len() / blocks.max(1), CONTEXT.len());
    let mut rows = Vec::with_capacity(blocks * (nf + nc));
    for k in 0..blocks {
        rows.extend_from_slice(&features[k * nf..(k + 1) * nf]);
        rows.extend_from_slice(&context[k * nc..(k + 1) * nc]);
    }
    rows
}

impl BlockModel {
    pub fn is_trained(&self) -> bool {
        self.stage1.is_trained()
    }

    /// Check both stages against the features the code computes.
    pub fn validate(&self) -> Result<(), String> {
        self.stage1.validate(&super::feature_names()).map_err(|e| format!("stage 1: {e}"))?;
        self.stage2.validate(&stage2_names()).map_err(|e| format!("stage 2: {e}"))
    }

    /// Stage 1's probability for every block of a measured page.
    pub fn stage1(&self, m: &Measured) -> Vec<f64> {
        self.stage1.predict_columns(&m.features, m.blocks.list.len())
    }

    /// The final probability for every block of a measured page.
    pub fn predict(&self, doc: &Document, m: &Measured) -> Vec<f64> {
        let n = m.blocks.list.len();
        let mut columns = Vec::with_capacity(m.features.len() + n * CONTEXT.len());
        columns.extend_from_slice(&m.features);
        self.predict_columns(doc, m, columns)
    }

    /// [`BlockModel::predict`], taking the page's feature columns over instead of copying them (nothing
    /// reads them after): they are sized with room for the context columns stage 2 adds.
    pub fn predict_taking(&self, doc: &Document, m: &mut Measured) -> Vec<f64> {
        let columns = std::mem::take(&mut m.features);
        self.predict_columns(doc, m, columns)
    }

    /// Both stages over the page's feature-major `columns`, with room for the context columns after.
    fn predict_columns(&self, doc: &Document, m: &Measured, mut columns: Vec<f32>) -> Vec<f64> {
        let n = m.blocks.list.len();
        let p1 = self.stage1.predict_columns(&columns, n);
        if !self.stage2.is_trained() {
            return p1;
        }
        let ctx = context_features(&Neighbourhood::of(doc, &m.blocks), &p1);
        transpose_into(&ctx, n, &mut columns);
        // Stage 2 looks again only where stage 1 is unsure: most blocks of a page are menu entries and
        // footer lines stage 1 already puts near 0, and a second opinion on them costs as much as the
        // first.
        let unsure: Vec<usize> = (0..n).filter(|&k| p1[k] > SURE && p1[k] < 1.0 - SURE).collect();
        if unsure.len() == n {
            return self.stage2.predict_columns(&columns, n);
        }
        let u = unsure.len();
        // The unsure rows' columns, compacted in place: the value for column `c`, row `j` of `u` moves
        // from `c·n + unsure[j]` down to `c·u + j`, never past one not yet read (`u <= n`, `j <=
        // unsure[j]`), so no second buffer is needed.
        let width = columns.len() / n.max(1);
        let mut at = 0;
        for c in 0..width {
            for &k in &unsure {
                columns[at] = columns[c * n + k];
                at += 1;
            }
        }
        columns.truncate(at);
        let p2 = self.stage2.predict_columns(&columns, u);
        let mut p = p1;
        for (&k, q) in unsure.iter().zip(p2) {
            p[k] = q;
        }
        p
    }
}

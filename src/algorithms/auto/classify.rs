//! `auto`'s block classifier: two stages of gradient-boosted trees (see [`crate::learn::gbdt`]).
//!
//! Stage 1 judges each block from its own measures ([`super::feature_names`]); stage 2 judges it again
//! with stage 1's verdicts on its neighbours and siblings added ([`super::context::CONTEXT`]). Both are
//! learned by `pith train` and shipped in `config/block-model.json`.

use serde::{Deserialize, Serialize};

use super::context::{CONTEXT, ContextRows, Neighbourhood};
use super::measure::Measured;
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

    /// The final probability for every block of a measured page (`doc` is the page measured).
    ///
    /// The feature rows are computed a batch of [`BATCH`] blocks at a time and judged by stage 1 at
    /// once; of each batch only the rows stage 1 is unsure of wait for stage 2 (which needs stage 1's
    /// verdicts on every block first), compacted, and beyond [`KEPT_ROWS`] of them not even those: a
    /// later batch's unsure rows are computed again when stage 2 reads them. A page's peak memory for
    /// its rows is so bounded whatever its number of blocks, and an ordinary page (a few batches, a few
    /// hundred unsure rows) computes every row once. A row's trees read that row alone, so batches
    /// change no probability.
    pub fn predict(&self, doc: &Document, m: &Measured) -> Vec<f64> {
        self.predict_in(doc, m, BATCH, KEPT_ROWS)
    }

    /// [`BlockModel::predict`] in batches of `batch` blocks, keeping at most `kept_rows` unsure rows.
    fn predict_in(&self, doc: &Document, m: &Measured, batch: usize, kept_rows: usize) -> Vec<f64> {
        let n = m.blocks.list.len();
        let rows = m.rows(doc);
        let two = self.stage2.is_trained();
        let nc = if two { CONTEXT.len() } else { 0 };
        let mut p = Vec::with_capacity(n);
        // Per batch: the blocks stage 2 looks at again, and their stage-1 columns when kept.
        let mut again: Vec<(Vec<usize>, Option<Vec<f32>>)> = Vec::new();
        let mut kept = 0;
        for start in (0..n).step_by(batch.max(1)) {
            let end = (start + batch.max(1)).min(n);
            let mut columns = rows.columns(start..end, nc);
            let p1 = self.stage1.predict_columns(&columns, end - start);
            // Stage 2 looks again only where stage 1 is unsure: most blocks of a page are menu entries
            // and footer lines stage 1 already puts near 0, and a second opinion on them costs as much
            // as the first.
            let unsure: Vec<usize> = (start..end).filter(|&k| two && unsure(p1[k - start])).collect();
            p.extend(p1);
            if unsure.is_empty() {
                continue;
            }
            let keep = kept + unsure.len() <= kept_rows;
            if keep {
                compact(&mut columns, end - start, &unsure, start, nc);
                kept += unsure.len();
            }
            again.push((unsure, keep.then_some(columns)));
        }
        if again.is_empty() {
            return p;
        }
        let layout = Neighbourhood::of(doc, &m.blocks);
        let context = ContextRows::new(&layout, &p);
        // Stage 2's probabilities, set once every context row (which reads stage 1's) is written.
        let mut second = Vec::new();
        for (unsure, columns) in again {
            let mut columns = columns.unwrap_or_else(|| rows.columns(unsure.iter().copied(), nc));
            // The context columns after the block's own, written in place column by column.
            let (own, u) = (columns.len(), unsure.len());
            columns.resize(own + nc * u, 0.0);
            for (j, &k) in unsure.iter().enumerate() {
                for (c, v) in context.row(k).into_iter().enumerate() {
                    columns[own + c * u + j] = v;
                }
            }
            let p2 = self.stage2.predict_columns(&columns, unsure.len());
            second.extend(unsure.into_iter().zip(p2));
        }
        drop(context);
        for (k, q) in second {
            p[k] = q;
        }
        p
    }
}

/// Blocks whose feature rows are computed and judged by stage 1 together: about 150 KB of rows, where
/// 2,048 blocks' 1.2 MB was the largest share of a many-block page's peak (a 132 KB page's peak heap
/// 8.56x -> 7.20x the page).
const BATCH: usize = 256;

/// At most this many of stage 1's unsure rows wait for stage 2 as computed (about 2.4 MB of them; an
/// ordinary page has a few hundred).
const KEPT_ROWS: usize = 4096;

/// Stage 1 is unsure of `p`: stage 2 is asked.
fn unsure(p: f64) -> bool {
    p > SURE && p < 1.0 - SURE
}

/// A batch's feature-major `columns` (`m` rows from block `start` on) down to the rows of the blocks
/// `unsure`, in place: the value for column `c`, row `j` moves from `c·m + unsure[j] - start` down to
/// `c·u + j` for `u` unsure rows, never past one not yet read (`u <= m`, `j <= unsure[j] - start`), so
/// no second buffer is needed. What is left is sized for `extra` more columns, no more.
fn compact(columns: &mut Vec<f32>, m: usize, unsure: &[usize], start: usize, extra: usize) {
    let u = unsure.len();
    let width = columns.len() / m.max(1);
    if u < m {
        let mut at = 0;
        for c in 0..width {
            for &k in unsure {
                columns[at] = columns[c * m + k - start];
                at += 1;
            }
        }
        columns.truncate(at);
    }
    columns.shrink_to((width + extra) * u);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::measure;
    use crate::algorithms::contract::Context;
    use crate::algorithms::contract::params::Params;

    #[test]
    fn batches_and_kept_rows_change_no_probability() {
        let model: BlockModel = serde_json::from_str(include_str!("../../../config/block-model.json")).unwrap();
        assert!(model.stage2.is_trained());
        // Paragraphs, menus and short lines mixed: blocks stage 1 is sure of and blocks it is not.
        let mut html = String::from("<html><head><title>Rivers of the north</title></head><body>");
        for i in 0..40 {
            html.push_str(&format!(
                "<div class=nav><a href=/{i}>Home</a> <a href=/n{i}>News</a></div><h2>Rivers {i}</h2>\
                 <p>The river rises in the hills and runs north for {i} kilometres before it meets the sea, \
                 past towns that grew up around its mills.</p><span>Share</span><p>Updated {i} May</p>"
            ));
        }
        html.push_str("</body></html>");
        let doc = crate::dom::Document::parse(&html);
        let params = Params::default();
        let m = measure(&Context::of_page(&doc, &params), &Default::default());
        let n = m.blocks.list.len();
        let whole = model.predict_in(&doc, &m, n, n);
        let stage1 = model.stage1.predict_columns(&m.rows(&doc).columns(0..n, 0), n);
        let unsure = stage1.iter().filter(|&&p| unsure(p)).count();
        assert!(n >= 150 && unsure >= 10, "{n} blocks, {unsure} unsure");
        assert!(whole.iter().zip(&stage1).any(|(a, b)| a != b), "stage 2 changed nothing");
        for (batch, kept) in [(7, 5), (1, 0), (64, n), (n + 1, 3)] {
            assert_eq!(model.predict_in(&doc, &m, batch, kept), whole, "batch {batch}, kept {kept}");
        }
    }
}

//! Steps 1 and 2 of `auto` (see `mod.rs`): the seed methods' measures on the page and what every text
//! block's feature row is computed from, in one [`Measured`] that the classifier, the choice and
//! training all read, so that what is learned is what runs. The rows come feature-major
//! ([`Measured::rows`]), the layout the classifier's trees read column by column.

use super::features::{self, Figures, Rows, feature_names};
use super::segment::{self, Blocks, segment};
use super::{name_flags, page_type, prose, region, regions};
use crate::algorithms::bayes::{self, BayesModel};
use crate::algorithms::cetd::{self, Density};
use crate::algorithms::contract::Context;
use crate::algorithms::{anchor_ratio, pvalue};
use crate::dom::{Document, NodeId};

/// Everything `auto` measures on a page before deciding: the blocks, their feature rows and the
/// heuristic region. Training reads the same struct, so what is learned is what runs.
pub struct Measured {
    pub blocks: Blocks,
    /// Per node, its block owner ([`segment::block_owners`]): the blocks were cut by it, and the
    /// has-article signals group the kept text by it again.
    pub owners: Vec<NodeId>,
    /// The page-level figures every block's feature row is computed from ([`Measured::rows`]).
    pub figures: Figures,
    /// The heuristic region after pruning (the decision when no block model is loaded).
    pub keep: Vec<NodeId>,
    pub density: Vec<f64>,
    pub density_sum: Vec<f64>,
    pub p: pvalue::PValues,
    /// The page signals read from the page alone (`page_type::dom_signals` and the record regions'):
    /// block features, and part of the page models' input.
    pub page_signals: Vec<(&'static str, f64)>,
    /// The page's longest run of prose (the has-article signals read it, the regions stand against it).
    pub prose: prose::ProseRun,
    /// The record regions, read against the blocks.
    pub regions: regions::PageRegions,
}

impl Measured {
    /// The blocks' feature rows, computed from the figures and the measures when asked for (`doc` is
    /// the page measured).
    pub fn rows<'a>(&'a self, doc: &'a Document) -> Rows<'a> {
        Rows::new(doc, &self.blocks, &self.figures, &self.density, &self.density_sum, &self.p, &self.regions)
    }

    /// Every block's features row-major (`feature_names().len()` per block), as training reads them.
    pub fn feature_rows(&self, doc: &Document) -> Vec<f32> {
        let columns = self.rows(doc).columns(0..self.blocks.list.len(), 0);
        // The columns are `feature_names().len()` rows of the transposed matrix.
        let mut rows = Vec::with_capacity(columns.len());
        transpose_into(&columns, feature_names().len(), &mut rows);
        rows
    }
}

/// Run the seed methods and compute every block's features. The Naive Bayes posterior is one of the
/// measures, so its model is needed here.
pub fn measure(ctx: &Context<'_>, bayes_model: &BayesModel) -> Measured {
    let doc = ctx.doc;
    let ds = cetd::density_sum_select(doc, Density::Composite);
    let p = pvalue::measure(doc);
    let nb = bayes::measure(doc, &ctx.params.bayes, bayes_model);
    let ars = anchor_ratio::measure(doc, &ctx.params.anchor_ratio);
    let title_words =
        crate::text::words::WordSet::new(doc.title.as_deref().map(region::title_words).unwrap_or_default());
    let core = region::core_node(doc, &ds.marked, ds.max_node, &title_words);
    let reg = region::region(doc, &ds.density, core, ds.threshold);
    let keep = region::prune(doc, &ars, &reg);
    let owners = segment::block_owners(doc);
    let blocks = segment(doc, &owners);
    let prose = prose::prose_run(&blocks);
    let regions = regions::PageRegions::read(doc, &blocks, &prose);
    let names = name_flags::name_flags(doc);
    let mut page_signals = page_type::dom_signals(doc, ctx.meta, &names.counts);
    page_signals.extend(regions.page_signals(doc.node(doc.body).stats.chars));
    let page_kind = features::page_kind(&page_signals, ctx.meta);
    let inputs = features::Inputs {
        marked: &ds.marked,
        max_ds: ds.max_node,
        core,
        region: &reg,
        keep: &keep,
        p: &p,
        bayes: &nb,
        anchor_ratios: &ars,
        title_words: &title_words,
        page_kind: &page_kind,
        flags: &names.inherited,
    };
    let figures = features::figures(doc, &blocks, &inputs);
    Measured {
        blocks,
        owners,
        figures,
        keep,
        density: ds.density,
        density_sum: ds.density_sum,
        p,
        page_signals,
        prose,
        regions,
    }
}

/// Row-major `n` rows to feature-major, appended to `out`.
pub(super) fn transpose_into(rows: &[f32], n: usize, out: &mut Vec<f32>) {
    let w = rows.len() / n.max(1);
    // Column by column, appended in order: a strided read and no index to check per value.
    for f in 0..w {
        out.extend(rows[f..].iter().step_by(w).take(n));
    }
}

#[cfg(test)]
mod tests {
    use super::transpose_into;

    fn transpose(rows: &[f32], n: usize) -> Vec<f32> {
        let mut out = Vec::new();
        transpose_into(rows, n, &mut out);
        out
    }

    #[test]
    fn transpose_turns_rows_into_columns() {
        // Three rows of two features.
        let rows = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(transpose(&rows, 3), [1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
        assert_eq!(transpose(&rows, 1), rows);
        assert!(transpose(&[], 0).is_empty());
    }
}

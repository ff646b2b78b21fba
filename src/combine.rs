//! The default pipeline, `auto`: the seed algorithms combined.
//!
//! First combination (the accuracy work refines it): Composite Text Density with DensitySum finds the
//! content subtrees, and the P value method's page P is the has-article probability. Every block carries
//! both methods' measures so a user can see why it was chosen.

use crate::algorithms::cetd::{Density, density_sum_select, score_blocks};
use crate::algorithms::pvalue::p_values;
use crate::algorithms::{Content, Context, Outcome};

/// `auto`.
pub fn run(ctx: &Context<'_>) -> Outcome {
    let doc = ctx.doc;
    let ds = density_sum_select(doc, Density::Composite);
    let (p, best) = p_values(doc);
    let blocks = score_blocks(doc, &ds.marked, |i| {
        let k = i as usize;
        (vec![("ctd", ds.density[k]), ("density_sum", ds.density_sum[k]), ("p", p[k])], ds.density_sum[k])
    });
    Outcome { content: Content::Nodes(ds.marked), probability: p[best as usize], blocks }
}

//! `auto`'s site model ([`crate::algorithms::auto::SiteModel`]): every page of a site with several
//! pages in its dataset is extracted with its site learned from those pages (the page's own keys set
//! aside, as at extraction), and every block `auto` would keep without the site becomes a row of
//! [`crate::algorithms::auto::SITE_FEATURES`], labelled by how much of its text the gold text holds.
//! Gradient-boosted trees learn from those rows which recurrences mark the site's chrome.
//!
//! Rows are weighed by the block's words, scaled so that every page's rows average weight 1, as the
//! block classifier's are (`blocks.rs`): metrics average over pages, and inside a page long blocks
//! matter more than short ones.

use std::collections::HashMap;

use rayon::prelude::*;

use super::PageFilter;
use super::blocks::Labels;
use crate::algorithms::auto::{self, SITE_FEATURES, SiteModel};
use crate::algorithms::contract::Context;
use crate::engine::Request;
use crate::lab::dataset::{Dataset, LabelledPage, site_of};
use crate::learn::gbdt::{self, TrainParams};
use crate::site::{MIN_SITE_PAGES, PageSignatures, SiteTemplate};
use crate::text::words;
use crate::{engine::Engine, error::Error};

/// Small trees: ten inputs, a few thousand rows.
const PARAMS: TrainParams =
    TrainParams { trees: 150, max_depth: 4, learning_rate: 0.1, lambda: 1.0, min_child_weight: 5.0 };

/// Rows of one page: inputs (row-major), labels, weights.
type Rows = (Vec<f32>, Vec<f32>, Vec<f32>);

/// Learn the site model from the pages `keep` lets in, with the engine's block and page models.
/// Untrained when no kept page has a site of [`MIN_SITE_PAGES`] pages.
pub fn train(datasets: &[Dataset], engine: &Engine, keep: PageFilter<'_>) -> Result<SiteModel, Error> {
    let (mut x, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
    let mut trained_on = Vec::new();
    for ds in datasets {
        let pages: Vec<&LabelledPage> = ds.pages.iter().filter(|p| keep(ds, p)).collect();
        let (rows, sites) = dataset_rows(ds, &pages, engine)?;
        if sites > 0 {
            trained_on.push(format!("{}: {} sites", ds.name, sites));
        }
        for (px, py, pw) in rows {
            x.extend(px);
            y.extend(py);
            w.extend(pw);
        }
    }
    if y.is_empty() {
        return Ok(SiteModel::default());
    }
    let data = gbdt::Data { x: &x, y: &y, w: &w, features: SITE_FEATURES.len() };
    Ok(SiteModel { trees: gbdt::train(&data, SITE_FEATURES, &PARAMS), trained_on })
}

/// The rows of one dataset's pages of sites with several pages, and how many such sites it has.
fn dataset_rows(ds: &Dataset, pages: &[&LabelledPage], engine: &Engine) -> Result<(Vec<Rows>, usize), Error> {
    let read: Vec<Option<(String, Vec<u8>, PageSignatures)>> = pages
        .par_iter()
        .map(|p| {
            let bytes = ds.html(p).ok()?;
            let site = site_of(p, &bytes)?;
            let req = Request { url: p.url.as_deref(), ..Request::new(&bytes) };
            let signatures = engine.page_signatures(&req).ok()?;
            Some((site, bytes, signatures))
        })
        .collect();
    let mut templates: HashMap<&str, (SiteTemplate, usize)> = HashMap::new();
    for (site, _, _) in read.iter().flatten() {
        templates.entry(site.as_str()).or_default().1 += 1;
    }
    templates.retain(|_, (_, n)| *n >= MIN_SITE_PAGES);
    for (site, _, signatures) in read.iter().flatten() {
        if let Some((t, _)) = templates.get_mut(site.as_str()) {
            t.learn(signatures);
        }
    }
    let rows = pages
        .par_iter()
        .zip(&read)
        .filter_map(|(p, r)| {
            let (site, bytes, _) = r.as_ref()?;
            let (template, _) = templates.get(site.as_str())?;
            page_rows(engine, p, bytes, template)
        })
        .collect();
    Ok((rows, templates.len()))
}

/// One page's rows: its chosen blocks with the site learned, labelled by the page's gold text or
/// snippets (blocks they do not label are left out).
fn page_rows(engine: &Engine, page: &LabelledPage, bytes: &[u8], template: &SiteTemplate) -> Option<Rows> {
    let labels = Labels::of(page)?;
    let models = engine.models.auto();
    let rows = engine
        .with_context(bytes, page.url.as_deref(), |ctx| {
            auto::site_rows(&Context { site: Some(template), ..*ctx }, &models)
        })
        .ok()?;
    let (mut x, mut y, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
    for (row, text) in rows {
        let words = words::words(&words::normalize(&text));
        let Some(label) = labels.label(&words) else { continue };
        x.extend_from_slice(&row);
        y.push(label as f32);
        sizes.push(words.len().max(1) as f32);
    }
    let total: f32 = sizes.iter().sum();
    let n = sizes.len() as f32;
    let w = sizes.iter().map(|&s| s / total.max(1.0) * n).collect();
    (!y.is_empty()).then_some((x, y, w))
}

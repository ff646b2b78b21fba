//! The default pipeline, `auto`: the seed algorithms combined by learning, in the spirit of the
//! CombinE / Crunch line of work the CETD paper cites. One module per step:
//!
//! 1. **Measures.** Every seed method runs on the one parsed page, read through the measures its module
//!    publishes: Composite Text Density and DensitySum (Sun, Song & Liao), the P value (Lv et al.), the
//!    Naive Bayes block posterior ("Chinese web content extraction based on Naive Bayes model"), the
//!    anchor ratio (after the paper on Thai web content extraction for tag clouds); and the heuristic CECTD
//!    region (`region`: the DensitySum core chosen away from comment threads and toward the title,
//!    grown to dense siblings, pruned of link blocks and containers named for noise).
//! 2. **Blocks.** The page is cut into text blocks (`segment`), and each gets those measures plus its
//!    own text statistics, its ancestors' tags and class/id words, its container and its neighbours,
//!    and the kind of page around it (code, posts, carts, tables, declared types; never the URL)
//!    (`features`; every word list and naming rule is in `lexicon`). Both steps' results are one
//!    [`Measured`] (`measure`), which classification, the choice and training read alike.
//! 3. **Decision.** Two stages of gradient-boosted trees (`classify`, learned by `pith train` from the
//!    developers' labelled pages) give each block a probability of being main content; the second
//!    stage also sees the first stage's probabilities around the block (`context`). Blocks at or above
//!    `params.auto.block_threshold` (0.5) are kept, less reader-comment threads, and emitted as
//!    maximal clean subtrees so structure (headings, lists, tables, `pre`) survives (`select`). Every
//!    block's probability is in the answer's block scores (`block_p`).
//! 4. **Has-article and page type.** Page-level signals (`has_article`: the kept text's shape and the
//!    classifier's confidence, the page P value, link density, repeated "cards", what the page
//!    declares about itself, the shape of its URL; `page_type`: code, posts, carts, calls to action,
//!    pagination, forms and tables) go to a small tree model for P(article) (`article_model`) and to
//!    six one-vs-rest forests for the other types (`page_type_model`); every name a model reads is
//!    checked on loading against what the producers write (`page_signals`). Every page returns its
//!    main content; `params.auto.no_article_text = "lead"` keeps only a short lead of pages that are
//!    not articles.
//! 5. **Rules.** A page whose type asks for another threshold is chosen again; then the rules in
//!    `select/rules.rs`, one table in the order they run, refine the choice by what the page is (a
//!    product's customer reviews, a service page's calls to action, an article's comment thread) and
//!    by what every page carries (repeats, menus, notices, furniture).
//!
//! Every step that keeps or drops text writes on one choice (`choice`), which leaves the decision
//! record every view of the answer renders.
//!
//! Without trained models (a fresh checkout whose `config/` models were emptied) `auto` falls back to
//! the heuristic region and a P value / text-amount probability.

mod article_model;
mod block_measures;
mod choice;
mod classify;
mod context;
mod features;
mod has_article;
mod lexicon;
mod measure;
mod name_flags;
mod page_signals;
mod page_type;
mod page_type_model;
mod prose;
mod region;
mod regions;
mod segment;
mod select;
mod site_model;

use crate::algorithms::contract::SiteTemplateUse;
pub use crate::algorithms::contract::params::{AutoParams, NoArticleText};
pub use article_model::ArticleModel;
pub use classify::{BlockModel, stage2_names, stage2_rows};
pub use context::{CONTEXT, Neighbourhood, context_features};
pub use features::{feature_index, feature_names};
pub use measure::{Measured, measure};
pub use page_signals::page_signal_names;
pub use page_type_model::PageTypeModel;
pub use segment::{Blocks, TextBlock, segment};
pub use select::rules::{Family, RULES, Rule, When, rule_named};
pub use select::{page_signatures, roots_of};
pub use site_model::{SITE_FEATURES, SiteModel};

use super::bayes::BayesModel;
use crate::algorithms::contract::decision::{DecidedBy, Decision};
use crate::algorithms::contract::{Content, Context, Outcome, PageType, score_elements_listed};
use crate::dom::NodeId;
use choice::{Choice, Stamp};
use select::rules;

/// The models `auto` reads: the Naive Bayes block model (one of the measures), the block classifier
/// and the has-article model. Untrained ones are allowed: `auto` then keeps its heuristic region and a
/// P value / text-amount probability.
#[derive(Debug, Clone, Copy)]
pub struct ModelRefs<'a> {
    pub bayes: &'a BayesModel,
    pub blocks: &'a BlockModel,
    pub article: &'a ArticleModel,
    pub page_type: &'a PageTypeModel,
    pub site: &'a SiteModel,
}

/// The highest has-article probability of a page whose kept text has no paragraph.
const NO_PROSE_CAP: f64 = 0.1;

/// `p` on another log-odds scale: `scale` times its log-odds plus `shift` (probabilities of exactly 0
/// or 1 stay where they are). With a scale of 1 this only shifts; above 1 it also sharpens.
fn calibrate(p: f64, scale: f64, shift: f64) -> f64 {
    if (scale == 1.0 && shift == 0.0) || !(p > 0.0 && p < 1.0) {
        return p;
    }
    1.0 / (1.0 + (-(scale * (p / (1.0 - p)).ln() + shift)).exp())
}

/// `auto`: measure → classify → choose → page verdict → re-choose by type → the rule table → lead.
/// Every step writes on one [`Choice`], and the outcome carries its record (`decisions`).
pub fn run(ctx: &Context<'_>, models: &ModelRefs<'_>) -> Outcome {
    let doc = ctx.doc;
    let BeforeRules { m, p, trained, mut choice, roots, verdict } = before_rules(ctx, models);
    let (roots, site_template, keys) = apply_rules(ctx, models.site, &m, &p, &verdict, &mut choice, roots);
    // What the page teaches its site, from the blocks and keys the rules read: no second cut.
    let signatures = ctx.sign.then(|| keys.unwrap_or_else(|| select::PageKeys::of(doc, &m.blocks)).signatures());
    let Verdict { signals, probability, is_article, non_article, .. } = verdict;
    let hidden_description = !is_article && declared_but_not_kept(ctx, &roots);
    let (roots, before_lead) = if is_article || ctx.params.auto.no_article_text == NoArticleText::Full {
        (roots, None)
    } else {
        (select::lead(doc, &roots, ctx.params.auto.lead_chars), Some(roots))
    };
    let block_p = if trained { p } else { region_probabilities(&m) };
    // The decisions' text nodes are for the explanation only.
    let with_texts = ctx.want_blocks && ctx.blocks_listed.is_none();
    let decisions = choice.record(doc, &m, &block_p, &roots, before_lead.as_deref(), with_texts);
    // Per-block scores only when asked for: building them is a walk over every element.
    let blocks = if ctx.want_blocks { block_report(ctx, &m, trained, &decisions, &roots) } else { Vec::new() };
    let content = if hidden_description {
        Content::Mixed { paragraphs: ctx.product_description.to_vec(), roots }
    } else {
        Content::Nodes(roots)
    };
    Outcome { content, probability, blocks, signals, non_article, site_template, decisions, signatures }
}

/// Each block's standing in the heuristic region (1 inside, 0 outside): the probability the record
/// gives blocks when no block model is trained.
fn region_probabilities(m: &Measured) -> Vec<f64> {
    m.figures.region_keep().iter().map(|&v| f64::from(v)).collect()
}

/// The first choice: the text of the blocks at or above `params.auto.block_threshold`, less comment
/// threads when `drop_comments`, and its roots. Without a trained block model, or when nothing
/// passed, no choice is made (no rule refines it) and the roots are a fallback's.
fn choose_first(
    ctx: &Context<'_>,
    trained: bool,
    m: &Measured,
    p: &[f64],
    drop_comments: bool,
) -> (Choice, Vec<NodeId>) {
    let doc = ctx.doc;
    if !trained {
        return (Choice::fallback(DecidedBy::Region), m.keep.clone());
    }
    let choice = select::choose(ctx, m, p, ctx.params.auto.block_threshold, Stamp::THRESHOLD, drop_comments);
    let roots = roots_of(doc, &choice.chosen);
    // Nothing passed (a page of one short paragraph, say): fall back to the heuristic region, and
    // leave the verdict on whether that is an article to the has-article model. A page with
    // almost no text answers with all of it: there is nothing else on it, and the region, built
    // to find a dense core among much text, can pick one line of three.
    if !roots.is_empty() {
        (choice, roots)
    } else if no_content(ctx, p) {
        (Choice::fallback(DecidedBy::NoContent), Vec::new())
    } else if doc.node(doc.body).stats.chars < ctx.params.auto.small_page_chars {
        (Choice::fallback(DecidedBy::SmallPage), vec![doc.body])
    } else {
        (Choice::fallback(DecidedBy::Region), m.keep.clone())
    }
}

/// No block reaches even `no_content_below`: nothing on the page is content (a script shell, a bot
/// wall), and a fallback or a type's lower threshold would answer with its chrome.
fn no_content(ctx: &Context<'_>, p: &[f64]) -> bool {
    p.iter().copied().fold(0.0f64, f64::max) < ctx.params.auto.no_content_below
}

/// What the page is, judged on the first choice: its page signals, has-article probability and
/// verdict, and the page-type odds and label of a page that is not an article.
struct Verdict {
    signals: Vec<(&'static str, f64)>,
    probability: f64,
    is_article: bool,
    non_article: Option<crate::algorithms::contract::NonArticleOdds>,
    /// The most likely type of a page that is not an article.
    label: Option<PageType>,
}

/// The page verdict: the page signals of the first choice, the has-article model's probability,
/// and the page-type models' odds.
fn judge_page(ctx: &Context<'_>, models: &ModelRefs<'_>, m: &Measured, p: &[f64], roots: &[NodeId]) -> Verdict {
    let doc = ctx.doc;
    let judged = models.blocks.is_trained().then_some(has_article::Judged {
        blocks: &m.blocks,
        prose: &m.prose,
        p,
        threshold: ctx.params.auto.block_threshold,
    });
    let mut signals = has_article::signals(doc, &m.owners, roots, m.p.page(), judged, ctx.meta, ctx.url);
    signals.extend(m.page_signals.iter().copied());
    signals.extend(page_type::url_words(ctx.url));
    let probability = if models.article.is_trained() {
        let auto = &ctx.params.auto;
        let p =
            calibrate(models.article.probability(&signals), auto.article_log_odds_scale, auto.article_log_odds_shift);
        // An article is prose: kept text without one paragraph-like block (25 characters or more with
        // a sentence mark) is not one, however much of it there is. The learned model sees few such
        // pages and cannot extrapolate to, say, a megabyte of unpunctuated words; among the labelled
        // pages without such a block, about one in eight is an article, hence the cap.
        let paragraphs = signals.iter().find(|(n, _)| *n == has_article::PARAGRAPHS).map_or(0.0, |s| s.1);
        if paragraphs > 0.0 { p } else { p.min(NO_PROSE_CAP) }
    } else {
        // Untrained (a fresh checkout before `pith train`): page P and text amount, half each.
        let kept = signals.iter().find(|(n, _)| *n == has_article::TEXT_CHARS).map_or(0.0, |s| s.1);
        0.5 * m.p.page() + 0.5 * (1.0 - (-(kept.exp_m1()) / 400.0).exp())
    };
    let is_article = probability >= ctx.params.pvalue.article_threshold;
    let non_article = models.page_type.odds(&signals);
    let label = (!is_article).then(|| non_article.map(|o| o.likeliest())).flatten();
    Verdict { signals, probability, is_article, non_article, label }
}

/// Choose again for a page whose type asks for another threshold (`params.auto.type_thresholds`), or
/// for a forum thread, whose replies are its content, not comments on it. (The verdict was judged on
/// the first choice, as the models were trained.) Returns the new roots, or `roots` when the new
/// choice is empty or none was made.
fn choose_by_type(
    ctx: &Context<'_>,
    trained: bool,
    m: &Measured,
    p: &[f64],
    verdict: &Verdict,
    choice: &mut Choice,
    roots: Vec<NodeId>,
) -> Vec<NodeId> {
    let drop_comments = !ctx.params.auto.include_comments;
    let is_forum = verdict.label == Some(PageType::Forum);
    let threshold = verdict.label.and_then(|t| ctx.params.auto.type_thresholds.get(t));
    if !(trained && ((is_forum && drop_comments) || threshold.is_some())) {
        return roots;
    }
    // A type's lower threshold must not bring a page's chrome back when it has no content.
    if no_content(ctx, p) {
        return roots;
    }
    let t = threshold.unwrap_or(ctx.params.auto.block_threshold);
    let again = select::choose(ctx, m, p, t, Stamp::TYPE_THRESHOLD, drop_comments && !is_forum);
    let again_roots = roots_of(ctx.doc, &again.chosen);
    if again_roots.is_empty() {
        roots
    } else {
        *choice = again;
        again_roots
    }
}

/// The rule table (`select/rules.rs`), last, so that the page signals above are read as the models
/// were trained: repeated text, text outside the page's `<main>`, menus, sidebars and footers,
/// notices, furniture, and what the page's type or verdict asks. Returns the roots of the refined
/// choice, or `roots` when no rule changed it or nothing is left (the choice then goes back to what
/// it was), and what the site's template did.
fn apply_rules(
    ctx: &Context<'_>,
    site_model: &SiteModel,
    m: &Measured,
    p: &[f64],
    verdict: &Verdict,
    choice: &mut Choice,
    roots: Vec<NodeId>,
) -> (Vec<NodeId>, Option<SiteTemplateUse>, Option<select::PageKeys>) {
    if !choice.is_made() {
        return (roots, None, None);
    }
    let verdict = rules::Verdict {
        is_article: verdict.is_article,
        label: verdict.label,
        comments_kept: ctx.params.auto.include_comments,
        headline_prose: if verdict.is_article || verdict.label == Some(PageType::Forum) {
            prose::LedProse::default()
        } else {
            prose::headline_prose(ctx.doc, &m.blocks, prose::Reach::Chars(prose::HEADLINE_GAP_CHARS))
        },
    };
    let page = rules::RuleInput::new(ctx.doc, &m.blocks, &m.regions, p, &ctx.params.auto)
        .with_site(ctx.site, site_model, &verdict);
    let before = choice.snapshot();
    let changed = rules::run(&page, choice, |rule| rule.when.holds(&verdict));
    let kept = if changed { roots_of(ctx.doc, &choice.chosen) } else { Vec::new() };
    let site_use = page.site_use.get();
    let keys = page.into_keys();
    if kept.is_empty() {
        if changed {
            choice.restore(before);
        }
        (roots, site_use, keys)
    } else {
        (kept, site_use, keys)
    }
}

/// What `auto` has decided when its rule table starts: the measures, the block probabilities (empty
/// without a trained block model), the choice and its roots, and the page verdict.
struct BeforeRules {
    m: Measured,
    p: Vec<f64>,
    trained: bool,
    choice: Choice,
    roots: Vec<NodeId>,
    verdict: Verdict,
}

/// measure → classify → choose → page verdict → re-choose by type: [`run`] up to its rule table.
fn before_rules(ctx: &Context<'_>, models: &ModelRefs<'_>) -> BeforeRules {
    let m = measure(ctx, models.bayes);
    let trained = models.blocks.is_trained();
    let p = if trained { models.blocks.predict(ctx.doc, &m) } else { Vec::new() };
    let drop_comments = !ctx.params.auto.include_comments;
    let (mut choice, roots) = choose_first(ctx, trained, &m, &p, drop_comments);
    let verdict = judge_page(ctx, models, &m, &p, &roots);
    let roots = choose_by_type(ctx, trained, &m, &p, &verdict, &mut choice, roots);
    BeforeRules { m, p, trained, choice, roots, verdict }
}

/// The site model's training rows of one page (`lab::train::site`): `auto` run as [`run`] runs it,
/// the rule table without the site's own rule, then a row for every chosen block (what the site model
/// is asked about at extraction) with the block's text. Empty without a site template in `ctx`, or
/// when nothing is chosen or the site knows too few other pages.
pub fn site_rows(ctx: &Context<'_>, models: &ModelRefs<'_>) -> Vec<([f32; site_model::SITE_ROW], String)> {
    let Some(template) = ctx.site else { return Vec::new() };
    let alone = Context { site: None, ..*ctx };
    let doc = ctx.doc;
    let BeforeRules { m, p, mut choice, roots, verdict, .. } = before_rules(&alone, models);
    apply_rules(&alone, models.site, &m, &p, &verdict, &mut choice, roots);
    if !choice.is_made() {
        return Vec::new();
    }
    let blocks = &m.blocks;
    let page = select::SitePageView::new(&m.regions, verdict.is_article, verdict.label, blocks, &choice.chosen);
    select::chosen_rows(doc, blocks, &choice.chosen, template, &page)
        .into_iter()
        .map(|(k, row)| {
            let texts: Vec<&str> = blocks.texts_of(&blocks.list[k]).iter().map(|&t| doc.text(t)).collect();
            (row, texts.join(" "))
        })
        .collect()
}

/// Whether the page's declared product description is long enough
/// ([`AutoParams::product_description_min_words`]) and the kept text holds fewer than half of its
/// distinct words: the description the page's structured data states is then not among what a
/// reader of its HTML sees. Words of the page's `<title>` do not count towards its length: a shop's
/// generated description (the product's name, its price, the delivery terms) repeats the title and
/// says nothing the page does not, and whether the kept text happened to hold its price decided it.
fn declared_but_not_kept(ctx: &Context<'_>, roots: &[NodeId]) -> bool {
    let min = ctx.params.auto.product_description_min_words as usize;
    if min == 0 || ctx.product_description.is_empty() {
        return false;
    }
    let title = crate::text::words::distinct_words(ctx.doc.title.as_deref().unwrap_or(""));
    let mut declared = std::collections::HashSet::new();
    let mut n = 0;
    for p in ctx.product_description {
        crate::text::words::for_each_word(p, |w| {
            n += usize::from(!title.contains(w));
            declared.insert(w.to_string());
        });
    }
    if n < min {
        return false;
    }
    let mut seen = std::collections::HashSet::new();
    for &r in roots {
        for t in ctx.doc.text_nodes(r) {
            crate::text::words::for_each_word(ctx.doc.text(t), |w| {
                if declared.contains(w) && !seen.contains(w) {
                    seen.insert(w.to_string());
                }
            });
        }
    }
    2 * seen.len() < declared.len()
}

/// Every element's scores: the seed measures, and on block owners the classifier's probability and
/// the step that decided the block (from the record; of the surest block when an owner has several).
fn block_report(
    ctx: &Context<'_>,
    m: &Measured,
    trained: bool,
    decisions: &[Decision],
    roots: &[NodeId],
) -> Vec<crate::algorithms::contract::Block> {
    let mut owners: crate::hash::IdMap<NodeId, &Decision> = crate::hash::IdMap::default();
    for d in decisions {
        let e = owners.entry(d.owner).or_insert(d);
        if d.probability > e.probability {
            *e = d;
        }
    }
    let mut blocks = score_elements_listed(ctx.doc, roots, ctx.blocks_listed, |i| {
        let k = i as usize;
        let mut s = vec![("ctd", m.density[k]), ("density_sum", m.density_sum[k]), ("p", m.p.p[k])];
        let judged = owners.get(&i).filter(|_| trained);
        if let Some(d) = judged {
            s.push(("block_p", d.probability));
        }
        (s, judged.map_or(m.density_sum[k], |d| d.probability))
    });
    for b in &mut blocks {
        if let Some(d) = owners.get(&b.node) {
            b.decided_by = Some(d.decided_by);
            b.region = d.region;
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::{calibrate, feature_index, feature_names, measure};
    use crate::algorithms::contract::Context;
    use crate::algorithms::contract::params::Params;
    use crate::dom::Document;

    #[test]
    fn every_block_reads_the_page_kind_and_not_the_address() {
        let html = "<html><head><script type='application/ld+json'>{\"@type\":\"Product\",\"name\":\"Mug\"}</script>\
            </head><body><h1>Mug</h1><p>A stoneware mug, glazed by hand, for coffee and tea.</p>\
            <table><tr><th>Capacity</th><td>350 ml</td></tr><tr><th>Weight</th><td>300 g</td></tr></table>\
            <a href=/cart>Add to cart</a></body></html>";
        let doc = Document::parse(html);
        let meta = crate::metadata::page_meta::scan(html);
        assert!(meta.ld_product);
        let params = Params::default();
        let row = |url| {
            let ctx = Context { meta: &meta, url, want_blocks: false, ..Context::of_page(&doc, &params) };
            measure(&ctx, &Default::default())
        };
        let m = row(None);
        let nf = feature_names().len();
        let n = m.blocks.list.len();
        assert!(n >= 4, "{n} blocks");
        let at = |name: &str| feature_index(name).unwrap_or_else(|| panic!("no feature {name}"));
        let rows = m.feature_rows(&doc);
        assert_eq!(rows.len(), n * nf);
        for k in 0..n {
            let r = &rows[k * nf..(k + 1) * nf];
            assert_eq!(r[at("page_ld_product")], 1.0);
            assert_eq!(r[at("page_ld_article")], 0.0);
            assert_eq!(r[at("page_table_rows")], 3f32.ln());
            assert_eq!(r[at("page_cart_texts")], 2f32.ln());
        }
        // The same rows with the page's address: no block feature reads it.
        assert_eq!(row(Some("https://shop.example/products/mug")).feature_rows(&doc), rows);
    }

    #[test]
    fn the_calibration_moves_the_default_boundary_and_keeps_the_order() {
        use crate::algorithms::contract::params::{ARTICLE_LOG_ODDS_SCALE as SCALE, ARTICLE_LOG_ODDS_SHIFT as SHIFT};
        // The model's probability that the calibration moves onto the 0.5 boundary.
        let boundary = 1.0 / (1.0 + (SHIFT / SCALE).exp());
        assert!((calibrate(boundary, SCALE, SHIFT) - 0.5).abs() < 1e-12);
        assert!((calibrate(0.4, 1.0, 1.5f64.ln()) - 0.5).abs() < 1e-12);
        // A scale of 2 squares the odds: 3:1 becomes 9:1.
        assert!((calibrate(0.75, 2.0, 0.0) - 0.9).abs() < 1e-12);
        assert_eq!(calibrate(0.3, 1.0, 0.0), 0.3);
        assert_eq!((calibrate(0.0, SCALE, SHIFT), calibrate(1.0, SCALE, SHIFT)), (0.0, 1.0));
        assert!(calibrate(f64::NAN, SCALE, SHIFT).is_nan());
        let ps = [0.01, 0.2, 0.39, 0.41, 0.7, 0.99];
        let calibrated: Vec<f64> = ps.iter().map(|&p| calibrate(p, SCALE, SHIFT)).collect();
        assert!(calibrated.windows(2).all(|w| w[0] < w[1]), "{calibrated:?}");
        assert!(calibrated.iter().all(|q| *q > 0.0 && *q < 1.0));
    }
}

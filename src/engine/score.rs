//! Stage 4: the chosen algorithm on a prepared page, a matching site rule's say, and the
//! probability bounded to [0, 1].

use super::{Engine, Page, Request};
use crate::algorithms::SiteRuleUse;
use crate::algorithms::contract::Outcome;
use crate::algorithms::contract::decision::DecidedBy;
use crate::dom::layout::Layout;

impl Engine {
    /// Stage 4: run the algorithm on a prepared page, let a matching site rule have its say, and bound
    /// the probability to [0, 1].
    /// Every block is scored (`Outcome::blocks` lists them all when blocks are asked for).
    pub fn score(&self, req: &Request<'_>, page: &Page<'_>) -> Outcome {
        self.score_in(req, page, None, false, false)
    }

    /// [`Engine::score`]; with `for_answer`, the outcome is read only to assemble the answer, so its
    /// blocks may be only those the answer's block report can list (unless an explanation reads them
    /// all, or a site rule may yet change which are content); with `sign`, `auto` gives the page's
    /// block signatures too ([`Outcome::signatures`]).
    pub(super) fn score_in(
        &self,
        req: &Request<'_>,
        page: &Page<'_>,
        layout: Option<&Layout>,
        for_answer: bool,
        sign: bool,
    ) -> Outcome {
        // A per-request override of `auto`'s policies costs a copy of the parameters, only then.
        let overridden;
        let auto = &self.params.auto;
        let comments = req.options.include_comments.filter(|v| *v != auto.include_comments);
        let no_article = req.options.no_article_text.filter(|v| *v != auto.no_article_text);
        let params = if comments.is_some() || no_article.is_some() {
            let mut p = self.params.clone();
            p.auto.include_comments = comments.unwrap_or(p.auto.include_comments);
            p.auto.no_article_text = no_article.unwrap_or(p.auto.no_article_text);
            overridden = p;
            &overridden
        } else {
            &self.params
        };
        let mut ctx = page.context(params, req.url, req.options.blocks);
        let listed_only = for_answer && req.options.explain.is_none() && page.rule.is_none();
        ctx.blocks_listed = listed_only.then_some(self.limits.max_blocks);
        ctx.layout = layout;
        ctx.site = req.site;
        ctx.sign = sign;
        let mut outcome = req.options.algorithm.run(&ctx, &self.models.auto());
        if let Some((rule, content)) = &page.rule {
            let found = !content.is_empty();
            let apply = match req.options.algorithm.needs().site_rule {
                SiteRuleUse::Require => {
                    outcome.probability = if found { 1.0 } else { 0.0 };
                    true
                }
                SiteRuleUse::Prefer => found,
                SiteRuleUse::Ignore => false,
            };
            if apply {
                tracing::debug!(rule = %rule.name, found, "site template applied");
                outcome.give_content(&page.doc, content.clone(), DecidedBy::SiteRule);
            }
        }
        if !outcome.probability.is_finite() {
            outcome.probability = 0.0;
        }
        outcome.probability = outcome.probability.clamp(0.0, 1.0);
        outcome
    }
}

//! Every rule `auto` applies to its choice after the page verdict, in the order they run: one row
//! each in [`RULES`], with its name (kebab-case and stable: `pith eval --without-rule NAME` switches
//! it off to measure what it does), its family (the file that holds it), when it applies, what it
//! reads and what it does. `auto::run` runs the table from top to bottom, and each rule stamps what it
//! changed on the choice (`auto::choice`): the decision record names the rule that dropped a block.
//!
//! They run last, after the page signals are read, so that the has-article and page-type models see
//! the choice they were trained on. Reader comments are left out earlier, by the first choice itself
//! (`include_comments`), and are no row.
//!
//! A rule is switched off by [`Rule::is_off`]: named in [`AutoParams::without_rules`] (what
//! `pith eval --without-rule` sets), or by the `drop_*` setting it had before this table. A new rule
//! is one more row and nothing else.

use std::cell::{Cell, OnceCell};
use std::fmt;

use super::furniture::{self, Furniture};
use super::{body, notices, rails, records, repeats, sectioning, site, surest_owner, threads};
use crate::algorithms::auto::SiteModel;
use crate::algorithms::auto::choice::Choice;
use crate::algorithms::auto::lexicon;
use crate::algorithms::auto::regions::PageRegions;
use crate::algorithms::auto::segment::Blocks;
use crate::algorithms::contract::params::AutoParams;
use crate::algorithms::contract::{PageType, SiteTemplateUse};
use crate::dom::{Document, NodeId};
use crate::site::SiteTemplate;

/// One rule of the table.
pub struct Rule {
    /// Kebab-case and stable: users type it (`pith eval --without-rule`).
    pub name: &'static str,
    /// The file that holds it.
    pub family: Family,
    /// The pages it applies to.
    pub when: When,
    /// What it reads besides the choice: the page's parts and its settings.
    pub reads: &'static str,
    /// The `drop_*` setting it came with, when it is one of the rules older than the table: false
    /// switches it off, so that settings written for them keep working. Rules since have none.
    pub switch: Option<fn(&AutoParams) -> bool>,
    pub(crate) step: Step,
}

/// The families of rules, one file of `auto/select/` each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Reader comments and reviews (`threads.rs`).
    Threads,
    /// What a listing, product or service page carries beside its content (`rails.rs`).
    Rails,
    /// Record regions around the page's prose (`records.rs`).
    Records,
    /// An article's body, completed (`body.rs`).
    Body,
    /// Second copies of chosen text (`repeats.rs`).
    Repeats,
    /// `<main>`, `<nav>`, `<aside>`, `<footer>` and tables of contents (`sectioning.rs`).
    Sectioning,
    /// Cookie, JavaScript and reprint notices (`notices.rs`).
    Notices,
    /// Short blocks of page furniture and the leading headline (`furniture.rs`).
    Furniture,
    /// What the site repeats on its other pages (`site.rs`).
    Site,
}

impl Family {
    /// The family's name, as its file is called.
    pub fn name(self) -> &'static str {
        match self {
            Family::Threads => "threads",
            Family::Rails => "rails",
            Family::Records => "records",
            Family::Body => "body",
            Family::Repeats => "repeats",
            Family::Sectioning => "sectioning",
            Family::Notices => "notices",
            Family::Furniture => "furniture",
            Family::Site => "site",
        }
    }
}

/// The pages a rule applies to, by the page verdict.
#[derive(Debug, Clone, Copy)]
pub enum When {
    /// Every page.
    Always,
    /// A page judged an article.
    Article,
    /// A page judged an article, or one not labelled a forum whose headline (the block that shares
    /// the most words with its `<title>`) leads into as much prose as a feed can follow
    /// ([`Verdict::headline_prose`], in words: `records::FEED_BODY_MIN_WORDS`): a portal's article
    /// that its teaser feed made look a listing.
    ArticleOrLedProse,
    /// A page the page-type models label with one of these types (never an article).
    Labelled(&'static [PageType]),
    /// [`When::Labelled`], unless reader comments are kept.
    LabelledUnlessCommentsKept(&'static [PageType]),
    /// Every page but those labelled with one of these types.
    NotLabelled(&'static [PageType]),
}

/// `types` by name, joined by "or".
fn type_names(types: &[PageType]) -> String {
    types.iter().map(|t| t.name()).collect::<Vec<_>>().join(" or ")
}

impl When {
    /// Whether a page of this verdict is one the rule applies to.
    pub(crate) fn holds(self, v: &Verdict) -> bool {
        let labelled = |types: &[PageType]| v.label.is_some_and(|l| types.contains(&l));
        match self {
            When::Always => true,
            When::Article => v.is_article,
            When::ArticleOrLedProse => {
                v.is_article
                    || (v.headline_prose.words >= super::records::FEED_BODY_MIN_WORDS
                        && v.label != Some(PageType::Forum))
            }
            When::Labelled(types) => labelled(types),
            When::LabelledUnlessCommentsKept(types) => labelled(types) && !v.comments_kept,
            When::NotLabelled(types) => !labelled(types),
        }
    }
}

impl fmt::Display for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            When::Always => write!(f, "every page"),
            When::Article => write!(f, "articles"),
            When::ArticleOrLedProse => {
                write!(f, "articles, and pages not labelled forum whose headline leads into prose")
            }
            When::Labelled(types) => write!(f, "pages labelled {}", type_names(types)),
            When::NotLabelled(types) => write!(f, "every page not labelled {}", type_names(types)),
            When::LabelledUnlessCommentsKept(types) => {
                write!(f, "pages labelled {}, unless comments are kept", type_names(types))
            }
        }
    }
}

/// What a rule does.
#[derive(Clone, Copy)]
pub(crate) enum Step {
    /// Leaves chosen text out; says whether it did.
    Drop(fn(&RuleInput<'_>, &mut [bool]) -> bool),
    /// Chooses text; says whether it did.
    Keep(fn(&RuleInput<'_>, &mut [bool]) -> bool),
    /// One kind of short furniture: the kinds switched on run together, in one pass over the blocks,
    /// at the place of the first.
    Furniture(Furniture),
}

/// What the rules read of the page besides the choice.
pub(crate) struct RuleInput<'a> {
    pub doc: &'a Document,
    pub blocks: &'a Blocks,
    /// The page's record regions and its longest prose run.
    pub regions: &'a PageRegions,
    pub auto: &'a AutoParams,
    /// The site's template, when the caller gave one, and the model that tells which of its
    /// recurrences make a block chrome.
    site: Option<(&'a SiteTemplate, &'a SiteModel)>,
    /// The page verdict (the site model reads it).
    is_article: bool,
    label: Option<PageType>,
    /// What the site's template did, once its rule ran.
    pub(crate) site_use: Cell<Option<SiteTemplateUse>>,
    /// Every block's probability, for [`RuleInput::surest`].
    p: &'a [f64],
    surest: OnceCell<NodeId>,
    /// The blocks' site keys, computed when the site's rule or the caller first asks.
    keys: OnceCell<site::PageKeys>,
}

impl<'a> RuleInput<'a> {
    pub(crate) fn new(
        doc: &'a Document,
        blocks: &'a Blocks,
        regions: &'a PageRegions,
        p: &'a [f64],
        auto: &'a AutoParams,
    ) -> Self {
        RuleInput {
            doc,
            blocks,
            regions,
            auto,
            site: None,
            is_article: false,
            label: None,
            site_use: Cell::new(None),
            p,
            surest: OnceCell::new(),
            keys: OnceCell::new(),
        }
    }

    /// With the site's template and the model that reads it.
    pub(crate) fn with_site(self, site: Option<&'a SiteTemplate>, model: &'a SiteModel, verdict: &Verdict) -> Self {
        RuleInput { site: site.map(|t| (t, model)), is_article: verdict.is_article, label: verdict.label, ..self }
    }

    /// The blocks' site keys, computed when first asked for.
    pub(crate) fn keys(&self) -> &site::PageKeys {
        self.keys.get_or_init(|| site::PageKeys::of(self.doc, self.blocks))
    }

    /// The keys, if a rule computed them, for what the page teaches its site.
    pub(crate) fn into_keys(self) -> Option<site::PageKeys> {
        self.keys.into_inner()
    }

    /// The owner of the block the classifier is surest of, found when a rule first asks.
    fn surest(&self) -> NodeId {
        *self.surest.get_or_init(|| surest_owner(self.blocks, self.p))
    }
}

/// The page verdict the rules' [`When`] reads.
pub(crate) struct Verdict {
    pub is_article: bool,
    /// The page-type label of a page that is not an article.
    pub label: Option<PageType>,
    /// `include_comments`.
    pub comments_kept: bool,
    /// The prose under the page's headline (`auto::prose::headline_prose`, reached past up to
    /// `prose::HEADLINE_GAP_CHARS` characters of other text), read on pages neither judged articles
    /// nor labelled forums (the only ones [`When::ArticleOrLedProse`] asks about); empty on others.
    pub headline_prose: crate::algorithms::auto::prose::LedProse,
}

/// The rules, in the order they run.
pub const RULES: &[Rule] = &[
    Rule {
        name: "filter-panels",
        switch: Some(|auto| auto.drop_filter_panels),
        family: Family::Rails,
        when: When::Labelled(&[PageType::Listing, PageType::Collection]),
        reads: "names of elements, chosen text, the surest block",
        step: Step::Drop(|page, chosen| rails::drop_filter_panels(page.doc, chosen, page.surest())),
    },
    Rule {
        name: "product-reviews",
        switch: None,
        family: Family::Threads,
        when: When::LabelledUnlessCommentsKept(&[PageType::Product]),
        reads: "names of elements, the surest block",
        step: Step::Drop(|page, chosen| {
            threads::drop_threads(page.doc, chosen, page.surest(), &lexicon::REVIEW_THREADS)
        }),
    },
    Rule {
        name: "recommendation-rails",
        switch: Some(|auto| auto.drop_recommendation_rails),
        family: Family::Records,
        when: When::Labelled(&[PageType::Product]),
        reads: "record regions, chosen text, the surest block",
        step: Step::Drop(|page, chosen| records::drop_priced_cards(page.blocks, page.regions, chosen, page.surest())),
    },
    Rule {
        name: "calls-to-action",
        switch: None,
        family: Family::Rails,
        when: When::Labelled(&[PageType::Service]),
        reads: "blocks' words and link text; service_cta_max_words",
        step: Step::Drop(|page, chosen| {
            rails::drop_calls_to_action(page.blocks, chosen, page.auto.service_cta_max_words)
        }),
    },
    Rule {
        name: "main-records",
        switch: None,
        family: Family::Records,
        when: When::Labelled(&[PageType::Listing, PageType::Collection]),
        reads: "record regions, chosen text",
        step: Step::Keep(|page, chosen| records::keep_main_records(page.blocks, page.regions, chosen)),
    },
    Rule {
        name: "records-beside-main",
        switch: None,
        family: Family::Records,
        when: When::Labelled(&[PageType::Listing, PageType::Collection, PageType::Forum]),
        reads: "record regions, chosen text",
        step: Step::Drop(|page, chosen| records::drop_records_beside_main(page.blocks, page.regions, chosen)),
    },
    Rule {
        name: "records-after-article",
        switch: None,
        family: Family::Records,
        when: When::ArticleOrLedProse,
        reads: "record regions, the longest prose run",
        step: Step::Drop(|page, chosen| {
            records::drop_records_after_article(page.doc, page.blocks, page.regions, chosen)
        }),
    },
    Rule {
        name: "headline-body",
        switch: None,
        family: Family::Body,
        when: When::Article,
        reads: "the block that shares the most words with the <title>, the prose after it",
        step: Step::Keep(|page, chosen| body::keep_body_of_lone_headline(page.doc, page.blocks, chosen)),
    },
    Rule {
        name: "body-paragraphs",
        switch: None,
        family: Family::Body,
        when: When::Article,
        reads: "the longest run of chosen prose, the other children of its element",
        step: Step::Keep(|page, chosen| body::keep_body_paragraphs(page.doc, page.blocks, chosen)),
    },
    Rule {
        name: "repeats",
        switch: None,
        family: Family::Repeats,
        when: When::NotLabelled(&[PageType::Documentation]),
        reads: "blocks' text; repeat_min_chars",
        step: Step::Drop(|page, chosen| {
            repeats::drop_repeats(page.doc, page.blocks, chosen, page.auto.repeat_min_chars)
        }),
    },
    Rule {
        name: "outside-main",
        switch: None,
        family: Family::Sectioning,
        when: When::Always,
        reads: "<main>, chosen text; main_min_share",
        step: Step::Drop(|page, chosen| sectioning::confine_to_main(page.doc, chosen, page.auto.main_min_share)),
    },
    Rule {
        name: "sectioning-chrome",
        switch: Some(|auto| auto.drop_sectioning_chrome),
        family: Family::Sectioning,
        when: When::Always,
        reads: "<nav>, <aside>, <footer>, chosen text and its links",
        step: Step::Drop(|page, chosen| sectioning::drop_sectioning_chrome(page.doc, chosen)),
    },
    Rule {
        name: "tables-of-contents",
        switch: Some(|auto| auto.drop_tables_of_contents),
        family: Family::Sectioning,
        when: When::Always,
        reads: "links into the page, chosen text",
        step: Step::Drop(|page, chosen| sectioning::drop_tables_of_contents(page.doc, chosen)),
    },
    Rule {
        name: "consent-notices",
        switch: Some(|auto| auto.drop_consent_notices),
        family: Family::Notices,
        when: When::Always,
        reads: "names of elements, their text, chosen text",
        step: Step::Drop(|page, chosen| notices::drop_consent_notices(page.doc, chosen)),
    },
    Rule {
        name: "script-notices",
        switch: Some(|auto| auto.drop_script_notices),
        family: Family::Notices,
        when: When::Always,
        reads: "<noscript> elements and their text",
        step: Step::Drop(|page, chosen| notices::drop_script_notices(page.doc, chosen)),
    },
    Rule {
        name: "reprint-notices",
        switch: Some(|auto| auto.drop_reprint_notices),
        family: Family::Notices,
        when: When::Always,
        reads: "short texts that open a block, chosen text",
        step: Step::Drop(|page, chosen| notices::drop_reprint_notices(page.doc, chosen)),
    },
    Rule {
        name: "share-prompts",
        switch: Some(|auto| auto.drop_share_prompts),
        family: Family::Furniture,
        when: When::Always,
        reads: "a short block's text",
        step: Step::Furniture(furniture::SHARE_PROMPTS),
    },
    Rule {
        name: "interface-labels",
        switch: Some(|auto| auto.drop_interface_labels),
        family: Family::Furniture,
        when: When::Always,
        reads: "a short block's text",
        step: Step::Furniture(furniture::INTERFACE_LABELS),
    },
    Rule {
        name: "breadcrumbs",
        switch: Some(|auto| auto.drop_breadcrumbs),
        family: Family::Furniture,
        when: When::Always,
        reads: "a short block's text",
        step: Step::Furniture(furniture::BREADCRUMBS),
    },
    Rule {
        name: "bare-addresses",
        switch: Some(|auto| auto.drop_bare_addresses),
        family: Family::Furniture,
        when: When::Always,
        reads: "a short block's text",
        step: Step::Furniture(furniture::BARE_ADDRESSES),
    },
    Rule {
        name: "cross-references",
        switch: None,
        family: Family::Furniture,
        when: When::Always,
        reads: "a short block's label and its link",
        step: Step::Drop(|page, chosen| furniture::drop_cross_references(page.doc, page.blocks, chosen)),
    },
    Rule {
        name: "trailing-headings",
        switch: None,
        family: Family::Furniture,
        when: When::Article,
        reads: "headings after the last chosen block that is not one",
        step: Step::Drop(|page, chosen| furniture::drop_trailing_headings(page.doc, page.blocks, chosen)),
    },
    Rule {
        name: "leading-headline",
        switch: Some(|auto| auto.drop_leading_headline),
        family: Family::Furniture,
        when: When::Always,
        reads: "<title>, the first chosen blocks (off unless drop_leading_headline = true)",
        step: Step::Drop(|page, chosen| furniture::drop_leading_headline(page.doc, page.blocks, chosen)),
    },
    Rule {
        name: "site-template",
        switch: None,
        family: Family::Site,
        when: When::Always,
        reads: "blocks' paths and text, the site's model and what it learned (when one is given)",
        step: Step::Drop(|page, chosen| {
            page.site.is_some_and(|(site, model)| {
                let view = site::PageView::new(page.regions, page.is_article, page.label, page.blocks, chosen);
                let (used, changed) = site::drop_site_blocks(page.blocks, page.keys(), chosen, site, model, &view);
                page.site_use.set(Some(used));
                changed
            })
        }),
    },
];

impl Rule {
    /// Whether the rule is switched off: named in [`AutoParams::without_rules`] (what `pith eval
    /// --without-rule` sets), or by its `drop_*` setting set to false.
    pub fn is_off(&self, auto: &AutoParams) -> bool {
        self.switch.is_some_and(|on| !on(auto)) || auto.without_rules.contains(&self.name)
    }
}

/// The rule called `name`.
pub fn rule_named(name: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.name == name)
}

/// Run the rules that `pick` selects and that are not switched off on the choice, in the table's
/// order, each stamping what it changed. Returns whether any changed it.
pub(crate) fn run(page: &RuleInput<'_>, choice: &mut Choice, pick: impl Fn(&Rule) -> bool) -> bool {
    let on = |rule: &Rule| pick(rule) && !rule.is_off(page.auto);
    let mut changed = false;
    let mut furniture_done = false;
    // The choice as the last rule that changed it left it: what the next one's changes are read against.
    let mut before = choice.chosen.clone();
    for rule in RULES {
        match rule.step {
            Step::Drop(step) | Step::Keep(step) => {
                if on(rule) && step(page, &mut choice.chosen) {
                    changed = true;
                    let stamp = choice.rule_stamp(rule.name);
                    choice.stamp_changes(&before, stamp);
                    before.copy_from_slice(&choice.chosen);
                }
            }
            Step::Furniture(_) if !furniture_done => {
                furniture_done = true;
                let (rules, kinds): (Vec<usize>, Vec<Furniture>) = furniture_kinds(on).into_iter().unzip();
                let dropped = furniture::drop_short_furniture(page.doc, page.blocks, &mut choice.chosen, &kinds);
                for &(kind, block) in &dropped {
                    let stamp = choice.rule_stamp(RULES[rules[kind]].name);
                    choice.stamp_nodes(page.blocks.texts_of(&page.blocks.list[block]), stamp);
                }
                if !dropped.is_empty() {
                    changed = true;
                    before.copy_from_slice(&choice.chosen);
                }
            }
            Step::Furniture(_) => {}
        }
    }
    changed
}

/// The kinds of short furniture whose rules `on` accepts, in the table's order, each with its rule's
/// place in the table.
pub(super) fn furniture_kinds(on: impl Fn(&Rule) -> bool) -> Vec<(usize, Furniture)> {
    RULES
        .iter()
        .enumerate()
        .filter_map(|(index, rule)| match rule.step {
            Step::Furniture(kind) if on(rule) => Some((index, kind)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_kebab_case() {
        for (k, rule) in RULES.iter().enumerate() {
            assert!(
                !rule.name.is_empty() && rule.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                rule.name
            );
            assert!(RULES[..k].iter().all(|r| r.name != rule.name), "{} twice", rule.name);
        }
        assert_eq!(rule_named("repeats").map(|r| r.family), Some(Family::Repeats));
        assert!(rule_named("help").is_none());
    }

    #[test]
    fn documentation_keeps_its_repeats() {
        let when = rule_named("repeats").map(|r| r.when);
        let verdict =
            |is_article, label| Verdict { is_article, label, comments_kept: false, headline_prose: Default::default() };
        let holds = |v: Verdict| when.is_some_and(|w| w.holds(&v));
        assert!(holds(verdict(true, None)));
        assert!(holds(verdict(false, Some(PageType::Product))));
        assert!(!holds(verdict(false, Some(PageType::Documentation))));
    }

    #[test]
    fn a_feed_follows_an_article_or_a_headline_that_leads_into_prose() {
        let when = rule_named("records-after-article").map(|r| r.when);
        let verdict = |is_article, label, words| Verdict {
            is_article,
            label,
            comments_kept: false,
            headline_prose: crate::algorithms::auto::prose::LedProse { chars: 0, words },
        };
        let holds = |v: Verdict| when.is_some_and(|w| w.holds(&v));
        let body = super::super::records::FEED_BODY_MIN_WORDS;
        assert!(holds(verdict(true, None, 0)));
        // A portal's article that its teaser feed made look a listing: a hundred words under the
        // headline, whatever the script (a short Chinese report of 300 characters has 250).
        assert!(holds(verdict(false, Some(PageType::Listing), body)));
        assert!(!holds(verdict(false, Some(PageType::Listing), body - 1)));
        // A thread's first post leads into the replies, which are its content.
        assert!(!holds(verdict(false, Some(PageType::Forum), 10 * body)));
    }

    #[test]
    fn the_furniture_rows_are_one_run_of_the_table() {
        let at: Vec<usize> = (0..RULES.len()).filter(|&k| matches!(RULES[k].step, Step::Furniture(_))).collect();
        assert_eq!(at.len(), 4);
        assert!(at.windows(2).all(|w| w[1] == w[0] + 1), "{at:?}");
    }

    #[test]
    fn every_drop_setting_switches_off_its_own_rule_and_no_other() {
        let keys = [
            "drop_sectioning_chrome",
            "drop_tables_of_contents",
            "drop_consent_notices",
            "drop_recommendation_rails",
            "drop_filter_panels",
            "drop_script_notices",
            "drop_reprint_notices",
            "drop_share_prompts",
            "drop_breadcrumbs",
            "drop_interface_labels",
            "drop_bare_addresses",
        ];
        let on = AutoParams::default();
        // Every rule runs by default but the leading headline.
        let off: Vec<&str> = RULES.iter().filter(|r| r.is_off(&on)).map(|r| r.name).collect();
        assert_eq!(off, ["leading-headline"]);
        for key in keys {
            let auto: AutoParams = serde_json::from_value(serde_json::json!({ key: false })).unwrap();
            let off: Vec<&str> = RULES.iter().filter(|r| r.is_off(&auto)).map(|r| r.name).collect();
            assert_eq!(off, [key.trim_start_matches("drop_").replace('_', "-").as_str(), "leading-headline"]);
        }
        let auto: AutoParams = serde_json::from_value(serde_json::json!({ "drop_leading_headline": true })).unwrap();
        assert!(RULES.iter().all(|r| !r.is_off(&auto)));
        let auto = AutoParams { without_rules: vec!["repeats"], ..AutoParams::default() };
        let off = |name| rule_named(name).is_some_and(|r| r.is_off(&auto));
        assert!(off("repeats") && !off("outside-main"));
    }
}

//! Every algorithm's parameters, defaulting to the papers' values.
//!
//! They live in the contract rather than beside each algorithm because one [`Params`] travels with
//! every [`super::Context`], and `auto` reads the seed methods' parameters as well as its own: kept
//! here, no algorithm module needs another's. Each struct's documentation points to the method it
//! tunes; `pith serve` reads them from the `[params]` table of its configuration.

use serde::{Deserialize, Serialize};

use super::PageType;

/// Every algorithm's parameters, defaulting to the papers' values. `pith serve` reads them from the
/// `[params]` table of its configuration (file or `PITH_PARAMS__<ALGORITHM>__<KEY>`), so each can be
/// overridden without a rebuild.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    pub cetd: CetdParams,
    pub pvalue: PValueParams,
    pub bayes: BayesParams,
    pub anchor_ratio: AnchorRatioParams,
    pub line_density: LineDensityParams,
    pub dom_stats: DomStatsParams,
    pub vips: VipsParams,
    pub auto: AutoParams,
}

/// The settings pith ships with (`config/default.toml`), embedded: its `[params]` table is where the
/// command line, the service and the Python package start from; the service reads the rest.
pub const DEFAULT_TOML: &str = include_str!("../../../config/default.toml");

impl Params {
    /// The parameters of the embedded `config/default.toml`'s `[params]` table (keys it leaves out
    /// keep the papers' values): what `pith extract` runs with when no `PITH_PARAMS__*` variable is
    /// set, without the service's settings around them.
    pub fn configured() -> Result<Params, crate::error::Error> {
        Params::from_settings(DEFAULT_TOML)
            .map_err(|e| crate::error::Error::Config(format!("config/default.toml: {e}")))
    }

    /// The `[params]` table of a settings file in `config/default.toml`'s format (the other tables
    /// are not read); a key no parameter has is an error.
    pub fn from_settings(toml: &str) -> Result<Params, toml::de::Error> {
        #[derive(Deserialize)]
        struct Settings {
            #[serde(default)]
            params: Params,
        }
        toml::from_str::<Settings>(toml).map(|s| s.params)
    }
}

/// Parameters of the CETD family: `cetd-ds`, `cectd-ds`, `cectd-s` (Sun, Song & Liao).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CetdParams {
    /// Weight of a node itself in sibling smoothing (`cectd-s`); each neighbour weighs 1.
    pub smoothing_self_weight: f64,
}

impl Default for CetdParams {
    fn default() -> Self {
        CetdParams { smoothing_self_weight: 2.0 }
    }
}

/// Parameters of `p-value` (Lv et al.). Its threshold also turns every algorithm's probability into
/// the answer's `is_article`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PValueParams {
    /// Page P at or above this means "has an article" (the paper's 0.5).
    pub article_threshold: f64,
}

impl Default for PValueParams {
    fn default() -> Self {
        PValueParams { article_threshold: 0.5 }
    }
}

/// Parameters of `bayes`, the Naive Bayes block classifier ("Chinese web content extraction based on
/// Naive Bayes model"), at run time.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BayesParams {
    /// Merge neighbouring sibling blocks of the same tag (the paper's blocking rule 3).
    pub merge_siblings: bool,
}

impl Default for BayesParams {
    fn default() -> Self {
        BayesParams { merge_siblings: true }
    }
}

/// Parameters of `anchor-ratio` (after the paper on Thai web content extraction for tag clouds);
/// `auto` reads its measure with the same values.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AnchorRatioParams {
    pub atr_weight: f64,
    pub anr_weight: f64,
    /// Blocks with AR below this keep their leaves.
    pub max_ratio: f64,
    /// Leaves shorter than this (characters) are dropped.
    pub min_chars: u32,
    /// Leaves whose text begins with one of these (case-insensitive) are footer marks.
    pub footer_marks: Vec<String>,
}

impl Default for AnchorRatioParams {
    fn default() -> Self {
        AnchorRatioParams {
            atr_weight: 0.75,
            anr_weight: 0.25,
            max_ratio: 0.60,
            min_chars: 2,
            footer_marks: [
                "powered by",
                "copyright",
                "©",
                "(c)",
                "all rights reserved",
                "版权所有",
                "版权",
                "©版权",
                "copyright ©",
                "備案",
                "备案",
                "icp备",
                "ลิขสิทธิ์",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        }
    }
}

/// Parameters of `line-density` (survey §2.1).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LineDensityParams {
    /// A block is kept when its text (spaces removed) has more than this many characters.
    pub min_block_chars: usize,
    /// This many consecutive empty lines end a block.
    pub blank_lines: usize,
}

impl Default for LineDensityParams {
    fn default() -> Self {
        LineDensityParams { min_block_chars: 60, blank_lines: 2 }
    }
}

/// Parameters of `dom-stats` (survey §2.2).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DomStatsParams {
    /// Minimum (non-link text length) / (link text length).
    pub length_ratio: f64,
    /// Minimum (non-link text nodes) / (links).
    pub count_ratio: f64,
}

impl Default for DomStatsParams {
    fn default() -> Self {
        DomStatsParams { length_ratio: 3.0, count_ratio: 1.0 }
    }
}

/// What `auto` returns as text for a page it judges to have no article.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoArticleText {
    /// Only the page's first paragraph, when it is short (a listing's intro): for an index that wants
    /// articles only and would rather not filter on the has-article probability itself.
    Lead,
    /// The region's text as for an article: every page type has main content (a product's description,
    /// a listing's items, a forum's posts), and the has-article probability says what kind it is.
    Full,
}

impl std::str::FromStr for NoArticleText {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "lead" => Ok(NoArticleText::Lead),
            "full" => Ok(NoArticleText::Full),
            other => Err(format!("`{other}` is not `lead` or `full`")),
        }
    }
}

/// Parameters of `auto`, the default pipeline.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AutoParams {
    pub no_article_text: NoArticleText,
    /// The longest lead kept under `Lead` (characters).
    pub lead_chars: u32,
    /// A block is content when the block classifier gives it at least this probability.
    pub block_threshold: f64,
    /// Keep reader comments. By default a comment thread (a container named for comments that starts
    /// after the article's first kept text) is left out whatever its blocks scored, and so are a
    /// product page's customer reviews (a container named for reviews).
    pub include_comments: bool,
    /// The block threshold for pages of a given type, where it differs from `block_threshold`: a
    /// listing's items are short, link-heavy blocks that a threshold set for prose under-keeps.
    pub type_thresholds: TypeThresholds,
    /// The has-article calibration, measured on held-out sites: the probability's log-odds are
    /// multiplied by `article_log_odds_scale` and `article_log_odds_shift` is added. The model learns
    /// from page signals read with block models that saw those very pages, cleaner than the signals
    /// of a page it has not seen, and so it is under-confident on new pages: under site-grouped
    /// cross-validation, pages it gave 0.4–0.5 were articles 88% of the time, 0.2–0.4 55%.
    pub article_log_odds_scale: f64,
    /// See [`AutoParams::article_log_odds_scale`].
    pub article_log_odds_shift: f64,
    /// A kept block whose text (whitespace aside) repeats an earlier kept block's under another parent
    /// is left out when it has at least this many characters (0: keep repeats). Pages carry hidden
    /// copies of their own text (one description per product variant, a mobile and a desktop layout
    /// of one article), and a reader sees it once. Short repeats ("Reply", a spec line in two tables)
    /// and a paragraph repeated among its own siblings stay.
    pub repeat_min_chars: u32,
    /// Confine the answer to the page's `<main>` element when at least this share of the kept text
    /// is already inside it (0: never). HTML defines `<main>` as the dominant contents of the document,
    /// and a page that marks it has put its header, menus and site-wide widgets (testimonial rails,
    /// newsletter pitches, "top stories") outside; the block classifier judges blocks one by one and
    /// keeps some of those. Kept text that runs without a break into `<main>` (a headline and dek
    /// written just above it) stays. Only a page with one `<main>` (or nested ones) is confined.
    pub main_min_share: f64,
    /// The rules of `auto`'s selection switched off, by name (`algorithms/auto/select/rules.rs`): what
    /// `pith eval --without-rule` sets to measure a rule. Not a setting: a deployment leaves every
    /// rule on.
    #[serde(skip)]
    pub without_rules: Vec<&'static str>,
    // The `drop_*` switches below come from before the rule table: each still switches its rule
    // off when false (the rule's `switch` in `auto/select/rules.rs`), so that settings written for
    // them keep working.
    // Rules added since have none.
    /// Leave out kept text inside `<nav>`, `<aside>` and `<footer>` elements that hold less than half
    /// of the kept text. HTML names these for navigation, content tangential to the page's, and
    /// information about its section (author, links, copyright); a block among them that reads like
    /// prose is still not the page's main content. An element holding most of the kept text is the
    /// content in a template that misuses the name, and stays, unless it is a `<nav>` whose kept
    /// text is nearly all links and there is kept text outside it: a menu, however large.
    pub drop_sectioning_chrome: bool,
    /// Accepted and ignored: its rule (`named-footers`) measured nothing the block model did not
    /// already do and left the table. Kept so that settings written for it still load.
    pub drop_named_footers: bool,
    /// Leave out kept tables of contents: elements whose text is nearly all links to places in the
    /// page itself (`href="#..."`, three or more, not footnote marks), when they hold less than half
    /// of the kept text. They repeat the headings the content already holds; a reader of the
    /// extracted text has no page to jump around in.
    pub drop_tables_of_contents: bool,
    /// Leave out cookie and consent notices (a container named for consent or a cookie banner whose
    /// text speaks of cookies) whatever their share of the kept text, when kept text lies outside
    /// them. A consent manager's preference center, written out in the HTML, can outweigh a short post.
    pub drop_consent_notices: bool,
    /// On a page labelled `product`, leave out its recommendation rails: record regions of three or
    /// more records, at least half of them priced, that hold neither the block the classifier is
    /// surest of nor half of the kept text. They are other products' cards.
    pub drop_recommendation_rails: bool,
    /// On a page labelled `listing` or `collection`, leave out its filter and sort panels: elements
    /// named for filters, facets or refinements that start after the first kept text and hold neither
    /// the block the classifier is surest of nor half of the kept text.
    pub drop_filter_panels: bool,
    /// Leave out notices about JavaScript: `<noscript>` elements of at most 400 characters that name
    /// it ("JavaScript is disabled. Please enable it…"). Longer `<noscript>` content (a thread written
    /// out for crawlers, an article's text) stays.
    pub drop_script_notices: bool,
    /// Leave out reprint and copyright notices: a short text that names one ("版权与免责声明"), opens
    /// with "声明：", or speaks of reprinting and rights together, with the section it opens when that
    /// holds less than half of the kept text. Chinese news sites print them under every article.
    pub drop_reprint_notices: bool,
    /// Leave out share prompts: a kept block of at most 40 characters that is one ("Share this with
    /// friends", "Share on X", "分享到：", "微信扫一扫").
    pub drop_share_prompts: bool,
    /// Leave out breadcrumb trails: a kept block of at most 200 characters that opens by saying where
    /// the reader is ("您现在的位置：", "当前位置", "You are here:") and separates steps with ">", "»", "/"….
    pub drop_breadcrumbs: bool,
    /// Leave out interface labels: a kept block of at most 30 characters that is a control's label
    /// and nothing else ("Click to expand...", "Loading...", "Read more", "加载更多"; a shop's "Quick
    /// view", "Add to cart", "Compare"; "Sort by:", "Filters", "Apply now", "Advertisement"; a vote
    /// count, "12 likes").
    pub drop_interface_labels: bool,
    /// Accepted and ignored: its rule (`prev-next-links`) changed no answer's score on any developer
    /// set and left the table. Kept so that settings written for it still load.
    pub drop_prev_next_links: bool,
    /// Accepted and ignored: its rule (`site-records`) changed no answer's score on any developer set
    /// and left the table. Kept so that settings written for it still load.
    pub drop_site_records: bool,
    /// Leave out a bare address: a kept block of at most 300 characters whose whole text is one web
    /// address or image path, written out as text rather than as a link's label (a shop's attribute
    /// dump, `cat_thumb_Bone: https://cdn…/160x160/…`, or a feed's raw fields).
    pub drop_bare_addresses: bool,
    /// Accepted and ignored: its rule (`poster-details`, an English list of forum ranks and "Posts:",
    /// "Joined:" lines) moved 17 of 3,903 developer pages by a summed -0.07 F1 once the block model
    /// read record regions, and left the table. Kept so that settings written for it still load.
    pub drop_poster_details: bool,
    /// Leave out the headline when it opens the kept text: the first kept block (two, for a headline
    /// printed twice) of at most 300 characters whose whole text `<title>` holds. Off by default: the
    /// labelled sets disagree (wcxb-dev, readability-tests, tiptopjaw-2026 and zh-cwce keep the body
    /// only; l3s-gn1, dragnet and utomo-big9-chaos keep the headline with it), and the headline is in
    /// the answer's `title` either way.
    pub drop_leading_headline: bool,
    /// Accepted and ignored: its rule (`comments-after-article`, a comment thread after 500 bytes of
    /// kept text left out even when it held the surest block) changed no page of the developer sets
    /// and left the table. Kept so that settings written for it still load.
    pub comments_after_article_bytes: u32,
    /// When no block reaches the threshold and the page's body holds fewer than this many
    /// characters of text, the answer is all of it (0: the heuristic region, as on larger pages).
    pub small_page_chars: u32,
    /// When no block reaches even this probability, the page has no main content and the answer is
    /// empty (0: never). A page of script shells, a bot wall or an error notice leaves only its
    /// chrome (a cart link, a legal footer), which the fallbacks above would otherwise return.
    pub no_content_below: f64,
    /// Accepted and ignored: its rule (`code-between-kept`, a code block between kept text kept with
    /// it) moved 3 of 3,903 developer pages by a summed -0.02 F1 once the block model read the page's
    /// code, and left the table. Kept so that settings written for it still load.
    pub code_between_kept_chars: u32,
    /// When the page declares one product in JSON-LD whose description has at least this many words,
    /// and the kept text holds fewer than half of that description's distinct words, a page that is
    /// not an article answers with the description first (0: never). Shops often keep the
    /// description out of the first paint (a closed accordion, a `<main>` shown by a script), where
    /// no reader of the HTML sees it, while their structured data states it in full.
    pub product_description_min_words: u32,
    /// On a page labelled `service`, a block of at most this many words that is link text and nothing
    /// else is left out (0: kept): the page's calls to action ("Get started", "Book a demo"), which
    /// its lower block threshold lets through.
    pub service_cta_max_words: u32,
}

/// The default of [`AutoParams::main_min_share`], chosen by site-grouped cross-validation
/// (docs/history/evaluation-journal.md, ninth session).
pub const MAIN_MIN_SHARE: f64 = 0.65;

/// The default of [`AutoParams::repeat_min_chars`].
pub const REPEAT_MIN_CHARS: u32 = 40;

/// The has-article calibration chosen by site-grouped cross-validation
/// ([`AutoParams::article_log_odds_scale`] and [`AutoParams::article_log_odds_shift`]); the
/// measurements are in docs/history/evaluation-journal.md, twenty-third session.
pub const ARTICLE_LOG_ODDS_SCALE: f64 = 1.4;
/// See [`ARTICLE_LOG_ODDS_SCALE`].
pub const ARTICLE_LOG_ODDS_SHIFT: f64 = 0.8;

/// A block threshold per page type other than article (`None`: `block_threshold`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TypeThresholds {
    pub forum: Option<f64>,
    pub product: Option<f64>,
    pub collection: Option<f64>,
    pub listing: Option<f64>,
    pub documentation: Option<f64>,
    pub service: Option<f64>,
}

impl TypeThresholds {
    /// The defaults, chosen by site-grouped 3-fold cross-validation (docs/history/evaluation-journal.md):
    /// for each type, the threshold with the highest held-out word F1 over the pages given that type,
    /// kept only when both halves of the sites agree. Listings and collections keep their short item
    /// and card blocks at 0.2, documentation its reference blocks at 0.3, service pages' sections at
    /// 0.3. Forums and product pages were measured again over the fifteen sets (twenty-eighth session):
    /// a forum thread's replies at 0.4 (0.3 before; forums-harvest +0.015), a product page's own
    /// description at 0.4 (the block threshold before; the classifier is unsure of descriptions on
    /// shops it has not seen: products-zyte +0.025).
    pub const CROSS_VALIDATED: TypeThresholds = TypeThresholds {
        forum: Some(0.4),
        product: Some(0.4),
        collection: Some(0.2),
        listing: Some(0.2),
        documentation: Some(0.3),
        service: Some(0.3),
    };

    /// The override for pages of type `page_type`, if one is set (never for articles: theirs is
    /// the block threshold).
    pub fn get(&self, page_type: PageType) -> Option<f64> {
        match page_type {
            PageType::Article => None,
            PageType::Forum => self.forum,
            PageType::Product => self.product,
            PageType::Collection => self.collection,
            PageType::Listing => self.listing,
            PageType::Documentation => self.documentation,
            PageType::Service => self.service,
        }
    }
}

impl Default for AutoParams {
    fn default() -> Self {
        AutoParams {
            no_article_text: NoArticleText::Full,
            lead_chars: 300,
            block_threshold: 0.5,
            repeat_min_chars: REPEAT_MIN_CHARS,
            main_min_share: MAIN_MIN_SHARE,
            without_rules: Vec::new(),
            drop_sectioning_chrome: true,
            drop_named_footers: true,
            drop_tables_of_contents: true,
            drop_consent_notices: true,
            drop_recommendation_rails: true,
            drop_filter_panels: true,
            drop_script_notices: true,
            drop_reprint_notices: true,
            drop_share_prompts: true,
            drop_breadcrumbs: true,
            drop_interface_labels: true,
            drop_prev_next_links: true,
            drop_site_records: true,
            drop_bare_addresses: true,
            drop_poster_details: true,
            drop_leading_headline: false,
            comments_after_article_bytes: 500,
            small_page_chars: 200,
            no_content_below: 0.3,
            code_between_kept_chars: 100,
            product_description_min_words: 20,
            service_cta_max_words: 3,
            include_comments: false,
            type_thresholds: TypeThresholds::CROSS_VALIDATED,
            article_log_odds_scale: ARTICLE_LOG_ODDS_SCALE,
            article_log_odds_shift: ARTICLE_LOG_ODDS_SHIFT,
        }
    }
}

/// Parameters of `vips` (vision-based page segmentation as the survey of extraction methods describes
/// it; the rules are in its module).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VipsParams {
    /// Permitted degree of coherence: blocks below it are segmented further (1–10).
    pub pdoc: u8,
    /// Relative size (share of the page's area) under which a node counts as small (R9, R10).
    pub small_block: f64,
    /// Segmentation rounds at most (each re-segments the blocks below `pdoc`).
    pub max_rounds: usize,
    /// Siblings of the main block with more link text than this share are left out.
    pub max_link_share: f64,
}

impl Default for VipsParams {
    fn default() -> Self {
        VipsParams { pdoc: 8, small_block: 0.02, max_rounds: 8, max_link_share: 0.5 }
    }
}

//! The class/id words of containers that `auto` leaves out or weighs down (noise inside the heuristic
//! region, comment and review threads, footers, filter panels, consent notices) and of a thread's
//! posts: data read by `region`, `select` and `page_type`, matched by [`super::name_matcher`].
//!
//! Each list says which way it matches and why; they differ on purpose, and each was tuned where it
//! is used with the shipped models trained on its verdicts, so a list may not change its way of
//! matching without retraining and re-evaluating:
//!
//! | list | used for | match |
//! |---|---|---|
//! | [`NOISE_CONTAINERS`] | containers pruned from the heuristic region | [`Match::Within`] |
//! | [`COMMENT_CONTAINERS`] | candidates of the region's core weighed down | [`Match::Within`] |
//! | [`COMMENT_THREADS`] | comment threads left out of the answer | [`Match::WordStart`] (but not "commentar…") and [`Match::Word`] |
//! | [`REVIEW_THREADS`] | a product page's customer reviews, left out like comment threads | [`Match::WordStart`] |
//! | [`CONSENT_NOTICES`] | cookie notices left out of the answer (when their text speaks of cookies) | [`Match::Within`] |
//! | [`NAME_GROUPS`] | the `name_*` block features | [`Match::WordStart`] |
//!
//! Reader comments are thus named by three rules. `Within` over the whole name is broad ("nocomments",
//! "commentary" match) and costs little where a miss is worse than a false alarm (weighing the core,
//! pruning inside a region the classifier judges again); leaving text out of the answer is final, so
//! the thread rule reads whole words and spares opinion sections ("commentary") and wrappers that
//! merely mention comments.
//!
//! [`Match::Within`]: super::name_matcher::Match::Within
//! [`Match::WordStart`]: super::name_matcher::Match::WordStart
//! [`Match::Word`]: super::name_matcher::Match::Word
//! [`NAME_GROUPS`]: super::NAME_GROUPS

use super::name_matcher::Names;

/// Containers that are never main content when they sit inside the heuristic article region.
pub static NOISE_CONTAINERS: Names = Names::within(&[
    "comment",
    "disqus",
    "share",
    "sharing",
    "social",
    "related",
    "recommend",
    "sidebar",
    "footer",
    "breadcrumb",
    "menu",
    "navbar",
    "newsletter",
    "subscribe",
    "promo",
    "advert",
    "sponsor",
    "cookie",
    "popup",
    "widget",
    "pagination",
    "pager",
    "tagcloud",
    "toolbar",
    "rating",
    "respond",
    "reply",
    "author-box",
    "authorbox",
    "more-stories",
    "read-more",
    "readmore",
    "outbrain",
    "taboola",
]);

/// Containers of comment threads, whose text weighs a tenth when the region's core is chosen (a
/// thread often holds more text than the article it follows).
pub static COMMENT_CONTAINERS: Names = Names::within(&["comment", "disqus", "respond", "discussion", "replies"]);

/// Reader-comment threads ("comments", "comment-list", "disqus_thread", "respond", "replies", or the
/// pinyin "pinglun" of Chinese sites), but not an opinion piece ("commentary").
pub static COMMENT_THREADS: [Names; 2] = [
    Names::word_start_unless(&["comment", "disqus", "pinglun"], &["commentar"]),
    Names::words(&["respond", "replies"]),
];

/// Customer-review sections of a product page ("reviews", "product-reviews", "review-list"): a
/// product's comment thread. Review widgets' vendor names and "rating" / "testimonial" added nothing
/// on product pages and cost elsewhere (docs/EVALUATION.md), so the one stem stays.
pub static REVIEW_THREADS: [Names; 1] = [Names::word_start(&["review"])];

/// A listing's filter and sort panels ("filters-panel", "facet-list", "refinements").
pub static FILTER_PANELS: [Names; 1] = [Names::word_start(&["filter", "facet", "refine"])];

/// Cookie and consent notices: consent managers' containers ("onetrust-consent-sdk",
/// "cookie-consent", "moove_gdpr_cookie_modal") and cookie banners. A bare "cookie" is not among
/// them: documentation names its section on cookies so.
pub static CONSENT_NOTICES: Names = Names::within(&[
    "consent",
    "gdpr",
    "cookie-banner",
    "cookiebanner",
    "cookie-notice",
    "cookienotice",
    "cookie-bar",
    "cookiebar",
    "cookie-law",
    "cookielaw",
]);

/// Does the element name `id_class` match [`CONSENT_NOTICES`]? Every element's name is asked, so the
/// three roots the stems share are searched first with searchers built once; the ten stems only when
/// "cookie" is there.
pub fn is_consent_notice(id_class: &str) -> bool {
    use memchr::memmem::Finder;
    static ROOTS: std::sync::LazyLock<[Finder<'static>; 3]> =
        std::sync::LazyLock::new(|| [Finder::new("consent"), Finder::new("gdpr"), Finder::new("cookie")]);
    let [consent, gdpr, cookie] = &*ROOTS;
    let name = id_class.as_bytes();
    consent.find(name).is_some()
        || gdpr.find(name).is_some()
        || (cookie.find(name).is_some() && CONSENT_NOTICES.matches(id_class))
}

/// Element name words of posts in a thread (forums, Q&A sites, comment-style replies).
pub static POST_NAMES: Names = Names::words(&[
    "post",
    "posts",
    "reply",
    "replies",
    "message",
    "answer",
    "answers",
    "postbody",
    "post-body",
    "topic-post",
]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consent_notice_names_match_as_their_stems_do() {
        for name in [
            "onetrust-consent-sdk",
            "moove_gdpr_cookie_modal",
            "site cookie-banner",
            "cookielaw-popup",
            "cookie-notice",
        ] {
            assert!(is_consent_notice(name) && CONSENT_NOTICES.matches(name), "{name}");
        }
        for name in ["cookies", "cookie-recipes", "article-body", ""] {
            assert!(!is_consent_notice(name) && !CONSENT_NOTICES.matches(name), "{name}");
        }
    }
}

//! What page furniture says, read from a short text alone: controls' labels, a forum's poster details,
//! breadcrumb trails, bare web addresses, share prompts and reprint notices. Each
//! predicate is one rule of `select`'s that leaves such a text out of the answer; the whole-text lists
//! are compared by [`super::phrase_matcher`].

use super::phrase_matcher::{Phrases, opens_with, same_words};

/// Names of a reprint or copyright notice, matched anywhere in a short text: "版权与免责声明：",
/// "反侵权公告" (simplified and traditional script).
const REPRINT_NOTICE_NAMES: &[&str] =
    &["免责声明", "版权声明", "侵权公告", "版权与免责", "免責聲明", "版權聲明", "侵權公告", "版權與免責"];
/// What a notice's opening label ends with, before its colon: "声明：该文观点仅代表作者本人…",
/// "特别声明：以上内容…仅提供信息存储服务".
const REPRINT_NOTICE_LABELS: &[&str] = &["声明", "聲明"];
/// The longest label, in characters, a notice opens with ("重要声明", "特别声明").
const REPRINT_NOTICE_LABEL_CHARS: usize = 4;
/// Words of rights that, beside "reprint" (转载), make a text a reprint notice.
const REPRINT_RIGHTS: &[&str] = &["侵权", "版权", "著作权", "侵權", "版權", "著作權"];

/// Is the short `text` a reprint or copyright notice: named so, opening with "声明：", or speaking of
/// reprinting (转载) and of rights or infringement together ("未经书面许可，擅自转载…侵权")? A
/// writer's "本文禁止转载" under a post names no right and is not one.
pub fn is_reprint_notice(text: &str) -> bool {
    // Every notice here is in Chinese script; most texts asked are not (a quick scan first).
    if text.is_ascii() {
        return false;
    }
    let text = text.trim_start();
    REPRINT_NOTICE_NAMES.iter().any(|n| text.contains(n))
        || opens_with_notice_label(text)
        || is_notice_title(text)
        || ((text.contains("转载") || text.contains("轉載")) && REPRINT_RIGHTS.iter().any(|r| text.contains(r)))
}

/// Is `text`, whole, a notice's label as its own heading, a colon after it or not: "特别声明",
/// "免责声明：" ([`REPRINT_NOTICE_LABELS`], [`REPRINT_NOTICE_LABEL_CHARS`] characters at most). A
/// platform prints it in an element of its own above the notice's text, and the label can be left
/// out of the answer while the text under it is kept.
pub fn is_notice_title(text: &str) -> bool {
    let t = text.trim().trim_end_matches(['：', ':']).trim_end();
    // A CJK character is three bytes: most texts are answered by their length alone.
    t.len() <= REPRINT_NOTICE_LABEL_CHARS * 3
        && !t.is_empty()
        && t.chars().count() <= REPRINT_NOTICE_LABEL_CHARS
        && REPRINT_NOTICE_LABELS.iter().any(|l| t.ends_with(l))
}

/// Does `text` open with a notice's label and its colon, after any opening quotation mark: "声明：",
/// "特别声明：" ([`REPRINT_NOTICE_LABELS`], a label of [`REPRINT_NOTICE_LABEL_CHARS`] characters at most)?
fn opens_with_notice_label(text: &str) -> bool {
    let text = text.trim_start_matches(['“', '"', '「', '『', '【', '[']);
    let Some((label, _)) = text.split_once(['：', ':']) else { return false };
    label.chars().count() <= REPRINT_NOTICE_LABEL_CHARS && REPRINT_NOTICE_LABELS.iter().any(|l| label.ends_with(l))
}

/// Labels of controls, lower-case, without trailing dots, ellipses or arrows.
pub(super) const INTERFACE_LABELS: &[&str] = &[
    "loading",
    "click to expand",
    "click to shrink",
    "show more",
    "show less",
    "load more",
    "see more",
    "view more",
    "read more",
    "expand",
    "collapse",
    "加载中",
    "加载更多",
    "查看更多",
    "点击加载更多",
    "展开",
    "收起",
];
/// Is `text`, whole, a control's label ([`INTERFACE_LABELS`], [`SHOP_CONTROLS`],
/// [`LISTING_CONTROLS`]) or a vote count ("12 likes"): "Click to expand...", "Loading…", "READ MORE
/// »", "Add to cart", "Sort by:"? Case, spacing and trailing dots, ellipses and arrows aside.
pub fn is_interface_label(text: &str) -> bool {
    static LABELS: std::sync::LazyLock<Phrases> =
        std::sync::LazyLock::new(|| Phrases::new(&[INTERFACE_LABELS, SHOP_CONTROLS]));
    static CONTROLS: std::sync::LazyLock<Phrases> = std::sync::LazyLock::new(|| Phrases::new(&[LISTING_CONTROLS]));
    let t = text.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '.' | '…' | '>' | '»' | '+'));
    LABELS.hold(t) || {
        // Sort and filter labels end with a colon ("Sort by:").
        let t = t.trim_end_matches(|c: char| c.is_whitespace() || c == ':');
        CONTROLS.hold(t) || is_like_count(t)
    }
}

/// Controls over a list of results and the page: sorting and filtering it, applying to a listed job
/// or course, skipping to the results, and the label over an advertisement.
const LISTING_CONTROLS: &[&str] = &[
    "apply now",
    "sort",
    "sort by",
    "filter",
    "filters",
    "filter by",
    "skip to search results",
    "skip to content",
    "skip to main content",
    "advertisement",
];

/// A post's vote widget: "1 Like", "12 likes".
fn is_like_count(t: &str) -> bool {
    let mut w = t.split_whitespace();
    matches!((w.next(), w.next(), w.next()), (Some(n), Some(l), None)
        if n.bytes().all(|b| b.is_ascii_digit()) && (l.eq_ignore_ascii_case("like") || l.eq_ignore_ascii_case("likes")))
}

/// A shop's controls, printed on every product card of a listing and beside a product's own text
/// ("Quick view", "Add to cart", "Compare"). "Learn more" is not among them: service pages' golds
/// keep it as often as not (docs/EVALUATION.md).
pub(super) const SHOP_CONTROLS: &[&str] = &[
    "quick view",
    "quick shop",
    "quick add",
    "add to cart",
    "add to bag",
    "add to basket",
    "add to wishlist",
    "add to wish list",
    "add to compare",
    "wishlist",
    "+ wishlist",
    "compare",
    "select size",
    "select options",
    "choose options",
    "view options",
    "view details",
    "shop now",
    "buy now",
    "back to product",
    "back to top",
    "qty:",
];

/// What a breadcrumb trail opens with: "您现在的位置：", "当前位置：", "You are here:".
const BREADCRUMB_OPENINGS: &[&str] = &[
    "您现在的位置",
    "您的位置",
    "你的位置",
    "当前位置",
    "所在位置",
    "現在位置",
    "目前位置",
    "您現在的位置",
    "當前位置",
    "you are here",
];
/// The signs that separate a trail's steps.
const BREADCRUMB_SEPARATORS: &[char] = &['>', '»', '›', '/', '→', '＞', '|', '-'];

/// Is `text` a breadcrumb trail: it opens by saying where the reader is ([`BREADCRUMB_OPENINGS`]) and
/// names the steps with a separator between them?
pub fn is_breadcrumb(text: &str) -> bool {
    let t = text.trim_start();
    BREADCRUMB_OPENINGS.iter().any(|o| opens_with(t, o)) && t.contains(BREADCRUMB_SEPARATORS)
}

/// Is `text` one web address and nothing else: a single word (no whitespace once trimmed) that opens
/// with `http://`, `https://` or `//` and has a dot after the scheme? A label before it ("Website:")
/// or a sentence around it makes it no bare address.
pub fn is_bare_address(text: &str) -> bool {
    let t = text.trim();
    let rest = ["https://", "http://", "//"]
        .iter()
        .find_map(|s| t.get(..s.len()).filter(|p| p.eq_ignore_ascii_case(s)).map(|_| &t[s.len()..]));
    rest.is_some_and(|r| r.len() >= 4 && r.contains('.') && !r.contains(char::is_whitespace))
}

/// Is `text` a share prompt: "Share", "Share this with friends", "Share on X" (the word "share" and
/// at most four more), "Show more sharing options", "分享到：", or a prompt to scan a QR code
/// ("微信扫一扫", "扫码阅读全文", "关注该公众号")? "Shareholders" and "Shared storage" are not.
pub fn is_share_prompt(text: &str) -> bool {
    let t = text.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '：')).trim_start();
    (t.split_whitespace().next().is_some_and(|w| w.eq_ignore_ascii_case("share")) && t.split_whitespace().count() <= 5)
        || same_words(t, "show more sharing options")
        || (!t.is_ascii()
            && (t == "分享"
                || ["分享到", "分享至", "分享：", "分享:"].iter().any(|p| t.starts_with(p))
                || QR_PROMPTS.iter().any(|f| f.find(t.as_bytes()).is_some())))
}

/// Prompts to scan a QR code, in searchers built once: asked of every short block, and a `str`
/// search prepares its searcher anew on each call.
static QR_PROMPTS: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 4]> =
    std::sync::LazyLock::new(|| ["扫一扫", "二维码", "扫码", "关注该公众号"].map(memchr::memmem::Finder::new));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrase_lists_are_single_spaced_so_their_lengths_answer_for_them() {
        for p in [INTERFACE_LABELS, SHOP_CONTROLS, LISTING_CONTROLS].concat() {
            assert_eq!(p.split_whitespace().collect::<Vec<_>>().join(" "), p, "{p:?}");
        }
        assert!(is_interface_label("READ  MORE »") && is_interface_label("Sort by:") && is_interface_label("12 likes"));
        assert!(!is_interface_label("Read more about rice") && !is_interface_label(&"x ".repeat(40)));
    }

    #[test]
    fn bare_addresses_are_one_address_and_nothing_else() {
        for t in
            ["https://cdn.example.com/images/160x160/bone.jpg", " HTTP://example.org/a ", "//cdn.example.net/x.png"]
        {
            assert!(is_bare_address(t), "{t}");
        }
        for t in [
            "Website: https://example.com",
            "see https://example.com/a for more",
            "https://",
            "http://localhost",
            "example.com",
        ] {
            assert!(!is_bare_address(t), "{t}");
        }
    }

    #[test]
    fn reprint_notices_in_either_script() {
        assert!(is_reprint_notice("【免责声明】本文仅代表作者本人观点"));
        assert!(is_reprint_notice("  聲明：本文僅代表作者觀點"));
        assert!(is_reprint_notice("未經授權不得轉載，侵權必究"));
        assert!(!is_reprint_notice("本文禁止转载或摘编"));
        assert!(!is_reprint_notice("两国领导人签署了联合声明：反对扩张"));
        // A label standing alone, as the heading of the notice under it.
        assert!(is_notice_title("特别声明") && is_notice_title(" 免责聲明： ") && is_reprint_notice("特别声明"));
        assert!(!is_notice_title("联合国发表声明") && !is_notice_title("声明书") && !is_notice_title(""));
    }

    #[test]
    fn share_prompts_in_either_language() {
        assert!(is_share_prompt("Share this with friends") && is_share_prompt("SHARE:") && is_share_prompt("分享到："));
        assert!(is_share_prompt("用微信扫码二维码") && is_share_prompt("Show more sharing options"));
        assert!(!is_share_prompt("Shared Security Podcast") && !is_share_prompt("Shareholders Agreement"));
        assert!(!is_share_prompt("Share your thoughts on what the council should fund next year please"));
    }

    #[test]
    fn breadcrumbs_open_with_where_the_reader_is() {
        assert!(is_breadcrumb("您的位置：主页>艺术教育>院校招生资讯") && is_breadcrumb("You are here: Home / News"));
        assert!(is_breadcrumb("當前位置：首頁 » 新聞"));
        assert!(!is_breadcrumb("当前位置很好") && !is_breadcrumb("Home > News"));
    }
}

//! Notices a site prints around any page: cookie and consent notices (rule `consent-notices`),
//! notices about JavaScript (`script-notices`) and reprint and copyright notices
//! (`reprint-notices`). One family because each is found by what it says, whatever its place.

use super::unchoose::{chosen_chars, drop_opened_sections, unchoose_topmost};
use crate::algorithms::auto::lexicon;
use crate::dom::{Document, Node, NodeId, Tag};

/// The most text (characters) a `<noscript>` element may hold and be a notice: some forums write a
/// whole thread there for crawlers, and that is content.
const SCRIPT_NOTICE_MAX_CHARS: u32 = 400;

/// Unchoose notices about JavaScript (rule `script-notices`): the chosen text of `<noscript>`
/// elements of at most [`SCRIPT_NOTICE_MAX_CHARS`] characters that name it ("JavaScript is
/// disabled. For a better experience, please enable JavaScript…"). pith reads `<noscript>` as
/// markup, since many pages put their images and some their text there, so these lines reach the
/// classifier as short prose. Returns whether any was unchosen.
pub(super) fn drop_script_notices(doc: &Document, chosen: &mut [bool]) -> bool {
    let noscript = |_: NodeId, n: &Node| n.tag() == Some(Tag::Noscript);
    let notice = |i: NodeId, n: &Node, _: &[bool]| {
        n.stats.chars <= SCRIPT_NOTICE_MAX_CHARS
            && doc.text_nodes(i).any(|t| doc.text(t).to_ascii_lowercase().contains("javascript"))
    };
    unchoose_topmost(doc, chosen, doc.body, noscript, notice)
}

/// Unchoose cookie and consent notices (rule `consent-notices`): containers named for consent
/// ([`lexicon::CONSENT_NOTICES`]) whose text speaks of cookies, whatever their share of the chosen
/// text, when chosen text lies outside them. A consent manager's "preference center" can hold more
/// text than a short forum post. Returns whether any was unchosen.
pub(super) fn drop_consent_notices(doc: &Document, chosen: &mut [bool]) -> bool {
    let total = chosen_chars(doc, chosen, doc.body, doc.node(doc.body).end);
    let named =
        |_: NodeId, n: &Node| n.element().and_then(|e| e.id_class.as_deref()).is_some_and(lexicon::is_consent_notice);
    let notice = |i: NodeId, n: &Node, chosen: &[bool]| {
        let inside = chosen_chars(doc, chosen, i, n.end);
        inside > 0 && inside < total && doc.text_nodes(i).any(|t| speaks_of_cookies(doc.text(t)))
    };
    unchoose_topmost(doc, chosen, doc.body, named, notice)
}

/// Does `text` say "cookie" (in lower or upper case, after its first letter)?
fn speaks_of_cookies(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memmem::find(b, b"ookie").is_some() || memchr::memmem::find(b, b"OOKIE").is_some()
}

/// The longest reprint or copyright notice read, in bytes (about 200 CJK characters).
const REPRINT_NOTICE_MAX_BYTES: usize = 600;

/// Unchoose reprint and copyright notices (rule `reprint-notices`): a chosen text that opens its
/// block and is one ([`lexicon::is_reprint_notice`]: "声明：该文观点仅代表作者本人…", "版权与免责声明：",
/// "未经书面许可，擅自转载…侵权", a self-media platform's "特别声明：以上内容…仅提供信息存储服务"), with the
/// highest ancestor that starts with it and holds less than half of the chosen text (the numbered
/// clauses under such a heading, the platform notice's English translation beside it). Chinese news
/// sites print them under every article, in the article's own container and type, so density and the
/// block classifier keep them. A page whose main content is a statement keeps it: its text is at least half of what is
/// chosen. Returns whether any text was unchosen.
pub(super) fn drop_reprint_notices(doc: &Document, chosen: &mut [bool]) -> bool {
    drop_opened_sections(doc, chosen, REPRINT_NOTICE_MAX_BYTES, lexicon::is_reprint_notice, lexicon::is_notice_title)
}

#[cfg(test)]
mod tests {
    use super::super::testing::chosen_text;
    use super::*;

    #[test]
    fn cookie_notices_are_dropped_whatever_their_size_and_a_page_about_cookies_is_not() {
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            let dropped = drop_consent_notices(&doc, &mut chosen);
            (dropped, chosen_text(&doc, &chosen))
        };
        let notice = "<div id=onetrust-consent-sdk><p>We use cookies to improve your experience.</p>\
            <p>Strictly necessary cookies keep the site working; performance cookies count visits and \
            help us improve the pages you read, and you can switch them off at any time.</p></div>";
        let post = "<p>Does the case fit a 360 mm radiator?</p>";
        let (dropped, text) = kept(&format!("<body>{post}{notice}</body>"));
        assert!(dropped);
        assert_eq!(text, "Does the case fit a 360 mm radiator?");
        // A consent checkbox of a form says nothing of cookies and stays.
        let form = "<div class=form-gdpr><p>I agree to be contacted.</p></div>";
        assert!(!kept(&format!("<body>{post}{form}</body>")).0);
        // A page that is nothing but the notice keeps it; a section on cookies is not a notice.
        assert!(!kept(&format!("<body>{notice}</body>")).0);
        let docs = "<div id=cookies><h2>Cookies</h2><p>Use the cookies attribute to read cookies.</p></div>";
        assert!(!kept(&format!("<body>{post}{docs}</body>")).0);
    }

    #[test]
    fn reprint_notices_are_dropped_with_their_clauses_and_a_statement_page_is_not() {
        let body = "县农业局今天举办农民培训班，技术员讲解水稻新品种的种植方法，两百多名农民参加了培训。";
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            drop_reprint_notices(&doc, &mut chosen);
            chosen_text(&doc, &chosen)
        };
        // A notice named in its paragraph's first line goes with the clauses under it.
        let named = format!(
            "<body><p>{body}</p><table><tr><td><p><b>本网版权与免责声明：</b><br>① 凡本网注明来源的作品，版权均属本网。\
             <br>② 联系电话：010-12345678</p></td></tr></table></body>"
        );
        assert_eq!(kept(&named), body);
        // One that opens with "声明：", and one that speaks of reprinting and infringement.
        let opened = format!("<body><p>{body}</p><p>声明：该文观点仅代表作者本人。</p></body>");
        assert_eq!(kept(&opened), body);
        let rights = format!(
            "<body><p>{body}</p><div><span>原创版权禁止商业转载</span><span>报告侵权请联系我们</span></div></body>"
        );
        assert_eq!(kept(&rights), body);
        // A platform's notice under an article labelled "特别声明：" goes with its translation beside it
        // in the notice's own element.
        let platform = format!(
            "<body><p>{body}</p><p>{body}</p><div class=statement><span></span><p>特别声明：以上内容为用户上传并发布，本平台仅提供信息存储服务。</p>\
             <p>Notice: The content above is uploaded and posted by a user.</p></div></body>"
        );
        assert_eq!(kept(&platform), format!("{body}|{body}"));
        // A label standing alone over the notice's text goes with it, chosen or not; the section it
        // opens holds at most the longest notice, and a page's paragraph under a heading that is no
        // label stays.
        let titled = |label: &str| {
            format!(
                "<body><p>{body}</p><div class=box><div>{label}</div>本文为机构在平台上传并发布，仅代表该机构观点。</div></body>"
            )
        };
        assert_eq!(kept(&titled("特别声明")), body);
        let doc = Document::parse(&titled("特别声明"));
        let mut chosen: Vec<bool> =
            (0..doc.len()).map(|i| doc.node(i as NodeId).is_text() && doc.text(i as NodeId) != "特别声明").collect();
        assert!(drop_reprint_notices(&doc, &mut chosen));
        assert_eq!(chosen_text(&doc, &chosen), body);
        assert!(kept(&titled("培训通知")).contains("仅代表"));
        let para = format!("<p>{body}</p>");
        let long = format!("<body>{}<div><h3>免责声明</h3>{}</div></body>", para.repeat(6), para.repeat(5));
        let doc = Document::parse(&long);
        let mut chosen: Vec<bool> =
            (0..doc.len()).map(|i| doc.node(i as NodeId).is_text() && doc.text(i as NodeId) != "免责声明").collect();
        assert!(!drop_reprint_notices(&doc, &mut chosen));
        // A writer's "do not reprint" names no right; "声明：" inside a sentence opens nothing.
        let own = format!("<body><p>{body}</p><p>本文为我原创，禁止转载。</p><p>他说：<b>声明：</b>无效。</p></body>");
        assert_eq!(kept(&own), format!("{body}|本文为我原创，禁止转载。|他说：|声明：|无效。"));
        // A page whose content is a statement keeps it: it is most of the text.
        let statement = "<body><p>导航</p><p>声明：本公司从未授权任何机构以本公司名义招聘，请广大求职者提高警惕，谨防上当受骗。</p></body>";
        assert!(kept(statement).contains("从未授权"));
    }

    #[test]
    fn notices_about_javascript_are_dropped_and_a_thread_written_for_crawlers_is_not() {
        let kept = |html: &str| {
            let doc = Document::parse(html);
            let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
            let dropped = drop_script_notices(&doc, &mut chosen);
            (dropped, chosen_text(&doc, &chosen))
        };
        let post = "<p>The fan header on the bottom panel is for a second pump.</p>";
        let notice =
            "<noscript><p>JavaScript is disabled. For a better experience, please enable JavaScript.</p></noscript>";
        let (dropped, text) = kept(&format!("<body>{notice}{post}</body>"));
        assert!(dropped);
        assert_eq!(text, "The fan header on the bottom panel is for a second pump.");
        // An image fallback says nothing of scripts; a long thread for crawlers is content.
        assert!(!kept(&format!("<body><noscript><p>Photo: the case from the side</p></noscript>{post}</body>")).0);
        let thread =
            format!("<body><noscript>{}<p>Best viewed with JavaScript enabled</p></noscript></body>", post.repeat(8));
        assert!(!kept(&thread).0);
    }
}

//! The page's prose as has-article and page type read it: the longest unbroken run of prose
//! blocks, and the prose that follows the page's headline. An article is one run of paragraphs under
//! its headline; a listing's, a thread's or a feed's text is cut into pieces by links.

use super::segment::{Blocks, TextBlock};
use crate::dom::Document;
use crate::text::words::distinct_words;

/// The longest unbroken run of prose on a page, and all its prose.
#[derive(Debug, Default, PartialEq)]
pub struct ProseRun {
    /// Characters and blocks of prose in the longest run.
    pub chars: u32,
    pub blocks: u32,
    /// Characters of prose on the whole page.
    pub all_chars: u32,
    /// The run's first and last prose blocks (indices into the page's blocks); `None` without prose.
    pub span: Option<(usize, usize)>,
}

/// An article's text is one run of paragraphs; a listing's summaries, a forum's posts and a feed's
/// teasers are each cut off from the next by a headline link, a poster's name or a "more" link. So:
/// prose blocks (25 characters or more, a sentence end, at most a quarter of it link text) in
/// document order, where a block mostly of link text ends a run and anything else (headings,
/// captions, datelines) neither adds to it nor ends it. By shape alone, in every script.
pub(super) fn prose_run(blocks: &Blocks) -> ProseRun {
    prose_run_of(blocks, |_| true)
}

/// [`prose_run`] over the blocks `counts` accepts: the others' prose neither adds to a run nor ends
/// it.
pub(super) fn prose_run_of(blocks: &Blocks, counts: impl Fn(usize) -> bool) -> ProseRun {
    let mut best = ProseRun::default();
    let (mut chars, mut count, mut first) = (0u32, 0u32, 0usize);
    for (k, b) in blocks.list.iter().enumerate() {
        if is_prose(b) && counts(k) {
            if count == 0 {
                first = k;
            }
            chars += b.chars;
            count += 1;
            best.all_chars += b.chars;
            if chars > best.chars {
                best.chars = chars;
                best.blocks = count;
                best.span = Some((first, k));
            }
        } else if mostly_links(b) {
            chars = 0;
            count = 0;
        }
    }
    best
}

/// A prose block as [`prose_run`] reads one: 25 characters or more, a sentence end, at most a quarter
/// of it link text.
pub(super) fn is_prose(b: &TextBlock) -> bool {
    b.chars >= 25 && b.scan.sentence_ends >= 1 && b.link_chars * 4 <= b.chars
}

/// A block more than half of whose text is link text: what ends a run of prose.
fn mostly_links(b: &TextBlock) -> bool {
    b.link_chars * 2 > b.chars
}

/// The longest headline [`headline_prose`] compares with the `<title>`, in characters.
const HEADLINE_MAX_CHARS: u32 = 200;
/// How many blocks may stand between the headline and its first paragraph (a dateline, a byline, a
/// caption, a share bar).
const HEADLINE_GAP_BLOCKS: usize = 6;

/// Characters of the prose that follows the page's headline: the block, not mostly link text, that
/// shares the most words with the `<title>` (at least half its own; the first of equals); then, within
/// [`HEADLINE_GAP_BLOCKS`] blocks, a run of prose blocks that a block mostly of link text ends (as in
/// [`prose_run`]). An article's headline leads into its body, however short and whatever surrounds it;
/// a listing's heading (its column's name, also in its `<title>`) leads into headline links, and what
/// prose follows is one teaser's summary. By shape and the page's own title, in every script.
///
/// The block found is not always the headline (a subheading can share more of a long title's words, a
/// blog's headline is often a link), so no rule cuts the page at it (a rule that dropped what came
/// before it cost wcxb-dev 0.006 word F1 in site-grouped CV); the one rule that reads its blocks
/// (`headline-body`) only adds them to an answer that holds the headline and no prose.
pub(super) fn headline_prose(doc: &Document, blocks: &Blocks, reach: Reach) -> LedProse {
    let mut led = LedProse::default();
    for k in led_prose_blocks(doc, blocks, reach).map_or_else(Vec::new, |(_, body)| body) {
        led.chars += blocks.list[k].chars;
        led.words += blocks.list[k].scan.words;
    }
    led
}

/// The page's headline as [`headline_prose`] finds it, and the prose blocks it leads into (none when
/// no prose is within reach). None without a headline.
pub(super) fn led_prose_blocks(doc: &Document, blocks: &Blocks, reach: Reach) -> Option<(usize, Vec<usize>)> {
    let title = doc.title.as_deref().unwrap_or("").trim();
    if title.is_empty() {
        return None;
    }
    let title_words = distinct_words(title);
    let shared = |b: &TextBlock| {
        if b.chars < 2 || b.chars > HEADLINE_MAX_CHARS || mostly_links(b) {
            return 0;
        }
        // Cheap first, before the block's text is copied: its first two characters, as written, are
        // somewhere in the title (most blocks of a page are not).
        let texts = blocks.texts_of(b).iter().map(|&t| doc.text(t));
        let lead: String = texts.clone().flat_map(str::chars).skip_while(|c| c.is_whitespace()).take(2).collect();
        if lead.is_empty() || !title.contains(lead.as_str()) {
            return 0;
        }
        let text: String = texts.collect();
        let words = distinct_words(&text);
        let n = words.intersection(&title_words).count();
        if 2 * n >= words.len() { n } else { 0 }
    };
    let mut best = (0usize, 0usize);
    for (k, b) in blocks.list.iter().enumerate() {
        let n = shared(b);
        if n > best.1 {
            best = (k, n);
        }
    }
    if best.1 == 0 {
        return None;
    }
    let h = best.0;
    let mut body = Vec::new();
    let mut gap_chars = 0u32;
    for (gap, b) in blocks.list[h + 1..].iter().enumerate() {
        let out_of_reach = match reach {
            Reach::Blocks => gap >= HEADLINE_GAP_BLOCKS,
            Reach::Chars(most) => {
                gap_chars += b.chars;
                gap_chars > most
            }
        };
        if is_prose(b) {
            body.push(h + 1 + gap);
        } else if (!body.is_empty() && mostly_links(b)) || (body.is_empty() && out_of_reach) {
            // A link block ends the body; no body within reach of the headline, none at all.
            break;
        }
    }
    Some((h, body))
}

/// How much other text may stand between the headline and its body when the rule table reads it
/// ([`Reach::Chars`]), in characters: a dateline and a share bar of a dozen buttons (a Chinese portal's
/// 易信 微信 QQ空间 微博 更多, its QR-code prompt and font-size control are eleven blocks and 127
/// characters), not a menu or a teaser.
pub(super) const HEADLINE_GAP_CHARS: u32 = 200;

/// How far below the headline its body may start ([`headline_prose`]).
#[derive(Debug, Clone, Copy)]
pub enum Reach {
    /// Within [`HEADLINE_GAP_BLOCKS`] blocks: the page signal `headline_prose`, as the models were
    /// trained.
    Blocks,
    /// After at most this many characters of other text, however many blocks hold them: the rule
    /// table's reading ([`HEADLINE_GAP_CHARS`]), where a share bar of many small buttons must not
    /// hide an article's body.
    Chars(u32),
}

/// The prose that follows the page's headline ([`headline_prose`]): its characters, and its words
/// (every CJK character one, as [`crate::text::words`] counts them), which say how much was said in
/// every script alike: 600 characters are a hundred English words but three hundred Chinese ones.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LedProse {
    pub chars: u32,
    pub words: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::segment::block_owners;

    #[test]
    fn an_articles_headline_leads_into_its_body_and_a_listings_into_links() {
        let para = "县农业局今天举办农民培训班，两百多名农民参加了培训，学习了水稻育秧的新技术。";
        let after = |html: &str| {
            let doc = Document::parse(html);
            headline_prose(&doc, &super::super::segment::segment(&doc, &block_owners(&doc)), Reach::Blocks).chars
        };
        let menu = "<ul><li><a href=/>首页</a></li><li><a href=/n>新闻</a></li></ul>";
        let feed = "<ul><li><a href=/a>另一篇文章的标题在这里，很长的标题</a></li><li><a href=/b>又一篇文章的标题</a></li></ul>";
        // A short article between a menu and a feed: its headline (in a <div>, as Chinese portals
        // write it) repeats the title, a dateline and a byline link stand between it and two paragraphs.
        let article = format!(
            "<html><head><title>农民培训班开班_农业新闻_某某网</title></head><body><div>某某网</div>{menu}\
             <div class=title>农民培训班开班</div><p>2025-04-28 来源：<a href=/s>农业网</a></p><p>{para}</p><p>{para}</p>{feed}</body></html>"
        );
        let para_chars = para.chars().count() as u32;
        assert_eq!(after(&article), 2 * para_chars);
        // A column page: its heading is in the title too, and headline links follow it; the prose after
        // them is one teaser's summary, which the next headline link ends.
        let listing = format!(
            "<html><head><title>农业新闻_某某网</title></head><body><div>某某网</div>{menu}<h1>农业新闻</h1>{feed}\
             <p>{para}</p>{feed}<p>{para}</p></body></html>"
        );
        assert_eq!(after(&listing), para_chars);
        // No title, or none of the page's blocks in it: nothing to follow.
        assert_eq!(after(&article.replace("<title>农民培训班开班_农业新闻_某某网</title>", "")), 0);
        assert_eq!(after(&article.replace("农民培训班开班_农业新闻_某某网", "Weather")), 0);
    }

    #[test]
    fn the_rule_tables_reading_reaches_past_a_share_bar_of_many_buttons() {
        let para = "县农业局今天举办农民培训班，两百多名农民参加了培训，学习了水稻育秧的新技术。";
        let share: String =
            ["易信", "微信", "QQ空间", "微博", "更多"].iter().map(|s| format!("<li><a href=#>{s}</a></li>")).collect();
        let page = format!(
            "<html><head><title>农民培训班开班_某某网</title></head><body><h1>农民培训班开班</h1>\
             <div>2025-04-28 来源：农业网</div><div>分享到：</div><ul>{share}</ul><p>用微信扫码</p><p>T + -</p>\
             <p>{para}</p><p>{para}</p></body></html>"
        );
        let doc = Document::parse(&page);
        let blocks = super::super::segment::segment(&doc, &block_owners(&doc));
        // Ten blocks of share bar and dateline: out of the signal's reach of six blocks, within 200
        // characters. The body is counted in characters and in words, a CJK character a word.
        assert_eq!(headline_prose(&doc, &blocks, Reach::Blocks), LedProse::default());
        let led = headline_prose(&doc, &blocks, Reach::Chars(HEADLINE_GAP_CHARS));
        let n = 2 * para.chars().count() as u32;
        assert_eq!(led.chars, n);
        assert_eq!(led.words, n - 2 * para.chars().filter(|c| !crate::text::words::is_cjk(*c)).count() as u32);
        // Three hundred characters of menu are past it.
        let menu: String = (0..30).map(|k| format!("<div>栏目名称第{k}个栏目</div>")).collect();
        let far = page.replace("<div>分享到：</div>", &menu);
        let doc = Document::parse(&far);
        let blocks = super::super::segment::segment(&doc, &block_owners(&doc));
        assert_eq!(headline_prose(&doc, &blocks, Reach::Chars(HEADLINE_GAP_CHARS)).chars, 0);
    }

    #[test]
    fn an_articles_prose_is_one_run_and_a_listings_is_cut_by_its_headlines() {
        let para = "农业技术推广站今天组织了水稻种植培训，专家讲解了育秧和施肥的方法。";
        let run_of = |html: &str| {
            let doc = Document::parse(html);
            prose_run(&super::super::segment::segment(&doc, &block_owners(&doc)))
        };
        // A headline, a dateline, three paragraphs with a subheading, then a feed of headline links.
        let article = format!(
            "<body><h1>水稻培训</h1><p>2025-04-28 来源：农业网</p><p>{para}</p><h3>施肥</h3><p>{para}</p><p>{para}</p>\
             <ul><li><a href=/a>另一篇文章的标题在这里，很长的标题</a></li><li><a href=/b>又一篇文章的标题</a></li></ul></body>"
        );
        let n = para.chars().count() as u32;
        assert_eq!(run_of(&article), ProseRun { chars: 3 * n, blocks: 3, all_chars: 3 * n, span: Some((2, 5)) });
        // The same paragraphs as summaries under linked headlines: each is a run of its own.
        let listing = format!(
            "<body><h1>培训动态</h1><h3><a href=/a>水稻培训开班</a></h3><p>{para}</p>\
             <h3><a href=/b>小麦培训开班</a></h3><p>{para}</p><h3><a href=/c>玉米培训开班</a></h3><p>{para}</p></body>"
        );
        assert_eq!(run_of(&listing), ProseRun { chars: n, blocks: 1, all_chars: 3 * n, span: Some((2, 2)) });
    }
}

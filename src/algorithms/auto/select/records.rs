//! Record regions around a page's content (`algorithms::records`: runs of alike records). Around an
//! article's prose (rule `records-after-article`): the teaser feed under a portal's article, the
//! "related" and "latest" cards, the hot list that follows the body; what marks one as a feed rather
//! than the article's own list is its shape and its place: its records are short dated items, or links
//! outside the element that holds the prose, or links with no running text after them. Beside a
//! listing's records (rule `records-beside-main`): the other regions, when one region holds nearly
//! all the kept text. By structure alone, in every language.

use super::unchoose::{choose_block, unchoose_block, wholly_chosen};
use crate::algorithms::auto::prose::prose_run_of;
use crate::algorithms::auto::regions::{PageRegions, RegionFigures};
use crate::algorithms::auto::segment::{Blocks, TextBlock};
use crate::dom::{Document, NONE, NodeId};

/// The longest record, on average, of a feed of dated teasers (a headline, a source, a date; a
/// one-line snippet at most), in characters.
const TEASER_MAX_CHARS: u32 = 120;
/// The least running text, in characters, that makes the chosen text a body a feed can follow.
pub(super) const FEED_BODY_MIN_CHARS: u32 = 600;
/// The least prose under a page's headline, in words (a CJK character one), that makes a page not
/// judged an article one whose feeds are cut (the rule table's `ArticleOrLedProse`): a hundred words,
/// what [`FEED_BODY_MIN_CHARS`] holds in English; in characters, a short Chinese report of 300 (250
/// words) fell short of a bar that asks 600 of every script.
pub(super) const FEED_BODY_MIN_WORDS: u32 = 100;
/// The fewest link-only records after the body that make a feed.
const FEED_MIN_BLOCKS: usize = 3;

/// A region whose records are, at least half of them, short dated items: a news feed's teasers.
fn dated_teasers(f: &RegionFigures) -> bool {
    f.dated * 2 >= f.records && f.chars <= TEASER_MAX_CHARS * f.records
}

/// A region at least half of whose text is link text.
fn links(f: &RegionFigures) -> bool {
    f.link_chars * 2 >= f.chars
}

/// A block of running text: 80 characters or more with a sentence mark and at most a tenth of it
/// link text.
fn running_text(b: &TextBlock) -> bool {
    b.chars >= 80 && b.punct > 0 && b.link_chars * 10 <= b.chars
}

/// On an article page, unchoose the chosen blocks of the record regions that follow its prose and
/// read as a feed:
/// - the top-level regions wholly after the longest run of chosen prose (the page's longest run when
///   none is chosen) whose records are dated teasers
///   ([`dated_teasers`]), or are mostly links ([`links`]) and stand outside the element that holds
///   the run ([`prose_container`]): an article's own list of links (its sources, a list of courses)
///   sits among its paragraphs, a portal's feed beside them;
/// - when the chosen running text ([`running_text`]) is [`FEED_BODY_MIN_CHARS`] or more, the chosen
///   blocks after the last of it that are link text and nothing else (nine tenths or
///   more), when there are at least [`FEED_MIN_BLOCKS`]: cards of "related" and "latest", each a
///   link around a headline, inside the article's element or not;
/// - when it is shorter, such link-only blocks after the run that stand outside its element, when
///   there are at least [`FEED_MIN_BLOCKS`]: a short report's "you may like" pair and hot list of
///   three, lists too short to be regions (site-grouped CV: zh-gne hexun 0.75 -> 1.00, no other page
///   changed; the same blocks counted inside the element as well took a page of links that a short
///   text introduces, cleaneval final-581, from 0.99 to 0.01).
///
/// Articles, and pages whose headline leads into [`FEED_BODY_MIN_CHARS`] of prose, forum threads
/// aside (the rule table's `ArticleOrLedProse`): a listing's items are such records, and an
/// introduction before them would make them a feed (site-grouped CV with the older block-only form of
/// the second test on every page: tiptopjaw-2026 LCS F1 0.7728 → 0.7682); a listing's heading leads
/// into headline links, not into a body. Returns whether any text was unchosen.
pub(super) fn drop_records_after_article(
    doc: &Document,
    blocks: &Blocks,
    regions: &PageRegions,
    chosen: &mut [bool],
) -> bool {
    // The article's prose: the longest run of chosen prose. A brief of one paragraph is shorter than
    // the legal text of its site's footer, the page's longest run, which no feed follows.
    let anchor = prose_run_of(blocks, |k| wholly_chosen(blocks, &blocks.list[k], chosen)).span.or(regions.prose);
    let Some((first, last)) = anchor else { return false };
    let container = prose_container(doc, blocks.list[first].owner, blocks.list[last].owner);
    // The chosen running text: how much, and where it ends.
    let (mut body, mut last_body) = (0u32, None);
    for (k, b) in blocks.list.iter().enumerate() {
        if running_text(b) && wholly_chosen(blocks, b, chosen) {
            body += b.chars;
            last_body = Some(k);
        }
    }
    let mut feed = Vec::new();
    let mut trailing = Vec::new();
    let mut beside = Vec::new();
    for (k, b) in blocks.list.iter().enumerate() {
        let region = regions
            .top_region_of(k)
            .map(|top| (&regions.regions[top as usize], regions.records.regions[top as usize].parent));
        let in_feed = region.is_some_and(|(f, parent)| {
            f.against(anchor) == 1 && (dated_teasers(f) || (links(f) && !doc.contains(container, parent)))
        });
        let link_only = b.chars > 0 && b.link_chars * 10 >= b.chars * 9 && wholly_chosen(blocks, b, chosen);
        if in_feed {
            feed.push(k);
            continue;
        }
        if link_only && last_body.is_some_and(|l| k > l) {
            trailing.push(k);
        }
        if link_only && k > last && !doc.contains(container, b.owner) {
            beside.push(k);
        }
    }
    if body >= FEED_BODY_MIN_CHARS && trailing.len() >= FEED_MIN_BLOCKS {
        feed.extend(trailing);
    } else if body < FEED_BODY_MIN_CHARS && beside.len() >= FEED_MIN_BLOCKS {
        feed.extend(beside);
    }
    let mut dropped = false;
    for k in feed {
        dropped |= unchoose_block(blocks, &blocks.list[k], chosen);
    }
    dropped
}

/// The element that holds the prose run from block owner `first` to `last`: their nearest common
/// ancestor, or the parent of a run's one block (a one-paragraph body's own element holds nothing
/// else).
fn prose_container(doc: &Document, first: NodeId, last: NodeId) -> NodeId {
    let mut a = if first == last { doc.node(first).parent } else { first };
    while a != NONE && !doc.contains(a, last) {
        a = doc.node(a).parent;
    }
    if a == NONE { doc.body } else { a }
}

/// The chosen text of a page by top-level record region: each block's top-level region, the chosen
/// characters each region holds and the chosen characters of the whole page.
struct ChosenByRegion {
    top: Vec<Option<u32>>,
    per: Vec<u32>,
    total: u32,
}

impl ChosenByRegion {
    fn of(blocks: &Blocks, regions: &PageRegions, chosen: &[bool]) -> ChosenByRegion {
        let mut per = vec![0u32; regions.regions.len()];
        let mut total = 0u32;
        let mut top = Vec::with_capacity(blocks.list.len());
        for (k, b) in blocks.list.iter().enumerate() {
            let t = regions.top_region_of(k);
            top.push(t);
            if wholly_chosen(blocks, b, chosen) {
                total += b.chars;
                if let Some(t) = t {
                    per[t as usize] += b.chars;
                }
            }
        }
        ChosenByRegion { top, per, total }
    }
}

/// The parent element whose top-level regions together hold the most chosen text (`per`: chosen
/// characters per region), with that much. Regions under one parent are one list: a feed whose run of
/// alike items an odd one (an advertisement, a photo item) breaks is found as several regions of the
/// same element's children.
fn main_parent(regions: &PageRegions, per: &[u32]) -> Option<(NodeId, u32)> {
    let parent = |r: usize| regions.records.regions[r].parent;
    // Regions come in document order of their parents, so those of one parent are adjacent.
    let mut by_parent: Vec<(NodeId, u32)> = Vec::new();
    for (r, &c) in per.iter().enumerate() {
        match by_parent.last_mut() {
            Some((p, sum)) if *p == parent(r) => *sum += c,
            _ => by_parent.push((parent(r), c)),
        }
    }
    by_parent.into_iter().max_by_key(|&(p, c)| (c, std::cmp::Reverse(p)))
}

/// The least share of the chosen text the main region of a listing must hold for the other regions
/// to go ([`drop_records_beside_main`]). Site-grouped CV with fold models read back: at 0.8, 13
/// pages up and 5 down, no set lower (zh-listdetail 0.9001 -> 0.9037); at 0.7, 18 up and 8 down
/// (tiptopjaw-2026 and products-zyte -0.0003); at 0.6, more pages down than up.
const MAIN_REGION_MIN_SHARE: u32 = 80;

/// On a listing, collection or forum page, unchoose the chosen blocks of the top-level record regions
/// other than its main one (rule `records-beside-main`): the regions of one parent element that
/// together hold the most chosen text, when they hold [`MAIN_REGION_MIN_SHARE`] per cent of it or more
/// (a feed an odd item breaks into runs is one list). A listing's content is its records
/// and a thread's its posts; what the page carries beside them in other regions (a hot list, a second
/// column's links, the navigation's menus, a thread's "similar threads") is chrome whose blocks the
/// classifier let through one by one. So is the text in no region after the main region's last
/// record (its pagination, the footer's lines): a listing ends with its records; a paragraph there is
/// spared ([`spared_after_records`]). Text in no region before them (the listing's heading, its
/// introduction) is left to the classifier. Site-grouped
/// 3-fold CV with fold models read back, the text after the main region added: 9 pages up
/// (zh-listdetail's list pages 0.8175 -> 0.8187), one down (a documentation page judged a listing,
/// -0.015), no set lower; forum threads added: forums-harvest 0.8293 -> 0.8299, wcxb-dev's forum pages
/// 0.7908 -> 0.7913, 7 pages up and 4 down (one by 0.064). The regions of one parent taken together
/// and trailing paragraphs spared (folds trained afresh): 25 pages changed, 18 up (a Discourse
/// thread 0.85 -> 0.97, a portal's feed broken by photo items 0.75 -> 0.78), 7 down (two by 0.03, a
/// list of paragraphs inside a post being a region of its own); wcxb-dev forum 0.790 -> 0.792,
/// collection 0.654 -> 0.656, zh list pages 0.7727 -> 0.7742, no set lower. Returns whether any text
/// was unchosen.
pub(super) fn drop_records_beside_main(blocks: &Blocks, regions: &PageRegions, chosen: &mut [bool]) -> bool {
    let ChosenByRegion { top, per, total } = ChosenByRegion::of(blocks, regions, chosen);
    let parent = |r: usize| regions.records.regions[r].parent;
    let Some((main, most)) = main_parent(regions, &per) else { return false };
    if total == 0 || u64::from(most) * 100 < u64::from(MAIN_REGION_MIN_SHARE) * u64::from(total) {
        return false;
    }
    let mut dropped = false;
    let in_main = |t: u32| parent(t as usize) == main;
    let last_main = top.iter().rposition(|t| t.is_some_and(in_main)).unwrap_or(usize::MAX);
    for (k, b) in blocks.list.iter().enumerate() {
        let trailing = top[k].is_none() && k > last_main && !spared_after_records(b);
        if top[k].is_some_and(|t| !in_main(t)) || trailing {
            dropped |= unchoose_block(blocks, b, chosen);
        }
    }
    dropped
}

/// The most characters a line after a listing's records may hold and still be its chrome (pagination,
/// the footer's lines), unless most of it is link text.
const TRAILING_CHROME_MAX_CHARS: u32 = 100;

/// Is block `b` prose rather than chrome: longer than [`TRAILING_CHROME_MAX_CHARS`], less than half of
/// it link text? A thread's last post or a blog's last entry, laid out apart from the ones before it,
/// follows their region. (Other regions' prose is not spared: there it is most often a rail's
/// snippets or a "similar threads" box, and sparing it cost as much as it won.)
fn spared_after_records(b: &TextBlock) -> bool {
    b.chars > TRAILING_CHROME_MAX_CHARS && b.link_chars * 2 < b.chars
}

/// The least share of the chosen text the main region of a listing must hold for its records to be
/// chosen whole ([`keep_main_records`]). Site-grouped CV with fold models read back: at 50, 47 pages
/// changed, 20 up and 27 down, the sum +1.56 (zh list pages 0.774 -> 0.808, wcxb-dev collection 0.656
/// -> 0.667); at 80, 22 pages, +0.61; at 30, 55 pages, +1.69 with more down by over 0.05 (6 against 5).
const MAIN_RECORDS_MIN_SHARE: u32 = 50;

/// On a listing or collection page, choose every block of its main region's records (rule
/// `main-records`): the regions of one parent element that together hold the most chosen text, when
/// they hold [`MAIN_RECORDS_MIN_SHARE`] per cent of it or more. A listing's content is its records,
/// and the classifier judges them one block at a time: a forum board's rows of thread, author, date
/// and counts at 0.1-0.3 each, of which it kept two. Choosing only the parts (by their names and
/// classes inside the record) that the classifier kept in some records spared a shop's category
/// page its cards' prices and ratings, which its gold leaves out, but lost that board too: at 15 per
/// cent of records, 38 pages changed, the sum +0.84 against +1.56. Returns whether any text was
/// chosen.
pub(super) fn keep_main_records(blocks: &Blocks, regions: &PageRegions, chosen: &mut [bool]) -> bool {
    let ChosenByRegion { top, per, total } = ChosenByRegion::of(blocks, regions, chosen);
    let Some((main, most)) = main_parent(regions, &per) else { return false };
    if total == 0 || u64::from(most) * 100 < u64::from(MAIN_RECORDS_MIN_SHARE) * u64::from(total) {
        return false;
    }
    let parent = |r: u32| regions.records.regions[r as usize].parent;
    let mut kept = false;
    for (k, b) in blocks.list.iter().enumerate() {
        if top[k].is_some_and(|t| parent(t) == main) && !wholly_chosen(blocks, b, chosen) {
            choose_block(blocks, b, chosen);
            kept = true;
        }
    }
    kept
}

/// The fewest records of a rail of other products' cards.
const RAIL_MIN_CARDS: u32 = 3;

/// The most characters a card of a rail holds on average: a name, a price, a line or two. A region of
/// longer records is a page's sections, not a rail.
const CARD_MAX_CHARS: u32 = 300;

/// On a product page, unchoose its recommendation rails (rule `recommendation-rails`): the chosen
/// blocks of the top-level record regions of [`RAIL_MIN_CARDS`] records or more, at least half of them
/// priced or most of their text link text, that do not hold the surest block and hold less than half
/// of the chosen text (a region of linked cards of [`CARD_MAX_CHARS`] or fewer on average, whatever
/// share it holds). A product page carries one product; a run of priced or linked cards beside it is
/// other products ("also bought", "similar", "related ads", "recently viewed"), in whatever language
/// the shop writes its headings and whether or not its prices carry a sign. Site-grouped 3-fold CV
/// with fold models read back, against the rule that read such rails' headings from a list of
/// phrases: products-zyte word F1 0.578 -> 0.586 (precision 0.596 -> 0.607), wcxb-dev product pages
/// 0.665 -> 0.664, collections 0.657 -> 0.659, listings 0.728 -> 0.728, no other page changed; 20 pages
/// up by more than 0.001 F1 (the most 0.46 -> 0.82), 14 down, 5 of them by more than 0.02 (a page's
/// own offers, such as a game's editions and bundles, are priced records too; a rail without prices
/// whose heading the list named). Linked cards added, and let go whatever their share: products-zyte
/// 0.6060 -> 0.6157 (precision 0.6303 -> 0.6384), wcxb-dev unchanged (product 0.6659 -> 0.6660,
/// collection 0.6658 -> 0.6659), 10 pages up by more than 0.01 (a classified-ads page 0.13 -> 0.57),
/// none down by more than 0.01; without the bound on a card's length a grid page judged a product
/// lost its three long sections (0.35 -> 0.11). Returns whether any text was unchosen.
pub(super) fn drop_priced_cards(blocks: &Blocks, regions: &PageRegions, chosen: &mut [bool], surest: NodeId) -> bool {
    let ChosenByRegion { top, per, total } = ChosenByRegion::of(blocks, regions, chosen);
    let mut holds_surest = vec![false; regions.regions.len()];
    for (b, t) in blocks.list.iter().zip(&top) {
        if let Some(t) = t {
            holds_surest[*t as usize] |= b.owner == surest;
        }
    }
    let cards: Vec<bool> = regions
        .regions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            // Other products' cards: priced, or links (each card leads to the other product's page).
            let linked = f.chars > 0 && f.link_chars * 2 >= f.chars;
            let cards = f.records >= RAIL_MIN_CARDS && (f.priced * 2 >= f.records || linked);
            // A rail of linked cards may hold more of the chosen text than the product itself (twenty
            // related ads beside a two-line description): it goes whatever its share. Other regions go
            // only when they hold less than half of the chosen text, and so do long records (whole
            // sections of a page that is a grid itself).
            let minor = u64::from(per[i]) * 2 < u64::from(total);
            let linked_cards = linked && f.chars <= CARD_MAX_CHARS * f.records;
            cards && !holds_surest[i] && (minor || linked_cards)
        })
        .collect();
    let mut dropped = false;
    for (k, b) in blocks.list.iter().enumerate() {
        if top[k].is_some_and(|t| cards[t as usize]) {
            dropped |= unchoose_block(blocks, b, chosen);
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::super::testing::{chosen_text, chosen_where};
    use super::*;
    use crate::algorithms::auto::prose::prose_run;
    use crate::algorithms::auto::segment::{block_owners, segment};

    const PARA: &str = "县农业局今天举办农民培训班，两百多名农民参加了培训，学习了水稻育秧和病虫害防治的新技术。\
                        培训结束后，农民们纷纷表示收获很大，今年要把学到的技术用到自家的田里去。";

    /// Every text of `html` chosen, then `rule` run: whether it dropped any, and what stays.
    fn run_rule(html: &str, rule: fn(&Document, &Blocks, &PageRegions, &mut [bool]) -> bool) -> (bool, String) {
        let doc = Document::parse(html);
        let blocks = segment(&doc, &block_owners(&doc));
        let regions = PageRegions::read(&doc, &blocks, &prose_run(&blocks));
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        let dropped = rule(&doc, &blocks, &regions, &mut chosen);
        (dropped, chosen_text(&doc, &chosen))
    }

    /// [`run_rule`] with `records-after-article`.
    fn run(html: &str) -> (bool, String) {
        run_rule(html, drop_records_after_article)
    }

    /// [`run_rule`] with `records-beside-main`.
    fn run_beside(html: &str) -> (bool, String) {
        run_rule(html, |_, blocks, regions, chosen| drop_records_beside_main(blocks, regions, chosen))
    }

    fn teaser(n: u32) -> String {
        format!("<li><a href=/n{n}>种子交易会第{n}场开幕</a><span>新华网</span><span>2025-04-2{n}</span></li>")
    }

    #[test]
    fn a_feed_of_dated_teasers_after_the_prose_is_dropped() {
        // A one-paragraph article in its own element, then a feed of four dated teasers beside it.
        let html = format!(
            "<body><div><h1>培训班开班</h1><div class=text><p>{PARA}</p></div><ul>{}</ul></div>\
             <p>Read <a href=/x>the notice</a>.</p></body>",
            (1..=4).map(teaser).collect::<String>()
        );
        let (dropped, text) = run(&html);
        assert!(dropped);
        assert_eq!(text, format!("培训班开班|{PARA}|Read|the notice|."));
        // Two teasers are no region, and nothing goes.
        let (dropped, _) =
            run(&format!("<body><h1>培训班开班</h1><p>{PARA}</p><ul>{}{}</ul></body>", teaser(1), teaser(2)));
        assert!(!dropped);
    }

    #[test]
    fn a_feed_follows_the_chosen_prose_not_a_longer_footer_left_out() {
        // A brief of one paragraph, a hot list of links beside it, and a footer of legal text longer
        // than the brief, which the classifier left out.
        let link = |n: u32| format!("<li><a href=/h{n}>热门新闻第{n}条的标题在这里</a></li>");
        let footer = "本站郑重声明：所载文章、数据仅供参考，使用前请核实，风险自负。".repeat(3);
        let html = format!(
            "<body><h1>培训班开班</h1><div class=text><p>{PARA}</p></div>\
             <div class=side><ul>{}</ul></div><div class=footer><p>{footer}</p></div></body>",
            (1..=4).map(link).collect::<String>()
        );
        let doc = Document::parse(&html);
        let blocks = segment(&doc, &block_owners(&doc));
        let regions = PageRegions::read(&doc, &blocks, &prose_run(&blocks));
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| doc.node(i as NodeId).is_text()).collect();
        for (i, c) in chosen.iter_mut().enumerate() {
            let id = i as NodeId;
            *c &= !(doc.node(id).is_text() && doc.text(id).contains("郑重声明"));
        }
        assert!(drop_records_after_article(&doc, &blocks, &regions, &mut chosen));
        assert_eq!(chosen_text(&doc, &chosen), format!("培训班开班|{PARA}"));
    }

    #[test]
    fn a_listings_main_region_is_chosen_whole() {
        let row = |n: u32| {
            format!(
                "<div class=row><h3><a href=/t{n}>Thread number {n} about seeds</a></h3><p>user{n} 2025-04-2{n}</p></div>"
            )
        };
        let side = |n: u32| format!("<li><a href=/s{n}>Side link {n}</a></li>");
        let html = format!(
            "<body><h1>Seed forum</h1><div class=list>{}</div><ul>{}</ul></body>",
            (1..=5).map(row).collect::<String>(),
            (1..=5).map(side).collect::<String>()
        );
        let doc = Document::parse(&html);
        let blocks = segment(&doc, &block_owners(&doc));
        let regions = PageRegions::read(&doc, &blocks, &prose_run(&blocks));
        // Two rows' titles and the heading kept: the rows are most of the kept text, so all of them go in.
        let mut chosen = chosen_where(&doc, &["Seed forum", "Thread number 1", "Thread number 4"]);
        assert!(keep_main_records(&blocks, &regions, &mut chosen));
        let text = chosen_text(&doc, &chosen);
        assert!(text.contains("Thread number 5") && text.contains("user3 2025-04-23"), "{text}");
        assert!(!text.contains("Side link"), "{text}");
        // When the rows hold less than half of the kept text, nothing is added.
        let mut chosen = chosen_where(&doc, &["Thread number 1", "Side link"]);
        assert!(!keep_main_records(&blocks, &regions, &mut chosen));
    }

    #[test]
    fn a_short_reports_links_beside_it_go_though_no_list_is_a_region() {
        // One short paragraph; then two links under "you may like" and a hot list of three, each
        // list too short to be a region, both outside the paragraph's element.
        let link = |n: u32| format!("<li><a href=/h{n}>热门新闻第{n}条的标题在这里</a></li>");
        let like = format!("<div class=like><h4>你可能会喜欢</h4><ul>{}{}</ul></div>", link(1), link(2));
        let hot = format!("<div class=side><ul>{}{}{}</ul></div>", link(3), link(4), link(5));
        let (dropped, text) =
            run(&format!("<body><h1>培训班开班</h1><div class=text><p>{PARA}</p></div>{like}{hot}</body>"));
        assert!(dropped);
        assert_eq!(text, format!("培训班开班|{PARA}|你可能会喜欢"));
        // The same links inside the report's element are its own.
        let (dropped, _) = run(&format!(
            "<body><h1>培训班开班</h1><div class=text><p>{PARA}</p><ul>{}{}{}</ul></div></body>",
            link(1),
            link(2),
            link(3)
        ));
        assert!(!dropped);
    }

    #[test]
    fn an_articles_own_list_of_links_stays_a_feed_beside_it_goes() {
        let link = |n: u32| format!("<li><a href=/c{n}>Course number {n} in soil science</a></li>");
        let links: String = (1..=4).map(link).collect();
        let para = "Farmers who took the course said the lessons on soil changed how they plough. ";
        let article = format!("<p>{}</p><p>{}</p>", para.repeat(2), para.repeat(2));
        // The list sits in the article's element, between its paragraphs and one after: it stays.
        let inside = format!("<body><article>{article}<ul>{links}</ul><p>{}</p></article></body>", para.repeat(2));
        let (dropped, _) = run(&inside);
        assert!(!dropped);
        // The same list in an element beside the article's: a rail of links, left out.
        let beside = format!("<body><article>{article}</article><div><ul>{links}</ul></div><p>Contact us.</p></body>");
        let (dropped, text) = run(&beside);
        assert!(dropped);
        assert!(!text.contains("Course number") && text.ends_with("|Contact us."), "{text}");
    }

    #[test]
    fn link_cards_after_the_running_text_are_dropped_inside_the_article_too() {
        let card = |n: u32| {
            format!(
                "<a href=/n{n}><h2>Seed fair number {n} opens</h2><p>Farmers came to see new seeds.</p><div>2025-04-2{n}</div></a>"
            )
        };
        // Eight paragraphs of about 80 characters: running text enough for a body.
        let body = format!("<h1>培训班开班</h1>{}", format!("<p>{PARA}</p>").repeat(8));
        let html = format!(
            "<body><article>{body}<div>{}{}</div></article><p>Read <a href=/x>the notice</a>.</p></body>",
            card(1),
            card(2)
        );
        let (dropped, text) = run(&html);
        assert!(dropped);
        assert_eq!(text, format!("培训班开班|{}Read|the notice|.", format!("{PARA}|").repeat(8)));
        // Two link-only blocks are no feed; nor are cards without running text enough before them.
        let (dropped, _) = run(&format!("<body>{body}<p><a href=/a>Next</a></p><p><a href=/b>Home</a></p></body>"));
        assert!(!dropped);
        let (dropped, _) = run(&format!("<body><h1>Seed fairs</h1><p>{PARA}</p>{}{}</body>", card(1), card(2)));
        assert!(!dropped);
    }

    /// `drop_priced_cards`, the surest block being the one that opens with "A stoneware mug".
    fn run_cards(html: &str) -> (bool, String) {
        run_rule(html, |doc, blocks, regions, chosen| {
            let surest = blocks
                .list
                .iter()
                .find(|b| blocks.texts_of(b).iter().any(|&t| doc.text(t).starts_with("A stoneware mug")))
                .map_or(NONE, |b| b.owner);
            drop_priced_cards(blocks, regions, chosen, surest)
        })
    }

    #[test]
    fn a_products_rail_of_priced_cards_goes_its_own_list_stays() {
        let description = "A stoneware mug, glazed by hand in small batches, that keeps coffee warm for longer \
            than the thin porcelain cups it replaces, and washes clean in the dishwasher.";
        let card = |(name, price): (&str, &str)| format!("<li><a href=/p>{name}</a><span>€{price}</span></li>");
        let cards: String =
            [("Teapot", "40.00"), ("Saucer", "12.50"), ("Milk jug", "18.00"), ("Plate", "22.00")].map(card).concat();
        let specs = "<ul><li>Capacity: 350 ml</li><li>Height: 9 cm</li><li>Weight: 320 g</li></ul>";
        let page = |rail: &str| {
            format!(
                "<body><h1>Stoneware mug</h1><p>{description}</p>{specs}<h2>Vous aimerez aussi</h2><ul>{rail}</ul></body>"
            )
        };
        let (dropped, text) = run_cards(&page(&cards));
        assert!(dropped);
        // The cards go whatever the heading's language; the product's own list of specifications stays.
        assert_eq!(
            text,
            format!("Stoneware mug|{description}|Capacity: 350 ml|Height: 9 cm|Weight: 320 g|Vous aimerez aussi")
        );
        // Records without prices whose text is mostly not links are the product's own: they stay.
        let unpriced: String = ["Care guide", "Glaze notes", "Our kiln", "Workshop visits"]
            .map(|n| format!("<li><a href=/g>{n}</a><span>: washed by hand, dried in the air</span></li>"))
            .concat();
        assert!(!run_cards(&page(&unpriced)).0);
        // Linked cards without a price sign go, even when they hold most of the chosen text.
        let ads: String = (1..=12)
            .map(|n| format!("<li><a href=/ad{n}>Rs 2,{n}00 Hand-thrown mug number {n}, glazed</a></li>"))
            .collect();
        let (dropped, text) = run_cards(&page(&ads));
        assert!(dropped);
        assert!(!text.contains("Hand-thrown"), "{text}");
        // Long linked records are a page's sections, not cards: a region of them that holds most of
        // the chosen text stays.
        let section = |n: u32| format!("<div><a href=/s{n}>{}</a></div>", description.repeat(3));
        let sections: String = (1..=3).map(section).collect();
        assert!(!run_cards(&format!("<body><h1>Stoneware</h1><div>{sections}</div></body>")).0);
        // A page whose content is priced cards (the surest block among them) keeps them.
        let grid = format!("{}{cards}", card(("A stoneware mug set", "60.00")));
        assert!(!run_cards(&format!("<body><h1>Mugs</h1><ul>{grid}</ul><p>Free delivery.</p></body>")).0);
    }

    #[test]
    fn a_listing_keeps_its_main_region_and_loses_the_others() {
        let item = |n: u32| {
            format!(
                "<li><a href=/i{n}>培训通知第{n}期：水稻育秧与病虫害防治技术培训班报名开始</a><span>2025-04-{n:02}</span></li>"
            )
        };
        let hot = |n: u32| format!("<li><a href=/h{n}>热点{n}</a></li>");
        let list: String = (1..=12).map(item).collect();
        let hots: String = (1..=4).map(hot).collect();
        let (dropped, text) = run_beside(&format!(
            "<body><h1>通知公告</h1><p>本栏目发布培训通知。</p><ul>{list}</ul><ol>{hots}</ol><p>共12条 第1页</p>\
             <p>版权所有 县农业农村局</p></body>"
        ));
        assert!(dropped);
        // The heading and the introduction before the records stay; the other region and the lines
        // after the records go.
        assert!(text.starts_with("通知公告|本栏目发布培训通知。|培训通知第1期"), "{text}");
        assert!(text.ends_with("2025-04-12"), "{text}");
        assert!(!text.contains("热点") && !text.contains("共12条") && !text.contains("版权所有"), "{text}");
        // A list an odd item breaks in two (a photo item among text items) is still the main one:
        // its two runs under one element hold the text between them, and the hot list goes.
        let odd = "<li><div><img src=p.jpg><p><a href=/p>图片：培训现场</a></p></div><span>2025-04-07</span></li>";
        let broken: String = (1..=6).map(item).chain([odd.to_string()]).chain((8..=13).map(item)).collect();
        let (dropped, text) = run_beside(&format!("<body><ul>{broken}</ul><ol>{hots}</ol></body>"));
        assert!(dropped);
        assert!(text.contains("图片：培训现场") && text.ends_with("2025-04-13"), "{text}");
        assert!(!text.contains("热点"), "{text}");
        // A paragraph after the records is a last post laid out apart, not the listing's chrome.
        let long: String = (1..=40).map(item).collect();
        let (dropped, text) =
            run_beside(&format!("<body><ul>{long}</ul><ol>{hots}</ol><p>{PARA}{PARA}</p><p>共40条</p></body>"));
        assert!(dropped);
        assert!(text.contains(&format!("{PARA}{PARA}")) && !text.contains("共40条"), "{text}");
        // Two lists of like size: neither holds four fifths, and both stay.
        let half: String = (1..=4).map(item).collect();
        let (dropped, _) = run_beside(&format!("<body><ul>{half}</ul><div><ul>{half}</ul></div></body>"));
        assert!(!dropped);
    }
}

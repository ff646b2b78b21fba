//! A generated portal of 40 pages: 30 article pages and 10 list pages of one site. Every article page
//! has the channel menu, a hot list whose items change from page to page, a footer, and a frame of
//! lines whose words change too (`来源：X`, `责任编辑：Y`) around its own paragraphs; the list pages
//! carry the same menu and footer around a list of dated article links. What the site repeats by its
//! shape, not verbatim, is what its site model has to learn.

#![allow(dead_code)]

/// The site's address.
pub const SITE: &str = "https://www.nongye-portal.example";
pub const PAGES: usize = 40;
const ARTICLES: usize = 30;

const SOURCES: &[&str] = &["新华网", "中国农业信息网", "农民日报", "中广网", "人民网", "县农业农村局"];
const EDITORS: &[&str] = &["王芳", "李明", "张伟", "刘洋", "陈静"];
const CROPS: &[&str] = &["水稻", "小麦", "玉米", "大豆", "油菜", "茶叶", "柑橘", "蔬菜", "棉花", "花生", "马铃薯"];
const TOPICS: &[&str] = &["育秧", "施肥", "灌溉", "病虫害绿色防控", "农机安全操作", "秸秆还田", "储藏", "品种选育"];
const PLACES: &[&str] = &["城关镇", "河西乡", "石桥镇", "新集乡", "柳林镇", "白沙乡", "青山镇"];

/// Page `k`'s address: articles under `/news/`, list pages under `/list/`.
pub fn url(k: usize) -> String {
    if is_list(k) { format!("{SITE}/list/{}.html", k - ARTICLES) } else { format!("{SITE}/news/2024/{k}.html") }
}

/// Whether page `k` is a list page.
pub fn is_list(k: usize) -> bool {
    k >= ARTICLES
}

/// The frame lines of article `k`, paragraphs of its text like the article's own: its source (first)
/// and its editor (last).
pub fn frame(k: usize) -> [String; 2] {
    [format!("来源：{}", SOURCES[k % SOURCES.len()]), format!("责任编辑：{}", EDITORS[k % EDITORS.len()])]
}

/// Article `k`'s headline and its five paragraphs: sentences of the page's own words.
pub fn article(k: usize) -> (String, Vec<String>) {
    let crop = |p: usize| CROPS[(k + p * 3) % CROPS.len()];
    let topic = |p: usize| TOPICS[(k * 5 + p) % TOPICS.len()];
    let place = |p: usize| PLACES[(k + p) % PLACES.len()];
    let title = format!("{}{}{}技术培训班开班，百余名农民参加", place(0), crop(0), topic(0));
    let paragraphs = (1..=5)
        .map(|p| {
            format!(
                "{}的{}种植户在第{}期培训中学习{}，农技员结合{}的实际讲解了{}和{}的要点，学员们边听边记，纷纷表示收获很大。",
                place(p),
                crop(p),
                k * 10 + p,
                topic(p),
                place(p + 2),
                topic(p + 3),
                crop(p + 1)
            )
        })
        .collect();
    (title, paragraphs)
}

/// The list entries of list page `k`: titles of the portal's articles, each with its date.
pub fn list_items(k: usize) -> Vec<String> {
    (0..15)
        .map(|i| {
            let (title, _) = article((k * 7 + i * 3) % ARTICLES);
            format!("{title} 2024-0{}-{:02}", 1 + i % 9, 1 + (k + i) % 28)
        })
        .collect()
}

fn menu() -> String {
    ["首页", "农业新闻", "技术推广", "培训通知", "市场行情", "政策法规"]
        .iter()
        .enumerate()
        .map(|(i, m)| format!("<li><a href=\"/c/{i}.html\">{m}</a></li>"))
        .collect()
}

/// Page `k` as served (UTF-8).
pub fn page(k: usize) -> Vec<u8> {
    let footer = format!(
        "<div class=\"footer\"><p>主办单位：县农业农村局 版权所有 联系电话：0000-{:07}</p><p>备案号：农ICP备{}号</p></div>",
        1_234_567 + k,
        20240000 + k
    );
    let (title, main) = if is_list(k) {
        let items: String = list_items(k)
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let (text, date) = t.rsplit_once(' ').unwrap_or((t, ""));
                format!("<li><a href=\"/news/2024/{i}.html\">{text}</a> <span>{date}</span></li>")
            })
            .collect();
        let title = format!("农业新闻 第{}页", k - ARTICLES + 1);
        let main = format!("<div class=\"list\"><h2>{title}</h2><ul class=\"news-list\">{items}</ul></div>");
        (title, main)
    } else {
        let (title, paragraphs) = article(k);
        let [source, editor] = frame(k);
        let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>")).collect();
        let hot: String = (0..6)
            .map(|i| {
                let (t, _) = article((k + i + 1) % ARTICLES);
                format!("<li><a href=\"/news/2024/{i}.html\">{t}</a></li>")
            })
            .collect();
        let main = format!(
            "<div class=\"article\"><h1>{title}</h1>\
             <div class=\"info\">2024-05-{:02} 09:{:02}</div>\
             <div class=\"text\"><p>{source}</p>{body}<p>{editor}</p></div></div>\
             <div class=\"side\"><h3>热点新闻</h3><ul class=\"hot\">{hot}</ul></div>",
            k % 28 + 1,
            k % 60
        );
        (title, main)
    };
    format!(
        "<html><head><meta charset=\"utf-8\"><title>{title}_农业信息网</title></head><body>\
         <div class=\"top\"><ul class=\"menu\">{}</ul></div><div class=\"wrap\">{main}</div>{footer}</body></html>",
        menu()
    )
    .into_bytes()
}

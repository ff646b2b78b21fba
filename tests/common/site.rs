//! A generated site: 30 pages that share a channel menu, a hot list and a footer (in Chinese and
//! English) around a different article each; even pages are Chinese and encoded in GBK, odd pages
//! English in UTF-8. The site-template tests learn from it.

#![allow(dead_code)]

/// The site's address.
pub const SITE: &str = "https://www.farm-portal.example";

/// Text that is on every page and is nobody's content.
pub const CHROME: &[&str] =
    &["首页", "农业新闻", "Hot this week", "热门排行", "版权所有", "Contact us", PROMO_ZH, PROMO_EN];

/// The site's promotion under every article (both languages on every page), written as running text: no rule of a page's own can
/// tell it from the article, only the site's other pages can.
const PROMO_ZH: &str = "欢迎关注农民培训网，每周都有新的培训课程和农技信息发布，敬请留意。";
const PROMO_EN: &str = "Farm Portal brings you new courses and farming tips every week, so do come back soon.";

/// Page `k`'s address.
pub fn url(k: usize) -> String {
    format!("{SITE}/news/{k}.html")
}

const CROPS_ZH: &[&str] = &[
    "水稻",
    "小麦",
    "玉米",
    "大豆",
    "油菜",
    "茶叶",
    "柑橘",
    "蔬菜",
    "棉花",
    "花生",
    "甘薯",
    "马铃薯",
    "苹果",
    "葡萄",
    "烟叶",
];
const TOPICS_ZH: &[&str] = &["育秧", "施肥", "灌溉", "病虫害绿色防控", "农机安全操作", "秸秆还田", "储藏", "品种选育"];
const CROPS_EN: &[&str] = &[
    "rice",
    "wheat",
    "maize",
    "soybeans",
    "rapeseed",
    "tea",
    "citrus",
    "vegetables",
    "cotton",
    "peanuts",
    "sweet potatoes",
    "potatoes",
    "apples",
    "grapes",
    "tobacco",
];
const TOPICS_EN: &[&str] = &[
    "seedlings",
    "fertiliser",
    "irrigation",
    "green pest control",
    "safe use of machines",
    "straw return",
    "storage",
    "breeding",
];

/// The article of page `k`: a headline and four paragraphs, their words chosen by `k` (pages of a site
/// differ in their words, not only in their numbers).
pub fn article(k: usize) -> (String, Vec<String>) {
    let crop = k / 2 % CROPS_EN.len();
    let topic = |p: usize| (k + p) % TOPICS_EN.len();
    if k.is_multiple_of(2) {
        let title = format!("{}{}新型农民培训班在县农技站开班", CROPS_ZH[crop], TOPICS_ZH[topic(0)]);
        let paragraphs = (1..=4)
            .map(|p| {
                format!(
                    "本期{}培训讲到{}：学员们在{}田间地头边看边学，农技员逐一讲解{}的要点，大家收获很大。",
                    CROPS_ZH[crop],
                    TOPICS_ZH[topic(p)],
                    CROPS_ZH[(crop + p) % CROPS_ZH.len()],
                    TOPICS_ZH[topic(p + 3)]
                )
            })
            .collect();
        (title, paragraphs)
    } else {
        let title =
            format!("A course on {} and {} opens at the county farm station", CROPS_EN[crop], TOPICS_EN[topic(0)]);
        let paragraphs = (1..=4)
            .map(|p| {
                format!(
                    "The course on {} turned to {}: farmers learned among the {} in the fields, and the advisers explained {} step by step.",
                    CROPS_EN[crop],
                    TOPICS_EN[topic(p)],
                    CROPS_EN[(crop + p) % CROPS_EN.len()],
                    TOPICS_EN[topic(p + 3)]
                )
            })
            .collect();
        (title, paragraphs)
    }
}

/// Page `k` as served: GBK bytes for even `k`, UTF-8 for odd.
pub fn page(k: usize) -> Vec<u8> {
    let (title, paragraphs) = article(k);
    let menu: String = ["首页", "农业新闻", "技术推广", "培训通知", "Contact us"]
        .iter()
        .enumerate()
        .map(|(i, m)| format!("<li><a href=\"/c/{i}.html\">{m}</a></li>"))
        .collect();
    let hot: String = (0..8)
        .map(|i| format!("<li><a href=\"/hot/{i}.html\">热门排行 {i}：春耕备耕技术要点第{i}讲 Hot this week</a></li>"))
        .collect();
    let body: String = paragraphs
        .iter()
        .map(|p| format!("<p>{p}</p>"))
        .chain([PROMO_ZH, PROMO_EN].map(|p| format!("<p>{p}</p>")))
        .collect();
    let charset = if k.is_multiple_of(2) { "gbk" } else { "utf-8" };
    let html = format!(
        "<html><head><meta charset=\"{charset}\"><title>{title}</title></head><body>\
         <div class=\"top\"><ul class=\"menu\">{menu}</ul></div>\
         <div class=\"wrap\"><div class=\"content\"><h1>{title}</h1><div class=\"date\">2024-05-{:02}</div>{body}</div>\
         <div class=\"side\"><h3>热门排行</h3><ul>{hot}</ul></div></div>\
         <div class=\"footer\"><p>版权所有 农民培训网 2024 | Contact us | 访问量 {}</p></div></body></html>",
        k % 28 + 1,
        1000 + k * 7
    );
    if k.is_multiple_of(2) { encoding_rs::GBK.encode(&html).0.into_owned() } else { html.into_bytes() }
}

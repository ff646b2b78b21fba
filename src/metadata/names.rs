//! Whether a string is a person's name, and the name in a string: Chinese outlets and organisations
//! that stand where a writer's name stands (`来源：新华网`, `青网新闻张毅`), placeholders (`作者：未知`),
//! English byline labels and affiliations (`By Jane Roe - Staff Writer`). Apart from the byline walk
//! (`byline.rs`), which finds the lines, because declarations (`authors.rs`) ask the same questions of
//! the names a page declares.

use super::dates;

/// How the names of Chinese outlets (a news site, a paper, an agency, a station, an app, a platform's
/// account) and organisations end, longest first. The one-character endings (`网`, `报`, `社`, `台`,
/// `号`) also end names of people, so they count only at the end of a name of three characters or more.
const OUTLET_ENDINGS: &[&str] = &[
    "委员会",
    "办公室",
    "工作室",
    "客户端",
    "编辑部",
    "电视台",
    "新闻",
    "日报",
    "晚报",
    "周刊",
    "杂志",
    "传媒",
    "媒体",
    "频道",
    "在线",
    "官网",
    "支部",
    "中心",
    "协会",
    "学会",
    "公司",
    "集团",
    "团队",
    "大学",
    "学院",
    "研究院",
    "研究所",
    "网",
    "报",
    "社",
    "台",
    "号",
];

/// Job titles that end a description of a person (`中国人民大学重阳金融研究院执行院长`), not a name.
const TITLE_ENDINGS: &[&str] = &["院长", "教授", "主任", "研究员", "总裁", "经理", "董事长", "院士", "总编辑", "总监"];

/// Whether a Chinese name is an outlet's or an organisation's (`环球网`, `证券时报网`, `医技药剂党支部`), one
/// glued to something else (`青网新闻张毅`, `凤凰网科技`, `扬眼企鹅号`), or a job title: not a person's.
pub fn is_outlet(name: &str) -> bool {
    let chars = name.chars().count();
    if !name.chars().any(is_han) || chars < 3 {
        return false;
    }
    if chars >= 4 && TITLE_ENDINGS.iter().any(|t| name.ends_with(t)) {
        return true;
    }
    OUTLET_ENDINGS.iter().any(|e| {
        let one = e.chars().count() == 1;
        name.ends_with(e)
            // Inside the name, after its first character: a longer ending anywhere, a one-character
            // ending only in a name too long for a person's.
            || name.char_indices().skip(1).any(|(k, _)| name[k..].starts_with(e) && (!one || chars >= 5))
    })
}

/// A Han character of the common block (how [`is_outlet`] and the name tests tell a Chinese name).
pub fn is_han(c: char) -> bool {
    ('\u{4E00}'..='\u{9FFF}').contains(&c)
}

/// The names a byline gave that can be people's: outlets, organisations and placeholders left out, so
/// that the walk goes on to the writer (`作者：医技药剂党支部` before `（职工通讯员 李琴雯 刘会）`).
pub(super) fn persons(names: Vec<String>) -> Vec<String> {
    names.into_iter().filter(|n| !is_outlet(n) && !is_placeholder(n)).collect()
}

/// Words a Chinese byline puts where a name would be that are not a person's name: placeholders
/// (`作者：未知`, `网络整理`), roles and interface words.
const NOT_NAMES: &[&str] = &[
    "未知",
    "佚名",
    "不详",
    "网络",
    "网络整理",
    "本站",
    "本网",
    "原创",
    "综合",
    "整理",
    "编译",
    "转载",
    "系统管理员",
    "管理员",
    "admin",
    "administrator",
    "特邀作者",
    "作者",
    "记者",
    "通讯员",
    "编辑",
    "发布于",
    "注册",
    "登录",
    "举报",
    "分享",
    "收藏",
    "关注",
    "评论",
    "打印",
    "字号",
    "整合",
    "报道",
    "发自",
    "昨天",
    "前天",
    "今天",
    "刚刚",
];

/// Whether `name` is one of [`NOT_NAMES`] (ASCII case aside).
pub fn is_placeholder(name: &str) -> bool {
    let n = name.trim();
    NOT_NAMES.iter().any(|p| n.eq_ignore_ascii_case(p))
}

/// Two to four Han characters (a middle dot allowed, for transliterated names): how Chinese names
/// are written in bylines.
pub(super) fn is_han_name(t: &str) -> bool {
    (2..=4).contains(&t.chars().count()) && t.chars().all(|c| is_han(c) || c == '·')
}

/// A name after a label: up to a space, a separator or the next label.
pub(super) fn name_after(rest: &str) -> Option<String> {
    let mut end = rest.len();
    for stop in [
        " ", "\u{3000}", "|", "丨", "/", "（", "(", "【", "[", "）", ")", "】", "]", "，", ",", "、", "；", ";", "&",
        "来源", "时间", "发布", "编辑", "责编", "审核", "校对", "日期",
    ] {
        if let Some(k) = rest.find(stop)
            && k > 0
        {
            end = end.min(k);
        }
    }
    let name = rest[..end].trim_matches(|c: char| c.is_whitespace() || "：:，,。.".contains(c));
    let chars = name.chars().count();
    ((2..=20).contains(&chars) && !name.chars().any(|c| c.is_ascii_digit())).then(|| name.to_string())
}

/// Words that introduce a byline: alone, they are a label waiting for its name.
const BYLINE_LABELS: &[&str] = &[
    "written by",
    "posted by",
    "words by",
    "story by",
    "reviewed by",
    "authored by",
    "article by",
    "recipe by",
    "by",
    "author",
    "authors",
    "posted",
    "written",
];

/// A byline label without a name (`By`, `Written By`, `Author:`).
pub fn is_label(s: &str) -> bool {
    // Without a lower-cased copy of every text: the labels are ASCII, and a text lower-cases to an
    // ASCII label only if it is one in another case, or spells a `k` with the Kelvin sign (three
    // bytes for one): a text over three times the longest label is none.
    let t = s.trim().trim_end_matches([':', '：']).trim();
    if t.len() > 3 * LONGEST_LABEL {
        return false;
    }
    if t.is_ascii() {
        return BYLINE_LABELS.iter().any(|l| t.eq_ignore_ascii_case(l));
    }
    // The Kelvin sign is the one non-ASCII character that lower-cases to ASCII: a text with any other
    // (every short Chinese text) is no label.
    if t.chars().any(|c| !c.is_ascii() && c != '\u{212A}') {
        return false;
    }
    BYLINE_LABELS.iter().any(|l| t.chars().flat_map(char::to_lowercase).eq(l.chars()))
}

/// The byte length of the longest [`BYLINE_LABELS`] entry.
const LONGEST_LABEL: usize = 11;

/// A name as publishers write it in declarations and bylines, without the label before it or an
/// affiliation after it (`By Jane Roe - Staff Writer`, `, USA TODAY`).
pub fn clean_name(s: &str) -> String {
    let mut t = crate::dom::fold_ws(s);
    let lower = t.to_lowercase();
    if let Some(p) = BYLINE_LABELS
        .iter()
        .filter(|p| p.len() < lower.len())
        .find(|p| lower.starts_with(*p) && lower[p.len()..].starts_with([' ', ':', '：']))
    {
        t = t[p.len()..].trim_start_matches([' ', ':', '：']).to_string();
    }
    for stop in [" - ", " | ", " – ", " — ", " • "] {
        if let Some(k) = t.find(stop) {
            t.truncate(k);
        }
    }
    let t = t.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '-'));
    let mut words: Vec<&str> = t.split(' ').collect();
    // User cards follow the name with counts (`jane 1,655 12 gold badges`): names have no word
    // that starts with a digit (a date is left whole, for the caller to reject).
    if let Some(k) = words.iter().position(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        && k > 0
        && dates::find_in_text(t).is_none()
    {
        words.truncate(k);
    }
    // ... or with the avatar's letter, the name's own initial (`jdoe J`).
    if words.len() >= 2 {
        let last = words[words.len() - 1];
        let first = words[0].chars().next().map(|c| c.to_lowercase().to_string());
        if last.chars().count() == 1 && last.chars().all(char::is_uppercase) && first == Some(last.to_lowercase()) {
            words.pop();
        }
    }
    words.join(" ").trim_end_matches([',', ';']).to_string()
}

/// `By Jane Roe and John Doe`, `Written by Jane Roe | March 5`: the names, or `None`.
pub(super) fn english_byline(text: &str) -> Option<Vec<String>> {
    let lower = text.to_ascii_lowercase();
    let start = ["written by ", "posted by ", "words by ", "story by ", "by "]
        .iter()
        .find_map(|p| lower.strip_prefix(p).map(|_| p.len()))
        .or_else(|| lower.starts_with("author:").then_some(7))?;
    let rest = text[start..].trim_start_matches([':', ' ']);
    names(rest)
}

/// Names in a byline's text: cut at a date, a separator or a preposition, split on `and`, `&`, `,`.
pub(super) fn names(text: &str) -> Option<Vec<String>> {
    let mut t = text.trim();
    if let Some((_, r)) = dates::find_in_text(t) {
        t = &t[..r.start];
    }
    for stop in [
        " | ",
        "|",
        " • ",
        "•",
        " · ",
        " - ",
        " — ",
        " – ",
        " on ",
        " in ",
        " for ",
        " at ",
        " updated",
        " published",
        "\n",
    ] {
        if let Some(k) = t.to_ascii_lowercase().find(stop) {
            t = &t[..k];
        }
    }
    let t = t.trim().trim_end_matches([',', '.', ':', ';']).trim();
    let t = t.strip_prefix("By ").or_else(|| t.strip_prefix("by ")).unwrap_or(t);
    let mut out = Vec::new();
    for part in t.split(" and ").flat_map(|p| p.split(" & ")).flat_map(|p| p.split(", ")) {
        let p = part.trim();
        let words = p.split_whitespace().count();
        if words == 0 || words > 5 || p.chars().count() > 60 {
            return None;
        }
        // A name starts with a capital (or is not written in Latin letters at all).
        if !p.chars().next().is_some_and(|c| c.is_uppercase() || !c.is_ascii()) {
            return None;
        }
        out.push(p.to_string());
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byline_labels_are_ascii_and_the_longest_is_known() {
        assert!(BYLINE_LABELS.iter().all(|l| l.is_ascii() && *l == l.to_lowercase()));
        assert_eq!(BYLINE_LABELS.iter().map(|l| l.len()).max(), Some(LONGEST_LABEL));
        // A non-ASCII text is compared lower-cased too (`İ` lower-cases to two characters).
        assert!(!is_label("Wrİtten by") && is_label("Recipe By"));
        assert!(is_label("  WRITTEN BY：") && !is_label("Written by Jane"));
        assert!(!is_label("作者：") && !is_label("by 李明") && is_label("By"));
    }

    #[test]
    fn names_without_labels_and_affiliations() {
        assert_eq!(clean_name("By David Jackson - Editorial Team"), "David Jackson");
        assert_eq!(clean_name(", USA TODAY"), "USA TODAY");
        // User cards: counts and the avatar's initial after the name.
        assert_eq!(clean_name("jdoe 1,65511 gold badge1414 silver badges"), "jdoe");
        assert_eq!(clean_name("JosephF J"), "JosephF");
        assert_eq!(clean_name("Jane Roe"), "Jane Roe");
        assert_eq!(clean_name("Mar 5, 2024"), "Mar 5, 2024");
        assert!(is_label("Recipe by") && is_label("Article by:") && is_label("Authored by"));
        assert!(is_label("Written By") && is_label("Author:") && !is_label("Bye Felicia"));
        assert_eq!(names("the team said"), None);
        assert_eq!(english_byline("By Jane Roe and John Doe"), Some(vec!["Jane Roe".into(), "John Doe".into()]));
    }
}

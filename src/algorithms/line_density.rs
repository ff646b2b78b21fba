//! Line-density extraction from the survey of web content extraction methods (§2.1): strip the tags,
//! read the remaining text line by line, cut it into blocks wherever two or more consecutive lines are
//! empty, and keep the blocks whose text is longer than a threshold. No DOM is needed.
//!
//! The survey gives no threshold value; ours is a character count, so it means the same for CJK and
//! Latin text (one Chinese character carries about as much as a short English word, and the default of
//! 60 is met by one real paragraph in either).

use crate::contract::{Block, Content, Context, Outcome, coverage};
use crate::dom::decode_char_refs;

/// Replace tags by nothing, keeping line breaks, and decode character references
/// ([`decode_char_refs`]).
pub fn strip_tags(html: &str) -> String {
    let body = html.find("<body").or_else(|| html.find("<BODY")).map_or(html, |i| &html[i..]);
    let mut out = String::with_capacity(body.len() / 2);
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            '\n' => out.push('\n'),
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    decode_char_refs(&out)
}

/// Split stripped text into blocks of lines.
pub fn line_blocks(text: &str, blank_lines: usize) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    let mut empty_run = 0;
    for line in text.lines() {
        let l = crate::dom::fold_ws(line);
        if l.is_empty() {
            empty_run += 1;
            if empty_run >= blank_lines && !cur.is_empty() {
                blocks.push(std::mem::take(&mut cur));
            }
        } else {
            empty_run = 0;
            cur.push(l);
        }
    }
    if !cur.is_empty() {
        blocks.push(cur);
    }
    blocks
}

/// `line-density`.
pub fn run(ctx: &Context<'_>) -> Outcome {
    let p = &ctx.params.line_density;
    let text = strip_tags(ctx.source);
    let blocks = line_blocks(&text, p.blank_lines.max(1));
    let mut kept = Vec::new();
    let mut out_blocks = Vec::new();
    let mut kept_chars = 0usize;
    let mut all_chars = 0usize;
    for b in blocks {
        let len: usize = b.iter().map(|l| l.chars().filter(|c| !c.is_whitespace()).count()).sum();
        all_chars += len;
        let keep = len > p.min_block_chars;
        out_blocks.push(Block {
            node: ctx.doc.body,
            scores: vec![("line_block_chars", len as f64), ("lines", b.len() as f64)],
            content: keep,
            rank: len as f64,
        });
        if keep {
            kept_chars += len;
            kept.extend(b);
        }
    }
    let probability = coverage(kept_chars as f64, all_chars as f64);
    Outcome { content: Content::Text(kept), probability, blocks: out_blocks, signals: Vec::new(), non_article: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_split_on_two_blank_lines() {
        let html = "<body><div>menu</div>\n\n\n<p>a long paragraph line</p>\n<p>second line</p>\n\n\n<div>foot</div>";
        let t = strip_tags(html);
        let b = line_blocks(&t, 2);
        assert_eq!(
            b,
            vec![
                vec!["menu".to_string()],
                vec!["a long paragraph line".into(), "second line".into()],
                vec!["foot".into()]
            ]
        );
    }

    #[test]
    fn references_are_decoded_after_the_tags_are_gone() {
        // An encoded `<` is text, not the start of a tag; a no-break space is a space to the blocks.
        let t = strip_tags("<body><p>a &lt;b&gt; &amp;&nbsp;&#20013;&#x6587;&bogus;</p>");
        assert_eq!(t, "a <b> &\u{a0}中文&bogus;");
        assert_eq!(line_blocks(&t, 2), vec![vec!["a <b> & 中文&bogus;".to_string()]]);
    }
}

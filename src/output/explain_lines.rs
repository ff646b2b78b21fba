//! Stage 5: the explanation lines (`pith extract --format explain`): the decision record as text, one
//! line per block the algorithm judged, for people asking "why was this kept?" and for scripts that
//! grep the answer. A header line (starting with `#`) says what the page was judged to be.
//!
//! Each line: the block's probability of being main content, `+` when the answer holds its text and
//! `-` when not, the step that decided so (`threshold`, `comment-thread`, a rule's name ...), the
//! record region it is in (`r3`; `-` for none: see `algorithms::records`), its characters and link
//! share, the end of its owner element's path, and the start of its text. The
//! lines are rendered from the record the extraction itself left, so they cannot disagree with the
//! answer: the same request (charset, site template, comments, lead) gives both.
//!
//! An algorithm that decides by regions and thresholds rather than block by block (the seed methods)
//! leaves no record; its lines list the blocks the explanation page shows, decided by the algorithm.

use std::fmt::Write;

use super::explain_page::{Summary, probability, shown};
use crate::algorithms::contract::Block;
use crate::algorithms::contract::decision::Decision;
use crate::dom::{Document, NodeId};

/// Characters of a block's text shown on its line.
const SHOWN_CHARS: usize = 70;
/// Characters of the owner's path shown (its end: the nearest elements say the most).
const PATH_CHARS: usize = 40;

/// Render the lines: from the decision record when the algorithm left one, else from its blocks.
pub fn render(doc: &Document, decisions: &[Decision], blocks: &[Block], summary: &Summary<'_>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "# {} · has-article probability {:.3} ({})",
        summary.algorithm,
        summary.probability,
        if summary.is_article { "an article" } else { "not an article" }
    );
    if let Some(label) = summary.page_type {
        let _ = write!(out, " · page type {label}");
    }
    if decisions.is_empty() {
        let shown = shown(doc, blocks);
        let kept = shown.iter().filter(|&&k| blocks[k].content).count();
        let _ = writeln!(out, " · {kept} of {} blocks kept", shown.len());
        for k in shown {
            let b = &blocks[k];
            let s = doc.node(b.node).stats;
            let text = doc.subtree_text(b.node);
            let line = Line {
                probability: probability(b),
                kept: b.content,
                step: summary.algorithm,
                region: None,
                chars: s.chars,
                link_chars: s.link_chars,
                owner: b.node,
            };
            line.write(&mut out, doc, &text);
        }
        return out;
    }
    let kept = decisions.iter().filter(|d| d.kept).count();
    let _ = writeln!(out, " · {kept} of {} blocks kept", decisions.len());
    let mut text = String::new();
    for d in decisions {
        text.clear();
        for (k, &t) in d.texts.iter().enumerate() {
            if k > 0 {
                text.push(' ');
            }
            text.push_str(doc.text(t));
        }
        let line = Line {
            probability: d.probability,
            kept: d.kept,
            step: d.decided_by.name(),
            region: d.region,
            chars: d.chars,
            link_chars: d.link_chars,
            owner: d.owner,
        };
        line.write(&mut out, doc, &text);
    }
    out
}

/// One block's line.
struct Line<'a> {
    probability: f64,
    kept: bool,
    step: &'a str,
    region: Option<u32>,
    chars: u32,
    link_chars: u32,
    owner: NodeId,
}

impl Line<'_> {
    fn write(&self, out: &mut String, doc: &Document, text: &str) {
        let head: String = text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(SHOWN_CHARS).collect();
        let path = doc.xpath(self.owner);
        let skip = path.chars().count().saturating_sub(PATH_CHARS);
        let path: String = path.chars().skip(skip).collect();
        let region = self.region.map_or_else(|| "-".to_string(), |r| format!("r{r}"));
        let _ = writeln!(
            out,
            "{:.3} {} {:<22} {region:>5} {:>6} {:>4.2} {path:<PATH_CHARS$} {head}",
            self.probability,
            if self.kept { '+' } else { '-' },
            self.step,
            self.chars,
            f64::from(self.link_chars) / f64::from(self.chars.max(1)),
        );
    }
}

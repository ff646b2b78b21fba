//! The one rule that chooses rather than leaves out (`code-between-kept`): a code listing between
//! kept steps of a tutorial is part of them. Its own file because it is the only rule of its kind.

use crate::dom::{Document, NONE, NodeId, Tag};

/// Choose every code block (`<pre>`) none of whose text is chosen but that sits between chosen text
/// with at most `max_gap` characters of unchosen text on either side (its caption, a "Copy" button)
/// and within `NODES` nodes. Returns whether any was chosen.
///
/// A listing in the middle of kept prose is part of it: a tutorial's steps are "run this", the
/// command, "then this". The block model sees a listing as a block of symbols without sentences or
/// stop words and leans against it, more so for the short ones (one command).
pub(super) fn keep_code_between_kept(doc: &Document, chosen: &mut [bool], max_gap: u32) -> bool {
    const NODES: usize = 200;
    let mut changed = false;
    let body = doc.body;
    if body == NONE {
        return false;
    }
    let end = doc.node(body).end;
    let near = |ids: &mut dyn Iterator<Item = NodeId>, chosen: &[bool]| {
        let mut gap = 0u32;
        for k in ids.take(NODES) {
            let n = doc.node(k);
            if !n.is_text() {
                continue;
            }
            if chosen[k as usize] {
                return true;
            }
            gap += n.stats.chars;
            if gap > max_gap {
                return false;
            }
        }
        false
    };
    let mut i = body + 1;
    while i < end {
        let n = doc.node(i);
        if n.tag() != Some(Tag::Pre) {
            i += 1;
            continue;
        }
        let texts = (i..n.end).filter(|&k| doc.node(k).is_text());
        if n.stats.chars > 0
            && !texts.clone().any(|k| chosen[k as usize])
            && near(&mut (body + 1..i).rev(), chosen)
            && near(&mut (n.end..end), chosen)
        {
            for k in texts {
                chosen[k as usize] = true;
            }
            changed = true;
        }
        i = n.end;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::super::testing::chosen_text;
    use super::*;

    #[test]
    fn a_listing_between_kept_steps_is_kept_and_one_beside_dropped_text_is_not() {
        let page = "<body><nav><a href=/>Docs</a></nav><main><p>Create a project first.</p>\
            <div><span>Terminal</span><pre><code>npm create vite</code></pre></div><p>Then install it.</p>\
            <pre>npm install pith</pre><aside><p>Sponsored by a long list of friends of the project who keep the lights on and the builds green every single day of the year.</p></aside>\
            <p>Last step.</p></main><footer><pre>ascii art logo</pre></footer></body>";
        let doc = Document::parse(page);
        let keep = ["Create a project first.", "Then install it.", "Last step."];
        let mut chosen: Vec<bool> = (0..doc.len()).map(|i| keep.contains(&doc.text(i as NodeId).trim())).collect();
        assert!(keep_code_between_kept(&doc, &mut chosen, 100));
        // The first listing has a short caption before it and kept text after; the second has 120
        // characters of dropped text after it; the third has no kept text after it.
        assert_eq!(chosen_text(&doc, &chosen), "Create a project first.|npm create vite|Then install it.|Last step.");
        let mut none: Vec<bool> = (0..doc.len()).map(|i| keep.contains(&doc.text(i as NodeId).trim())).collect();
        assert!(!keep_code_between_kept(&doc, &mut none, 5));
        assert_eq!(chosen_text(&doc, &none), "Create a project first.|Then install it.|Last step.");
    }
}

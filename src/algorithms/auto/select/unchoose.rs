//! The walks the rules share to leave out whole elements: the topmost elements a test accepts
//! (comment threads, `<nav>`, notices), the sections a short chosen text opens (a rail's heading, a
//! reprint notice), whole blocks, and the counts of chosen text they read. Apart from the rules because rules of
//! several families run on them.

use crate::algorithms::auto::lexicon;
use crate::algorithms::auto::segment::{Blocks, TextBlock};
use crate::dom::{Document, NONE, Node, NodeId};

/// Whether every text node of block `b` is chosen: the blocks the rules that read one block's text
/// judge (a block partly left out already is not theirs to judge).
pub(super) fn wholly_chosen(blocks: &Blocks, b: &TextBlock, chosen: &[bool]) -> bool {
    blocks.texts_of(b).iter().all(|&t| chosen[t as usize])
}

/// Whether any text node of block `b` is chosen.
pub(super) fn partly_chosen(blocks: &Blocks, b: &TextBlock, chosen: &[bool]) -> bool {
    blocks.texts_of(b).iter().any(|&t| chosen[t as usize])
}

/// Choose every text node of block `b`: the rules that complete the answer add whole blocks.
pub(super) fn choose_block(blocks: &Blocks, b: &TextBlock, chosen: &mut [bool]) {
    for &t in blocks.texts_of(b) {
        chosen[t as usize] = true;
    }
}

/// Unchoose every text node of block `b`. Returns whether any was chosen.
pub(super) fn unchoose_block(blocks: &Blocks, b: &TextBlock, chosen: &mut [bool]) -> bool {
    let mut dropped = false;
    for &t in blocks.texts_of(b) {
        dropped |= std::mem::replace(&mut chosen[t as usize], false);
    }
    dropped
}

/// Unchoose the topmost elements that start after the first chosen text node, are named as `rules`
/// say and that `thread` accepts (the two comment-thread steps differ only there). Returns whether
/// any chosen text was unchosen.
pub(super) fn drop_named_after_first(
    doc: &Document,
    chosen: &mut [bool],
    rules: &[lexicon::Names],
    thread: impl Fn(NodeId, &Node) -> bool,
) -> bool {
    let Some(first) = chosen.iter().position(|&c| c) else { return false };
    // `thread` first: it is a comparison or two, and the name rules read the whole name.
    let candidate = |i: NodeId, n: &Node| {
        thread(i, n) && n.element().and_then(|e| e.id_class.as_deref()).is_some_and(|c| lexicon::matches_any(rules, c))
    };
    unchoose_topmost(doc, chosen, (first as NodeId).saturating_add(1), candidate, |_, _, _| true)
}

/// Walk the nodes from `start` to the end of the body, and at each one `candidate` accepts (its
/// subtree is then not entered) unchoose the subtree when it holds chosen text and `drop` agrees
/// (`drop` reads the choice as it stands). The walk the steps that leave out whole elements share.
/// `candidate` must not depend on being asked: it is not asked of nodes without chosen text below.
/// Returns whether any chosen text was unchosen.
pub(super) fn unchoose_topmost(
    doc: &Document,
    chosen: &mut [bool],
    start: NodeId,
    mut candidate: impl FnMut(NodeId, &Node) -> bool,
    mut drop: impl FnMut(NodeId, &Node, &[bool]) -> bool,
) -> bool {
    let end = doc.node(doc.body).end;
    let mut dropped = false;
    let mut i = start;
    // The first chosen node at or after `i`: a subtree without chosen text has nothing to unchoose,
    // and is passed over without asking `candidate` (a name rule reads the whole name) of its nodes.
    // Unchoosing clears only the subtree just left behind, so the pointer only moves forward.
    let mut next_chosen = start;
    while i < end {
        next_chosen = next_chosen.max(i);
        while next_chosen < end && !chosen[next_chosen as usize] {
            next_chosen += 1;
        }
        if next_chosen >= end {
            break;
        }
        let n = doc.node(i);
        if next_chosen >= n.end {
            i = n.end.max(i + 1);
            continue;
        }
        if candidate(i, n) {
            if chosen[i as usize..n.end as usize].contains(&true) && drop(i, n, chosen) {
                chosen[i as usize..n.end as usize].fill(false);
                dropped = true;
            }
            i = n.end.max(i + 1);
        } else {
            i += 1;
        }
    }
    dropped
}

/// The most section openers read on one page: a bound on the work a hostile page can ask for, far
/// above the one notice of a news page.
const MAX_OPENERS: usize = 64;

/// Unchoose every section a chosen text opens: a text node of at most `max_bytes` that is its block's
/// first chosen text (a notice's name before its clauses in one paragraph) and that `opens` accepts,
/// with the highest ancestor that starts with it, holds the whole block and holds less than half of
/// the chosen text. A text left out itself opens a section too when `titles` accepts it (a notice's
/// label in an element of its own, the classifier having judged the short label apart from the text
/// under it); its section holds at most `max_bytes` of chosen text, since nothing chosen ties the
/// label to what follows it. At most [`MAX_OPENERS`] openers are read.
pub(super) fn drop_opened_sections(
    doc: &Document,
    chosen: &mut [bool],
    max_bytes: usize,
    opens: impl Fn(&str) -> bool,
    titles: impl Fn(&str) -> bool,
) -> bool {
    let end = doc.node(doc.body).end;
    let total = chosen_chars(doc, chosen, doc.body, end);
    let mut openers = 0;
    // Chosen bytes before each node, so that every ancestor's share costs one subtraction; rebuilt
    // after each section is dropped.
    let mut before: Vec<usize> = Vec::new();
    let mut dropped = false;
    for t in doc.body..end {
        let node = doc.node(t);
        if !node.is_text() || doc.text(t).len() > max_bytes {
            continue;
        }
        let title = !chosen[t as usize];
        if title && total == 0 {
            continue;
        }
        if !(if title { titles(doc.text(t)) } else { opens(doc.text(t)) }) {
            continue;
        }
        let mut block = node.parent;
        while block != NONE && doc.node(block).tag().is_some_and(|t| !t.is_block()) {
            block = doc.node(block).parent;
        }
        if block == NONE {
            continue;
        }
        openers += 1;
        if openers > MAX_OPENERS {
            break;
        }
        if before.is_empty() {
            before = chosen_before(doc, chosen);
        }
        let chosen_in = |from: NodeId, to: NodeId| before[to as usize] - before[from as usize];
        let mut section = NONE;
        let mut up = node.parent;
        while up != NONE && up > doc.body {
            let n = doc.node(up);
            let inside = chosen_in(up, n.end);
            if chosen_in(up, t) > 0 || inside * 2 >= total || (title && inside > max_bytes) {
                break;
            }
            section = up;
            up = n.parent;
        }
        // Ids are in document order: an ancestor of the block has a smaller one.
        if section != NONE && section <= block && (!title || chosen_in(section, doc.node(section).end) > 0) {
            let section_end = doc.node(section).end as usize;
            chosen[section as usize..section_end].fill(false);
            dropped = true;
            before.clear();
        }
    }
    dropped
}

/// Bytes of chosen text before each node id (and one past the last: the total).
pub(super) fn chosen_before(doc: &Document, chosen: &[bool]) -> Vec<usize> {
    let mut before = Vec::with_capacity(doc.len() + 1);
    let mut sum = 0;
    for (i, &c) in chosen.iter().enumerate().take(doc.len()) {
        before.push(sum);
        if c {
            sum += doc.text(i as NodeId).len();
        }
    }
    before.push(sum);
    before
}

/// Bytes of chosen text among the nodes `from..to`.
pub(super) fn chosen_chars(doc: &Document, chosen: &[bool], from: NodeId, to: NodeId) -> usize {
    (from..to).filter(|&i| chosen[i as usize]).map(|i| doc.text(i).len()).sum()
}

//! The copy of a scraper (html5ever's `ego_tree`) document: the walk used when a site template's CSS
//! selectors must run on the page first (`Document::from_html`). Everything this walk knows of
//! scraper's tree is here; it makes the same calls as the working-tree walk (`working_tree`), so both
//! give the same arena.

use scraper::Html;

use super::Builder;
use super::visibility::{Action, MAX_HANDLERS, climb_wrappers, closed_by_its_own_control, note_controls};
use crate::dom::NodeId;

/// The overlays of a scraper tree that a control inside closes by their `id`, as `working_tree`'s.
fn overlays_scraper(parsed: &Html) -> std::collections::HashSet<ego_tree::NodeId> {
    let mut marked = std::collections::HashSet::new();
    let element = |i: ego_tree::NodeId| parsed.tree.get(i).and_then(|n| n.value().as_element());
    let parent = |c: ego_tree::NodeId| parsed.tree.get(c)?.parent().map(|p| p.id());
    let has_id = |i: ego_tree::NodeId, name: &str| element(i).and_then(|e| e.id()).is_some_and(|id| id.trim() == name);
    let is_root = |i: ego_tree::NodeId| element(i).is_some_and(|e| matches!(e.name(), "html" | "body"));
    let handlers = parsed.tree.nodes().filter_map(|n| Some((n.id(), n.value().as_element()?.attr("onclick")?)));
    for (control, handler) in handlers.take(MAX_HANDLERS) {
        closed_by_its_own_control(control, handler, parent, has_id, is_root, |o| {
            marked.insert(o);
        });
    }
    marked
}

impl Builder {
    /// [`Builder::disclosed_wrappers`] for a scraper tree.
    fn disclosed_wrappers_scraper(&self, parsed: &Html) -> std::collections::HashSet<ego_tree::NodeId> {
        let mut wrappers = std::collections::HashSet::new();
        if self.disclosed.is_empty() {
            return wrappers;
        }
        let only_child = |p: ego_tree::NodeId| {
            let mut found = None;
            for c in parsed.tree.get(p)?.children() {
                match c.value() {
                    scraper::Node::Element(_) if found.is_none() => found = Some(c.id()),
                    scraper::Node::Element(_) => return None,
                    scraper::Node::Text(s) if !s.trim().is_empty() => return None,
                    _ => {}
                }
            }
            found
        };
        let parent = |c: ego_tree::NodeId| parsed.tree.get(c)?.parent().map(|p| p.id());
        for node in parsed.tree.nodes() {
            if let scraper::Node::Element(el) = node.value()
                && el.id().is_some_and(|id| self.disclosed.contains(id.trim()))
            {
                climb_wrappers(node.id(), parent, only_child, |w| {
                    wrappers.insert(w);
                });
            }
        }
        wrappers
    }

    /// Copy a scraper tree. `drop` is asked about every element; the arena ids of the elements listed
    /// in `watch` are returned.
    pub(in crate::dom) fn build_scraper(
        &mut self,
        parsed: &Html,
        drop: &dyn Fn(ego_tree::NodeId) -> bool,
        watch: &[ego_tree::NodeId],
    ) -> Vec<NodeId> {
        let mut watched = Vec::new();
        for node in parsed.tree.nodes() {
            if let scraper::Node::Element(el) = node.value() {
                note_controls(&mut self.disclosed, el.attrs());
            }
        }
        let wrappers = self.disclosed_wrappers_scraper(parsed);
        let overlays = overlays_scraper(parsed);
        use ego_tree::iter::Edge;
        // Depth of skipped subtrees; each Close of such an element decrements it.
        let mut skip_depth = 0usize;
        let mut actions: Vec<Action> = Vec::new();
        for edge in parsed.tree.root().traverse() {
            match edge {
                Edge::Open(node) => match node.value() {
                    scraper::Node::Element(el) => {
                        let action = if skip_depth > 0 || drop(node.id()) || overlays.contains(&node.id()) {
                            Action::Skipped
                        } else {
                            let next = self.nodes.len() as NodeId;
                            // A disclosed element's wrapper, as in `build_tree`.
                            let blind = self.honour_style && wrappers.contains(&node.id());
                            self.honour_style &= !blind;
                            let a = self.open(&el.name.local, el.attrs());
                            self.honour_style |= blind;
                            if a == Action::Pushed && watch.contains(&node.id()) {
                                watched.push(next);
                            }
                            if a.skips() && el.name() == "head" {
                                self.read_head_scraper(node);
                            }
                            a
                        };
                        if action.skips() {
                            skip_depth += 1;
                        }
                        actions.push(action);
                    }
                    scraper::Node::Text(t) if skip_depth == 0 => self.text(&t.text),
                    _ => {}
                },
                Edge::Close(node) => {
                    if let scraper::Node::Element(_) = node.value() {
                        match actions.pop() {
                            Some(Action::Pushed) => self.close_element(),
                            Some(Action::Skipped | Action::StyleHidden | Action::AriaHidden) => skip_depth -= 1,
                            Some(Action::Flattened) | None => {}
                        }
                    }
                }
            }
        }
        while !self.stack.is_empty() {
            self.close_element();
        }
        watched
    }

    fn read_head_scraper(&mut self, head: ego_tree::NodeRef<'_, scraper::Node>) {
        for d in head.descendants() {
            if let scraper::Node::Element(el) = d.value()
                && el.name() == "title"
                && self.title.is_none()
            {
                let t: String = d.children().filter_map(|c| c.value().as_text().map(|t| t.text.to_string())).collect();
                self.set_title(&t);
            }
        }
    }
}

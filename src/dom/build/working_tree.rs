//! The copy of the parser's own working tree (`dom::tree`, the normal path): a preorder walk that
//! climbs back up by parent links, so that depth costs no stack, and the `<head>`'s title read beside
//! it. Everything this walk knows of that tree's shape is here; the arena it feeds is the same as the
//! scraper walk's (`scraper_tree`).

use html5ever::local_name;

use super::Builder;
use super::visibility::{Action, MAX_HANDLERS, climb_wrappers, closed_by_its_own_control, note_controls};
use crate::dom::NodeId;
use crate::dom::tree::{self, Data, Tree};

impl Builder {
    /// Per working-tree element (empty when nothing is disclosed): whether it wraps a disclosed
    /// element ([`climb_wrappers`]), so that [`Builder::build_tree`] reads it whatever its inline style.
    fn disclosed_wrappers(&self, t: &Tree) -> Vec<bool> {
        if self.disclosed.is_empty() {
            return Vec::new();
        }
        // The element child of `p` when it is the only one and no text stands beside it.
        let only_child = |p: tree::Id| {
            let mut c = t.nodes[p as usize].first_child;
            let mut found = None;
            while c != tree::NIL {
                match &t.nodes[c as usize].data {
                    Data::Element { .. } if found.is_none() => found = Some(c),
                    Data::Element { .. } => return None,
                    Data::Text(s) if !s.trim().is_empty() => return None,
                    _ => {}
                }
                c = t.nodes[c as usize].next_sibling;
            }
            found
        };
        let parent = |c: tree::Id| Some(t.nodes[c as usize].parent).filter(|&p| p != tree::NIL);
        let mut wrappers = vec![false; t.nodes.len()];
        for (i, n) in t.nodes.iter().enumerate() {
            if let Data::Element { attrs, .. } = &n.data
                && attrs.iter().any(|a| &*a.name.local == "id" && self.disclosed.contains(a.value.trim()))
            {
                climb_wrappers(i as tree::Id, parent, only_child, |w| wrappers[w as usize] = true);
            }
        }
        wrappers
    }

    /// Copy the parser's working tree. Iterative: a parent link climbs back up, so depth costs no stack.
    pub(in crate::dom) fn build_tree(&mut self, t: &Tree) {
        // Both outputs sized once: growing them by doubling copied and faulted in fresh pages each time.
        self.nodes.reserve(t.kept_bound);
        // One pass for the text's length, the disclosures' names and the overlays' controls.
        let mut text = 0;
        let mut overlays = Overlays { t, marked: Vec::new(), handlers: 0 };
        for (i, n) in t.nodes.iter().enumerate() {
            match &n.data {
                Data::Text(s) => text += s.len(),
                Data::Element { attrs, .. } => {
                    note_controls(&mut self.disclosed, attrs.iter().map(|a| (&*a.name.local, &*a.value)));
                    overlays.visit(i as tree::Id, attrs);
                }
                _ => {}
            }
        }
        self.text_buf.reserve(text);
        let wrappers = self.disclosed_wrappers(t);
        let overlays = overlays.marked;
        // One entry per element being walked: whether `open` pushed an arena node for it.
        let mut open: Vec<Action> = Vec::new();
        let mut id = t.nodes[tree::DOCUMENT as usize].first_child;
        while id != tree::NIL {
            let n = &t.nodes[id as usize];
            let mut descend = false;
            match &n.data {
                Data::Element { local, attrs, .. } => {
                    let action = if self.skip.as_ref().is_some_and(|s| s[id as usize])
                        || overlays.get(id as usize).copied().unwrap_or(false)
                    {
                        Action::Skipped
                    } else if wrappers.get(id as usize).copied().unwrap_or(false) && self.honour_style {
                        // A disclosed element's wrapper ([`climb_wrappers`]): read whatever its style.
                        self.honour_style = false;
                        let action = self.open(local, attrs.iter().map(|a| (&*a.name.local, &*a.value)));
                        self.honour_style = true;
                        action
                    } else {
                        self.open(local, attrs.iter().map(|a| (&*a.name.local, &*a.value)))
                    };
                    if action == Action::Pushed
                        && let Some(s) = self.stamps.as_mut()
                    {
                        s[id as usize] = self.nodes.len() as NodeId - 1;
                    }
                    if matches!(action, Action::StyleHidden | Action::AriaHidden) {
                        self.style_hidden.push(id);
                    }
                    if action == Action::AriaHidden {
                        self.aria_hidden.push(id);
                    }
                    if action.skips() {
                        if &**local == "head" {
                            self.read_head_tree(t, id);
                        }
                    } else if n.first_child != tree::NIL {
                        open.push(action);
                        descend = true;
                    } else if action == Action::Pushed {
                        self.close_element();
                    }
                }
                Data::Text(s) => self.text(s),
                Data::Document | Data::Other => {}
            }
            if descend {
                id = n.first_child;
                continue;
            }
            // Next in preorder, closing every element climbed out of.
            id = t.next_after(id, tree::DOCUMENT, || {
                if open.pop() == Some(Action::Pushed) {
                    self.close_element();
                }
            });
        }
        while !self.stack.is_empty() {
            self.close_element();
        }
    }

    fn read_head_tree(&mut self, t: &Tree, head: tree::Id) {
        // The head is small and shallow; an explicit stack keeps even a hostile one off the call stack.
        let mut todo = vec![t.nodes[head as usize].first_child];
        while let Some(mut id) = todo.pop() {
            while id != tree::NIL && self.title.is_none() {
                let n = &t.nodes[id as usize];
                if let Data::Element { local, .. } = &n.data {
                    if &**local == "title" {
                        let mut s = String::new();
                        let mut c = n.first_child;
                        while c != tree::NIL {
                            if let Data::Text(x) = &t.nodes[c as usize].data {
                                s.push_str(x);
                            }
                            c = t.nodes[c as usize].next_sibling;
                        }
                        self.set_title(&s);
                    } else if n.first_child != tree::NIL {
                        todo.push(n.first_child);
                    }
                }
                id = n.next_sibling;
            }
        }
    }
}

/// The overlays of a working tree that a control inside closes by their `id`
/// ([`closed_by_its_own_control`]), found as the elements are visited in order.
struct Overlays<'t> {
    t: &'t Tree,
    /// Per working-tree element (empty when there is none): whether it is such an overlay, left out
    /// with its subtree.
    marked: Vec<bool>,
    /// Click handlers read so far, [`MAX_HANDLERS`] at most.
    handlers: usize,
}

impl Overlays<'_> {
    fn visit(&mut self, control: tree::Id, attrs: &[html5ever::Attribute]) {
        if self.handlers >= MAX_HANDLERS {
            return;
        }
        let Some(handler) = attrs.iter().find(|a| a.name.local == local_name!("onclick")) else { return };
        self.handlers += 1;
        let t = self.t;
        let element = |i: tree::Id| match &t.nodes[i as usize].data {
            Data::Element { local, attrs, .. } => Some((local, attrs)),
            _ => None,
        };
        let parent = |c: tree::Id| Some(t.nodes[c as usize].parent).filter(|&p| p != tree::NIL);
        let has_id = |i: tree::Id, name: &str| {
            element(i).is_some_and(|(_, attrs)| {
                attrs.iter().any(|a| a.name.local == local_name!("id") && a.value.trim() == name)
            })
        };
        let is_root = |i: tree::Id| {
            element(i).is_some_and(|(local, _)| *local == local_name!("html") || *local == local_name!("body"))
        };
        let marked = &mut self.marked;
        closed_by_its_own_control(control, &handler.value, parent, has_id, is_root, |o| {
            if marked.is_empty() {
                *marked = vec![false; t.nodes.len()];
            }
            marked[o as usize] = true;
        });
    }
}

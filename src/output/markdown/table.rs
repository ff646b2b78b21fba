//! Tables: a data table as a GitHub table, a line per row with each cell's content flattened onto it.
//! A layout table (a list, quote, code block, heading, rule or table inside, fewer than two columns,
//! too many cells, or text outside its rows and caption) is left to the walk, which writes its cells as
//! blocks.

use super::writer::Writer;
use crate::dom::{Document, NodeId, Tag};

/// A table is written as a GitHub table only up to this many cells; larger ones as blocks.
const MAX_TABLE_CELLS: usize = 10_000;

impl Writer<'_> {
    /// A data table as a GitHub table; returns false (and writes nothing) for a layout table, whose
    /// cells are then walked as blocks.
    pub(super) fn table(&mut self, id: NodeId) -> bool {
        let doc = self.doc;
        let end = doc.node(id).end;
        for i in id + 1..end {
            if let Some(t) = doc.node(i).tag()
                && (matches!(t, Tag::Table | Tag::Pre | Tag::Ul | Tag::Ol | Tag::Dl | Tag::Blockquote | Tag::Hr)
                    || t.is_heading())
            {
                return false;
            }
        }
        // Rows of this table only: `tr` children of the table or of its row groups.
        let mut rows: Vec<Vec<NodeId>> = Vec::new();
        let mut caption = None;
        for c in doc.children(id) {
            match doc.node(c).tag() {
                Some(Tag::Tr) => rows.push(cells(doc, c)),
                Some(Tag::Thead | Tag::Tbody | Tag::Tfoot) => {
                    rows.extend(doc.children(c).filter(|&r| doc.node(r).tag() == Some(Tag::Tr)).map(|r| cells(doc, r)))
                }
                Some(Tag::Caption) => caption = Some(c),
                _ => {}
            }
        }
        rows.retain(|r| !r.is_empty());
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        if cols < 2 || rows.len() * cols > MAX_TABLE_CELLS {
            return false;
        }
        // Text outside the rows (stray text in a table) would be lost.
        let in_cells: u32 = rows.iter().flatten().map(|&c| doc.node(c).stats.chars).sum();
        let in_caption = caption.map_or(0, |c| doc.node(c).stats.chars);
        if in_cells + in_caption != doc.node(id).stats.chars {
            return false;
        }
        self.flush();
        // The caption where the page has it, so the Markdown reads in the order of `content.text`: a
        // `<caption>` written after the rows is parsed there (HTML moves it into the table, after them).
        let caption_first = caption.filter(|&c| rows.first().and_then(|r| r.first()).is_none_or(|&cell| cell > c));
        if let Some(c) = caption_first {
            self.walk(c);
            self.flush();
        }
        let mut text = String::new();
        for (r, row) in rows.iter().enumerate() {
            text.push('|');
            for k in 0..cols {
                let cell = row.get(k).map(|&c| self.cell(c)).unwrap_or_default();
                text.push(' ');
                text.push_str(&cell);
                text.push_str(" |");
            }
            text.push('\n');
            if r == 0 {
                text.push('|');
                text.push_str(&" --- |".repeat(cols));
                text.push('\n');
            }
        }
        text.pop();
        self.block(&text);
        if let Some(c) = caption.filter(|_| caption_first.is_none()) {
            self.flush();
            self.walk(c);
            self.flush();
        }
        true
    }

    /// One table cell's content on one line.
    fn cell(&mut self, id: NodeId) -> String {
        let saved = std::mem::take(&mut self.inline);
        let saved_space = std::mem::replace(&mut self.space, false);
        let saved_code = self.last_code.take();
        self.flatten += 1;
        // The cell element itself would be a boundary: walk its children.
        let mut c = self.doc.node(id).first_child;
        while c != crate::dom::NONE {
            self.walk(c);
            c = self.doc.node(c).next_sibling;
        }
        self.flatten -= 1;
        let cell = std::mem::replace(&mut self.inline, saved);
        self.space = saved_space;
        self.last_code = saved_code;
        cell.trim().to_string()
    }
}

fn cells(doc: &Document, row: NodeId) -> Vec<NodeId> {
    doc.children(row).filter(|&c| matches!(doc.node(c).tag(), Some(Tag::Td | Tag::Th))).collect()
}

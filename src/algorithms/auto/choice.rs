//! `auto`'s choice as it is made, and the decision record it leaves. Every step that keeps or drops
//! text does so on one [`Choice`]: the chosen text nodes, and for each the step that last set it. At
//! the end, [`Choice::record`] reads the answer's roots and those stamps into one
//! [`Decision`] per block, which every view renders (see `contract::decision`).
//!
//! The stamps are a byte per node: the steps before the rules first, then the rules in the order they
//! first stamped, so that stamping costs no more than the choice itself. The choice knows the rules
//! by the names they stamp with, not by their table (`select/rules.rs`), which makes its changes on a
//! [`Choice`] and so sits above it.

use super::measure::Measured;
use super::segment::Blocks;
use crate::algorithms::contract::decision::{DecidedBy, Decision};
use crate::dom::{Document, NodeId};

/// A step, as stamped on a node: [`Stamp::THRESHOLD`] and its neighbours, then from
/// [`Stamp::RULES_FROM`] on the rules, by their place in the choice's list of rule names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stamp(u8);

impl Stamp {
    pub(super) const THRESHOLD: Stamp = Stamp(0);
    pub(super) const TYPE_THRESHOLD: Stamp = Stamp(1);
    pub(super) const COMMENT_THREAD: Stamp = Stamp(2);
    /// The stamp of the first rule that stamps.
    const RULES_FROM: u8 = 8;
    /// Rules a choice can tell apart: the stamps after [`Stamp::RULES_FROM`].
    const MAX_RULES: usize = (u8::MAX - Self::RULES_FROM) as usize;

    /// The step; `rules` names the rules by their place.
    fn decided_by(self, rules: &[&'static str]) -> DecidedBy {
        match self.0 {
            0 => DecidedBy::Threshold,
            1 => DecidedBy::TypeThreshold,
            2 => DecidedBy::CommentThread,
            k => rules
                .get(usize::from(k.saturating_sub(Self::RULES_FROM)))
                .map_or(DecidedBy::Threshold, |&name| DecidedBy::Rule(name)),
        }
    }
}

/// The chosen text nodes and who chose them, or the fallback the answer came from when no choice was
/// made.
pub(super) struct Choice {
    /// Per node id: the text is chosen. Empty when no choice was made (then `fallback` says why).
    pub(super) chosen: Vec<bool>,
    /// Per node id: the step that last set `chosen`.
    by: Vec<Stamp>,
    /// The answer's source when `chosen` is empty: no content, the small page, or the region.
    fallback: Option<DecidedBy>,
    /// The rules that stamped, by their names, in the order they first did ([`Choice::rule_stamp`]).
    rules: Vec<&'static str>,
}

impl Choice {
    /// The blocks at or above `threshold` (`stamp`), less what `drop_comments` then leaves out
    /// (stamped [`Stamp::COMMENT_THREAD`]).
    pub(super) fn by_threshold(
        doc: &Document,
        blocks: &Blocks,
        p: &[f64],
        threshold: f64,
        stamp: Stamp,
        drop_comments: impl FnOnce(&mut [bool]),
    ) -> Choice {
        let mut chosen = vec![false; doc.len()];
        for (b, &pr) in blocks.list.iter().zip(p) {
            if pr >= threshold {
                for &t in blocks.texts_of(b) {
                    chosen[t as usize] = true;
                }
            }
        }
        let mut choice = Choice { chosen, by: vec![stamp; doc.len()], fallback: None, rules: Vec::new() };
        choice.step(Stamp::COMMENT_THREAD, drop_comments);
        choice
    }

    /// No choice: the answer is `fallback`'s.
    pub(super) fn fallback(fallback: DecidedBy) -> Choice {
        Choice { chosen: Vec::new(), by: Vec::new(), fallback: Some(fallback), rules: Vec::new() }
    }

    /// Whether a choice was made (no fallback).
    pub(super) fn is_made(&self) -> bool {
        !self.chosen.is_empty()
    }

    /// The stamp of the rule called `name`: its place among the rules that stamped this choice.
    /// Past [`Stamp::MAX_RULES`] names (more than the table holds) a rule's changes read as the
    /// threshold's.
    pub(super) fn rule_stamp(&mut self, name: &'static str) -> Stamp {
        let k = match self.rules.iter().position(|&r| r == name) {
            Some(k) => k,
            None if self.rules.len() < Stamp::MAX_RULES => {
                self.rules.push(name);
                self.rules.len() - 1
            }
            None => return Stamp::THRESHOLD,
        };
        Stamp(Stamp::RULES_FROM + k as u8)
    }

    /// Run `f` on the choice and stamp what it changed with `stamp`.
    pub(super) fn step(&mut self, stamp: Stamp, f: impl FnOnce(&mut [bool])) {
        let before = self.chosen.clone();
        f(&mut self.chosen);
        self.stamp_changes(&before, stamp);
    }

    /// Stamp `stamp` on every node whose choice differs from `before`.
    pub(super) fn stamp_changes(&mut self, before: &[bool], stamp: Stamp) {
        for (i, (&now, &was)) in self.chosen.iter().zip(before).enumerate() {
            if now != was {
                self.by[i] = stamp;
            }
        }
    }

    /// Stamp `stamp` on the nodes `texts` (a step that says exactly what it changed).
    pub(super) fn stamp_nodes(&mut self, texts: &[NodeId], stamp: Stamp) {
        for &t in texts {
            self.by[t as usize] = stamp;
        }
    }

    /// The chosen flags and their stamps as they are, to go back to ([`Choice::restore`]).
    pub(super) fn snapshot(&self) -> (Vec<bool>, Vec<Stamp>) {
        (self.chosen.clone(), self.by.clone())
    }

    pub(super) fn restore(&mut self, (chosen, by): (Vec<bool>, Vec<Stamp>)) {
        self.chosen = chosen;
        self.by = by;
    }

    /// The record: one [`Decision`] per block of `m`, whether the answer (`roots`) holds its text,
    /// which step decided so and the record region it is in. `lead` is the roots before a page's
    /// answer was cut to its lead, when it was; `with_texts` fills each decision's text nodes.
    pub(super) fn record(
        &self,
        doc: &Document,
        m: &Measured,
        p: &[f64],
        roots: &[NodeId],
        lead: Option<&[NodeId]>,
        with_texts: bool,
    ) -> Vec<Decision> {
        let in_roots = |roots: &[NodeId]| {
            let mut inside = vec![false; doc.len()];
            for &r in roots {
                inside[r as usize..doc.node(r).end as usize].fill(true);
            }
            inside
        };
        let answer = in_roots(roots);
        let before_lead = lead.map(in_roots);
        // Whitespace between tags is part of a block's text nodes but not of its text.
        let has_text = |t: NodeId| doc.node(t).stats.chars > 0;
        let (blocks, regions) = (&m.blocks, &m.regions);
        blocks
            .list
            .iter()
            .zip(p)
            .enumerate()
            .map(|(k, (b, &probability))| {
                let texts = blocks.texts_of(b);
                let kept = texts.iter().any(|&t| answer[t as usize] && has_text(t));
                let decided_by = if let Some(fallback) = self.fallback {
                    fallback
                } else if before_lead
                    .as_ref()
                    .is_some_and(|was| !kept && texts.iter().any(|&t| was[t as usize] && has_text(t)))
                {
                    DecidedBy::Lead
                } else {
                    // A block partly left out was decided by the step that left that part out.
                    let dropped = texts.iter().find(|&&t| !answer[t as usize] && has_text(t));
                    let at = if kept { dropped.or(texts.first()) } else { texts.first() };
                    at.map_or(DecidedBy::Threshold, |&t| self.by[t as usize].decided_by(&self.rules))
                };
                Decision {
                    owner: b.owner,
                    texts: if with_texts { texts.to_vec() } else { Vec::new() },
                    chars: b.chars,
                    link_chars: b.link_chars,
                    probability,
                    kept,
                    decided_by,
                    region: regions.region_of(k).map(|(r, _)| r),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_stamp_of_its_own() {
        use crate::algorithms::auto::select::rules::RULES;
        assert!(RULES.len() <= Stamp::MAX_RULES);
        let mut choice = Choice::fallback(DecidedBy::NoContent);
        // In reverse: a rule's stamp is its place among those that stamped, not in the table.
        let stamps: Vec<Stamp> = RULES.iter().rev().map(|r| choice.rule_stamp(r.name)).collect();
        for (rule, stamp) in RULES.iter().rev().zip(&stamps) {
            assert_eq!(choice.rule_stamp(rule.name), *stamp, "a second stamp of {} is its first", rule.name);
            assert_eq!(stamp.decided_by(&choice.rules), DecidedBy::Rule(rule.name));
        }
        let names: Vec<&str> = DecidedBy::STEPS.iter().map(|s| s.name()).collect();
        for rule in RULES {
            assert!(!names.contains(&rule.name), "rule {} is named as a step", rule.name);
        }
    }
}

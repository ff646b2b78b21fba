//! `pith eval --site-context`: the same pages extracted without and with their site's template,
//! side by side. Only pages that had a template count (a site with at least `site::MIN_SITE_PAGES` pages in
//! its set); the table gives, per dataset and over all of them, the mean word-level LCS precision,
//! recall and F1 of those pages each way, and how many pages lost more than 0.05 F1.

use std::collections::HashMap;
use std::fmt::Write;

use super::PageResult;

/// A page's F1 may fall this much with the template before the page is counted as hurt.
const HURT_F1: f64 = 0.05;

#[derive(Debug, Default, Clone, Copy)]
struct Sums {
    pages: usize,
    without: [f64; 3],
    with: [f64; 3],
    hurt: usize,
    blocks_removed: u64,
}

impl Sums {
    fn add(&mut self, without: &PageResult, with: &PageResult) {
        let prf = |p: &PageResult| p.scores.as_ref().map_or([0.0; 3], |s| [s.lcs.p, s.lcs.r, s.lcs.f1]);
        let (a, b) = (prf(without), prf(with));
        self.pages += 1;
        for i in 0..3 {
            self.without[i] += a[i];
            self.with[i] += b[i];
        }
        self.hurt += usize::from(b[2] < a[2] - HURT_F1);
        self.blocks_removed += with.site_template.map_or(0, |t| u64::from(t.blocks_removed));
    }

    fn row(&self, name: &str, algorithm: &str, out: &mut String) {
        let n = self.pages.max(1) as f64;
        let m = |v: [f64; 3], i: usize| v[i] / n;
        let _ = writeln!(
            out,
            "{name:<18} {algorithm:<8} {:>5}  {:.3} {:.3} {:.3}  {:.3} {:.3} {:.3}  {:>+7.3} {:>+7.3}  {:>4} {:>7}",
            self.pages,
            m(self.without, 0),
            m(self.without, 1),
            m(self.without, 2),
            m(self.with, 0),
            m(self.with, 1),
            m(self.with, 2),
            m(self.with, 0) - m(self.without, 0),
            m(self.with, 2) - m(self.without, 2),
            self.hurt,
            self.blocks_removed,
        );
    }
}

/// The side-by-side table of two runs over the same pages, `with` run with `site_context`.
pub fn compare(without: &[PageResult], with: &[PageResult]) -> String {
    let before: HashMap<(&str, &str, &str), &PageResult> =
        without.iter().map(|p| ((p.dataset.as_str(), p.id.as_str(), p.algorithm.as_str()), p)).collect();
    let mut sets: Vec<((String, String), Sums)> = Vec::new();
    let mut all: HashMap<&str, Sums> = HashMap::new();
    for page in with.iter().filter(|p| p.site_template.is_some() && p.scores.is_some()) {
        let Some(old) = before.get(&(page.dataset.as_str(), page.id.as_str(), page.algorithm.as_str())) else {
            continue;
        };
        let key = (page.dataset.clone(), page.algorithm.clone());
        match sets.iter_mut().find(|(k, _)| *k == key) {
            Some((_, s)) => s.add(old, page),
            None => {
                let mut s = Sums::default();
                s.add(old, page);
                sets.push((key, s));
            }
        }
        all.entry(page.algorithm.as_str()).or_default().add(old, page);
    }
    let mut out = String::from(
        "Site context (pages of sites with 3+ pages in their set; word-level LCS, mean per page)\n\
         dataset            algo     pages  without P/R/F1     with P/R/F1        dP      dF1     hurt removed\n",
    );
    for ((set, algorithm), s) in &sets {
        s.row(set, algorithm, &mut out);
    }
    let mut algorithms: Vec<_> = all.into_iter().collect();
    algorithms.sort_by(|a, b| a.0.cmp(b.0));
    for (algorithm, s) in algorithms {
        s.row("all", algorithm, &mut out);
    }
    let _ = writeln!(out, "hurt: pages whose F1 fell by more than {HURT_F1}; removed: blocks the templates left out");
    out
}

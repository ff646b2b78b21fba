//! The page-type tables of a report: bag-of-words F1 by labelled type, the confusion matrix with each
//! type's precision and recall, and the calibration of each type's probability.

use super::table::{Table, f2d, f3, strings};
use crate::lab::eval::{AlgorithmReport, Report};

/// For each dataset that labels page types: the bag-of-words F1 of every algorithm by type, with the
/// snippet rates, laid out like the peers' table for the multi-type benchmark.
pub(super) fn type_tables(r: &Report) -> Vec<Table> {
    let mut sets: Vec<&str> = Vec::new();
    for s in r.algorithms.iter().flat_map(|a| &a.by_type) {
        if !sets.contains(&s.dataset.as_str()) {
            sets.push(&s.dataset);
        }
    }
    sets.into_iter()
        .map(|ds| {
            let types: Vec<&str> = crate::lab::dataset::PAGE_TYPES
                .into_iter()
                .filter(|t| {
                    r.algorithms
                        .iter()
                        .any(|a| a.by_type.iter().any(|s| s.dataset == ds && s.page_type.as_deref() == Some(*t)))
                })
                .collect();
            let mut header = strings(&["algorithm", "F1", "P", "R", "with", "without"]);
            header.extend(types.iter().map(|t| {
                let n = r.algorithms.first().and_then(|a| {
                    a.by_type.iter().find(|s| s.dataset == ds && s.page_type.as_deref() == Some(*t)).map(|s| s.pages)
                });
                format!("{t} ({})", n.unwrap_or(0))
            }));
            let rows = r
                .algorithms
                .iter()
                .map(|a| {
                    let all = a.datasets.iter().find(|s| s.dataset == ds);
                    let mut row = vec![
                        a.algorithm.clone(),
                        f3(all.and_then(|s| s.word_f1)),
                        f3(all.and_then(|s| s.word_p)),
                        f3(all.and_then(|s| s.word_r)),
                        f2d(all.and_then(|s| s.with_rate)),
                        f2d(all.and_then(|s| s.without_rate)),
                    ];
                    row.extend(types.iter().map(|t| {
                        f3(a.by_type
                            .iter()
                            .find(|s| s.dataset == ds && s.page_type.as_deref() == Some(*t))
                            .and_then(|s| s.word_f1))
                    }));
                    row
                })
                .collect();
            Table { title: format!("{ds}: bag-of-words F1 by page type (pages)"), header, rows }
        })
        .collect()
}

/// Page-type accuracy and the confusion matrix (rows: labelled type, columns: answered type), per
/// dataset that labels types.
pub(super) fn confusion_tables(a: &AlgorithmReport) -> Vec<Table> {
    use crate::lab::dataset::PAGE_TYPES;
    a.page_types
        .iter()
        .map(|s| {
            let mut header = strings(&["labelled \\ answered"]);
            header.extend(PAGE_TYPES.iter().map(|t| t.to_string()));
            header.push("recall".to_string());
            let rows = PAGE_TYPES
                .iter()
                .enumerate()
                .map(|(g, t)| {
                    let n: usize = s.confusion[g].iter().sum();
                    let mut row = vec![format!("{t} ({n})")];
                    row.extend(s.confusion[g].iter().map(|c| c.to_string()));
                    row.push(f3(s.recall.get(g).copied().flatten()));
                    row
                })
                .chain(std::iter::once({
                    let mut row = vec!["precision".to_string()];
                    row.extend((0..PAGE_TYPES.len()).map(|k| f3(s.precision.get(k).copied().flatten())));
                    row.push(String::new());
                    row
                }))
                .collect();
            Table {
                title: format!(
                    "{}: {} page types, accuracy {} over {} pages (rows labelled, columns answered)",
                    a.algorithm,
                    s.dataset,
                    f3(s.accuracy),
                    s.pages
                ),
                header,
                rows,
            }
        })
        .collect()
}

/// Per dataset that labels types: each type's probability against its label (one type against the
/// rest), over the labelled pages whose answer gave probabilities; the diagrams are in `--report`.
pub(super) fn calibration_tables(a: &AlgorithmReport) -> Vec<Table> {
    a.page_types
        .iter()
        .filter(|s| s.calibration.iter().any(|c| c.pages > 0))
        .map(|s| {
            let header = strings(&["type", "pages", "labelled so", "precision", "recall", "Brier", "ECE"]);
            let rows = s
                .calibration
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    vec![
                        c.page_type.clone(),
                        c.pages.to_string(),
                        c.positives.to_string(),
                        f3(s.precision.get(k).copied().flatten()),
                        f3(s.recall.get(k).copied().flatten()),
                        f3(c.brier),
                        f3(c.ece),
                    ]
                })
                .collect();
            Table {
                title: format!("{}: {} page-type probabilities (one type against the rest)", a.algorithm, s.dataset),
                header,
                rows,
            }
        })
        .collect()
}

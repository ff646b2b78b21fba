//! The table every text and markdown report is built of, and the cell formats its figures use.

/// A table: a title, a header row and body rows of preformatted cells.
pub(super) struct Table {
    pub(super) title: String,
    pub(super) header: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
}

pub(super) fn f3(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.3}"))
}

pub(super) fn f1d(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.1}"))
}

pub(super) fn f2d(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.2}"))
}

pub(super) fn strings(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|s| s.to_string()).collect()
}

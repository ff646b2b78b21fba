//! Rendering a [`Report`]: aligned text for a terminal, markdown for `docs/EVALUATION.md`, JSON for
//! machines. Text and markdown share one table builder, so the two always show the same figures.

use std::fmt::Write;

mod page_types;
mod table;

use super::{AlgorithmReport, Report, Summary};
use crate::error::Error;
use page_types::{calibration_tables, confusion_tables, type_tables};
use table::{Table, f1d, f2d, f3, strings};

/// Output formats of `pith eval`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Markdown,
    Json,
}

/// The rows of one algorithm's report: each dataset, then macro and micro.
fn rows(a: &AlgorithmReport) -> impl Iterator<Item = &Summary> {
    a.datasets.iter().chain([&a.macro_avg, &a.micro])
}

fn summary_table(r: &Report) -> Table {
    let header = strings(&[
        "algorithm",
        "LCS F1",
        "CleanEval",
        "length F1",
        "shingle F1",
        "shingle F1 (micro)",
        "acc ≥.95",
        "excellent",
        "good",
        "has-article acc",
        "ECE",
        "median ms",
        "wall pages/s",
    ]);
    let rows = r
        .algorithms
        .iter()
        .map(|a| {
            let (m, u) = (&a.macro_avg, &a.micro);
            vec![
                a.algorithm.clone(),
                f3(m.lcs_f1),
                f3(m.cleaneval),
                f3(m.length_f1),
                f3(m.shingle_f1),
                f3(u.shingle_f1),
                f3(m.accurate_rate),
                f3(m.excellent_rate),
                f3(m.good_rate),
                f3(m.has_article.accuracy),
                f3(m.has_article.ece),
                f2d(u.ms_median),
                f1d(u.wall_pages_per_s),
            ]
        })
        .collect();
    Table {
        title: "All datasets: macro averages (median ms and wall pages/s over all pages)".to_string(),
        header,
        rows,
    }
}

/// One metric, algorithms down and datasets across, like the peers' table in `anchors.md`.
fn by_dataset_table(r: &Report, title: &str, metric: &dyn Fn(&Summary) -> Option<f64>) -> Table {
    let mut header = vec!["algorithm".to_string()];
    header.extend(r.datasets.iter().cloned());
    header.extend(["macro".to_string(), "micro".to_string()]);
    let rows = r
        .algorithms
        .iter()
        .map(|a| {
            let mut row = vec![a.algorithm.clone()];
            row.extend(rows(a).map(|s| f3(metric(s))));
            row
        })
        .collect();
    Table { title: title.to_string(), header, rows }
}

fn text_table(a: &AlgorithmReport) -> Table {
    let header = strings(&[
        "dataset",
        "pages",
        "gold",
        "errors",
        "LCS P",
        "LCS R",
        "LCS F1",
        "CleanEval",
        "len P",
        "len R",
        "len F1",
        "shingle P",
        "shingle R",
        "shingle F1",
    ]);
    let rows = rows(a)
        .map(|s| {
            vec![
                s.dataset.clone(),
                s.pages.to_string(),
                s.gold_pages.to_string(),
                s.errors.to_string(),
                f3(s.lcs_p),
                f3(s.lcs_r),
                f3(s.lcs_f1),
                f3(s.cleaneval),
                f3(s.length_p),
                f3(s.length_r),
                f3(s.length_f1),
                f3(s.shingle_p),
                f3(s.shingle_r),
                f3(s.shingle_f1),
            ]
        })
        .collect();
    Table { title: format!("{}: text", a.algorithm), header, rows }
}

fn judgement_table(a: &AlgorithmReport) -> Table {
    let header = strings(&[
        "dataset",
        "acc ≥.95",
        "rate",
        "excellent",
        "good",
        "poor",
        "excellent rate",
        "good rate",
        "labelled",
        "HA acc",
        "HA P",
        "HA R",
        "HA F1",
        "AUC",
        "Brier",
        "ECE",
    ]);
    let rows = rows(a)
        .map(|s| {
            let h = &s.has_article;
            vec![
                s.dataset.clone(),
                s.accurate.to_string(),
                f3(s.accurate_rate),
                s.excellent.to_string(),
                s.good.to_string(),
                s.poor.to_string(),
                f3(s.excellent_rate),
                f3(s.good_rate),
                h.n.to_string(),
                f3(h.accuracy),
                f3(h.precision),
                f3(h.recall),
                f3(h.f1),
                f3(h.auc),
                f3(h.brier),
                f3(h.ece),
            ]
        })
        .collect();
    Table { title: format!("{}: page grades and has-article", a.algorithm), header, rows }
}

fn speed_table(a: &AlgorithmReport) -> Table {
    let header = strings(&[
        "dataset",
        "input MB",
        "median ms",
        "p95 ms",
        "pages/s (1 thread)",
        "MB/s (1 thread)",
        "wall pages/s",
    ]);
    let rows = rows(a)
        .map(|s| {
            vec![
                s.dataset.clone(),
                format!("{:.1}", s.input_mb),
                f2d(s.ms_median),
                f2d(s.ms_p95),
                f1d(s.pages_per_s),
                f2d(s.mb_per_s),
                f1d(s.wall_pages_per_s),
            ]
        })
        .collect();
    Table { title: format!("{}: speed", a.algorithm), header, rows }
}

/// A table of the datasets that have the figures `cells` reads, then all pages pooled (`micro`); none
/// when no dataset has them. Each row starts with the dataset's name.
fn pooled_table(
    a: &AlgorithmReport,
    title: String,
    header: &[&str],
    cells: impl Fn(&Summary) -> Option<Vec<String>>,
) -> Option<Table> {
    let rows: Vec<Vec<String>> = a
        .datasets
        .iter()
        .chain([&a.micro])
        .filter_map(|s| cells(s).map(|c| [vec![s.dataset.clone()], c].concat()))
        .collect();
    (!rows.is_empty()).then(|| Table { title, header: strings(header), rows })
}

/// Metadata against the recorded title, author and date: exact share and coverage per field, for the
/// datasets that record them.
fn metadata_table(a: &AlgorithmReport) -> Option<Table> {
    let header = [
        "dataset",
        "title exact",
        "title found",
        "author exact",
        "author found",
        "date exact",
        "date found",
        "pages (title/author/date)",
        "author spurious",
        "date spurious",
        "pages showing none (author/date)",
    ];
    let title = format!(
        "{}: metadata (exact after normalising; found = coverage; spurious = found where the page shows none)",
        a.algorithm
    );
    pooled_table(a, title, &header, |s| {
        let m = s.metadata.as_ref()?;
        Some(vec![
            f3(m.title.exact_rate),
            f3(m.title.coverage),
            f3(m.author.exact_rate),
            f3(m.author.coverage),
            f3(m.date.exact_rate),
            f3(m.date.coverage),
            format!("{}/{}/{}", m.title.gold, m.author.gold, m.date.gold),
            f3(m.author.spurious_rate),
            f3(m.date.spurious_rate),
            format!("{}/{}", m.author.absent, m.date.absent),
        ])
    })
}

/// The URL withheld (`--url-ablation`): how often each answer stayed the same, for the datasets whose
/// pages have URLs.
fn ablation_table(a: &AlgorithmReport) -> Option<Table> {
    let header = ["dataset", "pages with url", "verdict same", "type same", "text same", "all same", "text F1 mean"];
    let title = format!(
        "{}: the URL withheld (agreement with the answer given with it; text same = word F1 >= {})",
        a.algorithm,
        crate::lab::eval::ablation::SAME_TEXT_F1
    );
    pooled_table(a, title, &header, |s| {
        let u = s.url_ablation.as_ref()?;
        Some(vec![
            u.pages.to_string(),
            f3(Some(u.verdict_agreement)),
            f3(Some(u.type_agreement)),
            f3(Some(u.text_agreement)),
            f3(Some(u.all_agreement)),
            f3(Some(u.mean_text_f1)),
        ])
    })
}

fn tables(r: &Report) -> Vec<Table> {
    let mut out = vec![
        summary_table(r),
        by_dataset_table(r, "Industry benchmark F1 (4-word shingles) by dataset", &|s| s.shingle_f1),
        by_dataset_table(r, "Word-level LCS F1 (Sun, Song & Liao) by dataset", &|s| s.lcs_f1),
        by_dataset_table(r, "Bag-of-words F1, mean of pages (multi-type benchmark) by dataset", &|s| s.word_f1),
        by_dataset_table(r, "Has-article accuracy by dataset", &|s| s.has_article.accuracy),
    ];
    if r.algorithms.iter().any(|a| a.micro.snippets.is_some()) {
        out.push(by_dataset_table(
            r,
            "Snippet F1 (the many-language corpus's metric, counts summed) by dataset",
            &|s| s.snippets.and_then(|x| x.f1),
        ));
    }
    out.extend(type_tables(r));
    for a in &r.algorithms {
        out.extend([text_table(a), judgement_table(a), speed_table(a)]);
        out.extend(snippet_table(a));
        out.extend(language_table(a));
        out.extend(confusion_tables(a));
        out.extend(calibration_tables(a));
        if a.micro.render_ms_median.is_some() {
            out.push(render_table(a));
        }
        out.extend(metadata_table(a));
        out.extend(ablation_table(a));
    }
    out
}

/// The many-language corpus's snippet metric ([`super::snippets`]) for the datasets with snippets.
fn snippet_table(a: &AlgorithmReport) -> Option<Table> {
    let header =
        ["dataset", "pages", "with found", "with missed", "without found", "without absent", "P", "R", "acc", "F1"];
    let title =
        format!("{}: snippets (with found = true positive, without found = false positive; summed)", a.algorithm);
    pooled_table(a, title, &header, |s| {
        let x = s.snippets?;
        let c = x.counts;
        Some(vec![
            x.pages.to_string(),
            c.tp.to_string(),
            c.fn_.to_string(),
            c.fp.to_string(),
            c.tn.to_string(),
            f3(x.precision),
            f3(x.recall),
            f3(x.accuracy),
            f3(x.f1),
        ])
    })
}

/// Every figure per language over all datasets ([`super::language`]): the languages with most pages
/// first; a dataset's `lang` where it labels one, else detected.
fn language_table(a: &AlgorithmReport) -> Option<Table> {
    if a.by_lang.is_empty() {
        return None;
    }
    let header = strings(&[
        "lang",
        "pages",
        "datasets",
        "gold",
        "LCS P",
        "LCS R",
        "LCS F1",
        "snippet pages",
        "snippet P",
        "snippet R",
        "snippet F1",
        "HA labelled",
        "HA acc",
    ]);
    let rows = a
        .by_lang
        .iter()
        .map(|s| {
            let sn = s.snippets.unwrap_or_default();
            vec![
                s.lang.clone().unwrap_or_default(),
                s.pages.to_string(),
                s.dataset.clone(),
                s.gold_pages.to_string(),
                f3(s.lcs_p),
                f3(s.lcs_r),
                f3(s.lcs_f1),
                sn.pages.to_string(),
                f3(s.snippets.and_then(|x| x.precision)),
                f3(s.snippets.and_then(|x| x.recall)),
                f3(s.snippets.and_then(|x| x.f1)),
                s.has_article.n.to_string(),
                f3(s.has_article.accuracy),
            ]
        })
        .collect();
    Some(Table { title: format!("{}: by language (all datasets)", a.algorithm), header, rows })
}

/// Browser time per page, for the algorithms that rendered.
fn render_table(a: &AlgorithmReport) -> Table {
    let header = strings(&["dataset", "pages", "render median ms", "render p95 ms", "wall pages/s"]);
    let rows = rows(a)
        .map(|s| {
            vec![
                s.dataset.clone(),
                s.pages.to_string(),
                f1d(s.render_ms_median),
                f1d(s.render_ms_p95),
                f2d(s.wall_pages_per_s),
            ]
        })
        .collect();
    Table { title: format!("{}: rendering", a.algorithm), header, rows }
}

fn markdown(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} pages in {} datasets, {} algorithms, {} jobs: {:.1} s wall clock.\n",
        r.algorithms.first().map_or(0, |a| a.micro.pages),
        r.datasets.len(),
        r.algorithms.len(),
        r.jobs,
        r.wall_s
    );
    for t in tables(r) {
        let _ = writeln!(out, "### {}\n", t.title);
        let _ = writeln!(out, "| {} |", t.header.join(" | "));
        let align: Vec<&str> = (0..t.header.len()).map(|k| if k == 0 { "---" } else { "---:" }).collect();
        let _ = writeln!(out, "|{}|", align.join("|"));
        for row in &t.rows {
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        out.push('\n');
    }
    out
}

fn text(r: &Report) -> String {
    let mut out = String::new();
    for t in tables(r) {
        let mut width: Vec<usize> = t.header.iter().map(|h| h.chars().count()).collect();
        for row in &t.rows {
            for (w, c) in width.iter_mut().zip(row) {
                *w = (*w).max(c.chars().count());
            }
        }
        let _ = writeln!(out, "{}", t.title);
        for row in std::iter::once(&t.header).chain(&t.rows) {
            let mut line = String::new();
            for (k, (c, w)) in row.iter().zip(&width).enumerate() {
                let pad = w - c.chars().count();
                if k == 0 {
                    let _ = write!(line, "{c}{}", " ".repeat(pad));
                } else {
                    let _ = write!(line, "  {}{c}", " ".repeat(pad));
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out.push('\n');
    }
    let _ = writeln!(out, "wall clock {:.1} s with {} jobs", r.wall_s, r.jobs);
    out
}

/// Render the report in `format`.
pub fn render(r: &Report, format: Format) -> Result<String, Error> {
    Ok(match format {
        Format::Table => text(r),
        Format::Markdown => markdown(r),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(r).map_err(|e| Error::Config(e.to_string()))?;
            s.push('\n');
            s
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::{PageResult, macro_average, metrics, summarize, type_scores};
    use super::*;

    fn report() -> Report {
        let g = metrics::Gold::new("one two three four five");
        let page = PageResult {
            bytes: 10,
            ms: Some(1.5),
            has_article: Some(true),
            page_type: Some("article".into()),
            predicted_type: Some("article".into()),
            with_rate: Some(0.5),
            probability: 0.9,
            is_article: true,
            scores: Some(metrics::score(&g.predicted("one two three four"), &g.words)),
            ..PageResult::blank("set", "1", "auto")
        };
        let s = summarize("set", "auto", std::slice::from_ref(&page), 0.1);
        let forum = PageResult {
            id: "2".into(),
            page_type: Some("forum".into()),
            predicted_type: Some("article".into()),
            ..page.clone()
        };
        let a = AlgorithmReport {
            page_types: type_scores(&[page.clone(), forum]),
            algorithm: "auto".into(),
            macro_avg: macro_average("auto", std::slice::from_ref(&s)),
            micro: summarize("micro", "auto", std::slice::from_ref(&page), 0.1),
            by_type: super::super::by_type("auto", std::slice::from_ref(&page)),
            by_lang: super::super::by_lang("auto", &[page]),
            datasets: vec![s],
        };
        Report { datasets: vec!["set".into()], jobs: 1, wall_s: 0.2, algorithms: vec![a] }
    }

    #[test]
    fn formats_show_the_same_figures() {
        let r = report();
        // LCS F1 = 2·1·0.8/1.8 = 0.889.
        let md = render(&r, Format::Markdown).unwrap();
        assert!(md.contains("| auto | 0.889 |"), "{md}");
        assert!(md.contains("|---|---:|"));
        let t = render(&r, Format::Table).unwrap();
        assert!(t.contains("0.889"));
        let j: serde_json::Value = serde_json::from_str(&render(&r, Format::Json).unwrap()).unwrap();
        let f1 = j["algorithms"][0]["macro"]["lcs_f1"].as_f64().unwrap();
        assert!((f1 - 0.8 * 2.0 / 1.8).abs() < 1e-12);
        // One of two typed pages right; the forum page answered as an article.
        assert!(t.contains("accuracy 0.500 over 2 pages"), "{t}");
        assert_eq!(j["algorithms"][0]["page_types"][0]["confusion"][1][0], 1);
        assert!(md.contains("| forum (1) | 1 | 0 |"), "{md}");
        // Two pages answered as articles, one of them labelled so.
        assert!(md.contains("| precision | 0.500 | – |"), "{md}");
        assert!(md.contains("### auto: by language (all datasets)"), "{md}");
        assert!(md.contains("| en | 1 | set | 1 |"), "{md}");
    }
}

//! Writing the report: the page to its file and the worst pages' explanation pages, extracted
//! again, to `<stem>-explain/` beside it, under names and links safe whatever the pages hold.

use std::collections::HashSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use super::{Worst, render, worst};
use crate::lab::eval::anchors::Anchors;
use crate::lab::eval::{PageResult, Report};
use crate::{engine::Engine, error::Error};

/// A file name from page-derived text: only `[A-Za-z0-9._-]`, anything else `_`.
fn file_part(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' }).collect()
}

/// Percent-encode a path segment for an `href` (the report's own file name may hold anything).
fn href_part(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Write the report to `path` and the explanation pages of each algorithm's `worst_n` worst pages to
/// `<stem>-explain/` beside it, extracted again by `engine`. `dirs` are the evaluated datasets'
/// directories, in the report's order.
pub fn write(
    path: &Path,
    r: &Report,
    pages: &[PageResult],
    dirs: &[PathBuf],
    engine: &Engine,
    worst_n: usize,
    note: Option<&str>,
) -> Result<(), Error> {
    let anchors = Anchors::embedded()?;
    let stem = path.file_stem().map_or_else(|| "report".to_string(), |s| s.to_string_lossy().into_owned());
    let folder = format!("{stem}-explain");
    let explain_dir = path.with_file_name(&folder);
    let sets = dirs.iter().map(|d| crate::lab::dataset::Dataset::open(d)).collect::<Result<Vec<_>, _>>()?;
    let mut lists: Vec<Vec<Worst<'_>>> =
        r.algorithms.iter().map(|a| worst(pages, &anchors, &a.algorithm, worst_n)).collect();
    if lists.iter().any(|l| !l.is_empty()) {
        std::fs::create_dir_all(&explain_dir)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot create {}: {e}", explain_dir.display())))?;
    }
    let mut used = HashSet::new();
    for w in lists.iter_mut().flatten() {
        let p = w.page;
        let found =
            sets.iter().find(|d| d.name == p.dataset).and_then(|d| Some((d, d.pages.iter().find(|x| x.id == p.id)?)));
        let Some((ds, page)) = found else { continue };
        w.url = page.url.clone();
        let Some(html) = explanation(ds, page, engine, p) else { continue };
        let base = file_part(&format!("{}-{}-{}", p.algorithm, p.dataset, p.id));
        let mut name = format!("{base}.html");
        let mut k = 2;
        while !used.insert(name.clone()) {
            name = format!("{base}-{k}.html");
            k += 1;
        }
        let file = explain_dir.join(&name);
        std::fs::write(&file, html)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", file.display())))?;
        w.href = Some(format!("{}/{name}", href_part(&folder)));
    }
    let page = render(r, pages, &anchors, &lists, note);
    std::fs::write(path, page)
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
    Ok(())
}

/// The explanation page of one evaluated page, or `None` when it cannot be made (the page failed to
/// extract, its file is gone, its algorithm is unknown): the report then shows the error instead.
fn explanation(
    ds: &crate::lab::dataset::Dataset,
    page: &crate::lab::dataset::LabelledPage,
    engine: &Engine,
    p: &PageResult,
) -> Option<String> {
    if p.error.is_some() {
        return None;
    }
    let bytes = ds.html(page).ok()?;
    let algorithm: crate::algorithms::Algorithm = p.algorithm.parse().ok()?;
    let options = crate::engine::Options {
        explain: Some(crate::output::Explain::Page),
        ..crate::engine::Options::for_algorithm(algorithm)
    };
    let req =
        crate::engine::Request { url: page.url.as_deref(), ..crate::engine::Request::with_options(&bytes, options) };
    engine.extract(&req).ok()?.content.explain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_and_href_parts_are_safe() {
        assert_eq!(file_part("auto-zh/gne-../x y"), "auto-zh_gne-.._x_y");
        assert_eq!(href_part("my report"), "my%20report");
    }
}

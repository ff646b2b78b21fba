//! pith's tokenizer against html5ever's own, tree for tree: every shipped page and fixture, and every
//! page of every dataset in `../shared/datasets` (as decoded, scripts and all, and as handed to the
//! parser after pre-strip). Without the datasets that part is skipped on a developer's machine and
//! fails when `CI` is set.

#[path = "common/datasets.rs"]
mod shared_datasets;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

fn agree(label: &str, html: &str) -> Option<String> {
    pith::internals::tokenizers_agree(html).err().map(|e| format!("{label}: {e}"))
}

/// Where the two tokenizers' trees differ for a page: as decoded and as pre-strip hands it to the
/// parser (a page that does not decode or pre-strip: its bytes read as UTF-8, replacement characters
/// and all).
fn differences(label: &str, bytes: &[u8]) -> Vec<String> {
    let texts = pith::internals::decode(bytes, None).ok().and_then(|decoded| {
        let stripped = pith::internals::prestrip(&decoded.text, pith::internals::UNBOUNDED).ok()?;
        Some((decoded.text, stripped.html.to_string()))
    });
    match texts {
        Some((decoded, stripped)) => [agree(label, &decoded), agree(&format!("{label} (pre-stripped)"), &stripped)]
            .into_iter()
            .flatten()
            .collect(),
        None => agree(label, &String::from_utf8_lossy(bytes)).into_iter().collect(),
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn read_page(p: &Path) -> Vec<u8> {
    let raw = std::fs::read(p).unwrap();
    if p.extension().is_some_and(|e| e == "gz") {
        use std::io::Read;
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out).unwrap();
        out
    } else {
        raw
    }
}

#[test]
fn the_same_trees_on_every_shipped_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&root.join("tests/fixtures"), &mut files);
    files_under(&root.join("benches/pages"), &mut files);
    files.retain(|p| {
        let name = p.to_string_lossy();
        name.ends_with(".html") || name.ends_with(".htm") || name.ends_with(".html.gz")
    });
    assert!(files.len() > 20, "found only {} pages", files.len());
    let failures: Vec<String> = files
        .par_iter()
        .flat_map_iter(|p| differences(&p.strip_prefix(root).unwrap_or(p).display().to_string(), &read_page(p)))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_same_trees_on_every_dataset_page() {
    let Some(dirs) = shared_datasets::dirs() else { return };
    let mut pages = 0;
    let mut failures = Vec::new();
    for dir in dirs {
        let ds = pith::lab::dataset::Dataset::open(&dir).unwrap();
        let found: Vec<String> = ds
            .pages
            .par_iter()
            .flat_map_iter(|p| differences(&format!("{}/{}", ds.name, p.id), &ds.html(p).unwrap()))
            .collect();
        failures.extend(found);
        pages += ds.pages.len();
    }
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.join("\n\n"));
    eprintln!("{pages} pages: the same trees from both tokenizers");
}

//! The developer datasets beside the project (`../shared/datasets`), for the tests that read every page.

use std::path::{Path, PathBuf};

/// Every dataset directory (one with a `pages.jsonl`), sorted. `None`, with a note on standard error,
/// when the datasets are missing on a developer's machine; a panic when `CI` is set, since CI runs
/// beside them and a missing directory there is a broken checkout, not a skip.
pub fn dirs() -> Option<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    let entries = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI is set but {} is unreadable: {e}", root.display()),
        Err(_) => {
            eprintln!("skipped: no datasets at {} (set CI to make this a failure)", root.display());
            return None;
        }
    };
    let mut dirs: Vec<_> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.join("pages.jsonl").exists()).collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no datasets found under {}", root.display());
    Some(dirs)
}

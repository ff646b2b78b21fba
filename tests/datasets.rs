//! Every algorithm over every page of every dataset in `../shared/datasets`: no error, no panic.
//! Binary or empty pages may be refused with a clear error; anything else must extract. Without the
//! datasets the test is skipped on a developer's machine, and fails when `CI` is set.

use std::path::Path;

use rayon::prelude::*;

#[test]
fn every_algorithm_on_every_dataset_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    let entries = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        // CI runs beside shared/, so a missing directory there is a broken checkout, not a skip.
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI is set but {} is unreadable: {e}", root.display()),
        Err(_) => {
            eprintln!("skipped: no datasets at {} (set CI to make this a failure)", root.display());
            return;
        }
    };
    let mut dirs: Vec<_> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.join("pages.jsonl").exists()).collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no datasets found under {}", root.display());
    let engine = pith::Engine::with_defaults().unwrap();
    // The visual methods need a browser per page; tests/render.rs covers them on fixture pages.
    let names: Vec<&str> = pith::algorithms::names()
        .into_iter()
        .filter(|&n| n != "template" && !n.parse::<pith::Algorithm>().unwrap().needs().layout)
        .collect();
    let mut pages = 0;
    for dir in dirs {
        let ds = pith::dataset::Dataset::open(&dir).unwrap();
        let failures: Vec<String> = ds
            .pages
            .par_iter()
            .flat_map_iter(|p| {
                let bytes = ds.html(p).unwrap();
                names
                    .iter()
                    .filter_map(|&name| {
                        let req = pith::Request {
                            url: p.url.as_deref(),
                            algorithm: name.parse().unwrap(),
                            ..pith::Request::new(&bytes)
                        };
                        match engine.extract(&req) {
                            Ok(_) | Err(pith::Error::EmptyInput | pith::Error::BinaryInput(_)) => None,
                            Err(e) => Some(format!("{}/{} {name}: {e}", ds.name, p.id)),
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        assert!(failures.is_empty(), "{failures:#?}");
        pages += ds.pages.len();
    }
    eprintln!("{pages} pages × {} algorithms extracted", names.len());
}

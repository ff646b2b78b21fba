//! Every algorithm over every page of every dataset in `../shared/datasets`: no error, no panic.
//! Binary or empty pages may be refused with a clear error; anything else must extract. Without the
//! datasets the test is skipped on a developer's machine, and fails when `CI` is set.

#[path = "common/datasets.rs"]
mod shared_datasets;

use rayon::prelude::*;

#[test]
fn every_algorithm_on_every_dataset_page() {
    let Some(dirs) = shared_datasets::dirs() else { return };
    let engine = pith::Engine::with_defaults().unwrap();
    // The visual methods need a browser per page; tests/render.rs covers them on fixture pages.
    let names: Vec<&str> = pith::algorithms::names()
        .into_iter()
        .filter(|&n| n != "template" && !n.parse::<pith::Algorithm>().unwrap().needs().layout)
        .collect();
    let mut pages = 0;
    for dir in dirs {
        let ds = pith::lab::dataset::Dataset::open(&dir).unwrap();
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
                            ..pith::Request::with_options(&bytes, pith::Options::for_algorithm(name.parse().unwrap()))
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

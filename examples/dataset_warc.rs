//! Pack labelled datasets into one WARC.gz, one gzip member per `response` record (as crawlers write
//! them), to measure `pith batch` on an archive of real pages:
//!
//! ```sh
//! cargo run --release --example dataset_warc -- /tmp/datasets.warc.gz ../shared/datasets/*/
//! pith batch --output /tmp/out.jsonl /tmp/datasets.warc.gz
//! ```
//!
//! Each page is stored as served: its bytes unchanged, under its URL (or `urn:pith:DATASET/ID` when
//! the dataset has none), with a `Content-Type: text/html` that names no charset, so decoding rests on
//! the page itself as it would for a server that sends none.

use std::io::Write;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [out, datasets @ ..] = &args[..] else {
        return Err("usage: dataset_warc OUT.warc.gz DATASET_DIR...".into());
    };
    if datasets.is_empty() {
        return Err("usage: dataset_warc OUT.warc.gz DATASET_DIR...".into());
    }
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let (mut records, mut bytes) = (0u64, 0u64);
    for dir in datasets {
        let ds = pith::lab::dataset::Dataset::open(Path::new(dir))?;
        for page in &ds.pages {
            let body = ds.html(page)?;
            let mut http =
                format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n", body.len())
                    .into_bytes();
            http.extend_from_slice(&body);
            let uri = page.url.clone().unwrap_or_else(|| format!("urn:pith:{}/{}", ds.name, page.id));
            let mut record = Vec::with_capacity(http.len() + 512);
            pith::batch::warc::write_response(
                &mut record,
                &uri,
                &http,
                &format!("urn:pith:record:{}/{}", ds.name, page.id),
            )?;
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(&record)?;
            file.write_all(&gz.finish()?)?;
            records += 1;
            bytes += body.len() as u64;
        }
    }
    file.flush()?;
    eprintln!("{out}: {records} response records, {:.1} MB of pages", bytes as f64 / 1e6);
    Ok(())
}

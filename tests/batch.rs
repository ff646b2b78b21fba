//! `pith batch` over a WARC.gz archive the test builds from the fixture pages, plus a directory of
//! files: one JSON line per record, the HTTP header's charset honoured, errors as lines, non-HTML
//! records skipped, and a second run over the same output resuming (nothing written twice).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn fixture(p: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(p)).expect("fixture")
}

fn http(status: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut h = format!("HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n", body.len())
        .into_bytes();
    h.extend_from_slice(body);
    h
}

/// The GBK fixture behind a `<meta>` that declares the wrong charset.
fn mislabelled_gbk() -> Vec<u8> {
    let mut page = b"<meta charset=windows-1252>".to_vec();
    page.extend(fixture("charsets/gbk.nometa.html"));
    page
}

/// A gzipped WARC, one gzip member per record as crawlers write them.
fn build_warc(path: &Path) {
    let records: Vec<(&str, Vec<u8>)> = vec![
        ("https://news.example/article", http("200 OK", "text/html; charset=utf-8", &fixture("pages/article.html"))),
        // The page's <meta> wrongly says windows-1252; the HTTP header's GBK wins, as in a browser.
        ("https://news.example/gbk", http("200 OK", "text/html; charset=GBK", &mislabelled_gbk())),
        ("https://news.example/logo.png", http("200 OK", "image/png", b"\x89PNG....")),
        ("https://news.example/gone", http("404 Not Found", "text/html", b"<p>gone</p>")),
    ];
    let mut f = std::fs::File::create(path).expect("create warc");
    let mut info = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    info.write_all(
        b"WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:info>\r\nContent-Length: 2\r\n\r\nok\r\n\r\n",
    )
    .expect("write");
    f.write_all(&info.finish().expect("gzip")).expect("write");
    for (k, (uri, block)) in records.iter().enumerate() {
        let mut rec = Vec::new();
        pith::batch::warc::write_response(&mut rec, uri, block, &format!("urn:uuid:rec-{k}")).expect("record");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&rec).expect("write");
        f.write_all(&gz.finish().expect("gzip")).expect("write");
    }
}

fn pith_batch(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pith")).arg("batch").args(args).stdin(Stdio::null()).output().expect("pith runs")
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pith-batch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn batch_over_a_warc_and_a_directory_resumes() {
    let dir = tmp("warc");
    let warc = dir.join("crawl.warc.gz");
    build_warc(&warc);
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).expect("dir");
    std::fs::write(pages.join("listing.html"), fixture("pages/listing.html")).expect("write");
    // Saved pages are often gzipped: read through.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&fixture("charsets/utf-8.html")).expect("gzip");
    std::fs::create_dir_all(pages.join("zh")).expect("dir");
    std::fs::write(pages.join("zh/page.html.gz"), gz.finish().expect("gzip")).expect("write");
    let out = dir.join("out.jsonl");
    let o = out.to_str().expect("utf-8 path");

    let run = pith_batch(&[
        "--output",
        o,
        "--format",
        "text,markdown",
        "--jobs",
        "2",
        warc.to_str().unwrap(),
        pages.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stderr = String::from_utf8_lossy(&run.stderr);
    // The summary, and no progress bar (stderr is not a terminal here).
    assert!(stderr.contains("5 records written (4 extracted, 1 errors)"), "{stderr}");
    assert!(stderr.contains("1 not HTML, 1 other WARC records"), "{stderr}");
    assert!(!stderr.contains('\r'), "{stderr}");

    let got = lines(&out);
    assert_eq!(got.len(), 5, "{got:?}");
    let by_uri = |u: &str| got.iter().find(|l| l["uri"] == u).unwrap_or_else(|| panic!("no line for {u}"));
    let article = by_uri("https://news.example/article");
    assert_eq!(article["record_id"], "<urn:uuid:rec-0>");
    assert_eq!(article["file"], warc.to_str().unwrap());
    assert!(article["content"]["text"].as_str().unwrap().contains("Farmers learn new rice methods"));
    assert!(article["content"]["markdown"].as_str().unwrap().starts_with("# Farmers learn new rice methods"));
    assert!(article["metadata"].is_object());
    // Every result carries its text's fingerprint.
    let text = article["content"]["text"].as_str().unwrap();
    assert_eq!(article["content"]["fingerprint"].as_str(), Some(pith::fingerprint(text).as_str()));
    let gbk = by_uri("https://news.example/gbk");
    // GBK is decoded as its superset GB18030.
    assert_eq!(gbk["charset"], "gb18030");
    let expected = String::from_utf8(fixture("charsets/gbk.expected.txt")).unwrap();
    assert!(gbk["content"]["text"].as_str().unwrap().contains(expected.trim()), "{gbk}");
    let gone = by_uri("https://news.example/gone");
    assert_eq!(gone["error"]["kind"], "origin_status");
    let listing =
        got.iter().find(|l| l["uri"].as_str().is_some_and(|u| u.ends_with("listing.html"))).expect("file line");
    assert!(listing["record_id"].is_null() && listing["content"].is_object());
    let zh = got.iter().find(|l| l["uri"].as_str().is_some_and(|u| u.ends_with("page.html.gz"))).expect("gz line");
    let expected = String::from_utf8(fixture("charsets/utf-8.expected.txt")).unwrap();
    assert!(zh["content"]["text"].as_str().unwrap().contains(expected.lines().next().unwrap().trim()), "{zh}");
    // Pages without a WARC digest carry one of their bytes, in the WARC form.
    assert_eq!(listing["digest"], pith::batch::warc::sha1_digest(&fixture("pages/listing.html")));

    // Resumed: every record is already in the output, so nothing is appended.
    let again = pith_batch(&["--output", o, warc.to_str().unwrap(), pages.to_str().unwrap()]);
    assert!(again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("0 records written"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(lines(&out).len(), 5);

    // An interrupted run (its last line cut short) redoes only what is missing.
    let text = std::fs::read_to_string(&out).unwrap();
    let kept: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&out, format!("{}\n{{\"file\":", kept.join("\n"))).unwrap();
    let resumed = pith_batch(&["--output", o, warc.to_str().unwrap(), pages.to_str().unwrap()]);
    assert!(resumed.status.success());
    let after = std::fs::read_to_string(&out).unwrap();
    let complete: Vec<Value> = after.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    assert_eq!(complete.len(), 5, "{after}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn batch_refuses_bad_input_clearly() {
    let run = pith_batch(&[]);
    assert_eq!(run.status.code(), Some(2));
    let missing = pith_batch(&["/no/such/file.warc"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no such file"));
    // A file that is not a WARC archive is read as a page; a broken archive is an error line.
    let dir = tmp("broken");
    let broken = dir.join("broken.warc");
    std::fs::write(&broken, b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 999\r\n\r\nshort").unwrap();
    let run = pith_batch(&[broken.to_str().unwrap()]);
    assert!(run.status.success());
    let out = String::from_utf8_lossy(&run.stdout);
    let line: Value = serde_json::from_str(out.lines().next().expect("a line")).unwrap();
    assert_eq!(line["error"]["kind"], "warc");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_split_the_inputs_between_them() {
    let dir = tmp("shard");
    for name in ["a.html", "b.html", "c.html"] {
        std::fs::write(dir.join(name), fixture("pages/article.html")).expect("write");
    }
    let uris = |shard: &str| -> Vec<String> {
        let run = pith_batch(&["--shard", shard, dir.to_str().unwrap()]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let out = String::from_utf8(run.stdout).expect("utf-8");
        out.lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("json")["uri"].as_str().unwrap().to_string())
            .collect()
    };
    let (first, second) = (uris("0/2"), uris("1/2"));
    assert_eq!((first.len(), second.len()), (2, 1), "{first:?} {second:?}");
    assert!(first.iter().all(|u| !second.contains(u)));
    assert_eq!(pith_batch(&["--shard", "2/2", dir.to_str().unwrap()]).status.code(), Some(2));
    // The same split from a list of inputs, as the Kubernetes Job passes it.
    let list = dir.join("inputs.txt");
    let names: Vec<String> = ["a.html", "b.html", "c.html"].iter().map(|n| dir.join(n).display().to_string()).collect();
    std::fs::write(&list, format!("# archives\n{}\n", names.join("\n"))).expect("write");
    let run = pith_batch(&["--inputs", list.to_str().unwrap(), "--shard", "1/2"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let got: Vec<Value> =
        String::from_utf8(run.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["uri"], names[1]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-page HTTP server on loopback that answers every request with a GBK page and a header that
/// says so; returns its address.
fn serve_gbk_page() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 4096];
            let _ = std::io::Read::read(&mut stream, &mut buf);
            let body = mislabelled_gbk();
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=GBK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    format!("http://{addr}")
}

#[test]
fn url_lists_are_fetched_with_the_services_checks() {
    let base = serve_gbk_page();
    let dir = tmp("urls");
    let list = dir.join("urls.txt");
    std::fs::write(&list, format!("# pages to fetch\n{base}/news/1\n\nnot a url\n")).expect("write");
    let run = |allow: &str| -> Vec<Value> {
        let out = Command::new(env!("CARGO_BIN_EXE_pith"))
            .args(["batch", "--urls", list.to_str().unwrap()])
            .env("PITH_FETCH__ALLOW_PRIVATE_NETWORKS", allow)
            .stdin(Stdio::null())
            .output()
            .expect("pith runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("utf-8").lines().map(|l| serde_json::from_str(l).expect("json")).collect()
    };
    // By default a loopback address is refused, as the service refuses it.
    let refused = run("false");
    assert_eq!(refused.len(), 2, "{refused:?}");
    let page = refused.iter().find(|l| l["uri"] == format!("{base}/news/1")).expect("line for the URL");
    assert_eq!(page["error"]["kind"], "refused", "{page}");
    assert!(refused.iter().any(|l| l["uri"] == "not a url" && l["error"]["kind"] == "bad_url"));
    // Opened for internal deployments, the page is fetched and its header's charset honoured.
    let fetched = run("true");
    let page = fetched.iter().find(|l| l["uri"] == format!("{base}/news/1")).expect("line for the URL");
    assert_eq!(page["charset"], "gb18030", "{page}");
    let expected = String::from_utf8(fixture("charsets/gbk.expected.txt")).unwrap();
    assert!(page["content"]["text"].as_str().unwrap().contains(expected.trim()), "{page}");
    assert_eq!(page["file"], "urls");
    let _ = std::fs::remove_dir_all(&dir);
}

#[path = "common/site.rs"]
mod site;

/// A WARC of two sites' pages, in the order given (each site's pages are the generated site's,
/// under its own host).
fn site_warc(path: &Path, order: &[(usize, usize)]) {
    let mut f = std::fs::File::create(path).expect("create warc");
    for &(s, k) in order {
        let uri = site::url(k).replace("farm-portal", &format!("farm-portal-{s}"));
        let charset = if k.is_multiple_of(2) { "GBK" } else { "utf-8" };
        let block = http("200 OK", &format!("text/html; charset={charset}"), &site::page(k));
        let mut rec = Vec::new();
        pith::batch::warc::write_response(&mut rec, &uri, &block, &format!("urn:uuid:{s}-{k}")).expect("record");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&rec).expect("write");
        f.write_all(&gz.finish().expect("gzip")).expect("write");
    }
}

/// `--site-templates` over an archive whose sites' records are interleaved gives the same answers as
/// over one where each site's records are together, and the templates leave the shared chrome out.
#[test]
fn site_templates_same_answers_interleaved_or_sorted() {
    let sorted: Vec<(usize, usize)> = (0..2).flat_map(|s| (0..30).map(move |k| (s, k))).collect();
    let interleaved: Vec<(usize, usize)> = (0..30).flat_map(|k| (0..2).map(move |s| (s, 29 - k))).collect();
    let answers = |order: &[(usize, usize)], name: &str| {
        let dir = tmp(name);
        let (warc, out) = (dir.join("sites.warc.gz"), dir.join("out.jsonl"));
        site_warc(&warc, order);
        let o =
            pith_batch(&["--site-templates", "--jobs", "2", "--output", out.to_str().unwrap(), warc.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut by_uri: Vec<(String, Value)> = lines(&out)
            .into_iter()
            .map(|mut l| {
                let uri = l["uri"].as_str().unwrap_or_default().to_string();
                for k in ["file", "timings_ms", "record_id", "digest"] {
                    l.as_object_mut().map(|o| o.remove(k));
                }
                (uri, l)
            })
            .collect();
        by_uri.sort_by(|a, b| a.0.cmp(&b.0));
        by_uri
    };
    let a = answers(&sorted, "sites-sorted");
    let b = answers(&interleaved, "sites-interleaved");
    assert_eq!(a.len(), 60);
    assert_eq!(a, b);
    for (uri, line) in &a {
        assert_eq!(line["template"]["pages"], 29, "{uri}: {line}");
        let text = line["content"]["text"].as_str().unwrap_or_default();
        for chrome in site::CHROME {
            assert!(!text.contains(chrome), "{uri} kept {chrome:?}: {text}");
        }
    }
}

//! The library's progress reports: `pith eval` and `pith train` name each phase with its page count
//! and report every page once, which is what the CLI's progress bar draws (a test binary of its own:
//! the observer is process-wide).

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

#[derive(Default)]
struct Recorder {
    /// (phase, total, pages reported in it)
    phases: Mutex<Vec<(String, Option<u64>, u64)>>,
}

impl pith::lab::progress::Observer for &'static Recorder {
    fn phase(&self, name: &str, total: Option<u64>) {
        self.phases.lock().unwrap().push((name.to_string(), total, 0));
    }
    fn advance(&self, n: u64) {
        if let Some(last) = self.phases.lock().unwrap().last_mut() {
            last.2 += n;
        }
    }
}

fn write_dataset(dir: &Path, pages: usize) {
    std::fs::create_dir_all(dir.join("html")).unwrap();
    let mut jsonl = String::new();
    for k in 0..pages {
        let text = format!(
            "Report {k}: the council voted on Tuesday to extend the library opening hours until nine in the \
             evening, after a petition signed by more than two thousand residents."
        );
        let html = format!("<html><body><nav><a href=/>Home</a></nav><article><p>{text}</p></article></body></html>");
        let line =
            serde_json::json!({"id": format!("p{k}"), "url": null, "lang": "en", "has_article": true, "gold": text});
        jsonl.push_str(&format!("{line}\n"));
        let f = std::fs::File::create(dir.join("html").join(format!("p{k}.html.gz"))).unwrap();
        let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
        gz.write_all(html.as_bytes()).unwrap();
        gz.finish().unwrap();
    }
    std::fs::write(dir.join("pages.jsonl"), jsonl).unwrap();
}

#[test]
fn eval_and_train_report_every_page_of_every_phase() {
    let recorder: &'static Recorder = Box::leak(Box::default());
    assert!(pith::lab::progress::observe(Box::new(recorder)));
    let dir = std::env::temp_dir().join(format!("pith-progress-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_dataset(&dir, 7);
    let engine = pith::Engine::with_defaults().unwrap();
    let algorithms = [pith::Algorithm::Auto, pith::Algorithm::CetdDs];
    pith::lab::eval::run(&engine, std::slice::from_ref(&dir), &algorithms, 2, |_| Ok(())).unwrap();
    let phases = std::mem::take(&mut *recorder.phases.lock().unwrap());
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(phases, vec![(format!("eval {name} auto"), Some(7), 7), (format!("eval {name} cetd-ds"), Some(7), 7)],);

    let set = pith::lab::dataset::Dataset::open(&dir).unwrap();
    let learn = pith::lab::train::Learn::default();
    pith::lab::train::train_all(&engine, &[set], &pith::lab::train::all_pages, &learn).unwrap();
    let phases = std::mem::take(&mut *recorder.phases.lock().unwrap());
    // Every counted phase got all its pages; the fitting phases have no count.
    assert!(phases.iter().filter(|p| p.1.is_some()).count() >= 3, "{phases:?}");
    for (name, total, done) in &phases {
        assert_eq!(total.unwrap_or(0), *done, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! `pith::lab::eval::run` end to end on a tiny dataset written to a temporary directory.

use std::io::Write;
use std::path::Path;

fn write_dataset(dir: &Path) {
    std::fs::create_dir_all(dir.join("html")).unwrap();
    let article = "<html><body><nav><a href=/>Home</a> <a href=/x>News</a></nav><article><p>The council \
        voted on Tuesday to extend the library opening hours until nine in the evening, after a petition \
        signed by more than two thousand residents.</p><p>The change takes effect next month and costs \
        about forty thousand pounds a year.</p></article></body></html>";
    let pages = [
        (
            "a",
            article.as_bytes().to_vec(),
            Some(
                "The council voted on Tuesday to extend the library opening hours until nine in the evening, after a petition signed by more than two thousand residents. The change takes effect next month and costs about forty thousand pounds a year.",
            ),
            Some(true),
        ),
        ("b", article.as_bytes().to_vec(), None, Some(true)),
        // Binary input: the engine refuses it, which must count as an error and an empty prediction.
        ("c", vec![0x89, b'P', b'N', b'G', 0, 0, 0, 0, 1, 2, 3, 0, 0, 0], Some("some gold text"), Some(false)),
    ];
    let mut jsonl = String::new();
    for (id, bytes, gold, label) in pages {
        let line = serde_json::json!({"id": id, "url": null, "lang": "en", "has_article": label, "gold": gold, "source": "test"});
        jsonl.push_str(&line.to_string());
        jsonl.push('\n');
        let f = std::fs::File::create(dir.join("html").join(format!("{id}.html.gz"))).unwrap();
        let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
        gz.write_all(&bytes).unwrap();
        gz.finish().unwrap();
    }
    std::fs::write(dir.join("pages.jsonl"), jsonl).unwrap();
}

#[test]
fn run_scores_a_small_dataset() {
    let dir = std::env::temp_dir().join(format!("pith-eval-test-{}", std::process::id()));
    write_dataset(&dir);
    // The scoring is under test, not whether a two-paragraph page counts as an article: keep the text of
    // pages judged non-articles whole.
    let mut engine = pith::Engine::with_defaults().unwrap();
    engine.params.auto.no_article_text = pith::NoArticleText::Full;
    let mut seen = Vec::new();
    let report = pith::lab::eval::run(
        &engine,
        std::slice::from_ref(&dir),
        &[pith::Algorithm::Auto, pith::Algorithm::CetdDs],
        2,
        |p| {
            seen.push((p.algorithm.clone(), p.id.clone(), p.error.is_some()));
            Ok(())
        },
    )
    .unwrap();
    std::fs::remove_dir_all(&dir).ok();

    assert_eq!(seen.len(), 6);
    assert_eq!(report.algorithms.len(), 2);
    for a in &report.algorithms {
        let s = &a.datasets[0];
        assert_eq!((s.pages, s.gold_pages, s.errors), (3, 2, 1), "{}", a.algorithm);
        // Page a is extracted (nearly) perfectly, page c is an error scored as empty: mean F1 about 0.5.
        let f1 = s.lcs_f1.unwrap();
        assert!((0.45..=0.5).contains(&f1), "{} lcs f1 {f1}", a.algorithm);
        assert_eq!(s.poor, 1);
        assert_eq!(s.has_article.n, 3);
        assert!(s.ms_median.is_some());
        assert_eq!(a.micro.lcs_f1, s.lcs_f1);
        assert_eq!(a.macro_avg.lcs_f1, s.lcs_f1);
    }
}

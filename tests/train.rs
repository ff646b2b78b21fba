//! Training end to end on generated pages: the models `pith train` learns must do the job on pages
//! they did not see, and the same pages must always give the same models.

use std::io::Write;
use std::path::{Path, PathBuf};

use pith::{Engine, Request};

/// A small deterministic generator of words, sentences and pages.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn sentence(&mut self) -> String {
        const W: &[&str] = &[
            "farmers",
            "rice",
            "county",
            "training",
            "course",
            "water",
            "field",
            "harvest",
            "market",
            "prices",
            "village",
            "teachers",
            "seedlings",
            "weather",
            "storage",
            "cooperative",
            "soil",
            "yield",
            "method",
            "spring",
            "families",
            "tractor",
            "irrigation",
            "report",
            "officials",
            "season",
        ];
        const F: &[&str] = &["the", "a", "of", "and", "in", "with", "after", "for", "to", "was", "were", "their"];
        let n = 10 + (self.next() % 12) as usize;
        let mut s = String::new();
        for k in 0..n {
            let w = if k % 2 == 0 { self.pick(W) } else { self.pick(F) };
            if k == 0 {
                let mut c = w.chars();
                if let Some(f) = c.next() {
                    s.extend(f.to_uppercase());
                    s.push_str(c.as_str());
                }
            } else {
                s.push(' ');
                s.push_str(w);
            }
            if k == n / 2 {
                s.push(',');
            }
        }
        s.push('.');
        s
    }
    fn headline(&mut self) -> String {
        let s = self.sentence();
        s.trim_end_matches('.').split(' ').take(6).collect::<Vec<_>>().join(" ")
    }
    /// An article page with navigation, a share bar, related links and a footer; returns the page
    /// and its gold text.
    fn article(&mut self) -> (String, String) {
        let title = self.headline();
        let paras: Vec<String> = (0..3 + self.next() % 4)
            .map(|_| (0..2 + self.next() % 3).map(|_| self.sentence()).collect::<Vec<_>>().join(" "))
            .collect();
        let related: Vec<String> = (0..5).map(|k| format!("<li><a href=/r{k}>{}</a></li>", self.headline())).collect();
        let page = format!(
            "<html><head><title>{title} | County News</title></head><body>\
             <div class=menu><a href=/>Home</a> <a href=/n>News</a> <a href=/f>Farming</a> <a href=/c>Contact</a></div>\
             <div class=main><h1>{title}</h1>{}<div class=share><a href=/s1>Share</a> <a href=/s2>Tweet</a></div>\
             <div class=related><h3>Related stories</h3><ul>{}</ul></div></div>\
             <div class=footer>Copyright 2026 County News. All rights reserved.</div></body></html>",
            paras.iter().map(|p| format!("<p>{p}</p>")).collect::<String>(),
            related.join("")
        );
        let gold = std::iter::once(title).chain(paras).collect::<Vec<_>>().join("\n");
        (page, gold)
    }
    /// A listing page: the same frame around a list of headline links with a line of teaser each.
    fn listing(&mut self) -> String {
        let items: String = (0..12)
            .map(|k| {
                format!("<div class=item><a href=/a{k}>{}</a><span>{}</span></div>", self.headline(), self.headline())
            })
            .collect();
        format!(
            "<html><head><title>News | County News</title></head><body>\
             <div class=menu><a href=/>Home</a> <a href=/n>News</a> <a href=/f>Farming</a></div>\
             <div class=list>{items}</div><div class=footer>Copyright 2026 County News.</div></body></html>"
        )
    }
}

fn write_dataset(dir: &Path, g: &mut Gen, pages: usize) -> Vec<(String, String)> {
    std::fs::create_dir_all(dir.join("html")).unwrap();
    let mut jsonl = String::new();
    let mut articles = Vec::new();
    for k in 0..pages {
        let (html, gold, label) = if k % 4 == 3 {
            (g.listing(), None, false)
        } else {
            let (p, gold) = g.article();
            articles.push((p.clone(), gold.clone()));
            (p, Some(gold), true)
        };
        let id = format!("p{k}");
        // Six sites, each with pages in both generated datasets.
        let url = format!("https://www.site{}.org/{id}", k % 6);
        let page_type = if label { "article" } else { "listing" };
        let line = serde_json::json!({"id": id, "url": url, "lang": "en", "has_article": label, "gold": gold, "source": "generated", "page_type": page_type});
        jsonl.push_str(&line.to_string());
        jsonl.push('\n');
        let f = std::fs::File::create(dir.join("html").join(format!("{id}.html.gz"))).unwrap();
        let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::fast());
        gz.write_all(html.as_bytes()).unwrap();
        gz.finish().unwrap();
    }
    std::fs::write(dir.join("pages.jsonl"), jsonl).unwrap();
    articles
}

/// Settings for a quick training run on the small generated datasets.
fn small_learn(trees: usize) -> pith::lab::train::Learn {
    pith::lab::train::Learn {
        gbdt: pith::lab::train::TrainParams {
            trees,
            max_depth: 4,
            learning_rate: 0.3,
            lambda: 1.0,
            min_child_weight: 1.0,
        },
        balance: 0.0,
        stack_folds: 2,
    }
}

#[test]
fn trained_models_extract_unseen_pages_and_training_is_deterministic() {
    let dir = std::env::temp_dir().join(format!("pith-train-test-{}", std::process::id()));
    let mut g = Gen(0x5eed);
    write_dataset(&dir, &mut g, 48);
    let sets = vec![pith::lab::dataset::Dataset::open(&dir).unwrap()];
    // Start from models that know nothing, so whatever works below was learned here.
    let base = Engine::untrained().unwrap();
    let learn = small_learn(40);
    let trained = pith::lab::train::train_all(&base, &sets, &pith::lab::train::all_pages, &learn).unwrap();
    let again = pith::lab::train::train_all(&base, &sets, &pith::lab::train::all_pages, &learn).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(trained.models.blocks, again.models.blocks, "same pages, same block model");
    assert_eq!(trained.models.article, again.models.article, "same pages, same has-article model");
    assert!(trained.models.blocks.stage1.is_trained() && trained.models.blocks.stage2.is_trained());
    assert!(trained.models.article.trees.is_trained());
    assert_eq!(trained.models.page_type, again.models.page_type, "same pages, same page-type model");
    assert!(trained.models.page_type.is_trained());

    // Pages generated after training: the article text in, the frame out.
    let mut fresh = Gen(0xfeed);
    for _ in 0..6 {
        let (page, gold) = fresh.article();
        let r = trained.extract(&Request::new(page.as_bytes())).unwrap();
        assert!(r.has_article.is_article, "{}", r.has_article.probability);
        for line in gold.lines() {
            assert!(r.content.text.contains(line), "missing {line:?} in {:?}", r.content.text);
        }
        for noise in ["Home", "Tweet", "Related stories", "Copyright"] {
            assert!(!r.content.text.contains(noise), "kept {noise:?} in {:?}", r.content.text);
        }
        // And the classifier itself is sure of it, block by block (an untrained one says 0.5 to all).
        let judged = trained
            .with_context(page.as_bytes(), None, |ctx| {
                let m = pith::algorithms::auto::measure(ctx, &trained.models.bayes);
                let p = trained.models.blocks.predict(ctx.doc, &m);
                m.blocks
                    .list
                    .iter()
                    .zip(p)
                    .map(|(b, p)| {
                        let text: Vec<&str> = m.blocks.texts_of(b).iter().map(|&t| ctx.doc.text(t)).collect();
                        (text.join(" "), p)
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap();
        for (text, p) in judged {
            let content = gold.contains(&text);
            assert!(if content { p > 0.8 } else { p < 0.2 }, "{p:.3} for {text:?} (content: {content})");
        }
    }
    let listing = fresh.listing();
    let r = trained.extract(&Request::new(listing.as_bytes())).unwrap();
    assert!(!r.has_article.is_article, "listing judged an article: {}", r.has_article.probability);
    // The only other type it was shown.
    assert_eq!(r.page_type.map(|t| t.label), Some(pith::PageType::Listing));
}

/// Two generated datasets (`set-a`, `set-b`) of `pages` pages each under a fresh temporary `root`, and
/// an untrained engine that keeps every page's text: what the cross-validation tests run on.
fn cv_datasets(name: &str, seed: u64, pages: usize) -> (PathBuf, Vec<PathBuf>, Engine) {
    let root = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let dirs = vec![root.join("set-a"), root.join("set-b")];
    let mut g = Gen(seed);
    for d in &dirs {
        write_dataset(d, &mut g, pages);
    }
    let mut base = Engine::untrained().unwrap();
    base.params.auto.no_article_text = pith::NoArticleText::Full;
    (root, dirs, base)
}

#[test]
fn cross_validation_scores_every_page_with_models_that_did_not_see_it() {
    let (root, dirs, base) = cv_datasets("pith-cv-test", 0xabcdef, 24);
    let learn = small_learn(30);
    // Site folds: every page of a site in one fold, whichever dataset it is in; and more than one fold.
    let sets: Vec<_> = dirs.iter().map(|d| pith::lab::dataset::Dataset::open(d).unwrap()).collect();
    let site_folds = pith::lab::train::SiteFolds::new(&sets, 3).unwrap();
    let mut fold_of_site = std::collections::HashMap::new();
    for ds in &sets {
        for p in &ds.pages {
            let site = p.url.as_deref().unwrap().split('/').nth(2).unwrap().to_string();
            let f = site_folds.of(&ds.name, &p.id);
            assert_eq!(*fold_of_site.entry(site).or_insert(f), f, "{}/{}", ds.name, p.id);
        }
    }
    let used: std::collections::HashSet<_> = fold_of_site.values().collect();
    assert!(used.len() > 1, "{fold_of_site:?}");
    for folds in [pith::lab::eval::Folds::Sites(3), pith::lab::eval::Folds::Datasets] {
        let mut seen = 0;
        let report = pith::lab::eval::cross_validate(
            &base,
            &dirs,
            &[pith::Algorithm::Auto],
            2,
            (folds, &learn),
            &Default::default(),
            |_| {
                seen += 1;
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, 48, "{folds:?}");
        let m = &report.algorithms[0].micro;
        assert_eq!((m.pages, m.errors), (48, 0), "{folds:?}");
        // Generated pages are easy: models that never saw a page (or its dataset) still get it right.
        assert!(m.shingle_f1.unwrap() > 0.95, "{folds:?}: {:?}", m.shingle_f1);
        assert!(m.has_article.accuracy.unwrap() > 0.9, "{folds:?}: {:?}", m.has_article.accuracy);
    }
    std::fs::remove_dir_all(&root).ok();
}

#[test]
fn cross_validation_keeps_fold_models_and_reads_them_back() {
    let (root, dirs, base) = cv_datasets("pith-cv-models-test", 0x5eed, 18);
    let learn = small_learn(30);
    let saved = root.join("folds");
    let run = |dirs: &[PathBuf], page_models: bool| {
        let opts = pith::lab::eval::Options {
            fold_models: Some(pith::lab::eval::FoldModels { dir: &saved, page_models }),
            ..Default::default()
        };
        let mut rows = Vec::new();
        let report = pith::lab::eval::cross_validate(
            &base,
            dirs,
            &[pith::Algorithm::Auto],
            2,
            (pith::lab::eval::Folds::Sites(2), &learn),
            &opts,
            |p| {
                rows.push((p.id.clone(), p.probability, p.scores.as_ref().map(|s| s.shingle.f1)));
                Ok(())
            },
        );
        report.map(|_| rows)
    };
    let first = run(&dirs, false).unwrap();
    for f in 0..2 {
        let fold = saved.join(format!("fold-{f}-of-2"));
        for file in ["bayes-model.json", "block-model.json", "article-model.json", "page-type-model.json", "cv.json"] {
            assert!(fold.join(file).is_file(), "{}", fold.join(file).display());
        }
    }
    // Read back: the same models give the same answers, page for page.
    let block_model = std::fs::read(saved.join("fold-0-of-2/block-model.json")).unwrap();
    assert_eq!(run(&dirs, false).unwrap(), first);
    // Page models retrained over the saved block models: the same training, so the same answers, and
    // the saved block model is left as it was.
    assert_eq!(run(&dirs, true).unwrap(), first);
    assert_eq!(std::fs::read(saved.join("fold-0-of-2/block-model.json")).unwrap(), block_model);
    // Another set of datasets makes other folds: the saved models are refused, not misused.
    let err = run(&dirs[..1], false).unwrap_err().to_string();
    assert!(err.contains("another cross-validation"), "{err}");
    std::fs::remove_dir_all(&root).ok();
}

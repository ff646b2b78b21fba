//! `pith eval`: a thin layer over [`pith::lab::eval`]; argument checks, output files, nothing else.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use pith::lab::eval::report::{self, Format as ReportFormat};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Markdown,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A dataset directory (pages.jsonl + html/); repeat for several.
    #[arg(long = "dataset", required = true)]
    pub datasets: Vec<PathBuf>,
    /// Algorithm name, a comma-separated list, or `all` (every algorithm except `template` and the
    /// visual methods `vips` and `cehtd-ds`, which render every page and must be named).
    #[arg(long, short, default_value = "auto")]
    pub algorithm: String,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "table")]
    pub format: Format,
    /// Write one JSON line per page and algorithm to this file.
    #[arg(long)]
    pub per_page: Option<PathBuf>,
    /// Worker threads (default: the number of cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Read the models from this directory (`bayes-model.json`, `block-model.json`,
    /// `article-model.json`, each optional) instead of the embedded ones, e.g. a `pith train --out-dir`.
    #[arg(long)]
    pub models: Option<PathBuf>,
    /// Add the site rules of every `*.toml` file in this directory to the embedded ones.
    #[arg(long, value_name = "DIR")]
    pub sites: Option<PathBuf>,
    /// Cross-validate: train every model on all but one of K folds of the given datasets (grouped by
    /// site: all pages of a registered domain in one fold) and extract
    /// each fold's pages with the models that did not see them.
    #[arg(long, value_name = "K")]
    pub cv: Option<usize>,
    /// Cross-validate with one fold per dataset instead: each dataset is scored by models trained on
    /// the other datasets only (sources never seen in training).
    #[arg(long, conflicts_with = "cv")]
    pub cv_datasets: bool,
    /// Extract every page that has a URL a second time without it, and report how often the
    /// has-article verdict, the page type and the text stay the same (per-page rows gain
    /// `url_ablation`).
    #[arg(long)]
    pub url_ablation: bool,
    /// With `--cv` or `--cv-datasets`: keep each fold's trained models in DIR and read them back on the
    /// next run over the same datasets and folds, instead of training again (to compare extraction
    /// settings on the same held-out models). Valid while the block features are unchanged.
    #[arg(long, value_name = "DIR")]
    pub cv_models: Option<PathBuf>,
    /// With `--cv-models`: retrain each fold's page models (has-article, page type) over its saved
    /// block models, for a change to the page signals (a minute instead of the block classifier's half
    /// hour per fold), and write them back to DIR in place of the old ones.
    #[arg(long, requires = "cv_models")]
    pub cv_page_models: bool,
    /// At most N pages of each dataset, spread evenly over it (for the visual methods, which render
    /// every page in a headless browser: ~0.1–1 s a page).
    #[arg(long, value_name = "N")]
    pub max_pages: Option<usize>,
    /// Also write the evaluation as one self-contained HTML page (charts beside the peers' figures,
    /// has-article reliability, worst pages), with the worst pages' explanation pages in
    /// `FILE-explain/` beside it.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Worst pages per algorithm listed and explained in `--report`.
    #[arg(long, value_name = "N", default_value_t = 20, requires = "report")]
    pub report_worst: usize,
    /// Extract each page also with the template of its site learned from the other pages of the site
    /// in the same dataset (sites with 3 or more pages), and print both runs side by side after the
    /// report (which is the run with templates).
    #[arg(long)]
    pub site_context: bool,
    /// Switch off one of `auto`'s selection rules for this evaluation, to measure what it does
    /// (repeatable; `--list-rules` names them).
    #[arg(long = "without-rule", value_name = "NAME", value_parser = rule_name)]
    pub without_rules: Vec<&'static str>,
    /// List `auto`'s selection rules, in the order they run, and exit.
    #[arg(long, exclusive = true)]
    pub list_rules: bool,
    /// Block classifier training under `--cv`.
    #[command(flatten)]
    pub learn: super::train::LearnArgs,
}

/// A rule of `auto`'s table by name, for `--without-rule`; an unknown name is refused with the list.
fn rule_name(name: &str) -> Result<&'static str, String> {
    use pith::algorithms::auto::{RULES, rule_named};
    rule_named(name).map(|r| r.name).ok_or_else(|| {
        let names: Vec<&str> = RULES.iter().map(|r| r.name).collect();
        format!("no rule `{name}`; the rules are {} (`pith eval --list-rules` says what each does)", names.join(", "))
    })
}

/// `--list-rules`: one line per rule, in the order they run.
fn list_rules() -> Result<ExitCode, pith::Error> {
    let mut out = String::new();
    for (k, rule) in pith::algorithms::auto::RULES.iter().enumerate() {
        out.push_str(&format!(
            "{:>2} {:<24} {:<11} {}; reads {}\n",
            k + 1,
            rule.name,
            rule.family.name(),
            rule.when,
            rule.reads
        ));
    }
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// `engine` with `auto`'s rules `names` switched off (`--without-rule`).
fn without_rules(mut engine: pith::Engine, names: &[&'static str]) -> pith::Engine {
    engine.params.auto.without_rules.extend(names);
    engine
}

pub fn run(a: EvalArgs) -> Result<ExitCode, pith::Error> {
    if a.list_rules {
        return list_rules();
    }
    let algorithms: Vec<pith::Algorithm> = if a.algorithm == "all" {
        pith::lab::eval::all_algorithms()
    } else {
        let mut out = Vec::new();
        for name in a.algorithm.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name.parse() {
                Ok(algorithm) => out.push(algorithm),
                Err(_) => {
                    return Err(pith::Error::UnknownAlgorithm {
                        name: name.to_string(),
                        known: format!("{}, all", pith::algorithms::names().join(", ")),
                    });
                }
            }
        }
        out
    };
    if algorithms.is_empty() {
        return Err(pith::Error::Config("no algorithm given".to_string()));
    }
    let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut per_page = match &a.per_page {
        Some(p) => Some(BufWriter::new(
            std::fs::File::create(p)
                .map_err(|e| std::io::Error::new(e.kind(), format!("cannot create {}: {e}", p.display())))?,
        )),
        None => None,
    };
    // The runner catches a panicking algorithm and reports it per page; one line on stderr is enough
    // (the default hook would print a backtrace per page when RUST_BACKTRACE is set).
    std::panic::set_hook(Box::new(|info| eprintln!("pith eval: caught {info}")));
    // Cross-validation trains every model itself: it needs no embedded one (which may be stale while
    // the features are being changed).
    let folds = match (a.cv, a.cv_datasets) {
        (Some(k), _) => Some(pith::lab::eval::Folds::Sites(k)),
        (None, true) => Some(pith::lab::eval::Folds::Datasets),
        (None, false) => None,
    };
    let mut engine = if folds.is_some() {
        let mut engine = super::setup::untrained_engine_from_env()?;
        if let Some(dir) = &a.models {
            engine.models.load_dir(dir)?;
        }
        engine
    } else {
        super::setup::engine_with_models(a.models.as_deref())?
    };
    if let Some(dir) = &a.sites {
        engine.templates.add_dir(dir)?;
    }
    if !a.without_rules.is_empty() {
        eprintln!("pith eval: auto without the rules {}", a.without_rules.join(", "));
    }
    engine = without_rules(engine, &a.without_rules);
    // The report needs every page's result (reliability bins, worst pages); kept only when asked for.
    let mut kept_pages: Vec<pith::lab::eval::PageResult> = Vec::new();
    let keep_pages = a.report.is_some();
    let write_page = |page: &pith::lab::eval::PageResult| -> Result<(), pith::Error> {
        if keep_pages {
            kept_pages.push(page.clone());
        }
        if let Some(w) = per_page.as_mut() {
            serde_json::to_writer(&mut *w, page).map_err(std::io::Error::other)?;
            w.write_all(b"\n")?;
        }
        Ok(())
    };
    // The visual methods render every page: a browser pool on its own runtime, shared by the workers.
    let visual = algorithms.iter().any(|a| a.needs().layout);
    let renderer =
        if visual { Some(pith::browser::Renderer::new(super::setup::render_config_from_env()?)) } else { None };
    if let Some(r) = &renderer
        && !r.is_ready()
    {
        return Err(pith::Error::Config(r.availability().reason()));
    }
    let runtime = if visual {
        Some(tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?)
    } else {
        None
    };
    let layout = |engine: &pith::Engine, bytes: &[u8]| match (&renderer, &runtime) {
        (Some(r), Some(rt)) => rt.block_on(r.layout(engine, bytes, None, &[])).map_err(|e| e.to_string()),
        _ => Err("no renderer".to_string()),
    };
    if a.cv_models.is_some() && folds.is_none() {
        return Err(pith::Error::Config("--cv-models needs --cv K or --cv-datasets".into()));
    }
    let opts = pith::lab::eval::Options {
        max_pages: a.max_pages,
        layout: visual.then_some(&layout),
        url_ablation: a.url_ablation,
        fold_models: a
            .cv_models
            .as_deref()
            .map(|dir| pith::lab::eval::FoldModels { dir, page_models: a.cv_page_models }),
        site_context: false,
    };
    let bar = super::progress::observe_library();
    // --site-context: first every page without its site's template, kept for the comparison.
    let mut plain_pages: Vec<pith::lab::eval::PageResult> = Vec::new();
    if a.site_context {
        let keep = |page: &pith::lab::eval::PageResult| -> Result<(), pith::Error> {
            plain_pages.push(page.clone());
            Ok(())
        };
        run_eval(&engine, &a, &algorithms, jobs, folds, &opts, keep)?;
    }
    let opts = pith::lab::eval::Options { site_context: a.site_context, ..opts };
    let mut site_pages: Vec<pith::lab::eval::PageResult> = Vec::new();
    let site_context = a.site_context;
    let mut write_page = write_page;
    let write_page = |page: &pith::lab::eval::PageResult| -> Result<(), pith::Error> {
        if site_context {
            site_pages.push(page.clone());
        }
        write_page(page)
    };
    let report = run_eval(&engine, &a, &algorithms, jobs, folds, &opts, write_page)?;
    if let (Some(r), Some(rt)) = (&renderer, &runtime) {
        let stats = r.stats();
        rt.block_on(r.shutdown());
        eprintln!(
            "pith eval: {} pages rendered by {} browser(s) ({} failed, {} replaced)",
            stats.pages, stats.launched, stats.failed, stats.replaced
        );
    }
    super::progress::clear(bar);
    if let Some(mut w) = per_page {
        w.flush()?;
    }
    let format = match a.format {
        Format::Table => ReportFormat::Table,
        Format::Json => ReportFormat::Json,
        Format::Markdown => ReportFormat::Markdown,
    };
    std::io::stdout().lock().write_all(report::render(&report, format)?.as_bytes())?;
    if a.site_context {
        let table = pith::lab::eval::site_context::compare(&plain_pages, &site_pages);
        // JSON on stdout stays one document; the table then goes to stderr.
        match format {
            ReportFormat::Json => eprint!("{table}"),
            _ => print!("\n{table}"),
        }
    }
    if let Some(path) = &a.report {
        // Under cross-validation every fold had its own models, which are gone: the explanations come
        // from the shipped models, and the page says so.
        let (explainer, note) = match folds {
            Some(_) => (
                without_rules(super::setup::engine_from_env()?, &a.without_rules),
                Some("Figures are cross-validated; the explanation pages are extracted with the shipped models."),
            ),
            None => (engine, None),
        };
        pith::lab::eval::html::write(path, &report, &kept_pages, &a.datasets, &explainer, a.report_worst, note)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One evaluation run: cross-validated when `folds` is given, with the engine as it is otherwise.
fn run_eval(
    engine: &pith::Engine,
    a: &EvalArgs,
    algorithms: &[pith::Algorithm],
    jobs: usize,
    folds: Option<pith::lab::eval::Folds>,
    opts: &pith::lab::eval::Options<'_>,
    on_page: impl FnMut(&pith::lab::eval::PageResult) -> Result<(), pith::Error>,
) -> Result<pith::lab::eval::Report, pith::Error> {
    match folds {
        Some(folds) => {
            let params = a.learn.params();
            pith::lab::eval::cross_validate(engine, &a.datasets, algorithms, jobs, (folds, &params), opts, on_page)
        }
        None => pith::lab::eval::run_opts(engine, &a.datasets, algorithms, jobs, opts, on_page),
    }
}

//! `pith extract`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use pith::site::{MAX_PAGES, SiteTemplate};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Json,
    Text,
    Html,
    /// CommonMark with GitHub tables, from the same kept nodes as the text and HTML.
    Markdown,
    /// The decision record, one line per judged block: probability, kept or not, the step that
    /// decided it, characters, link share, owner element and the start of the text; from the same
    /// extraction as the answer (every option applies).
    Explain,
    /// The same as one HTML page: every block shaded by its probability, kept and dropped blocks
    /// visible, every measure on hover.
    ExplainHtml,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Algorithm name (see `pith algorithms`).
    #[arg(long, short, default_value = "auto")]
    pub algorithm: pith::Algorithm,
    /// Output format.
    #[arg(long, short, value_enum, default_value = "json")]
    pub format: Format,
    /// The page's address: selects site templates and resolves relative links.
    #[arg(long)]
    pub url: Option<String>,
    /// Charset label to decode with (otherwise BOM, <meta>, then detection).
    #[arg(long)]
    pub charset: Option<String>,
    /// Leave per-block scores out of the JSON.
    #[arg(long)]
    pub no_blocks: bool,
    /// Keep reader comments in `auto`'s content (left out by default).
    #[arg(long)]
    pub include_comments: bool,
    /// What `auto` returns for a page it judges to have no article: `full` (the main content, as for
    /// an article) or `lead` (only a short first paragraph). Default: `params.auto.no_article_text`.
    #[arg(long, value_name = "full|lead")]
    pub no_article_text: Option<pith::NoArticleText>,
    /// Markdown: write links as their text only.
    #[arg(long)]
    pub no_links: bool,
    /// Markdown: leave images out.
    #[arg(long)]
    pub no_images: bool,
    /// Read the models from this directory instead of the embedded ones (see `pith eval --models`).
    #[arg(long)]
    pub models: Option<PathBuf>,
    /// Add the site rules of every `*.toml` file in this directory to the embedded ones (format:
    /// `config/sites/example.toml`).
    #[arg(long, value_name = "DIR")]
    pub sites: Option<PathBuf>,
    /// Lay the page out in a headless browser first (implied by vips and cehtd-ds): elements the
    /// browser does not show are left out. Settings: `PITH_RENDER__*`.
    #[arg(long)]
    pub render: bool,
    /// Run the page's scripts in the browser first and extract from the document they build (implies
    /// --render). Requests the scripts make go through pith's address-checking proxy.
    #[arg(long)]
    pub javascript: bool,
    /// Other pages of the page's site, as HTML files in this directory (`*.html`, `*.htm`): a
    /// template is learned from them (up to 50) and `auto` leaves out what they all repeat (menus,
    /// hot lists, footers). Being in the folder makes them one site; they need no URL.
    #[arg(long, value_name = "DIR")]
    pub site_pages: Option<PathBuf>,
    /// The HTML file, or - for standard input.
    pub input: PathBuf,
}

pub fn run(a: ExtractArgs) -> Result<ExitCode, pith::Error> {
    let bytes = if a.input.as_os_str() == "-" {
        let mut b = Vec::new();
        std::io::stdin().read_to_end(&mut b)?;
        b
    } else {
        std::fs::read(&a.input)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {}: {e}", a.input.display())))?
    };
    let mut engine = super::setup::engine_with_models(a.models.as_deref())?;
    if let Some(dir) = &a.sites {
        engine.templates.add_dir(dir)?;
    }
    use pith::Format as Content;
    let content: &[Content] = match a.format {
        Format::Json | Format::Html => &[Content::Text, Content::Html],
        Format::Markdown => &[Content::Text, Content::Markdown],
        Format::ExplainHtml | Format::Explain => &[Content::Text, Content::Explain],
        Format::Text => &[Content::Text],
    };
    let mut options = pith::Options {
        algorithm: a.algorithm,
        blocks: !a.no_blocks && matches!(a.format, Format::Json),
        include_comments: a.include_comments.then_some(true),
        no_article_text: a.no_article_text,
        ..pith::Options::default()
    }
    .with_formats(content);
    if options.markdown.is_some() {
        options.markdown = Some(pith::MarkdownOptions { links: !a.no_links, images: !a.no_images });
    }
    if matches!(a.format, Format::Explain) {
        options.explain = Some(pith::Explain::Lines);
    }
    let template = a.site_pages.as_deref().map(|dir| learn_site(&engine, dir)).transpose()?;
    let req = pith::Request {
        url: a.url.as_deref(),
        charset: a.charset.as_deref(),
        options,
        bytes: &bytes,
        site: template.as_ref(),
    };
    let result = if a.render || a.javascript || a.algorithm.needs().layout {
        rendered(&engine, &req, a.javascript)?
    } else {
        engine.extract(&req)?
    };
    let mut out = std::io::stdout().lock();
    let written = match a.format {
        Format::Json => serde_json::to_writer_pretty(&mut out, &result).map_err(std::io::Error::other),
        Format::Text => out.write_all(result.content.text.as_bytes()),
        Format::Html => out.write_all(result.content.html.as_bytes()),
        Format::Markdown => out.write_all(result.content.markdown.as_deref().unwrap_or("").as_bytes()),
        Format::ExplainHtml | Format::Explain => {
            out.write_all(result.content.explain.as_deref().unwrap_or("").as_bytes())
        }
    };
    // The lines end in a line break of their own.
    written.and_then(|_| if matches!(a.format, Format::Explain) { Ok(()) } else { writeln!(out) })?;
    Ok(ExitCode::SUCCESS)
}

/// The template of the site whose pages are the HTML files in `dir`, in name order (so the same folder
/// gives the same template), until the template is full. A file that is no page (empty, binary) is
/// skipped with a note; a folder without one page is an error, since the answer would silently be
/// the page's alone.
fn learn_site(engine: &pith::Engine, dir: &Path) -> Result<SiteTemplate, pith::Error> {
    let named = |e: std::io::Error| std::io::Error::new(e.kind(), format!("cannot read {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(named)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| x.eq_ignore_ascii_case("html") || x.eq_ignore_ascii_case("htm"))
        })
        .collect();
    files.sort();
    let mut template = SiteTemplate::new();
    for file in files {
        if template.pages() >= MAX_PAGES {
            break;
        }
        let page = std::fs::read(&file)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {}: {e}", file.display())))?;
        match engine.page_signatures(&pith::Request::new(&page)) {
            Ok(signatures) => {
                template.learn(&signatures);
            }
            Err(e) => eprintln!("pith extract: {} is not learned: {e}", file.display()),
        }
    }
    if template.pages() == 0 {
        return Err(pith::Error::Config(format!("--site-pages: no HTML page (*.html, *.htm) in {}", dir.display())));
    }
    template.compact();
    Ok(template)
}

/// Run scripts (when asked) and lay the page out, then extract with the layout. The browser is killed
/// before this returns.
fn rendered(engine: &pith::Engine, req: &pith::Request<'_>, javascript: bool) -> Result<pith::Extraction, pith::Error> {
    let renderer = pith::browser::Renderer::new(super::setup::render_config_from_env()?);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let failed = |e: pith::browser::RenderError| match e {
        pith::browser::RenderError::Input(e) => e,
        other => pith::Error::Render(other.to_string()),
    };
    runtime.block_on(async {
        let rendered = renderer.render(engine, req, javascript).await;
        renderer.shutdown().await;
        rendered.map_err(failed)?.extract(engine, req)
    })
}

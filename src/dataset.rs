//! Reading the labelled datasets: `pages.jsonl` (one page per line: id, url, lang, has_article, gold,
//! source) beside `html/<id>.html.gz` (the raw bytes as served, gzipped).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::Error;

/// One labelled page.
#[derive(Debug, Clone, Deserialize)]
pub struct Page {
    pub id: String,
    pub url: Option<String>,
    pub lang: Option<String>,
    pub has_article: Option<bool>,
    pub gold: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// A dataset directory and its pages.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub name: String,
    pub dir: PathBuf,
    pub pages: Vec<Page>,
}

impl Dataset {
    /// Read `dir/pages.jsonl`.
    pub fn open(dir: &Path) -> Result<Dataset, Error> {
        let file = dir.join("pages.jsonl");
        let f = std::fs::File::open(&file).map_err(|e| Error::Config(format!("{}: {e}", file.display())))?;
        let mut pages = Vec::new();
        for (n, line) in BufReader::new(f).lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let p: Page = serde_json::from_str(&line)
                .map_err(|e| Error::Config(format!("{} line {}: {e}", file.display(), n + 1)))?;
            pages.push(p);
        }
        let name = dir
            .canonicalize()
            .unwrap_or_else(|_| dir.to_path_buf())
            .file_name()
            .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
        Ok(Dataset { name, dir: dir.to_path_buf(), pages })
    }

    /// The raw bytes of one page (gunzipped).
    pub fn html(&self, page: &Page) -> Result<Vec<u8>, Error> {
        let path = self.dir.join("html").join(format!("{}.html.gz", page.id));
        let f = std::fs::File::open(&path).map_err(|e| Error::Config(format!("{}: {e}", path.display())))?;
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(f).read_to_end(&mut out)?;
        Ok(out)
    }
}

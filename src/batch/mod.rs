//! Many pages at once: `pith batch`'s pipeline, and the crawl-archive reading the Python package's
//! `read_warc` shares with it. Inputs (page files, directories, WARC archives) become [`Item`]s, each
//! named by its [`Origin`]; workers extract them into JSON Lines, one per record (a result or an
//! error); a run resumes from a file of such lines.
//!
//! | file | what lives there |
//! |---|---|
//! | `warc.rs` | the streaming WARC / WARC.gz reader and the captured HTTP response |
//! | `record.rs` | which records are pages ([`classify`]) and which of the others are failures ([`RecordPage::failure`]): the one rule `pith batch` and `read_warc` share |
//! | `item.rs` | [`Item`], [`Origin`], [`Failure`], [`Counts`] |
//! | `read.rs` | the inputs in order: files, archives record by record, skipping what a previous run wrote ([`Feed`]) |
//! | `lines.rs` | a result or error line per item ([`line`]); resuming ([`done_keys`], [`open_for_append`]) |
//! | `run.rs` | the pipeline: reader, workers, writer, through bounded channels ([`run`](run())) |
//! | `sites.rs` | `--site-templates`' first pass: each site's template learned before extraction ([`learn_sites`]) |

mod item;
mod lines;
mod read;
mod record;
mod run;
mod sites;
pub mod warc;

pub use item::{Counts, Failure, Item, Origin};
pub use lines::{done_keys, line, open_for_append};
pub use read::{Feed, files_under, list_lines, read_files, read_page};
pub use record::{MAX_RECORD_BYTES, Page, RecordPage, classify};
pub use run::{Summary, Work, run};
pub use sites::{Learned, SiteLimits, learn_sites};

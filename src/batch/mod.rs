//! Many pages at once: crawl archives.

pub mod warc;

//! The page's record regions (`algorithms::records`) as `auto` reads them: for every block, the
//! innermost record that holds it; for every region, its shape (records, similarity, how much of it
//! is link text, how many of its records carry a date or a price) and where it stands against the
//! page's longest run of prose. A teaser feed after an article, a hot list beside it, a grid of other
//! products, the posts of a thread and the cards of a listing are all regions; what tells them apart
//! is these figures, which the block classifier and the page models learn from, in every language.

use super::prose::ProseRun;
use super::segment::Blocks;
use crate::algorithms::records::Records;
use crate::dom::Document;

/// The longest text of a block read for a price.
const PRICE_MAX_CHARS: u32 = 60;

/// One region's figures.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RegionFigures {
    pub records: u32,
    /// Siblings per record.
    pub k: u8,
    pub similarity: f32,
    /// Characters of text, and of link text, in its records.
    pub chars: u32,
    pub link_chars: u32,
    /// Records with a block that carries a date, and with one that reads as a price.
    pub dated: u32,
    pub priced: u32,
    /// The first and last blocks whose innermost record is one of its records.
    pub blocks: Option<(usize, usize)>,
    /// Not inside another region's record.
    pub top: bool,
}

impl RegionFigures {
    /// Where the region stands against the page's longest prose run ([`side_of`]); 0 without blocks.
    pub fn against(&self, prose: Option<(usize, usize)>) -> i8 {
        self.blocks.map_or(0, |span| side_of(span, prose))
    }
}

/// Where the blocks `first..=last` stand against the prose run `prose` (its first and last blocks):
/// wholly before it (-1), wholly after it (1), or overlapping it or with no run to stand against (0).
pub fn side_of((first, last): (usize, usize), prose: Option<(usize, usize)>) -> i8 {
    match prose {
        Some((start, _)) if last < start => -1,
        Some((_, end)) if first > end => 1,
        _ => 0,
    }
}

/// The regions of one page as `auto` reads them.
#[derive(Debug, Clone, Default)]
pub struct PageRegions {
    pub records: Records,
    /// Per region, its figures (in the order of `records.regions`).
    pub regions: Vec<RegionFigures>,
    /// Per block: its innermost record (an index into `records.records`).
    pub record_of: Vec<Option<u32>>,
    /// Per record: its place in its region (0 for the first).
    pub place: Vec<u32>,
    /// Per region: the record that holds its parent, when it is inside another region's record.
    pub outer: Vec<Option<u32>>,
    /// The page's longest run of prose (its first and last blocks).
    pub prose: Option<(usize, usize)>,
}

impl PageRegions {
    /// Find the regions and read them against the page's blocks.
    pub(super) fn read(doc: &Document, blocks: &Blocks, prose: &ProseRun) -> PageRegions {
        let records = crate::algorithms::records::find(doc);
        let record_of = records.innermost(blocks.list.iter().map(|b| blocks.texts[b.first as usize]));
        let mut regions: Vec<RegionFigures> = records
            .regions
            .iter()
            .map(|r| RegionFigures {
                records: r.count,
                k: r.k,
                similarity: r.similarity,
                top: true,
                ..RegionFigures::default()
            })
            .collect();
        let mut place = vec![0u32; records.records.len()];
        for r in &records.regions {
            for j in 0..r.count {
                place[(r.first + j) as usize] = j;
            }
        }
        for rec in &records.records {
            let f = &mut regions[rec.region as usize];
            f.chars += rec.chars;
            f.link_chars += rec.link_chars;
        }
        // A region is inside another when its parent lies in one of the other's records.
        let outer = records.innermost(records.regions.iter().map(|r| r.parent));
        // `innermost` wants its nodes in order, and regions come in preorder of their parents.
        for (f, holder) in regions.iter_mut().zip(&outer) {
            f.top = holder.is_none();
        }
        // Per record: does one of its blocks carry a date, a price; and each region's span of blocks.
        let mut dated = vec![false; records.records.len()];
        let mut priced = vec![false; records.records.len()];
        let mut text = String::new();
        for (k, (b, rec)) in blocks.list.iter().zip(&record_of).enumerate() {
            let Some(rec) = *rec else { continue };
            let region = records.records[rec as usize].region as usize;
            let span = &mut regions[region].blocks;
            *span = Some(span.map_or((k, k), |(first, _)| (first, k)));
            dated[rec as usize] |= b.scan.dated;
            if !priced[rec as usize] && b.chars <= PRICE_MAX_CHARS && b.scan.digits > 0 {
                blocks.text_into(doc, b, &mut text);
                priced[rec as usize] = crate::text::words::looks_like_price(text.trim());
            }
        }
        for (rec, r) in records.records.iter().enumerate() {
            let f = &mut regions[r.region as usize];
            f.dated += u32::from(dated[rec]);
            f.priced += u32::from(priced[rec]);
        }
        PageRegions { records, regions, record_of, place, outer, prose: prose.span }
    }

    /// The region of block `k`'s innermost record, with its figures.
    pub fn region_of(&self, k: usize) -> Option<(u32, &RegionFigures)> {
        let rec = self.record_of.get(k).copied().flatten()?;
        let region = self.records.records[rec as usize].region;
        Some((region, &self.regions[region as usize]))
    }

    /// The top-level region that holds block `k`: the region of its innermost record, or of the
    /// record that holds that region, and so on out (regions nest as records hold lists).
    pub fn top_region_of(&self, k: usize) -> Option<u32> {
        let mut region = self.region_of(k)?.0;
        // Each step goes to a strictly larger record, so the walk ends; the bound is for certainty.
        for _ in 0..self.regions.len() {
            match self.outer[region as usize] {
                Some(rec) => region = self.records.records[rec as usize].region,
                None => break,
            }
        }
        Some(region)
    }

    /// The page's figures for the page models: how much of its text is in regions (top-level ones),
    /// how many regions it has, and the shape of its largest one (by text).
    pub fn page_signals(&self, body_chars: u32) -> [(&'static str, f64); 8] {
        let ln = |x: f64| (1.0 + x).ln();
        let share = |a: u32, b: u32| if b == 0 { 0.0 } else { f64::from(a) / f64::from(b) };
        let top: u32 = self.regions.iter().filter(|f| f.top).map(|f| f.chars).sum();
        let after: u32 = self.regions.iter().filter(|f| f.top && f.against(self.prose) == 1).map(|f| f.chars).sum();
        let largest = self.regions.iter().filter(|f| f.top).max_by_key(|f| f.chars).copied().unwrap_or_default();
        [
            ("record_regions", ln(self.regions.iter().filter(|f| f.top).count() as f64)),
            ("record_text_share", share(top, body_chars)),
            ("record_after_prose_share", share(after, body_chars)),
            ("record_largest_records", ln(f64::from(largest.records))),
            ("record_largest_share", share(largest.chars, body_chars)),
            ("record_largest_link_share", share(largest.link_chars, largest.chars)),
            ("record_largest_dated", share(largest.dated, largest.records)),
            ("record_largest_priced", share(largest.priced, largest.records)),
        ]
    }
}

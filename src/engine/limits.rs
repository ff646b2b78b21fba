//! The guards that keep one request's cost predictable: the limits an engine is built with, and the
//! checks that refuse empty, oversized, binary and over-complex input before the work they would cost.

use crate::dom::DomLimits;
use crate::error::Error;
use crate::text::prestrip::Prestripped;

/// Bounds that keep one request's cost predictable.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Larger inputs are refused with [`Error::TooLarge`].
    pub max_input_bytes: usize,
    pub dom: DomLimits,
    /// Blocks reported: the top N by score (plus content blocks, up to 3·N more).
    pub max_blocks: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_input_bytes: 64 * 1024 * 1024, dom: DomLimits::default(), max_blocks: 50 }
    }
}

/// The work budget, checked before the parse when the start tags alone pass it (the parse checks
/// its tree again, see [`Document::parse_tendril`]).
pub(crate) fn check_start_tags(limits: &DomLimits, stripped: &Prestripped) -> Result<(), Error> {
    let budget = limits.node_budget(stripped.html.len());
    if stripped.elements > budget {
        return Err(too_complex(stripped.elements, budget));
    }
    Ok(())
}

pub(crate) fn too_complex(elements: usize, budget: usize) -> Error {
    Error::TooComplex(format!(
        "{elements} start tags, over its budget of {budget} nodes (limits.dom.max_nodes + one per \
         limits.dom.bytes_per_node bytes)"
    ))
}

/// Refuse empty, oversized and binary input before any work is done.
pub fn check_input(bytes: &[u8], max: usize) -> Result<(), Error> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::EmptyInput);
    }
    if bytes.len() > max {
        return Err(Error::TooLarge { size: bytes.len(), limit: max });
    }
    if let Some(kind) = binary_kind(bytes) {
        return Err(Error::BinaryInput(kind.to_string()));
    }
    Ok(())
}

/// Recognise common binary formats by their magic bytes, and anything with many NUL bytes early on
/// (UTF-16 text with a byte-order mark excepted).
fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"%PDF", "a PDF document"),
        (b"\x89PNG", "a PNG image"),
        (b"GIF8", "a GIF image"),
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"\x1F\x8B", "gzip-compressed data (decompress it first)"),
        (b"\x7FELF", "an executable"),
        (b"\0asm", "a WebAssembly module"),
        (b"OggS", "an Ogg media file"),
        (b"ID3", "an MP3 file"),
        (b"RIFF", "a RIFF media file"),
        (b"\x28\xB5\x2F\xFD", "zstd-compressed data"),
    ];
    if let Some((_, kind)) = MAGIC.iter().find(|(m, _)| bytes.starts_with(m)) {
        return Some(kind);
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return None;
    }
    let head = &bytes[..bytes.len().min(4096)];
    let nul = head.iter().filter(|&&b| b == 0).count();
    if nul * 4 > head.len() { Some("binary data (a quarter of its first bytes are NUL)") } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_checks() {
        assert!(matches!(check_input(b"", 10), Err(Error::EmptyInput)));
        assert!(matches!(check_input(b" \n ", 10), Err(Error::EmptyInput)));
        assert!(matches!(check_input(b"0123456789ab", 10), Err(Error::TooLarge { .. })));
        assert!(matches!(check_input(b"%PDF-1.7", 100), Err(Error::BinaryInput(_))));
        assert!(check_input(b"<p>a\0b</p>", 100).is_ok());
    }
}

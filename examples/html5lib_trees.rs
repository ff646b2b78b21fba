//! pith's tokenizer against html5ever's own on the inputs of the html5lib test suite: every `#data`
//! of its tree-construction `.dat` files and every `input` of its tokenizer `.test` files, parsed as a
//! whole document by both, the two trees compared node for node (`pith::internals::tokenizers_agree`). The
//! suite is not shipped with pith; point this at a checkout's files:
//!
//! ```sh
//! cargo run --release --example html5lib_trees -- path/to/html5lib-tests/tree-construction path/to/html5lib-tests/tokenizer
//! ```
//!
//! Prints how many inputs were compared and every one whose trees differ.

use std::path::Path;

/// The `#data` sections of a tree-construction file.
fn dat_inputs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        if line != "#data" {
            continue;
        }
        let mut data = Vec::new();
        while let Some(&next) = lines.peek() {
            if next.starts_with("#errors") || next.starts_with("#new-errors") || next.starts_with("#document") {
                break;
            }
            data.push(next);
            lines.next();
        }
        out.push(data.join("\n"));
    }
    out
}

/// The `input` strings of a tokenizer test file (those not written double-escaped).
fn test_inputs(text: &str) -> Vec<String> {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let tests = json.get("tests").and_then(|t| t.as_array()).cloned().unwrap_or_default();
    tests
        .iter()
        .filter(|t| t.get("doubleEscaped").and_then(|d| d.as_bool()) != Some(true))
        .filter_map(|t| t.get("input").and_then(|i| i.as_str()).map(str::to_string))
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        return Err("usage: html5lib_trees DIR... (html5lib-tests' tree-construction and tokenizer folders)".into());
    }
    let (mut compared, mut differ) = (0usize, 0usize);
    for dir in &dirs {
        let mut files: Vec<_> = std::fs::read_dir(Path::new(dir))?.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file)?;
            let inputs = match file.extension().and_then(|e| e.to_str()) {
                Some("dat") => dat_inputs(&text),
                Some("test") => test_inputs(&text),
                _ => continue,
            };
            for (k, input) in inputs.iter().enumerate() {
                compared += 1;
                if let Err(e) = pith::internals::tokenizers_agree(input) {
                    differ += 1;
                    println!("{} #{k}: {input:?}\n{e}\n", file.display());
                }
            }
        }
    }
    println!("{compared} inputs compared, {differ} with different trees");
    Ok(())
}

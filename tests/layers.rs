//! The layer table of README.md ("Layout"), kept true: every `crate::…` and `super::…` path in the
//! library's sources (comments, string literals and `#[cfg(test)]` modules aside) must name a module of
//! its own layer or of one below. Inside `algorithms`, the contract lies under the seed methods, which
//! lie under `auto`, which lies under the registry; a seed method imports no other (the one exception is
//! the visual-importance variant of text density, `cehtd`, which is built on `cetd`). Nothing imports
//! through the crate root's re-exports (`crate::Engine`): they are the library's face to its users, and
//! a path to the defining module says where a thing lives.
//!
//! The binary's `cli/` and `main.rs` are the top of the stack and may use anything.

use std::path::{Path, PathBuf};

/// A top-level module's layer; modules of one layer may import each other.
fn layer(top: &str) -> Option<u8> {
    Some(match top {
        "error" => 0,
        "hash" | "net" => 1,
        "learn" | "site" => 2,
        "text" => 3,
        "dom" => 4,
        "metadata" => 5,
        "algorithms" => 6,
        "output" => 7,
        "engine" => 8,
        "browser" | "fetch" => 9,
        "lab" => 10,
        "batch" => 11,
        "configuration" => 12,
        "server" => 13,
        _ => return None,
    })
}

const SEED_METHODS: &[&str] =
    &["anchor_ratio", "bayes", "cehtd", "cetd", "dom_stats", "line_density", "pvalue", "template", "vips"];

/// Rank inside `algorithms`: the contract, the seed methods, `auto`, the registry (`mod.rs` and what
/// it re-exports).
fn algorithms_rank(second: Option<&str>) -> u8 {
    match second {
        Some("contract") => 0,
        Some(s) if SEED_METHODS.contains(&s) => 1,
        Some("auto") => 2,
        _ => 3,
    }
}

/// Source with comments removed and string and character literals emptied, so that neither a
/// doc comment's `crate::x` nor a string's braces count.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if let Some(hashes) = raw_string_start(src, i) {
            let open = 1 + hashes + 1; // r, the hashes, the quote
            let close = format!("\"{}", "#".repeat(hashes));
            i += open + rest[open..].find(&close).map_or(rest.len() - open, |e| e + close.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if let Some(len) = char_literal(rest) {
            i += len;
            out.push_str("' '");
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `r"…"` or `r#"…"#` starting at `i` (not the tail of an identifier): the number of hashes.
fn raw_string_start(src: &str, i: usize) -> Option<usize> {
    let b = src.as_bytes();
    if b[i] != b'r' || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) {
        return None;
    }
    let hashes = src[i + 1..].bytes().take_while(|&c| c == b'#').count();
    (b.get(i + 1 + hashes) == Some(&b'"')).then_some(hashes)
}

/// A character literal (`'{'`, `'\n'`, `'\u{7b}'`) at the start of `s`, not a lifetime: its length.
fn char_literal(s: &str) -> Option<usize> {
    if !s.starts_with('\'') {
        return None;
    }
    let mut chars = s.char_indices().skip(1);
    let (_, c) = chars.next()?;
    if c == '\\' {
        return s.get(3..)?.find('\'').map(|e| e + 4);
    }
    let (j, close) = chars.next()?;
    (close == '\'' && c != '\'').then_some(j + 1)
}

/// The code with every `#[cfg(test)]` item (a test module, a test-only import) removed.
fn without_tests(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        // The item ends at its `;` or at the brace that closes its first `{`, whichever comes first.
        let end = match (item.find(';'), item.find('{')) {
            (Some(semi), Some(brace)) if semi < brace => semi + 1,
            (_, Some(brace)) => {
                let mut depth = 0usize;
                let mut end = item.len();
                for (k, c) in item[brace..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = brace + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (Some(semi), None) => semi + 1,
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// Every path a file names from `crate::` or `super::`, made absolute (segments from the crate
/// root), `use` groups expanded.
fn imported_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let starts_word =
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        let rest = &code[i..];
        let base: Option<(Vec<String>, usize)> = if starts_word && rest.starts_with("crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if starts_word && rest.starts_with("super::") {
            let mut up = 0;
            let mut len = 0;
            while rest[len..].starts_with("super::") {
                up += 1;
                len += "super::".len();
            }
            Some((module[..module.len().saturating_sub(up)].to_vec(), len))
        } else {
            None
        };
        match base {
            Some((prefix, len)) => {
                let used = expand(&code[i + len..], prefix, &mut paths);
                i += len + used;
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    paths
}

/// Reads `a::b::{c, d::e}` at the start of `s` after `prefix`, pushing each full path; the bytes read.
fn expand(s: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    let mut i = 0;
    loop {
        let ident: String = s[i..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if ident.is_empty() {
            if s[i..].starts_with('{') {
                i += 1;
                loop {
                    let trimmed = s[i..].len() - s[i..].trim_start().len();
                    i += trimmed;
                    if s[i..].starts_with('}') {
                        return i + 1;
                    }
                    if s[i..].starts_with(',') {
                        i += 1;
                        continue;
                    }
                    if i >= s.len() {
                        return i;
                    }
                    let used = expand(&s[i..], path.clone(), out);
                    i += used.max(1);
                }
            }
            out.push(path);
            return i;
        }
        i += ident.len();
        path.push(ident);
        if s[i..].starts_with("::") {
            i += 2;
        } else {
            out.push(path);
            return i;
        }
    }
}

/// Why importing `target` from `module` breaks the layers, if it does.
fn violation(module: &[String], target: &[String]) -> Option<String> {
    let from_top = module.first()?.as_str();
    let to_top = target.first()?.as_str();
    if to_top == "self" || to_top == from_top && from_top != "algorithms" {
        return None;
    }
    if layer(to_top).is_none() {
        let starts_upper = to_top.chars().next().is_some_and(char::is_uppercase);
        return (starts_upper || to_top == "check_input")
            .then(|| format!("imports `crate::{to_top}` through the crate root; name its defining module"));
    }
    let (from, to) = (layer(from_top)?, layer(to_top)?);
    if to > from {
        return Some(format!("`{from_top}` (layer {from}) imports `{}` (layer {to})", target.join("::")));
    }
    if from_top == "algorithms" && to_top == "algorithms" {
        let (a, b) = (module.get(1).map(String::as_str), target.get(1).map(String::as_str));
        if a == b {
            return None;
        }
        let (ra, rb) = (algorithms_rank(a), algorithms_rank(b));
        if rb > ra {
            return Some(format!(
                "`{}` imports `{}`, above it inside algorithms",
                module.join("::"),
                target.join("::")
            ));
        }
        if ra == 1 && rb == 1 && !(a == Some("cehtd") && b == Some("cetd")) {
            return Some(format!("seed method `{}` imports seed method `{}`", module.join("::"), target.join("::")));
        }
    }
    None
}

/// The module path of a source file: `src/algorithms/auto/mod.rs` → `[algorithms, auto]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn violations_in(module: &[String], source: &str) -> Vec<String> {
    let code = without_tests(&code_only(source));
    imported_paths(module, &code).iter().filter_map(|t| violation(module, t)).collect()
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = Vec::new();
    let mut checked = 0;
    for file in &files {
        let module = module_of(&src, file);
        let top = module.first().map(String::as_str).unwrap_or("");
        if matches!(top, "lib" | "main" | "cli") {
            continue;
        }
        assert!(
            layer(top).is_some(),
            "{}: top-level module `{top}` has no layer in this test (and README's table)",
            file.display()
        );
        checked += 1;
        let source = std::fs::read_to_string(file).unwrap();
        found.extend(violations_in(&module, &source).into_iter().map(|v| format!("{}: {v}", file.display())));
    }
    assert!(checked > 100, "only {checked} files read from {}", src.display());
    assert!(found.is_empty(), "imports against the layer table:\n{}", found.join("\n"));
}

/// The checker itself catches what it is there to catch, and ignores what it must ignore.
#[test]
fn the_checker_sees_upward_imports_and_skips_comments_strings_and_tests() {
    let m = |s: &str| s.split('/').map(String::from).collect::<Vec<_>>();
    let dom = m("dom/build");
    assert_eq!(violations_in(&dom, "use crate::engine::Engine;").len(), 1);
    assert_eq!(violations_in(&dom, "use crate::{text::words, output::{Extraction, text}};").len(), 2);
    assert_eq!(violations_in(&dom, "fn f() { crate::server::serve(); }").len(), 1);
    assert_eq!(violations_in(&dom, "use crate::Error;").len(), 1, "root re-export");
    assert!(violations_in(&dom, "use crate::text::words;\nuse super::tree;").is_empty());
    assert!(
        violations_in(&dom, "/// see crate::engine::Engine\n// crate::lab\nconst S: &str = \"crate::server\";")
            .is_empty()
    );
    assert!(
        violations_in(
            &dom,
            "#[cfg(test)]\nmod tests {\n    use crate::output::Extraction;\n    fn f() { let c = '{'; }\n}"
        )
        .is_empty()
    );
    let quote = "const Q: char = '\\'';\n#[cfg(test)]\nmod tests { fn f() { let c = '}'; } }\nuse crate::lab;";
    assert_eq!(violations_in(&dom, quote).len(), 1, "an escaped quote, then a brace in a test module");
    assert_eq!(violations_in(&dom, "#[cfg(test)]\nuse crate::lab;\nuse crate::lab::eval;").len(), 1);
    // super:: climbs out of the module: from algorithms/cetd, super::auto is a seed method reaching up.
    assert_eq!(violations_in(&m("algorithms/cetd"), "use super::auto::features;").len(), 1);
    assert_eq!(violations_in(&m("algorithms/pvalue"), "use super::bayes::Model;").len(), 1, "seed to seed");
    assert!(violations_in(&m("algorithms/cehtd"), "use super::cetd::DensitySumRun;").is_empty());
    assert!(
        violations_in(&m("algorithms/auto/features"), "use crate::algorithms::{cetd, contract::Block};").is_empty()
    );
}

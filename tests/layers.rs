//! The layer table of README.md ("Layout"), kept true: every `crate::…` and `super::…` path in the
//! library's sources (comments, string literals and `#[cfg(test)]` modules aside) must name a module of
//! its own layer or of one below. Inside `algorithms`, the contract lies under the seed methods, which
//! lie under `auto`, which lies under the registry; a seed method imports no other (the one exception is
//! the visual-importance variant of text density, `cehtd`, which is built on `cetd`). Nothing imports
//! through the crate root's re-exports (`crate::Engine`): they are the library's face to its users, and
//! a path to the defining module says where a thing lives.
//!
//! The binary's `cli/` and `main.rs` are the top of the stack and may use anything.
//!
//! And no import circle between files, anywhere in `src/` (`cli/` included): the files form a graph,
//! an edge for every module a file names (through `crate::`, `super::`, `self::` or a child module's
//! name), and it has no cycle. A `mod.rs` that defines what its children use while calling them is
//! such a circle; a name it only re-exports is the defining file's, so a folder's face is not one.

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

/// The methods under `auto`: the seed papers' and the record regions (Liu, Grossman & Zhai's data
/// records), each publishing its measures.
const SEED_METHODS: &[&str] =
    &["anchor_ratio", "bayes", "cehtd", "cetd", "dom_stats", "line_density", "pvalue", "records", "template", "vips"];

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

/// The child modules a file declares (`mod x;`, `pub mod x;`): their names start paths of their own.
fn child_modules(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("mod ") {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + 4..];
        let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if before.is_none_or(|c| c.is_whitespace() || c == ';' || c == '}' || c == ')')
            && !name.is_empty()
            && after[name.len()..].trim_start().starts_with(';')
        {
            out.push(name);
        }
        rest = after;
    }
    out
}

/// Every path a file names from `crate::`, `super::`, `self::` or one of its child modules (`x::`
/// after `mod x;`), made absolute (segments from the crate root), `use` groups expanded.
fn imported_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let children = child_modules(code);
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let starts_word =
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        let rest = &code[i..];
        let child = children.iter().find(|c| {
            rest.starts_with(c.as_str()) && rest[c.len()..].starts_with("::") && !rest[c.len()..].starts_with(":::")
        });
        // `pub(in crate::x)` names a module to say who may see an item, not to use anything of it.
        let visibility = code[..i].trim_end().ends_with("pub(in");
        let base: Option<(Vec<String>, usize)> = if visibility {
            None
        } else if starts_word && rest.starts_with("crate::") {
            Some((Vec::new(), "crate::".len()))
        } else if starts_word && rest.starts_with("self::") {
            Some((module.to_vec(), "self::".len()))
        } else if child.is_some() && starts_word {
            Some((module.to_vec(), 0))
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
        return Some(format!("imports `crate::{to_top}` through the crate root; name its defining module"));
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

/// The trees of a file's `use` declarations (`a::{b, c}` of `pub use a::{b, c};`): what names it
/// brings into its module, which its child modules may name through `super::`.
fn use_trees(code: &str) -> Vec<&str> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("use ").map(|k| from + k) {
        from = at + 4;
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let before = code[..at].trim_end();
        let before = before.strip_suffix("pub").unwrap_or(before).trim_end();
        let before = match before.strip_suffix(')') {
            Some(b) if b.trim_end().ends_with("pub(crate") || b.trim_end().ends_with("pub(super") => {
                b.trim_end().trim_end_matches("pub(crate").trim_end_matches("pub(super").trim_end()
            }
            _ => before,
        };
        if before.is_empty() || before.ends_with([';', '{', '}', ']']) {
            let end = code[from..].find(';').map_or(code.len(), |e| from + e);
            out.push(&code[from..end]);
        }
    }
    out
}

/// The files of `src/` as a graph: an edge from a file to every file whose module it names. A path
/// to an item a module only imports (`pub use run::Report;` in a `mod.rs`, or a private `use` its
/// children reach through `super::`) leads to the file that defines it, so naming a module's face is
/// not an import of all it re-exports.
struct Graph {
    files: Vec<PathBuf>,
    edges: Vec<Vec<usize>>,
    /// For every edge, one path that makes it (`crate::a::B`), for the message.
    why: std::collections::HashMap<(usize, usize), String>,
}

fn import_graph(src: &Path, files: &[PathBuf]) -> Graph {
    let sources: Vec<(Vec<String>, String)> =
        files.iter().map(|f| (module_of(src, f), std::fs::read_to_string(f).unwrap())).collect();
    Graph { files: files.to_vec(), ..graph_of(&sources) }
}

/// [`import_graph`] of sources given as (module path, text).
fn graph_of(sources: &[(Vec<String>, String)]) -> Graph {
    use std::collections::HashMap;
    let modules: Vec<Vec<String>> = sources.iter().map(|(m, _)| m.clone()).collect();
    let codes: Vec<String> = sources.iter().map(|(_, text)| without_tests(&code_only(text))).collect();
    let index: HashMap<&[String], usize> = modules.iter().enumerate().map(|(k, m)| (m.as_slice(), k)).collect();
    // name → the path it re-exports, per file
    let reexports: Vec<HashMap<String, Vec<String>>> = modules
        .iter()
        .zip(&codes)
        .map(|(module, code)| {
            let mut names = HashMap::new();
            let children = child_modules(code).into_iter().map(|c| format!("mod {c};")).collect::<String>();
            for tree in use_trees(code) {
                for path in imported_paths(module, &format!("{children}{tree}")) {
                    if let Some(name) = path.last() {
                        names.insert(name.clone(), path.clone());
                    }
                }
            }
            names
        })
        .collect();
    let resolve = |path: &[String]| -> Option<usize> {
        let mut path = path.to_vec();
        for _ in 0..8 {
            let (depth, file) = (1..=path.len()).rev().find_map(|d| index.get(&path[..d]).map(|&f| (d, f)))?;
            match path.get(depth).and_then(|item| reexports[file].get(item)) {
                Some(target) if target != &path => path = target.clone(),
                _ => return Some(file),
            }
        }
        None
    };
    let mut why = HashMap::new();
    let edges = modules
        .iter()
        .zip(&codes)
        .enumerate()
        .map(|(k, (module, code))| {
            let mut to = Vec::new();
            for path in imported_paths(module, code) {
                if let Some(t) = resolve(&path).filter(|&t| t != k) {
                    why.entry((k, t)).or_insert_with(|| format!("crate::{}", path.join("::")));
                    to.push(t);
                }
            }
            to.sort_unstable();
            to.dedup();
            to
        })
        .collect();
    Graph { files: modules.iter().map(|m| PathBuf::from(m.join("/"))).collect(), edges, why }
}

/// The graph's circles: its strongly connected components of more than one file (Tarjan), each
/// with one cycle through it (a component can hold many).
fn cycles(g: &Graph) -> Vec<(Vec<usize>, Vec<usize>)> {
    struct State<'a> {
        g: &'a Graph,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.g.edges[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.components.push(component);
            }
        }
    }
    let n = g.files.len();
    let mut s = State {
        g,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    // One cycle per component: the shortest way back to its first file, by breadth-first search.
    s.components
        .iter()
        .map(|component| {
            let start = *component.iter().min().unwrap();
            let mut came_from = vec![usize::MAX; n];
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(v) = queue.pop_front() {
                for &w in &g.edges[v] {
                    if component.contains(&w) && came_from[w] == usize::MAX {
                        came_from[w] = v;
                        queue.push_back(w);
                    }
                }
            }
            let mut cycle = vec![start];
            let mut v = came_from[start];
            while v != start && v != usize::MAX {
                cycle.push(v);
                v = came_from[v];
            }
            cycle.reverse();
            let mut files = component.clone();
            files.sort_unstable();
            (files, cycle)
        })
        .collect()
}

#[test]
fn no_import_circle_between_files() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let g = import_graph(&src, &files);
    assert!(g.edges.iter().map(Vec::len).sum::<usize>() > 300, "too few imports read from {}", src.display());
    let name = |f: usize| g.files[f].strip_prefix(&src).unwrap().display().to_string();
    let found: Vec<String> = cycles(&g)
        .iter()
        .map(|(files, c)| {
            let mut line = format!(
                "{} files: {}\n  one cycle: {}",
                files.len(),
                files.iter().map(|&f| name(f)).collect::<Vec<_>>().join(", "),
                name(c[0])
            );
            for (k, &f) in c.iter().enumerate() {
                let next = c[(k + 1) % c.len()];
                line += &format!(" -({})-> {}", g.why[&(f, next)], name(next));
            }
            line
        })
        .collect();
    assert!(found.is_empty(), "import circles between files:\n{}", found.join("\n"));
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

/// The circle finder sees a child naming what its parent defines while the parent uses the child, and
/// follows a name the parent only re-exports to the file that defines it.
#[test]
fn the_circle_finder_sees_parent_and_child_circles_and_follows_re_exports() {
    let m = |s: &str| s.split('/').filter(|p| !p.is_empty()).map(String::from).collect::<Vec<_>>();
    let circle = [
        (m("a"), "mod b;\nmod c;\npub struct Y;\nfn f() { b::run(); }".to_string()),
        (m("a/b"), "use super::Y;\npub fn run() {}".to_string()),
        (m("a/c"), "pub struct Z;".to_string()),
    ];
    let g = graph_of(&circle);
    assert_eq!(cycles(&g).len(), 1, "a -> a/b -> a (super::Y)");
    let re_exported = [
        (m("a"), "mod b;\nmod c;\npub use c::Z;\nfn f() { b::run(); }".to_string()),
        (m("a/b"), "use super::Z;\npub fn run() {}".to_string()),
        (m("a/c"), "pub struct Z;".to_string()),
    ];
    let g = graph_of(&re_exported);
    assert!(cycles(&g).is_empty(), "super::Z is a/c's, which imports nothing");
    assert_eq!(g.edges[1], vec![2]);
    // A visibility path names no import; a comment or a string names nothing.
    let seen = [
        (m("a"), "mod b;\nfn f() { b::run(); }\npub(in crate::a) struct Y; // super::Y".to_string()),
        (m("a/b"), "pub(in crate::a) fn run() { let _ = \"crate::a::Y\"; }".to_string()),
    ];
    assert!(cycles(&graph_of(&seen)).is_empty());
}

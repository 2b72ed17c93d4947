//! The layer check run by `build.rs`: the crate's folders under `rust/` are layers,
//! `rules` ← `players` ← `learning` ← `python`, and a layer may use only the layers below
//! it. A source file of a lower layer that names a higher one fails the build, whichever
//! way the path is written: `crate::bots::...`, `crate::{sim, game}`, the flat re-exports
//! of `lib.rs` (`crate::sim`, `crate::actions`, ...) or `super::super::...`.
//!
//! Comments and string literals are skipped, so documentation may name any layer. Shared
//! with `tests/layers.rs`, which checks the checker on sample text.

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::path::Path;

/// The layers, lowest first: each folder `rust/<layer>/`.
pub const LAYERS: [&str; 4] = ["rules", "players", "learning", "python"];

/// What each layer must not know, for the error message.
fn above(layer: usize) -> String {
    LAYERS[layer + 1..].join(", ")
}

/// One use of a higher layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Path of the file, relative to the crate root (`rust/rules/game.rs`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The path as written, up to the name that reveals the layer (`crate::bots`).
    pub path: String,
    pub layer: usize,
    pub used: usize,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: the {} layer uses `{}`, which is in the {} layer; {} must not know {} \
             (layers: rules <- players <- learning <- python)",
            self.file,
            self.line,
            LAYERS[self.layer],
            self.path,
            LAYERS[self.used],
            LAYERS[self.layer],
            above(self.layer)
        )
    }
}

/// The layer of every name reachable from the crate root, read from `lib.rs`: the layer
/// modules themselves, and each `pub use` re-export by the layer its path starts in.
pub fn root_names(lib: &str) -> HashMap<String, usize> {
    let toks = tokens(lib);
    let mut names: HashMap<String, usize> = HashMap::new();
    for (i, l) in LAYERS.iter().enumerate() {
        names.insert((*l).to_string(), i);
    }
    // `use` items: (first segment, bound name); resolved until nothing changes, since a
    // re-export may go through another (`pub use board::Board` after `pub use rules::board`).
    let mut items: Vec<(String, String)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].text == "use" {
            let end = toks[i..].iter().position(|t| t.text == ";").map_or(toks.len(), |p| i + p);
            use_items(&toks[i + 1..end], None, &mut items);
            i = end;
        }
        i += 1;
    }
    loop {
        let mut changed = false;
        for (first, bound) in &items {
            if let Some(&l) = names.get(first) {
                if names.get(bound) != Some(&l) && !names.contains_key(bound) {
                    names.insert(bound.clone(), l);
                    changed = true;
                }
            }
        }
        if !changed {
            return names;
        }
    }
}

/// The items of one `use` tree (tokens after `use`, before `;`): `(first segment, name bound)`.
fn use_items(toks: &[Token], first: Option<&str>, out: &mut Vec<(String, String)>) {
    // Split at top-level commas.
    let mut depth = 0;
    let mut start = 0;
    let mut parts: Vec<&[Token]> = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        match t.text.as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&toks[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    for part in parts {
        let part: Vec<&Token> = part.iter().collect();
        if part.is_empty() {
            continue;
        }
        let head = first.map(str::to_string).unwrap_or_else(|| part[0].text.clone());
        if let Some(open) = part.iter().position(|t| t.text == "{") {
            let close = part.len() - 1;
            let inner: Vec<Token> = part[open + 1..close].iter().map(|t| (*t).clone()).collect();
            use_items(&inner, Some(&head), out);
            continue;
        }
        let bound = match part.iter().position(|t| t.text == "as") {
            Some(a) if a + 1 < part.len() => part[a + 1].text.clone(),
            _ => part[part.len() - 1].text.clone(),
        };
        if bound != "*" && bound != "self" {
            out.push((head, bound));
        }
    }
}

#[derive(Clone, Debug)]
struct Token {
    text: String,
    line: usize,
}

/// Identifiers and punctuation of Rust source, without comments, strings and chars.
fn tokens(src: &str) -> Vec<Token> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let n = b.len();
    while i < n {
        let c = b[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && i + 1 < n && b[i + 1] == '/' {
            while i < n && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && i + 1 < n && b[i + 1] == '*' {
            let mut depth = 0;
            while i < n {
                if b[i] == '/' && i + 1 < n && b[i + 1] == '*' {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && i + 1 < n && b[i + 1] == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == 'r'
            && i + 1 < n
            && (b[i + 1] == '"' || (b[i + 1] == '#' && i + 2 < n && matches!(b[i + 2], '"' | '#')))
        {
            // A raw string: r"...", r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while j < n && b[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1; // the opening quote
            while j < n {
                if b[j] == '\n' {
                    line += 1;
                }
                if b[j] == '"' && (0..hashes).all(|h| j + 1 + h < n && b[j + 1 + h] == '#') {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < n && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                if i < n && b[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if i + 2 < n && b[i + 1] == '\\' {
                i += 2;
                while i < n && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if i + 2 < n && b[i + 2] == '\'' {
                i += 3;
            } else {
                i += 1;
                while i < n && (b[i].is_alphanumeric() || b[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphanumeric() || c == '_' {
            let s = i;
            while i < n && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push(Token { text: b[s..i].iter().collect(), line });
        } else if c == ':' && i + 1 < n && b[i + 1] == ':' {
            out.push(Token { text: "::".into(), line });
            i += 2;
        } else {
            out.push(Token { text: c.to_string(), line });
            i += 1;
        }
    }
    out
}

/// The module path of a file under `rust/` (`rust/players/bots/search.rs` →
/// `players::bots::search`; a `mod.rs` is its folder's module; `lib.rs` the root).
pub fn module_path(file: &str) -> Vec<String> {
    let rel = file.strip_prefix("rust/").unwrap_or(file);
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The uses of higher layers in one source file (`file` relative to the crate root).
pub fn check_source(file: &str, src: &str, roots: &HashMap<String, usize>) -> Vec<Violation> {
    let module = module_path(file);
    let Some(layer) = module.first().and_then(|m| LAYERS.iter().position(|l| l == m)) else {
        return Vec::new();
    };
    let toks = tokens(src);
    let mut out = Vec::new();
    // Inline modules (`mod tests { ... }`) move `super` one level down.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].text.as_str();
        match t {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|m| m.1 == depth) {
                    inline.pop();
                }
            }
            "mod" if i + 2 < toks.len() && toks[i + 2].text == "{" => {
                inline.push((toks[i + 1].text.clone(), depth));
            }
            _ => {}
        }
        let starts_path = (t == "crate" || t == "super")
            && toks.get(i + 1).is_some_and(|n| n.text == "::")
            && (i == 0 || toks[i - 1].text != "::");
        if !starts_path {
            i += 1;
            continue;
        }
        let mut here: Vec<String> = module.clone();
        here.extend(inline.iter().map(|m| m.0.clone()));
        let mut written = String::new();
        let mut j = i;
        if t == "crate" {
            here.clear();
            written.push_str("crate::");
            j += 2;
        } else {
            while toks.get(j).is_some_and(|x| x.text == "super") && toks.get(j + 1).is_some_and(|x| x.text == "::") {
                here.pop();
                written.push_str("super::");
                j += 2;
            }
        }
        // Below the root, the first module names the layer; at the root, the next name does
        // (a layer, or a re-export of one), or each name of a `{...}` group.
        let mut used: Vec<(usize, String)> = Vec::new();
        if let Some(first) = here.first() {
            if let Some(l) = LAYERS.iter().position(|x| x == first) {
                used.push((l, written.clone()));
            }
        } else if let Some(next) = toks.get(j) {
            if next.text == "{" {
                let mut d = 0;
                let mut expect = true;
                let mut k = j;
                while k < toks.len() {
                    match toks[k].text.as_str() {
                        "{" => {
                            d += 1;
                            expect = d == 1;
                        }
                        "}" => {
                            d -= 1;
                            if d == 0 {
                                break;
                            }
                        }
                        "," if d == 1 => expect = true,
                        name if expect && d == 1 => {
                            expect = false;
                            if let Some(&l) = roots.get(name) {
                                used.push((l, format!("{written}{{{name}}}")));
                            }
                        }
                        _ => {}
                    }
                    k += 1;
                }
            } else if let Some(&l) = roots.get(next.text.as_str()) {
                used.push((l, format!("{written}{}", next.text)));
            }
        }
        for (l, path) in used {
            if l > layer {
                out.push(Violation { file: file.to_string(), line: toks[i].line, path, layer, used: l });
            }
        }
        i = j.max(i + 1);
    }
    out
}

/// Checks every `.rs` file under `root/rust`; an error for an unreadable tree.
pub fn check_tree(root: &Path) -> Result<Vec<Violation>, String> {
    let lib = fs::read_to_string(root.join("rust/lib.rs")).map_err(|e| format!("rust/lib.rs: {e}"))?;
    let roots = root_names(&lib);
    let mut files = Vec::new();
    collect(&root.join("rust"), &mut files)?;
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let rel = path.strip_prefix(root).map_err(|e| e.to_string())?.to_string_lossy().replace('\\', "/");
        let src = fs::read_to_string(&path).map_err(|e| format!("{rel}: {e}"))?;
        out.extend(check_source(&rel, &src, &roots));
    }
    Ok(out)
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result<(), String> {
    for entry in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The sibling modules one binding file names (`super::NAME`), from its source.
pub fn sibling_uses(src: &str, siblings: &[String]) -> Vec<String> {
    let toks = tokens(src);
    let mut out: Vec<String> = Vec::new();
    for w in toks.windows(3) {
        if w[0].text == "super" && w[1].text == "::" && siblings.contains(&w[2].text) && !out.contains(&w[2].text) {
            out.push(w[2].text.clone());
        }
    }
    out
}

/// A cycle in a graph of modules (`name` → the names it uses), as the path that closes it
/// (`a → b → a`), or `None`.
pub fn find_cycle(graph: &[(String, Vec<String>)]) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &[(String, Vec<String>)],
        done: &mut Vec<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.iter().any(|d| d == node) {
            return None;
        }
        path.push(node.to_string());
        let next = graph.iter().find(|(n, _)| n == node).map(|(_, uses)| uses.clone()).unwrap_or_default();
        for n in next {
            if let Some(c) = visit(&n, graph, done, path) {
                return Some(c);
            }
        }
        path.pop();
        done.push(node.to_string());
        None
    }
    let mut done = Vec::new();
    graph.iter().find_map(|(n, _)| visit(n, graph, &mut done, &mut Vec::new()))
}

/// A cycle among the binding modules (`rust/python/*.rs`), which must form layers of
/// their own (`convert` ← `types` ← `rules` ← `game` ← ...), or `None`.
pub fn binding_cycle(root: &Path) -> Result<Option<Vec<String>>, String> {
    let dir = root.join("rust/python");
    let mut files = Vec::new();
    collect(&dir, &mut files)?;
    files.sort();
    let name = |p: &std::path::PathBuf| p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let siblings: Vec<String> = files.iter().map(name).filter(|n| n != "mod").collect();
    let mut graph = Vec::new();
    for path in &files {
        if name(path) == "mod" {
            continue;
        }
        let src = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        graph.push((name(path), sibling_uses(&src, &siblings)));
    }
    Ok(find_cycle(&graph))
}

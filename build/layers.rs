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
    walk_paths(&module, &toks, |i, mut here| {
        let t = toks[i].text.as_str();
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
        j.max(i + 1)
    });
    out
}

/// Walks the tokens of a source file of `module`, calling `at(i, here)` at each path that
/// starts with `crate::` or `super::` (`here`: the module it is written in, an inline module
/// such as `mod tests { ... }` one level down, which moves `super`); `at` returns the token
/// to go on from.
fn walk_paths(module: &[String], toks: &[Token], mut at: impl FnMut(usize, Vec<String>) -> usize) {
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
        let mut here: Vec<String> = module.to_vec();
        here.extend(inline.iter().map(|m| m.0.clone()));
        i = at(i, here);
    }
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

/// Every path a source names from `crate::` or `super::`, made absolute: `super` resolved
/// from the file's `module` (inline modules, such as `mod tests { ... }`, one level down)
/// and every `{...}` group expanded, a `self` in a group naming the group's module.
/// `(line, segments)`, in order; `crate::bots::{eval, search::X}` gives `["bots", "eval"]`
/// and `["bots", "search", "X"]`.
pub fn absolute_paths(module: &[String], src: &str) -> Vec<(usize, Vec<String>)> {
    let toks = tokens(src);
    let mut out = Vec::new();
    walk_paths(module, &toks, |i, here| {
        // A group's braces are balanced, so skipping them leaves the depth count right.
        path_items(&toks, i, here, |line, path, _| out.push((line, path))).1
    });
    out
}

/// The items of the path starting at token `i` (`crate::...`, `super::...`, or a first
/// segment relative to `here`, the module the path is read in), each given to `item` as
/// `(line, absolute segments, the name it binds)` (an alias after `as`, else the last
/// segment). Returns the first token after the leading `crate`/`super`s, and the first
/// after the path.
fn path_items(
    toks: &[Token],
    i: usize,
    mut here: Vec<String>,
    mut item: impl FnMut(usize, Vec<String>, String),
) -> (usize, usize) {
    let mut j = i;
    if toks[i].text == "crate" {
        here.clear();
        j += 2;
    } else {
        while toks.get(j).is_some_and(|x| x.text == "super") && toks.get(j + 1).is_some_and(|x| x.text == "::") {
            here.pop();
            j += 2;
        }
    }
    let line = toks[i].line;
    let end = path_tail(toks, j, here, &mut |path, bound| item(line, path, bound));
    (j, end.max(i + 1))
}

/// The rest of a path from token `j` on, after the segments `prefix`: each of its items
/// (a group gives one per member) with the name it binds; the index of the first token
/// after it.
fn path_tail(
    toks: &[Token],
    mut j: usize,
    mut prefix: Vec<String>,
    item: &mut dyn FnMut(Vec<String>, String),
) -> usize {
    loop {
        match toks.get(j).map(|t| t.text.as_str()) {
            Some("{") => {
                j += 1;
                loop {
                    match toks.get(j).map(|t| t.text.as_str()) {
                        Some("}") => return j + 1,
                        Some(",") => j += 1,
                        None => return j,
                        _ => j = path_tail(toks, j, prefix.clone(), item),
                    }
                }
            }
            Some(name) if name.starts_with(|c: char| c.is_alphabetic() || c == '_') => {
                if name != "self" {
                    prefix.push(name.to_string());
                }
                j += 1;
                if toks.get(j).is_some_and(|t| t.text == "::") {
                    j += 1;
                    continue;
                }
                let mut bound = prefix.last().cloned().unwrap_or_default();
                if toks.get(j).is_some_and(|t| t.text == "as") {
                    bound = toks.get(j + 1).map_or(bound, |t| t.text.clone());
                    j += 2;
                }
                item(prefix, bound);
                return j;
            }
            Some("*") => {
                item(prefix, "*".into());
                return j + 1;
            }
            _ => {
                let bound = prefix.last().cloned().unwrap_or_default();
                item(prefix, bound);
                return j;
            }
        }
    }
}

/// The re-exports of one file of module `module` (`pub use ...;`, any visibility), as
/// `(the name re-exported, absolute; the path it names, absolute)`: `lib.rs`'s
/// `pub use players::{bots, sim}` gives `["bots"] → ["players", "bots"]` and the same for
/// `sim`. Glob re-exports are left out.
pub fn re_exports(module: &[String], src: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let toks = tokens(src);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i].text != "pub" {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        if toks.get(j).is_some_and(|t| t.text == "(") {
            while toks.get(j).is_some_and(|t| t.text != ")") {
                j += 1;
            }
            j += 1;
        }
        if !toks.get(j).is_some_and(|t| t.text == "use") {
            i = j;
            continue;
        }
        let (_, end) = path_items(&toks, j + 1, module.to_vec(), |_, path, bound| {
            if bound != "*" {
                let mut key = module.to_vec();
                key.push(bound);
                out.push((key, path));
            }
        });
        i = end;
    }
    out
}

/// `path` with every re-exported prefix replaced by what it names, until none is left
/// (`["sim", "BotSpec"]` → `["players", "sim", "BotSpec"]` → `["players", "bots",
/// "BotSpec"]` → `["players", "bots", "spec", "BotSpec"]`).
pub fn resolve(path: &[String], re_exports: &[(Vec<String>, Vec<String>)]) -> Vec<String> {
    let mut p = path.to_vec();
    // Bounded: a re-export naming itself (no valid crate has one) cannot loop forever.
    for _ in 0..32 {
        let hit = re_exports
            .iter()
            .filter(|(key, target)| p.starts_with(key) && !target.starts_with(key))
            .max_by_key(|(key, _)| key.len());
        let Some((key, target)) = hit else {
            break;
        };
        let mut next = target.clone();
        next.extend_from_slice(&p[key.len()..]);
        p = next;
    }
    p
}

/// The modules a folder's `mod.rs` declares (`mod x;`, `pub mod x;`), in order.
pub fn declared_modules(mod_rs: &str) -> Vec<String> {
    let toks = tokens(mod_rs);
    toks.windows(3).filter(|w| w[0].text == "mod" && w[2].text == ";").map(|w| w[1].text.clone()).collect()
}

/// The graph of the modules of the folder `rust/<dir>` (those its `mod.rs` declares):
/// each with the sibling modules it names, however written (`super::x`, `crate::...::x`,
/// through a re-export of `mod.rs`, of `lib.rs` or of any other file, in a group, in its
/// tests), in the order first named.
pub fn folder_graph(root: &Path, dir: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let read = |p: &Path| fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let mut files = Vec::new();
    collect(&root.join("rust"), &mut files)?;
    files.sort();
    let mut exports = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(root).map_err(|e| e.to_string())?.to_string_lossy().replace('\\', "/");
        exports.extend(re_exports(&module_path(&rel), &read(path)?));
    }
    let folder = module_path(&format!("rust/{dir}/mod.rs"));
    let modules = declared_modules(&read(&root.join("rust").join(dir).join("mod.rs"))?);
    let mut graph = Vec::new();
    for name in &modules {
        let file = root.join("rust").join(dir).join(format!("{name}.rs"));
        let src = match fs::read_to_string(&file) {
            Ok(src) => src,
            // A module in a folder of its own (`x/mod.rs`).
            Err(_) => read(&root.join("rust").join(dir).join(name).join("mod.rs"))?,
        };
        let mut me = folder.clone();
        me.push(name.clone());
        let mut uses: Vec<String> = Vec::new();
        for (_, path) in absolute_paths(&me, &src) {
            let path = resolve(&path, &exports);
            if let Some(used) = path.strip_prefix(folder.as_slice()).and_then(|rest| rest.first()) {
                if used != name && modules.contains(used) && !uses.contains(used) {
                    uses.push(used.clone());
                }
            }
        }
        graph.push((name.clone(), uses));
    }
    Ok(graph)
}

/// The modules `from` reaches in `graph` (itself left out unless on a cycle).
pub fn reaches(graph: &[(String, Vec<String>)], from: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut todo = vec![from.to_string()];
    while let Some(n) = todo.pop() {
        for u in graph.iter().find(|(m, _)| *m == n).map(|(_, u)| u.as_slice()).unwrap_or_default() {
            if !seen.contains(u) {
                seen.push(u.clone());
                todo.push(u.clone());
            }
        }
    }
    seen
}

/// The bots' seam of evaluation, which the searches use and which must use none of them.
pub const SEAM: &str = "evaluator";
/// The searches of the bots.
pub const SEARCHES: [&str; 3] = ["search", "mcts", "endgame"];

/// What is wrong with the graph of `rust/players/bots`: a cycle among its modules, or the
/// evaluator seam reaching a search (it must be a leaf below them). Empty when nothing is.
pub fn bots_problems(graph: &[(String, Vec<String>)]) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(cycle) = find_cycle(graph) {
        out.push(format!("the modules of rust/players/bots use each other in a cycle: {}", cycle.join(" -> ")));
    }
    let reached = reaches(graph, SEAM);
    for s in SEARCHES.iter().filter(|s| reached.iter().any(|r| r == *s)) {
        out.push(format!(
            "the evaluator seam (rust/players/bots/{SEAM}.rs) reaches the search `{s}`: it must use \
             no search, directly or through another module"
        ));
    }
    out
}

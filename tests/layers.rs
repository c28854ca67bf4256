//! The layer rule of `docs/architecture.md`, enforced: the core stands alone, the host stands on
//! the core, the native shells stand on the host, the client and the core and use one another only
//! through a shell's root, the browser's modules stand on the core alone, and no two top-level
//! modules import each other (directly or round a longer loop).
//!
//! The rule is read from the `layers` block of `docs/architecture.md`, so the page and the check
//! cannot drift apart; every top-level module declared in `src/lib.rs` must be in it.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One layer: its modules and the layers it may import.
#[derive(Debug)]
struct Layer {
    name: String,
    modules: BTreeSet<String>,
    may_import: BTreeSet<String>,
}

/// What may be imported from a shell by another shell: its root's items, never a submodule.
const SHELL_ROOT: &str = "shell-root";

/// Reads the block between `<!-- layers -->` and `<!-- /layers -->`: lines of
/// `name: module module … | layer layer …`.
fn rule(doc: &str) -> Vec<Layer> {
    let start = doc
        .find("<!-- layers -->")
        .expect("docs/architecture.md has a layers block");
    let end = doc.find("<!-- /layers -->").expect("the layers block ends");
    doc[start..end]
        .lines()
        .filter_map(|line| {
            let line = line.trim().trim_start_matches("    ");
            let (name, rest) = line.split_once(':')?;
            let (modules, may) = rest.split_once('|')?;
            Some(Layer {
                name: name.trim().to_owned(),
                modules: modules.split_whitespace().map(str::to_owned).collect(),
                may_import: may.split_whitespace().map(str::to_owned).collect(),
            })
        })
        .collect()
}

/// The top-level modules `src/lib.rs` declares.
fn declared(lib: &str) -> BTreeSet<String> {
    lib.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.to_owned())
        })
        .collect()
}

/// Every `crate::a::b` a source text names outside comments, as `(a, Some(b))`; `b` is `None`
/// when `a` is followed by anything but `::ident` (an item brought in whole, or a group).
/// `use crate::{a, b::c}` groups count each member.
fn references(text: &str) -> Vec<(String, Option<String>)> {
    let code: String = text
        .lines()
        .map(|l| &l[..comment_start(l)])
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        // `routelab_crate::`, `$crate::` and the like are not this crate's root.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for member in inner.split(',') {
                let member = member.trim();
                let top = ident(member);
                if top.is_empty() {
                    continue;
                }
                let next = member[top.len()..].strip_prefix("::").map(ident);
                out.push((top, next.filter(|n| !n.is_empty())));
            }
            continue;
        }
        let top = ident(rest);
        if top.is_empty() {
            continue;
        }
        let next = rest[top.len()..].strip_prefix("::").map(ident);
        out.push((top, next.filter(|n| !n.is_empty())));
    }
    out
}

/// Where a line's `//` comment starts (its length when it has none): `"http://…"` inside a string
/// is not a comment.
fn comment_start(line: &str) -> usize {
    let (mut in_string, mut escaped) = (false, false);
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return i,
            _ => {}
        }
    }
    line.len()
}

/// The submodules a module's root declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn submodules(root: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(root).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l
                .strip_prefix("pub(crate) ")
                .or_else(|| l.strip_prefix("pub "))
                .unwrap_or(l);
            Some(l.strip_prefix("mod ")?.strip_suffix(';')?.to_owned())
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for `lib.rs` and the binaries).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    if first == "lib.rs" || first == "bin" {
        return None;
    }
    Some(first.trim_end_matches(".rs").to_owned())
}

/// Every breach of the rule: `(file, what it names, why not)`.
fn breaches(
    layers: &[Layer],
    files: &[(String, String)],
    shell_api: &dyn Fn(&str) -> BTreeSet<String>,
) -> Vec<String> {
    let layer_of: BTreeMap<&str, &Layer> = layers
        .iter()
        .flat_map(|l| l.modules.iter().map(move |m| (m.as_str(), l)))
        .collect();
    let mut found = Vec::new();
    for (module, text) in files {
        let Some(own) = layer_of.get(module.as_str()) else {
            found.push(format!(
                "{module}: not in any layer of docs/architecture.md"
            ));
            continue;
        };
        for (top, next) in references(text) {
            if top == *module {
                continue;
            }
            let Some(theirs) = layer_of.get(top.as_str()) else {
                continue; // an item of lib.rs (VERSION), not a module
            };
            let allowed = own.may_import.contains(&theirs.name)
                || (own.name == theirs.name && own.may_import.contains(SHELL_ROOT) && {
                    // Another shell only through its root: `crate::server::run`, never
                    // `crate::server::conn::…`.
                    next.as_ref().is_none_or(|n| !shell_api(&top).contains(n))
                });
            if !allowed {
                let what = match &next {
                    Some(n) => format!("crate::{top}::{n}"),
                    None => format!("crate::{top}"),
                };
                found.push(format!(
                    "{module} ({}) names {what} ({}){}",
                    own.name,
                    theirs.name,
                    if own.name == theirs.name {
                        ": another shell's internals; use what its root offers"
                    } else {
                        ""
                    }
                ));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Loops between top-level modules: each module's imports, searched depth first.
fn module_loops(files: &[(String, String)], modules: &BTreeSet<String>) -> Vec<String> {
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (module, text) in files {
        for (top, _) in references(text) {
            if let Some(t) = modules.get(&top) {
                if t != module {
                    edges.entry(module.as_str()).or_default().insert(t.as_str());
                }
            }
        }
    }
    let mut loops = Vec::new();
    for start in edges.keys() {
        // A path from `start` back to itself through modules sorted after it (each loop once).
        let mut stack = vec![(*start, vec![*start])];
        let mut seen = BTreeSet::new();
        while let Some((at, path)) = stack.pop() {
            for next in edges.get(at).into_iter().flatten() {
                if next == start {
                    loops.push(format!("{} -> {start}", path.join(" -> ")));
                } else if next > start && seen.insert(*next) {
                    let mut p = path.clone();
                    p.push(next);
                    stack.push((next, p));
                }
            }
        }
    }
    loops
}

/// The rule, the modules `src/lib.rs` declares, each source file as `(its module, its text)`, and
/// where `src/` is.
struct Tree {
    layers: Vec<Layer>,
    declared: BTreeSet<String>,
    files: Vec<(String, String)>,
    src: PathBuf,
}

fn read_tree() -> Tree {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let src = root.join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let files = paths
        .iter()
        .filter_map(|p| Some((module_of(&src, p)?, std::fs::read_to_string(p).ok()?)))
        .collect();
    Tree {
        layers: rule(&doc),
        declared: declared(&lib),
        files,
        src,
    }
}

fn shell_api_of(src: &Path) -> impl Fn(&str) -> BTreeSet<String> + '_ {
    move |m: &str| {
        let dir = src.join(m).join("mod.rs");
        if dir.exists() {
            submodules(&dir)
        } else {
            submodules(&src.join(format!("{m}.rs")))
        }
    }
}

#[test]
fn every_module_has_a_layer_and_keeps_to_it() {
    let Tree {
        layers,
        declared,
        files,
        src,
    } = read_tree();
    assert!(
        layers.len() >= 4,
        "the layers block lists the layers: {layers:?}"
    );
    let placed: BTreeSet<String> = layers.iter().flat_map(|l| l.modules.clone()).collect();
    let unplaced: Vec<_> = declared.difference(&placed).collect();
    assert!(
        unplaced.is_empty(),
        "modules of src/lib.rs in no layer of docs/architecture.md: {unplaced:?}"
    );
    let gone: Vec<_> = placed.difference(&declared).collect();
    assert!(
        gone.is_empty(),
        "the layers block names modules src/lib.rs does not: {gone:?}"
    );
    let found = breaches(&layers, &files, &shell_api_of(&src));
    assert!(
        found.is_empty(),
        "imports against the layer rule (docs/architecture.md):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn no_two_top_level_modules_import_each_other() {
    let Tree {
        declared, files, ..
    } = read_tree();
    let loops = module_loops(&files, &declared);
    assert!(
        loops.is_empty(),
        "top-level modules in a loop:\n  {}",
        loops.join("\n  ")
    );
}

/// The checker itself: each kind of breach is seen, and what is allowed passes.
#[test]
fn the_checker_sees_each_kind_of_breach() {
    let layers = rule(
        "<!-- layers -->\n    core: model sim | core\n    host: host | core\n    \
         shell: server demo | core host shell-root\n    browser: ui | core\n<!-- /layers -->",
    );
    let api = |m: &str| -> BTreeSet<String> {
        match m {
            "server" => ["conn".to_owned()].into(),
            _ => BTreeSet::new(),
        }
    };
    let file = |m: &str, t: &str| vec![(m.to_owned(), t.to_owned())];
    // Allowed: core → core, shell → host, a shell's root item, a comment, a string.
    for (m, t) in [
        ("sim", "use crate::model::Topic;"),
        ("server", "use crate::host::clock::now_ms;"),
        ("demo", "use crate::server::{run, ServerConfig};"),
        ("sim", "// see crate::host::web"),
        ("ui", "let s = \"http://x\"; // crate::host"),
    ] {
        assert_eq!(
            breaches(&layers, &file(m, t), &api),
            Vec::<String>::new(),
            "{m}: {t}"
        );
    }
    // Refused: core → host, browser → shell, a shell's submodule, a module in no layer.
    for (m, t) in [
        ("model", "use crate::host::clock::now_ms;"),
        ("sim", "use crate::{model::X, host::web};"),
        ("ui", "crate::server::run()"),
        ("demo", "use crate::server::conn::Conn;"),
        ("stray", "use crate::model::X;"),
    ] {
        assert_eq!(breaches(&layers, &file(m, t), &api).len(), 1, "{m}: {t}");
    }
    // A loop between two modules, and none without one.
    let modules: BTreeSet<String> = ["model", "sim", "view"].map(str::to_owned).into();
    let two = [
        ("sim".to_owned(), "use crate::view::Share;".to_owned()),
        ("view".to_owned(), "use crate::sim::Scenario;".to_owned()),
        ("model".to_owned(), String::new()),
    ];
    assert_eq!(module_loops(&two, &modules).len(), 1);
    assert!(module_loops(&two[1..], &modules).is_empty());
}

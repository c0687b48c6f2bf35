//! The `use` graph of the crates' non-test code has no cycle, at file level
//! and at the level of each crate's top-level modules (issue "A small front
//! door": a layout a contributor reads in the order the data flows).
//!
//! The sources are read with `syn`, from each crate's root through its `mod`
//! declarations (`#[path]`, `mod.rs` and `name.rs` layouts); `#[cfg(test)]`
//! items (test modules, test-only functions inside impls) are left out. A
//! module depends on another when it names it: in a `use` (every leaf of a
//! tree) or in a path anywhere in its code, macro bodies included (`crate::`,
//! `super::`, `self::`, or a child module's name at a path's start). A path
//! that ends at an item a module re-exports (`crate::ToolArgs`) is followed to
//! the module that defines the item. A module's `pub use` of its own
//! descendants (how a parent opens its children's items) is not a
//! dependency: it is the module's face, not a use of them.

#[path = "support/rust_source.rs"]
mod rust_source;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use rust_source::{impl_item_attrs, is_cfg_test, item_attrs, path_attr, use_leaves};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Each crate's root file, relative to the workspace.
const CRATES: [&str; 4] = [
    "normalize-core/src/lib.rs",
    "normalize-derive/src/lib.rs",
    "src/lib.rs",
    "src/bin/toolargs/main.rs",
];

/// A module's path inside its crate (`[]` is the crate's root).
type ModPath = Vec<String>;

/// Where a module depends on another, as written.
#[derive(Clone, Debug)]
struct Edge {
    to: ModPath,
    written: String,
}

struct Module {
    file: PathBuf,
    /// Child modules declared in it.
    children: BTreeSet<String>,
    /// Names its `use` declarations bind: name → the path as written (from
    /// this module).
    uses: HashMap<String, Vec<String>>,
    /// `pub use` leaves (paths, resolved later): their own descendants are
    /// no dependency.
    pub_uses: Vec<Vec<String>>,
    /// Other `use` leaves and every path in the code.
    paths: Vec<Vec<String>>,
    /// String literals in its code naming a JSON Schema composition keyword
    /// (`"$ref"`, `"allOf"`, `"anyOf"`, `"oneOf"`): where it reads or writes
    /// a schema's structure itself.
    schema_words: usize,
}

struct Crate {
    modules: BTreeMap<ModPath, Module>,
}

impl Module {
    /// Notes what an item's code names: its paths, and the schema keywords
    /// among its string literals.
    fn read_code(&mut self, tokens: TokenStream) {
        self.schema_words += schema_words_in(tokens.clone());
        self.paths.extend(paths_in(tokens));
    }
}

impl Crate {
    fn load(root: &Path) -> Crate {
        let mut krate = Crate {
            modules: BTreeMap::new(),
        };
        let dir = root.parent().unwrap().to_path_buf();
        krate.load_file(Vec::new(), root, &dir);
        krate
    }

    fn load_file(&mut self, at: ModPath, file: &Path, child_dir: &Path) {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let parsed = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("cannot parse {}: {e}", file.display()));
        let base = file.parent().unwrap().to_path_buf();
        self.load_items(at, file, parsed.items, child_dir, &base);
    }

    fn load_items(
        &mut self,
        at: ModPath,
        file: &Path,
        items: Vec<syn::Item>,
        child_dir: &Path,
        path_base: &Path,
    ) {
        let mut module = Module {
            file: file.to_path_buf(),
            children: BTreeSet::new(),
            uses: HashMap::new(),
            pub_uses: Vec::new(),
            paths: Vec::new(),
            schema_words: 0,
        };
        for item in items {
            if is_cfg_test(item_attrs(&item)) {
                continue;
            }
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    module.children.insert(name.clone());
                    let mut child = at.clone();
                    child.push(name.clone());
                    if let Some((_, content)) = m.content {
                        let dir = child_dir.join(&name);
                        self.load_items(child, file, content, &dir, &dir);
                    } else if let Some(path) = path_attr(&m.attrs) {
                        let path = path_base.join(path);
                        let dir = path.parent().unwrap().to_path_buf();
                        self.load_file(child, &path, &dir);
                    } else {
                        let flat = child_dir.join(format!("{name}.rs"));
                        let nested = child_dir.join(&name).join("mod.rs");
                        let path = if flat.exists() { flat } else { nested };
                        self.load_file(child, &path, &child_dir.join(&name));
                    }
                }
                syn::Item::Use(u) => {
                    let public = !matches!(u.vis, syn::Visibility::Inherited);
                    for leaf in use_leaves(&u.tree) {
                        if let Some(name) = leaf.name {
                            module.uses.insert(name, leaf.path.clone());
                        }
                        if public {
                            module.pub_uses.push(leaf.path);
                        } else {
                            module.paths.push(leaf.path);
                        }
                    }
                }
                syn::Item::Impl(mut imp) => {
                    imp.items.retain(|item| !is_cfg_test(impl_item_attrs(item)));
                    module.read_code(imp.into_token_stream());
                }
                item => module.read_code(item.into_token_stream()),
            }
        }
        self.modules.insert(at, module);
    }

    /// The module `path` (written in module `from`) names, and whether it
    /// named it through a re-export it followed; `None` for a path outside
    /// the crate (another crate, a local item, a generic parameter).
    fn resolve(&self, from: &ModPath, path: &[String], depth: usize) -> Option<ModPath> {
        let (first, rest) = path.split_first()?;
        let mut at: ModPath = match first.as_str() {
            "crate" => Vec::new(),
            "self" => from.clone(),
            "super" => from[..from.len().checked_sub(1)?].to_vec(),
            name if self.modules[from].children.contains(name) => {
                let mut child = from.clone();
                child.push(name.to_owned());
                child
            }
            name => {
                // A name a `use` of this module binds: the path it stands for.
                let used = self.modules[from].uses.get(name)?;
                if depth > 8 || used.first().is_some_and(|f| f == name) && used.len() == 1 {
                    return None;
                }
                let mut whole = used.clone();
                whole.extend(rest.iter().cloned());
                return self.resolve(from, &whole, depth + 1);
            }
        };
        let mut rest = rest;
        while let Some((segment, tail)) = rest.split_first() {
            if segment == "super" {
                at.pop();
            } else if segment == "self" {
            } else if self.modules[&at].children.contains(segment) {
                at.push(segment.clone());
            } else if let Some(used) = self.modules[&at].uses.get(segment) {
                // Re-exported here: the module that defines it.
                if depth > 8 {
                    return Some(at);
                }
                let mut whole = used.clone();
                whole.extend(tail.iter().cloned());
                // (Nothing of this crate when it names another crate's.)
                return self.resolve(&at, &whole, depth + 1);
            } else {
                break;
            }
            rest = tail;
        }
        Some(at)
    }

    /// Every module's dependencies on other modules of the crate.
    fn edges(&self) -> BTreeMap<ModPath, Vec<Edge>> {
        let mut edges = BTreeMap::new();
        for (at, module) in &self.modules {
            let mut out: Vec<Edge> = Vec::new();
            let mut add = |path: &[String], descendants_free: bool| {
                if let Some(to) = self.resolve(at, path, 0) {
                    let own_descendant = to.len() > at.len() && to.starts_with(at);
                    if to != *at && !(descendants_free && own_descendant) {
                        out.push(Edge {
                            to,
                            written: path.join("::"),
                        });
                    }
                }
            };
            for path in &module.pub_uses {
                add(path, true);
            }
            for path in &module.paths {
                add(path, false);
            }
            edges.insert(at.clone(), out);
        }
        edges
    }
}

/// How many string literals in `tokens` are a composition keyword of JSON
/// Schema.
fn schema_words_in(tokens: TokenStream) -> usize {
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(group) => schema_words_in(group.stream()),
            TokenTree::Literal(literal) => usize::from(matches!(
                literal.to_string().as_str(),
                r#""$ref""# | r#""allOf""# | r#""anyOf""# | r#""oneOf""#
            )),
            _ => 0,
        })
        .sum()
}

/// Every path in `tokens` (macro bodies included) that starts with an
/// identifier and continues with `::`: `crate::a::b`, `super::x`, `name::y`.
fn paths_in(tokens: TokenStream) -> Vec<Vec<String>> {
    fn walk(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let colons = |i: usize| {
            matches!((trees.get(i), trees.get(i + 1)),
                (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                    if a.as_char() == ':' && b.as_char() == ':')
        };
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(group) => walk(group.stream(), out),
                TokenTree::Ident(ident) if colons(i + 1) && !(i >= 2 && colons(i - 2)) => {
                    let mut path = vec![ident.to_string()];
                    let mut j = i + 1;
                    while colons(j) {
                        match trees.get(j + 2) {
                            Some(TokenTree::Ident(next)) => {
                                path.push(next.to_string());
                                j += 3;
                            }
                            _ => break,
                        }
                    }
                    out.push(path);
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
    let mut out = Vec::new();
    walk(tokens, &mut out);
    out
}

/// The cycles of a graph, one per strongly connected group of more than
/// one node (Tarjan), each as its nodes in order with the edges between,
/// and the group's members.
type Cycle<N> = (Vec<(N, String)>, Vec<N>);

fn cycles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeMap<N, String>>) -> Vec<Cycle<N>> {
    // Groups by Tarjan's algorithm (recursive: the graphs are small).
    struct State<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        groups: Vec<Vec<N>>,
    }
    fn connect<N: Ord + Clone>(
        node: &N,
        graph: &BTreeMap<N, BTreeMap<N, String>>,
        state: &mut State<N>,
    ) {
        let n = state.index.len();
        state.index.insert(node.clone(), n);
        state.low.insert(node.clone(), n);
        state.stack.push(node.clone());
        for next in graph.get(node).into_iter().flat_map(|e| e.keys()) {
            if !state.index.contains_key(next) {
                connect(next, graph, state);
                let low = state.low[node].min(state.low[next]);
                state.low.insert(node.clone(), low);
            } else if state.stack.contains(next) {
                let low = state.low[node].min(state.index[next]);
                state.low.insert(node.clone(), low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut group = Vec::new();
            while let Some(member) = state.stack.pop() {
                let done = &member == node;
                group.push(member);
                if done {
                    break;
                }
            }
            if group.len() > 1 {
                state.groups.push(group);
            }
        }
    }
    let mut state = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        groups: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node) {
            connect(node, graph, &mut state);
        }
    }
    // One cycle through each group: from its first node, a walk inside the
    // group back to it.
    state
        .groups
        .iter()
        .map(|group| {
            let start = group.iter().min().unwrap().clone();
            let inside = |n: &N| group.contains(n);
            // Breadth-first from the start's successors back to the start.
            let mut came_from: BTreeMap<N, (N, String)> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start.clone()]);
            'search: while let Some(node) = queue.pop_front() {
                for (next, why) in &graph[&node] {
                    if !inside(next) || came_from.contains_key(next) {
                        continue;
                    }
                    came_from.insert(next.clone(), (node.clone(), why.clone()));
                    if *next == start {
                        break 'search;
                    }
                    queue.push_back(next.clone());
                }
            }
            let mut cycle = Vec::new();
            let mut node = start.clone();
            loop {
                let (previous, why) = came_from[&node].clone();
                cycle.push((previous.clone(), why));
                node = previous;
                if node == start {
                    break;
                }
            }
            cycle.reverse();
            let mut members = group.clone();
            members.sort();
            (cycle, members)
        })
        .collect()
}

fn describe<N>(cycles: &[Cycle<N>], name: impl Fn(&N) -> String) -> String {
    cycles
        .iter()
        .map(|(cycle, members)| {
            let steps: Vec<String> = cycle
                .iter()
                .map(|(node, why)| format!("{} --({why})-->", name(node)))
                .collect();
            let members: Vec<String> = members.iter().map(&name).collect();
            format!(
                "  {} {}\n    (the group: {})",
                steps.join(" "),
                name(&cycle[0].0),
                members.join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_use_graph_of_non_test_code_has_no_cycle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut counted = Vec::new();
    for root in CRATES {
        let krate = Crate::load(&workspace.join(root));
        let edges = krate.edges();
        let file = |at: &ModPath| {
            krate.modules[at]
                .file
                .strip_prefix(workspace)
                .unwrap()
                .display()
                .to_string()
        };
        // Files: modules written in one file (inline ones) are one node.
        let mut files: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        // Top-level modules (the root as `crate`).
        let mut tops: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        let top = |at: &ModPath| at.first().cloned().unwrap_or_else(|| "crate".to_owned());
        let mut n_edges = 0;
        for (at, out) in &edges {
            files.entry(file(at)).or_default();
            tops.entry(top(at)).or_default();
            for edge in out {
                n_edges += 1;
                let why = format!("{} in {}", edge.written, file(at));
                if file(at) != file(&edge.to) {
                    files
                        .entry(file(at))
                        .or_default()
                        .entry(file(&edge.to))
                        .or_insert_with(|| why.clone());
                }
                if top(at) != top(&edge.to) {
                    tops.entry(top(at))
                        .or_default()
                        .entry(top(&edge.to))
                        .or_insert(why);
                }
            }
        }
        counted.push(format!(
            "{root}: {} modules, {} files, {} top-level modules, {n_edges} uses",
            edges.len(),
            files.len(),
            tops.len()
        ));
        for (level, graph) in [("file", &files), ("top-level module", &tops)] {
            let found = cycles(graph);
            let in_cycles: usize = found.iter().map(|(_, members)| members.len()).sum();
            let known = KNOWN
                .iter()
                .find(|(r, l, _)| *r == root && *l == level)
                .map_or(0, |(_, _, n)| *n);
            counted.push(format!(
                "  {level} level: {in_cycles} in cycles (at most {known} allowed; the goal is 0)"
            ));
            if in_cycles > known {
                failures.push(format!(
                    "{root}: {in_cycles} {level}s in cycles, more than the {known} of the last \
                     count; {} group(s):\n{}",
                    found.len(),
                    describe(&found, |n| n.clone())
                ));
            } else if in_cycles > 0 {
                println!("{}", describe(&found, |n| n.clone()));
            }
        }
    }
    println!("{}", counted.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Cycles allowed, per crate root and level (files or top-level modules in
/// cycles): none. The last ones broke when the contract's compilation moved
/// out of `__private` into `compile` (which names no `ToolArgs`) and each
/// parent module stopped defining what its children use. A level not listed
/// allows none; list one only to land a step of a larger move, and lower it
/// back to zero.
const KNOWN: &[(&str, &str, usize)] = &[];

/// Issue "One contract model": a schema's structure (`$ref`, `allOf`,
/// `anyOf`, `oneOf`) is to be read once, into the graph every stage reads,
/// and no code outside it walks or rewrites a raw schema `Value` for a fact
/// the graph holds. Until then, a ratchet: the runtime's files outside
/// `plan/` (the compiled schema, the graph's seed) whose non-test code names
/// those keywords, and how often they name them, may not grow; lower both
/// as stages move onto the compiled form. (Exports and grammars write
/// schemas and keep some.)
#[test]
fn raw_schema_walkers_outside_the_plan_do_not_grow() {
    const KNOWN_FILES: usize = 27;
    const KNOWN_WORDS: usize = 259;
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let krate = Crate::load(&workspace.join(CRATES[0]));
    let mut by_file: BTreeMap<String, usize> = BTreeMap::new();
    for (at, module) in &krate.modules {
        if at.first().is_some_and(|top| top == "plan") || module.schema_words == 0 {
            continue;
        }
        let file = module
            .file
            .strip_prefix(workspace)
            .unwrap_or(&module.file)
            .display()
            .to_string();
        *by_file.entry(file).or_default() += module.schema_words;
    }
    let listed: Vec<String> = by_file
        .iter()
        .map(|(file, words)| format!("  {file}: {words}"))
        .collect();
    let words: usize = by_file.values().sum();
    println!(
        "files outside plan/ that name $ref/allOf/anyOf/oneOf: {} (at most {KNOWN_FILES}), {words} \
         times (at most {KNOWN_WORDS}); the goal is the exports' and grammars' writers alone\n{}",
        by_file.len(),
        listed.join("\n")
    );
    assert!(
        by_file.len() <= KNOWN_FILES && words <= KNOWN_WORDS,
        "{} files outside plan/ read or write a schema's structure raw, {words} times: more than \
         the {KNOWN_FILES} files or {KNOWN_WORDS} times of the last count:\n{}",
        by_file.len(),
        listed.join("\n")
    );
}

/// The graph reader finds what it must: a cycle written on purpose, a
/// re-export followed to its definition, a parent's `pub use` of its child
/// left out, test code left out.
#[test]
fn the_reader_sees_cycles_re_exports_and_leaves_out_a_parents_face() {
    let dir = std::env::temp_dir().join(format!("toolargs-module-graph-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("b")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "lib.rs",
        "mod a; pub mod b; pub use b::Thing; #[cfg(test)] mod tests;",
    );
    // `a` uses `b`'s item through the root's re-export; `b/inner` names `a`
    // only inside a macro; `b` opens its child with `pub use`.
    write("a.rs", "pub fn f() -> crate::Thing { todo!() }");
    write("b/mod.rs", "mod inner; pub use inner::Thing;");
    write(
        "b/inner.rs",
        "pub struct Thing; fn g() { let _ = format!(\"{:?}\", crate::a::f as fn() -> _); \
         let _ = [\"anyOf\", \"any\"]; }\n\
         #[cfg(test)] fn h() { crate::a::f(); let _ = \"$ref\"; }",
    );
    write("tests.rs", "use crate::a::f;");
    let krate = Crate::load(&dir.join("lib.rs"));
    let edges = krate.edges();
    let named = |from: &[&str]| -> Vec<String> {
        let from: ModPath = from.iter().map(|s| s.to_string()).collect();
        edges[&from].iter().map(|e| e.to.join("::")).collect()
    };
    assert_eq!(named(&["a"]), ["b::inner"]);
    assert_eq!(named(&["b"]), Vec::<String>::new());
    assert_eq!(named(&["b", "inner"]), ["a"]);
    assert!(!krate.modules.contains_key(&vec!["tests".to_owned()]));
    // A schema keyword in the code counts; one in test code does not.
    let inner = vec!["b".to_owned(), "inner".to_owned()];
    assert_eq!(krate.modules[&inner].schema_words, 1);
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (at, out) in &edges {
        let node = graph.entry(at.join("::")).or_default();
        for edge in out {
            node.insert(edge.to.join("::"), edge.written.clone());
        }
    }
    let found = cycles(&graph);
    assert_eq!(found.len(), 1, "{found:?}");
    let nodes: Vec<&str> = found[0].0.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(nodes, ["a", "b::inner"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Prints the uses of the runtime's modules whose path starts with `FROM`
/// (`FROM=plan cargo test --test module_graph -- --ignored --nocapture`):
/// where to look when a cycle shows.
#[test]
#[ignore]
fn dump_edges() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let krate = Crate::load(&workspace.join(CRATES[0]));
    let filter = std::env::var("FROM").unwrap_or_default();
    for (at, out) in krate.edges() {
        let name = at.join("::");
        if !name.starts_with(&filter) {
            continue;
        }
        for e in out {
            println!("{name} -> {} ({})", e.to.join("::"), e.written);
        }
    }
}

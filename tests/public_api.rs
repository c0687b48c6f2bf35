//! The public API, one line per item, compared with a committed snapshot
//! (`tests/snapshots/public_api.txt`).
//!
//! The crate's face was cut down on purpose (issue "A small front door"): this
//! test is there so that it cannot grow back by accident. Every public item a
//! user can name, through the facade `toolargs` or the runtime
//! `toolargs_core`, is listed with its signature; a change to that list fails
//! here with the lines added and removed. A change to the public API is made on
//! purpose, with a CHANGELOG entry, and accepted by rerunning with
//! `TOOLARGS_BLESS=1 cargo test --test public_api`, which rewrites the
//! snapshot so the change shows in review as a diff.
//!
//! The lister reads the sources with `syn`, on stable Rust (rustdoc's JSON
//! output, which tools like `cargo public-api` read, needs nightly). It starts
//! at `src/lib.rs` and `normalize-core/src/lib.rs` and follows `pub mod`
//! declarations (`#[path]`, `mod.rs` and `name.rs` layouts). It lists:
//!
//! - `pub` functions, constants, statics, type aliases, modules and traits
//!   (with their items), structs (with their `pub` fields), enums (with their
//!   variants) and their `#[derive]`s;
//! - the `pub` methods and constants of a public type's inherent impls, and
//!   one line for each trait impl, wherever in the crate the impl is written;
//! - each `pub use` name as written, one line per name (a glob as `*`). A name
//!   re-exported from a private module is listed in full at the path a user
//!   names it by (its fields, variants and methods), since that path is the
//!   only one a user has.
//!
//! Skipped: modules named `__private`, anything `#[doc(hidden)]` or
//! `#[cfg(test)]`, private modules' own items (unless re-exported), and
//! `pub(crate)`, `pub(super)` and `pub(in ...)` items. Feature-gated items are
//! listed with their `#[cfg(...)]` in front. A constant's value and a
//! function's body are not part of the line.

#[path = "support/rust_source.rs"]
mod rust_source;

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use rust_source::{is_cfg_test, item_attrs, path_attr, use_leaves};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

const SNAPSHOT: &str = "tests/snapshots/public_api.txt";

/// The crates whose public API is listed: (name a user writes, its root file).
const CRATES: [(&str, &str); 2] = [
    ("toolargs", "src/lib.rs"),
    ("toolargs_core", "normalize-core/src/lib.rs"),
];

#[test]
fn public_api_matches_the_snapshot() {
    let api = Api::load();
    let actual = api.render();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    if std::env::var_os("TOOLARGS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let diff = line_diff(&expected, &actual);
        panic!(
            "the public API differs from {SNAPSHOT}:\n{diff}\n\
             A change to the public API is made on purpose: if this one is, say so in \
             CHANGELOG.md and rerun with TOOLARGS_BLESS=1 \
             (`TOOLARGS_BLESS=1 cargo test --test public_api`) to accept it."
        );
    }
}

#[test]
fn public_api_counts() {
    let api = Api::load();
    let lines = api.lines();
    let root = api.root_items("toolargs");
    let core_root = api.root_items("toolargs_core");
    println!(
        "public root items of `toolargs` (its own items and `pub use` names, globs as written): {}",
        root.len()
    );
    for item in &root {
        println!("  toolargs::{item}");
    }
    println!("public root items of `toolargs_core`: {}", core_root.len());
    println!("public API lines: {}", lines.len());

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    let snapshot = std::fs::read_to_string(&path).unwrap_or_default();
    let snapshot_lines = snapshot.lines().filter(|l| !l.trim().is_empty()).count();
    println!("lines in {SNAPSHOT}: {snapshot_lines}");
    // A lister that lists nothing must not pass by matching an empty snapshot.
    assert!(
        lines.len() >= 50,
        "the lister found only {} lines",
        lines.len()
    );
    assert!(
        snapshot_lines >= 50,
        "{SNAPSHOT} has only {snapshot_lines} lines"
    );
    assert!(!root.is_empty(), "the facade has no public root item");
}

/// Lines only in `expected` (removed) and only in `actual` (added).
fn line_diff(expected: &str, actual: &str) -> String {
    let mut old: HashMap<&str, isize> = HashMap::new();
    for line in expected.lines() {
        *old.entry(line).or_default() += 1;
    }
    let mut new: HashMap<&str, isize> = HashMap::new();
    for line in actual.lines() {
        *new.entry(line).or_default() += 1;
    }
    let mut removed = BTreeSet::new();
    let mut added = BTreeSet::new();
    for (line, n) in &old {
        if new.get(line).copied().unwrap_or(0) < *n {
            removed.insert(*line);
        }
    }
    for (line, n) in &new {
        if old.get(line).copied().unwrap_or(0) < *n {
            added.insert(*line);
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} line(s) removed, {} line(s) added",
        removed.len(),
        added.len()
    );
    for line in removed {
        let _ = writeln!(out, "- {line}");
    }
    for line in added {
        let _ = writeln!(out, "+ {line}");
    }
    out
}

// ---------------------------------------------------------------------------
// The crates' modules, as parsed.

/// A module's path from its crate's name: `["toolargs_core", "validate"]`.
type ModKey = Vec<String>;

struct Module {
    items: Vec<syn::Item>,
}

/// What a name resolves to inside the crates.
#[derive(Clone)]
enum Binding {
    Module(ModKey),
    /// An item (not a module) named `.1`, defined in module `.0`.
    Item(ModKey, String),
}

struct Api {
    modules: HashMap<ModKey, Module>,
    /// Modules a user reaches through `pub mod` from a crate's root.
    public: HashSet<ModKey>,
    /// Impl blocks by the type they are for: (defining module, type name).
    /// (each with the module it is written in).
    impls: HashMap<(ModKey, String), Vec<(ModKey, syn::ItemImpl)>>,
}

impl Api {
    fn load() -> Api {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut api = Api {
            modules: HashMap::new(),
            public: HashSet::new(),
            impls: HashMap::new(),
        };
        for (name, file) in CRATES {
            let path = root.join(file);
            let dir = path.parent().unwrap().to_path_buf();
            let key = vec![name.to_string()];
            api.public.insert(key.clone());
            api.load_file(key, &path, &dir, true);
        }
        api.index_impls();
        api
    }

    /// Parses a module's file; `child_dir` is where its `mod x;` files are.
    fn load_file(&mut self, key: ModKey, path: &Path, child_dir: &Path, public: bool) {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let file = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()));
        let base = path.parent().unwrap().to_path_buf();
        self.load_items(key, file.items, child_dir, &base, public);
    }

    /// Registers a module's items and loads its submodules. `path_base` is
    /// what a `#[path]` on a submodule is relative to.
    fn load_items(
        &mut self,
        key: ModKey,
        items: Vec<syn::Item>,
        child_dir: &Path,
        path_base: &Path,
        public: bool,
    ) {
        let items: Vec<syn::Item> = items
            .into_iter()
            .filter(|item| !is_cfg_test(item_attrs(item)))
            .collect();
        for item in &items {
            let syn::Item::Mod(m) = item else { continue };
            let name = m.ident.to_string();
            if name == "__private" || is_doc_hidden(&m.attrs) {
                continue;
            }
            let mut child_key = key.clone();
            child_key.push(name.clone());
            let child_public = public && is_pub(&m.vis);
            if child_public {
                self.public.insert(child_key.clone());
            }
            if let Some((_, content)) = &m.content {
                let dir = child_dir.join(&name);
                self.load_items(child_key, content.clone(), &dir, &dir, child_public);
                continue;
            }
            if let Some(file) = path_attr(&m.attrs) {
                let file = path_base.join(file);
                // A file named by `#[path]` keeps its submodules beside it.
                let dir = file.parent().unwrap().to_path_buf();
                self.load_file(child_key, &file, &dir, child_public);
                continue;
            }
            let flat = child_dir.join(format!("{name}.rs"));
            let nested = child_dir.join(&name).join("mod.rs");
            if flat.exists() {
                self.load_file(child_key, &flat, &child_dir.join(&name), child_public);
            } else if nested.exists() {
                self.load_file(child_key, &nested, &child_dir.join(&name), child_public);
            } else {
                panic!(
                    "no file for module {} in {}",
                    child_key.join("::"),
                    child_dir.display()
                );
            }
        }
        self.modules.insert(key, Module { items });
    }

    /// Files every impl block under the type it is for, when that type is
    /// one of ours.
    fn index_impls(&mut self) {
        let mut impls = HashMap::new();
        for (key, module) in &self.modules {
            for item in &module.items {
                let syn::Item::Impl(imp) = item else { continue };
                let Some(segments) = type_path(&imp.self_ty) else {
                    continue;
                };
                if let Some(Binding::Item(def, name)) = self.resolve(key, &segments, 0) {
                    impls
                        .entry((def, name))
                        .or_insert_with(Vec::new)
                        .push((key.clone(), imp.clone()));
                }
            }
        }
        self.impls = impls;
    }

    /// Resolves a path as written in module `from` (privacy ignored): its
    /// last segment names an item if one of that name is there, else a module.
    fn resolve(&self, from: &ModKey, segments: &[String], depth: usize) -> Option<Binding> {
        if depth > 16 || segments.is_empty() {
            return None;
        }
        let (mut binding, rest) = match segments[0].as_str() {
            "crate" => (Binding::Module(vec![from[0].clone()]), &segments[1..]),
            "self" => (Binding::Module(from.clone()), &segments[1..]),
            "super" => {
                let mut current = from.clone();
                let mut rest = segments;
                while rest.first().is_some_and(|s| s == "super") {
                    current.pop();
                    rest = &rest[1..];
                }
                (Binding::Module(current), rest)
            }
            first => {
                let last = segments.len() == 1;
                let binding = match self.lookup(from, first, depth, !last) {
                    Some(binding) => binding,
                    // Another of the listed crates: `toolargs_core::...`.
                    None if self.modules.contains_key(&vec![first.to_string()]) => {
                        Binding::Module(vec![first.to_string()])
                    }
                    None => return None,
                };
                (binding, &segments[1..])
            }
        };
        for (i, segment) in rest.iter().enumerate() {
            let Binding::Module(key) = binding else {
                return None;
            };
            binding = self.lookup(&key, segment, depth + 1, i + 1 < rest.len())?;
        }
        Some(binding)
    }

    /// What `name` means inside `module`: an item or module defined there,
    /// or a name a `use` brings in. `want_module` says which to prefer when
    /// a module and an item share the name (`pub use detect::detect`).
    fn lookup(
        &self,
        module: &ModKey,
        name: &str,
        depth: usize,
        want_module: bool,
    ) -> Option<Binding> {
        if depth > 16 {
            return None;
        }
        let items = &self.modules.get(module)?.items;
        let mut found = Vec::new();
        for item in items {
            if let syn::Item::Mod(m) = item {
                if m.ident == name {
                    let mut key = module.clone();
                    key.push(name.to_string());
                    if self.modules.contains_key(&key) {
                        found.push(Binding::Module(key));
                    }
                }
            } else if item_ident(item).is_some_and(|ident| ident == name) {
                found.push(Binding::Item(module.clone(), name.to_string()));
            }
        }
        if let Some(binding) = found
            .iter()
            .find(|b| matches!(b, Binding::Module(_)) == want_module)
        {
            return Some(binding.clone());
        }
        let mut globs = Vec::new();
        for item in items {
            let syn::Item::Use(u) = item else { continue };
            for leaf in use_leaves(&u.tree) {
                match &leaf.name {
                    Some(bound) if bound == name => {
                        let mut path = leaf.path.clone();
                        if path.is_empty() {
                            continue;
                        }
                        if let Some(binding) =
                            self.resolve_use(module, &mut path, depth + 1, want_module)
                        {
                            found.push(binding);
                        }
                    }
                    None => globs.push(leaf.path),
                    _ => {}
                }
            }
        }
        let pick = |found: &[Binding]| {
            found
                .iter()
                .find(|b| matches!(b, Binding::Module(_)) == want_module)
                .or(found.first())
                .cloned()
        };
        if let Some(binding) = pick(&found) {
            return Some(binding);
        }
        for glob in globs {
            if let Some(Binding::Module(key)) = self.resolve(module, &glob, depth + 1)
                && let Some(binding) = self.lookup(&key, name, depth + 1, want_module)
            {
                return Some(binding);
            }
        }
        None
    }

    /// A `use` path, its last segment read as `want_module` asks.
    fn resolve_use(
        &self,
        module: &ModKey,
        path: &mut Vec<String>,
        depth: usize,
        want_module: bool,
    ) -> Option<Binding> {
        if !want_module {
            return self.resolve(module, path, depth);
        }
        let last = path.pop()?;
        if path.is_empty() {
            return self.lookup(module, &last, depth, true).or_else(|| {
                let key = vec![last.clone()];
                self.modules
                    .contains_key(&key)
                    .then_some(Binding::Module(key))
            });
        }
        match self.resolve(module, path, depth)? {
            Binding::Module(key) => self.lookup(&key, &last, depth + 1, true),
            Binding::Item(..) => None,
        }
    }

    fn item(&self, module: &ModKey, name: &str) -> Option<&syn::Item> {
        self.modules.get(module)?.items.iter().find(|item| {
            !matches!(
                item,
                syn::Item::Mod(_) | syn::Item::Impl(_) | syn::Item::Use(_)
            ) && item_ident(item).is_some_and(|ident| ident == name)
        })
    }

    // -----------------------------------------------------------------------
    // The listing.

    fn lines(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        let mut seen = HashSet::new();
        for (name, _) in CRATES {
            let key = vec![name.to_string()];
            self.list_module(&key, name, &mut out, &mut seen);
        }
        out.into_iter().collect()
    }

    fn render(&self) -> String {
        let mut text = String::new();
        for line in self.lines() {
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    /// Names `toolargs_core::` or `toolargs::` exports directly.
    fn root_items(&self, krate: &str) -> Vec<String> {
        let key = vec![krate.to_string()];
        let mut names = Vec::new();
        for item in &self.modules[&key].items {
            if !listed(item) {
                continue;
            }
            let cfg = cfg_prefix(item_attrs(item));
            match item {
                syn::Item::Use(u) => {
                    for leaf in use_leaves(&u.tree) {
                        let name = leaf.name.clone().unwrap_or_else(|| "*".to_string());
                        let written = leaf.written;
                        names.push(format!("{name} ({cfg}pub use {written})"));
                    }
                }
                syn::Item::Mod(m) => names.push(format!("{} ({cfg}pub mod)", m.ident)),
                syn::Item::Impl(_) => {}
                other => {
                    if let Some(ident) = item_ident(other) {
                        names.push(format!("{ident} ({cfg}{})", kind(other)));
                    }
                }
            }
        }
        names.sort();
        names
    }

    /// Lists module `key`'s public items under the path `at`.
    fn list_module(
        &self,
        key: &ModKey,
        at: &str,
        out: &mut BTreeSet<String>,
        seen: &mut HashSet<(ModKey, String)>,
    ) {
        if !seen.insert((key.clone(), at.to_string())) {
            return;
        }
        let Some(module) = self.modules.get(key) else {
            return;
        };
        for item in &module.items {
            if !listed(item) {
                continue;
            }
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let mut child = key.clone();
                    child.push(name.clone());
                    if !self.modules.contains_key(&child) {
                        continue; // `__private`, `#[doc(hidden)]`
                    }
                    let cfg = cfg_prefix(&m.attrs);
                    out.insert(format!("{at}::{name}: {cfg}pub mod {name}"));
                    self.list_module(&child, &format!("{at}::{name}"), out, seen);
                }
                syn::Item::Use(u) => {
                    let cfg = cfg_prefix(&u.attrs);
                    for leaf in use_leaves(&u.tree) {
                        let Some(name) = leaf.name.clone() else {
                            out.insert(format!("{at}::*: {cfg}pub use {}", leaf.written));
                            continue;
                        };
                        out.insert(format!("{at}::{name}: {cfg}pub use {}", leaf.written));
                        // A name from a module no user can reach is listed in
                        // full here, the one path a user has to it.
                        match self.resolve(key, &leaf.path, 0) {
                            Some(Binding::Item(def, ident))
                                if !self.public.contains(&def)
                                    && self.canonical(&def, &ident).is_none_or(|c| &c == key) =>
                            {
                                if let Some(target) = self.item(&def, &ident) {
                                    self.list_item(target, &def, &format!("{at}::{name}"), out);
                                }
                            }
                            Some(Binding::Module(def)) if !self.public.contains(&def) => {
                                self.list_module(&def, &format!("{at}::{name}"), out, seen);
                            }
                            _ => {}
                        }
                    }
                }
                syn::Item::Impl(_) => {} // listed with the type
                other => {
                    if let Some(ident) = item_ident(other) {
                        self.list_item(other, key, &format!("{at}::{ident}"), out);
                    }
                }
            }
        }
    }

    /// Where an item of a private module is listed in full: the nearest
    /// public module above it, when that module re-exports it (`contract`
    /// for `contract::error::ContractError`, though the root re-exports it
    /// too). `None`: every public re-export lists it in full.
    fn canonical(&self, def: &ModKey, ident: &str) -> Option<ModKey> {
        let mut above = def.clone();
        while !self.public.contains(&above) {
            above.pop();
            if above.is_empty() {
                return None;
            }
        }
        let items = &self.modules.get(&above)?.items;
        let reexports = items.iter().any(|item| {
            let syn::Item::Use(u) = item else {
                return false;
            };
            listed(item)
                && use_leaves(&u.tree).iter().any(|leaf| {
                    leaf.name.is_some()
                        && matches!(self.resolve(&above, &leaf.path, 0),
                            Some(Binding::Item(d, i)) if &d == def && i == ident)
                })
        });
        reexports.then_some(above)
    }

    /// Lists one item (defined in module `def`) at the path `at`: its own
    /// line, then its fields, variants, trait items, derives and impls.
    fn list_item(&self, item: &syn::Item, def: &ModKey, at: &str, out: &mut BTreeSet<String>) {
        let attrs = item_attrs(item);
        let prefix = format!("{}{}", cfg_prefix(attrs), non_exhaustive_prefix(attrs));
        let mut put = |path: &str, text: String| {
            out.insert(format!("{path}: {text}"));
        };
        let name = item_ident(item).unwrap_or_default();
        match item {
            syn::Item::Fn(f) => {
                let (vis, sig) = (&f.vis, &f.sig);
                put(at, format!("{prefix}{}", render(quote::quote!(#vis #sig))));
            }
            syn::Item::Const(c) => {
                let (vis, ident, ty) = (&c.vis, &c.ident, &c.ty);
                put(
                    at,
                    format!("{prefix}{}", render(quote::quote!(#vis const #ident: #ty))),
                );
            }
            syn::Item::Static(s) => {
                let (vis, mutability, ident, ty) = (&s.vis, &s.mutability, &s.ident, &s.ty);
                let tokens = quote::quote!(#vis static #mutability #ident: #ty);
                put(at, format!("{prefix}{}", render(tokens)));
            }
            syn::Item::Type(t) => {
                let (vis, ident, generics, ty) = (&t.vis, &t.ident, &t.generics, &t.ty);
                let where_clause = &generics.where_clause;
                let tokens = quote::quote!(#vis type #ident #generics = #ty #where_clause);
                put(at, format!("{prefix}{}", render(tokens)));
            }
            syn::Item::Macro(_) => put(at, format!("{prefix}macro_rules! {name}")),
            syn::Item::Trait(t) => {
                let mut header = t.clone();
                header.attrs.clear();
                header.items.clear();
                put(
                    at,
                    format!("{prefix}{}", strip_body(&render(header.to_token_stream()))),
                );
                for trait_item in &t.items {
                    let (attrs, member, text) = match trait_item {
                        syn::TraitItem::Fn(f) => {
                            let sig = &f.sig;
                            let provided = if f.default.is_some() { " { .. }" } else { "" };
                            let text = format!("{}{provided}", render(sig.to_token_stream()));
                            (&f.attrs, sig.ident.to_string(), text)
                        }
                        syn::TraitItem::Const(c) => {
                            let (ident, ty) = (&c.ident, &c.ty);
                            (
                                &c.attrs,
                                ident.to_string(),
                                render(quote::quote!(const #ident: #ty)),
                            )
                        }
                        syn::TraitItem::Type(ty) => {
                            let mut ty = ty.clone();
                            ty.attrs.clear();
                            let member = ty.ident.to_string();
                            let attrs = match trait_item {
                                syn::TraitItem::Type(original) => &original.attrs,
                                _ => unreachable!(),
                            };
                            (
                                attrs,
                                member,
                                render(ty.to_token_stream())
                                    .trim_end_matches(';')
                                    .to_string(),
                            )
                        }
                        _ => continue,
                    };
                    if is_doc_hidden(attrs) || is_cfg_test(attrs) {
                        continue;
                    }
                    put(
                        &format!("{at}::{member}"),
                        format!("{}{text}", cfg_prefix(attrs)),
                    );
                }
            }
            syn::Item::Struct(s) => {
                let (vis, ident, generics) = (&s.vis, &s.ident, &s.generics);
                let where_clause = &generics.where_clause;
                let mut header = render(quote::quote!(#vis struct #ident #generics #where_clause));
                header.push_str(match s.fields {
                    syn::Fields::Named(_) => " { .. }",
                    syn::Fields::Unnamed(_) => "(..)",
                    syn::Fields::Unit => ";",
                });
                if s.fields.iter().any(|f| !is_pub(&f.vis)) {
                    header.push_str(" /* private fields */");
                }
                put(at, format!("{prefix}{header}"));
                list_fields(&s.fields, at, &mut put);
            }
            syn::Item::Union(u) => {
                let (vis, ident, generics) = (&u.vis, &u.ident, &u.generics);
                let where_clause = &u.generics.where_clause;
                let header = render(quote::quote!(#vis union #ident #generics #where_clause));
                put(at, format!("{prefix}{header} {{ .. }}"));
                let fields = syn::Fields::Named(u.fields.clone());
                list_fields(&fields, at, &mut put);
            }
            syn::Item::Enum(e) => {
                let (vis, ident, generics) = (&e.vis, &e.ident, &e.generics);
                let where_clause = &generics.where_clause;
                let header = render(quote::quote!(#vis enum #ident #generics #where_clause));
                put(at, format!("{prefix}{header}"));
                for variant in &e.variants {
                    if is_doc_hidden(&variant.attrs) || is_cfg_test(&variant.attrs) {
                        continue;
                    }
                    let mut shown = variant.clone();
                    let variant_prefix = format!(
                        "{}{}",
                        cfg_prefix(&variant.attrs),
                        non_exhaustive_prefix(&variant.attrs)
                    );
                    shown.attrs.clear();
                    for field in shown.fields.iter_mut() {
                        field.attrs.clear();
                    }
                    let text = render(shown.to_token_stream());
                    put(
                        &format!("{at}::{}", variant.ident),
                        format!("{variant_prefix}{text}"),
                    );
                }
            }
            _ => {}
        }
        if !matches!(
            item,
            syn::Item::Struct(_) | syn::Item::Enum(_) | syn::Item::Union(_)
        ) {
            return;
        }
        let derives = derives(attrs);
        if !derives.is_empty() {
            put(at, format!("#[derive({})]", derives.join(", ")));
        }
        let Some(impls) = self.impls.get(&(def.clone(), name)) else {
            return;
        };
        for (written_in, imp) in impls {
            if is_doc_hidden(&imp.attrs) {
                continue;
            }
            let impl_cfg = cfg_prefix(&imp.attrs);
            if let Some((trait_path, _)) = &imp.trait_ {
                if trait_path
                    .to_token_stream()
                    .to_string()
                    .contains("__private")
                {
                    continue;
                }
                // A private trait of ours (`trait Fed`) is no user's to call.
                let segments: Vec<String> = trait_path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                if let Some(Binding::Item(trait_def, trait_name)) =
                    self.resolve(written_in, &segments, 0)
                    && let Some(syn::Item::Trait(t)) = self.item(&trait_def, &trait_name)
                    && (!is_pub(&t.vis) || is_doc_hidden(&t.attrs))
                {
                    continue;
                }
                let mut header = imp.clone();
                header.attrs.clear();
                header.items.clear();
                put(
                    at,
                    format!(
                        "{impl_cfg}{}",
                        strip_body(&render(header.to_token_stream()))
                    ),
                );
                continue;
            }
            for impl_item in &imp.items {
                let (attrs, vis, member, text) = match impl_item {
                    syn::ImplItem::Fn(f) => {
                        let (vis, sig) = (&f.vis, &f.sig);
                        (
                            &f.attrs,
                            vis,
                            sig.ident.to_string(),
                            render(quote::quote!(#vis #sig)),
                        )
                    }
                    syn::ImplItem::Const(c) => {
                        let (vis, ident, ty) = (&c.vis, &c.ident, &c.ty);
                        let text = render(quote::quote!(#vis const #ident: #ty));
                        (&c.attrs, vis, ident.to_string(), text)
                    }
                    _ => continue,
                };
                if !is_pub(vis) || is_doc_hidden(attrs) || is_cfg_test(attrs) {
                    continue;
                }
                let cfg = format!("{impl_cfg}{}", cfg_prefix(attrs));
                put(&format!("{at}::{member}"), format!("{cfg}{text}"));
            }
        }
    }
}

/// One line per `pub` field: `Type::name: pub name: T`, `Type::0: pub T`.
fn list_fields(fields: &syn::Fields, at: &str, put: &mut impl FnMut(&str, String)) {
    for (index, field) in fields.iter().enumerate() {
        if !is_pub(&field.vis) || is_doc_hidden(&field.attrs) || is_cfg_test(&field.attrs) {
            continue;
        }
        let mut shown = field.clone();
        shown.attrs.clear();
        let member = match &field.ident {
            Some(ident) => ident.to_string(),
            None => index.to_string(),
        };
        let text = format!(
            "{}{}",
            cfg_prefix(&field.attrs),
            render(shown.to_token_stream())
        );
        put(&format!("{at}::{member}"), text);
    }
}

// ---------------------------------------------------------------------------
// Attributes and names.

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// Whether an item of a module is part of what a user sees.
fn listed(item: &syn::Item) -> bool {
    let attrs = item_attrs(item);
    if is_doc_hidden(attrs) || is_cfg_test(attrs) {
        return false;
    }
    match item {
        syn::Item::Impl(_) => true,
        syn::Item::Macro(m) => m.attrs.iter().any(|a| a.path().is_ident("macro_export")),
        syn::Item::Const(i) => is_pub(&i.vis),
        syn::Item::Enum(i) => is_pub(&i.vis),
        syn::Item::ExternCrate(i) => is_pub(&i.vis),
        syn::Item::Fn(i) => is_pub(&i.vis),
        syn::Item::Mod(i) => is_pub(&i.vis) && i.ident != "__private",
        syn::Item::Static(i) => is_pub(&i.vis),
        syn::Item::Struct(i) => is_pub(&i.vis),
        syn::Item::Trait(i) => is_pub(&i.vis),
        syn::Item::TraitAlias(i) => is_pub(&i.vis),
        syn::Item::Type(i) => is_pub(&i.vis),
        syn::Item::Union(i) => is_pub(&i.vis),
        syn::Item::Use(i) => is_pub(&i.vis),
        _ => false,
    }
}

/// The name an item defines (not for `use` and `impl`).
fn item_ident(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Mod(i) => &i.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

fn kind(item: &syn::Item) -> &'static str {
    match item {
        syn::Item::Const(_) => "pub const",
        syn::Item::Enum(_) => "pub enum",
        syn::Item::Fn(_) => "pub fn",
        syn::Item::Static(_) => "pub static",
        syn::Item::Struct(_) => "pub struct",
        syn::Item::Trait(_) => "pub trait",
        syn::Item::Type(_) => "pub type",
        syn::Item::Union(_) => "pub union",
        syn::Item::Macro(_) => "macro_rules!",
        _ => "pub item",
    }
}

/// The tokens inside `#[name(...)]`, for each such attribute.
fn attr_args<'a>(attrs: &'a [syn::Attribute], name: &str) -> impl Iterator<Item = String> + 'a {
    let name = name.to_string();
    attrs
        .iter()
        .filter(move |a| a.path().is_ident(&name))
        .filter_map(|a| match &a.meta {
            syn::Meta::List(list) => Some(list.tokens.to_string()),
            _ => None,
        })
}

fn is_doc_hidden(attrs: &[syn::Attribute]) -> bool {
    attr_args(attrs, "doc").any(|args| {
        args.split(|c: char| !c.is_alphanumeric())
            .any(|w| w == "hidden")
    })
}

/// `#[cfg(...)] ` for each `cfg` (other than `cfg(test)`), as written.
fn cfg_prefix(attrs: &[syn::Attribute]) -> String {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .map(|a| format!("{} ", render(a.to_token_stream())))
        .collect()
}

fn non_exhaustive_prefix(attrs: &[syn::Attribute]) -> &'static str {
    if attrs.iter().any(|a| a.path().is_ident("non_exhaustive")) {
        "#[non_exhaustive] "
    } else {
        ""
    }
}

/// The traits of every `#[derive(...)]`, in order.
fn derives(attrs: &[syn::Attribute]) -> Vec<String> {
    let mut names = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("derive")) {
        let _ = attr.parse_nested_meta(|meta| {
            names.push(render(meta.path.to_token_stream()));
            Ok(())
        });
    }
    names
}

/// The path of the type an impl is for (through references), generics dropped.
fn type_path(ty: &syn::Type) -> Option<Vec<String>> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => Some(
            p.path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect(),
        ),
        syn::Type::Reference(r) => type_path(&r.elem),
        syn::Type::Paren(p) => type_path(&p.elem),
        syn::Type::Group(g) => type_path(&g.elem),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// Tokens to text, spaced the way rustfmt would write a signature:
// `pub fn new(schema: &Value) -> Result<Self, ValidatorBuildError>`.

enum Tok {
    Word(String),
    Op(String),
    Group(Delimiter, String),
}

fn render(tokens: TokenStream) -> String {
    let mut toks = Vec::new();
    let mut trees = tokens.into_iter().peekable();
    while let Some(tree) = trees.next() {
        match tree {
            TokenTree::Ident(ident) => toks.push(Tok::Word(ident.to_string())),
            TokenTree::Literal(lit) => toks.push(Tok::Word(lit.to_string())),
            TokenTree::Group(group) => {
                // A trailing comma as written (`f(a, b,)`) is dropped.
                let inner = render(group.stream());
                let inner = inner.strip_suffix(',').unwrap_or(&inner).to_string();
                toks.push(Tok::Group(group.delimiter(), inner))
            }
            TokenTree::Punct(punct) => {
                let mut op = punct.as_char().to_string();
                if punct.as_char() == '\''
                    && let Some(TokenTree::Ident(ident)) = trees.peek()
                {
                    op.push_str(&ident.to_string());
                    trees.next();
                    toks.push(Tok::Word(op));
                    continue;
                }
                let mut spacing = punct.spacing();
                while spacing == Spacing::Joint {
                    match trees.peek() {
                        Some(TokenTree::Punct(next)) => {
                            op.push(next.as_char());
                            spacing = next.spacing();
                            trees.next();
                        }
                        _ => break,
                    }
                }
                toks.push(Tok::Op(op));
            }
        }
    }
    let mut text = String::new();
    for (i, tok) in toks.iter().enumerate() {
        if i > 0 && spaced(&toks[i - 1], tok) {
            text.push(' ');
        }
        match tok {
            Tok::Word(w) | Tok::Op(w) => text.push_str(w),
            Tok::Group(delimiter, inner) => match delimiter {
                Delimiter::Parenthesis => write!(text, "({inner})").unwrap(),
                Delimiter::Bracket => write!(text, "[{inner}]").unwrap(),
                Delimiter::Brace if inner.is_empty() => text.push_str("{}"),
                Delimiter::Brace => write!(text, "{{ {inner} }}").unwrap(),
                Delimiter::None => text.push_str(inner),
            },
        }
    }
    text
}

/// Whether a space goes between two tokens.
fn spaced(prev: &Tok, cur: &Tok) -> bool {
    const KEYWORDS: [&str; 12] = [
        "as", "const", "dyn", "for", "impl", "in", "mut", "static", "struct", "enum", "unsafe",
        "where",
    ];
    match (prev, cur) {
        // Prefixes: `&T`, `*const T`, `!Send`, `?Sized`, `#[..]`, `a::b`, `Vec<T>`.
        (Tok::Op(p), _)
            if matches!(
                p.as_str(),
                "&" | "&&" | "*" | "!" | "?" | "#" | "::" | "<" | "-" | "."
            ) =>
        {
            false
        }
        // Closers and separators stick to what they follow.
        (_, Tok::Op(c)) if matches!(c.as_str(), "," | ";" | ":" | "." | ">" | ">>") => false,
        // `impl<T>`, `for<'a>`, `Vec<T>`.
        (Tok::Word(_), Tok::Op(c)) if c == "<" => false,
        (Tok::Word(w), Tok::Op(c)) if c == "::" || c == "!" => KEYWORDS.contains(&w.as_str()),
        (Tok::Op(p), Tok::Op(c)) if p == ">" && c == "::" => false,
        // `f(..)`, `Fn(..)`, `f<T>(..)`, `[T; N]` after a word.
        // (`&'a [T]`, `&mut [T]`, `dyn (Trait)` keep theirs.)
        (Tok::Word(w), Tok::Group(Delimiter::Parenthesis | Delimiter::Bracket, _)) => {
            KEYWORDS.contains(&w.as_str()) || w.starts_with('\'')
        }
        (Tok::Op(p), Tok::Group(Delimiter::Parenthesis, _)) if p == ">" => false,
        _ => true,
    }
}

/// A header rendered with an empty body: `impl A for B {}` → `impl A for B`.
fn strip_body(text: &str) -> String {
    text.trim_end()
        .trim_end_matches("{}")
        .trim_end()
        .to_string()
}

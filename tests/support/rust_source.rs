//! What the source-reading tests (`public_api.rs`, `module_graph.rs`) ask
//! of an item's attributes, read with `syn`.
#![allow(dead_code)] // each test uses its own part

use std::path::PathBuf;

/// An item's attributes.
pub fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// An impl block's item's attributes.
pub fn impl_item_attrs(item: &syn::ImplItem) -> &[syn::Attribute] {
    match item {
        syn::ImplItem::Const(i) => &i.attrs,
        syn::ImplItem::Fn(i) => &i.attrs,
        syn::ImplItem::Type(i) => &i.attrs,
        syn::ImplItem::Macro(i) => &i.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]`, alone (not `cfg(any(test, ...))`, which is code of the
/// build too).
pub fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

/// The file a `#[path = "..."]` names.
pub fn path_attr(attrs: &[syn::Attribute]) -> Option<PathBuf> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("path"))
        .and_then(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(PathBuf::from(s.value())),
                _ => None,
            },
            _ => None,
        })
}

/// One name a `use` brings in: its path (a `self` leaf's is its parent's),
/// the name it binds (`None` for a glob or `as _`) and the text as written.
pub struct UseLeaf {
    pub path: Vec<String>,
    pub name: Option<String>,
    pub written: String,
}

/// Every leaf of a `use` tree.
pub fn use_leaves(tree: &syn::UseTree) -> Vec<UseLeaf> {
    fn walk(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<UseLeaf>) {
        let joined = |prefix: &[String], last: &str| {
            let mut parts = prefix.to_vec();
            parts.push(last.to_string());
            parts.join("::")
        };
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                walk(&p.tree, prefix, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) if n.ident == "self" => out.push(UseLeaf {
                path: prefix.clone(),
                name: prefix.last().cloned(),
                written: joined(prefix, "self"),
            }),
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                path.push(n.ident.to_string());
                out.push(UseLeaf {
                    written: path.join("::"),
                    name: Some(n.ident.to_string()),
                    path,
                });
            }
            syn::UseTree::Rename(r) => {
                let written = format!("{} as {}", joined(prefix, &r.ident.to_string()), r.rename);
                let mut path = prefix.clone();
                if r.ident != "self" {
                    path.push(r.ident.to_string());
                }
                out.push(UseLeaf {
                    path,
                    name: (r.rename != "_").then(|| r.rename.to_string()),
                    written,
                });
            }
            syn::UseTree::Glob(_) => out.push(UseLeaf {
                path: prefix.clone(),
                name: None,
                written: joined(prefix, "*"),
            }),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    walk(tree, prefix, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(tree, &mut Vec::new(), &mut out);
    out
}

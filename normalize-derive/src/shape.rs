//! What a field's Rust type says about the JSON it deserializes from, for
//! the types whose schemars schema is known: std containers, strings,
//! numbers, `serde_json::Value`. Everything else is [`Shape::Other`] and
//! is decided at compile time of the user's crate (a nested `ToolArgs` type
//! uses its own normalizer) or read from the schema.
//!
//! Types are recognized by name, as serde and schemars users write them; a
//! user type that shadows a std name (`struct Vec`) would be misread, as
//! such a type would confuse any reader of the code.

use syn::{GenericArgument, PathArguments, Type};

/// The normalization rule a field type needs.
#[derive(Clone)]
pub enum Shape {
    /// Declares no array or object (`String`, numbers, `bool`, `char`,
    /// `()`, `serde_json::Value`): references in every string leaf.
    Any,
    /// An array of one element type (`Vec`, `VecDeque`, sets, `[T; N]`).
    Seq(Box<Shape>),
    /// An array of per-position types (tuples).
    Tuple(Vec<Shape>),
    /// An object with string keys and one value type (maps).
    Map(Box<Shape>),
    /// Any other type.
    Other(Box<Type>),
}

const SCALARS: &[&str] = &[
    "String", "str", "bool", "char", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16",
    "u32", "u64", "u128", "usize", "f32", "f64",
];
const TRANSPARENT: &[&str] = &["Option", "Box", "Rc", "Arc"];
const SEQUENCES: &[&str] = &[
    "Vec",
    "VecDeque",
    "LinkedList",
    "HashSet",
    "BTreeSet",
    "BinaryHeap",
];
const MAPS: &[&str] = &["HashMap", "BTreeMap"];

impl Shape {
    /// The shape of `ty`.
    pub fn of(ty: &Type) -> Shape {
        match ty {
            Type::Group(group) => Shape::of(&group.elem),
            Type::Paren(paren) => Shape::of(&paren.elem),
            Type::Array(array) => Shape::Seq(Box::new(Shape::of(&array.elem))),
            Type::Tuple(tuple) if tuple.elems.is_empty() => Shape::Any,
            Type::Tuple(tuple) => Shape::Tuple(tuple.elems.iter().map(Shape::of).collect()),
            Type::Path(path) if path.qself.is_none() => Shape::of_path(&path.path, ty),
            _ => Shape::Other(Box::new(ty.clone())),
        }
    }

    fn of_path(path: &syn::Path, ty: &Type) -> Shape {
        let Some(last) = path.segments.last() else {
            return Shape::Other(Box::new(ty.clone()));
        };
        let name = last.ident.to_string();
        let args = type_args(&last.arguments);
        let is_serde_json = path.segments.len() >= 2
            && path.segments[path.segments.len() - 2].ident == "serde_json";
        match (name.as_str(), args.as_slice()) {
            (scalar, []) if SCALARS.contains(&scalar) => Shape::Any,
            ("Value", []) if is_serde_json => Shape::Any,
            ("Map", [key, value]) if is_serde_json && is_string(key) => {
                Shape::Map(Box::new(Shape::of(value)))
            }
            (wrapper, [inner]) if TRANSPARENT.contains(&wrapper) => Shape::of(inner),
            (seq, [item, ..]) if SEQUENCES.contains(&seq) => Shape::Seq(Box::new(Shape::of(item))),
            (map, [key, value, ..]) if MAPS.contains(&map) && is_string(key) => {
                Shape::Map(Box::new(Shape::of(value)))
            }
            _ => Shape::Other(Box::new(ty.clone())),
        }
    }

    /// The [`Shape::Other`] types inside this shape, in order.
    pub fn others(&self) -> Vec<&Type> {
        let mut out = Vec::new();
        self.collect_others(&mut out);
        out
    }

    fn collect_others<'a>(&'a self, out: &mut Vec<&'a Type>) {
        match self {
            Shape::Any => {}
            Shape::Seq(item) | Shape::Map(item) => item.collect_others(out),
            Shape::Tuple(items) => items.iter().for_each(|s| s.collect_others(out)),
            Shape::Other(ty) => out.push(ty),
        }
    }
}

/// `T` of a type written `Option<T>` (by name, as the rest of this module
/// reads types).
pub fn option_inner(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Group(group) => option_inner(&group.elem),
        Type::Paren(paren) => option_inner(&paren.elem),
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            match type_args(&last.arguments).as_slice() {
                [inner] if last.ident == "Option" => Some(inner),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The std map or set a field of type `ty` is (through `Option`, `Box`,
/// `Rc`, `Arc`), with its key (or element) type.
fn std_collection(ty: &Type) -> Option<(&Type, &Type)> {
    match ty {
        Type::Group(group) => std_collection(&group.elem),
        Type::Paren(paren) => std_collection(&paren.elem),
        Type::Path(path) if path.qself.is_none() => {
            let last = path.path.segments.last()?;
            let name = last.ident.to_string();
            match (name.as_str(), type_args(&last.arguments).as_slice()) {
                (wrapper, [inner]) if TRANSPARENT.contains(&wrapper) => std_collection(inner),
                ("HashMap" | "BTreeMap" | "HashSet" | "BTreeSet", [key, ..]) => Some((ty, key)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The std map or set a field of type `ty` is (through `Option`, `Box`,
/// `Rc`, `Arc`), when its keys (or elements) are of a type serde may read
/// the same from two different JSON texts (`PathBuf`, `IpAddr`, an enum, a
/// struct): any type but strings, integers, `bool` and `char`, which the
/// schema already holds to one text each.
pub fn merging_collection(ty: &Type) -> Option<&Type> {
    std_collection(ty)
        .filter(|(_, key)| !read_exactly(key))
        .map(|(collection, _)| collection)
}

/// Whether a field of type `ty` (through `Option`) is to be asked whether
/// it is a map or set whose entries may merge: a std map or set with such
/// keys, and any type this module cannot read (a type alias of one, a user
/// type: the answer is then the type's own, and nothing for a type that is
/// no map or set).
pub fn may_merge_entries(ty: &Type) -> Option<&Type> {
    let ty = option_inner(ty).unwrap_or(ty);
    match std_collection(ty) {
        Some(_) => merging_collection(ty),
        None => matches!(Shape::of(ty), Shape::Other(_)).then_some(ty),
    }
}

/// Whether serde reads `ty` from exactly one JSON text per value: strings,
/// 64-bit or smaller integers, `bool`, `char` (and references and pointers
/// to them).
fn read_exactly(ty: &Type) -> bool {
    match ty {
        Type::Group(group) => read_exactly(&group.elem),
        Type::Paren(paren) => read_exactly(&paren.elem),
        Type::Reference(reference) => read_exactly(&reference.elem),
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return false;
            };
            let name = last.ident.to_string();
            match (name.as_str(), type_args(&last.arguments).as_slice()) {
                // serde_json reads a 128-bit key by parsing it, which takes
                // `-0` for `0`: those two texts are one key.
                (scalar, []) => {
                    SCALARS.contains(&scalar) && !matches!(scalar, "f32" | "f64" | "i128" | "u128")
                }
                ("Box" | "Rc" | "Arc" | "Cow", [inner]) => read_exactly(inner),
                _ => false,
            }
        }
        _ => false,
    }
}

fn type_args(arguments: &PathArguments) -> Vec<&Type> {
    match arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn is_string(ty: &Type) -> bool {
    matches!(Shape::of(ty), Shape::Any)
        && matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "String"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn describe(shape: &Shape) -> String {
        match shape {
            Shape::Any => "any".into(),
            Shape::Seq(s) => format!("seq({})", describe(s)),
            Shape::Map(s) => format!("map({})", describe(s)),
            Shape::Tuple(items) => format!(
                "tuple({})",
                items.iter().map(describe).collect::<Vec<_>>().join(",")
            ),
            Shape::Other(_) => "other".into(),
        }
    }

    #[test]
    fn known_std_types_have_shapes() {
        let cases: Vec<(Type, &str)> = vec![
            (parse_quote!(String), "any"),
            (parse_quote!(Option<Vec<u32>>), "seq(any)"),
            (
                parse_quote!(std::collections::BTreeMap<String, Vec<String>>),
                "map(seq(any))",
            ),
            (parse_quote!(HashMap<u32, String>), "other"),
            (parse_quote!(serde_json::Value), "any"),
            (parse_quote!(Value), "other"),
            (
                parse_quote!(serde_json::Map<String, serde_json::Value>),
                "map(any)",
            ),
            (parse_quote!((String, Filter)), "tuple(any,other)"),
            (parse_quote!([Box<Filter>; 3]), "seq(other)"),
            (parse_quote!(Arc<HashSet<String>>), "seq(any)"),
            (parse_quote!(()), "any"),
            (parse_quote!(T), "other"),
        ];
        for (ty, expected) in cases {
            assert_eq!(
                describe(&Shape::of(&ty)),
                expected,
                "{}",
                quote::quote!(#ty)
            );
        }
    }

    #[test]
    fn maps_and_sets_whose_keys_may_merge() {
        let merging: Vec<Type> = vec![
            parse_quote!(BTreeMap<PathBuf, String>),
            parse_quote!(Option<HashMap<std::net::IpAddr, u32>>),
            parse_quote!(Box<BTreeSet<Item>>),
            parse_quote!(std::collections::HashSet<Kind, S>),
        ];
        for ty in &merging {
            assert!(merging_collection(ty).is_some(), "{}", quote::quote!(#ty));
        }
        let exact: Vec<Type> = vec![
            parse_quote!(BTreeMap<String, PathBuf>),
            parse_quote!(HashMap<u32, Item>),
            parse_quote!(BTreeSet<Cow<'static, str>>),
            parse_quote!(HashSet<&'static str>),
            parse_quote!(Option<BTreeSet<char>>),
            parse_quote!(Vec<BTreeMap<PathBuf, u8>>),
            parse_quote!(PathBuf),
        ];
        for ty in &exact {
            assert!(merging_collection(ty).is_none(), "{}", quote::quote!(#ty));
        }
        let ty: Type = parse_quote!(Option<BTreeMap<PathBuf, u8>>);
        let inner: Type = parse_quote!(BTreeMap<PathBuf, u8>);
        // Compared as tokens: syn's `PartialEq` and `Debug` on its syntax
        // tree need its `extra-traits` feature, which the macro does without.
        let tokens = |ty: &Type| quote::quote!(#ty).to_string();
        assert_eq!(merging_collection(&ty).map(tokens), Some(tokens(&inner)));
    }

    #[test]
    fn fields_asked_whether_their_entries_merge() {
        let cases: Vec<(Type, bool)> = vec![
            (parse_quote!(Option<BTreeMap<PathBuf, String>>), true),
            (parse_quote!(Files), true),
            (parse_quote!(Option<Files>), true),
            (parse_quote!(Inner), true),
            (parse_quote!(BTreeMap<u32, Inner>), false),
            (parse_quote!(BTreeMap<i128, Inner>), true),
            (parse_quote!(HashMap<String, PathBuf>), false),
            (parse_quote!(Vec<PathBuf>), false),
            (parse_quote!(String), false),
            (parse_quote!(Option<u32>), false),
        ];
        for (ty, asked) in &cases {
            assert_eq!(
                may_merge_entries(ty).is_some(),
                *asked,
                "{}",
                quote::quote!(#ty)
            );
        }
    }

    #[test]
    fn others_lists_the_unknown_leaves() {
        let ty: Type = parse_quote!(Vec<(Filter, Option<Sort>)>);
        assert_eq!(Shape::of(&ty).others().len(), 2);
    }
}

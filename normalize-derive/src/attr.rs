//! `#[tool_args(...)]`: the derive's own helper attribute. Keywords are
//! constants; unknown keys, repeated keys and misplaced attributes are
//! spanned errors. Other crates' attributes are left alone.

use syn::spanned::Spanned;
use syn::{Attribute, LitStr, Path};

/// The attribute's name.
pub const TOOL_ARGS: &str = "tool_args";
/// `open`: do not close the schema.
pub const OPEN: &str = "open";
/// `crate = "path"`: where the `toolargs` runtime is.
pub const CRATE: &str = "crate";
/// `verbatim` (on a field): never entity-decode the field's strings.
pub const VERBATIM: &str = "verbatim";

/// The container's `#[tool_args(...)]` options.
#[derive(Default)]
pub struct Attrs {
    /// `open`, with the span of the keyword (for conflict errors).
    pub open: Option<proc_macro2::Span>,
    /// `crate = "..."`.
    pub krate: Option<Path>,
}

/// Parses every `#[tool_args(...)]` among `attrs`, pushing errors.
pub fn parse_container(attrs: &[Attribute], errors: &mut Vec<syn::Error>) -> Attrs {
    let mut out = Attrs::default();
    for_each_key(attrs, errors, |meta, errors| {
        if meta.path.is_ident(OPEN) {
            if out.open.is_some() {
                errors.push(meta.error("duplicate `open` in #[tool_args]"));
            }
            out.open = Some(meta.path.span());
        } else if meta.path.is_ident(CRATE) {
            let literal: LitStr = meta.value()?.parse()?;
            if out.krate.is_some() {
                errors.push(syn::Error::new(
                    literal.span(),
                    "duplicate `crate` in #[tool_args]",
                ));
            }
            out.krate = Some(literal.parse()?);
        } else {
            unknown_key(meta, errors, &format!("`{OPEN}` or `{CRATE} = \"...\"`"))?;
        }
        Ok(())
    });
    out
}

/// Calls `key` for each key of every `#[tool_args(...)]` among `attrs`.
/// Key-level mistakes are pushed to `errors` and parsing goes on, so every
/// one is reported; only a syntax error stops an attribute.
fn for_each_key(
    attrs: &[Attribute],
    errors: &mut Vec<syn::Error>,
    mut key: impl FnMut(&syn::meta::ParseNestedMeta<'_>, &mut Vec<syn::Error>) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(TOOL_ARGS)) {
        let mut found = Vec::new();
        let result = attr.parse_nested_meta(|meta| key(&meta, &mut found));
        errors.append(&mut found);
        if let Err(error) = result {
            errors.push(error);
        }
    }
}

/// Reports a key this place does not take, and skips its value.
fn unknown_key(
    meta: &syn::meta::ParseNestedMeta<'_>,
    errors: &mut Vec<syn::Error>,
    expected: &str,
) -> syn::Result<()> {
    let key = meta
        .path
        .get_ident()
        .map_or_else(|| "this key".to_owned(), |i| format!("`{i}`"));
    errors.push(meta.error(format!(
        "unknown #[tool_args] key {key}; expected {expected}"
    )));
    skip_value(meta)
}

/// Consumes a key's value (`= expr` or `(...)`), whatever it is.
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        // Token trees up to the next comma: any value is skipped without
        // syn's full expression grammar (its `full` feature), which the
        // macro needs nowhere else.
        let value = meta.value()?;
        while !value.is_empty() && !value.peek(syn::Token![,]) {
            let _: proc_macro2::TokenTree = value.parse()?;
        }
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: proc_macro2::TokenStream = content.parse()?;
    }
    Ok(())
}

/// A field's `#[tool_args(...)]` options.
#[derive(Default)]
pub struct FieldAttrs {
    /// `verbatim`, with the span of the keyword.
    pub verbatim: Option<proc_macro2::Span>,
}

/// Parses every `#[tool_args(...)]` on a field, pushing errors.
pub fn parse_field(attrs: &[Attribute], errors: &mut Vec<syn::Error>) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for_each_key(attrs, errors, |meta, errors| {
        if meta.path.is_ident(VERBATIM) {
            if out.verbatim.is_some() {
                errors.push(meta.error("duplicate `verbatim` in #[tool_args]"));
            }
            out.verbatim = Some(meta.path.span());
            Ok(())
        } else {
            unknown_key(meta, errors, &format!("`{VERBATIM}` (on a field)"))
        }
    });
    out
}

/// Rejects `#[tool_args]` where it means nothing (variants).
pub fn reject_misplaced(attrs: &[Attribute], place: &str, errors: &mut Vec<syn::Error>) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(TOOL_ARGS)) {
        errors.push(syn::Error::new_spanned(
            attr,
            format!("#[tool_args] goes on the type or a field, not on a {place}"),
        ));
    }
}

/// What a `#[schemars(...)]` attribute changes, as far as the derive cares.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub enum SchemarsEffect {
    /// Only annotations or value checks (`description`, `range`, `regex`,
    /// ...): the shape is still the Rust type's.
    #[default]
    Annotation,
    /// `with` or `schema_with` on a field: the field's schema comes from
    /// elsewhere, so that field is normalized through the schema.
    FieldSchema,
    /// Anything else (`with`, `schema_with`, `rename`, `transform`,
    /// `extend`, ...): the schema may no longer follow the Rust type, so the
    /// derive reads it from the schema instead.
    Reshape,
}

/// Keys of `#[schemars(...)]` that leave a schema's shape alone.
const SCHEMARS_ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "example",
    "examples",
    "deprecated",
    "range",
    "length",
    "regex",
    "pattern",
    "email",
    "url",
    "contains",
    "required",
    "inner",
    "crate",
    "bound",
    "default",
    "doc",
];

/// Classifies the `#[schemars(...)]` (and `#[schemars]`-like) attributes.
pub fn schemars_effect(attrs: &[Attribute]) -> SchemarsEffect {
    let mut effect = SchemarsEffect::Annotation;
    for attr in attrs.iter().filter(|a| a.path().is_ident("schemars")) {
        let parsed = attr.parse_nested_meta(|meta| {
            let known = SCHEMARS_ANNOTATIONS.iter().any(|k| meta.path.is_ident(k));
            if meta.path.is_ident("with") || meta.path.is_ident("schema_with") {
                if effect == SchemarsEffect::Annotation {
                    effect = SchemarsEffect::FieldSchema;
                }
            } else if !known {
                effect = SchemarsEffect::Reshape;
            }
            skip_value(&meta)
        });
        if parsed.is_err() {
            // schemars reports its own syntax errors; read the schema.
            effect = SchemarsEffect::Reshape;
        }
    }
    effect
}

/// The name a `#[schemars(rename = "...")]` gives a field or variant in
/// the schema, if one does.
fn schemars_rename(attrs: &[Attribute]) -> Option<syn::LitStr> {
    let mut rename = None;
    let mut skip = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident("schemars")) {
        // schemars reports its own syntax errors.
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") && meta.input.peek(syn::Token![=]) {
                rename = Some(meta.value()?.parse::<syn::LitStr>()?);
                Ok(())
            } else {
                skip |= meta.path.is_ident("skip");
                skip_value(&meta)
            }
        });
    }
    // A field schemars skips shows no name at all.
    rename.filter(|_| !skip)
}

/// The span of a `default` in `#[schemars(...)]`, if there is one: schemars
/// then shows the field (or every field) as optional.
pub fn schemars_default(attrs: &[Attribute]) -> Option<proc_macro2::Span> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("schemars")) {
        // schemars reports its own syntax errors.
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("default") {
                found.get_or_insert(meta.path.span());
            }
            skip_value(&meta)
        });
    }
    found
}

/// An error where `#[schemars(rename)]` names a field or variant otherwise
/// than serde reads it (`names`: its wire name and aliases): the model would
/// be shown a name serde refuses, and never one it reads.
pub fn check_schemars_rename<'n>(
    attrs: &[Attribute],
    what: &str,
    names: impl IntoIterator<Item = &'n String>,
    errors: &mut Vec<syn::Error>,
) {
    let Some(rename) = schemars_rename(attrs) else {
        return;
    };
    let names: Vec<&String> = names.into_iter().collect();
    if names.iter().any(|name| **name == rename.value()) {
        return;
    }
    let read = names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    errors.push(syn::Error::new(
        rename.span(),
        format!(
            "#[schemars(rename = {:?})] shows the model a {what} name serde does not read \
             (serde reads {read}): rename it with #[serde(rename)], which both follow",
            rename.value()
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn parses_open_and_crate() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool_args(open, crate = "my::path")])];
        let mut errors = Vec::new();
        let parsed = parse_container(&attrs, &mut errors);
        assert!(errors.is_empty());
        assert!(parsed.open.is_some());
        assert!(parsed.krate.is_some());
    }

    #[test]
    fn rejects_unknown_and_duplicate_keys() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[tool_args(closed)]),
            parse_quote!(#[tool_args(open, open)]),
        ];
        let mut errors = Vec::new();
        parse_container(&attrs, &mut errors);
        assert_eq!(errors.len(), 2);
        assert!(
            errors[0]
                .to_string()
                .contains("unknown #[tool_args] key `closed`")
        );
        assert!(errors[1].to_string().contains("duplicate `open`"));
        let mut errors = Vec::new();
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool_args(a = "x", b(c), open)])];
        let parsed = parse_container(&attrs, &mut errors);
        assert_eq!(errors.len(), 2, "both unknown keys are reported");
        assert!(parsed.open.is_some(), "parsing went on after them");
    }

    #[test]
    fn an_unknown_keys_value_is_skipped_whatever_it_is() {
        // Values outside syn's derive-only expression grammar (a closure,
        // a block) are skipped too: one error, and the next key is read.
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool_args(a = |x: u32| { x + 1 }, b = if c { d } else { e }, open)]
        )];
        let mut errors = Vec::new();
        let parsed = parse_container(&attrs, &mut errors);
        assert_eq!(errors.len(), 2, "one error per unknown key: {errors:?}");
        assert!(
            errors[0]
                .to_string()
                .contains("unknown #[tool_args] key `a`")
        );
        assert!(
            errors[1]
                .to_string()
                .contains("unknown #[tool_args] key `b`")
        );
        assert!(parsed.open.is_some(), "parsing went on after them");
    }

    #[test]
    fn classifies_schemars_attributes() {
        let plain: Vec<Attribute> =
            vec![parse_quote!(#[schemars(description = "x", range(min = 1))])];
        assert!(schemars_effect(&plain) == SchemarsEffect::Annotation);
        let with: Vec<Attribute> = vec![parse_quote!(#[schemars(with = "String")])];
        assert!(schemars_effect(&with) == SchemarsEffect::FieldSchema);
        let rename: Vec<Attribute> = vec![parse_quote!(#[schemars(rename = "x")])];
        assert!(schemars_effect(&rename) == SchemarsEffect::Reshape);
    }
}

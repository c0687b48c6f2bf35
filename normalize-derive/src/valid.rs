//! Checks across the IR that single attributes cannot make: conflicting
//! options, and types `ToolArgs` cannot describe.

use crate::ast::Input;

/// Pushes an error for every problem in `input`.
pub fn check(input: &Input<'_>, errors: &mut Vec<syn::Error>) {
    for lifetime in input.original.generics.lifetimes() {
        errors.push(syn::Error::new_spanned(
            &lifetime.lifetime,
            "ToolArgs types own their data (`DeserializeOwned + 'static`): \
             remove the lifetime parameter",
        ));
    }
    for (field, span) in input
        .fields
        .iter()
        .filter_map(|f| f.verbatim.map(|span| (f, span)))
    {
        let misplaced = if field.flatten {
            Some("a flattened field has no value of its own: mark the fields of the flattened type")
        } else if input.transparent {
            Some(
                "a #[serde(transparent)] type's schema is its field's: mark the field where the type is used",
            )
        } else {
            None
        };
        if let Some(why) = misplaced {
            errors.push(syn::Error::new(
                span,
                format!("#[tool_args(verbatim)] cannot apply here: {why}"),
            ));
        }
    }
    check_schemars_defaults(input, errors);
    if let Some(open) = input.attrs.open {
        if input.deny_unknown_fields {
            errors.push(syn::Error::new(
                open,
                "conflicting options: #[tool_args(open)] keeps the schema open, \
                 but #[serde(deny_unknown_fields)] rejects unknown fields",
            ));
        } else if input.transparent {
            errors.push(syn::Error::new(
                open,
                "conflicting options: #[tool_args(open)] has no object to open \
                 on a #[serde(transparent)] type (its schema is its field's)",
            ));
        }
    }
}

/// An error for each field serde requires that `#[schemars(default)]` (on
/// the field or the type) shows as optional: the call without it would pass
/// validation and fail in serde. serde requires a field with no
/// `#[serde(default)]` unless its type reads a missing member as `None`
/// (an `Option`, read by its own `Deserialize`; `deserialize_with` reads
/// nothing when the member is missing).
fn check_schemars_defaults(input: &Input<'_>, errors: &mut Vec<syn::Error>) {
    if input.converted || input.transparent {
        return;
    }
    let container = crate::attr::schemars_default(&input.original.attrs);
    for field in &input.fields {
        let Some(name) = &field.original.ident else {
            continue;
        };
        let optional_in_serde = input.default
            || field.default
            || field.skipped
            || field.flatten
            || (!field.read_elsewhere && crate::shape::option_inner(&field.original.ty).is_some());
        if optional_in_serde {
            continue;
        }
        let Some(span) = crate::attr::schemars_default(&field.original.attrs).or(container) else {
            continue;
        };
        errors.push(syn::Error::new(
            span,
            format!(
                "#[schemars(default)] shows field `{}` as optional, but serde requires it \
                 (it has no #[serde(default)]): a call without it would pass validation and \
                 fail in serde; use #[serde(default)], which both follow",
                name.to_string().trim_start_matches("r#")
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::{DeriveInput, parse_quote};

    fn errors_of(input: &DeriveInput) -> Vec<String> {
        let mut errors = Vec::new();
        let ir = Input::from_syn(input, &mut errors).unwrap();
        check(&ir, &mut errors);
        errors.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn open_conflicts_with_deny_unknown_fields() {
        let input: DeriveInput = parse_quote! {
            #[tool_args(open)]
            #[serde(deny_unknown_fields)]
            struct S { a: u32 }
        };
        let errors = errors_of(&input);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("conflicting options"));
    }

    #[test]
    fn lifetimes_are_rejected_and_plain_types_pass() {
        let borrowed: DeriveInput = parse_quote! { struct S<'a> { a: &'a str } };
        assert_eq!(errors_of(&borrowed).len(), 1);
        let plain: DeriveInput = parse_quote! { struct S<T> { a: Vec<T> } };
        assert!(errors_of(&plain).is_empty());
    }
}

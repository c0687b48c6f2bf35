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

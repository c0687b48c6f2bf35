//! Writes the type's contract model: `impl Modeled`, a static statement of
//! what serde's derive does with the type (wire names, aliases, flatten,
//! skips, defaults), read by the runtime where the schema cannot say it.
//!
//! Each field's node comes from its type by method resolution
//! (`ViaModeled` over `ViaUnmodeled`): a type with a model gives it, any
//! other type (one that derives only `JsonSchema`, a generic parameter) is
//! `Node::Unknown`, which checks nothing.

use crate::ast::{Field, Input, Place};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// `impl Modeled for Type`, with the impl's generics.
pub fn impl_modeled(ir: &Input<'_>, krate: &TokenStream, generics: &syn::Generics) -> TokenStream {
    let ident = &ir.original.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let node = node(ir, krate);
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Modeled for #ident #ty_generics #where_clause {
            const NODE: #krate::Node = #node;
        }
    }
}

/// The type's node: a struct with named fields as serde's derive reads it,
/// a transparent struct as its field, anything else unknown.
fn node(ir: &Input<'_>, krate: &TokenStream) -> TokenStream {
    let named_struct = matches!(
        &ir.original.data,
        syn::Data::Struct(data) if matches!(data.fields, syn::Fields::Named(_))
    );
    if ir.converted {
        return quote!(#krate::Node::Unknown);
    }
    if ir.transparent {
        return match ir.fields.iter().find(|f| !f.skipped) {
            Some(field) => {
                let node = field_node(field, krate);
                quote!(#krate::Node::Same(#node))
            }
            None => quote!(#krate::Node::Unknown),
        };
    }
    if !named_struct {
        return quote!(#krate::Node::Unknown);
    }
    let name = ir.original.ident.to_string();
    let deny = ir.deny_unknown_fields;
    let fields = ir
        .fields
        .iter()
        .filter(|f| f.place == Place::Struct)
        .map(|field| {
            let wire = &field.wire;
            let aliases = &field.aliases;
            let flatten = field.flatten;
            let skipped = field.skipped;
            let default = field.default || ir.default;
            let node = field_node(field, krate);
            quote! {
                #krate::FieldModel {
                    wire: #wire,
                    aliases: &[#(#aliases),*],
                    flatten: #flatten,
                    skipped: #skipped,
                    default: #default,
                    node: #node,
                }
            }
        });
    quote! {
        #krate::Node::Struct(&#krate::StructModel {
            name: #name,
            fields: &[#(#fields),*],
            deny_unknown_fields: #deny,
        })
    }
}

/// The function giving a field's node: its type's, unless serde reads it
/// another way (`with`, `deserialize_with`).
fn field_node(field: &Field<'_>, krate: &TokenStream) -> TokenStream {
    if field.read_elsewhere {
        return quote!(#krate::unknown_node);
    }
    let ty = &field.original.ty;
    let span = proc_macro2::Span::call_site();
    quote_spanned! {span=>
        || (&#krate::Probe::<#ty>::new()).__toolargs_node()
    }
}

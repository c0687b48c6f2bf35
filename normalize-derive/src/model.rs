//! Writes the type's contract model: `impl Modeled`, a static statement of
//! what serde's derive does with the type (wire names, aliases, flatten,
//! skips, defaults), read by the runtime where the schema cannot say it.
//!
//! Each field's node comes from its type by method resolution
//! (`ViaModeled` over `ViaUnmodeled`): a type with a model gives it, any
//! other type (one that derives only `JsonSchema`, a generic parameter) is
//! `Node::Unknown`, which checks nothing.

use crate::ast::{Field, Input, Place, Tagging, VariantStyle};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// `impl Modeled for Type`, with the impl's generics. A type parameter
/// must have a model of its own for the type to have one (`Page<u32>` has,
/// `Page<Foreign>` has none), so a field of that parameter's type is known
/// wherever the type is used with known arguments.
pub fn impl_modeled(ir: &Input<'_>, krate: &TokenStream, generics: &syn::Generics) -> TokenStream {
    let ident = &ir.original.ident;
    let mut generics = generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    if !params.is_empty() {
        let predicates = &mut generics.make_where_clause().predicates;
        for param in params {
            predicates.push(syn::parse_quote!(#param: #krate::Modeled));
        }
    }
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
    // serde reads another type, or the schema may say other than serde
    // reads: nothing is known that both follow.
    if ir.converted || ir.reshaped {
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
    if matches!(&ir.original.data, syn::Data::Enum(_)) {
        return enum_node(ir, krate);
    }
    if !named_struct {
        // serde reads a newtype struct as the value inside, a tuple struct
        // as an array.
        let mut fields = ir.fields.iter();
        return match ir.struct_style {
            Some(VariantStyle::Newtype) => match fields.next() {
                Some(field) if !field.skipped => {
                    let node = field_node(field, krate);
                    quote!(#krate::Node::Same(#node))
                }
                _ => quote!(#krate::Node::Unknown),
            },
            Some(VariantStyle::Tuple) if !ir.fields.iter().any(|f| f.skipped) => {
                let nodes = fields.map(|field| field_node(field, krate));
                quote!(#krate::Node::Tuple(&[#(#nodes),*]))
            }
            _ => quote!(#krate::Node::Unknown),
        };
    }
    let fields = ir.fields.iter().filter(|f| f.place == Place::Struct);
    let model = struct_model(ir, &ir.original.ident.to_string(), fields, krate);
    quote!(#krate::Node::Struct(#model))
}

/// A tagged enum's node: each variant by its wire names and content. An
/// untagged enum is unknown (serde tries its variants in turn).
fn enum_node(ir: &Input<'_>, krate: &TokenStream) -> TokenStream {
    let tagging = match &ir.tagging {
        Tagging::External => quote!(#krate::Tagging::External),
        Tagging::Internal { tag } => quote!(#krate::Tagging::Internal { tag: #tag }),
        Tagging::Adjacent { tag, content } => {
            quote!(#krate::Tagging::Adjacent { tag: #tag, content: #content })
        }
        Tagging::Untagged => return quote!(#krate::Node::Unknown),
    };
    // A variant whose schema comes from elsewhere may say other than what
    // serde reads: the enum is then not known.
    if let syn::Data::Enum(data) = &ir.original.data {
        let reshaped = data.variants.iter().any(|v| {
            crate::attr::schemars_effect(&v.attrs) != crate::attr::SchemarsEffect::Annotation
        });
        if reshaped {
            return quote!(#krate::Node::Unknown);
        }
    }
    let variants = ir.variants.iter().enumerate().map(|(v, variant)| {
        let name = &variant.name;
        let aliases = &variant.aliases;
        let skipped = variant.skipped;
        let mut fields = ir.fields.iter().filter(|f| f.variant == Some(v));
        let content = match variant.style {
            VariantStyle::Unit => quote!(#krate::VariantContent::Unit),
            VariantStyle::Newtype => match fields.next() {
                Some(field) => {
                    let node = field_node(field, krate);
                    quote!(#krate::VariantContent::Newtype(#node))
                }
                None => quote!(#krate::VariantContent::Unit),
            },
            VariantStyle::Tuple => {
                let nodes = fields.map(|field| field_node(field, krate));
                quote!(#krate::VariantContent::Tuple(&[#(#nodes),*]))
            }
            VariantStyle::Struct => {
                let model = struct_model(ir, name, fields, krate);
                quote!(#krate::VariantContent::Struct(#model))
            }
        };
        quote! {
            #krate::VariantModel {
                name: #name,
                aliases: &[#(#aliases),*],
                skipped: #skipped,
                content: #content,
            }
        }
    });
    let name = ir.original.ident.to_string();
    quote! {
        #krate::Node::Enum(&#krate::EnumModel {
            name: #name,
            tagging: #tagging,
            variants: &[#(#variants),*],
        })
    }
}

/// `&StructModel { .. }` of `fields` (a struct's, or a struct variant's).
fn struct_model<'f, 'a: 'f>(
    ir: &Input<'a>,
    name: &str,
    fields: impl Iterator<Item = &'f Field<'a>>,
    krate: &TokenStream,
) -> TokenStream {
    let deny = ir.deny_unknown_fields;
    let fields = fields.map(|field| {
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
        &#krate::StructModel {
            name: #name,
            fields: &[#(#fields),*],
            deny_unknown_fields: #deny,
        }
    }
}

/// The function giving a field's node: its type's, unless serde reads it
/// another way (`with`, `deserialize_with`) or its schema comes from
/// elsewhere (`#[schemars(with/schema_with)]` and other reshaping
/// attributes), which may say other than what its type reads.
fn field_node(field: &Field<'_>, krate: &TokenStream) -> TokenStream {
    if field.read_elsewhere || field.schema_elsewhere {
        return quote!(#krate::unknown_node);
    }
    let ty = &field.original.ty;
    let span = proc_macro2::Span::call_site();
    quote_spanned! {span=>
        || (&#krate::Probe::<#ty>::new()).__toolargs_node()
    }
}

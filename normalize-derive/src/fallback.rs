//! The impl emitted beside compile errors, so that the type still
//! implements `ToolArgs` and its uses do not add errors of their own.
//! Its bodies are never run: the crate does not compile.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::DeriveInput;

/// A `ToolArgs` impl whose methods are unreachable.
pub fn stub(input: &DeriveInput, krate: &TokenStream) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let unreachable = quote! {
        ::core::unreachable!("#[derive(ToolArgs)] failed; see the compile errors")
    };
    let trait_path = quote_spanned!(ident.span()=> #krate::ToolArgs);
    quote! {
        #[allow(unused_variables, unreachable_code)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #trait_path for #ident #ty_generics #where_clause {
                fn __contract() -> #krate::Result<
                    &'static #krate::Compiled,
                    &'static #krate::ContractError,
                > { #unreachable }
                fn __normalize_in(
                    __repairer: &mut #krate::Repairer<'_>,
                    __value: &mut #krate::Value,
                    __path: &#krate::Path<'_>,
                    __depth: usize,
                ) -> #krate::Result<(), #krate::NormalizeError> { #unreachable }
                fn __annotate(
                    __schema: &mut #krate::Value,
                    __annotator: &mut #krate::Annotator<'_>,
                ) { #unreachable }
            }
        };
    }
}

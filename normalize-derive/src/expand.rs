//! Writes the `ToolArgs` impl from the IR.
//!
//! Everything is named through the runtime's hidden `__private` module by
//! absolute path, inside `const _: () = { ... };`, with `__`-prefixed
//! locals, so nothing the user has in scope changes its meaning.

use crate::ast::{Body, Field, Input, Place};
use crate::attr;
use crate::fallback;
use crate::shape::Shape;
use crate::valid;
use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, parse_quote};

/// The whole expansion: the impl, or the errors and a stub impl.
pub fn derive(input: &DeriveInput) -> TokenStream {
    let mut errors = Vec::new();
    let ir = Input::from_syn(input, &mut errors);
    // The runtime path is needed for the stub too; `from_syn` reported any
    // error in the attribute.
    let krate = runtime_path(&attr::parse_container(&input.attrs, &mut Vec::new()));
    let Some(ir) = ir else {
        if matches!(input.data, syn::Data::Union(_)) {
            return combine(errors);
        }
        let mut out = combine(errors);
        out.extend(fallback::stub(input, &krate));
        return out;
    };
    valid::check(&ir, &mut errors);
    if !errors.is_empty() {
        // A type with lifetime parameters can never be `ToolArgs`
        // (`DeserializeOwned + 'static`): a stub would only add errors.
        if input.generics.lifetimes().next().is_some() {
            return combine(errors);
        }
        let mut out = combine(errors);
        out.extend(fallback::stub(input, &krate));
        return out;
    }
    expand(&ir, &krate)
}

fn combine(errors: Vec<syn::Error>) -> TokenStream {
    errors.into_iter().map(|e| e.into_compile_error()).collect()
}

/// `::toolargs::__private`, or `<crate = "...">::__private`.
fn runtime_path(attrs: &attr::Attrs) -> TokenStream {
    match &attrs.krate {
        Some(path) => quote!(#path::__private),
        None => quote!(::toolargs::__private),
    }
}

fn expand(ir: &Input<'_>, krate: &TokenStream) -> TokenStream {
    let input = ir.original;
    let ident = &input.ident;
    let mut generics = input.generics.clone();
    let is_generic =
        generics.type_params().next().is_some() || generics.const_params().next().is_some();
    if is_generic {
        for param in generics.type_params_mut() {
            param.bounds.push(parse_quote!('static));
        }
        let bounds = flattened_bounds(ir, &generics, krate);
        let predicates = &mut generics.make_where_clause().predicates;
        predicates.push(parse_quote!(Self: #krate::DeserializeOwned + #krate::JsonSchema));
        predicates.extend(bounds);
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    let (cache, compiled) = if is_generic {
        (quote!(), quote!(#krate::per_type::<Self>()))
    } else {
        (
            quote! {
                static __TOOLARGS_COMPILED: #krate::OnceLock<
                    #krate::Result<#krate::Compiled, #krate::ContractError>,
                > = #krate::OnceLock::new();
            },
            quote!(#krate::once::<Self>(&__TOOLARGS_COMPILED)),
        )
    };
    let generator = Gen {
        krate,
        compiled: &compiled,
    };
    let normalize = generator.normalize(&ir.body);
    let annotate = generator.annotate(ir);
    let keeps_every = keeps_every_member(ir, krate);
    let modeled = crate::model::impl_modeled(ir, krate, &generics);
    // A generic type's model needs its parameters' (`T: Modeled`), which
    // the impl cannot ask for: its own root is then unknown.
    let node_of_self = if is_generic {
        quote!(&#krate::Node::Unknown)
    } else {
        quote!(<Self as #krate::Modeled>::node())
    };
    let trait_path = quote_spanned!(ident.span()=> #krate::ToolArgs);
    let usize_ty = quote!(::core::primitive::usize);

    quote! {
        const _: () = {
            #[allow(unused_imports)]
            use #krate::{
                ViaEntries as _, ViaJsonSchema as _, ViaNoEntries as _, ViaNoSchema as _,
                ViaNotOption as _, ViaOption as _, ViaPlan as _, ViaSchemaOf as _,
                ViaToolArgs as _, ViaUnknownSchema as _, ViaModeled as _, ViaUnmodeled as _,
            };
            #cache

            #modeled

            #[automatically_derived]
            impl #impl_generics #trait_path for #ident #ty_generics #where_clause {
                fn __node() -> &'static #krate::Node {
                    #node_of_self
                }

                fn __contract() -> #krate::Result<
                    &'static #krate::Compiled,
                    &'static #krate::ContractError,
                > {
                    #compiled
                }

                fn __normalize_in(
                    __repairer: &mut #krate::Repairer<'_>,
                    __value: &mut #krate::Value,
                    __path: &#krate::Path<'_>,
                    __depth: #usize_ty,
                ) -> #krate::Result<(), #krate::NormalizeError> {
                    #normalize
                }

                fn __annotate(
                    __schema: &mut #krate::Value,
                    __annotator: &mut #krate::Annotator<'_>,
                ) {
                    #annotate
                }

                #keeps_every
            }
        };
    }
}

/// `ToolArgs::__keeps_every_member` for a struct with named fields (none
/// for anything else: the schema says). A flattened `Option` keeps nothing
/// when it fails; any other flattened field is asked (a flattened map, or a
/// type that does not derive `ToolArgs`, is not known: the answer is then
/// "not known" too, unless another field keeps every member for sure).
fn keeps_every_member(ir: &Input<'_>, krate: &TokenStream) -> TokenStream {
    let named_struct = matches!(
        &ir.original.data,
        syn::Data::Struct(data) if matches!(data.fields, syn::Fields::Named(_))
    );
    if !named_struct || ir.transparent || ir.attrs.open.is_some() {
        return TokenStream::new();
    }
    let mut direct = Vec::new();
    for field in ir.fields.iter().filter(|f| f.flatten && !f.skipped) {
        if field.schema_elsewhere {
            return TokenStream::new();
        }
        let ty = &field.original.ty;
        if crate::shape::option_inner(ty).is_some() {
            continue;
        }
        direct.push(quote_spanned! {at(ty)=>
            (&#krate::Probe::<#ty>::new()).__toolargs_keeps_every_member()
        });
    }
    quote! {
        fn __keeps_every_member() -> #krate::Option<::core::primitive::bool> {
            let mut __known = true;
            for __keeps in [#(#direct),*] {
                match __keeps {
                    #krate::Some(true) => return #krate::Some(true),
                    #krate::Some(false) => {}
                    #krate::None => __known = false,
                }
            }
            __known.then_some(false)
        }
    }
}

/// `JsonSchema + DeserializeOwned` for each flattened field type that
/// names a type parameter, and for the `T` of such an `Option<T>`. serde's
/// and schemars' derives need both of the field anyway; said here, they let
/// the probes find the type's flattened reading in the generic impl, where
/// they would otherwise know nothing of it (and a flattened `Option<T>`
/// would drop what makes no whole `T`, unchecked).
fn flattened_bounds(
    ir: &Input<'_>,
    generics: &syn::Generics,
    krate: &TokenStream,
) -> Vec<syn::WherePredicate> {
    let params: Vec<String> = generics
        .type_params()
        .map(|param| param.ident.to_string())
        .collect();
    let mut seen = Vec::new();
    let mut bounds = Vec::new();
    for field in ir
        .fields
        .iter()
        .filter(|f| f.flatten && !f.skipped && !f.schema_elsewhere)
    {
        let ty = &field.original.ty;
        for ty in std::iter::once(ty).chain(crate::shape::option_inner(ty)) {
            let key = ty.to_token_stream().to_string();
            if names_any(ty.to_token_stream(), &params) && !seen.contains(&key) {
                seen.push(key);
                bounds.push(parse_quote!(#ty: #krate::JsonSchema + #krate::DeserializeOwned));
            }
        }
    }
    bounds
}

/// Whether `tokens` hold one of `params` as an identifier.
fn names_any(tokens: TokenStream, params: &[String]) -> bool {
    tokens.into_iter().any(|token| match token {
        proc_macro2::TokenTree::Ident(ident) => params.iter().any(|p| ident == p),
        proc_macro2::TokenTree::Group(group) => names_any(group.stream(), params),
        _ => false,
    })
}

/// The names the fields beside `field` (in the same object) are read
/// under: serde gives such a member to them, never to a flattened field.
fn own_names<'i>(ir: &'i Input<'_>, field: &'i Field<'_>) -> Vec<&'i str> {
    // An internally tagged variant's tag is read by the enum, never by a
    // flattened field. (An adjacently tagged variant's fields are read from
    // the content object, where the tag's and content's names are members
    // like any other.)
    let tags: Vec<&str> = match &field.place {
        Place::Internal { tag, .. } => vec![tag],
        _ => Vec::new(),
    };
    ir.fields
        .iter()
        .filter(|f| !f.skipped && !f.flatten && f.place == field.place)
        .flat_map(|f| std::iter::once(&f.wire).chain(&f.aliases))
        .map(String::as_str)
        .chain(tags)
        .collect()
}

/// The location of `ty` with call-site hygiene: errors land on the field's
/// type, while the generated locals (`__value`, ...) still resolve when the
/// type came from a `macro_rules!` fragment with its own hygiene.
fn at(ty: &syn::Type) -> proc_macro2::Span {
    proc_macro2::Span::call_site().located_at(ty.span())
}

struct Gen<'a> {
    krate: &'a TokenStream,
    compiled: &'a TokenStream,
}

impl Gen<'_> {
    fn normalize(&self, body: &Body<'_>) -> TokenStream {
        let krate = self.krate;
        let compiled = self.compiled;
        match body {
            Body::Struct(fields) => {
                let mut taken: Vec<&str> = Vec::new();
                let mut arms = Vec::new();
                for field in fields.iter().filter(|f| !f.skipped) {
                    let names: Vec<&str> = std::iter::once(field.wire.as_str())
                        .chain(field.aliases.iter().map(String::as_str))
                        .filter(|name| !taken.contains(name))
                        .collect();
                    if names.is_empty() {
                        continue;
                    }
                    taken.extend(&names);
                    let fallback = quote! {
                        #krate::walk_member(__repairer, #compiled, __key, __value, __path, __depth)
                    };
                    let rule = self.field_rule(field, fallback);
                    arms.push(quote!(#(#names)|* => #rule,));
                }
                quote! {
                    #krate::object(
                        __repairer, __value, __path, __depth,
                        |__repairer, __key, __value, __path, __depth| match __key {
                            #(#arms)*
                            _ => #krate::any(__repairer, __value, __path, __depth),
                        },
                    )
                }
            }
            Body::Transparent(field) => {
                let fallback = quote! {
                    #krate::walk_root(__repairer, #compiled, __value, __path, __depth)
                };
                self.field_rule(field, fallback)
            }
            Body::Plan => quote! {
                #krate::walk_root(__repairer, #compiled, __value, __path, __depth)
            },
        }
    }

    /// A field's rule: generated from its shape when every type inside it
    /// is known (std types, nested `ToolArgs` types); else `fallback`, the
    /// schema's plan.
    fn field_rule(&self, field: &Field<'_>, fallback: TokenStream) -> TokenStream {
        if field.from_schema {
            return fallback;
        }
        let direct = self.rule(&field.shape);
        let others = field.shape.others();
        if others.is_empty() {
            return direct;
        }
        let krate = self.krate;
        let checks = others.iter().map(
            |ty| quote_spanned!(at(ty)=> (&#krate::Probe::<#ty>::new()).__toolargs_is_tool_args()),
        );
        quote! {
            if #(#checks)&&* { #direct } else { #fallback }
        }
    }

    fn rule(&self, shape: &Shape) -> TokenStream {
        let krate = self.krate;
        match shape {
            Shape::Any => quote!(#krate::any(__repairer, __value, __path, __depth)),
            Shape::Seq(item) => {
                let item = self.rule(item);
                quote! {
                    #krate::seq(__repairer, __value, __path, __depth,
                        |__repairer, __value, __path, __depth| #item)
                }
            }
            Shape::Map(member) => {
                let member = self.rule(member);
                quote! {
                    #krate::map(__repairer, __value, __path, __depth,
                        |__repairer, __value, __path, __depth| #member)
                }
            }
            Shape::Tuple(items) => {
                let arms = items.iter().enumerate().map(|(i, item)| {
                    let index = Literal::usize_unsuffixed(i);
                    let rule = self.rule(item);
                    quote!(#index => #rule,)
                });
                quote! {
                    #krate::tuple(__repairer, __value, __path, __depth,
                        |__index, __repairer, __value, __path, __depth| match __index {
                            #(#arms)*
                            _ => #krate::any(__repairer, __value, __path, __depth),
                        })
                }
            }
            Shape::Other(ty) => quote_spanned! {at(ty)=>
                (&#krate::Probe::<#ty>::new())
                    .__toolargs_normalize_in(__repairer, __value, __path, __depth)
            },
        }
    }

    /// The body of `__annotate`: `open`, the field notes (aliases,
    /// verbatim), the variants' aliases (after the fields', so an alias's
    /// branch is a copy of the annotated one), flattened `ToolArgs` types' own notes on this schema, and
    /// the definitions of nested `ToolArgs` types.
    fn annotate(&self, ir: &Input<'_>) -> TokenStream {
        let krate = self.krate;
        let open = ir.attrs.open.map(|_| quote!(#krate::open(__schema);));
        let own = |f: &&Field<'_>| !f.skipped && !f.flatten;
        let notes: Vec<TokenStream> = ir
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| own(f) && (f.verbatim.is_some() || !f.aliases.is_empty()))
            .filter_map(|(i, f)| {
                let place = self.place(&f.place)?;
                // serde matches a name to the first field of the object that
                // has it: an alias another field holds first (its wire name,
                // an earlier field's alias) is not this field's. Any other
                // property of that name is a flattened member's, and the
                // alias takes it (serde reads the struct's own names first).
                let aliases: Vec<&String> = f
                    .aliases
                    .iter()
                    .filter(|alias| {
                        !ir.fields.iter().enumerate().any(|(j, g)| {
                            j != i
                                && own(&g)
                                && g.place == f.place
                                && (g.wire == **alias || (j < i && g.aliases.contains(alias)))
                        })
                    })
                    .collect();
                let (wire, verbatim) = (&f.wire, f.verbatim.is_some());
                Some(quote! {
                    #krate::FieldNote {
                        place: #place,
                        wire: #wire,
                        aliases: &[#(#aliases),*],
                        verbatim: #verbatim,
                    }
                })
            })
            .collect();
        let notes = (!notes.is_empty())
            .then(|| quote!(#krate::annotate_fields(__schema, __annotator, &[#(#notes),*]);));
        // schemars merges a flattened type's members over the object's own
        // properties: a field before a flattened type with a member of its
        // name gets its own schema back, before anything reads or copies it.
        // serde reads the struct's own names first, and hands any other
        // member to the first flattened struct that names it.
        let own_first: Vec<TokenStream> = ir
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.skipped && !f.schema_elsewhere)
            .filter_map(|(i, f)| {
                let later: Vec<TokenStream> = ir.fields[i + 1..]
                    .iter()
                    .filter(|g| {
                        g.flatten && !g.skipped && !g.schema_elsewhere && g.place == f.place
                    })
                    .map(|g| {
                        let ty = &g.original.ty;
                        quote_spanned! {at(ty)=>
                            (&#krate::Probe::<#ty>::new()).__toolargs_flattened()
                        }
                    })
                    .collect();
                if later.is_empty() {
                    return None;
                }
                let place = self.place(&f.place)?;
                let (wire, ty) = (&f.wire, &f.original.ty);
                if f.flatten {
                    let own = own_names(ir, f);
                    return Some(quote_spanned! {at(ty)=>
                        #krate::flattened_first(
                            __schema,
                            __annotator,
                            #place,
                            &[#(#own),*],
                            (&#krate::Probe::<#ty>::new()).__toolargs_flattened(),
                            &[#(#later),*],
                        );
                    });
                }
                Some(quote_spanned! {at(ty)=>
                    #krate::own_field_first(
                        __schema,
                        __annotator,
                        #place,
                        #wire,
                        (&#krate::Probe::<#ty>::new()).__toolargs_field_schema(),
                        &[#(#later),*],
                    );
                })
            })
            .collect();
        // Maps and sets serde may merge two entries of: the type is asked
        // (before aliases copy the field's schema).
        let repeats: Vec<TokenStream> = ir
            .fields
            .iter()
            .filter(|f| own(f) && !f.schema_elsewhere)
            .filter_map(|f| {
                let collection = crate::shape::may_merge_entries(&f.original.ty)?;
                let place = self.place(&f.place)?;
                let wire = &f.wire;
                Some(quote_spanned! {at(collection)=>
                    #krate::note_repeats(
                        __schema,
                        __annotator,
                        #place,
                        #wire,
                        (&#krate::Probe::<#collection>::new()).__toolargs_repeats(),
                    );
                })
            })
            .collect();
        let variant_notes: Vec<TokenStream> = ir
            .variant_aliases
            .iter()
            .map(|v| {
                let (name, aliases, takes) = (&v.name, &v.aliases, &v.takes);
                let tag = match &v.tag {
                    None => quote!(#krate::VariantTag::External),
                    Some(tag) => quote!(#krate::VariantTag::Member(#tag)),
                };
                quote! {
                    #krate::VariantNote {
                        tag: #tag,
                        name: #name,
                        aliases: &[#(#aliases),*],
                        takes: &[#(#takes),*],
                    }
                }
            })
            .collect();
        let variant_notes = (!variant_notes.is_empty())
            .then(|| quote!(#krate::annotate_variants(__schema, &[#(#variant_notes),*]);));
        let mut seen_types: Vec<String> = Vec::new();
        let mut calls = Vec::new();
        // Whether flattened fields of the struct claim names for the next.
        let mut siblings = false;
        // The variant whose flattened fields' claims are in force: a
        // variant's fields come together, and the next variant's never see
        // them.
        let mut claims_of: Option<&Place> = None;
        for field in ir
            .fields
            .iter()
            .filter(|f| !f.skipped && !f.schema_elsewhere)
        {
            if field.flatten {
                if claims_of.is_some_and(|place| *place != field.place) {
                    calls.push(quote!(__annotator.release(__siblings);));
                    claims_of = None;
                }
                let ty = &field.original.ty;
                // A type written `Option<T>`: `T`'s notes apply where its
                // members are merged, and to `T` as a whole.
                let inner = crate::shape::option_inner(ty).unwrap_or(ty);
                let own = own_names(ir, field);
                // What the object's other flattened fields read: what a
                // flattened `Option` (this one, or one this type flattens)
                // drops may be kept there.
                // serde's flattening takes what a struct reads from the
                // members left: whether each comes after this one matters.
                let at_index = ir.fields.iter().position(|g| std::ptr::eq(g, field));
                let others: Vec<TokenStream> = ir
                    .fields
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| {
                        g.flatten
                            && !g.skipped
                            && g.place == field.place
                            && !std::ptr::eq(*g, field)
                    })
                    .map(|(j, g)| {
                        let ty = &g.original.ty;
                        let after = at_index.is_some_and(|i| j > i);
                        if g.schema_elsewhere {
                            quote!(#krate::Flattened::UNKNOWN.sibling(__annotator, #after))
                        } else {
                            quote_spanned! {at(ty)=>
                                (&#krate::Probe::<#ty>::new())
                                    .__toolargs_flattened()
                                    .knowing((&#krate::Probe::<#ty>::new()).__toolargs_keeps_every_member())
                                    .sibling(__annotator, #after)
                            }
                        }
                    })
                    .collect();
                // A flattened map whose keys may merge reads the members
                // not claimed so far.
                let repeats = crate::shape::may_merge_entries(ty)
                    .zip(self.place(&field.place))
                    .map(|(collection, place)| {
                        quote_spanned! {at(collection)=>
                            #krate::note_flattened_repeats(
                                __schema,
                                __annotator,
                                #place,
                                (&#krate::Probe::<#collection>::new()).__toolargs_repeats(),
                            );
                        }
                    });
                // What this struct reads itself never reaches the flattened
                // type, nor any type that type flattens.
                // An externally or adjacently tagged variant's fields are
                // members of an object of its own: what the objects around
                // claim and keep never reaches them.
                let own_object = matches!(field.place, Place::External(_) | Place::Adjacent { .. });
                let (enter, leave) = if own_object {
                    (
                        quote!(let __object = __annotator.enter_object();),
                        quote!(__annotator.leave_object(__object);),
                    )
                } else {
                    (TokenStream::new(), TokenStream::new())
                };
                calls.push(quote_spanned! {at(ty)=>
                    let __others = [#(#others),*];
                    #enter
                    let __claimed = __annotator.claim(&[#(#own),*]);
                    #repeats
                    __annotator.keep(__others);
                });
                // The type is annotated in the object holding the field's
                // place: inside an enum, its variant's, never across the
                // enum (`open` would open every variant).
                let annotate_at = match self.place(&field.place) {
                    Some(place) => quote! {
                        if let #krate::Some(__at) = #krate::place_mut(__schema, #place) {
                            (&#krate::Probe::<#inner>::new())
                                .__toolargs_annotate_flattened(__at, __annotator);
                        }
                    },
                    None => quote! {
                        (&#krate::Probe::<#inner>::new())
                            .__toolargs_annotate_flattened(__schema, __annotator);
                    },
                };
                if let Some(place) = self.place(&field.place) {
                    // Before any annotation changes what schemars wrote.
                    calls.push(quote_spanned! {at(ty)=>
                        (&#krate::Probe::<#ty>::new())
                            .__toolargs_flattened()
                            .relax(__schema, __annotator, #place);
                    });
                }
                calls.push(quote_spanned! {at(ty)=> #annotate_at });
                if let Some(place) = self.place(&field.place) {
                    // serde drops what does not make a whole `T` of an
                    // `Option<T>`: the schema takes it whole or not at all,
                    // and `T` is asked what the schema cannot say.
                    calls.push(quote_spanned! {at(ty)=>
                        (&#krate::Probe::<#ty>::new()).__toolargs_flattened().rewrite(
                            __schema,
                            __annotator,
                            #place,
                            &mut |__whole, __annotator| {
                                (&#krate::Probe::<#inner>::new())
                                    .__toolargs_annotate_flattened(__whole, __annotator);
                            },
                            (&#krate::Probe::<#ty>::new()).__toolargs_whole_reader(),
                        );
                    });
                }
                calls.push(quote! {
                    __annotator.release_kept();
                    __annotator.release(__claimed);
                    #leave
                });
                // An internally tagged or untagged variant's fields are
                // read from the enum's object, as a struct's are (an
                // externally or adjacently tagged one's object of its own
                // is entered per field: what it claims stays inside).
                let claims = matches!(
                    field.place,
                    Place::Struct | Place::Internal { .. } | Place::Untagged { .. }
                );
                if claims {
                    // serde hands a member to the first flattened field that
                    // takes it: the fields after this one never see this
                    // one's members (nor any, after a map).
                    siblings = true;
                    if field.place != Place::Struct {
                        claims_of = Some(&field.place);
                    }
                    calls.push(quote_spanned! {at(ty)=>
                        (&#krate::Probe::<#ty>::new())
                            .__toolargs_flattened()
                            .knowing((&#krate::Probe::<#ty>::new()).__toolargs_keeps_every_member())
                            .claim(__annotator);
                    });
                }
                continue;
            }
            for ty in field.shape.others() {
                let key = ty.to_token_stream().to_string();
                if seen_types.contains(&key) {
                    continue;
                }
                seen_types.push(key);
                calls.push(quote_spanned! {at(ty)=>
                    (&#krate::Probe::<#ty>::new()).__toolargs_annotate_nested(__annotator);
                });
            }
        }
        if claims_of.is_some() {
            calls.push(quote!(__annotator.release(__siblings);));
        }
        // An internally tagged newtype around a type whose schema takes
        // anything (`serde_json::Value`): schemars writes its branch as the
        // tag alone, which closing would read as a variant with no fields.
        //
        // A newtype around a type schemars writes into the branch (a closed
        // struct): the type's annotations are applied to that copy, the tag
        // claimed (serde takes it before the type sees the members).
        for newtype in &ir.internal_newtypes {
            let (tag, name, ty) = (&newtype.tag, &newtype.name, newtype.ty);
            calls.push(quote_spanned! {at(ty)=>
                #krate::open_newtype_branch(
                    __schema,
                    #tag,
                    #name,
                    (&#krate::Probe::<#ty>::new()).__toolargs_takes_anything(),
                );
                if let #krate::Some(__branch) = #krate::inlined_newtype_branch(__schema, #tag, #name) {
                    let __claimed = __annotator.claim(&[#tag]);
                    (&#krate::Probe::<#ty>::new())
                        .__toolargs_annotate_flattened(__branch, __annotator);
                    __annotator.release(__claimed);
                }
            });
        }
        // An adjacently tagged newtype around an `Option`: serde reads the
        // tag without its content as the variant of `None`, where schemars
        // requires the content.
        for newtype in &ir.adjacent_newtypes {
            let (tag, content, name, ty) =
                (&newtype.tag, &newtype.content, &newtype.name, newtype.ty);
            calls.push(quote_spanned! {at(ty)=>
                #krate::content_may_be_left_out(
                    __schema,
                    #tag,
                    #content,
                    #name,
                    (&#krate::Probe::<#ty>::new()).__toolargs_is_option(),
                );
            });
        }
        if siblings {
            calls.insert(0, quote! { let __siblings = __annotator.claim(&[]); });
            calls.push(quote! { __annotator.release(__siblings); });
        }
        // A variant's aliases copy its branch as the calls leave it: read
        // under an alias, it is checked as under its name (flattened
        // `Option`s read whole, nested types closed).
        quote! {
            #open
            #(#own_first)*
            #(#repeats)*
            #notes
            #(#calls)*
            #variant_notes
        }
    }

    /// The runtime's `Place` for a field, or `None` where a field has no
    /// object of its own (tuple and newtype variants).
    fn place(&self, place: &Place) -> Option<TokenStream> {
        let krate = self.krate;
        Some(match place {
            Place::Struct => quote!(#krate::Place::Struct),
            Place::External(name) => quote!(#krate::Place::External(#name)),
            Place::Internal { tag, name } => {
                quote!(#krate::Place::Internal { tag: #tag, name: #name })
            }
            Place::Adjacent { tag, content, name } => quote! {
                #krate::Place::Adjacent { tag: #tag, content: #content, name: #name }
            },
            Place::Untagged { index, fields } => {
                let index = Literal::usize_unsuffixed(*index);
                quote!(#krate::Place::Untagged { index: #index, fields: &[#(#fields),*] })
            }
            Place::Unnamed => return None,
        })
    }
}

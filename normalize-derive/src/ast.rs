//! The derive's IR: the input type as the expansion needs it, keeping the
//! `syn` nodes for spans. Wire names, aliases, skips and flattening come
//! from serde's own attribute parser (`serde_derive_internals`), so they
//! mean exactly what serde means.

use crate::attr::{self, Attrs, SchemarsEffect};
use crate::shape::Shape;
use serde_derive_internals::{Ctxt, Derive, ast, attr as serde_attr};
use syn::{Data, DeriveInput};

/// The type being derived.
pub struct Input<'a> {
    /// The original item (ident, generics, spans).
    pub original: &'a DeriveInput,
    /// `#[tool_args(...)]`.
    pub attrs: Attrs,
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown_fields: bool,
    /// Whether serde's `transparent` applies.
    pub transparent: bool,
    /// `#[serde(from/try_from)]`: serde reads another type.
    pub converted: bool,
    /// A `#[schemars(...)]` on the container that may make its schema say
    /// other than what serde reads (`with`, `transform`, `extend`, ...).
    pub reshaped: bool,
    /// `#[serde(default)]` on the container.
    pub default: bool,
    /// How the normalizer is generated.
    pub body: Body<'a>,
    /// Every field of every variant (to annotate the schema).
    pub fields: Vec<Field<'a>>,
    /// An enum's variants, in declaration order (empty for a struct).
    pub variants: Vec<VariantIr>,
    /// How an enum's variants are told apart.
    pub tagging: Tagging,
    /// A struct's shape (named, newtype, tuple or unit); `None` for an enum.
    pub struct_style: Option<VariantStyle>,
    /// The variants serde also reads under other names (tagged enums).
    pub variant_aliases: Vec<VariantAliases>,
    /// The newtype variants of an internally tagged enum: serde reads the
    /// members beside the tag as the inner type.
    pub internal_newtypes: Vec<InternalNewtype<'a>>,
    /// The newtype variants of an adjacently tagged enum.
    pub adjacent_newtypes: Vec<AdjacentNewtype<'a>>,
}

/// A newtype variant of an internally tagged enum.
pub struct InternalNewtype<'a> {
    /// The member holding the tag.
    pub tag: String,
    /// The variant's wire name (the tag's value).
    pub name: String,
    /// The inner type.
    pub ty: &'a syn::Type,
}

/// A newtype variant of an adjacently tagged enum.
pub struct AdjacentNewtype<'a> {
    /// The member holding the tag.
    pub tag: String,
    /// The member holding the content.
    pub content: String,
    /// The variant's wire name (the tag's value).
    pub name: String,
    /// The inner type.
    pub ty: &'a syn::Type,
}

/// A variant's serde aliases.
pub struct VariantAliases {
    /// The member holding the tag (internally or adjacently tagged), or
    /// `None` (externally tagged).
    pub tag: Option<String>,
    /// The variant's wire name.
    pub name: String,
    /// serde's other accepted names that are this variant's: none that an
    /// earlier variant has (serde gives a name to the first variant that
    /// has it).
    pub aliases: Vec<String>,
    /// Those of `aliases` that are a later variant's wire name: that
    /// variant is not read under it.
    pub takes: Vec<String>,
}

/// How an enum's variants are told apart on the wire (serde's `TagType`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tagging {
    /// `{"Variant": content}`, or `"Variant"` for a unit variant.
    External,
    /// The tag beside the variant's own members.
    Internal { tag: String },
    /// The tag and the content as two members.
    Adjacent { tag: String, content: String },
    /// No tag: serde tries each variant in turn.
    Untagged,
}

/// One variant of an enum, as serde reads it.
pub struct VariantIr {
    /// Its wire name.
    pub name: String,
    /// serde's other names for it.
    pub aliases: Vec<String>,
    /// `#[serde(skip_deserializing)]`, or read by a function of its own
    /// (`deserialize_with`), or untagged on its own.
    pub skipped: bool,
    /// Unit, newtype, tuple or struct.
    pub style: VariantStyle,
}

/// The shape of a variant's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantStyle {
    Unit,
    Newtype,
    Tuple,
    Struct,
}

/// How the generated normalizer works.
pub enum Body<'a> {
    /// A struct with named fields and a plain object schema: one match arm
    /// per wire name (and alias).
    Struct(Vec<Field<'a>>),
    /// `#[serde(transparent)]`: the one field's rule, at the root.
    Transparent(Box<Field<'a>>),
    /// Enums, flattened or tagged structs, tuple structs, schemars-reshaped
    /// types: the type's own plan, walked from the root.
    Plan,
}

/// One field.
#[derive(Clone)]
pub struct Field<'a> {
    /// The original field (spans).
    pub original: &'a syn::Field,
    /// Name serde deserializes it from.
    pub wire: String,
    /// serde's other accepted names.
    pub aliases: Vec<String>,
    /// What its type says about its JSON.
    pub shape: Shape,
    /// Normalize it through the schema's plan: its schema comes from
    /// elsewhere, or it is verbatim (the plan reads the mark).
    pub from_schema: bool,
    /// `#[schemars(with/schema_with)]` or `#[serde(with/deserialize_with)]`:
    /// the schema is not the field type's, so the type is not looked for.
    pub schema_elsewhere: bool,
    /// `#[serde(with/deserialize_with)]`: serde reads it its own way.
    pub read_elsewhere: bool,
    /// `#[serde(default)]` on the field.
    pub default: bool,
    /// `#[serde(skip)]` / `skip_deserializing`: not read from the input.
    pub skipped: bool,
    /// `#[serde(flatten)]`.
    pub flatten: bool,
    /// `#[tool_args(verbatim)]`, with the span of the keyword.
    pub verbatim: Option<proc_macro2::Span>,
    /// Where the field is in its type's schema.
    pub place: Place,
    /// The index of its variant in [`Input::variants`] (an enum's field).
    pub variant: Option<usize>,
}

/// Where a field is in its type's schema (the runtime's `Place`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A field of the struct.
    Struct,
    /// A field of an externally tagged struct variant.
    External(String),
    /// A field of an internally tagged struct variant.
    Internal { tag: String, name: String },
    /// A field of an adjacently tagged struct variant.
    Adjacent {
        tag: String,
        content: String,
        name: String,
    },
    /// A field of the n-th deserialized variant of an untagged enum, whose
    /// own (not flattened) fields have the wire names `fields`: the union
    /// an object flattening the enum holds beside others is the one whose
    /// `index`-th branch has them.
    Untagged { index: usize, fields: Vec<String> },
    /// A field of a tuple or newtype variant (no object of its own).
    Unnamed,
}

impl<'a> Input<'a> {
    /// Builds the IR, pushing every error found. `None` when the type
    /// cannot be expanded (errors say why; a serde attribute error is left
    /// for serde's own derive to report).
    pub fn from_syn(input: &'a DeriveInput, errors: &mut Vec<syn::Error>) -> Option<Input<'a>> {
        if let Data::Union(union) = &input.data {
            errors.push(syn::Error::new(
                union.union_token.span,
                "#[derive(ToolArgs)] supports structs and enums, not unions \
                 (serde cannot deserialize a union)",
            ));
            return None;
        }
        let attrs = attr::parse_container(&input.attrs, errors);
        match &input.data {
            Data::Enum(data) => {
                for variant in &data.variants {
                    attr::reject_misplaced(&variant.attrs, "variant", errors);
                }
            }
            Data::Struct(_) | Data::Union(_) => {}
        }

        let cx = Ctxt::new();
        // The last argument names serde's private module in the paths serde
        // would generate (`borrow` on a `Cow`); we generate none of them.
        let private = proc_macro2::Ident::new("__private", proc_macro2::Span::call_site());
        let container = ast::Container::from_ast(&cx, input, Derive::Deserialize, &private);
        // serde's derive reports its own attribute errors; repeating them
        // here would only double them.
        let container = match (cx.check(), container) {
            (Ok(()), Some(container)) => container,
            _ => return None,
        };

        check_schemars_renames(&container, errors);
        let container_effect = attr::schemars_effect(&input.attrs);
        let fields: Vec<Field<'a>> = match &container.data {
            ast::Data::Enum(variants) => {
                let mut index = 0;
                let mut fields = Vec::new();
                for (v, variant) in variants.iter().enumerate() {
                    let place = variant_place(container.attrs.tag(), variant, index);
                    let skipped = variant.attrs.skip_deserializing();
                    if !skipped {
                        index += 1;
                    }
                    // A variant serde never reads reads none of its fields.
                    fields.extend(variant.fields.iter().map(|f| {
                        let mut field = Field::from_serde(f, place.clone(), errors);
                        field.skipped |= skipped;
                        field.variant = Some(v);
                        field
                    }));
                }
                fields
            }
            ast::Data::Struct(_, fields) => fields
                .iter()
                .map(|f| Field::from_serde(f, Place::Struct, errors))
                .collect(),
        };
        let internal_newtypes = match (&container.data, container.attrs.tag()) {
            (ast::Data::Enum(variants), serde_attr::TagType::Internal { tag }) => variants
                .iter()
                .filter(|v| matches!(v.style, ast::Style::Newtype) && !v.attrs.skip_deserializing())
                .filter_map(|v| {
                    Some(InternalNewtype {
                        tag: tag.clone(),
                        name: v.attrs.name().deserialize_name().value.clone(),
                        ty: v.fields.first()?.ty,
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        let adjacent_newtypes = match (&container.data, container.attrs.tag()) {
            (ast::Data::Enum(variants), serde_attr::TagType::Adjacent { tag, content }) => variants
                .iter()
                .filter(|v| {
                    matches!(v.style, ast::Style::Newtype)
                        && !v.attrs.skip_deserializing()
                        && v.attrs.deserialize_with().is_none()
                })
                .filter_map(|v| {
                    Some(AdjacentNewtype {
                        tag: tag.clone(),
                        content: content.clone(),
                        name: v.attrs.name().deserialize_name().value.clone(),
                        ty: v.fields.first()?.ty,
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        let variant_aliases = match &container.data {
            ast::Data::Enum(variants) => variant_aliases(container.attrs.tag(), variants),
            ast::Data::Struct(_, _) => Vec::new(),
        };
        let reshaped_field = fields
            .iter()
            .any(|f| attr::schemars_effect(&f.original.attrs) == SchemarsEffect::Reshape);
        let body = match &container.data {
            ast::Data::Enum(_) => Body::Plan,
            ast::Data::Struct(_, _) if container.attrs.transparent() => {
                let field = fields.iter().find(|f| !f.skipped).cloned();
                match field {
                    Some(field) if container_effect == SchemarsEffect::Annotation => {
                        Body::Transparent(Box::new(field))
                    }
                    _ => Body::Plan,
                }
            }
            ast::Data::Struct(ast::Style::Struct, serde_fields)
                if !serde_fields.iter().any(|f| f.attrs.flatten())
                    && matches!(container.attrs.tag(), serde_attr::TagType::External)
                    && container.attrs.type_from().is_none()
                    && container.attrs.type_try_from().is_none()
                    && container_effect == SchemarsEffect::Annotation
                    && !reshaped_field =>
            {
                Body::Struct(fields.clone())
            }
            ast::Data::Struct(_, _) => Body::Plan,
        };
        let tagging = match container.attrs.tag() {
            serde_attr::TagType::External => Tagging::External,
            serde_attr::TagType::Internal { tag } => Tagging::Internal { tag: tag.clone() },
            serde_attr::TagType::Adjacent { tag, content } => Tagging::Adjacent {
                tag: tag.clone(),
                content: content.clone(),
            },
            serde_attr::TagType::None => Tagging::Untagged,
        };
        let variants = match &container.data {
            ast::Data::Enum(variants) => variants
                .iter()
                .map(|variant| {
                    let name = variant.attrs.name().deserialize_name().value.clone();
                    VariantIr {
                        aliases: variant
                            .attrs
                            .aliases()
                            .iter()
                            .map(|a| a.value.clone())
                            .filter(|a| *a != name)
                            .collect(),
                        name,
                        skipped: variant.attrs.skip_deserializing()
                            || variant.attrs.deserialize_with().is_some()
                            || variant.attrs.untagged(),
                        style: match variant.style {
                            ast::Style::Unit => VariantStyle::Unit,
                            ast::Style::Newtype => VariantStyle::Newtype,
                            ast::Style::Tuple => VariantStyle::Tuple,
                            ast::Style::Struct => VariantStyle::Struct,
                        },
                    }
                })
                .collect(),
            ast::Data::Struct(_, _) => Vec::new(),
        };
        let struct_style = match &container.data {
            ast::Data::Struct(style, _) => Some(match style {
                ast::Style::Unit => VariantStyle::Unit,
                ast::Style::Newtype => VariantStyle::Newtype,
                ast::Style::Tuple => VariantStyle::Tuple,
                ast::Style::Struct => VariantStyle::Struct,
            }),
            ast::Data::Enum(_) => None,
        };
        Some(Input {
            original: input,
            struct_style,
            variants,
            tagging,
            attrs,
            deny_unknown_fields: container.attrs.deny_unknown_fields(),
            transparent: container.attrs.transparent(),
            converted: container.attrs.type_from().is_some()
                || container.attrs.type_try_from().is_some(),
            reshaped: container_effect != SchemarsEffect::Annotation,
            default: !matches!(container.attrs.default(), serde_attr::Default::None),
            body,
            fields,
            variant_aliases,
            internal_newtypes,
            adjacent_newtypes,
        })
    }
}

/// Errors where `#[schemars(rename)]` shows a name serde does not read: on
/// a named field (of a struct or struct variant; not flattened, not in a
/// transparent struct) and on a variant whose name is on the wire (not
/// untagged), where schemars writes the renamed name. A rename to one of
/// the names serde reads (its wire name or an alias) is fine.
fn check_schemars_renames(container: &ast::Container<'_>, errors: &mut Vec<syn::Error>) {
    // `#[serde(from/try_from)]`: the schema is the other type's.
    if container.attrs.type_from().is_some() || container.attrs.type_try_from().is_some() {
        return;
    }
    let check_fields =
        |style: &ast::Style, fields: &[ast::Field<'_>], errors: &mut Vec<syn::Error>| {
            if !matches!(style, ast::Style::Struct) || container.attrs.transparent() {
                return;
            }
            for field in fields
                .iter()
                .filter(|f| !f.attrs.skip_deserializing() && !f.attrs.flatten())
            {
                attr::check_schemars_rename(
                    &field.original.attrs,
                    "field",
                    field.attrs.aliases().iter().map(|a| &a.value),
                    errors,
                );
            }
        };
    match &container.data {
        ast::Data::Enum(variants) => {
            let untagged = matches!(container.attrs.tag(), serde_attr::TagType::None);
            for variant in variants.iter().filter(|v| !v.attrs.skip_deserializing()) {
                if !untagged && !variant.attrs.untagged() {
                    attr::check_schemars_rename(
                        &variant.original.attrs,
                        "variant",
                        variant.attrs.aliases().iter().map(|a| &a.value),
                        errors,
                    );
                }
                check_fields(&variant.style, &variant.fields, errors);
            }
        }
        ast::Data::Struct(style, fields) => check_fields(style, fields, errors),
    }
}

/// The aliases of the variants serde reads, where the variant's name is on
/// the wire (not for an untagged enum).
fn variant_aliases(
    tag: &serde_attr::TagType,
    variants: &[ast::Variant<'_>],
) -> Vec<VariantAliases> {
    let tag = match tag {
        serde_attr::TagType::External => None,
        serde_attr::TagType::Internal { tag } | serde_attr::TagType::Adjacent { tag, .. } => {
            Some(tag.clone())
        }
        serde_attr::TagType::None => return Vec::new(),
    };
    let read: Vec<&ast::Variant<'_>> = variants
        .iter()
        .filter(|variant| !variant.attrs.skip_deserializing())
        .collect();
    let wire = |variant: &ast::Variant<'_>| variant.attrs.name().deserialize_name().value.clone();
    // serde matches a name against the variants in declaration order.
    let mut owner: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (index, variant) in read.iter().enumerate() {
        owner.entry(wire(variant)).or_insert(index);
        for alias in variant.attrs.aliases() {
            owner.entry(alias.value.clone()).or_insert(index);
        }
    }
    read.iter()
        .enumerate()
        .filter_map(|(index, variant)| {
            let name = wire(variant);
            let aliases: Vec<String> = variant
                .attrs
                .aliases()
                .iter()
                .map(|alias| &alias.value)
                .filter(|alias| **alias != name && owner.get(*alias) == Some(&index))
                .cloned()
                .collect();
            let takes = aliases
                .iter()
                .filter(|alias| read.iter().any(|other| wire(other) == **alias))
                .cloned()
                .collect();
            (!aliases.is_empty()).then(|| VariantAliases {
                tag: tag.clone(),
                name,
                aliases,
                takes,
            })
        })
        .collect()
}

/// Where the fields of `variant` are, by the enum's representation.
fn variant_place(tag: &serde_attr::TagType, variant: &ast::Variant<'_>, index: usize) -> Place {
    if !matches!(variant.style, ast::Style::Struct) {
        return Place::Unnamed;
    }
    let name = variant.attrs.name().deserialize_name().value.clone();
    match tag {
        serde_attr::TagType::External => Place::External(name),
        serde_attr::TagType::Internal { tag } => Place::Internal {
            tag: tag.clone(),
            name,
        },
        serde_attr::TagType::Adjacent { tag, content } => Place::Adjacent {
            tag: tag.clone(),
            content: content.clone(),
            name,
        },
        serde_attr::TagType::None => Place::Untagged {
            index,
            fields: variant
                .fields
                .iter()
                .filter(|f| !f.attrs.flatten() && !f.attrs.skip_deserializing())
                .map(|f| f.attrs.name().deserialize_name().value.clone())
                .collect(),
        },
    }
}

impl<'a> Field<'a> {
    fn from_serde(field: &ast::Field<'a>, place: Place, errors: &mut Vec<syn::Error>) -> Field<'a> {
        let wire = field.attrs.name().deserialize_name().value.clone();
        let aliases = field
            .attrs
            .aliases()
            .iter()
            .map(|a| &a.value)
            .filter(|a| **a != wire)
            .cloned()
            .collect();
        let own = attr::parse_field(&field.original.attrs, errors);
        let schema_elsewhere = attr::schemars_effect(&field.original.attrs)
            != SchemarsEffect::Annotation
            || field.attrs.deserialize_with().is_some();
        let verbatim = own.verbatim;
        Field {
            original: field.original,
            wire,
            aliases,
            shape: Shape::of(field.ty),
            from_schema: schema_elsewhere || verbatim.is_some(),
            schema_elsewhere,
            read_elsewhere: field.attrs.deserialize_with().is_some(),
            default: !matches!(field.attrs.default(), serde_attr::Default::None),
            skipped: field.attrs.skip_deserializing(),
            flatten: field.attrs.flatten(),
            verbatim,
            place,
            variant: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    fn build(input: &DeriveInput) -> (Option<Input<'_>>, Vec<syn::Error>) {
        let mut errors = Vec::new();
        let ir = Input::from_syn(input, &mut errors);
        (ir, errors)
    }

    #[test]
    fn struct_fields_carry_serde_wire_names() {
        let input: DeriveInput = parse_quote! {
            #[serde(rename_all = "camelCase")]
            struct Search {
                page_size: u32,
                #[serde(rename = "q", alias = "query")]
                text: String,
                #[serde(skip)]
                cache: Vec<u8>,
            }
        };
        let (ir, errors) = build(&input);
        assert!(errors.is_empty());
        let Body::Struct(fields) = ir.unwrap().body else {
            panic!("expected a struct body")
        };
        assert_eq!(fields[0].wire, "pageSize");
        assert_eq!(fields[1].wire, "q");
        assert_eq!(fields[1].aliases, ["query"]);
        assert!(fields[2].skipped);
    }

    #[test]
    fn variant_aliases_carry_the_tag_and_the_wire_name() {
        let internal: DeriveInput = parse_quote! {
            #[serde(tag = "op", rename_all = "snake_case")]
            enum Op {
                #[serde(alias = "remove", alias = "rm")]
                Delete { hard: bool },
                Keep,
                #[serde(skip_deserializing, alias = "gone")]
                Hidden,
            }
        };
        let (ir, errors) = build(&internal);
        assert!(errors.is_empty());
        let aliases = ir.unwrap().variant_aliases;
        assert_eq!(aliases.len(), 1, "a skipped variant has no name to alias");
        assert_eq!(aliases[0].tag.as_deref(), Some("op"));
        assert_eq!(aliases[0].name, "delete");
        assert_eq!(aliases[0].aliases, ["remove", "rm"]);
        assert!(aliases[0].takes.is_empty());

        // serde gives a name to the first variant that has it.
        let clash: DeriveInput = parse_quote! {
            enum C {
                #[serde(alias = "B")]
                A(u32),
                #[serde(alias = "A", alias = "Z")]
                B(String),
            }
        };
        let aliases = build(&clash).0.unwrap().variant_aliases;
        assert_eq!(aliases[0].aliases, ["B"]);
        assert_eq!(aliases[0].takes, ["B"]);
        assert_eq!(aliases[1].aliases, ["Z"], "`A` is the first variant's");
        assert!(aliases[1].takes.is_empty());

        let external: DeriveInput = parse_quote! {
            enum E { #[serde(alias = "poke")] Ping }
        };
        let aliases = build(&external).0.unwrap().variant_aliases;
        assert_eq!(
            (aliases[0].tag.as_deref(), aliases[0].name.as_str()),
            (None, "Ping")
        );

        let untagged: DeriveInput = parse_quote! {
            #[serde(untagged)]
            enum U { #[serde(alias = "x")] A(u32) }
        };
        assert!(build(&untagged).0.unwrap().variant_aliases.is_empty());
    }

    #[test]
    fn flatten_enums_and_tagged_structs_use_the_plan() {
        let flattened: DeriveInput = parse_quote! {
            struct A { #[serde(flatten)] rest: Other }
        };
        let tagged: DeriveInput = parse_quote! {
            #[serde(tag = "kind")]
            struct B { x: u32 }
        };
        let an_enum: DeriveInput = parse_quote! { enum C { X, Y(u32) } };
        for input in [&flattened, &tagged] {
            assert!(matches!(build(input).0.unwrap().body, Body::Plan));
        }
        assert!(matches!(build(&an_enum).0.unwrap().body, Body::Plan));
    }

    #[test]
    fn unions_and_misplaced_attributes_are_errors() {
        let union: DeriveInput = parse_quote! { union U { a: u32 } };
        let (ir, errors) = build(&union);
        assert!(ir.is_none());
        assert_eq!(errors.len(), 1);

        let misplaced: DeriveInput = parse_quote! {
            struct S { #[tool_args(open)] a: u32, #[tool_args(open)] b: u32 }
        };
        assert_eq!(build(&misplaced).1.len(), 2);
    }
}

//! What serde does with a Rust type, as data: the derive states it for each
//! type it expands, and this module for the standard types serde reads.
//!
//! A [`Node`] is read where the schema cannot say what serde will do: a
//! Rust integer refuses `5.0`, which JSON Schema's `integer` takes. The
//! derive names each field's type, and method resolution picks that type's
//! [`Modeled`] node when it has one, [`Node::Unknown`] when it does not (a
//! type that derives only `JsonSchema`, a generic parameter): an unknown
//! node checks nothing, so a type outside the model is never refused by it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

/// What serde reads at one place of a type, as far as the contract needs
/// it. Nested nodes are functions, so a recursive type's model is finite.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Node {
    /// A Rust integer of at most 64 bits: a JSON number written without a
    /// fraction or an exponent (`5`, not `5.0` or `5e0`), which serde
    /// refuses; within the type's range, which the schema says too, but
    /// not where a flattened map reads a member a later field declares.
    Integer {
        /// The type's least value.
        min: i64,
        /// The type's greatest value.
        max: u64,
    },
    /// A `u128` or `i128`: as [`Node::Integer`], except a whole number past
    /// 64 bits, which the checked value holds rounded (refused where serde
    /// reads it, `crate::tool_args`, never checked rounded).
    WideInteger,
    /// A Rust float, bool, string, char or unit: the schema says all,
    /// except where a flattened map reads a member a later flattened field
    /// declares, which serde hands to both.
    Scalar(Scalar),
    /// `Option<T>`: `null`, or the inner node.
    Option(fn() -> &'static Node),
    /// A sequence (`Vec<T>`, a set, an array): each element.
    Seq(fn() -> &'static Node),
    /// A map with string keys (`HashMap<String, T>`): each value.
    Map(fn() -> &'static Node),
    /// A tuple or tuple struct: an array, each element its own node.
    Tuple(&'static [fn() -> &'static Node]),
    /// A struct with named fields, as serde's derive reads it.
    Struct(&'static StructModel),
    /// An enum told apart by a tag (external, internal or adjacent), as
    /// serde's derive reads it. (An untagged enum is [`Node::Unknown`]:
    /// which variant serde takes is known only by trying.)
    Enum(&'static EnumModel),
    /// A wrapper serde reads as the node inside (`#[serde(transparent)]`).
    Same(fn() -> &'static Node),
    /// A value serde reads whatever it holds (`serde_json::Value`, a
    /// `Map<String, Value>`): free-form, closed by no schema.
    FreeForm,
    /// Not known: a type without a model, a custom `Deserialize`, an enum.
    /// Nothing is checked from it.
    Unknown,
}

impl Node {
    /// The node serde reads, through transparent wrappers.
    pub fn resolve(&self) -> &Node {
        let mut node = self;
        while let Node::Same(inner) = node {
            node = inner();
        }
        node
    }
}

/// The JSON a [`Node::Scalar`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scalar {
    /// `true` or `false`.
    Bool,
    /// Any number (`f32`, `f64`).
    Float,
    /// Any string (`String`, `PathBuf`, `Box<str>`).
    Text,
    /// A string of one character (`char`).
    Char,
    /// `null` (`()`).
    Unit,
}

/// A flattened field that collects members no schema declares (a
/// flattened `serde_json::Value`, `Map` or `HashMap`), anywhere in the
/// structs `node` reads: the struct's name and the field's.
pub fn flattened_free_form(node: &Node) -> Option<(&'static str, &'static str)> {
    fn visit(
        node: &Node,
        seen: &mut Vec<*const StructModel>,
    ) -> Option<(&'static str, &'static str)> {
        match node.resolve() {
            Node::Option(inner) | Node::Seq(inner) | Node::Map(inner) => visit(inner(), seen),
            Node::Struct(model) => {
                let address: *const StructModel = *model;
                if seen.contains(&address) {
                    return None;
                }
                seen.push(address);
                model
                    .fields
                    .iter()
                    .filter(|f| !f.skipped)
                    .find_map(|field| {
                        let inner = (field.node)().resolve();
                        let free = field.flatten && matches!(inner, Node::FreeForm | Node::Map(_));
                        if free {
                            Some((model.name, field.wire))
                        } else {
                            visit(inner, seen)
                        }
                    })
            }
            _ => None,
        }
    }
    visit(node, &mut Vec::new())
}

/// The first place, as `Type.field` (a variant's content as
/// `Type::Variant`), where serde reads a value out of the model's sight
/// ([`Node::Unknown`]: a custom `Deserialize`, `with`, an untagged enum, a
/// type that derives only `JsonSchema`; or a flattened enum), among every
/// node `node` reaches;
/// `None` when the model states all serde does with the type.
pub fn first_unknown(node: &Node) -> Option<String> {
    fn first_visit(seen: &mut Vec<usize>, address: usize) -> bool {
        let fresh = !seen.contains(&address);
        seen.push(address);
        fresh
    }
    fn fields(model: &StructModel, seen: &mut Vec<usize>) -> Option<String> {
        if !first_visit(seen, std::ptr::from_ref(model) as usize) {
            return None;
        }
        model
            .fields
            .iter()
            .filter(|f| !f.skipped)
            .find_map(|field| {
                let at = format!("{}.{}", model.name, field.wire);
                let mut node = (field.node)().resolve();
                while let (true, Node::Option(inner)) = (field.flatten, node) {
                    node = inner().resolve();
                }
                match node {
                    // serde buffers the members a flattened enum reads, beside
                    // the other flattened fields', out of the checks' sight.
                    Node::Enum(_) if field.flatten => Some(at),
                    node => visit(node, &at, seen),
                }
            })
    }

    fn visit(node: &Node, at: &str, seen: &mut Vec<usize>) -> Option<String> {
        match node.resolve() {
            Node::Unknown => Some(at.to_owned()),
            Node::Option(inner) | Node::Seq(inner) | Node::Map(inner) => visit(inner(), at, seen),
            Node::Tuple(items) => items.iter().find_map(|item| visit(item(), at, seen)),
            Node::Struct(model) => fields(model, seen),
            Node::Enum(model) => {
                if !first_visit(seen, std::ptr::from_ref(*model) as usize) {
                    return None;
                }
                model
                    .variants
                    .iter()
                    .filter(|v| !v.skipped)
                    .find_map(|variant| {
                        let at = format!("{}::{}", model.name, variant.name);
                        match &variant.content {
                            VariantContent::Unit => None,
                            VariantContent::Newtype(inner) => visit(inner(), &at, seen),
                            VariantContent::Tuple(items) => {
                                items.iter().find_map(|item| visit(item(), &at, seen))
                            }
                            VariantContent::Struct(model) => fields(model, seen),
                        }
                    })
            }
            _ => None,
        }
    }
    visit(node, "", &mut Vec::new())
}

/// [`Node::Unknown`], as the function a field read by `deserialize_with`
/// holds.
pub fn unknown_node() -> &'static Node {
    &Node::Unknown
}

/// A struct with named fields, as serde's derive reads it.
#[derive(Debug)]
pub struct StructModel {
    /// The Rust type's name.
    pub name: &'static str,
    /// Its fields, in declaration order (serde's order for flattening).
    pub fields: &'static [FieldModel],
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown_fields: bool,
}

/// An enum with tagged variants, as serde's derive reads it.
#[derive(Debug)]
pub struct EnumModel {
    /// The Rust type's name.
    pub name: &'static str,
    /// How its variants are told apart.
    pub tagging: Tagging,
    /// Its variants, in declaration order (serde matches names in that
    /// order).
    pub variants: &'static [VariantModel],
}

/// How an enum's variants are told apart on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Tagging {
    /// `{"Variant": content}`, or `"Variant"` for a unit variant.
    External,
    /// `{"<tag>": "Variant", ...the variant's members}`.
    Internal {
        /// The member holding the variant's name.
        tag: &'static str,
    },
    /// `{"<tag>": "Variant", "<content>": content}`.
    Adjacent {
        /// The member holding the variant's name.
        tag: &'static str,
        /// The member holding the content.
        content: &'static str,
    },
}

/// One variant of an [`EnumModel`].
#[derive(Debug)]
pub struct VariantModel {
    /// The name serde reads it under.
    pub name: &'static str,
    /// serde's other names for it.
    pub aliases: &'static [&'static str],
    /// Never read by its name (`skip_deserializing`, `deserialize_with`,
    /// `#[serde(untagged)]` on the variant).
    pub skipped: bool,
    /// What its content is.
    pub content: VariantContent,
}

impl VariantModel {
    /// Whether serde reads this variant under `name`.
    pub fn named(&self, name: &str) -> bool {
        !self.skipped && (self.name == name || self.aliases.contains(&name))
    }
}

/// A variant's content.
#[derive(Debug)]
#[non_exhaustive]
pub enum VariantContent {
    /// None.
    Unit,
    /// One value.
    Newtype(fn() -> &'static Node),
    /// An array of values.
    Tuple(&'static [fn() -> &'static Node]),
    /// An object of named fields.
    Struct(&'static StructModel),
}

/// One field of a [`StructModel`].
#[derive(Debug)]
pub struct FieldModel {
    /// The name serde reads it under.
    pub wire: &'static str,
    /// serde's other accepted names.
    pub aliases: &'static [&'static str],
    /// `#[serde(flatten)]`: its members sit in the struct's own object.
    pub flatten: bool,
    /// `#[serde(skip)]`/`skip_deserializing`: never read.
    pub skipped: bool,
    /// `#[serde(default)]` on the field or the struct.
    pub default: bool,
    /// What serde reads there ([`Node::Unknown`] under `with` or
    /// `deserialize_with`, which read it their own way).
    pub node: fn() -> &'static Node,
}

impl FieldModel {
    /// Whether serde reads this field from member `key`.
    pub fn reads(&self, key: &str) -> bool {
        !self.skipped && !self.flatten && (self.wire == key || self.aliases.contains(&key))
    }
}

/// A type whose [`Node`] is known. The derive implements it for each type
/// it expands; this module for the standard types serde reads.
pub trait Modeled {
    /// What serde reads for the type.
    const NODE: Node;

    /// [`Modeled::NODE`], as the function nested nodes hold.
    fn node() -> &'static Node {
        &Self::NODE
    }
}

macro_rules! modeled {
    ($node:expr => $($ty:ty),* $(,)?) => {
        $(impl Modeled for $ty {
            const NODE: Node = $node;
        })*
    };
}

// An integer's node, with its type's range (`as` widens losslessly: every
// type here has at most 64 bits).
macro_rules! integers {
    ($($ty:ty => $min:expr, $max:expr;)*) => {
        $(impl Modeled for $ty {
            const NODE: Node = Node::Integer { min: $min as i64, max: $max as u64 };
        })*
    };
}

integers! {
    u8 => 0, u8::MAX; u16 => 0, u16::MAX; u32 => 0, u32::MAX; u64 => 0, u64::MAX;
    usize => 0, usize::MAX;
    i8 => i8::MIN, i8::MAX; i16 => i16::MIN, i16::MAX; i32 => i32::MIN, i32::MAX;
    i64 => i64::MIN, i64::MAX; isize => isize::MIN, isize::MAX;
    // Zero aside: a range holds no hole, and the schema refuses zero.
    std::num::NonZeroU8 => 1, u8::MAX; std::num::NonZeroU16 => 1, u16::MAX;
    std::num::NonZeroU32 => 1, u32::MAX; std::num::NonZeroU64 => 1, u64::MAX;
    std::num::NonZeroUsize => 1, usize::MAX;
    std::num::NonZeroI8 => i8::MIN, i8::MAX; std::num::NonZeroI16 => i16::MIN, i16::MAX;
    std::num::NonZeroI32 => i32::MIN, i32::MAX; std::num::NonZeroI64 => i64::MIN, i64::MAX;
    std::num::NonZeroIsize => isize::MIN, isize::MAX;
}
modeled!(Node::WideInteger => u128, i128);
modeled!(Node::Scalar(Scalar::Float) => f32, f64);
modeled!(Node::Scalar(Scalar::Bool) => bool);
modeled!(Node::Scalar(Scalar::Char) => char);
modeled!(Node::Scalar(Scalar::Unit) => ());
modeled!(Node::Scalar(Scalar::Text) => String, Box<str>, Rc<str>, Arc<str>, std::path::PathBuf);
modeled!(Node::FreeForm => serde_json::Value, serde_json::Map<String, serde_json::Value>);

impl Modeled for std::borrow::Cow<'static, str> {
    const NODE: Node = Node::Scalar(Scalar::Text);
}

impl<T: Modeled> Modeled for Option<T> {
    const NODE: Node = Node::Option(T::node);
}

impl<T: Modeled + ?Sized> Modeled for Box<T> {
    const NODE: Node = T::NODE;
}

impl<T: Modeled + ?Sized> Modeled for Rc<T> {
    const NODE: Node = T::NODE;
}

impl<T: Modeled + ?Sized> Modeled for Arc<T> {
    const NODE: Node = T::NODE;
}

macro_rules! sequences {
    ($($ty:ident),*) => {
        $(impl<T: Modeled> Modeled for $ty<T> {
            const NODE: Node = Node::Seq(T::node);
        })*
    };
}

sequences!(Vec, VecDeque, BTreeSet);

impl<T: Modeled, S> Modeled for HashSet<T, S> {
    const NODE: Node = Node::Seq(T::node);
}

impl<T: Modeled> Modeled for [T] {
    const NODE: Node = Node::Seq(T::node);
}

macro_rules! tuples {
    ($(($($t:ident),+)),*) => {
        $(impl<$($t: Modeled),+> Modeled for ($($t,)+) {
            const NODE: Node = Node::Tuple(&[$($t::node),+]);
        })*
    };
}

tuples!((A, B), (A, B, C), (A, B, C, D));

impl<T: Modeled, const N: usize> Modeled for [T; N] {
    const NODE: Node = Node::Seq(T::node);
}

// Maps keyed by strings. A map keyed by integers reads its keys too (serde
// refuses `"1.5"` for a `u32` key); its values are checked all the same.
impl<K, V: Modeled, S> Modeled for HashMap<K, V, S> {
    const NODE: Node = Node::Map(V::node);
}

impl<K, V: Modeled> Modeled for BTreeMap<K, V> {
    const NODE: Node = Node::Map(V::node);
}

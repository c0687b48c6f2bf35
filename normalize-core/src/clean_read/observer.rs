//! A deserializer around serde_json's that watches the read as the type's
//! own `Deserialize` drives it, and stops it (with an error, which means
//! "take the full path") at anything the clean path cannot vouch for.
//!
//! It walks the contract model beside serde: each object, array, key and
//! value is met with the [`Node`] the derive stated for that place, so the
//! observer knows a struct's keys without a schema look-up. What it refuses
//! is what serde would take and the full path would not take as it is:
//!
//! - a struct key that is not one of the struct's wire names (an undeclared
//!   member, which serde ignores and the closed schema refuses; an alias,
//!   which the full path reads under other rules);
//! - a struct written as an array (serde's derive takes one, the schema
//!   does not);
//! - a unit variant written as `{"Variant": null}` (serde_json takes it, the
//!   schema does not), a variant named by an alias;
//! - an `f32` that rounds to infinity (the schema bounds it);
//! - a string normalization would change (a character reference, JSON in a
//!   string), checked as decoded, so an escape cannot hide one;
//! - nesting deeper than the caller's stack is trusted with.
//!
//! Everything else the contract needs, serde's own read refuses already: an
//! integer written `5.0`, a repeated struct field, a missing field, a type
//! mismatch.

use crate::contract::model::{EnumModel, Node, StructModel, VariantContent};
use serde::de::{self, DeserializeSeed, Deserializer, Error as _, Visitor};
use std::cell::Cell;
use std::fmt;

/// What is being read at one place: a node of the model, or one of the
/// parts the model names without a node of their own.
#[derive(Clone, Copy)]
enum At<'a> {
    /// A value serde reads as `node` (already resolved through wrappers).
    Node(&'static Node),
    /// A tuple variant's elements (its content, always a tuple's: one
    /// pointer keeps every place two words wide).
    Elements(&'static VariantContent),
    /// A struct variant's fields.
    Fields(&'static StructModel),
    /// The key of a struct's member: which field it names goes to the
    /// keys' cell (the field after the last one found is tried first).
    Key(&'a Keys),
    /// A variant's name: which variant it names goes to its cell.
    Variant(&'a Named),
    /// A map's key, which no repair touches.
    MapKey,
}

impl At<'_> {
    #[inline(always)]
    fn node(node: &'static Node) -> At<'static> {
        At::Node(node.resolve())
    }
}

/// The refusal every stop of the observer carries (never shown: the full
/// path runs instead).
const NOT_CLEAN: &str = "not a clean call";

/// serde_json's deserializer (or a part of it), watched.
pub(super) struct Observed<'a, D> {
    de: D,
    at: At<'a>,
    /// Arrays and objects around the value.
    depth: usize,
    free: &'a Free,
}

impl<'a, D> Observed<'a, D> {
    pub(super) fn root(de: D, node: &'static Node, free: &'a Free) -> Observed<'a, D> {
        Observed {
            de,
            at: At::node(node),
            depth: 0,
            free,
        }
    }
}

/// A seed handed on with the place its value is read at.
struct Seed<'a, S> {
    seed: S,
    at: At<'a>,
    depth: usize,
    free: &'a Free,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<S::Value, D::Error> {
        let (at, depth) = (self.at, self.depth);
        self.seed.deserialize(Observed {
            de,
            at,
            depth,
            free: self.free,
        })
    }
}

/// A visitor handed on with the place it visits.
struct Watch<'a, V> {
    visitor: V,
    at: At<'a>,
    depth: usize,
    free: &'a Free,
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.de.$method($($arg,)* Watch { visitor, at: self.at, depth: self.depth, free: self.free })
        })*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Observed<'_, D> {
    type Error = D::Error;

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.de.deserialize_f32(FiniteF32(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Watch<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.visitor.visit_bool(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.visitor.visit_i64(v)
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<V::Value, E> {
        self.visitor.visit_i128(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.visitor.visit_u64(v)
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<V::Value, E> {
        self.visitor.visit_u128(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.visitor.visit_f64(v)
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<V::Value, E> {
        self.visitor.visit_char(v)
    }

    // Inlined into serde_json's string read: a call per string cost more
    // than the checks (callgrind, `benches/from_model_count.rs`).
    #[inline(always)]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        text(self.at, self.free, v)?;
        self.visitor.visit_str(v)
    }
    #[inline(always)]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        text(self.at, self.free, v)?;
        self.visitor.visit_borrowed_str(v)
    }
    #[inline(always)]
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        text(self.at, self.free, &v)?;
        self.visitor.visit_string(v)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.visitor.visit_bytes(v)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.visitor.visit_borrowed_bytes(v)
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.visitor.visit_byte_buf(v)
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let at = match self.at {
            At::Node(Node::Option(inner)) => At::node(inner()),
            // A free-form value reads `Option` nowhere; anything else is
            // serde's to refuse.
            other => other,
        };
        let depth = self.depth;
        self.visitor.visit_some(Observed {
            de,
            at,
            depth,
            free: self.free,
        })
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, de: D) -> Result<V::Value, D::Error> {
        let (at, depth) = (self.at, self.depth);
        self.visitor.visit_newtype_struct(Observed {
            de,
            at,
            depth,
            free: self.free,
        })
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let depth = deeper(self.depth)?;
        let elements = match self.at {
            At::Node(&Node::Seq(inner)) => Elements::Each(inner().resolve()),
            At::Node(&Node::Tuple(nodes)) | At::Elements(&VariantContent::Tuple(nodes)) => {
                Elements::Listed(nodes)
            }
            At::Node(Node::FreeForm) => Elements::Free,
            // A struct written as an array, or anything serde refuses.
            _ => return Err(A::Error::custom(NOT_CLEAN)),
        };
        self.visitor.visit_seq(Items {
            seq,
            elements,
            index: 0,
            depth,
            free: self.free,
        })
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let depth = deeper(self.depth)?;
        match self.at {
            At::Node(&Node::Struct(model)) | At::Fields(model) => self.visitor.visit_map(Fields {
                map,
                keys: Keys {
                    model,
                    field: Cell::new(None),
                    next: 0,
                },
                depth,
                free: self.free,
            }),
            At::Node(Node::Map(inner)) => {
                let value = inner();
                self.visitor.visit_map(Entries {
                    map,
                    value,
                    depth,
                    free: self.free,
                })
            }
            At::Node(Node::FreeForm) => {
                let value = &Node::FreeForm;
                self.visitor.visit_map(Entries {
                    map,
                    value,
                    depth,
                    free: self.free,
                })
            }
            _ => Err(A::Error::custom(NOT_CLEAN)),
        }
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        // Written as an object, the enum is one level deeper.
        let depth = deeper(self.depth)?;
        match self.at {
            At::Node(Node::Enum(model)) => self.visitor.visit_enum(Variants {
                data,
                model,
                depth,
                free: self.free,
            }),
            _ => Err(A::Error::custom(NOT_CLEAN)),
        }
    }
}

/// The deepest nesting the clean path reads: deeper, the full path reads
/// on a stack of its own (`crate::deep`), where this read would recurse on
/// the caller's.
const DEEPEST: usize = crate::deep::UNGUARDED;

/// The depth inside one more array or object, if the clean path reads it.
fn deeper<E: de::Error>(depth: usize) -> Result<usize, E> {
    if depth >= DEEPEST {
        return Err(E::custom(NOT_CLEAN));
    }
    Ok(depth + 1)
}

/// Checks a string as decoded. A key is never repaired, and is checked as
/// the name it must be. Any other string is a leaf normalization would
/// change if it held a character reference (in either entity mode: the
/// normalizer's own test) or began, after JSON whitespace, like JSON: such
/// a call is not clean. (A variant's name is a leaf when written as a
/// string.)
#[inline(always)]
fn text<E: de::Error>(at: At<'_>, free: &Free, text: &str) -> Result<(), E> {
    let leaf = matches!(at, At::Node(_) | At::Variant(..));
    if leaf
        && (crate::byte_scan::opens_like_json(text)
            || (!free.holds(text) && crate::entities::has_reference_candidate(text.as_bytes())))
    {
        return Err(E::custom(NOT_CLEAN));
    }
    let name = text;
    match at {
        At::Key(&Keys {
            model,
            ref field,
            next,
        }) => {
            // Members mostly come in the fields' order.
            let reads = |i: &usize| {
                let f = &model.fields[*i];
                !f.skipped && !f.flatten && f.wire == name
            };
            let found = Some(next)
                .filter(|i| *i < model.fields.len() && reads(i))
                .or_else(|| (0..model.fields.len()).find(reads));
            field.set(found);
            found.map(drop).ok_or_else(|| E::custom(NOT_CLEAN))
        }
        At::Variant(&Named { model, ref variant }) => {
            let found = model
                .variants
                .iter()
                .position(|v| !v.skipped && v.name == name);
            variant.set(found);
            found.map(drop).ok_or_else(|| E::custom(NOT_CLEAN))
        }
        _ => Ok(()),
    }
}

/// Where the call's text lies in memory, when no part of it holds a
/// character reference candidate (`entities::no_candidate_in_any_part`):
/// a string serde_json hands as a slice of the text (one written without
/// escapes) then needs no test of its own, where the test would search it
/// a second time. A string decoded from escapes lies elsewhere and is
/// tested as decoded.
#[derive(Clone, Copy)]
pub(super) struct Free {
    start: usize,
    end: usize,
}

impl Free {
    /// The text's place if it holds no candidate, else nowhere.
    pub(super) fn of(text: &str) -> Free {
        if crate::entities::no_candidate_in_any_part(text.as_bytes()) {
            let start = text.as_ptr() as usize;
            Free {
                start,
                end: start + text.len(),
            }
        } else {
            Free { start: 1, end: 0 }
        }
    }

    /// Whether the whole text was vouched for (it holds no candidate).
    pub(super) fn vouches(&self) -> bool {
        self.start <= self.end
    }

    /// Whether `text` lies inside the text vouched for.
    #[inline(always)]
    fn holds(&self, text: &str) -> bool {
        let start = text.as_ptr() as usize;
        self.start <= start && start + text.len() <= self.end
    }
}

/// The elements of an array, by place.
#[derive(Clone, Copy)]
enum Elements {
    Each(&'static Node),
    Listed(&'static [fn() -> &'static Node]),
    Free,
}

struct Items<'a, A> {
    seq: A,
    elements: Elements,
    index: usize,
    depth: usize,
    free: &'a Free,
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Items<'_, A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let at = match self.elements {
            // Resolved once for the whole array.
            Elements::Each(node) => At::Node(node),
            // Past the listed elements serde refuses the array itself.
            Elements::Listed(nodes) => {
                At::node(nodes.get(self.index).map_or(&Node::FreeForm, |n| n()))
            }
            Elements::Free => At::Node(&Node::FreeForm),
        };
        self.index += 1;
        let depth = self.depth;
        self.seq.next_element_seed(Seed {
            seed,
            at,
            depth,
            free: self.free,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// The struct whose keys are read, and where its members' reading stands.
struct Keys {
    model: &'static StructModel,
    /// The field the last key named (`None` until it names one).
    field: Cell<Option<usize>>,
    /// The field tried first for the next key.
    next: usize,
}

/// A struct's members: each key must be one of its wire names, each value
/// is read as that field's node.
struct Fields<'a, A> {
    map: A,
    keys: Keys,
    depth: usize,
    free: &'a Free,
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Fields<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.keys.next = self.keys.field.take().map_or(0, |last| last + 1);
        let at = At::Key(&self.keys);
        let depth = self.depth;
        self.map.next_key_seed(Seed {
            seed,
            at,
            depth,
            free: self.free,
        })
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        let keys = &self.keys;
        let Some(field) = keys.field.get().and_then(|i| keys.model.fields.get(i)) else {
            return Err(A::Error::custom(NOT_CLEAN));
        };
        self.map.next_value_seed(Seed {
            seed,
            at: At::node((field.node)()),
            depth: self.depth,
            free: self.free,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A map's (or a free-form object's) entries, each value read as `value`.
/// A key sent twice is not refused: serde keeps the last, as the full path
/// does (`crate::repeated_keys`: a map keeps the last; only a struct
/// refuses a repeat, which serde's derive refuses too).
struct Entries<'a, A> {
    map: A,
    value: &'static Node,
    depth: usize,
    free: &'a Free,
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Entries<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let (at, depth) = (At::MapKey, self.depth);
        self.map.next_key_seed(Seed {
            seed,
            at,
            depth,
            free: self.free,
        })
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.map.next_value_seed(Seed {
            seed,
            at: At::node(self.value),
            depth: self.depth,
            free: self.free,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// The enum whose variant's name is read, and which variant it names.
struct Named {
    model: &'static EnumModel,
    variant: Cell<Option<usize>>,
}

/// An externally tagged enum: the variant's name, then its content.
struct Variants<'a, A> {
    data: A,
    model: &'static EnumModel,
    depth: usize,
    free: &'a Free,
}

impl<'a, 'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Variants<'a, A> {
    type Error = A::Error;
    type Variant = Content<'a, A::Variant>;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Content<'a, A::Variant>), A::Error> {
        let named = Named {
            model: self.model,
            variant: Cell::new(None),
        };
        let at = At::Variant(&named);
        let depth = self.depth;
        let (value, access) = self.data.variant_seed(Seed {
            seed,
            at,
            depth,
            free: self.free,
        })?;
        let content = named
            .variant
            .get()
            .and_then(|i| self.model.variants.get(i))
            .map(|v| &v.content)
            .ok_or_else(|| A::Error::custom(NOT_CLEAN))?;
        Ok((
            value,
            Content {
                access,
                content,
                depth,
                free: self.free,
            },
        ))
    }
}

struct Content<'a, A> {
    access: A,
    content: &'static VariantContent,
    depth: usize,
    free: &'a Free,
}

/// A seed that refuses to be read: it marks that serde_json had a value to
/// read for a unit variant (`{"Unit": null}`).
struct Refused<'a>(&'a Cell<bool>);

impl<'de> DeserializeSeed<'de> for Refused<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<(), D::Error> {
        self.0.set(true);
        Err(D::Error::custom(NOT_CLEAN))
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Content<'_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        // A unit variant written as a string has no value to read, and
        // serde_json says so when asked for one without touching the text;
        // written as an object it has one, which the schema refuses.
        let read = Cell::new(false);
        match self.access.newtype_variant_seed(Refused(&read)) {
            Err(_) if !read.get() => Ok(()),
            _ => Err(A::Error::custom(NOT_CLEAN)),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        let VariantContent::Newtype(node) = self.content else {
            return Err(A::Error::custom(NOT_CLEAN));
        };
        self.access.newtype_variant_seed(Seed {
            seed,
            at: At::node(node()),
            depth: self.depth,
            free: self.free,
        })
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let VariantContent::Tuple(_) = self.content else {
            return Err(A::Error::custom(NOT_CLEAN));
        };
        let (at, depth) = (At::Elements(self.content), self.depth);
        self.access.tuple_variant(
            len,
            Watch {
                visitor,
                at,
                depth,
                free: self.free,
            },
        )
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let VariantContent::Struct(model) = self.content else {
            return Err(A::Error::custom(NOT_CLEAN));
        };
        let (at, depth) = (At::Fields(model), self.depth);
        self.access.struct_variant(
            fields,
            Watch {
                visitor,
                at,
                depth,
                free: self.free,
            },
        )
    }
}

/// An `f32`'s visitor that refuses a number rounding to infinity, which the
/// schema bounds (`crate::integer_bounds`) and serde would take.
struct FiniteF32<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for FiniteF32<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        if (v as f32).is_infinite() {
            return Err(E::custom(NOT_CLEAN));
        }
        self.0.visit_f64(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.0.visit_i64(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.0.visit_u64(v)
    }
}

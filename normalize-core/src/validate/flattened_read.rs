//! serde's reading of a flattened `Option<T>`, with `T`'s failure kept, and
//! how a flattened type takes members from the ones left.
//!
//! serde reads `#[serde(flatten)] field: Option<T>` by handing `T` the
//! members its struct did not take, through a deserializer of its own, and
//! takes `None` when `T` fails. The schema says most of what makes `T` fail
//! (`crate::compile::flatten`); not all of it: an `IpAddr` that does not
//! parse, a `deserialize_with` inside `T`, a `T` that flattens a map or an
//! enum. [`read_whole`] asks `T` itself, through serde's own flattening, so
//! validation can refuse what serde would drop ([`crate::validate::flattened_wholes`]).
//! [`reading_of`] asks a flattened type how it reads itself (a struct takes
//! the members it names; a map, or a struct that flattens, takes none).

use crate::path::pointer_of;
use serde::Deserialize as _;
use serde::de::value::{MapAccessDeserializer, MapDeserializer};
use serde::de::{DeserializeOwned, Deserializer, Error as _, Visitor};
use serde_json::{Map, Value};

/// Reads `T`, flattened, from the members of `object` whose names are not
/// `claimed` (sorted), `T` reading itself as `reading` says: where serde's flattened `Option<T>` would take `None` (or
/// `Some(None)`, for `Option<Option<T>>`), `T`'s failure, with the JSON
/// pointer (relative to `object`) of what `T` refused where that is known,
/// and the message.
///
/// Two readings are asked. serde's own flattening (`T` alone in a struct
/// that flattens it) buffers the members first, as the real field does,
/// which decides what no reading of the members themselves can (a `u128`,
/// which serde's buffer does not hold; a string borrowed from the input,
/// which it does not lend). A reading of the members themselves says where
/// `T` failed, and looks through the `Option` inside an `Option` that
/// serde's flattening swallows too.
pub(crate) fn read_whole<T: DeserializeOwned>(
    object: &Map<String, Value>,
    claimed: &[String],
    reading: Reading,
) -> Result<(), (String, String)> {
    // A struct is offered only the members it names: the others change
    // nothing, and copying them would cost.
    let named = match reading {
        Reading::Struct(fields) => Some(fields),
        Reading::Enum(_) | Reading::Map => None,
    };
    let offered = |name: &str| claimed.binary_search_by(|c| c.as_str().cmp(name)).is_err();
    let entries: Vec<(&str, &Value)> = match named {
        Some(fields) => fields
            .iter()
            .filter(|name| offered(name))
            .filter_map(|name| object.get_key_value(*name))
            .map(|(name, value)| (name.as_str(), value))
            .collect(),
        None => object
            .iter()
            .filter(|(name, _)| offered(name))
            .map(|(name, value)| (name.as_str(), value))
            .collect(),
    };
    // The path is tracked (an allocation per member) only to say where.
    if T::deserialize(Unclaimed(&entries)).is_err()
        && let Err(found) = serde_path_to_error::deserialize::<_, T>(Unclaimed(&entries))
    {
        return Err((pointer_of(found.path()), found.into_inner().to_string()));
    }
    let members: Map<String, Value> = entries
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).clone()))
        .collect();
    match Flattened::<T>::deserialize(Value::Object(members)) {
        Ok(_) => Ok(()),
        Err(buffered) => Err((String::new(), buffered.to_string())),
    }
}

/// `T` flattened into a struct of its own: serde's derive reads it as it
/// reads a flattened field, from its buffer of the members.
#[derive(serde::Deserialize)]
struct Flattened<T> {
    #[serde(flatten)]
    #[allow(dead_code)]
    value: T,
}

/// How serde's flattening reads a type: which members it takes from the
/// ones left, so that a later flattened field never sees them.
#[derive(Clone, Copy, Debug)]
pub enum Reading {
    /// A struct: the members its fields name (aliases included), taken.
    Struct(&'static [&'static str]),
    /// An externally tagged enum: the first member named as a variant.
    Enum(&'static [&'static str]),
    /// A map, a struct that flattens, a buffered enum: every member is
    /// read, none taken.
    Map,
}

impl Reading {
    /// Whether serde's flattening takes what the type reads from the
    /// members left (a struct, an externally tagged enum), so that a
    /// flattened field after it never sees them.
    pub(crate) fn takes(self) -> bool {
        !matches!(self, Reading::Map)
    }
}

/// How `F` reads itself when flattened, asked of its `Deserialize`: the
/// first method it calls says (an `Option` and a newtype are looked
/// through, as serde's flattening does).
pub(crate) fn reading_of<F: DeserializeOwned>() -> Reading {
    match F::deserialize(Asks) {
        Err(Asked::Struct(fields)) => Reading::Struct(fields),
        Err(Asked::Enum(variants)) => Reading::Enum(variants),
        _ => Reading::Map,
    }
}

/// Whether serde reads `F` from a buffer of the members it is offered (an
/// untagged or internally tagged enum asks for any value first), where a
/// variant that denies unknown fields sees every one of them.
pub(crate) fn is_buffered<F: DeserializeOwned>() -> bool {
    matches!(F::deserialize(Asks), Err(Asked::Any))
}

/// The answer [`Asks`] stops with.
#[derive(Debug)]
enum Asked {
    Struct(&'static [&'static str]),
    Enum(&'static [&'static str]),
    /// A map, or a struct that flattens.
    Map,
    /// What serde buffers first: an untagged or internally tagged enum.
    Any,
    Other,
}

impl std::fmt::Display for Asked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("asked")
    }
}

impl std::error::Error for Asked {}

impl serde::de::Error for Asked {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Asked::Other
    }
}

/// A deserializer that answers nothing: it notes the first request.
struct Asks;

impl Deserializer<'static> for Asks {
    type Error = Asked;

    fn deserialize_struct<V: Visitor<'static>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Asked> {
        Err(Asked::Struct(fields))
    }

    fn deserialize_enum<V: Visitor<'static>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Asked> {
        Err(Asked::Enum(variants))
    }

    fn deserialize_option<V: Visitor<'static>>(self, visitor: V) -> Result<V::Value, Asked> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'static>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Asked> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_map<V: Visitor<'static>>(self, _: V) -> Result<V::Value, Asked> {
        Err(Asked::Map)
    }

    fn deserialize_any<V: Visitor<'static>>(self, _: V) -> Result<V::Value, Asked> {
        Err(Asked::Any)
    }

    serde::forward_to_deserialize_any! {
        <W: Visitor<'static>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct identifier ignored_any
    }
}

/// The members a flattened field is offered, as serde's flattening
/// deserializer offers them, unbuffered so that a tracked reading says
/// where `T` fails: a struct sees the members it names (aliases included),
/// a map every member, an externally tagged enum the first member named as
/// one of its variants. An `Option` reads its value.
#[derive(Clone, Copy)]
struct Unclaimed<'a>(&'a [(&'a str, &'a Value)]);

impl<'a> Unclaimed<'a> {
    fn entries(self) -> impl Iterator<Item = (&'a str, &'a Value)> {
        self.0.iter().copied()
    }
}

impl<'a> Deserializer<'a> for Unclaimed<'a> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_map(MapDeserializer::new(self.entries()))
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_map(MapDeserializer::new(
            self.entries().filter(|(name, _)| fields.contains(name)),
        ))
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.entries().find(|(key, _)| variants.contains(key)) {
            Some(entry) => visitor.visit_enum(MapAccessDeserializer::new(MapDeserializer::new(
                std::iter::once(entry),
            ))),
            None => Err(serde_json::Error::custom(format_args!(
                "no variant of enum {name} found in flattened data"
            ))),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    // What serde's flattening refuses ("can only flatten structs and
    // maps") is refused here by the map the members make.
    serde::forward_to_deserialize_any! {
        <W: Visitor<'a>>
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        seq tuple tuple_struct identifier
    }
}

//! serde's reading of a flattened `Option<T>`, with `T`'s failure kept.
//!
//! serde reads `#[serde(flatten)] field: Option<T>` by handing `T` the
//! members its struct did not take, through a deserializer of its own, and
//! takes `None` when `T` fails. The schema says most of what makes `T` fail
//! (`crate::private::flatten`); not all of it: an `IpAddr` that does not
//! parse, a `deserialize_with` inside `T`, a `T` that flattens a map or an
//! enum. [`read_whole`] asks `T` itself, the way serde's flattening
//! deserializer would offer it the members, so validation can refuse what
//! serde would drop ([`crate::validate::whole`]).

use crate::tool_args::pointer_of;
use serde::de::value::{MapAccessDeserializer, MapDeserializer};
use serde::de::{DeserializeOwned, Deserializer, Error as _, Visitor};
use serde_json::{Map, Value};

/// Reads `F` (an `Option<T>`) from the members of `object` whose names are
/// not `claimed`, as serde's flattened field reads it, except that `T`'s
/// failure is returned, with the JSON pointer (relative to `object`) and
/// message of what `T` refused, where serde would take `None`.
pub(crate) fn read_whole<F: DeserializeOwned>(
    object: &Map<String, Value>,
    claimed: &[String],
) -> Result<(), (String, String)> {
    let members: Vec<(&str, &Value)> = object
        .iter()
        .filter(|(name, _)| !claimed.contains(name))
        .map(|(name, value)| (name.as_str(), value))
        .collect();
    match serde_path_to_error::deserialize::<_, F>(Unclaimed(&members)) {
        Ok(_) => Ok(()),
        Err(error) => Err((pointer_of(error.path()), error.into_inner().to_string())),
    }
}

/// The members a flattened field is offered, as serde's flattening
/// deserializer offers them: a struct sees the members it names (aliases
/// included), a map every member, an externally tagged enum the first
/// member named as one of its variants. An `Option` reads its value (serde
/// would swallow the failure there).
#[derive(Clone, Copy)]
struct Unclaimed<'a>(&'a [(&'a str, &'a Value)]);

impl<'a> Unclaimed<'a> {
    fn entries(self) -> impl Iterator<Item = (&'a str, &'a Value)> {
        self.0.iter().copied()
    }
}

macro_rules! cannot_flatten {
    ($($method:ident($($arg:ty),*))*) => {
        $(
            fn $method<V: Visitor<'a>>(self, $(_: $arg,)* _: V) -> Result<V::Value, Self::Error> {
                Err(serde_json::Error::custom("can only flatten structs and maps"))
            }
        )*
    };
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

    cannot_flatten! {
        deserialize_bool()
        deserialize_i8()
        deserialize_i16()
        deserialize_i32()
        deserialize_i64()
        deserialize_u8()
        deserialize_u16()
        deserialize_u32()
        deserialize_u64()
        deserialize_f32()
        deserialize_f64()
        deserialize_char()
        deserialize_str()
        deserialize_string()
        deserialize_bytes()
        deserialize_byte_buf()
        deserialize_seq()
        deserialize_tuple(usize)
        deserialize_tuple_struct(&'static str, usize)
        deserialize_identifier()
    }
}

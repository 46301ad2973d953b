//! Ids as strings in serialized data (JSON numbers lose precision past 2^53 in JavaScript),
//! and UUIDv7s as their canonical text.
use crate::text::{format_id, parse_id, Encoding};
use crate::uuid7::Uuid7;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// `#[serde(with = "snowfleet::id_as_string")]` on an `i64` field: written as decimal text,
/// read from decimal text (strictly, by the core's parser) or from a JSON integer.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Order {
///     #[serde(with = "snowfleet::id_as_string")]
///     id: i64,
/// }
/// let json = serde_json::to_string(&Order { id: 253916302016827392 }).unwrap();
/// assert_eq!(json, r#"{"id":"253916302016827392"}"#);
/// let back: Order = serde_json::from_str(&json).unwrap();
/// assert_eq!(back.id, 253916302016827392);
/// ```
pub mod id_as_string {
    use super::*;

    /// Writes the id as decimal text.
    pub fn serialize<S: Serializer>(id: &i64, s: S) -> Result<S::Ok, S::Error> {
        let text = format_id(*id, Encoding::Decimal).map_err(serde::ser::Error::custom)?;
        s.serialize_str(&text)
    }

    /// Reads decimal text, or an integer (0 ..= 2^63 - 1) where the format says which it
    /// holds; a format that is not self-describing (bincode, postcard) is asked for the text
    /// that [`serialize`] wrote.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        if d.is_human_readable() {
            d.deserialize_any(IdVisitor)
        } else {
            d.deserialize_str(IdVisitor)
        }
    }
}

struct IdVisitor;

impl Visitor<'_> for IdVisitor {
    type Value = i64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a Snowflake id as decimal text")
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<i64, E> {
        parse_id(text, Encoding::Decimal).map_err(E::custom)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        // The core's rule for an id (no negative one), as for text.
        format_id(v, Encoding::Decimal)
            .map(|_| v)
            .map_err(E::custom)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v).map_err(|_| E::custom(format!("id {v} is past the largest id, 2^63 - 1")))
    }
}

impl Serialize for Uuid7 {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Uuid7 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Uuid7, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Uuid7;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a UUID as text")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Uuid7, E> {
                Uuid7::parse(text).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

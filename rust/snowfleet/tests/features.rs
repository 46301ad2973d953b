//! The optional features: `uuid` (conversions) and `serde` (ids as strings, UUIDs as text).
#[cfg(feature = "uuid")]
#[test]
fn a_uuid7_converts_to_and_from_uuid_uuid() {
    let gen = snowfleet::Uuid7Generator::new().unwrap();
    let ours = gen.next().unwrap();
    let theirs: uuid::Uuid = ours.into();
    assert_eq!(theirs.get_version_num(), 7);
    assert_eq!(theirs.to_string(), ours.to_string());
    assert_eq!(snowfleet::Uuid7::from(theirs), ours);
}

#[cfg(feature = "serde")]
#[test]
fn ids_cross_json_as_strings_and_bad_text_is_refused() {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Row {
        #[serde(with = "snowfleet::id_as_string")]
        id: i64,
        uuid: snowfleet::Uuid7,
    }
    let row = Row {
        id: i64::MAX,
        uuid: "01949a3f-5b25-7000-8000-000000000000".parse().unwrap(),
    };
    let json = serde_json::to_string(&row).unwrap();
    assert_eq!(
        json,
        r#"{"id":"9223372036854775807","uuid":"01949a3f-5b25-7000-8000-000000000000"}"#
    );
    assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), row);
    let from_number = r#"{"id":42,"uuid":"01949a3f-5b25-7000-8000-000000000000"}"#;
    assert_eq!(serde_json::from_str::<Row>(from_number).unwrap().id, 42);
    let err = serde_json::from_str::<Row>(r#"{"id":"+42","uuid":"x"}"#).unwrap_err();
    assert!(err.to_string().contains("+42"), "{err}");
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
struct Id(#[serde(with = "snowfleet::id_as_string")] i64);

#[cfg(feature = "serde")]
#[test]
fn ids_out_of_range_or_malformed_are_refused_as_text_and_as_numbers() {
    for text in [
        r#""9223372036854775808""#,
        r#""-1""#,
        r#""+42""#,
        r#""4x2""#,
        r#""""#,
        r#"" 42""#,
        "9223372036854775808",
        "-1",
        "-9223372036854775808",
    ] {
        let err = serde_json::from_str::<Id>(text).unwrap_err();
        let shown = text.trim_matches('"');
        assert!(err.to_string().contains(shown), "{text}: {err}");
    }
    assert!(serde_json::to_string(&Id(-1)).is_err());
    assert_eq!(serde_json::from_str::<Id>("0").unwrap(), Id(0));
}

/// A format that, like bincode, is not self-describing: it reads what the type asks for
/// and refuses `deserialize_any`.
#[cfg(feature = "serde")]
struct StrOnly<'a>(&'a str);

#[cfg(feature = "serde")]
impl<'de> serde::Deserializer<'de> for StrOnly<'_> {
    type Error = serde::de::value::Error;
    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom(
            "this format is not self-describing",
        ))
    }
    fn deserialize_str<V: serde::de::Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_str(self.0)
    }
    fn deserialize_string<V: serde::de::Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        v.visit_str(self.0)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

#[cfg(feature = "serde")]
#[test]
fn an_id_written_as_text_reads_back_from_a_format_that_is_not_self_describing() {
    let id = snowfleet::id_as_string::deserialize(StrOnly("253916302016827392")).unwrap();
    assert_eq!(id, 253916302016827392);
    let u: snowfleet::Uuid7 =
        serde::Deserialize::deserialize(StrOnly("01949a3f-5b25-7000-8000-000000000000")).unwrap();
    assert_eq!(u.to_string(), "01949a3f-5b25-7000-8000-000000000000");
}

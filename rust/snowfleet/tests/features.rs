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

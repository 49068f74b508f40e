//! The Kafka type comes from the Rust type through a trait, so aliases work.

use kwire::schema::TypeSchema;
use kwire::{KafkaString, Message};

/// A name.
type Name = KafkaString;
/// A name that may be missing.
type MaybeName = Option<KafkaString>;
/// A list of names.
type Names = Vec<Name>;

/// Uses only aliases.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-1")]
pub struct Aliased {
    /// The name.
    #[kafka(versions = "0+", default = "anonymous")]
    pub name: Name,
    /// The nickname.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub nickname: MaybeName,
    /// Other names.
    #[kafka(versions = "1+")]
    pub aliases: Names,
}

fn main() {
    let body = Aliased::SCHEMA.body;
    assert_eq!(body.field("Name").unwrap().ty, TypeSchema::String);
    assert_eq!(body.field("Nickname").unwrap().ty, TypeSchema::String);
    assert_eq!(body.field("Aliases").unwrap().ty.to_string(), "[]string");
    let value = Aliased::default();
    assert_eq!(value.name, "anonymous");
    assert_eq!(value.nickname, None);
    let value = Aliased {
        nickname: Some("k".into()),
        aliases: vec!["x".into()],
        ..value
    };
    let bytes = value.encode(1).unwrap();
    assert_eq!(Aliased::decode(&bytes, 1).unwrap(), value);
    // The nullable alias writes null as int16 -1.
    let null = Aliased {
        nickname: None,
        aliases: Vec::new(),
        ..value
    };
    assert_eq!(&null.encode(0).unwrap()[..], b"\x00\x09anonymous\xff\xff");
}

//! The derive's own code names the primitive types by their full paths, so a
//! program whose module gives `bool`, `u16` or `usize` another meaning still
//! compiles, and its fields of those names are what the module says they are.

#![allow(non_camel_case_types, dead_code)]

use kwire::{KafkaString, Message, UnknownTaggedFields};

/// Shadows every primitive the derive's code spells (versions, tags, sizes,
/// table entries, answers of checks).
type bool = ();
type u8 = ();
type u16 = i64;
type u32 = ();
type i16 = ();
type usize = ();

/// A nested struct, with a tagged field.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
pub struct Inner {
    /// Kafka's int8, spelled in full.
    #[kafka(versions = "0+")]
    pub small: core::primitive::i8,
    /// Tagged from version 1.
    #[kafka(versions = "1+", tag = 0, ignorable)]
    pub tagged: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// Uses the shadowed names.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-2", flexible = "1+")]
pub struct Shadowed {
    /// A string.
    #[kafka(versions = "0+")]
    pub name: KafkaString,
    /// Kafka's int64, under the name `u16`: written as what it is.
    #[kafka(versions = "0+")]
    pub wide: u16,
    /// Leaves at version 2.
    #[kafka(versions = "0-1", ignorable, default = 7)]
    pub count: i32,
    /// Nested.
    #[kafka(versions = "0+")]
    pub inner: Vec<Inner>,
    /// Tagged.
    #[kafka(versions = "1+", tag = 0, ignorable)]
    pub note: i64,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {
    let value = Shadowed {
        name: KafkaString::from_static("n"),
        wide: -2,
        count: 3,
        inner: vec![Inner {
            small: -1,
            tagged: 5,
            unknown_tagged_fields: UnknownTaggedFields::default(),
        }],
        note: 9,
        unknown_tagged_fields: UnknownTaggedFields::default(),
    };
    assert_eq!(
        &value.encode(0).unwrap()[..],
        b"\x00\x01n\xff\xff\xff\xff\xff\xff\xff\xfe\x00\x00\x00\x03\x00\x00\x00\x01\xff"
    );
    for version in 0..=2 {
        let bytes = value.encode(version).unwrap();
        let decoded = Shadowed::decode(&bytes, version).unwrap();
        assert_eq!((&decoded.name, decoded.wide), (&value.name, -2));
        assert_eq!(decoded.inner[0].small, -1);
    }
    let decoded = Shadowed::decode(&value.encode(1).unwrap(), 1).unwrap();
    assert_eq!(decoded, value);
    assert_eq!(Shadowed::decode(&value.encode(2).unwrap(), 2).unwrap().count, 7);
}

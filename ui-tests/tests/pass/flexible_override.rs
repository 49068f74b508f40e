//! A field-level `flexible` override: a string that keeps its classic int16 length in
//! flexible versions (Kafka's `RequestHeader.ClientId`), and bytes that turn compact
//! later than the message.

use kwire::bytes::Bytes;
use kwire::{KafkaString, Message, UnknownTaggedFields, VersionRange};

/// A header-like message.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = header, versions = "0-3", flexible = "1+")]
pub struct Overrides {
    /// Always classic.
    #[kafka(versions = "0+", nullable = "0+", flexible = "none")]
    pub client_id: Option<KafkaString>,
    /// Compact only from version 2.
    #[kafka(versions = "0+", flexible = "2+")]
    pub payload: Bytes,
    /// Follows the message.
    #[kafka(versions = "0+")]
    pub plain: KafkaString,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {
    let body = Overrides::SCHEMA.body;
    assert_eq!(
        body.field("ClientId").unwrap().flexible_versions,
        Some(VersionRange::NONE)
    );
    assert_eq!(
        body.field("Payload").unwrap().flexible_versions,
        Some(VersionRange::at_least(2))
    );
    assert_eq!(body.field("Plain").unwrap().flexible_versions, None);

    let value = Overrides {
        client_id: Some("id".into()),
        payload: Bytes::from_static(b"p"),
        plain: "x".into(),
        ..Default::default()
    };
    // Version 1: flexible message, but the string is int16-length and the bytes
    // int32-length; only `plain` is compact; then the empty tagged section.
    assert_eq!(
        &value.encode(1).unwrap()[..],
        b"\x00\x02id\x00\x00\x00\x01p\x02x\x00"
    );
    // Version 2: the bytes turn compact too.
    assert_eq!(&value.encode(2).unwrap()[..], b"\x00\x02id\x02p\x02x\x00");
    for version in 0..=3 {
        let bytes = value.encode(version).unwrap();
        assert_eq!(Overrides::decode(&bytes, version).unwrap(), value);
    }
}

//! Every kind of `default`: the `Default` impl holds it, the schema records it as
//! written, and encoding treats it as "nothing to write".

use kwire::{KafkaString, Message, UnknownTaggedFields};

/// Holds one field per kind of default.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-2", flexible = "1+")]
pub struct Defaults {
    /// A negative integer.
    #[kafka(versions = "0+", default = -1)]
    pub node_id: i32,
    /// A negative int8.
    #[kafka(versions = "0+", default = -128)]
    pub small: i8,
    /// Hexadecimal, as Kafka spells it.
    #[kafka(versions = "0+", default = 0x7fffffff)]
    pub max_bytes: i32,
    /// An unsigned hexadecimal.
    #[kafka(versions = "0+", default = 0xffff)]
    pub port: u16,
    /// The largest int64.
    #[kafka(versions = "0+", default = 9223372036854775807)]
    pub max_timestamp: i64,
    /// A bool.
    #[kafka(versions = "0+", default = true)]
    pub allow: bool,
    /// A float.
    #[kafka(versions = "0+", default = 0.5)]
    pub ratio: f64,
    /// A negative float.
    #[kafka(versions = "0+", default = -2.5)]
    pub offset: f64,
    /// A string.
    #[kafka(versions = "0+", default = "consumer")]
    pub protocol_type: KafkaString,
    /// A Rust `String`.
    #[kafka(versions = "0+", default = "range")]
    pub assignor: String,
    /// Null.
    #[kafka(versions = "0+", nullable = "0+", default = null)]
    pub rack: Option<KafkaString>,
    /// A string in a nullable field.
    #[kafka(versions = "0+", nullable = "0+", default = "here")]
    pub zone: Option<KafkaString>,
    /// No default: the type's zero.
    #[kafka(versions = "0+")]
    pub plain: i32,
    /// Only in version 2, not ignorable: droppable only while it holds its default.
    #[kafka(versions = "2+", default = -1)]
    pub epoch: i32,
    /// Tagged, written only when not -1.
    #[kafka(versions = "1+", tag = 0, default = -1)]
    pub leader_epoch: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() {
    let value = Defaults::default();
    assert_eq!(value.node_id, -1);
    assert_eq!(value.small, i8::MIN);
    assert_eq!(value.max_bytes, i32::MAX);
    assert_eq!(value.port, u16::MAX);
    assert_eq!(value.max_timestamp, i64::MAX);
    assert!(value.allow);
    assert_eq!(value.ratio, 0.5);
    assert_eq!(value.offset, -2.5);
    assert_eq!(value.protocol_type, "consumer");
    assert_eq!(value.assignor, "range");
    assert_eq!(value.rack, None);
    assert_eq!(value.zone.as_deref(), Some("here"));
    assert_eq!(value.plain, 0);
    assert_eq!(value.epoch, -1);
    assert_eq!(value.leader_epoch, -1);
    assert!(value.unknown_tagged_fields.is_empty());

    let body = Defaults::SCHEMA.body;
    let defaults: Vec<Option<&str>> = body.fields.iter().map(|f| f.default).collect();
    assert_eq!(
        defaults,
        [
            Some("-1"),
            Some("-128"),
            Some("0x7fffffff"),
            Some("0xffff"),
            Some("9223372036854775807"),
            Some("true"),
            Some("0.5"),
            Some("-2.5"),
            Some("consumer"),
            Some("range"),
            Some("null"),
            Some("here"),
            None,
            Some("-1"),
            Some("-1"),
        ]
    );

    // The defaults round-trip.
    for version in 0..=2 {
        let bytes = value.encode(version).unwrap();
        assert_eq!(Defaults::decode(&bytes, version).unwrap(), value);
    }
    // A field missing from version 0 is dropped while it holds its default…
    assert!(value.encode(0).is_ok());
    // …and refused once it holds anything else.
    let changed = Defaults {
        epoch: 3,
        ..value.clone()
    };
    assert!(changed.encode(0).is_err());
    assert!(changed.encode(2).is_ok());
    // The tagged field costs nothing at its default, tag + size + int32 otherwise.
    let tagged = Defaults {
        leader_epoch: 4,
        ..value.clone()
    };
    let size = |m: &Defaults| m.encoded_size(1).unwrap();
    assert_eq!(size(&tagged), size(&value) + 6);
    let bytes = tagged.encode(1).unwrap();
    assert_eq!(Defaults::decode(&bytes, 1).unwrap().leader_epoch, 4);
    assert!(
        tagged.encode(0).is_err(),
        "no tagged fields before version 1"
    );
}

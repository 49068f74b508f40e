//! Every Kafka type, and the nullable ones as `Option`, round-trips in classic and
//! flexible versions and reports its Kafka type in the schema.

use kwire::bytes::Bytes;
use kwire::schema::TypeSchema;
use kwire::{KafkaString, Message, Records, UnknownTaggedFields, Uuid};

/// A nested structure.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
pub struct Point {
    /// X.
    #[kafka(versions = "0+")]
    pub x: i32,
    /// Y.
    #[kafka(versions = "0+")]
    pub y: i32,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One field per type.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(kind = data, versions = "0-1", flexible = "1+")]
pub struct EveryType {
    /// bool
    #[kafka(versions = "0+")]
    pub a_bool: bool,
    /// int8
    #[kafka(versions = "0+")]
    pub an_i8: i8,
    /// int16
    #[kafka(versions = "0+")]
    pub an_i16: i16,
    /// uint16
    #[kafka(versions = "0+")]
    pub a_u16: u16,
    /// int32
    #[kafka(versions = "0+")]
    pub an_i32: i32,
    /// uint32
    #[kafka(versions = "0+")]
    pub a_u32: u32,
    /// int64
    #[kafka(versions = "0+")]
    pub an_i64: i64,
    /// float64
    #[kafka(versions = "0+")]
    pub an_f64: f64,
    /// uuid
    #[kafka(versions = "0+")]
    pub a_uuid: Uuid,
    /// string
    #[kafka(versions = "0+")]
    pub a_string: KafkaString,
    /// string, as a Rust `String`
    #[kafka(versions = "0+")]
    pub a_rust_string: String,
    /// bytes
    #[kafka(versions = "0+")]
    pub some_bytes: Bytes,
    /// records
    #[kafka(versions = "0+")]
    pub some_records: Records,
    /// []int32
    #[kafka(versions = "0+")]
    pub ints: Vec<i32>,
    /// []string
    #[kafka(versions = "0+")]
    pub strings: Vec<KafkaString>,
    /// a struct
    #[kafka(versions = "0+")]
    pub point: Point,
    /// []Point
    #[kafka(versions = "0+")]
    pub points: Vec<Point>,
    /// nullable string
    #[kafka(versions = "0+", nullable = "0+")]
    pub maybe_string: Option<KafkaString>,
    /// nullable Rust string
    #[kafka(versions = "0+", nullable = "0+")]
    pub maybe_rust_string: Option<String>,
    /// nullable bytes
    #[kafka(versions = "0+", nullable = "0+")]
    pub maybe_bytes: Option<Bytes>,
    /// nullable records
    #[kafka(versions = "0+", nullable = "0+")]
    pub maybe_records: Option<Records>,
    /// nullable array
    #[kafka(versions = "0+", nullable = "0+")]
    pub maybe_ints: Option<Vec<i32>>,
    /// nullable struct
    #[kafka(versions = "0+", nullable = "0+")]
    pub maybe_point: Option<Point>,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn point(x: i32, y: i32) -> Point {
    Point {
        x,
        y,
        ..Default::default()
    }
}

fn main() {
    let types: Vec<String> = EveryType::SCHEMA
        .body
        .fields
        .iter()
        .map(|f| f.ty.to_string())
        .collect();
    assert_eq!(
        types,
        [
            "bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "uuid",
            "string", "string", "bytes", "records", "[]int32", "[]string", "Point", "[]Point",
            "string", "string", "bytes", "records", "[]int32", "Point",
        ]
    );
    let point_field = EveryType::SCHEMA.body.field("Points").unwrap();
    assert!(matches!(
        point_field.ty,
        TypeSchema::Array(TypeSchema::Struct(_))
    ));
    assert_eq!(point_field.ty.struct_schema().unwrap().name, "Point");

    let full = EveryType {
        a_bool: true,
        an_i8: -8,
        an_i16: -16,
        a_u16: 65535,
        an_i32: -32,
        a_u32: 4_000_000_000,
        an_i64: -64,
        an_f64: 6.25,
        a_uuid: Uuid::from_u64_pair(1, 2),
        a_string: "kafka".into(),
        a_rust_string: "rust".into(),
        some_bytes: Bytes::from_static(&[1, 2, 3]),
        some_records: Records::from(Bytes::from_static(b"batch")),
        ints: vec![1, -1],
        strings: vec!["a".into(), "bc".into()],
        point: point(1, 2),
        points: vec![point(3, 4), point(5, 6)],
        maybe_string: Some("s".into()),
        maybe_rust_string: Some("r".into()),
        maybe_bytes: Some(Bytes::from_static(&[9])),
        maybe_records: Some(Records::from(Bytes::from_static(b"r"))),
        maybe_ints: Some(vec![7]),
        maybe_point: Some(point(8, 9)),
        ..Default::default()
    };
    let nulls = EveryType {
        maybe_string: None,
        maybe_rust_string: None,
        maybe_bytes: None,
        maybe_records: None,
        maybe_ints: None,
        maybe_point: None,
        ..full.clone()
    };
    for value in [&full, &nulls, &EveryType::default()] {
        for version in 0..=1 {
            let bytes = value.encode(version).unwrap();
            assert_eq!(value.encoded_size(version).unwrap(), bytes.len());
            assert_eq!(&EveryType::decode(&bytes, version).unwrap(), value);
        }
    }
    // Fixed widths: bool 1, int8 1, int16 2, uint16 2, int32 4, uint32 4, int64 8,
    // float64 8, uuid 16 = 46 bytes before the first string.
    let bytes = full.encode(0).unwrap();
    assert_eq!(&bytes[..4], [1, 0xf8, 0xff, 0xf0]);
    assert_eq!(&bytes[46..53], b"\x00\x05kafka");
    // Flexible: compact length (5 + 1).
    let bytes = full.encode(1).unwrap();
    assert_eq!(&bytes[46..52], b"\x06kafka");
    // Nulls: every nullable field shrinks to its null marker.
    assert!(nulls.encoded_size(0).unwrap() < full.encoded_size(0).unwrap());
}

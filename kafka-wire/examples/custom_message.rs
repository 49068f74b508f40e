//! The main demo: a custom message defined in a user's crate with nothing but
//! `kafka-wire`, encoded at each of its versions, with every byte annotated by
//! walking the message's own runtime schema.
//!
//! Run it with `cargo run -p kwire --example custom_message`.

use bytes::Bytes;
use kwire::schema::{StructSchema, TypeSchema};
use kwire::{Cx, KafkaString, Message, Reader, UnknownTaggedFields, Wire};

/// Asks a box office to hold seats for a show (an internal API in Kafka's format).
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = request, versions = "0-2", flexible = "2+")]
pub struct HoldSeatsRequest {
    /// The show to hold seats for.
    #[kafka(versions = "0+")]
    pub show_id: KafkaString,
    /// The seats wanted.
    #[kafka(versions = "0+")]
    pub seats: Vec<Seat>,
    /// A note for the box office, if any.
    #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
    pub note: Option<KafkaString>,
    /// How long to hold the seats, in seconds; only written when not the default.
    #[kafka(versions = "2+", tag = 0, default = 600, ignorable)]
    pub hold_seconds: i32,
    /// Tagged fields this code does not know, kept and written back.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

/// One seat.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
pub struct Seat {
    /// The row letter.
    #[kafka(versions = "0+", map_key)]
    pub row: KafkaString,
    /// The seat number in the row.
    #[kafka(versions = "0+")]
    pub number: i16,
    /// Tagged fields this code does not know.
    #[kafka(unknown_tagged)]
    pub unknown_tagged_fields: UnknownTaggedFields,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let request = HoldSeatsRequest {
        show_id: "hamlet-1204".into(),
        seats: vec![Seat {
            row: "F".into(),
            number: 12,
            ..Default::default()
        }],
        note: Some("aisle please".into()),
        hold_seconds: 900,
        ..Default::default()
    };
    let schema = &HoldSeatsRequest::SCHEMA;
    println!(
        "{} (API key {}, versions {}, flexible {})\n",
        schema.name,
        schema.api_key.unwrap_or(-1),
        schema.valid_versions,
        schema.flexible_versions
    );
    for version in (0..=2).rev() {
        let bytes = request.encode(version)?;
        println!("version {version}: {} bytes", bytes.len());
        let mut annotator = Annotator::new(&bytes, version, schema.is_flexible(version));
        annotator.structure(&schema.body, 1)?;
        let decoded = HoldSeatsRequest::decode(&bytes, version)?;
        if decoded == request {
            println!("  decodes back to the same value\n");
        } else {
            println!(
                "  decodes back without what version {version} cannot hold (ignorable fields)\n"
            );
        }
    }
    // Unknown tags are kept on decode and written back, but only where tags exist.
    let mut with_unknown = request.clone();
    with_unknown
        .unknown_tagged_fields
        .insert(7, Bytes::from_static(b"hi"));
    let v2 = with_unknown.encode(2)?;
    assert_eq!(HoldSeatsRequest::decode(&v2, 2)?, with_unknown);
    println!(
        "with unknown tag 7, version 2: {} bytes, kept on the round trip",
        v2.len()
    );
    match with_unknown.encode(1) {
        Ok(bytes) => println!("with unknown tag 7, version 1: {} bytes", bytes.len()),
        Err(e) => println!("with unknown tag 7, version 1: refused: {e}"),
    }
    Ok(())
}

/// Prints each field's bytes by reading them back with the schema's types.
struct Annotator<'a> {
    reader: Reader<'a>,
    bytes: &'a Bytes,
    version: i16,
    flexible: bool,
}

impl<'a> Annotator<'a> {
    fn new(bytes: &'a Bytes, version: i16, flexible: bool) -> Self {
        Annotator {
            reader: Reader::new(bytes),
            bytes,
            version,
            flexible,
        }
    }

    fn show(&self, depth: usize, start: usize, label: &str) {
        let hex: Vec<String> = self.bytes[start..self.reader.position()]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        println!(
            "  {:indent$}{:<44} {label}",
            "",
            hex.join(" "),
            indent = depth * 2
        );
    }

    fn structure(&mut self, schema: &StructSchema, depth: usize) -> Result<(), kwire::DecodeError> {
        for field in schema.fields {
            if !field.versions.contains(self.version) || field.is_tagged_at(self.version) {
                continue;
            }
            let cx = Cx::new(
                self.version,
                field.is_compact_at(self.version, self.flexible),
            )
            .with_nullable(field.nullable_versions.contains(self.version));
            let start = self.reader.position();
            match field.ty {
                TypeSchema::Array(TypeSchema::Struct(inner)) => {
                    let count = if cx.flexible {
                        self.reader.read_unsigned_varint()? as usize - 1
                    } else {
                        i32::from_be_bytes(self.reader.read_array()?) as usize
                    };
                    self.show(depth, start, &format!("{}: {count} element(s)", field.name));
                    for _ in 0..count {
                        self.structure(inner, depth + 1)?;
                    }
                }
                TypeSchema::String => {
                    let value = Option::<KafkaString>::read(&mut self.reader, cx)?;
                    let text = value.map_or_else(|| "null".to_owned(), |s| format!("{s:?}"));
                    self.show(depth, start, &format!("{}: {text}", field.name));
                }
                TypeSchema::Int16 => {
                    let value = i16::read(&mut self.reader, cx)?;
                    self.show(depth, start, &format!("{}: {value}", field.name));
                }
                other => {
                    println!("  (the demo annotates only the types it uses, not {other})");
                    return Ok(());
                }
            }
        }
        if self.flexible {
            let start = self.reader.position();
            let count = self.reader.read_unsigned_varint()?;
            self.show(depth, start, &format!("tagged fields: {count}"));
            for _ in 0..count {
                let start = self.reader.position();
                let tag = self.reader.read_unsigned_varint()?;
                let size = self.reader.read_unsigned_varint()? as usize;
                let data = self.reader.read_slice(size)?;
                let name = schema
                    .fields
                    .iter()
                    .find(|f| f.tag == Some(tag))
                    .map_or("unknown", |f| f.name);
                self.show(
                    depth + 1,
                    start,
                    &format!("tag {tag} ({name}), {size} bytes: {data:02x?}"),
                );
            }
        }
        Ok(())
    }
}

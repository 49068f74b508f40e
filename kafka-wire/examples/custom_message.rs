//! The main demo: a custom message defined in a user's crate with nothing but
//! `kwire`, encoded at each of its versions, with every byte annotated by the
//! runtime's schema walker (`kwire::walk`, which reads as the decoder reads).
//!
//! Run it with `cargo run -p kwire --example custom_message`.

use bytes::Bytes;
use kwire::walk::{self, Item, Span, Step};
use kwire::{KafkaString, Message, Reader, UnknownTaggedFields};

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
        walk::walk(
            schema,
            version,
            &mut Reader::new(&bytes),
            &mut |span: Span<'_>| show(&bytes, &span),
        )?;
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

/// Prints one span of the walk: where its bytes are, the bytes in hex, and what
/// they are.
fn show(bytes: &Bytes, span: &Span<'_>) {
    let hex: Vec<String> = bytes[span.bytes.clone()]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let path: String = span
        .path
        .iter()
        .map(|step| match step {
            Step::Field(field) => format!(".{}", field.name),
            Step::Index(index) => format!("[{index}]"),
        })
        .collect();
    // The message's own tagged section has no field path.
    let path = match path.trim_start_matches('.') {
        "" => "HoldSeatsRequest",
        path => path,
    };
    let what = match &span.item {
        Item::Value(value) => format!("{path} = {value}"),
        Item::Null => format!("{path} = null"),
        Item::Length(len) => format!("{path}: length {len}"),
        Item::Count(count) => format!("{path}: {count} element(s)"),
        Item::TaggedFields(count) => format!("{path}: {count} tagged field(s)"),
        Item::Tag { tag, size, field } => {
            let name = field.map_or("unknown", |f| f.name);
            format!("{path}: tag {tag} ({name}), {size} bytes")
        }
        other => format!("{path}: {other:?}"),
    };
    println!("  {:>4}  {:<36} {what}", span.bytes.start, hex.join(" "));
}

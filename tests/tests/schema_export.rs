//! The export of runtime schemas as Kafka's JSON schema files, proved by the schema
//! checker run in reverse: each message's schema is written as JSON
//! (`MessageSchema::to_kafka_json`), read back with the checker's JSON reader, and
//! compared with the message it came from, field for field. Since the checker also
//! holds every registered message equal to Kafka's official file
//! (`schema_checker`), what is written means what Kafka's file means.

use std::path::Path;

use kwire::schema::MessageSchema;
use kwire::{KafkaString, Message, UnknownTaggedFields};
use kwire_schema::{load_text, SchemaMessage};
use kwire_tests::checker::{self, Report};

/// Writes `message` out, reads it back and checks it against `message`.
fn export_and_check(message: &MessageSchema) -> (String, Report) {
    let text = message.to_kafka_json().expect(message.name);
    let file = format!("{}.json", message.name);
    let report = match load_text(&text, Path::new(&file)) {
        Ok(schema) => checker::check_message(&schema, message),
        Err(e) => {
            let mut report = Report::default();
            report.differ(message.name, format!("does not read back: {e}"));
            report
        }
    };
    (text, report)
}

#[test]
fn every_registered_message_exports_to_json_the_checker_reads_back_equal() {
    let messages = kwire_messages::registry::schemas();
    // Kafka 4.4.0's 203 schema files: 195 live messages and 8 retired APIs, which
    // are no messages (`schema_checker` holds the registry to the files).
    assert_eq!(messages.len(), 195, "the registry's messages");
    let mut all = Report::default();
    for message in messages {
        let (_, report) = export_and_check(message);
        all.schemas += report.schemas;
        all.fields += report.fields;
        all.differences.extend(report.differences);
    }
    print!("{all}");
    assert_eq!(all.schemas, 195);
    assert!(all.fields > 1000, "fields compared: {}", all.fields);
    assert!(
        all.differences.is_empty(),
        "{} differences between the exported schemas and the structs (listed above)",
        all.differences.len()
    );
}

// ---------------------------------------------------------------------------
// A user's own message

/// A seat in a hall.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
struct Seat {
    /// The row, from the front.
    #[kafka(versions = "0+", map_key)]
    row: i16,
    /// The seat within the row.
    #[kafka(versions = "0+")]
    number: i16,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: UnknownTaggedFields,
}

/// Where the seats are.
#[derive(Debug, Clone, PartialEq, kwire::Struct)]
struct Venue {
    /// The venue's name.
    #[kafka(versions = "0+")]
    name: KafkaString,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: UnknownTaggedFields,
}

/// Holds seats for a while, and gives some back.
#[derive(Debug, Clone, PartialEq, kwire::Message)]
#[kafka(api_key = 1000, kind = request, versions = "0-2", flexible = "2+")]
struct HoldSeatsRequest {
    /// The seats to hold.
    #[kafka(versions = "0+")]
    held: Vec<Seat>,
    /// The seats given back: "released", in the
    /// box office's words.
    #[kafka(versions = "1+")]
    released: Vec<Seat>,
    /// Where.
    #[kafka(versions = "0+")]
    venue: Venue,
    /// A note for the box office, if any.
    #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
    note: Option<KafkaString>,
    /// How long to hold them.
    #[kafka(versions = "2+", tag = 0, default = 600)]
    hold_seconds: i32,
    /// Tags this code does not know.
    #[kafka(unknown_tagged)]
    unknown: UnknownTaggedFields,
}

/// The exact text: the seat struct, used twice, in `commonStructs`; the venue,
/// used once, inline; the wrapped doc comment on one line; the quotes escaped.
const HOLD_SEATS_REQUEST_JSON: &str = r#"{
  "apiKey": 1000,
  "type": "request",
  "name": "HoldSeatsRequest",
  "validVersions": "0-2",
  "flexibleVersions": "2+",
  "fields": [
    { "name": "Held", "type": "[]Seat", "versions": "0+",
      "about": "The seats to hold." },
    { "name": "Released", "type": "[]Seat", "versions": "1+",
      "about": "The seats given back: \"released\", in the box office's words." },
    { "name": "Venue", "type": "Venue", "versions": "0+",
      "about": "Where.", "fields": [
      { "name": "Name", "type": "string", "versions": "0+",
        "about": "The venue's name." }
    ]},
    { "name": "Note", "type": "string", "versions": "1+", "nullableVersions": "1+", "ignorable": true, "default": "null",
      "about": "A note for the box office, if any." },
    { "name": "HoldSeconds", "type": "int32", "versions": "2+", "taggedVersions": "2+", "tag": 0, "default": "600",
      "about": "How long to hold them." }
  ],
  "commonStructs": [
    { "name": "Seat", "versions": "0+", "fields": [
      { "name": "Row", "type": "int16", "versions": "0+", "mapKey": true,
        "about": "The row, from the front." },
      { "name": "Number", "type": "int16", "versions": "0+",
        "about": "The seat within the row." }
    ]}
  ]
}
"#;

#[test]
fn a_users_message_exports_to_kafkas_file_layout() {
    assert_eq!(
        HoldSeatsRequest::SCHEMA.to_kafka_json().unwrap(),
        HOLD_SEATS_REQUEST_JSON
    );
}

#[test]
fn a_users_message_reads_back_equal() {
    let (text, report) = export_and_check(&HoldSeatsRequest::SCHEMA);
    print!("{report}");
    assert!(report.differences.is_empty(), "{text}");
    // Every field compared, the nested ones among them (the seat's through both
    // fields that use it).
    assert_eq!(report.fields, 10, "{report}");
}

/// Reads `text` and checks it against the user's message.
fn check_text(text: &str) -> Vec<String> {
    let schema: SchemaMessage =
        load_text(text, Path::new("HoldSeatsRequest.json")).expect("the altered text reads");
    checker::check_message(&schema, &HoldSeatsRequest::SCHEMA).difference_lines()
}

#[test]
fn an_altered_export_is_a_difference() {
    let text = HoldSeatsRequest::SCHEMA.to_kafka_json().unwrap();
    let cases = [
        (
            r#""name": "HoldSeconds", "type": "int32""#,
            r#""name": "HoldSeconds", "type": "int64""#,
            "HoldSeatsRequest.HoldSeconds: type int64 in schema, int32 in struct",
        ),
        (
            r#""tag": 0, "default": "600""#,
            r#""tag": 1, "default": "600""#,
            "HoldSeatsRequest.HoldSeconds: tag 1 in schema, 0 in struct",
        ),
        (
            r#""default": "600""#,
            r#""default": "300""#,
            "HoldSeatsRequest.HoldSeconds: default 300 in schema, 600 in struct",
        ),
        (
            r#""nullableVersions": "1+", "#,
            "",
            "HoldSeatsRequest.Note: nullableVersions none in schema, 1+ in struct",
        ),
        (
            r#""name": "Number", "type": "int16", "versions": "0+""#,
            r#""name": "Number", "type": "int16", "versions": "1+""#,
            "HoldSeatsRequest.Held[].Number: versions 1+ in schema, 0+ in struct",
        ),
        (
            r#""validVersions": "0-2""#,
            r#""validVersions": "0-1""#,
            "HoldSeatsRequest: validVersions 0-1 in schema, 0-2 in struct",
        ),
    ];
    for (from, to, expected) in cases {
        assert!(text.contains(from), "{from} not in\n{text}");
        let lines = check_text(&text.replacen(from, to, 1));
        assert!(
            lines.iter().any(|line| line == expected),
            "altering {from:?} to {to:?}: expected {expected:?}, got {lines:#?}"
        );
    }
}

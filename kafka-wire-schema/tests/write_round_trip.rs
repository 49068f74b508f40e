//! The writer against the reader: every one of Kafka's schema files, read, written
//! and read again, is the same schema, key for key.
//!
//! Reads the files from `KAFKA_SCHEMA_DIR`, by default `../shared/kafka/schemas`
//! beside the workspace, as the workspace's other tests do.
#![cfg(feature = "read")]

use std::path::{Path, PathBuf};

use kwire_schema::{load_dir, load_text, to_json};

fn schema_dir() -> PathBuf {
    let dir = std::env::var_os("KAFKA_SCHEMA_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/kafka/schemas"),
        PathBuf::from,
    );
    assert!(
        dir.is_dir(),
        "Kafka's schemas are missing: looked in {} (set KAFKA_SCHEMA_DIR to their folder)",
        dir.display()
    );
    dir
}

#[test]
fn every_kafka_schema_reads_back_as_written() {
    let dir = schema_dir();
    let mut count = 0;
    for loaded in load_dir(&dir).expect("the schema folder lists") {
        let schema = loaded.expect("Kafka's schema reads");
        let text = to_json(&schema);
        let again =
            load_text(&text, &schema.file).unwrap_or_else(|e| panic!("{e}\n--- written\n{text}"));
        assert_eq!(again, schema, "{}\n--- written\n{text}", schema.name);
        count += 1;
    }
    assert!(count > 0, "no schema files in {}", dir.display());
}

#[test]
fn strings_that_need_escaping_read_back_unchanged() {
    let text = r#"{ "type": "data", "name": "Odd", "validVersions": "0",
      "fields": [ { "name": "A", "type": "string", "versions": "0+",
        "default": "line\nbreak \"quoted\" back\\slash \u0001 é",
        "about": "tab\there" } ] }"#;
    let schema = load_text(text, Path::new("Odd.json")).expect("reads");
    let again = load_text(&to_json(&schema), Path::new("Odd.json")).expect("reads back");
    assert_eq!(again, schema);
}

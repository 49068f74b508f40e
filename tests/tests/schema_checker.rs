//! The structs equal Kafka's JSON schemas, field for field.
//!
//! Reads every schema in `KAFKA_SCHEMA_DIR` and compares it with the message the
//! registry holds under that name; prints every difference and fails if there is one.
//! A schema without a struct and a struct without a schema are differences too.

use kwire_tests::checker::{self, Runtime};

#[test]
fn structs_equal_kafka_schemas() {
    let dir = kwire_tests::schema_dir();
    let report = checker::check(&dir, &Runtime::registry());
    println!("schemas from {}", dir.display());
    print!("{report}");
    assert!(report.schemas > 0, "no schema files in {}", dir.display());
    assert!(
        report.differences.is_empty(),
        "{} differences between the structs and Kafka's schemas (listed above)",
        report.differences.len()
    );
}

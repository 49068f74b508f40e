//! The structs equal Kafka's JSON schemas, field for field.
//!
//! Reads every schema in `KAFKA_SCHEMA_DIR` (default: the pinned set in `../shared`)
//! and compares it with the message the registry holds under that name; prints
//! every difference and fails if there is one the set's list does not explain
//! (`checker::known`: the structs follow Kafka 4.4.0's release; the pinned trunk set
//! lists what it lacks in `tests/schemas/pinned-678c0e07.differences`), or if a
//! listed one is gone. A schema without a struct and a struct without a schema are
//! differences too. `tests/schemas/released_run` runs it on both sets.

use kwire_tests::checker::{self, known, Runtime};

#[test]
fn structs_equal_kafka_schemas() {
    let dir = kwire_tests::schema_dir();
    let report = checker::check(&dir, &Runtime::registry());
    let list = known::for_set(&dir, &known::lists_dir()).unwrap_or_else(|e| panic!("{e}"));
    let verdict = known::judge(&report, list.as_ref());
    println!("schemas from {}", dir.display());
    if let Some(list) = &list {
        println!(
            "known differences of the set {} ({}):",
            list.set,
            list.file.display()
        );
        for line in &verdict.known {
            println!("known: {line}");
        }
    }
    for line in &verdict.unexplained {
        println!("{line}");
    }
    for line in &verdict.stale {
        println!("stale: listed but no longer found: {line}");
    }
    println!(
        "{}; {} known, {} unexplained, {} stale",
        report.summary(),
        verdict.known.len(),
        verdict.unexplained.len(),
        verdict.stale.len()
    );
    assert!(report.schemas > 0, "no schema files in {}", dir.display());
    assert!(
        verdict.passes(),
        "{} differences between the structs and Kafka's schemas that no list explains, \
         {} listed ones no longer found (listed above)",
        verdict.unexplained.len(),
        verdict.stale.len()
    );
}

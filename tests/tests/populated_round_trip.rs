//! Every registered message, at every valid version, round-trips a value with every
//! field set (and, separately, every nullable field null), and every proper prefix of
//! such an encoding is refused with an error.

use bytes::Bytes;
use kafka_wire_messages::registry;
use kafka_wire_tests::populated::{populated, Nulls};

#[test]
fn every_field_of_every_message_round_trips_at_every_version() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for message in registry::messages() {
        let schema = message.schema;
        let (Some(min), Some(max)) = (schema.valid_versions.min(), schema.valid_versions.max())
        else {
            continue;
        };
        for version in min..=max {
            for nulls in [Nulls::Filled, Nulls::Null] {
                let bytes = Bytes::from(populated(schema, version, nulls));
                match (message.recode)(&bytes, version) {
                    Ok(again) if again == bytes => {}
                    Ok(again) => failures.push(format!(
                        "{} v{version} {nulls:?}: re-encoded {again:02x?}, expected {bytes:02x?}",
                        schema.name
                    )),
                    Err(e) => failures.push(format!("{} v{version} {nulls:?}: {e}", schema.name)),
                }
                checked += 1;
            }
        }
    }
    println!("{checked} populated encodings checked");
    assert!(checked > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_proper_prefix_is_an_error() {
    let mut failures = Vec::new();
    for message in registry::messages() {
        let schema = message.schema;
        let (Some(min), Some(max)) = (schema.valid_versions.min(), schema.valid_versions.max())
        else {
            continue;
        };
        for version in min..=max {
            let bytes = Bytes::from(populated(schema, version, Nulls::Filled));
            for len in 0..bytes.len() {
                if (message.recode)(&bytes.slice(..len), version).is_ok() {
                    failures.push(format!(
                        "{} v{version}: prefix of {len} decoded",
                        schema.name
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_default_value_encodes_at_every_version_and_reads_back() {
    let mut failures = Vec::new();
    for message in registry::messages() {
        let schema = message.schema;
        let (Some(min), Some(max)) = (schema.valid_versions.min(), schema.valid_versions.max())
        else {
            continue;
        };
        for version in min..=max {
            match (message.encode_default)(version) {
                Ok(bytes) => match (message.recode)(&bytes, version) {
                    Ok(again) if again == bytes => {}
                    other => failures.push(format!("{} v{version}: {other:?}", schema.name)),
                },
                Err(e) => failures.push(format!("{} v{version}: {e}", schema.name)),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

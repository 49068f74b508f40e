//! Every registered message, at every valid version, round-trips a value with every
//! field set (and, separately, every nullable field null), its `Default` value, and
//! refuses every proper prefix of a populated encoding. The populated encodings are
//! written from the runtime schema, independently of the derived code.

use bytes::Bytes;
use kwire::schema::FieldSchema;
use kwire_tests::codecs::{codecs, Codec};
use kwire_tests::schema_writer::{write, Defaults, Nulls, Populated};

/// Runs `check` for every registered message at every valid version and fails with
/// every message it returned.
fn for_every_version(mut check: impl FnMut(Codec, i16) -> Vec<String>) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for &message in codecs() {
        let valid = message.schema.valid_versions;
        let (Some(min), Some(max)) = (valid.min(), valid.max()) else {
            continue;
        };
        for version in min..=max {
            failures.extend(check(message, version));
            checked += 1;
        }
    }
    assert!(checked > 0, "no messages registered");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

fn populated(message: Codec, version: i16, nulls: Nulls) -> Bytes {
    Bytes::from(write(message.schema, version, &mut Populated { nulls }))
}

fn recodes_to_itself(message: Codec, version: i16, bytes: &Bytes, what: &str) -> Option<String> {
    let name = message.schema.name;
    match (message.recode)(bytes, version) {
        Ok(again) if again == bytes => None,
        Ok(again) => Some(format!(
            "{name} v{version} {what}: re-encoded {again:02x?}, expected {bytes:02x?}"
        )),
        Err(e) => Some(format!("{name} v{version} {what}: {e}")),
    }
}

#[test]
fn every_field_of_every_message_round_trips_at_every_version() {
    let checked = for_every_version(|message, version| {
        [Nulls::Filled, Nulls::Null]
            .into_iter()
            .filter_map(|nulls| {
                let bytes = populated(message, version, nulls);
                recodes_to_itself(message, version, &bytes, &format!("{nulls:?}"))
            })
            .collect()
    });
    println!("{checked} message versions checked, populated and with nulls");
}

/// The vectored encoding is the contiguous one cut into chunks: the same bytes for
/// every message at every version, populated and with nulls, and every chunk after
/// the first (a records or `zero_copy` field's) the decoded value's own slice of
/// the input, not a copy.
#[test]
fn the_vectored_encoding_is_the_same_bytes_with_records_attached_not_copied() {
    let mut attached = 0;
    let checked = for_every_version(|message, version| {
        let name = message.schema.name;
        let mut failures = Vec::new();
        for nulls in [Nulls::Filled, Nulls::Null] {
            let bytes = populated(message, version, nulls);
            let chunks = match (message.recode_vectored)(&bytes, version) {
                Ok(chunks) => chunks,
                Err(e) => {
                    failures.push(format!("{name} v{version} {nulls:?}: {e}"));
                    continue;
                }
            };
            if chunks != bytes[..] {
                failures.push(format!(
                    "{name} v{version} {nulls:?}: vectored {:02x?}, contiguous {bytes:02x?}",
                    chunks.to_bytes()
                ));
            }
            // Attached chunks alternate with the ordinary fields' buffer, which is
            // never inside the input.
            let input = bytes.as_ptr_range();
            let here = chunks
                .chunks()
                .filter(|chunk| input.contains(&chunk.as_ptr()))
                .count();
            attached += here;
            let carries_records = ["ProduceRequest", "FetchResponse"].contains(&name);
            if carries_records && nulls == Nulls::Filled && here == 0 {
                failures.push(format!("{name} v{version}: its records were copied"));
            }
        }
        failures
    });
    println!("{checked} message versions encoded both ways; {attached} chunks attached");
}

/// Through Kafka's JSON form: the populated bytes decode to JSON holding exactly the
/// fields of the version (tagged ones at their default left out), and that JSON
/// reads and encodes back to the same bytes.
#[test]
fn every_message_round_trips_through_its_json_form_at_every_version() {
    let checked = for_every_version(|message, version| {
        let name = message.schema.name;
        [Nulls::Filled, Nulls::Null]
            .into_iter()
            .filter_map(|nulls| {
                let bytes = populated(message, version, nulls);
                let json = match (message.decode_to_json)(&bytes, version) {
                    Ok(json) => json,
                    Err(e) => return Some(format!("{name} v{version} {nulls:?}: {e}")),
                };
                // In the schema's order, as Kafka's converter writes them, less
                // the tagged fields at their default, which it leaves out: with
                // nulls, those whose default is null.
                let keys: Vec<&String> = json.as_object().map(|o| o.keys().collect())?;
                let at_default = |f: &FieldSchema| {
                    nulls == Nulls::Null
                        && f.is_tagged_at(version)
                        && f.nullable_versions.contains(version)
                        && f.default == Some("null")
                };
                let fields: Vec<String> = message
                    .schema
                    .body
                    .fields
                    .iter()
                    .filter(|f| f.versions.contains(version) && !at_default(f))
                    .map(|f| f.json_name())
                    .collect();
                if keys != fields.iter().collect::<Vec<_>>() {
                    return Some(format!(
                        "{name} v{version}: JSON keys {keys:?}, fields of the version {fields:?}"
                    ));
                }
                match (message.json_to_bytes)(&json, version) {
                    Ok(again) if again == bytes => None,
                    Ok(again) => Some(format!(
                        "{name} v{version} {nulls:?}: from {json} encoded {again:02x?}, expected {bytes:02x?}"
                    )),
                    Err(e) => Some(format!("{name} v{version} {nulls:?}: {json}: {e}")),
                }
            })
            .collect()
    });
    println!("{checked} message versions through JSON, populated and with nulls");
}

#[test]
fn every_proper_prefix_is_an_error() {
    for_every_version(|message, version| {
        let bytes = populated(message, version, Nulls::Filled);
        (0..bytes.len())
            .filter(|&len| (message.recode)(&bytes.slice(..len), version).is_ok())
            .map(|len| {
                format!(
                    "{} v{version}: a prefix of {len} bytes decoded",
                    message.schema.name
                )
            })
            .collect()
    });
}

#[test]
fn every_default_value_encodes_at_every_version_and_reads_back() {
    for_every_version(|message, version| match (message.encode_default)(version) {
        Ok(bytes) => recodes_to_itself(message, version, &bytes, "default")
            .into_iter()
            .collect(),
        Err(e) => vec![format!("{} v{version} default: {e}", message.schema.name)],
    });
}

/// The writer's idea of the defaults (which decides what tagged fields it leaves
/// out) is the derived `Default`'s, byte for byte.
#[test]
fn the_defaults_written_from_the_schema_are_the_default_value() {
    for_every_version(|message, version| {
        let from_schema = write(message.schema, version, &mut Defaults);
        match (message.encode_default)(version) {
            Ok(bytes) if bytes == from_schema => vec![],
            Ok(bytes) => vec![format!(
                "{} v{version}: the schema's defaults are {from_schema:02x?}, Default encodes {bytes:02x?}",
                message.schema.name
            )],
            Err(e) => vec![format!("{} v{version} default: {e}", message.schema.name)],
        }
    });
}

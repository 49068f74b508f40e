//! The schema checker: proves the runtime schemas of the hand-written structs equal
//! Apache Kafka's JSON schemas, field for field.
//!
//! [`load`] (the schema crate's reader) reads the JSON, [`resolve`] finds what a field's type names,
//! [`meaning`] decides when two spellings mean the same, `compare` walks one schema
//! against one struct, and this module decides which schema goes with which struct
//! (and which may still wait). Everything found lands in a [`Report`]; [`known`] sets
//! apart the differences a schema set is listed as having (the pinned set's, until
//! it moves to Kafka 4.4.0's release, which the structs follow).

mod compare;
pub mod known;
mod report;
mod runtime_class;

use std::collections::HashMap;
use std::path::Path;

use kwire::schema::MessageSchema;

// The reader is the schema crate's, shared with the derive and the command line.
pub use kwire_schema::{json, meaning, read as load, resolve};
pub use kwire_schema::{
    load_dir, load_file, LoadError, SchemaDefault, SchemaField, SchemaMessage, SchemaStruct,
};
pub use report::{Line, Report};

/// What the checker compares the schemas with.
#[derive(Debug, Clone)]
pub struct Runtime {
    /// Every registered message.
    pub messages: Vec<&'static MessageSchema>,
    /// The retired API keys and their API names.
    pub retired: &'static [(i16, &'static str)],
}

impl Runtime {
    /// The messages crate's registry.
    pub fn registry() -> Runtime {
        Runtime {
            messages: kwire_messages::registry::schemas(),
            retired: kwire_messages::registry::RETIRED_API_KEYS,
        }
    }
}

/// Checks one schema against one runtime message, whatever their names: what the
/// export test uses to read a written schema back against the message it came from.
pub fn check_message(schema: &SchemaMessage, message: &MessageSchema) -> Report {
    let mut report = Report {
        schemas: 1,
        ..Report::default()
    };
    compare::message(&mut report, schema, message);
    report
}

/// Checks every schema in `dir` against `runtime`.
pub fn check(dir: &Path, runtime: &Runtime) -> Report {
    let mut report = Report::default();
    let loaded = match load_dir(dir) {
        Ok(loaded) => loaded,
        Err(e) => {
            report.differ(
                &dir.display().to_string(),
                format!("cannot list schemas: {}", e.reason),
            );
            return report;
        }
    };
    let mut structs: HashMap<&str, &MessageSchema> = HashMap::new();
    for message in &runtime.messages {
        if structs.insert(message.name, message).is_some() {
            report.differ(message.name, "registered twice");
        }
    }
    let mut seen: HashMap<String, &Path> = HashMap::new();
    let mut schemas = Vec::new();
    for result in &loaded {
        report.schemas += 1;
        match result {
            Err(e) => {
                let name = e.file.file_name().unwrap_or_default().to_string_lossy();
                report.differ(&name, format!("cannot read schema: {}", e.reason));
            }
            Ok(schema) => {
                if let Some(first) = seen.insert(schema.name.clone(), &schema.file) {
                    report.differ(&schema.name, format!("also defined in {}", first.display()));
                    continue;
                }
                schemas.push(schema);
            }
        }
    }
    for schema in &schemas {
        let registered = structs.get(schema.name.as_str()).copied();
        if schema.is_retired() {
            retired(&mut report, schema, registered.is_some(), runtime.retired);
            continue;
        }
        if let Some(key) = schema.api_key {
            if let Some((_, api)) = runtime.retired.iter().find(|(k, _)| i64::from(*k) == key) {
                report.differ(
                    &schema.name,
                    format!(
                        "apiKey {key} is listed as retired ({api}) but the schema has versions"
                    ),
                );
            }
        }
        match registered {
            Some(message) => compare::message(&mut report, schema, message),
            None => report.differ(&schema.name, "schema without struct"),
        }
    }
    for message in &runtime.messages {
        if !seen.contains_key(message.name) {
            report.differ(message.name, "struct without schema");
        }
    }
    for (key, api) in runtime.retired {
        let covered = schemas
            .iter()
            .any(|s| s.is_retired() && s.api_key == Some(i64::from(*key)));
        if !covered {
            report.differ(
                "RETIRED_API_KEYS",
                format!("{key} ({api}) has no retired schema"),
            );
        }
    }
    report
}

/// A retired schema must be listed in `RETIRED_API_KEYS` under its API name, and
/// must have no struct.
fn retired(report: &mut Report, schema: &SchemaMessage, has_struct: bool, list: &[(i16, &str)]) {
    let path = schema.name.as_str();
    if has_struct {
        report.differ(path, "retired API (validVersions none) has a struct");
    }
    let api = api_name(&schema.name);
    let Some(key) = schema.api_key else {
        return report.differ(path, "retired schema without apiKey");
    };
    match list.iter().find(|(k, _)| i64::from(*k) == key) {
        None => report.differ(
            path,
            format!("retired apiKey {key} missing from RETIRED_API_KEYS"),
        ),
        Some((_, listed)) if *listed != api => report.differ(
            path,
            format!("retired apiKey {key} is {api} in schema, {listed} in RETIRED_API_KEYS"),
        ),
        Some(_) => {}
    }
}

/// `LeaderAndIsrRequest` → `LeaderAndIsr`.
fn api_name(message: &str) -> &str {
    message
        .strip_suffix("Request")
        .or_else(|| message.strip_suffix("Response"))
        .unwrap_or(message)
}

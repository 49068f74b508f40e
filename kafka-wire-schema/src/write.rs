//! Writing a schema out as Kafka's JSON schema text.
//!
//! The layout is the one of Kafka's own files, so that an exported schema reads
//! like its neighbours in `clients/src/main/resources/common/message/` and diffs
//! well when a new version is committed: two spaces of indent, the message's keys
//! one a line, each field one object whose keys share a line, its `about` on the
//! next line and its nested `fields` below it, indented two more.
//!
//! Keys come in Kafka's order and only when set: an absent range, a `false` flag or
//! an empty `about` is left out, as Kafka's files leave them out. `file` and
//! `unknown_keys` are not written (the values of unknown keys are not kept).

mod escape;

use crate::model::{SchemaDefault, SchemaField, SchemaMessage, SchemaStruct};
use escape::{is_number, quoted};

/// `schema` as Kafka's JSON schema text, ending in a newline.
///
/// ```
/// use std::path::PathBuf;
/// use kwire_schema::{to_json, SchemaField, SchemaMessage};
///
/// let schema = SchemaMessage {
///     file: PathBuf::from("PingRequest.json"),
///     name: "PingRequest".into(),
///     kind: "request".into(),
///     api_key: Some(1000),
///     valid_versions: "0-1".into(),
///     flexible_versions: Some("1+".into()),
///     listeners: vec!["broker".into()],
///     latest_version_unstable: false,
///     fields: vec![SchemaField {
///         name: "Note".into(),
///         ty: "string".into(),
///         versions: Some("0+".into()),
///         nullable_versions: Some("1+".into()),
///         tagged_versions: None,
///         tag: None,
///         ignorable: false,
///         default: None,
///         flexible_versions: None,
///         map_key: false,
///         entity_type: None,
///         zero_copy: false,
///         about: "A \"short\" note.".into(),
///         fields: vec![],
///         unknown_keys: vec![],
///     }],
///     common_structs: vec![],
///     unknown_keys: vec![],
/// };
/// assert_eq!(to_json(&schema), r#"{
///   "apiKey": 1000,
///   "type": "request",
///   "listeners": ["broker"],
///   "name": "PingRequest",
///   "validVersions": "0-1",
///   "flexibleVersions": "1+",
///   "fields": [
///     { "name": "Note", "type": "string", "versions": "0+", "nullableVersions": "1+",
///       "about": "A \"short\" note." }
///   ]
/// }
/// "#);
/// ```
pub fn to_json(schema: &SchemaMessage) -> String {
    let mut keys = Vec::new();
    if let Some(key) = schema.api_key {
        keys.push(pair("apiKey", key.to_string()));
    }
    keys.push(pair("type", quoted(&schema.kind)));
    if !schema.listeners.is_empty() {
        let listeners: Vec<String> = schema.listeners.iter().map(|l| quoted(l)).collect();
        keys.push(pair("listeners", format!("[{}]", listeners.join(", "))));
    }
    keys.push(pair("name", quoted(&schema.name)));
    keys.push(pair("validVersions", quoted(&schema.valid_versions)));
    if let Some(flexible) = &schema.flexible_versions {
        keys.push(pair("flexibleVersions", quoted(flexible)));
    }
    if schema.latest_version_unstable {
        keys.push(pair("latestVersionUnstable", "true".into()));
    }
    // Kafka's files always have `fields`, empty or not.
    keys.push(pair("fields", list(&schema.fields, 2, field)));
    if !schema.common_structs.is_empty() {
        keys.push(pair(
            "commonStructs",
            list(&schema.common_structs, 2, common_struct),
        ));
    }
    let body: Vec<String> = keys.iter().map(|k| format!("  {k}")).collect();
    format!("{{\n{}\n}}\n", body.join(",\n"))
}

/// `"key": value`.
fn pair(key: &str, value: String) -> String {
    format!("{}: {value}", quoted(key))
}

/// A JSON array of objects, one after another at `indent` spaces, the closing
/// bracket at the indent of the key that holds it.
fn list<T>(items: &[T], indent: usize, write: fn(&T, usize) -> String) -> String {
    if items.is_empty() {
        return "[]".into();
    }
    let written: Vec<String> = items.iter().map(|item| write(item, indent + 2)).collect();
    format!("[\n{}\n{}]", written.join(",\n"), " ".repeat(indent))
}

/// One field: `{ "name": …, … ,` then its `about` on the next line, then its
/// nested fields, closed by `]}` as Kafka's files close them.
fn field(field: &SchemaField, indent: usize) -> String {
    let mut keys = vec![
        pair("name", quoted(&field.name)),
        pair("type", quoted(&field.ty)),
    ];
    let mut text = |key: &str, value: &Option<String>| {
        if let Some(value) = value {
            keys.push(pair(key, quoted(value)));
        }
    };
    text("versions", &field.versions);
    text("nullableVersions", &field.nullable_versions);
    text("taggedVersions", &field.tagged_versions);
    if let Some(tag) = field.tag {
        keys.push(pair("tag", tag.to_string()));
    }
    if field.ignorable {
        keys.push(pair("ignorable", "true".into()));
    }
    if let Some(default) = &field.default {
        keys.push(pair("default", default_value(default)));
    }
    if let Some(flexible) = &field.flexible_versions {
        keys.push(pair("flexibleVersions", quoted(flexible)));
    }
    if field.map_key {
        keys.push(pair("mapKey", "true".into()));
    }
    if let Some(entity) = &field.entity_type {
        keys.push(pair("entityType", quoted(entity)));
    }
    if field.zero_copy {
        keys.push(pair("zeroCopy", "true".into()));
    }
    let pad = " ".repeat(indent);
    let mut out = format!("{pad}{{ {}", keys.join(", "));
    if !field.about.is_empty() {
        out.push_str(&format!(
            ",\n{pad}  {}",
            pair("about", quoted(&field.about))
        ));
    }
    close(&mut out, &field.fields, indent);
    out
}

/// A `commonStructs` entry: its name and versions on the first line, its fields
/// below.
fn common_struct(common: &SchemaStruct, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = format!("{pad}{{ {}", pair("name", quoted(&common.name)));
    if let Some(versions) = &common.versions {
        out.push_str(&format!(", {}", pair("versions", quoted(versions))));
    }
    if common.fields.is_empty() {
        // Kafka's struct entries always carry `fields`, even an empty one.
        out.push_str(", \"fields\": [] }");
    } else {
        close(&mut out, &common.fields, indent);
    }
    out
}

/// Ends an object begun in `out`: ` }` alone, or its nested `fields` and `]}`.
fn close(out: &mut String, fields: &[SchemaField], indent: usize) {
    if fields.is_empty() {
        out.push_str(" }");
        return;
    }
    let nested: Vec<String> = fields.iter().map(|f| field(f, indent + 2)).collect();
    out.push_str(&format!(
        ", \"fields\": [\n{}\n{}]}}",
        nested.join(",\n"),
        " ".repeat(indent)
    ));
}

/// A default in the form it was read in: a string, a number or a boolean.
fn default_value(default: &SchemaDefault) -> String {
    match default {
        SchemaDefault::Text(text) => quoted(text),
        SchemaDefault::Number(digits) if is_number(digits) => digits.clone(),
        // Not a number JSON can hold bare: a string keeps the file readable and the
        // text the same.
        SchemaDefault::Number(digits) => quoted(digits),
        SchemaDefault::Bool(flag) => flag.to_string(),
    }
}

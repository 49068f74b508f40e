//! `kwire schema`: a message's fields from its runtime schema, at one version or
//! with every field's versions, nested structs indented under their field; with
//! `--json`, the runtime's own export as Kafka's JSON schema file.

use std::io::Write;

use kwire::schema::{FieldSchema, MessageSchema, StructSchema};

use crate::cli::SchemaArgs;
use crate::error::CliError;
use crate::names;
use crate::target;

/// Kafka's structs nest a few levels; a schema deeper than this is cut off rather
/// than followed (no Kafka schema is recursive, but a user's could be).
const MAX_DEPTH: usize = 16;

/// One row of the table.
struct Row {
    depth: usize,
    name: String,
    ty: String,
    versions: String,
    notes: Vec<String>,
}

/// Runs the command.
pub fn run(args: &SchemaArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let schema = names::message(&args.name)?;
    if args.json {
        let text = schema
            .to_kafka_json()
            .map_err(|e| CliError::new(e.to_string()))?;
        return out
            .write_all(text.as_bytes())
            .map_err(|e| CliError::new(format!("cannot write the output: {e}")));
    }
    if let Some(version) = args.version {
        target::check_version(schema, version)?;
    }
    let mut rows = Vec::new();
    fields(&schema.body, args.version, 0, &mut rows);
    print(out, schema, args.version, &rows)
        .map_err(|e| CliError::new(format!("cannot write the output: {e}")))
}

/// The message's name and kind, what its versions are, and its documentation.
fn title(schema: &MessageSchema, version: Option<i16>) -> String {
    let mut parts = vec![schema.kind.to_string()];
    if let Some(key) = schema.api_key {
        parts.push(format!("API key {key}"));
    }
    match version {
        Some(version) => {
            let form = if schema.is_flexible(version) {
                "flexible: compact lengths, tagged fields"
            } else {
                "not flexible: int16/int32 lengths, no tagged fields"
            };
            parts.push(form.to_owned());
            format!("{} v{version} ({})", schema.name, parts.join(", "))
        }
        None => {
            parts.push(format!("versions {}", schema.valid_versions));
            parts.push(format!("flexible {}", schema.flexible_versions));
            if !schema.listeners.is_empty() {
                parts.push(format!("listeners {}", schema.listeners.join(" ")));
            }
            if schema.latest_version_unstable {
                parts.push("latest version unstable".to_owned());
            }
            format!("{} ({})", schema.name, parts.join(", "))
        }
    }
}

/// The rows for the fields of `schema` (those present at `version`, if given).
fn fields(schema: &StructSchema, version: Option<i16>, depth: usize, rows: &mut Vec<Row>) {
    for field in schema.fields {
        if version.is_some_and(|v| !field.versions.contains(v)) {
            continue;
        }
        rows.push(Row {
            depth,
            name: field.json_name(),
            ty: field.ty.to_string(),
            versions: field.versions.to_string(),
            notes: notes(field, version),
        });
        if let Some(inner) = field.ty.struct_schema() {
            if depth < MAX_DEPTH {
                fields(inner, version, depth + 1, rows);
            }
        }
    }
}

/// Nullability, tags, defaults and flags: at `version` what holds there, else
/// each with its versions.
fn notes(field: &FieldSchema, version: Option<i16>) -> Vec<String> {
    let mut notes = Vec::new();
    match version {
        Some(v) => {
            if field.is_nullable_at(v) {
                notes.push("nullable".to_owned());
            }
            if let (Some(tag), true) = (field.tag, field.is_tagged_at(v)) {
                notes.push(format!("tag {tag}"));
            }
        }
        None => {
            if !field.nullable_versions.is_empty() {
                notes.push(format!("nullable {}", field.nullable_versions));
            }
            if let Some(tag) = field.tag {
                notes.push(format!("tag {tag} in {}", field.tagged_versions));
            }
        }
    }
    if let Some(default) = field.default {
        notes.push(format!("default {default}"));
    }
    if field.ignorable {
        notes.push("ignorable".to_owned());
    }
    if let Some(flexible) = field.flexible_versions {
        notes.push(format!("flexible {flexible}"));
    }
    if field.map_key {
        notes.push("map key".to_owned());
    }
    if let Some(entity) = field.entity_type {
        notes.push(format!("entity {entity}"));
    }
    if field.zero_copy {
        notes.push("zero-copy".to_owned());
    }
    notes
}

fn print(
    out: &mut dyn Write,
    schema: &MessageSchema,
    version: Option<i16>,
    rows: &[Row],
) -> std::io::Result<()> {
    writeln!(out, "{}", title(schema, version))?;
    // The first paragraph: the rest of a message's doc comment is examples for
    // Rust readers.
    let about = schema.about.split("```").next().unwrap_or_default().trim();
    if !about.is_empty() {
        writeln!(out, "{about}")?;
    }
    if rows.is_empty() {
        return writeln!(out, "(no fields)");
    }
    let indent = |row: &Row| 2 * row.depth + row.name.len();
    let name_width = rows
        .iter()
        .map(indent)
        .max()
        .unwrap_or(0)
        .max("field".len());
    let ty_width = rows
        .iter()
        .map(|r| r.ty.len())
        .max()
        .unwrap_or(0)
        .max("type".len());
    let versions_width = "versions"
        .len()
        .max(rows.iter().map(|r| r.versions.len()).max().unwrap_or(0));
    writeln!(
        out,
        "  {:<name_width$}  {:<ty_width$}  {:<versions_width$}  notes",
        "field", "type", "versions"
    )?;
    for row in rows {
        let name = format!("{:pad$}{}", "", row.name, pad = 2 * row.depth);
        let line = format!(
            "  {name:<name_width$}  {:<ty_width$}  {:<versions_width$}  {}",
            row.ty,
            row.versions,
            row.notes.join(", ")
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

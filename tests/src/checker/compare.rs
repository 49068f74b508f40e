//! One schema against one runtime message: message keys, then fields in order,
//! recursively through nested structs and commonStructs.

use std::fmt;

use kwire::schema::{FieldSchema, MessageSchema, StructSchema};
use kwire::VersionRange;

use super::load::{SchemaDefault, SchemaField, SchemaMessage};
use super::meaning::{self, ValueClass};
use super::report::Report;
use super::resolve::{self, Shape};
use super::runtime_class;

/// Compares `schema` with the runtime `message` of the same name.
pub fn message(report: &mut Report, schema: &SchemaMessage, message: &MessageSchema) {
    let path = schema.name.as_str();
    report.compare(path, "type", schema.kind.as_str(), message.kind.as_str());
    report.compare(
        path,
        "apiKey",
        Shown(schema.api_key),
        Shown(message.api_key.map(i64::from)),
    );
    range(
        report,
        path,
        "validVersions",
        Some(&schema.valid_versions),
        message.valid_versions,
    );
    range(
        report,
        path,
        "flexibleVersions",
        schema.flexible_versions.as_deref(),
        message.flexible_versions,
    );
    report.compare(
        path,
        "listeners",
        List(schema.listeners.iter().map(String::as_str).collect()),
        List(message.listeners.to_vec()),
    );
    report.compare(
        path,
        "latestVersionUnstable",
        schema.latest_version_unstable,
        message.latest_version_unstable,
    );
    unknown_keys(report, path, &schema.unknown_keys);
    for common in &schema.common_structs {
        let common_path = format!("{path}.commonStructs.{}", common.name);
        unknown_keys(report, &common_path, &common.unknown_keys);
    }
    fields(report, path, schema, &schema.fields, message.body.fields);
    if !message.flexible_versions.is_empty() {
        keeps_unknown_tags(report, path, &message.body);
    }
}

/// In a message with flexible versions every struct must keep the tags it does not
/// know, or decoding a newer peer's message fails instead of round-tripping.
fn keeps_unknown_tags(report: &mut Report, path: &str, schema: &StructSchema) {
    if !schema.keeps_unknown_tags {
        report.differ(
            path,
            "struct has no `unknown_tagged` field to keep unknown tags",
        );
    }
    for field in schema.fields {
        if let Some(nested) = field.ty.struct_schema() {
            let suffix = if matches!(field.ty, kwire::schema::TypeSchema::Array(_)) {
                "[]"
            } else {
                ""
            };
            keeps_unknown_tags(report, &format!("{path}.{}{suffix}", field.name), nested);
        }
    }
}

/// Compares two field lists: presence, order, then each pair.
fn fields(
    report: &mut Report,
    parent: &str,
    message: &SchemaMessage,
    schema: &[SchemaField],
    runtime: &[FieldSchema],
) {
    for (index, field) in runtime.iter().enumerate() {
        if runtime[..index].iter().any(|f| f.name == field.name) {
            report.differ(
                &format!("{parent}.{}", field.name),
                "duplicate field in struct",
            );
        }
    }
    for (index, field) in schema.iter().enumerate() {
        if schema[..index].iter().any(|f| f.name == field.name) {
            report.differ(
                &format!("{parent}.{}", field.name),
                "duplicate field in schema",
            );
        }
    }
    for field in schema {
        let path = format!("{parent}.{}", field.name);
        match runtime.iter().find(|r| r.name == field.name) {
            Some(r) => {
                report.fields += 1;
                pair(report, &path, message, field, r);
            }
            None => report.differ(&path, missing(field)),
        }
    }
    for field in runtime {
        if !schema.iter().any(|s| s.name == field.name) {
            let path = format!("{parent}.{}", field.name);
            report.differ(
                &path,
                format!("extra field in struct (versions {})", field.versions),
            );
        }
    }
    order(report, parent, schema, runtime);
}

fn missing(field: &SchemaField) -> String {
    let versions = field.versions.as_deref().unwrap_or("?");
    match field.tag {
        Some(tag) => format!("missing field (versions {versions}, tag {tag})"),
        None => format!("missing field (versions {versions})"),
    }
}

/// Reports fields present on both sides whose relative order differs.
fn order(report: &mut Report, parent: &str, schema: &[SchemaField], runtime: &[FieldSchema]) {
    let in_schema: Vec<&str> = schema
        .iter()
        .map(|f| f.name.as_str())
        .filter(|name| runtime.iter().any(|r| r.name == *name))
        .collect();
    let in_struct: Vec<&str> = runtime
        .iter()
        .map(|f| f.name)
        .filter(|name| schema.iter().any(|s| s.name == *name))
        .collect();
    for (expected, actual) in in_schema.iter().zip(&in_struct) {
        if expected != actual {
            let schema_at = position(schema.iter().map(|f| f.name.as_str()), expected);
            let struct_at = position(runtime.iter().map(|f| f.name), expected);
            report.differ(
                &format!("{parent}.{expected}"),
                format!("out of order: field {schema_at} in schema, {struct_at} in struct"),
            );
        }
    }
}

fn position<'a>(mut names: impl Iterator<Item = &'a str>, name: &str) -> usize {
    names.position(|n| n == name).map_or(0, |i| i + 1)
}

/// Compares one field with its runtime counterpart, then its nested struct.
fn pair(
    report: &mut Report,
    path: &str,
    message: &SchemaMessage,
    s: &SchemaField,
    r: &FieldSchema,
) {
    let runtime_type = r.ty.to_string();
    report.compare(path, "type", s.ty.trim(), runtime_type.as_str());
    match &s.versions {
        Some(v) => range(report, path, "versions", Some(v), r.versions),
        None => report.differ(path, "no versions in schema"),
    }
    range(
        report,
        path,
        "nullableVersions",
        s.nullable_versions.as_deref(),
        r.nullable_versions,
    );
    range(
        report,
        path,
        "taggedVersions",
        s.tagged_versions.as_deref(),
        r.tagged_versions,
    );
    report.compare(path, "tag", Shown(s.tag), Shown(r.tag.map(i64::from)));
    report.compare(path, "ignorable", s.ignorable, r.ignorable);
    let schema_default = s.default.as_ref().map(SchemaDefault::to_text);
    report.compare(
        path,
        "default",
        meaning::default(ValueClass::of_schema_type(&s.ty), schema_default.as_deref()),
        meaning::default(runtime_class::of_type(&r.ty), r.default),
    );
    flexible_override(
        report,
        path,
        s.flexible_versions.as_deref(),
        r.flexible_versions,
    );
    report.compare(path, "mapKey", s.map_key, r.map_key);
    report.compare(
        path,
        "entityType",
        Shown(s.entity_type.as_deref()),
        Shown(r.entity_type),
    );
    report.compare(path, "zeroCopy", s.zero_copy, r.zero_copy);
    let (schema_about, struct_about) = (meaning::about(&s.about), meaning::about(r.about));
    if schema_about != struct_about {
        report.differ(
            path,
            format!("about {schema_about:?} in schema, {struct_about:?} in struct"),
        );
    }
    unknown_keys(report, path, &s.unknown_keys);
    let (is_array, _) = resolve::element(&s.ty);
    let nested = format!("{path}{}", if is_array { "[]" } else { "" });
    match resolve::shape(message, s) {
        Shape::Plain if !s.fields.is_empty() => report.differ(
            path,
            format!("inline fields on type {} in schema", s.ty.trim()),
        ),
        Shape::Unknown(name) => report.differ(
            path,
            format!("type {name} is not a primitive, an inline struct or a commonStruct"),
        ),
        shape => {
            if let (Some((_, fields_of)), Some(inner)) =
                (shape.struct_fields(), r.ty.struct_schema())
            {
                fields(report, &nested, message, fields_of, inner.fields);
            }
        }
    }
}

/// A range key, absent meaning none.
fn range(report: &mut Report, path: &str, key: &str, schema: Option<&str>, runtime: VersionRange) {
    match meaning::range(schema) {
        Ok(parsed) => report.compare(path, key, Ranged(parsed), Ranged(runtime)),
        Err(e) => report.differ(path, format!("{key} in schema does not parse: {e}")),
    }
}

/// The field-level flexibleVersions, where absent (inherited) differs from `none`.
fn flexible_override(
    report: &mut Report,
    path: &str,
    schema: Option<&str>,
    runtime: Option<VersionRange>,
) {
    let parsed = match schema {
        None => None,
        Some(text) => match meaning::range(Some(text)) {
            Ok(r) => Some(r),
            Err(e) => {
                return report.differ(
                    path,
                    format!("flexibleVersions in schema does not parse: {e}"),
                )
            }
        },
    };
    report.compare(
        path,
        "flexibleVersions",
        Override(parsed.map(Ranged)),
        Override(runtime.map(Ranged)),
    );
}

fn unknown_keys(report: &mut Report, path: &str, keys: &[String]) {
    for key in keys {
        report.differ(
            path,
            format!("schema key `{key}` is unknown to the checker"),
        );
    }
}

/// A range compared by meaning (every empty range is `none`).
#[derive(Debug, Clone, Copy)]
struct Ranged(VersionRange);

impl PartialEq for Ranged {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_as(other.0)
    }
}

impl fmt::Display for Ranged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A field-level override, shown as `absent` when inherited.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Override(Option<Ranged>);

impl fmt::Display for Override {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(range) => range.fmt(f),
            None => f.write_str("absent"),
        }
    }
}

/// An optional value, shown as `absent` when missing.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Shown<T>(Option<T>);

impl<T: fmt::Display> fmt::Display for Shown<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(value) => value.fmt(f),
            None => f.write_str("absent"),
        }
    }
}

/// A list shown as `[a, b]`.
#[derive(Debug, Clone, PartialEq)]
struct List<'a>(Vec<&'a str>);

impl fmt::Display for List<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.0.join(", "))
    }
}

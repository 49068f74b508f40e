//! The struct being compiled, as a Kafka JSON schema in the compatibility rules'
//! terms: what its attributes say. Types are left out (`Types::Skipped`): the macro
//! cannot see them, so the compiler checks them (`types`).

use kwire_schema::{SchemaDefault, SchemaField, SchemaMessage};

use crate::model::{Container, DefaultValue, Field, Kind};
use crate::range::Range;

/// The message `container` defines, compared against `released`.
pub fn message(container: &Container, released: &SchemaMessage) -> Option<SchemaMessage> {
    let attrs = container.message.as_ref()?;
    let kind = match attrs.kind {
        Kind::Request => "request",
        Kind::Response => "response",
        Kind::Header => "header",
        Kind::Data => "data",
    };
    Some(SchemaMessage {
        file: released.file.clone(),
        name: container.name.clone(),
        kind: kind.to_owned(),
        api_key: attrs.api_key.and_then(|k| i64::try_from(k.value).ok()),
        valid_versions: attrs.versions.range.to_string(),
        flexible_versions: Some(attrs.flexible.range.to_string()),
        listeners: attrs.listeners.clone(),
        latest_version_unstable: attrs.latest_version_unstable.is_some(),
        fields: fields(container),
        common_structs: Vec::new(),
        unknown_keys: Vec::new(),
    })
}

/// The fields of `container`, without types: with types skipped the rules read
/// both sides' defaults by the released type.
pub fn fields(container: &Container) -> Vec<SchemaField> {
    container.fields.iter().map(schema_field).collect()
}

fn schema_field(field: &Field) -> SchemaField {
    let text = |range: Range| (!range.is_empty()).then(|| range.to_string());
    SchemaField {
        name: field.name.clone(),
        ty: String::new(),
        versions: Some(field.versions.range.to_string()),
        nullable_versions: field.nullable.and_then(|n| text(n.range)),
        tagged_versions: text(field.tagged.range),
        tag: field
            .tag
            .map(|t| i64::try_from(t.value).unwrap_or(i64::MAX)),
        ignorable: field.ignorable,
        default: field
            .default
            .as_ref()
            .map(|d| SchemaDefault::Text(DefaultValue::schema_text(d))),
        flexible_versions: field.flexible.map(|f| f.range.to_string()),
        map_key: field.map_key.is_some(),
        entity_type: field.entity_type.as_ref().map(syn::LitStr::value),
        zero_copy: field.zero_copy.is_some(),
        about: field.about.clone(),
        fields: Vec::new(),
        unknown_keys: Vec::new(),
    }
}

//! Kafka's JSON field rules: when a field is written, and what reading refuses.

use serde_json::{Map, Value};

use super::{JsonError, JsonErrorKind, JsonWire};
use crate::schema::FieldSchema;

/// The rules for one field of a derived struct, for every JSON-capable type: what
/// generated code calls once per field and direction. Not called by hand.
pub trait JsonField: JsonWire {
    /// Writes the field into `object` as `name` when `version` has it; drops it
    /// when the version lacks it and it is ignorable or holds its default; refuses
    /// it otherwise.
    fn write_json_field(
        &self,
        object: &mut Map<String, Value>,
        name: &'static str,
        field: &FieldSchema,
        version: i16,
        is_default: fn(&Self) -> bool,
    ) -> Result<(), JsonError> {
        if !field.versions.contains(version) {
            if field.ignorable || is_default(self) {
                return Ok(());
            }
            return Err(JsonError::new(JsonErrorKind::NotInVersion { version }).in_field(name));
        }
        if self.is_null() && !field.nullable_versions.contains(version) {
            return Err(JsonError::new(JsonErrorKind::NotNullable { version }).in_field(name));
        }
        let value = self.write_json(version).map_err(|e| e.in_field(name))?;
        object.insert(name.to_owned(), value);
        Ok(())
    }

    /// Reads the field `name` from `object` into `self`, which holds its default.
    fn read_json_field(
        &mut self,
        object: &Map<String, Value>,
        name: &'static str,
        field: &FieldSchema,
        version: i16,
        is_default: fn(&Self) -> bool,
    ) -> Result<(), JsonError> {
        let in_version = field.versions.contains(version);
        let Some(json) = object.get(name) else {
            return if in_version {
                Err(JsonError::new(JsonErrorKind::Missing { version }).in_field(name))
            } else {
                Ok(())
            };
        };
        if json.is_null() && in_version && !field.nullable_versions.contains(version) {
            return Err(JsonError::new(JsonErrorKind::NotNullable { version }).in_field(name));
        }
        let value = Self::read_json(json, version).map_err(|e| e.in_field(name))?;
        if !in_version && !field.ignorable && !is_default(&value) {
            return Err(JsonError::new(JsonErrorKind::NotInVersion { version }).in_field(name));
        }
        *self = value;
        Ok(())
    }
}

impl<T: JsonWire> JsonField for T {}

/// The JSON object a struct is read from.
pub fn object(value: &Value) -> Result<&Map<String, Value>, JsonError> {
    value
        .as_object()
        .ok_or_else(|| JsonError::wrong_type("an object", value))
}

/// Refuses a key of `object` that is none of `fields`.
pub fn check_keys(object: &Map<String, Value>, fields: &[&'static str]) -> Result<(), JsonError> {
    match object.keys().find(|key| !fields.contains(&key.as_str())) {
        None => Ok(()),
        Some(key) => Err(JsonError::new(JsonErrorKind::UnknownField {
            key: key.clone(),
            known: fields.join(", "),
        })),
    }
}

//! Kafka's JSON field rules: when a field is written, and what reading refuses.
//! What generated code calls; reached through `kwire::__private_<version>` only.
//!
//! Whether a version has a field's value, and null, follow Kafka's presence rule,
//! the same as the binary codec's (`field_rules::presence`); what is the JSON
//! form's own is here: every field the version has must be given (but a tagged
//! field holding its default is left out, as Kafka's converter leaves it out), and
//! a key that is no field is refused.

use serde_json::{Map, Value};

use super::{JsonError, JsonErrorKind, JsonWire};
use crate::field_rules::presence::{self, Refusal};
use crate::schema::FieldSchema;

/// The rules for one field of a derived struct, for every JSON-capable type: what
/// generated code calls once per field and direction. Not called by hand.
pub trait JsonField: JsonWire {
    /// Writes the field into `object` as `name` when `version` has it (a tagged
    /// field only when it differs from its default); drops it when the version
    /// lacks it and it is ignorable or holds its default; refuses it otherwise,
    /// and null where the version does not allow it.
    fn write_json_field(
        &self,
        object: &mut Map<String, Value>,
        name: &'static str,
        field: &FieldSchema,
        version: i16,
        is_default: fn(&Self) -> bool,
    ) -> Result<(), JsonError> {
        let refused = |refusal| refusal_error(refusal, name, version);
        if !presence::in_version(field, version, || is_default(self)).map_err(refused)? {
            return Ok(());
        }
        // Kafka's converter writes a tagged field only when it differs from its
        // default, as the binary form does.
        if field.is_tagged_at(version) && is_default(self) {
            return Ok(());
        }
        presence::null_allowed(field, version, self.is_null()).map_err(refused)?;
        let value = self.write_json(version).map_err(|e| e.in_field(name))?;
        object.insert(name.to_owned(), value);
        Ok(())
    }

    /// Reads the field `name` from `object` into `self`, which holds its default:
    /// a field the version has must be there unless it is tagged there; one it
    /// lacks is taken only when ignorable or holding its default; null only where
    /// the version allows it.
    fn read_json_field(
        &mut self,
        object: &Map<String, Value>,
        name: &'static str,
        field: &FieldSchema,
        version: i16,
        is_default: fn(&Self) -> bool,
    ) -> Result<(), JsonError> {
        let refused = |refusal| refusal_error(refusal, name, version);
        let in_version = field.versions.contains(version);
        let Some(json) = object.get(name) else {
            // A tagged field left out holds its default (Kafka's converter leaves
            // it out when it does).
            return if in_version && !field.is_tagged_at(version) {
                Err(JsonError::new(JsonErrorKind::Missing { version }).in_field(name))
            } else {
                Ok(())
            };
        };
        if in_version {
            presence::null_allowed(field, version, json.is_null()).map_err(refused)?;
        }
        let value = Self::read_json(json, version).map_err(|e| e.in_field(name))?;
        presence::in_version(field, version, || is_default(&value)).map_err(refused)?;
        *self = value;
        Ok(())
    }
}

impl<T: JsonWire> JsonField for T {}

/// Kafka's refusal as the JSON form's error, at the field `name`.
fn refusal_error(refusal: Refusal, name: &'static str, version: i16) -> JsonError {
    let kind = match refusal {
        Refusal::NotInVersion => JsonErrorKind::NotInVersion { version },
        Refusal::NullNotAllowed => JsonErrorKind::NotNullable { version },
    };
    JsonError::new(kind).in_field(name)
}

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

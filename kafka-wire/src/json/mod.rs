//! Kafka's JSON form of every message (feature `json`), as Kafka's generated
//! `<Message>JsonConverter` writes and reads it: camelCase field names, exactly the
//! fields the version has (a tagged one only when it differs from its default, as
//! in the binary form; read as its default when left out), `int64` as JSON
//! numbers, `uuid` as
//! URL-safe base64 without padding, `bytes` and `records` as standard base64, and
//! `null` for null.
//!
//! The derive generates each struct's conversion from the same field model as its
//! binary codec, and the rules are the runtime's, not the expansion's; whether a
//! version has a field's value, and where null is allowed, is one rule for the
//! binary codec and the JSON form (Kafka's):
//!
//! - writing: a field the version has is always written; a field it lacks is
//!   dropped when ignorable or holding its default, and refused otherwise (Kafka's
//!   "Attempted to write a non-default ... at version");
//! - reading: a field the version has must be there; one it lacks is read if
//!   present, and refused when it holds a non-default value and is not ignorable
//!   (the value could not be written at that version); null only where the version
//!   allows it; numbers must fit their type; a key that is no field is refused
//!   (Kafka's converter ignores it; here nothing given is dropped silently).
//!
//! Unknown tagged fields have no JSON form (Kafka's converter has none either).
//!
//! ```
//! use kwire::{KafkaString, Message, UnknownTaggedFields};
//!
//! /// Asks for seats.
//! #[derive(Debug, Clone, PartialEq, kwire::Message)]
//! #[kafka(api_key = 1000, kind = request, versions = "0-2", flexible = "2+")]
//! struct HoldSeatsRequest {
//!     /// The show.
//!     #[kafka(versions = "0+")]
//!     show_id: KafkaString,
//!     /// How long, in seconds.
//!     #[kafka(versions = "2+", tag = 0, default = 600)]
//!     hold_seconds: i32,
//!     /// Tags this code does not know.
//!     #[kafka(unknown_tagged)]
//!     unknown_tagged_fields: UnknownTaggedFields,
//! }
//!
//! let request = HoldSeatsRequest { show_id: "hamlet".into(), ..Default::default() };
//! // `holdSeconds` is tagged and holds its default: left out, as Kafka leaves it out.
//! assert_eq!(request.to_json(2)?, serde_json::json!({"showId": "hamlet"}));
//! let longer = HoldSeatsRequest { hold_seconds: 900, ..request.clone() };
//! let json = longer.to_json(2)?;
//! assert_eq!(json, serde_json::json!({"showId": "hamlet", "holdSeconds": 900}));
//! assert_eq!(HoldSeatsRequest::from_json(&json, 2)?, longer);
//! assert_eq!(HoldSeatsRequest::from_json(&serde_json::json!({"showId": "hamlet"}), 2)?, request);
//! assert_eq!(request.to_json(0)?, serde_json::json!({"showId": "hamlet"}));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
// What generated code calls per field and struct, reached through
// `kwire::__private_<version>` only: no part of the public API.
pub(crate) mod field;
mod values;

pub use error::{JsonError, JsonErrorKind};
pub use serde_json::{Map, Value};

/// A value with a JSON form: every Kafka type, and every derived struct.
///
/// The version matters only to structs (their fields depend on it); nullability,
/// and whether a field is written at all, are rules of the field that holds the
/// value, which derived structs apply.
pub trait JsonWire: Sized {
    /// The value in Kafka's JSON form at `version`.
    fn write_json(&self, version: i16) -> Result<Value, JsonError>;

    /// Reads the value from Kafka's JSON form at `version`.
    fn read_json(value: &Value, version: i16) -> Result<Self, JsonError>;

    /// True for a null (`None`) value.
    fn is_null(&self) -> bool {
        false
    }

    /// Removes the unknown tagged fields, here and in every struct inside: the
    /// JSON form has no place for them, so this is what a value holds once it has
    /// been through its JSON form (as through Kafka's converter).
    fn drop_unknown_tags(&mut self) {}
}

//! What goes wrong between a message and Kafka's JSON form, and where.

use std::fmt;

use crate::error::{FieldPath, PathSegment};

/// An error converting a message to or from Kafka's JSON form, with the JSON path
/// of the value at fault (`topics[3].partitions[0].errorCode`).
///
/// ```
/// use kwire::json::JsonErrorKind;
/// use kwire::{KafkaString, Message};
///
/// /// Some topics.
/// #[derive(Debug, Clone, PartialEq, kwire::Message)]
/// #[kafka(kind = data, versions = "0")]
/// struct Topics {
///     /// Their names.
///     #[kafka(versions = "0+")]
///     names: Vec<KafkaString>,
/// }
///
/// let json = serde_json::json!({"names": ["a", 7]});
/// let err = Topics::from_json(&json, 0).unwrap_err();
/// assert_eq!(err.path().to_string(), "names[1]");
/// assert!(matches!(err.kind(), JsonErrorKind::WrongType { expected: "a string", .. }));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct JsonError {
    path: FieldPath,
    kind: JsonErrorKind,
}

/// What went wrong, without where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// A value of another JSON type than the field's.
    #[error("expected {expected}, found {found}")]
    WrongType {
        /// What the field's type is written as.
        expected: &'static str,
        /// What was there instead, shortened.
        found: String,
    },
    /// A number outside the range of the field's type.
    #[error("{value} does not fit {ty}")]
    OutOfRange {
        /// The number as written.
        value: String,
        /// The Kafka type.
        ty: &'static str,
    },
    /// Base64 that does not decode, or a UUID that is not 16 bytes.
    #[error("{0}")]
    BadEncoding(String),
    /// A field the version has is missing (Kafka's converter requires every one).
    #[error("missing: the field exists in version {version}")]
    Missing {
        /// The version read at.
        version: i16,
    },
    /// A field the version lacks holds a value other than its default, and the
    /// field is not ignorable: the value would be lost.
    #[error("holds a non-default value, but the field does not exist in version {version} and is not ignorable")]
    NotInVersion {
        /// The version.
        version: i16,
    },
    /// Null where the version does not allow it.
    #[error("null, but the field is not nullable in version {version}")]
    NotNullable {
        /// The version.
        version: i16,
    },
    /// An object key that is no field of the struct (Kafka's converter would
    /// ignore it; here nothing the user gave is dropped without an error).
    #[error("no field {key:?} (the fields are {known})")]
    UnknownField {
        /// The key found.
        key: String,
        /// The struct's JSON field names, comma-separated.
        known: String,
    },
    /// The message does not exist at the version.
    #[error("{message} has no version {version}")]
    UnsupportedVersion {
        /// The message.
        message: &'static str,
        /// The version asked for.
        version: i16,
    },
    /// No message with this API key in the enum.
    #[error("no message with API key {0}")]
    UnknownApiKey(i16),
}

impl JsonError {
    /// An error at the value being converted; the path is added as it travels up.
    pub fn new(kind: JsonErrorKind) -> Self {
        JsonError {
            path: FieldPath::default(),
            kind,
        }
    }

    /// The value's type was not `expected`.
    pub(crate) fn wrong_type(expected: &'static str, found: &serde_json::Value) -> Self {
        let mut found = found.to_string();
        if found.len() > 40 {
            let cut = (0..=37)
                .rev()
                .find(|&i| found.is_char_boundary(i))
                .unwrap_or(0);
            found.truncate(cut);
            found.push_str("...");
        }
        JsonError::new(JsonErrorKind::WrongType { expected, found })
    }

    /// Where it happened.
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// What happened.
    pub fn kind(&self) -> &JsonErrorKind {
        &self.kind
    }

    /// The same error, inside the field `name`.
    pub(crate) fn in_field(mut self, name: &'static str) -> Self {
        self.path.push(PathSegment::Name(name));
        self
    }

    /// The same error, inside element `index` of an array.
    pub(crate) fn at_index(mut self, index: usize) -> Self {
        self.path.push(PathSegment::Index(index));
        self
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.path, self.kind)
        }
    }
}

impl std::error::Error for JsonError {}

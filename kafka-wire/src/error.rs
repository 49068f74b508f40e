//! Typed errors for decoding and encoding, each with the path of the field at fault.

use std::fmt;

use crate::VersionRange;

/// Where in a message an error happened: `ApiVersionsResponse.ApiKeys[].MinVersion`.
///
/// Built from the inside out as an error travels up, so the happy path pays nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPath {
    /// Segments from the innermost out; `"[]"` marks an array element.
    reversed: Vec<&'static str>,
}

impl FieldPath {
    fn push(&mut self, segment: &'static str) {
        self.reversed.push(segment);
    }

    /// True when no field has been named yet.
    pub fn is_empty(&self) -> bool {
        self.reversed.is_empty()
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for segment in self.reversed.iter().rev() {
            if *segment != "[]" && !first {
                f.write_str(".")?;
            }
            f.write_str(segment)?;
            first = false;
        }
        Ok(())
    }
}

/// What went wrong while decoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ended before a value was complete.
    #[error("unexpected end of input: needed {needed} more bytes, {remaining} remain")]
    UnexpectedEof {
        /// Bytes the value needed.
        needed: usize,
        /// Bytes that were left.
        remaining: usize,
    },
    /// A length prefix was negative (other than the null marker) or otherwise impossible.
    #[error("invalid length {0}")]
    InvalidLength(i64),
    /// An array claimed more elements than the remaining input could hold.
    #[error("array of {count} elements cannot fit in the {remaining} bytes that remain")]
    ArrayTooLong {
        /// The claimed element count.
        count: u64,
        /// Bytes left in the input.
        remaining: usize,
    },
    /// A string was longer than Kafka allows (32767 bytes).
    #[error("string of {0} bytes is longer than the 32767 Kafka allows")]
    StringTooLong(u64),
    /// A string was not valid UTF-8.
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
    /// A varint ran over its maximum length.
    #[error("varint is longer than {0} bytes")]
    VarintTooLong(usize),
    /// A null value in a version where the field is not nullable.
    #[error("null value in version {version}, where the field is not nullable")]
    UnexpectedNull {
        /// The version being decoded.
        version: i16,
    },
    /// A tagged field did not use exactly the bytes its size prefix declared.
    #[error("tagged field {tag} declared {declared} bytes but its value used {used}")]
    TaggedFieldSize {
        /// The tag.
        tag: u32,
        /// The declared size.
        declared: usize,
        /// The bytes actually read.
        used: usize,
    },
    /// An unknown tag arrived for a struct that has no `unknown_tagged` field to keep it.
    #[error("unknown tag {0}, and this struct has no field to keep unknown tags")]
    UnknownTagNotKept(u32),
    /// The message does not exist at this version.
    #[error("version {version} is not supported (valid versions: {valid})")]
    UnsupportedVersion {
        /// The version asked for.
        version: i16,
        /// The versions that exist.
        valid: VersionRange,
    },
    /// Bytes were left over after a whole message was read.
    #[error("{0} bytes left over after the message")]
    TrailingBytes(usize),
    /// A value that parsed but means nothing (e.g. a frame length below the header size).
    #[error("{0}")]
    Invalid(&'static str),
}

/// An input that could not be decoded: what, where (field path) and at which byte.
///
/// ```
/// use bytes::Bytes;
/// use kafka_wire::{DecodeErrorKind, Wire, Cx, Reader};
///
/// let input = Bytes::from_static(&[0x00]);
/// let mut reader = Reader::new(&input);
/// let err = i32::read(&mut reader, Cx::new(0, false)).unwrap_err();
/// assert!(matches!(err.kind(), DecodeErrorKind::UnexpectedEof { needed: 4, remaining: 1 }));
/// assert_eq!(err.offset(), 0);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    offset: usize,
    path: FieldPath,
}

impl DecodeError {
    /// An error of `kind` at byte `offset` of the input.
    #[cold]
    pub fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        DecodeError {
            kind,
            offset,
            path: FieldPath::default(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.kind
    }

    /// The byte offset in the input where it went wrong.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The field it happened in, e.g. `ApiVersionsResponse.ApiKeys[].MinVersion`.
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// Adds an enclosing field or message name to the path.
    #[cold]
    pub fn within(mut self, segment: &'static str) -> Self {
        self.path.push(segment);
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{} at byte {}", self.kind, self.offset)
        } else {
            write!(f, "{}: {} at byte {}", self.path, self.kind, self.offset)
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

/// What went wrong while encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The message does not exist at this version.
    #[error("version {version} is not supported (valid versions: {valid})")]
    UnsupportedVersion {
        /// The version asked for.
        version: i16,
        /// The versions that exist.
        valid: VersionRange,
    },
    /// A field holding a non-default value is missing from this version and not ignorable.
    #[error("field is set but does not exist in version {version} and is not ignorable")]
    FieldNotInVersion {
        /// The version being written.
        version: i16,
    },
    /// Null in a version where the field is not nullable.
    #[error("null value, but the field is not nullable in version {version}")]
    NullNotAllowed {
        /// The version being written.
        version: i16,
    },
    /// Tagged fields (known or unknown) on a version that is not flexible.
    #[error("tagged fields are not supported at version {version}")]
    TaggedFieldsNotSupported {
        /// The version being written.
        version: i16,
    },
    /// A string longer than Kafka's 32767-byte limit.
    #[error("string of {0} bytes is longer than the 32767 Kafka allows")]
    StringTooLong(usize),
    /// A bytes value or array too long for its int32 length.
    #[error("length {0} does not fit the wire format's int32 length")]
    TooLong(usize),
    /// An unknown tagged field reuses a known tag, or unknown tags repeat.
    #[error("unknown tagged field {0} clashes with another field of the same tag")]
    TagClash(u32),
}

/// A value that cannot be written at the requested version, with the field at fault.
///
/// ```
/// use kafka_wire::{EncodeError, EncodeErrorKind};
///
/// let err = EncodeError::new(EncodeErrorKind::NullNotAllowed { version: 2 })
///     .within("ClientId")
///     .within("RequestHeader");
/// assert_eq!(
///     err.to_string(),
///     "RequestHeader.ClientId: null value, but the field is not nullable in version 2"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    kind: EncodeErrorKind,
    path: FieldPath,
}

impl EncodeError {
    /// An error of `kind` with an empty path.
    #[cold]
    pub fn new(kind: EncodeErrorKind) -> Self {
        EncodeError {
            kind,
            path: FieldPath::default(),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.kind
    }

    /// The field at fault, e.g. `ApiVersionsRequest.ClusterId`.
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// Adds an enclosing field or message name to the path.
    #[cold]
    pub fn within(mut self, segment: &'static str) -> Self {
        self.path.push(segment);
        self
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{}: {}", self.path, self.kind)
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.kind)
    }
}

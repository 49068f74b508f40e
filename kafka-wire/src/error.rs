//! Typed errors for decoding and encoding, each with the path of the field at fault.

use std::fmt;

use crate::VersionRange;

/// The most field names a [`FieldPath`] keeps: the message and four nested fields,
/// which covers all but the deepest Kafka messages
/// (`FetchResponse.Responses[].Partitions[].AbortedTransactions[].ProducerId`).
/// Deeper paths keep the outermost name and the innermost ones, with `…` between
/// them. More would make errors 128 bytes or larger, beyond which returning them in a
/// `Result` costs every caller (and trips clippy's `result_large_err` in users' code).
const MAX_NAMES: usize = 5;

/// Stands for the names dropped from a deep path.
const ELIDED: &str = "…";

/// The segment array codecs add for "inside an element of this array".
const ELEMENT: &str = "[]";

/// Where in a message an error happened: `ApiVersionsResponse.ApiKeys[].MinVersion`.
///
/// Built from the inside out as an error travels up, so the happy path pays nothing.
/// Held inline, without allocating: an error on hostile input costs no memory beyond
/// its own value.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct FieldPath {
    /// Names from the innermost out; unused slots are empty. When full, the last slot
    /// holds the outermost name and the one before it [`ELIDED`].
    reversed: [&'static str; MAX_NAMES],
    /// Bit `i` set: the name in slot `i` is an array the error is inside an element of.
    arrays: u8,
    /// An element marker waiting for the array's name, pushed next.
    element_pending: bool,
}

impl FieldPath {
    /// Adds an enclosing segment: a field or message name, or `"[]"` for an array
    /// element; empty segments are ignored.
    #[inline]
    fn push(&mut self, segment: &'static str) {
        if segment == ELEMENT {
            self.element_pending = true;
            return;
        }
        if segment.is_empty() {
            return;
        }
        let array_bit = u8::from(std::mem::take(&mut self.element_pending));
        let slot = match self.reversed.iter().position(|slot| slot.is_empty()) {
            Some(free) => free,
            None => {
                self.reversed[MAX_NAMES - 2] = ELIDED;
                self.arrays &= !(1 << (MAX_NAMES - 2));
                self.arrays &= !(1 << (MAX_NAMES - 1));
                MAX_NAMES - 1
            }
        };
        self.reversed[slot] = segment;
        self.arrays |= array_bit << slot;
    }

    /// True when no field has been named yet.
    pub fn is_empty(&self) -> bool {
        self.reversed[0].is_empty() && !self.element_pending
    }

    /// The names from the outermost in, each with whether it is an array element.
    fn outer_to_inner(&self) -> impl Iterator<Item = (&'static str, bool)> + '_ {
        (0..MAX_NAMES)
            .rev()
            .filter(|&i| !self.reversed[i].is_empty())
            .map(|i| (self.reversed[i], self.arrays & (1 << i) != 0))
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.element_pending {
            f.write_str(ELEMENT)?;
        }
        for (i, (name, array)) in self.outer_to_inner().enumerate() {
            if i > 0 || self.element_pending {
                f.write_str(".")?;
            }
            f.write_str(name)?;
            if array {
                f.write_str(ELEMENT)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("FieldPath").field(&self.to_string()).finish()
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
    // Inline, not cold: a caller that sees the error built knows it is an error, so
    // its error path never rejoins the fast path (which would force reloads there).
    #[inline]
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
    #[inline]
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
    // Inline for the same reason as `DecodeError::new`.
    #[inline]
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
    #[inline]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_stay_small_enough_to_return_cheaply() {
        assert!(std::mem::size_of::<DecodeError>() < 128);
        assert!(std::mem::size_of::<EncodeError>() < 128);
    }

    #[test]
    fn paths_read_from_the_outside_in() {
        let err = DecodeError::new(DecodeErrorKind::InvalidUtf8, 7)
            .within("Name")
            .within("[]")
            .within("Topics")
            .within("MetadataResponse");
        assert_eq!(err.path().to_string(), "MetadataResponse.Topics[].Name");
        assert_eq!(
            err.to_string(),
            "MetadataResponse.Topics[].Name: string is not valid UTF-8 at byte 7"
        );
    }

    #[test]
    fn kafka_depth_paths_are_whole_and_deeper_ones_keep_both_ends() {
        let fetch = [
            "ProducerId",
            "[]",
            "AbortedTransactions",
            "[]",
            "Partitions",
            "[]",
            "Responses",
            "FetchResponse",
        ];
        let mut err = DecodeError::new(DecodeErrorKind::InvalidUtf8, 0);
        for segment in fetch {
            err = err.within(segment);
        }
        assert_eq!(
            err.path().to_string(),
            "FetchResponse.Responses[].Partitions[].AbortedTransactions[].ProducerId"
        );
        let deeper = ["E", "D", "[]", "C", "B", "[]", "A", "Message"];
        let mut err = DecodeError::new(DecodeErrorKind::InvalidUtf8, 0);
        for segment in deeper {
            err = err.within(segment);
        }
        assert_eq!(err.path().to_string(), "Message.….C[].D.E");
        let shallow = DecodeError::new(DecodeErrorKind::InvalidUtf8, 0)
            .within("[]")
            .within("Partitions")
            .within("[]")
            .within("Responses")
            .within("FetchResponse");
        assert_eq!(
            shallow.path().to_string(),
            "FetchResponse.Responses[].Partitions[]"
        );
    }
}

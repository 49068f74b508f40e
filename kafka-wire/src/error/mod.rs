//! Typed errors for decoding and encoding, each with the path of the field at fault.
//!
//! An error is one boxed value: `Result`s stay a pointer wide on the happy path, and
//! a path of any depth fits. Each fact is said once: [`Display`](std::fmt::Display)
//! prints the whole error and `source()` is `None`, since the kind is the error
//! itself, not a cause of it.

mod path;

use std::fmt;

use crate::VersionRange;

pub use path::{FieldPath, PathSegment};

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
    /// An array claimed more elements than the remaining input could hold, each
    /// taking at least its smallest encoding at this version.
    #[error("array of {count} elements of at least {element_min_size} bytes each cannot fit in the {remaining} bytes that remain")]
    ArrayTooLong {
        /// The claimed element count.
        count: u64,
        /// The fewest bytes one element takes at this version.
        element_min_size: usize,
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
    /// Tags of a tagged section did not strictly ascend (a repeat included). Kafka
    /// writes them in ascending order and refuses to write any other.
    #[error("tag {tag} follows tag {previous}: tagged fields must come in ascending tag order, each once")]
    TagsOutOfOrder {
        /// The tag that came too late.
        tag: u32,
        /// The tag before it.
        previous: u32,
    },
    /// A tag this struct knows, in a version where that field is not tagged (Kafka:
    /// "Tag N is not valid for version V").
    #[error("tag {tag} is not valid in version {version}")]
    TagNotInVersion {
        /// The tag.
        tag: u32,
        /// The version being decoded.
        version: i16,
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
    /// A length or count went over one of the reader's
    /// [`DecodeLimits`](crate::DecodeLimits); refused where it was read, before
    /// anything was sized by it.
    #[error("{limit} of {value} is over the limit of {max}")]
    LimitExceeded {
        /// The limit.
        limit: crate::Limit,
        /// The length or count asked for (for a per-message total, the total with
        /// this value included).
        value: u64,
        /// The limit's value.
        max: u64,
    },
}

/// An input that could not be decoded: what, where (field path) and at which byte.
///
/// ```
/// use bytes::Bytes;
/// use kwire::{DecodeErrorKind, Wire, Cx, Reader};
///
/// let input = Bytes::from_static(&[0x00]);
/// let mut reader = Reader::new(&input);
/// let err = i32::read(&mut reader, Cx::new(0, false)).unwrap_err();
/// assert!(matches!(err.kind(), DecodeErrorKind::UnexpectedEof { needed: 4, remaining: 1 }));
/// assert_eq!(err.offset(), 0);
/// assert_eq!(err.to_string(), "unexpected end of input: needed 4 more bytes, 1 remain at byte 0");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<DecodeFailure>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct DecodeFailure {
    kind: DecodeErrorKind,
    offset: usize,
    path: FieldPath,
}

impl DecodeError {
    /// An error of `kind` at byte `offset` of the input.
    #[cold]
    pub fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        DecodeError(Box::new(DecodeFailure {
            kind,
            offset,
            path: FieldPath::default(),
        }))
    }

    /// What went wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.0.kind
    }

    /// The byte offset in the input where it went wrong.
    pub fn offset(&self) -> usize {
        self.0.offset
    }
}

/// The path methods both errors share: the path is built as the error travels up.
macro_rules! path_methods {
    ($error:ident, $example:literal) => {
        impl $error {
            #[doc = concat!("The field at fault, e.g. ", $example, ".")]
            pub fn path(&self) -> &FieldPath {
                &self.0.path
            }

            /// Adds an enclosing field or message name to the path.
            #[cold]
            pub fn within(mut self, name: &'static str) -> Self {
                self.0.path.push(PathSegment::Name(name));
                self
            }

            /// Adds the position of the array element the error is in.
            #[cold]
            pub fn at_index(mut self, index: usize) -> Self {
                self.0.path.push(PathSegment::Index(index));
                self
            }
        }
    };
}

path_methods!(DecodeError, "`ApiVersionsResponse.ApiKeys[2].MinVersion`");
path_methods!(EncodeError, "`ApiVersionsRequest.ClusterId`");

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path().is_empty() {
            write!(f, "{}: ", self.path())?;
        }
        write!(f, "{} at byte {}", self.kind(), self.offset())
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("kind", self.kind())
            .field("offset", &self.offset())
            .field("path", self.path())
            .finish()
    }
}

impl std::error::Error for DecodeError {}

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
    /// Strict encoding only: an ignorable field holding a non-default value is
    /// missing from this version. Kafka's rule (and [`Message::encode`]) drops the
    /// value silently; [`Message::encode_strict`] refuses it, so that a value the
    /// caller set is not lost on the way (a topic name at a version that carries
    /// only topic IDs, say).
    ///
    /// [`Message::encode`]: crate::Message::encode
    /// [`Message::encode_strict`]: crate::Message::encode_strict
    #[error("field is set but does not exist in version {version}: it is ignorable, so a non-strict encode would drop its value silently")]
    IgnorableFieldDropped {
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
    /// [`Wire::write`](crate::Wire::write) was called without a successful
    /// [`Wire::size`](crate::Wire::size) of the same value into the same
    /// [`Sizes`](crate::wire::Sizes): a bug in the caller, refused rather than
    /// written wrong.
    #[error("written without being sized first")]
    NotSized,
}

/// A value that cannot be written at the requested version, with the field at fault.
///
/// ```
/// use kwire::{EncodeError, EncodeErrorKind};
///
/// let err = EncodeError::new(EncodeErrorKind::NullNotAllowed { version: 2 })
///     .within("ClientId")
///     .within("RequestHeader");
/// assert_eq!(
///     err.to_string(),
///     "RequestHeader.ClientId: null value, but the field is not nullable in version 2"
/// );
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct EncodeError(Box<EncodeFailure>);

#[derive(Debug, Clone, PartialEq, Eq)]
struct EncodeFailure {
    kind: EncodeErrorKind,
    path: FieldPath,
}

impl EncodeError {
    /// An error of `kind` with an empty path.
    #[cold]
    pub fn new(kind: EncodeErrorKind) -> Self {
        EncodeError(Box::new(EncodeFailure {
            kind,
            path: FieldPath::default(),
        }))
    }

    /// What went wrong.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.0.kind
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path().is_empty() {
            write!(f, "{}: ", self.path())?;
        }
        write!(f, "{}", self.kind())
    }
}

impl fmt::Debug for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncodeError")
            .field("kind", self.kind())
            .field("path", self.path())
            .finish()
    }
}

impl std::error::Error for EncodeError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    #[test]
    fn errors_are_a_pointer_wide() {
        assert_eq!(std::mem::size_of::<DecodeError>(), 8);
        assert_eq!(std::mem::size_of::<EncodeError>(), 8);
        assert_eq!(std::mem::size_of::<Result<(), DecodeError>>(), 8);
    }

    #[test]
    fn paths_read_from_the_outside_in_with_positions() {
        let err = DecodeError::new(DecodeErrorKind::InvalidUtf8, 7)
            .within("Name")
            .at_index(3)
            .within("Topics")
            .within("MetadataResponse");
        assert_eq!(err.path().to_string(), "MetadataResponse.Topics[3].Name");
        assert_eq!(
            err.to_string(),
            "MetadataResponse.Topics[3].Name: string is not valid UTF-8 at byte 7"
        );
    }

    #[test]
    fn each_fact_is_said_once() {
        // `Display` says everything, so nothing is returned again as a source: a
        // chain walker (anyhow's `{:#}`) prints the message once.
        let decode = DecodeError::new(DecodeErrorKind::InvalidUtf8, 0).within("Name");
        assert!(decode.source().is_none());
        let encode = EncodeError::new(EncodeErrorKind::TagClash(3)).within("Name");
        assert!(encode.source().is_none());
    }
}

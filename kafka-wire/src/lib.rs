//! Apache Kafka's wire protocol as plain Rust structs.
//!
//! Write a message as a struct, annotate it with `#[kafka(...)]` the way Kafka's JSON
//! schemas annotate fields, and derive [`Message`]: you get exact, version-conditional
//! encoding, decoding and sizing, runtime [schema] metadata, and compile errors for
//! schema mistakes (a tag outside the flexible versions, a nullable range outside the
//! field's versions, …).
//!
//! ```
//! use kwire::{KafkaString, Message, UnknownTaggedFields};
//!
//! /// Announces a node.
//! #[derive(Debug, Clone, PartialEq, kwire::Message)]
//! #[kafka(kind = data, versions = "0-2", flexible = "2+")]
//! pub struct NodeAnnouncement {
//!     /// The node's ID.
//!     #[kafka(versions = "0+")]
//!     pub node_id: i32,
//!     /// Its rack, if known.
//!     #[kafka(versions = "1+", nullable = "1+", default = null, ignorable)]
//!     pub rack: Option<KafkaString>,
//!     /// Its weight, only written when not the default.
//!     #[kafka(versions = "2+", tag = 0, default = 100)]
//!     pub weight: i32,
//!     /// Tags this code does not know.
//!     #[kafka(unknown_tagged)]
//!     pub unknown_tagged_fields: UnknownTaggedFields,
//! }
//!
//! let node = NodeAnnouncement::default().with_node_id(7).with_weight(5);
//! let bytes = node.encode(2).unwrap();
//! assert_eq!(&bytes[..], [0, 0, 0, 7, 0, 1, 0, 4, 0, 0, 0, 5]);
//! assert_eq!(NodeAnnouncement::decode(&bytes, 2).unwrap(), node);
//! // Version 0 has no tagged fields: the non-default weight cannot be written there.
//! assert!(node.encode(0).is_err());
//! ```
//!
//! Every derived message carries its schema as [`Message::SCHEMA`] (a
//! [`schema::MessageSchema`]: each field's type, versions, tags, defaults and
//! docs), and [`schema::MessageSchema::to_kafka_json`] writes it out as Kafka's
//! JSON schema file, for Kafka's own generator or another language's:
//! `NodeAnnouncement::SCHEMA.to_kafka_json()?`.
//!
//! # Features
//!
//! - `json`: Kafka's JSON form of every derived message and struct (module `json`;
//!   `Message::to_json` / `Message::from_json`), as Kafka's generated
//!   `<Message>JsonConverter` writes and reads it. Off by default, so that users
//!   who do not want it do not compile it.
//! - `gzip`, `snappy`, `lz4`, `zstd` (all four: `compression`): record batch
//!   codecs for [`records`].
//!
//! # Limits a server sets
//!
//! Decoding keeps to a [`DecodeLimits`]: the largest frame, string, bytes value
//! and array, and per message the array elements, records and decompressed bytes
//! in all. Each is checked where its length or count is read, before anything is
//! sized by it, and refused as [`LimitExceeded`](DecodeErrorKind::LimitExceeded)
//! naming the [`Limit`]. [`Message::decode`] keeps to the defaults (this crate's
//! bounds without limits); [`Message::decode_with_limits`], the frame decoders of
//! `kwire-messages` and the splitters of `kwire-net` take a server's own. Once a
//! request is decoded, [`Wire::retained_size`] says how much heap memory it holds,
//! for a server to admit it into a queue or refuse it.
//!
//! # Where this crate is stricter than Kafka
//!
//! Kafka's Java code accepts some inputs that this crate refuses, each because
//! accepting it would lose or invent data, or would decode what cannot be encoded
//! again. Every refusal is a typed [`DecodeErrorKind`]:
//!
//! - **A length below -1** is [`InvalidLength`](DecodeErrorKind::InvalidLength);
//!   Kafka reads every negative length as null.
//! - **Invalid UTF-8** in a string is [`InvalidUtf8`](DecodeErrorKind::InvalidUtf8);
//!   Kafka replaces it with U+FFFD, changing the string.
//! - **A known tagged field whose value does not fill its declared size** is
//!   [`TaggedFieldSize`](DecodeErrorKind::TaggedFieldSize); Kafka skips nothing and
//!   reads on from wherever the value ended.
//! - **Tags that do not strictly ascend** in a tagged section (a repeated tag
//!   included) are [`TagsOutOfOrder`](DecodeErrorKind::TagsOutOfOrder); Kafka's
//!   reader accepts them, but its writer refuses to write them back.
//! - **Bytes after a message** passed to [`Message::decode`] are
//!   [`TrailingBytes`](DecodeErrorKind::TrailingBytes); Kafka's broker ignores what
//!   follows a request body. [`Message::read_from`] reads a message and leaves the
//!   rest to the caller; `kwire_messages::frame::RequestFrame` reads request
//!   bodies either way.
//! - **In Kafka's JSON form** (feature `json`), a key that is no field of the struct
//!   is refused; Kafka's converter ignores it.
//! - **In record batches** ([`records`]), a key, value or header length below -1 is
//!   [`BadLength`](records::RecordsError::BadLength) where Kafka reads null, and a
//!   batch declaring 0 records that holds records is
//!   [`TrailingBytes`](records::RecordsError::TrailingBytes) where Kafka's iterator
//!   returns no records without reading them. (Any other `recordsCount` that differs
//!   from the records present Kafka refuses too: more is
//!   [`RecordCount`](records::RecordsError::RecordCount), fewer `TrailingBytes`.)
//!   `tests/judge/records_run` checks both against Kafka's `MemoryRecords`.
//! - **Writing record batches** ([`records::RecordBatchBuilder`]), a record offset
//!   delta beyond an int32 is
//!   [`OffsetDeltaOutOfRange`](records::RecordsError::OffsetDeltaOutOfRange) where
//!   Kafka's builder casts it to an int, writing another offset; a last offset delta
//!   below the last record's is
//!   [`LastOffsetDeltaTooSmall`](records::RecordsError::LastOffsetDeltaTooSmall)
//!   where Kafka's `overrideLastOffset` writes it.
//!
//! One refusal is earlier, not stricter: an array whose count of elements could not
//! fit in the bytes left, even with each element at its smallest encoding at that
//! version, is [`ArrayTooLong`](DecodeErrorKind::ArrayTooLong) before any element
//! is read, where Kafka reads elements until the input runs out.
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

// The derives name the runtime `::kwire`: so it is named here too, for the unit
// tests that derive their own messages.
#[cfg(test)]
extern crate self as kwire;

mod any_message;
mod attribute_types;
pub mod dispatch;
mod encoder;
mod error;
mod field_rules;
#[cfg(feature = "json")]
pub mod json;
mod limits;
mod message;
pub mod records;
pub mod schema;
pub mod walk;
pub mod wire;

/// The one path generated code names this crate by. Its name carries the package
/// version (see `tests` below) and `kwire-derive` names it with its own, so a derive
/// paired with a runtime of another version fails to compile at once.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private_0_1_0;

pub use any_message::AnyMessage;
pub use dispatch::{
    ApiRequest, ApiResponse, DispatchError, MessageEnum, RequestEnum, ResponseEnum, WithMessage,
    WrongMessage,
};
pub use encoder::Encoder;
pub use error::{
    DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, FieldPath, PathSegment,
};
pub use kwire_version::{VersionRange, VersionRangeError};
pub use limits::{DecodeLimits, Limit};
pub use message::{JsonForm, Message, Struct};
pub use wire::reader::Reader;
pub use wire::{
    Cx, KafkaString, Nullable, RawTaggedField, Records, UnknownTaggedFields, Uuid, UuidParseError,
    Wire,
};

/// Derives [`Message`] (and [`Struct`], [`Wire`], `Default`) for a top-level message.
pub use kwire_derive::Message;
/// Derives [`MessageEnum`] and [`RequestEnum`](trait@RequestEnum) for an enum with one
/// variant per request type (see [`dispatch`]).
pub use kwire_derive::RequestEnum;
/// Derives [`MessageEnum`] and [`ResponseEnum`](trait@ResponseEnum) for an enum with
/// one variant per response type (see [`dispatch`]).
pub use kwire_derive::ResponseEnum;
/// Derives [`Struct`] (and [`Wire`], `Default`) for a nested structure.
pub use kwire_derive::Struct;

// `bytes` is part of the API (decoding takes `Bytes`); re-exported so users match versions.
pub use bytes;

/// A vector that holds its first few elements in place: Kafka's `[]T` for arrays that
/// are usually short, such as replica lists, whose decoding then allocates nothing.
/// Re-exported from the [`smallvec`](https://docs.rs/smallvec) crate so users match versions.
///
/// ```
/// use kwire::{smallvec, Cx, SmallVec, Wire};
///
/// let replicas: SmallVec<[i32; 4]> = smallvec![1, 2, 3];
/// assert!(!replicas.spilled()); // three IDs fit in place: no heap allocation
/// let mut wire = kwire::wire::Writer::contiguous(13);
/// let mut sizes = kwire::wire::Sizes::new();
/// replicas.write(&mut wire, Cx::new(0, true), &mut sizes).unwrap(); // count + 1, then the IDs
/// assert_eq!(wire.into_buf()[..], [4, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]);
/// ```
pub use smallvec::{smallvec, SmallVec};

#[cfg(test)]
mod tests {
    /// The private module is `__private_` and this package's version, each `.`, `-`
    /// or `+` as `_`: the name `kwire-derive` builds from its own version (which is
    /// the workspace's, as is this crate's).
    #[test]
    fn the_private_module_is_named_for_the_package_version() {
        macro_rules! module_name {
            ($module:ident) => {{
                // Compiles only while the module has this name.
                #[allow(unused_imports)]
                use crate::$module as _;
                stringify!($module)
            }};
        }
        let version: String = env!("CARGO_PKG_VERSION")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        assert_eq!(
            module_name!(__private_0_1_0),
            format!("__private_{version}"),
            "rename the private module in lib.rs for the new version"
        );
    }
}

/// The crate README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
